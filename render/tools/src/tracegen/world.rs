//! The world the host simulates: entities moving in host time, and their true state every
//! [`TRUTH_STEP_MS`].
//!
//! An entity follows a [`Script`]: a chain of phases, each changing its speed (vehicles
//! smoothly, walkers over a few ticks) and turning it at a constant rate (an arc), plus
//! happenings at tick times: a teleport, a placement while at rest, going away and coming
//! back. Its position is integrated from speed and heading in 1 ms steps, so the truth, the
//! measured positions and the measured velocities all come from one path.

use std::f64::consts::{PI, TAU};

use super::rng::Rng;

/// Host time of one tick, milliseconds: the runtime's 100 ms tick, which the trace format
/// fixes.
pub const TICK_MS: u32 = 100;

/// Host time between two lines of the truth file, milliseconds: the format's 5 ms.
pub const TRUTH_STEP_MS: u32 = 5;

/// Seconds in one integration step: 1 ms. The midpoint rule's error on the tightest arc of
/// these worlds is under a micrometre per second, far below the micrometre the files are
/// written to, and a 40 s world is 40,000 steps an entity.
const STEP_SECONDS: f64 = 0.001;

/// Milliseconds in a second.
const MS_PER_S: f64 = 1000.0;

/// What kind of thing an entity is, which decides how the client draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A car: smooth acceleration and braking, turns along arcs, drawn on Hermite curves.
    Vehicle,
    /// A person: starts and stops within two or three ticks, drawn on straight segments.
    Walker,
}

impl Kind {
    /// The trace format's name of the kind.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Vehicle => "vehicle",
            Self::Walker => "walker",
        }
    }
}

/// An entity's true state at one moment of host time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct State {
    /// Position, metres, y up (always 0: the town is flat).
    pub pos: [f64; 3],
    /// Heading, radians in `[-π, π]`, counter-clockwise seen from above, 0 along +x.
    pub yaw: f64,
    /// Speed along the heading, m/s; exactly 0 while the entity stands.
    pub speed: f64,
    /// The host's count of the times it put the entity somewhere new.
    pub jumps: u32,
    /// The count of the entity's discontinuities: jumps and placements while at rest.
    pub leg: u32,
}

impl State {
    /// The velocity, m/s: the speed along the heading (x along `cos yaw`, z along `−sin
    /// yaw`, so a positive yaw turns counter-clockwise seen from above with y up).
    #[must_use]
    pub fn vel(&self) -> [f64; 3] {
        [self.speed * self.yaw.cos(), 0.0, -self.speed * self.yaw.sin()]
    }

    /// The host's rule for `at_rest`: the speed is zero.
    #[must_use]
    pub fn at_rest(&self) -> bool {
        self.speed == 0.0
    }
}

/// A span of ticks in which an entity exists: from `from_tick` on, until (not including)
/// `until_tick`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Life {
    /// The first tick it exists at.
    pub from_tick: u32,
    /// The tick from which it is gone, if it goes.
    pub until_tick: Option<u32>,
}

impl Life {
    /// Whether the life includes host time `t_ms`.
    #[must_use]
    pub fn covers_ms(&self, t_ms: u32) -> bool {
        t_ms >= self.from_tick * TICK_MS && self.until_tick.is_none_or(|u| t_ms < u * TICK_MS)
    }
}

/// One entity of a simulated world.
#[derive(Clone, Debug)]
pub struct Entity {
    /// Its id, stable across its lives.
    pub id: u64,
    /// What it is.
    pub kind: Kind,
    /// Its tier from each tick on: `(tick, tier)`, the first at tick 0, in tick order.
    pub tiers: Vec<(u32, u8)>,
    /// The spans in which it exists, in order.
    pub lives: Vec<Life>,
    /// Its state every [`TRUTH_STEP_MS`] from host time 0, also while it does not exist.
    pub states: Vec<State>,
}

