//! The simulation state: everything that changes as the town runs, hashed per subsystem.

use std::sync::Arc;

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::{Canonical, EntityId, EntityStore, Tick};
use serde::{Deserialize, Serialize};

use crate::AnimState;
use crate::level::Easing;

/// The whole state of the town.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct GameState {
    /// The tick `step` runs next.
    pub next_tick: Tick,
    /// Time of day after the latest tick, as a fraction of a day in 2^-32 units (0 is midnight).
    pub time_of_day: u32,
    /// Every character: players, pedestrians and talkers, in id order.
    pub characters: EntityStore<Character>,
    /// Each player's character, by player index.
    pub players: Vec<EntityId>,
    /// The taxis, in level order.
    pub taxis: Vec<TaxiState>,
    /// The interactive objects, in level order.
    pub objects: Vec<ObjectState>,
    /// Teleport cooldowns and cutscene-trigger memory.
    pub zones: ZoneState,
    /// Dialogues under way, at most one per player, in player order.
    pub dialogues: Vec<DialogueState>,
    /// Cutscenes under way, at most one per player, in player order.
    pub cutscenes: Vec<CutsceneState>,
    /// The random numbers.
    pub rng: SimRng,
}

/// How a character is moving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub enum MoveMode {
    /// Standing.
    #[default]
    Idle,
    /// Walking.
    Walk,
    /// Running.
    Run,
}

/// Who drives a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub enum Controller {
    /// A player, by index.
    Player(u16),
    /// A pedestrian of the level, by index, and where it is on its route.
    Pedestrian {
        /// Index in `Level::pedestrians`.
        def: u32,
        /// The route point it walks to.
        target: u32,
        /// Ticks left to wait at a stop (0 when walking).
        wait: u32,
        /// The way it walks: a unit vector toward `target`, planned when it set off.
        dir: Vec2,
        /// Distance left to `target` along `dir`, metres; zero when a new leg needs planning.
        left: Fx,
        /// Where its own step left it: if it is anywhere else now (pushed, knocked back), it
        /// plans its way to `target` again.
        at: Vec2,
    },
    /// A talker of the level, by index.
    Talker(u32),
}

/// One character.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Character {
    /// Its name, over its head.
    pub name: Arc<str>,
    /// Who drives it.
    pub controller: Controller,
    /// Position on the ground, metres.
    pub pos: Vec2,
    /// Facing.
    pub facing: Angle,
    /// Displacement over the latest tick, metres per tick (what it was drawn moving at).
    pub velocity: Vec2,
    /// Knockback still carrying it, metres per tick.
    pub knockback: Vec2,
    /// How it is moving.
    pub mode: MoveMode,
    /// What its animation shows.
    pub anim: AnimState,
    /// Fractional frame in its clip.
    pub frame: Fx,
    /// Whether it is in the world (a character with no health is disabled until it respawns).
    pub enabled: bool,
    /// Counts the times the rules put it somewhere new (teleport, respawn): presentation never
    /// draws between two places across a change.
    pub jumps: u32,
    /// Health, 0..=`MAX_HEALTH`.
    pub health: i32,
    /// Ticks of stagger left after a strike.
    pub stagger: u32,
    /// Ticks since it was last struck (saturating), for health regeneration.
    pub since_hit: u32,
    /// Ticks left before a downed character respawns.
    pub down: u32,
}

/// The state of one taxi (`NpcCar`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct TaxiState {
    /// Position of the body's centre, metres.
    pub pos: Vec2,
    /// Body yaw.
    pub yaw: Angle,
    /// Speed along the yaw, metres per tick (never negative).
    pub speed: Fx,
    /// Front wheels' steering angle, signed (positive turns left).
    pub steer: Angle,
    /// Wheel rotation about the axle, from distance travelled.
    pub wheel_rotation: Angle,
    /// Index in the taxi's route of the waypoint it drives to.
    pub target: u32,
    /// Ticks left standing at a stand (0 when driving).
    pub standing: u32,
    /// Ticks it has stood still behind another taxi.
    pub held: u32,
    /// Whether it stands still: set when it stops, cleared when it moves.
    pub at_rest: bool,
    /// Counts the times it was put somewhere new.
    pub jumps: u32,
}

