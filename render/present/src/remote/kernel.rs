//! The pose of a remote entity at a fractional tick, from the measurements around it.

use std::f32::consts::{PI, TAU};

use glam::Vec3;

use super::TICK_SECONDS;
use super::buffer::MAX_EXTRAPOLATION_TICKS;
use super::measurement::{Measurement, Motion};

/// Ticks between two snapshots of the host: one, as the host sends a snapshot every tick (far
/// tiers skip turns, but a start or a stop is sent at the first tick the host sees it). So an
/// entity measured at rest and then in motion at tick `b` still stood at `b − 1`.
pub const SNAPSHOT_INTERVAL_TICKS: u32 = 1;

/// The most ticks a start seen at its first snapshot can take, at its measured speed, to cover
/// the distance from the standstill: two (a start from rest to speed `v` over one tick covers
/// up to `v` ticks' worth, which needs two at an even acceleration). A start that needs more
/// was not seen from its beginning (a change of host, whose first snapshot comes ticks after
/// the old host's last): it set off as late as it could to get there at that speed.
pub const SEEN_START_TICKS: u32 = 2;

/// A measurement as the buffer keeps it: 40 bytes, with its heading brought into (−π, π] and
/// the leg it belongs to. A buffer of a hundred thousand entities is read whole every frame,
/// so its size is its speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stored {
    /// The host tick it was measured at.
    pub tick: u32,
    /// Position, world metres.
    pub pos: Vec3,
    /// Velocity, metres per second.
    pub vel: Vec3,
    /// Heading, radians in (−π, π].
    pub yaw: f32,
    /// The jump counter.
    pub jumps: u32,
    /// Counts the entity's discontinuities up to this measurement (wrapping): a change of its
    /// jump counter, or being placed somewhere else while at rest. Nothing is ever drawn
    /// between two legs.
    pub leg: u16,
    /// The snapshot period (tier) in ticks.
    pub tier: u8,
    /// The host's at-rest rule.
    pub at_rest: bool,
}

impl Stored {
    /// Keeps `m` as a measurement of leg `leg`.
    #[must_use]
    pub fn of(m: &Measurement, leg: u16) -> Self {
        Self {
            tick: m.tick,
            pos: m.pos,
            vel: m.vel,
            yaw: crate::interp::wrap_angle(m.yaw),
            jumps: m.jumps,
            leg,
            tier: m.tier,
            at_rest: m.at_rest,
        }
    }

    /// The measurement it keeps (heading wrapped).
    #[must_use]
    pub const fn measurement(&self) -> Measurement {
        Measurement {
            tick: self.tick,
            pos: self.pos,
            vel: self.vel,
            yaw: self.yaw,
            at_rest: self.at_rest,
            tier: self.tier,
            jumps: self.jumps,
        }
    }
}

/// A pose the kernel computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Position, world metres.
    pub pos: Vec3,
    /// The velocity the pose is drawn moving at, metres per second.
    pub vel: Vec3,
    /// Heading, radians.
    pub yaw: f32,
    /// The leg it belongs to.
    pub leg: u16,
    /// The jump counter of that leg.
    pub jumps: u32,
}

/// The pose of the measurement itself, standing still.
#[must_use]
pub fn hold(s: &Stored) -> Pose {
    Pose { pos: s.pos, vel: Vec3::ZERO, yaw: s.yaw, leg: s.leg, jumps: s.jumps }
}

/// The pose at `tick` at or after the measurement with nothing newer of its leg: held if at
/// rest (exact: the host sends a start the moment it sees one), else carried on at its last
/// velocity for at most [`MAX_EXTRAPOLATION_TICKS`], then held.
#[must_use]
pub fn extrapolate(s: &Stored, tick: f64) -> Pose {
    if s.at_rest {
        return hold(s);
    }
    let ahead = (tick - f64::from(s.tick)).max(0.0);
    let limit = f64::from(MAX_EXTRAPOLATION_TICKS);
    let carried = ahead.min(limit);
    Pose {
        pos: s.pos + s.vel * (carried * TICK_SECONDS) as f32,
        vel: if ahead < limit { s.vel } else { Vec3::ZERO },
        yaw: s.yaw,
        leg: s.leg,
        jumps: s.jumps,
    }
}