impl Entity {
    /// Its tier at `tick`.
    #[must_use]
    pub fn tier_at(&self, tick: u32) -> u8 {
        self.tiers.iter().rev().find(|&&(from, _)| from <= tick).map_or(1, |&(_, tier)| tier)
    }

    /// Whether it exists at host time `t_ms`.
    #[must_use]
    pub fn exists_at_ms(&self, t_ms: u32) -> bool {
        self.lives.iter().any(|life| life.covers_ms(t_ms))
    }

    /// Whether it exists at `tick`.
    #[must_use]
    pub fn exists_at(&self, tick: u32) -> bool {
        self.exists_at_ms(tick * TICK_MS)
    }

    /// Its state at host time `t_ms` (a multiple of [`TRUTH_STEP_MS`]).
    #[must_use]
    pub fn state_at_ms(&self, t_ms: u32) -> &State {
        &self.states[(t_ms / TRUTH_STEP_MS) as usize]
    }

    /// Its state at `tick`: what the host measures.
    #[must_use]
    pub fn state_at(&self, tick: u32) -> &State {
        self.state_at_ms(tick * TICK_MS)
    }

    /// Whether it starts a life at `tick`.
    #[must_use]
    pub fn born_at(&self, tick: u32) -> bool {
        self.lives.iter().any(|life| life.from_tick == tick)
    }
}

/// A simulated world: its entities in id order, and how long it runs.
#[derive(Clone, Debug)]
pub struct World {
    /// The entities, in id order.
    pub entities: Vec<Entity>,
    /// The last tick simulated: the world runs over host time `0..=ticks * TICK_MS`.
    pub ticks: u32,
}

impl World {
    /// The entity `id`.
    #[must_use]
    pub fn entity(&self, id: u64) -> Option<&Entity> {
        self.entities.iter().find(|e| e.id == id)
    }
}

/// How a phase's speed goes from its first to its last value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A smoothstep: the acceleration starts and ends at zero (a car's throttle and brake).
    Smooth,
    /// A straight ramp: a person gets going or stops in a few steps.
    Linear,
}

/// A stretch of an entity's motion, `[start_ms, end_ms)` of host time.
#[derive(Clone, Copy, Debug)]
struct Phase {
    start_ms: u32,
    end_ms: u32,
    from_speed: f64,
    to_speed: f64,
    shape: Shape,
    /// The heading change over the phase, radians, at a constant rate: an arc.
    turn_rad: f64,
}

impl Phase {
    fn progress(&self, t_ms: f64) -> f64 {
        let span = f64::from(self.end_ms - self.start_ms);
        ((t_ms - f64::from(self.start_ms)) / span).clamp(0.0, 1.0)
    }

    fn speed(&self, t_ms: f64) -> f64 {
        let s = self.progress(t_ms);
        let eased = match self.shape {
            Shape::Smooth => s * s * (3.0 - 2.0 * s),
            Shape::Linear => s,
        };
        self.from_speed + (self.to_speed - self.from_speed) * eased
    }

    fn yaw_rate_per_ms(&self) -> f64 {
        self.turn_rad / f64::from(self.end_ms - self.start_ms)
    }
}

/// Something that happens to an entity at a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Happening {
    /// Put somewhere new, moving on from there as it was (a teleport, a respawn): its jump
    /// counter and leg count one more.
    Teleport {
        /// The new position (x, z), metres.
        to: [f64; 2],
        /// The new heading, radians.
        yaw: f64,
    },
    /// Picked up and set down elsewhere while it stands (sat on a bench, towed): its leg
    /// counts one more, its jump counter not.
    Place {
        /// The new position (x, z), metres.
        to: [f64; 2],
        /// The new heading, radians.
        yaw: f64,
    },
}

