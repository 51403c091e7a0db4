//! What the rules publish after every tick for the presentation: a completed, immutable view
//! of everything that moves. Static things (buildings, streets, object definitions, the
//! characters' names) are in the level, which the presentation reads directly.

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::{EntityId, Player, Tick};

use crate::AnimState;
use crate::level::ClipIndex;
use crate::state::{CutsceneState, DialogueState, MoveMode, Role};

/// The town after a tick.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSnapshot {
    /// Ticks run so far: this is the state at time `tick × 100 ms`.
    pub tick: Tick,
    /// Time of day, as a fraction of a day in 2^-32 units (0 is midnight).
    pub time_of_day: u32,
    /// Every character, in id order.
    pub characters: Vec<CharacterView>,
    /// Every taxi, in level order.
    pub taxis: Vec<TaxiView>,
    /// Every interactive object, in level order.
    pub objects: Vec<ObjectView>,
    /// Dialogues under way.
    pub dialogues: Vec<DialogueState>,
    /// Cutscenes under way.
    pub cutscenes: Vec<CutsceneState>,
    /// Each player's character.
    pub players: Vec<EntityId>,
}

impl GameSnapshot {
    /// The view of the character with `id`, found by binary search (views are in id order).
    #[must_use]
    pub fn character(&self, id: EntityId) -> Option<&CharacterView> {
        self.characters.binary_search_by_key(&id, |c| c.id).ok().map(|i| &self.characters[i])
    }

    /// The view of player `player`'s character.
    #[must_use]
    pub fn player_character(&self, player: Player) -> Option<&CharacterView> {
        self.players.get(player.index()).and_then(|&id| self.character(id))
    }
}

/// One character as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharacterView {
    /// Its id.
    pub id: EntityId,
    /// Who it is; its name is the level's [`character_name`](crate::level::Level::character_name)
    /// of this.
    pub role: Role,
    /// The player it belongs to, if any.
    pub player: Option<Player>,
    /// Position, metres.
    pub pos: Vec2,
    /// Facing.
    pub facing: Angle,
    /// Displacement over the latest tick, metres per tick.
    pub velocity: Vec2,
    /// How it moves.
    pub mode: MoveMode,
    /// Animation state.
    pub anim: AnimState,
    /// The clip it plays.
    pub clip: ClipIndex,
    /// Fractional frame in the clip.
    pub frame: Fx,
    /// Whether it is in the world.
    pub enabled: bool,
    /// Jump counter: a change means do not draw between the two places.
    pub jumps: u32,
    /// Health.
    pub health: i32,
}

/// One taxi as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaxiView {
    /// Body centre, metres.
    pub pos: Vec2,
    /// Body yaw.
    pub yaw: Angle,
    /// Steering angle of the front wheels.
    pub steer: Angle,
    /// Wheel rotation about the axles.
    pub wheel_rotation: Angle,
    /// Speed, metres per tick.
    pub speed: Fx,
    /// Whether it stands still.
    pub at_rest: bool,
    /// Jump counter.
    pub jumps: u32,
}

/// One interactive object's transform as drawn (its level definition says where and what).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectView {
    /// Offset from its level position, metres.
    pub offset: Vec3,
    /// Rotation about the vertical axis through its pivot.
    pub rotation: Angle,
    /// Uniform scale.
    pub scale: Fx,
    /// Opacity, 0 to 1.
    pub opacity: Fx,
    /// Jump counter.
    pub jumps: u32,
}