/// The pose at `tick` between measurements `a` and `b` (`a.tick <= tick < b.tick`).
#[must_use]
pub fn between(a: &Stored, b: &Stored, motion: Motion, tick: f64) -> Pose {
    if a.leg != b.leg {
        // The old leg goes on as it was until the new one begins, never toward it.
        return extrapolate(a, tick);
    }
    match (a.at_rest, b.at_rest) {
        // Two measurements at rest in one place: it stood there all along.
        (true, true) => hold(a),
        // A start: it stood until one snapshot before the second at the latest, and moved
        // from there, from a standstill; or, a start not seen from its beginning, until it had
        // to set off to get there at its measured speed.
        (true, false) => {
            let start = a.tick.max(b.tick.saturating_sub(start_ticks(a, b)));
            if tick < f64::from(start) {
                hold(a)
            } else {
                moving(&Stored { tick: start, ..*a }, b, motion, tick)
            }
        }
        // A stop, or motion throughout: over the whole interval (a stop ends at the
        // standstill measured, whose velocity is zero).
        _ => moving(a, b, motion, tick),
    }
}

/// How many ticks before `b` an entity at rest at `a` set off: one snapshot, unless covering
/// the distance from a standstill to `b`'s speed at an even acceleration takes longer than a
/// start seen from its beginning can ([`SEEN_START_TICKS`]).
fn start_ticks(a: &Stored, b: &Stored) -> u32 {
    let per_tick = b.vel.length() * TICK_SECONDS as f32;
    let distance = (b.pos - a.pos).length();
    let needed = if per_tick > 0.0 { 2.0 * distance / per_tick } else { 0.0 };
    if needed > SEEN_START_TICKS as f32 {
        // At most the ticks between the two, which a u32 holds.
        needed.ceil().min((b.tick - a.tick) as f32) as u32
    } else {
        SNAPSHOT_INTERVAL_TICKS
    }
}

/// How near a measured velocity must be to the step a vehicle made over the tick before it to
/// be that step (m²/s², a 20 mm/s difference): the rounding of what a spectator is sent (two
/// positions in whole millimetres make a tick's step up to 10 mm/s off, a velocity in whole
/// millimetres a second half of one), far under any acceleration a tick shows (2.5 m/s² is
/// 250 mm/s).
const STEPPED_SLACK_M2_S2: f32 = 0.02 * 0.02;

/// The pose at `tick` of an entity moving from `a` to `b` over `[a.tick, b.tick]`.
fn moving(a: &Stored, b: &Stored, motion: Motion, tick: f64) -> Pose {
    let ticks = f64::from(b.tick - a.tick);
    let seconds = (ticks * TICK_SECONDS) as f32;
    let s = ((tick - f64::from(a.tick)) / ticks).clamp(0.0, 1.0) as f32;
    let d = b.pos - a.pos;
    let chord = d / seconds;
    // A vehicle measured a tick apart whose velocity is the very step it made since (a host
    // that moves it in straight steps, a tick at a time, as the town's rules do) moved along
    // that straight line at that speed: a curve through the velocities would draw it faster
    // and slower than it went.
    let stepped = b.tick - a.tick == 1 && (b.vel - chord).length_squared() < STEPPED_SLACK_M2_S2;
    let (offset, vel) = match motion {
        Motion::Vehicle if !stepped => hermite(d, a.vel * seconds, b.vel * seconds, s, seconds),
        Motion::Vehicle | Motion::Walker => (d * s, chord),
    };
    Pose {
        pos: a.pos + offset,
        vel,
        yaw: wrap_once(a.yaw + short_delta(a.yaw, b.yaw) * s),
        leg: a.leg,
        jumps: a.jumps,
    }
}

/// The signed difference `b − a` the short way round, for headings already in (−π, π]: one
/// comparison instead of a floating-point remainder, which costs more than the rest of a
/// sample.
#[must_use]
pub fn short_delta(a: f32, b: f32) -> f32 {
    let d = b - a;
    if d > PI {
        d - TAU
    } else if d < -PI {
        d + TAU
    } else {
        d
    }
}

/// A heading within a turn of (−π, π] brought into it.
#[must_use]
pub fn wrap_once(a: f32) -> f32 {
    if a > PI {
        a - TAU
    } else if a <= -PI {
        a + TAU
    } else {
        a
    }
}

/// A cubic Hermite curve from 0 to `d` with end tangents `m0` and `m1` (metres over the
/// interval) at `s` of the way through an interval of `seconds`: the offset from the start,
/// and the velocity there in metres per second.
#[must_use]
pub fn hermite(d: Vec3, m0: Vec3, m1: Vec3, s: f32, seconds: f32) -> (Vec3, Vec3) {
    let s2 = s * s;
    let s3 = s2 * s;
    let h10 = s3 - 2.0 * s2 + s;
    let h01 = 3.0 * s2 - 2.0 * s3;
    let h11 = s3 - s2;
    let dh10 = 3.0 * s2 - 4.0 * s + 1.0;
    let dh01 = 6.0 * s - 6.0 * s2;
    let dh11 = 3.0 * s2 - 2.0 * s;
    let offset = m0 * h10 + d * h01 + m1 * h11;
    let vel = (m0 * dh10 + d * dh01 + m1 * dh11) / seconds;
    (offset, vel)
}