/// One interactive object's authoritative transform and behaviour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct ObjectState {
    /// Offset from its level position, metres (x east, y up, z south).
    pub offset: Vec3,
    /// Rotation about the vertical axis through its pivot (a door's hinge).
    pub rotation: Angle,
    /// Uniform scale (1 is as built).
    pub scale: Fx,
    /// Opacity, 0 (invisible) to 1.
    pub opacity: Fx,
    /// Where it is in its cycle.
    pub phase: ObjectPhase,
    /// The tick its current phase ends by itself, if it does.
    pub phase_until: Option<Tick>,
    /// Transform tasks running, in the order they were started.
    pub tasks: Vec<Task>,
    /// Counts the times it was put somewhere new.
    pub jumps: u32,
}

/// Where an object is in its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub enum ObjectPhase {
    /// A door shut.
    Closed,
    /// A door swinging open.
    Opening,
    /// A door open.
    Open,
    /// A door swinging shut.
    Closing,
    /// A lift waiting at the bottom.
    AtBottom,
    /// A lift rising.
    Rising,
    /// A lift waiting at the top.
    AtTop,
    /// A lift going down.
    Falling,
    /// A sign fully visible.
    Shown,
    /// A sign fading out.
    FadingOut,
    /// A sign faded out.
    Hidden,
    /// A sign fading in.
    FadingIn,
}

/// An authoritative change of an object's transform over a number of ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Task {
    /// What it changes, from what to what.
    pub kind: TaskKind,
    /// The first tick it acts on.
    pub start: Tick,
    /// Ticks it takes (> 0); at its last tick the value is exactly the target.
    pub duration: u32,
    /// The shape of its progress.
    pub easing: TaskEasing,
}

/// [`Easing`], as state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub enum TaskEasing {
    /// Constant rate.
    Linear,
    /// Smoothstep.
    InOut,
}

impl From<Easing> for TaskEasing {
    fn from(easing: Easing) -> Self {
        match easing {
            Easing::Linear => Self::Linear,
            Easing::InOut => Self::InOut,
        }
    }
}

/// What a task changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub enum TaskKind {
    /// The offset, from one to another.
    Move {
        /// Offset at the start.
        from: Vec3,
        /// Offset at the end.
        to: Vec3,
    },
    /// The rotation, by a signed number of angle units (so a turn of more than half a turn
    /// keeps its direction).
    Rotate {
        /// Rotation at the start.
        from: Angle,
        /// Signed turn to make, in angle units.
        by: i64,
    },
    /// The scale.
    Scale {
        /// Scale at the start.
        from: Fx,
        /// Scale at the end.
        to: Fx,
    },
    /// The opacity.
    Fade {
        /// Opacity at the start.
        from: Fx,
        /// Opacity at the end.
        to: Fx,
    },
}

/// Teleport cooldowns and cutscene triggers' memory, sorted by character id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct ZoneState {
    /// Characters that teleported recently, and the first tick they may teleport again.
    pub cooldowns: Vec<(EntityId, Tick)>,
    /// (character, trigger index) pairs for characters standing in a trigger zone: a cutscene
    /// starts on entering, not on standing.
    pub inside_triggers: Vec<(EntityId, u32)>,
    /// (character, trigger index) pairs of `once` triggers already played.
    pub played: Vec<(EntityId, u32)>,
}

/// A dialogue under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct DialogueState {
    /// The player talking.
    pub player: u16,
    /// The talker character.
    pub talker: EntityId,
    /// Index of the script in `Level::dialogues`.
    pub dialogue: u32,
    /// The line being said.
    pub line: u32,
    /// The tick that line started.
    pub line_started: Tick,
}

/// A cutscene under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct CutsceneState {
    /// The player watching.
    pub player: u16,
    /// Index of the script in `Level::cutscenes`.
    pub cutscene: u32,
    /// The tick it started.
    pub started: Tick,
}