/// How an entity moves and what happens to it: built phase by phase, then simulated.
#[derive(Clone, Debug)]
pub struct Script {
    id: u64,
    kind: Kind,
    start: [f64; 2],
    start_yaw: f64,
    start_speed: f64,
    phases: Vec<Phase>,
    /// Host time the phases reach, milliseconds.
    cursor_ms: u32,
    /// Speed at the cursor, m/s.
    speed: f64,
    happenings: Vec<(u32, Happening)>,
    tiers: Vec<(u32, u8)>,
    lives: Vec<Life>,
}

impl Script {
    /// An entity at `start` (x, z) facing `yaw`, moving at `speed` from host time 0, in
    /// `tier`, existing all along.
    #[must_use]
    pub fn new(id: u64, kind: Kind, start: [f64; 2], yaw: f64, speed: f64, tier: u8) -> Self {
        Self {
            id,
            kind,
            start,
            start_yaw: yaw,
            start_speed: speed,
            phases: Vec::new(),
            cursor_ms: 0,
            speed,
            happenings: Vec::new(),
            tiers: vec![(0, tier)],
            lives: vec![Life { from_tick: 0, until_tick: None }],
        }
    }

    /// The entity's id.
    #[must_use]
    pub const fn id(&self) -> u64 {
        self.id
    }

    /// Host time the phases reach so far, milliseconds.
    #[must_use]
    pub const fn cursor_ms(&self) -> u32 {
        self.cursor_ms
    }

    /// The speed at the end of the phases so far, m/s.
    #[must_use]
    pub const fn speed(&self) -> f64 {
        self.speed
    }

    fn phase(mut self, ms: u32, to_speed: f64, turn_rad: f64) -> Self {
        if ms == 0 {
            return self;
        }
        let shape = match self.kind {
            Kind::Vehicle => Shape::Smooth,
            Kind::Walker => Shape::Linear,
        };
        self.phases.push(Phase {
            start_ms: self.cursor_ms,
            end_ms: self.cursor_ms + ms,
            from_speed: self.speed,
            to_speed,
            shape,
            turn_rad,
        });
        self.cursor_ms += ms;
        self.speed = to_speed;
        self
    }

    /// Goes on at the same speed and heading for `ms` (standing, if it stands).
    #[must_use]
    pub fn hold(self, ms: u32) -> Self {
        let speed = self.speed;
        self.phase(ms, speed, 0.0)
    }

    /// Changes speed to `to_speed` over `ms`: smoothly for a vehicle, in a straight ramp for a
    /// walker. To zero, it is a stop.
    #[must_use]
    pub fn speed_to(self, to_speed: f64, ms: u32) -> Self {
        self.phase(ms, to_speed, 0.0)
    }

    /// Turns by `rad` over `ms` at a constant rate and speed: an arc.
    #[must_use]
    pub fn turn(self, rad: f64, ms: u32) -> Self {
        let speed = self.speed;
        self.phase(ms, speed, rad)
    }

    /// Sets the speed at the cursor without a ramp: only where a teleport puts the entity
    /// somewhere new at that very moment (it arrives standing, or moving).
    #[must_use]
    pub fn with_speed_from_here(mut self, speed: f64) -> Self {
        self.speed = speed;
        self
    }

    /// At `tick`, `happening` happens.
    #[must_use]
    pub fn at(mut self, tick: u32, happening: Happening) -> Self {
        self.happenings.push((tick, happening));
        self
    }

    /// From `tick` on, the entity is in `tier`.
    #[must_use]
    pub fn tier_from(mut self, tick: u32, tier: u8) -> Self {
        self.tiers.push((tick, tier));
        self.tiers.sort_by_key(|&(t, _)| t);
        self
    }

    /// The entity exists only in `lives` (in order).
    #[must_use]
    pub fn lives(mut self, lives: Vec<Life>) -> Self {
        self.lives = lives;
        self
    }

