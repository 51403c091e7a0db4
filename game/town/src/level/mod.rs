//! Levels: the file format ([`model`]), and the validated, fixed-point [`Level`] the rules run
//! on. A `Level` is what a level is built from; it never changes while the game runs, is not
//! part of the simulation state, and is not hashed (the replay names it instead).

pub mod load;
pub mod model;
mod stress;

use std::sync::Arc;

use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::{Canonical, ContentDigest};

use crate::state::Role;

pub use crate::geom::{Circle, Rect};
pub use load::{
    CLIP_FILE, CUTSCENE_FILE, CUTSCENE_IMAGE_FILE, DIALOGUE_FILE, LEVEL_FILE, LevelError,
    LevelProblem, MAX_LISTED_PROBLEMS, load_clips, load_level, load_level_str, read_level,
    validate_level_file,
};
pub use model::Easing;
pub use stress::{
    MAX_STRESS_SCALE, STRESS_CLIP_FILE, STRESS_NAME, STRESS_OBJECTS, STRESS_PEDESTRIANS,
    STRESS_TAXIS, StressScale, StressScaleError, crowd_level, crowd_level_file, read_stress_level,
    stress_level, stress_level_at, stress_level_file, stress_level_file_at,
};

/// The most pedestrians a level may hold: the generated stress level at its largest scale
/// ([`MAX_STRESS_SCALE`] times its 10,000). A tick's work grows with the walkers, about in
/// proportion (the benchmarks measure 1, 4 and 10 times), and 200,000 of them stay inside a
/// tick's 100 ms on a laptop's core. A level file's megabyte
/// ([`LEVEL_FILE`]) holds a few thousand; the levels made in code reach this.
pub const MAX_PEDESTRIANS: usize = 200_000;

/// The most talkers a level may hold. Each press of interact looks at every talker, and each
/// may be in a dialogue at once, which a press looks through too: 256 keep a tick in which
/// every one of the most players presses interact to some 17 million comparisons, and are far
/// more speaking parts than a town writes dialogue for.
pub const MAX_TALKERS: usize = 256;

/// The most zones a level may hold: teleport zones (two a teleport) and cutscene triggers
/// together. Every character is checked against the teleport zones each tick and every player
/// against the triggers, and the level's check compares every zone with every other, so a few
/// dozen keep those to a few comparisons a character; the town has five.
pub const MAX_ZONES: usize = 32;

/// Index of a waypoint in [`Level::waypoints`].
pub type WaypointIndex = u32;

/// Index of a clip in [`Clips::defs`].
pub type ClipIndex = u16;

/// A validated level, in fixed-point metres, binary angles and ticks, with every reference
/// resolved to an index.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct Level {
    /// The level's name.
    pub name: String,
    /// Where it was loaded from (a path under `assets/`), or the generator's name. Not part of
    /// its [`digest`](Self::digest): the same content from another place is the same level.
    #[canonical(skip)]
    pub source: String,
    /// The files it was read from: the level file, and every file it names (clips, dialogue
    /// and cutscene scripts, the cutscenes' images), by their names under the assets; empty
    /// for a level made in code. A replay carries them, so the level loads and draws where
    /// the assets differ or are missing. Not part of its [`digest`](Self::digest): the
    /// digest is of the values read, not of the text.
    #[canonical(skip)]
    pub files: Arc<ContentFiles>,
    /// The ground; nothing stands outside it.
    pub ground: Rect,
    /// Ticks in a full day of the time-of-day cycle (> 0).
    pub ticks_per_day: u32,
    /// Time of day at tick 0, as a fraction of a day in 2^-32 units (0 is midnight).
    pub start_time_of_day: u32,
    /// The animation clips.
    pub clips: Clips,
    /// Street graph points.
    pub waypoints: Vec<Vec2>,
    /// Directed lanes between waypoints.
    pub lanes: Vec<(WaypointIndex, WaypointIndex)>,
    /// Solid buildings.
    pub buildings: Vec<BuildingDef>,
    /// Player spawn points, at least one.
    pub spawns: Vec<SpawnDef>,
    /// Interactive objects, in file order (their simulation order).
    pub objects: Vec<ObjectDef>,
    /// Teleport pairs.
    pub teleports: Vec<TeleportDef>,
    /// Walking NPCs.
    pub pedestrians: Vec<PedestrianDef>,
    /// NPC taxis.
    pub taxis: Vec<TaxiDef>,
    /// NPCs that talk.
    pub talkers: Vec<TalkerDef>,
    /// Dialogue scripts, referred to by index from `talkers`.
    pub dialogues: Vec<DialogueDef>,
    /// Cutscene trigger zones.
    pub cutscene_triggers: Vec<CutsceneTriggerDef>,
    /// Cutscene scripts, referred to by index from `cutscene_triggers`.
    pub cutscenes: Vec<CutsceneDef>,
    /// Street lamps.
    pub lamps: Vec<LampDef>,
}

