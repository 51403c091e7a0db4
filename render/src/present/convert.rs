//! The one place where the simulation's fixed-point numbers become floats.
//!
//! The ground plane of the rules (x east, y north) maps to the renderer's right-handed, y-up
//! world as (x, height, -y): east is +x, up is +y, north is -z. A yaw counter-clockwise from
//! +x seen from above is then a rotation about +y by the same angle.

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::tick::TICK_MICROS;
use glam::{Quat, Vec3 as GVec3};

/// Seconds in one tick: the runtime's tick length, the one tick length of the whole program.
pub const TICK_SECONDS: f64 = TICK_MICROS as f64 / 1_000_000.0;

/// [`TICK_SECONDS`] in single precision, for the drawing's arithmetic (a tenth, to 1e-8).
pub const TICK_SECONDS_F32: f32 = TICK_SECONDS as f32;

/// Ticks in a second in single precision: a distance per tick times this is a speed.
pub const TICKS_PER_SECOND_F32: f32 = (1.0 / TICK_SECONDS) as f32;

/// A fixed-point number as `f32`.
#[must_use]
pub fn f(x: Fx) -> f32 {
    x.to_num::<f32>()
}

/// A binary angle as radians in (-π, π].
#[must_use]
pub fn radians(a: Angle) -> f32 {
    // A signed angle unit is 2π / 2^32 radians.
    a.signed_units() as f32 * (std::f32::consts::PI / 2_147_483_648.0)
}

/// A point of the ground at `height` metres, in world coordinates.
#[must_use]
pub fn ground(p: Vec2, height: f32) -> GVec3 {
    GVec3::new(f(p.x), height, -f(p.y))
}

/// A rules-side 3D vector (already x east, y up, z south) in world coordinates.
#[must_use]
pub fn world(v: Vec3) -> GVec3 {
    GVec3::new(f(v.x), f(v.y), f(v.z))
}

/// The rotation of a yaw (counter-clockwise seen from above) about the world's up axis.
#[must_use]
pub fn yaw_rotation(yaw: f32) -> Quat {
    Quat::from_rotation_y(yaw)
}