    /// Runs the script over host time `0..=ticks * TICK_MS` and records the state every
    /// [`TRUTH_STEP_MS`].
    ///
    /// # Panics
    ///
    /// A placement of an entity that is moving, or a speed set without a ramp away from a
    /// teleport: the script is wrong, not the world.
    #[must_use]
    pub fn simulate(&self, ticks: u32) -> Entity {
        let end_ms = ticks * TICK_MS;
        let mut pos = [self.start[0], 0.0, self.start[1]];
        let mut yaw = self.start_yaw;
        let (mut jumps, mut leg) = (0, 0);
        let mut states = Vec::with_capacity((end_ms / TRUTH_STEP_MS) as usize + 1);
        let mut next_phase = 0;
        let last = Phase {
            start_ms: self.cursor_ms,
            end_ms: u32::MAX,
            from_speed: self.speed,
            to_speed: self.speed,
            shape: Shape::Linear,
            turn_rad: 0.0,
        };
        // Before the first phase (there is none only in a script without phases) it goes on
        // as it started.
        let mut phase = Phase {
            start_ms: 0,
            end_ms: self.phases.first().map_or(u32::MAX, |p| p.start_ms),
            from_speed: self.start_speed,
            to_speed: self.start_speed,
            shape: Shape::Linear,
            turn_rad: 0.0,
        };
        for t in 0..=end_ms {
            while next_phase < self.phases.len() && self.phases[next_phase].start_ms <= t {
                phase = self.phases[next_phase];
                next_phase += 1;
            }
            if phase.end_ms <= t {
                phase = last;
            }
            if t.is_multiple_of(TICK_MS) {
                for &(_, happening) in self.happenings.iter().filter(|(at, _)| *at * TICK_MS == t) {
                    match happening {
                        Happening::Teleport { to, yaw: new_yaw } => {
                            pos = [to[0], 0.0, to[1]];
                            yaw = new_yaw;
                            jumps += 1;
                            leg += 1;
                        }
                        Happening::Place { to, yaw: new_yaw } => {
                            assert!(
                                phase.speed(f64::from(t)) == 0.0,
                                "entity {} is placed at {t} ms while moving",
                                self.id
                            );
                            pos = [to[0], 0.0, to[1]];
                            yaw = new_yaw;
                            leg += 1;
                        }
                    }
                }
            }
            if t.is_multiple_of(TRUTH_STEP_MS) {
                let speed = phase.speed(f64::from(t));
                states.push(State { pos, yaw: wrap_angle(yaw), speed, jumps, leg });
            }
            if t == end_ms {
                break;
            }
            // The midpoint rule over [t, t + 1 ms]: speed and heading half way.
            let mid = f64::from(t) + 0.5;
            let rate = phase.yaw_rate_per_ms();
            let (speed, heading) = (phase.speed(mid), yaw + rate * 0.5);
            pos[0] += speed * heading.cos() * STEP_SECONDS;
            pos[2] -= speed * heading.sin() * STEP_SECONDS;
            yaw += rate;
        }
        self.check_speed_steps();
        Entity {
            id: self.id,
            kind: self.kind,
            tiers: self.tiers.clone(),
            lives: self.lives.clone(),
            states,
        }
    }

    /// A speed that changes between two phases without a ramp must do so at a teleport.
    fn check_speed_steps(&self) {
        for pair in self.phases.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let stepped = (a.to_speed - b.from_speed).abs() > f64::EPSILON;
            let teleported = b.start_ms.is_multiple_of(TICK_MS)
                && self.happenings.iter().any(|&(tick, h)| {
                    tick * TICK_MS == b.start_ms && matches!(h, Happening::Teleport { .. })
                });
            assert!(
                !stepped || teleported,
                "entity {} changes speed at {} ms without a ramp or a teleport",
                self.id,
                b.start_ms
            );
        }
    }
}

/// An angle brought into `[-π, π]`.
#[must_use]
pub fn wrap_angle(rad: f64) -> f64 {
    let wrapped = rad - TAU * (rad / TAU).round();
    wrapped.clamp(-PI, PI)
}