impl Level {
    /// The digest of the level's content: its canonical bytes (every value the rules and the
    /// presentation read, in fixed-point metres, binary angles and ticks, not the text it was
    /// read from), without its [`source`](Self::source). Replays record it and refuse a level
    /// that changed; the network handshake compares it.
    #[must_use]
    pub fn digest(&self) -> ContentDigest {
        ContentDigest::of(self)
    }

    /// The name over a character's head: a pedestrian's or talker's from the level, a
    /// player's from its number ("Player 1" for player 0).
    #[must_use]
    pub fn character_name(&self, role: Role) -> Arc<str> {
        let named = match role {
            Role::Player(p) => return format!("Player {}", u32::from(p.0) + 1).into(),
            Role::Pedestrian(i) => self.pedestrians.get(i as usize).map(|p| &p.name),
            Role::Talker(i) => self.talkers.get(i as usize).map(|t| &t.name),
        };
        named.map_or_else(|| Arc::from("?"), Arc::clone)
    }
}

/// The clips, and which of them each animation state of a character plays.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct Clips {
    /// Every clip of the file.
    pub defs: Vec<ClipDef>,
    /// The clip of each [`crate::AnimState`], by the state's index.
    pub by_state: [ClipIndex; crate::AnimState::COUNT],
}

/// One animation clip.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct ClipDef {
    /// Its name.
    pub name: String,
    /// Number of frames (> 0).
    pub frames: u32,
    /// Frames advanced per tick: fps / 10.
    pub frames_per_tick: Fx,
    /// Whether it repeats.
    pub looping: bool,
}

/// A building.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct BuildingDef {
    /// Its id in the file.
    pub id: String,
    /// Its footprint.
    pub footprint: Rect,
    /// Its height, metres.
    pub height: Fx,
}

/// A player spawn point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Canonical)]
pub struct SpawnDef {
    /// Position.
    pub at: Vec2,
    /// Facing.
    pub facing: Angle,
}

/// An interactive object.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct ObjectDef {
    /// Its id in the file.
    pub id: String,
    /// What it is.
    pub kind: ObjectDefKind,
}

/// The kinds of object, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub enum ObjectDefKind {
    /// A hinged door.
    Door(DoorDef),
    /// A lift platform.
    Lift(LiftDef),
    /// A fading sign.
    Sign(SignDef),
}

/// A door.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct DoorDef {
    /// Index of its building in [`Level::buildings`].
    pub building: u32,
    /// The hinge.
    pub hinge: Vec2,
    /// The free edge of the closed leaf.
    pub leaf_end: Vec2,
    /// Height, metres.
    pub height: Fx,
    /// Swing when open (never zero, under half a turn either way).
    pub open_angle: Angle,
    /// Ticks to swing (> 0).
    pub swing_ticks: u32,
    /// Ticks open before closing by itself (> 0).
    pub stay_open_ticks: u32,
    /// Easing of the swing.
    pub easing: Easing,
}

/// A lift.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct LiftDef {
    /// Footprint.
    pub footprint: Rect,
    /// Lowest height, metres.
    pub bottom: Fx,
    /// Highest height, metres.
    pub top: Fx,
    /// Ticks to travel (> 0).
    pub travel_ticks: u32,
    /// Ticks waiting at each end (> 0).
    pub wait_ticks: u32,
    /// Easing of the travel.
    pub easing: Easing,
}

