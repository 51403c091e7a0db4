//! What one render frame of the town draws: the output of its presentation, the input of its
//! renderer.

use std::sync::Arc;

use fixstep_runtime::{EntityId, Player};
use fixstep_town::state::Role;
use glam::{Quat, Vec3};

use fixstep_present::CameraDraw;

use super::samples::{CharacterSample, ObjectSample, TaxiSample};

/// The role of a character the level does not know (a spectator not yet told who it is, the
/// screenshot's extra crowd): a pedestrian no level has, labelled as unknown.
pub const STRANGER: Role = Role::Pedestrian(u32::MAX);

/// One character as this frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterDraw {
    /// Its id.
    pub id: EntityId,
    /// Who it is: the level names it by this.
    pub role: Role,
    /// Its interpolated visual values.
    pub sample: CharacterSample,
    /// The speed it is drawn moving at, metres per second: the distance between its two
    /// samples over a tick, zero right after a reset.
    pub speed: f32,
    /// The tick it is drawn at: the frame's render tick, or for the own character its
    /// predicted time, ahead of the world.
    pub tick: f64,
    /// Whether it is the local player's own character, drawn from the prediction.
    pub local: bool,
}

/// One taxi as this frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TaxiDraw {
    /// Index in the level's taxis.
    pub index: usize,
    /// Its interpolated visual values.
    pub sample: TaxiSample,
}

/// One interactive object as this frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectDraw {
    /// Index in the level's objects.
    pub index: usize,
    /// Offset from its level position, world metres.
    pub offset: Vec3,
    /// Rotation about its pivot.
    pub rotation: Quat,
    /// Uniform scale.
    pub scale: f32,
    /// Opacity, 0 to 1.
    pub opacity: f32,
}

impl ObjectDraw {
    /// Object `index` drawn as `sample` says.
    #[must_use]
    pub const fn of(index: usize, sample: &ObjectSample) -> Self {
        Self {
            index,
            offset: sample.offset,
            rotation: sample.rotation,
            scale: sample.scale,
            opacity: sample.opacity,
        }
    }
}

impl CharacterDraw {
    /// The player it belongs to, if it is a player's.
    #[must_use]
    pub const fn player(&self) -> Option<Player> {
        match self.role {
            Role::Player(p) => Some(p),
            Role::Pedestrian(_) | Role::Talker(_) => None,
        }
    }
}

/// The dialogue box.
#[derive(Clone, Debug, PartialEq)]
pub struct DialogueDraw {
    /// Who speaks.
    pub speaker: Arc<str>,
    /// The whole line.
    pub text: Arc<str>,
    /// How many of its characters (chars, not bytes) the typewriter has revealed.
    pub shown_chars: usize,
}

impl DialogueDraw {
    /// The revealed part of the line.
    #[must_use]
    pub fn shown(&self) -> &str {
        match self.text.char_indices().nth(self.shown_chars) {
            Some((byte, _)) => &self.text[..byte],
            None => &self.text,
        }
    }
}

/// An image of a cutscene as drawn now.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageDraw {
    /// Image file, relative to `assets/`.
    pub image: Arc<str>,
    /// Centre, fractions of the screen from the top left.
    pub centre: [f32; 2],
    /// Height, fraction of the screen height.
    pub scale: f32,
    /// Opacity.
    pub opacity: f32,
}

/// A cutscene as drawn now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CutsceneDraw {
    /// Seconds since it started.
    pub elapsed: f32,
    /// The subtitle showing, if any.
    pub subtitle: Option<Arc<str>>,
    /// Images showing.
    pub images: Vec<ImageDraw>,
    /// Opacity of the black fade over everything, 0 to 1.
    pub fade: f32,
}

/// Everything one frame draws.
#[derive(Clone, Debug, Default)]
pub struct DrawFrame {
    /// The fractional tick the frame draws: the time it shows is `render_tick × 100 ms`.
    pub render_tick: f64,
    /// The latest completed tick.
    pub latest_tick: u32,
    /// Time of day, fraction of a day from midnight, interpolated.
    pub time_of_day: f32,
    /// Characters drawn (enabled, and at or after their first tick), in id order.
    pub characters: Vec<CharacterDraw>,
    /// Taxis, in level order.
    pub taxis: Vec<TaxiDraw>,
    /// Objects, in level order.
    pub objects: Vec<ObjectDraw>,
    /// The camera.
    pub camera: CameraDraw,
    /// Teleport-zone star particles, world positions.
    pub stars: Vec<Vec3>,
    /// The local player's dialogue box, if talking.
    pub dialogue: Option<DialogueDraw>,
    /// The local player's cutscene, if watching one.
    pub cutscene: Option<CutsceneDraw>,
    /// Players' names by player number, where the game knows them (network play); a player
    /// beyond the list is named by its number.
    pub player_names: Arc<[Arc<str>]>,
    /// Changes whenever `player_names` does, so a renderer that keeps laid-out names knows
    /// to lay them out again.
    pub names_version: u32,
}

impl DrawFrame {
    /// Names the players by player number ([`Self::player_names`]); the version of the names
    /// changes only when they do, so a renderer lays them out again only then.
    pub fn set_player_names<'a>(&mut self, names: impl ExactSizeIterator<Item = &'a str> + Clone) {
        let same = self.player_names.len() == names.len()
            && self.player_names.iter().zip(names.clone()).all(|(a, b)| **a == *b);
        if !same {
            self.player_names = names.map(Arc::from).collect();
            self.names_version = self.names_version.wrapping_add(1);
        }
    }
}