/// Cruising speeds of a vehicle, m/s: 8 to 20 (30 to 70 km/h), a town's traffic.
const VEHICLE_SPEED_M_S: (f64, f64) = (8.0, 20.0);

/// A vehicle's mean acceleration when pulling away, m/s²: an ordinary car's 1.5 to 2.5; the
/// smoothstep's peak is half as much again.
const VEHICLE_ACCEL_M_S2: (f64, f64) = (1.5, 2.5);

/// A vehicle's mean deceleration when braking to a stop, m/s²: 2 to 3.5, firm but not an
/// emergency stop.
const VEHICLE_BRAKE_M_S2: (f64, f64) = (2.0, 3.5);

/// How long a vehicle waits at a stop, ms: 1.5 to 4 s, long enough that the host sees it
/// standing at many ticks.
const VEHICLE_REST_MS: (u32, u32) = (1_500, 4_000);

/// How long a vehicle cruises straight between manoeuvres, ms.
const VEHICLE_CRUISE_MS: (u32, u32) = (2_000, 6_000);

/// How much a vehicle turns in one arc, radians: a bend (0.3) to a corner and a bit (1.6).
const VEHICLE_TURN_RAD: (f64, f64) = (0.3, 1.6);

/// How long a vehicle's arc takes at least, ms: 2 to 5 s (longer when its speed asks, see
/// [`VEHICLE_LATERAL_M_S2`]).
const VEHICLE_TURN_MS: (u32, u32) = (2_000, 5_000);

/// The most sideways acceleration of a vehicle in an arc, m/s²: 3, a comfortable bend (a
/// car at 20 m/s turns at most 0.15 rad/s). A faster arc would be a car no town has.
const VEHICLE_LATERAL_M_S2: f64 = 3.0;

/// Walking speeds, m/s: 1 to 2, a stroll to a brisk walk.
const WALKER_SPEED_M_S: (f64, f64) = (1.0, 2.0);

/// How long a walker takes to get going or to stop, ms: two to three ticks, as people do.
const WALKER_RAMP_MS: (u32, u32) = (200, 300);

/// How long a walker stands between walks, ms.
const WALKER_REST_MS: (u32, u32) = (1_000, 4_000);

/// How long a walker walks straight between turns, ms.
const WALKER_WALK_MS: (u32, u32) = (2_500, 7_000);

/// How much a walker turns at once, radians: a glance aside (0.5) to most of a half turn.
const WALKER_TURN_RAD: (f64, f64) = (0.5, 2.0);

/// How long a walker's turn takes, ms.
const WALKER_TURN_MS: (u32, u32) = (600, 1_500);

/// What every random duration is a multiple of, ms: 10. A phase then never starts a
/// millisecond or two before a tick, where a car pulling away would be measured moving at a
/// speed that rounds to nothing in the files (at 10 ms into the slowest pull-away it is
/// 13 µm/s, which the files still tell from a standstill).
const DURATION_QUANTUM_MS: u32 = 10;

/// A duration between `range.0` and `range.1` ms, a multiple of [`DURATION_QUANTUM_MS`].
fn duration(rng: &mut Rng, range: (u32, u32)) -> u32 {
    rng.range_u32(range.0 / DURATION_QUANTUM_MS, range.1 / DURATION_QUANTUM_MS)
        * DURATION_QUANTUM_MS
}

/// How long, in ms, it takes to change speed by `dv` m/s at `accel` m/s² on average: a
/// multiple of [`DURATION_QUANTUM_MS`], at least one.
fn ramp_ms(dv: f64, accel: f64) -> u32 {
    let quantum = f64::from(DURATION_QUANTUM_MS);
    // Under a minute for every speed and acceleration here, so it fits.
    let quanta = (dv.abs() / accel * MS_PER_S / quantum).round().max(1.0) as u32;
    quanta * DURATION_QUANTUM_MS
}