/// A sign.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct SignDef {
    /// Position of its board's centre (x east, y up, z south).
    pub at: Vec3,
    /// Which way its face looks.
    pub facing: Angle,
    /// Its text.
    pub text: String,
    /// Ticks to fade (> 0).
    pub fade_ticks: u32,
    /// Ticks held at each end (> 0).
    pub hold_ticks: u32,
    /// Easing of the fade.
    pub easing: Easing,
}

/// A teleport pair.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct TeleportDef {
    /// Its id in the file.
    pub id: String,
    /// Its two ends; entering `ends[i].zone` sends a character to `ends[1 - i].exit`.
    pub ends: [TeleportEndDef; 2],
}

/// One end of a teleport pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Canonical)]
pub struct TeleportEndDef {
    /// The zone that sends a character away.
    pub zone: Circle,
    /// Where a character sent here appears.
    pub exit: Vec2,
    /// Its facing then.
    pub exit_facing: Angle,
}

/// A walking NPC.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct PedestrianDef {
    /// Its name, shared with every snapshot's presentation rather than copied.
    pub name: Arc<str>,
    /// Points it walks between, looping (at least 2).
    pub route: Vec<Vec2>,
    /// For each route point, whether it stops there.
    pub stops: Vec<bool>,
    /// Ticks at each stop (> 0).
    pub pause_ticks: u32,
    /// Walking speed, metres per tick (> 0).
    pub speed: Fx,
}

/// An NPC taxi.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct TaxiDef {
    /// Its id in the file.
    pub id: String,
    /// Waypoints it drives through, looping (at least 2, joined by lanes).
    pub route: Vec<WaypointIndex>,
    /// For each route entry, whether it is a stand.
    pub stands: Vec<bool>,
    /// Ticks at a stand (> 0).
    pub stand_ticks: u32,
    /// Top speed, metres per tick (> 0).
    pub max_speed: Fx,
}

/// An NPC that talks.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct TalkerDef {
    /// Its name, shared with every snapshot's presentation rather than copied.
    pub name: Arc<str>,
    /// Where it stands.
    pub at: Vec2,
    /// Its facing.
    pub facing: Angle,
    /// Index of its script in [`Level::dialogues`].
    pub dialogue: u32,
}

/// A dialogue script.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct DialogueDef {
    /// Path under `assets/`.
    pub source: String,
    /// The lines (at least 1).
    pub lines: Vec<LineDef>,
}

/// A line of dialogue.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct LineDef {
    /// Speaker.
    pub speaker: String,
    /// Text.
    pub text: String,
    /// Ticks before it advances by itself (> 0).
    pub duration_ticks: u32,
}

/// A cutscene trigger.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct CutsceneTriggerDef {
    /// Its id in the file.
    pub id: String,
    /// The zone.
    pub zone: Circle,
    /// Index of its script in [`Level::cutscenes`].
    pub cutscene: u32,
    /// Whether it plays only once per character.
    pub once: bool,
}

/// A cutscene script.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct CutsceneDef {
    /// Path under `assets/`.
    pub source: String,
    /// Length, ticks (> 0).
    pub duration_ticks: u32,
    /// Camera keys in time order (at least 1).
    pub camera: Vec<CameraKeyDef>,
    /// Subtitles.
    pub subtitles: Vec<model::Subtitle>,
    /// Images.
    pub images: Vec<model::CutsceneImage>,
    /// Fade length at each end, ticks.
    pub fade_ticks: u32,
}

/// A camera key of a cutscene.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Canonical)]
pub struct CameraKeyDef {
    /// Tick from the cutscene's start.
    pub at_tick: u32,
    /// Camera position (x east, y up, z south).
    pub eye: Vec3,
    /// Point looked at.
    pub target: Vec3,
}

/// A street lamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Canonical)]
pub struct LampDef {
    /// Position on the ground.
    pub at: Vec2,
    /// Height of the light, metres.
    pub height: Fx,
}
