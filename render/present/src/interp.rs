//! Interpolation between two samples: positions in a straight line, angles the short way
//! round, animation frames forward through a loop, rotations by slerp.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};

/// The point `t` of the way from `a` to `b`.
#[must_use]
pub fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// The point `t` of the way from `a` to `b`.
#[must_use]
pub fn lerp_vec(a: Vec3, b: Vec3, t: f32) -> Vec3 {
    a + (b - a) * t
}

/// The signed difference `b - a` of two angles the short way round, in [-π, π).
#[must_use]
pub fn angle_delta(a: f32, b: f32) -> f32 {
    (b - a + PI).rem_euclid(TAU) - PI
}

/// The angle `t` of the way from `a` to `b` the short way round, wrapped into (-π, π]: a
/// facing from 170° to -170° turns 20° through 180°, never 340° through 0°.
#[must_use]
pub fn lerp_angle(a: f32, b: f32, t: f32) -> f32 {
    wrap_angle(a + angle_delta(a, b) * t)
}

/// `a` wrapped into (-π, π].
#[must_use]
pub fn wrap_angle(a: f32) -> f32 {
    if a > -PI && a <= PI {
        // Already there: returned exactly, not through a remainder that rounds it.
        return a;
    }
    let w = (a + PI).rem_euclid(TAU) - PI;
    if w <= -PI { w + TAU } else { w }
}

/// The animation frame `t` of the way from `a` to `b` in a clip of `frames` frames. A looping
/// clip that went from its last frames into its first (`b < a`) steps forward across the
/// wrap, never backwards through the clip; a one-shot clip is held at its last frame.
#[must_use]
pub fn lerp_frame(a: f32, b: f32, t: f32, frames: f32, looping: bool) -> f32 {
    if looping {
        let b = if b < a { b + frames } else { b };
        lerp(a, b, t).rem_euclid(frames)
    } else {
        lerp(a, b, t).min(frames - 1.0).max(0.0)
    }
}

/// The rotation `t` of the way from `a` to `b` by spherical interpolation along the shorter
/// arc: a whole rotation, never one Euler angle at a time.
#[must_use]
pub fn slerp(a: Quat, b: Quat, t: f32) -> Quat {
    a.slerp(b, t)
}

/// A wheel's rotation `t` of the way from `a` to `b` radians when it only ever rolls forward:
/// the difference is taken in [0, 2π), so a wheel turning more than half a turn in a tick
/// still spins forward instead of appearing to spin back.
#[must_use]
pub fn lerp_rolling(a: f32, b: f32, t: f32) -> f32 {
    wrap_angle(a + (b - a).rem_euclid(TAU) * t)
}

/// A clock of real seconds advanced by `dt` and wrapped at `period`, where it is accumulated:
/// a clock that grew without end would, after a day, step by more than a frame's time in
/// single precision and freeze what it drives.
#[must_use]
pub fn wrapped_clock(clock: f32, dt: f32, period: f32) -> f32 {
    (clock + dt.max(0.0)).rem_euclid(period)
}

/// The speed something is drawn moving at between two samples a tick apart, metres a second:
/// none across a discontinuity, which is drawn as a cut, not as motion.
#[must_use]
pub fn drawn_speed(previous: Vec3, current: Vec3, reset: bool) -> f32 {
    if reset { 0.0 } else { (current - previous).length() * crate::convert::TICKS_PER_SECOND_F32 }
}
