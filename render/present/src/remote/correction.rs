//! Corrections: what was drawn from a guess, blended into what is known now.
//!
//! A pose drawn past the newest measurement is a guess (the last velocity carried on), and a
//! pose held at rest can be overtaken by a late measurement that says the entity had moved.
//! At the first frame after new measurements come, the buffer compares what it last drew with
//! what is known now of that tick; the difference is drawn away instead of jumped.

use glam::Vec3;

use super::TICK_SECONDS;
use super::kernel::{Pose, short_delta, wrap_once};

/// How long a correction is drawn away over, in ticks, when the entity's pace allows: two
/// ticks (200 ms). Long enough that a correction of a few centimetres is never seen as a hop,
/// short enough that the pose is back on the measurements before the next one is due at the
/// nearest tier.
pub const BLEND_TICKS: f64 = 2.0;

/// The most a correction adds to an entity's pace: a third. A car held through a stall of the
/// link catches up at 4/3 of its speed over as long as that takes, not in a dash; a third
/// more is plainly "hurrying", not "teleporting".
pub const BLEND_PACE_SHARE: f32 = 1.0 / 3.0;

/// The longest a correction is drawn away over, in ticks: four seconds. A difference that
/// would take longer at [`BLEND_PACE_SHARE`] of the entity's pace (over about seven metres for a car
/// at 30 km/h, over about a metre for a walker) is teleport-sized, and is taken at once: one cut is
/// better than seconds of an entity visibly racing.
pub const BLEND_MAX_TICKS: f64 = 40.0;

/// The pace (m/s) a correction of a slow or standing entity is measured against: a slow
/// walk. Without it a standing entity could never be corrected by a blend at all.
pub const MIN_BLEND_SPEED_M_S: f32 = 1.0;

/// A difference smaller than this (m) is nothing to blend: the rounding of the measurements.
pub const NOTHING_TO_BLEND_M: f32 = 1e-4;

/// A heading difference smaller than this (radians) is nothing to blend.
pub const NOTHING_TO_BLEND_RAD: f32 = 1e-4;

/// The peak rate of a smoothstep blend against its average: 1.5. The blend eases in and out
/// (no jolt of velocity at either end) and is 1.5 times as fast as its average in the middle,
/// which the pace limit accounts for.
const SMOOTHSTEP_PEAK: f32 = 1.5;

/// A difference being drawn away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Correction {
    /// Drawn minus known position at the start, metres.
    offset: Vec3,
    /// Drawn minus known heading at the start, radians.
    yaw: f32,
    /// The entity tick at which it starts (where the offset is whole).
    from_tick: f64,
    /// How many ticks it lasts.
    ticks: f32,
    /// The leg it belongs to: a correction never crosses a discontinuity.
    leg: u16,
}

/// What to do with a difference between what was drawn and what is known now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    /// Nothing to blend: they agree.
    Nothing,
    /// Too big, or across a discontinuity: draw what is known at once.
    TakeAtOnce,
    /// Draw it away.
    Blend(Correction),
}

impl Correction {
    /// Decides how to draw away the difference between `drawn` (what the last frame drew at
    /// `at_tick`) and `known` (what the measurements say now of that tick), for an entity
    /// moving at `speed` m/s.
    #[must_use]
    pub fn decide(drawn: &Pose, known: &Pose, at_tick: f64, speed: f32) -> Decision {
        if drawn.leg != known.leg {
            return Decision::TakeAtOnce;
        }
        let offset = drawn.pos - known.pos;
        let yaw = short_delta(known.yaw, drawn.yaw);
        let distance = offset.length();
        if distance < NOTHING_TO_BLEND_M && yaw.abs() < NOTHING_TO_BLEND_RAD {
            return Decision::Nothing;
        }
        let pace_m_per_tick =
            BLEND_PACE_SHARE * speed.max(MIN_BLEND_SPEED_M_S) * TICK_SECONDS as f32;
        let ticks = f64::from(SMOOTHSTEP_PEAK * distance / pace_m_per_tick).max(BLEND_TICKS);
        if ticks > BLEND_MAX_TICKS {
            return Decision::TakeAtOnce;
        }
        // At most BLEND_MAX_TICKS, which a single-precision float holds exactly enough.
        let ticks = ticks as f32;
        Decision::Blend(Self { offset, yaw, from_tick: at_tick, ticks, leg: known.leg })
    }

    /// Adds what is left of the correction at `tick` to `pose` (position, heading and the
    /// velocity the blend draws). Returns `false` once it is over, or if `pose` is of another
    /// leg: the caller drops it then.
    pub fn apply(&self, tick: f64, pose: &mut Pose) -> bool {
        if pose.leg != self.leg {
            return false;
        }
        let s = ((tick - self.from_tick) / f64::from(self.ticks)).clamp(0.0, 1.0) as f32;
        if s >= 1.0 {
            return false;
        }
        let left = 1.0 - s * s * (3.0 - 2.0 * s);
        let rate = 6.0 * s * (1.0 - s) / (self.ticks * TICK_SECONDS as f32);
        pose.pos += self.offset * left;
        pose.vel -= self.offset * rate;
        pose.yaw = wrap_once(pose.yaw + self.yaw * left);
        true
    }

    /// How many ticks it lasts.
    #[must_use]
    pub fn ticks(&self) -> f64 {
        f64::from(self.ticks)
    }

    /// The position difference it started with, metres.
    #[must_use]
    pub const fn offset(&self) -> Vec3 {
        self.offset
    }
}