/// A vehicle driving around town until `end_ms`: pulling away, cruising, bending along arcs,
/// changing speed, braking to stops and waiting.
#[must_use]
pub fn random_vehicle(rng: &mut Rng, id: u64, start: [f64; 2], tier: u8, end_ms: u32) -> Script {
    let yaw = rng.range(-PI, PI);
    let moving = rng.chance(0.5);
    let speed = if moving { rng.range(VEHICLE_SPEED_M_S.0, VEHICLE_SPEED_M_S.1) } else { 0.0 };
    let mut script = Script::new(id, Kind::Vehicle, start, yaw, speed, tier);
    while script.cursor_ms() < end_ms {
        if script.speed() == 0.0 {
            let v = rng.range(VEHICLE_SPEED_M_S.0, VEHICLE_SPEED_M_S.1);
            let accel = rng.range(VEHICLE_ACCEL_M_S2.0, VEHICLE_ACCEL_M_S2.1);
            script = script
                .hold(duration(rng, VEHICLE_REST_MS))
                .speed_to(v, ramp_ms(v, accel))
                .hold(duration(rng, VEHICLE_CRUISE_MS));
            continue;
        }
        script = match rng.range_u32(0, 9) {
            0..=2 => script.hold(duration(rng, VEHICLE_CRUISE_MS)),
            3..=5 => {
                let rad = rng.sign() * rng.range(VEHICLE_TURN_RAD.0, VEHICLE_TURN_RAD.1);
                // The yaw rate is the sideways acceleration over the speed.
                let least = ramp_ms(rad * script.speed(), VEHICLE_LATERAL_M_S2);
                let ms = duration(rng, VEHICLE_TURN_MS).max(least);
                script.turn(rad, ms)
            }
            6..=7 => {
                let v = rng.range(VEHICLE_SPEED_M_S.0, VEHICLE_SPEED_M_S.1);
                let accel = rng.range(VEHICLE_ACCEL_M_S2.0, VEHICLE_ACCEL_M_S2.1);
                let ms = ramp_ms(v - script.speed(), accel);
                script.speed_to(v, ms)
            }
            _ => {
                let brake = rng.range(VEHICLE_BRAKE_M_S2.0, VEHICLE_BRAKE_M_S2.1);
                let ms = ramp_ms(script.speed(), brake);
                script.speed_to(0.0, ms)
            }
        };
    }
    script
}

/// A walker about town until `end_ms`: setting off, walking, turning, stopping and standing.
#[must_use]
pub fn random_walker(rng: &mut Rng, id: u64, start: [f64; 2], tier: u8, end_ms: u32) -> Script {
    let yaw = rng.range(-PI, PI);
    let moving = rng.chance(0.5);
    let speed = if moving { rng.range(WALKER_SPEED_M_S.0, WALKER_SPEED_M_S.1) } else { 0.0 };
    let mut script = Script::new(id, Kind::Walker, start, yaw, speed, tier);
    while script.cursor_ms() < end_ms {
        if script.speed() == 0.0 {
            let v = rng.range(WALKER_SPEED_M_S.0, WALKER_SPEED_M_S.1);
            script = script
                .hold(duration(rng, WALKER_REST_MS))
                .speed_to(v, duration(rng, WALKER_RAMP_MS))
                .hold(duration(rng, WALKER_WALK_MS));
            continue;
        }
        script = match rng.range_u32(0, 9) {
            0..=3 => script.hold(duration(rng, WALKER_WALK_MS)),
            4..=6 => script.turn(
                rng.sign() * rng.range(WALKER_TURN_RAD.0, WALKER_TURN_RAD.1),
                duration(rng, WALKER_TURN_MS),
            ),
            7 => {
                let v = rng.range(WALKER_SPEED_M_S.0, WALKER_SPEED_M_S.1);
                script.speed_to(v, duration(rng, WALKER_RAMP_MS))
            }
            _ => script.speed_to(0.0, duration(rng, WALKER_RAMP_MS)),
        };
    }
    script
}
