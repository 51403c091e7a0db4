//! The simulation state: everything that changes as the town runs, hashed per subsystem.
//!
//! The bulk of it, the characters and the taxis, is plain old data (`#[repr(C)]`, fixed-size
//! fields, no padding, checked at compile time by bytemuck's `NoUninit` derive), so that the
//! state hash reads it in place (`fixstep_runtime::hash::CanonicalPod`). What never changes
//! while the game runs, such as a character's name, is in the level, found by index.

use bytemuck::NoUninit;
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::{Canonical, EntityId, EntityStore, Player, Tick};
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
    /// Each seat's character, by player index. A free seat (its player left) keeps the id of
    /// the character that left with it, which names no live character: every look-up of a
    /// player's character finds none there, and a state in which nobody ever left is the same
    /// bytes, and hash, as before seats could be freed.
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
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(u8)]
pub enum MoveMode {
    /// Standing.
    #[default]
    Idle,
    /// Walking.
    Walk,
    /// Running.
    Run,
}

/// Who a character is: a player, or a pedestrian or talker of the level, with its index. The
/// level holds what does not change (a name, a route), found by this index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A player, by number.
    Player(Player),
    /// A pedestrian of the level, by index in `Level::pedestrians`.
    Pedestrian(u32),
    /// A talker of the level, by index in `Level::talkers`.
    Talker(u32),
}

/// [`Role`] without its index, as a character stores it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(u8)]
pub enum RoleKind {
    /// A player.
    #[default]
    Player,
    /// A pedestrian of the level.
    Pedestrian,
    /// A talker of the level.
    Talker,
}

/// Where a pedestrian is on its route. Every character has one, so that all characters have
/// one layout; only pedestrians use it, the others' stays zero.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(C)]
pub struct Leg {
    /// The way it walks: a unit vector toward `target`, planned when it set off.
    pub dir: Vec2,
    /// Where its own step left it: if it is anywhere else now (pushed, knocked back), it plans
    /// its way to `target` again.
    pub at: Vec2,
    /// Distance left to `target` along `dir`, metres; zero when a new leg needs planning.
    pub left: Fx,
    /// The route point it walks to.
    pub target: u32,
    /// Ticks left to wait at a stop (0 when walking).
    pub wait: u32,
}

/// One character: plain old data, hashed in place. (The fields run from the widest to the
/// narrowest, so that there is no padding between them.)
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(C)]
pub struct Character {
    /// Position on the ground, metres.
    pub pos: Vec2,
    /// Displacement over the latest tick, metres per tick (what it was drawn moving at).
    pub velocity: Vec2,
    /// Knockback still carrying it, metres per tick.
    pub knockback: Vec2,
    /// Fractional frame in its clip.
    pub frame: Fx,
    /// A pedestrian's way along its route.
    pub leg: Leg,
    /// Facing.
    pub facing: Angle,
    /// Health, 0..=`MAX_HEALTH`.
    pub health: i32,
    /// Counts the times the rules put it somewhere new (teleport, respawn): presentation never
    /// draws between two places across a change.
    pub jumps: u32,
    /// Ticks of stagger left after a strike.
    pub stagger: u32,
    /// Ticks since it was last struck (saturating), for health regeneration.
    pub since_hit: u32,
    /// Ticks left before a downed character respawns.
    pub down: u32,
    /// Its player's index, or its index among the level's pedestrians or talkers.
    pub index: u32,
    /// What it is: with `index`, its [`Role`].
    pub kind: RoleKind,
    /// How it is moving.
    pub mode: MoveMode,
    /// What its animation shows.
    pub anim: AnimState,
    /// Whether it is in the world (a character with no health is disabled until it respawns).
    pub enabled: bool,
}

impl Character {
    /// Who it is.
    #[must_use]
    pub fn role(&self) -> Role {
        match self.kind {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "player numbers are stored from a u16: the cast gives the number back"
            )]
            RoleKind::Player => Role::Player(Player(self.index as u16)),
            RoleKind::Pedestrian => Role::Pedestrian(self.index),
            RoleKind::Talker => Role::Talker(self.index),
        }
    }

    /// The player it belongs to, if any.
    #[must_use]
    pub fn player(&self) -> Option<Player> {
        match self.role() {
            Role::Player(p) => Some(p),
            _ => None,
        }
    }
}

/// The state of one taxi (`NpcCar`): plain old data, hashed in place.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(C)]
pub struct TaxiState {
    /// Position of the body's centre, metres.
    pub pos: Vec2,
    /// The unit vector of `yaw`, kept with it: a taxi driving straight on needs no sine or
    /// cosine from one tick to the next.
    pub forward: Vec2,
    /// Speed along the yaw, metres per tick (never negative; zero when it stands still).
    pub speed: Fx,
    /// Body yaw.
    pub yaw: Angle,
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
    /// Counts the times it was put somewhere new.
    pub jumps: u32,
    /// Always zero: fills the struct to its 8-byte alignment, so that it has no padding bytes,
    /// whose values would be undefined, and can be hashed in place.
    pub reserved: u32,
}

impl TaxiState {
    /// Whether it stands still.
    #[must_use]
    pub fn at_rest(&self) -> bool {
        self.speed == Fx::ZERO
    }
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
    pub player: Player,
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
    pub player: Player,
    /// Index of the script in `Level::cutscenes`.
    pub cutscene: u32,
    /// The tick it started.
    pub started: Tick,
}
