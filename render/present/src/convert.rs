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

/// A fixed-point number as `f64`: for ticks and shares of a tick, whose fractions a clock
/// compares over minutes, where single precision would lose them.
#[must_use]
pub fn f64_of(x: Fx) -> f64 {
    x.to_num::<f64>()
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

/// Millimetres in a metre, as integer poses on the wire count them.
const MM_PER_M: f32 = 1_000.0;

/// A length in millimetres (as integer poses and looks carry it) in metres.
#[must_use]
pub fn metres_of_mm(mm: impl Into<i64>) -> f32 {
    mm.into() as f32 / MM_PER_M
}

/// A point of the ground in millimetres (x east, y north) in world coordinates, on the
/// ground.
#[must_use]
pub fn ground_mm(mm: [i32; 2]) -> GVec3 {
    GVec3::new(metres_of_mm(mm[0]), 0.0, -metres_of_mm(mm[1]))
}

/// A world point's place on the ground in whole millimetres (x east, y north), saturating far
/// beyond any level: what a spectator tells the host it looks at.
#[must_use]
pub fn mm_of_ground(point: GVec3) -> [i32; 2] {
    [(point.x * MM_PER_M) as i32, (-point.z * MM_PER_M) as i32]
}

/// A command's turn units (2^-16 of a turn) in radians: a mouse turns in them.
#[must_use]
pub fn radians_of_turn_units(units: i32) -> f32 {
    units as f32 * (std::f32::consts::TAU / 65_536.0)
}

/// A time of day (a fraction of a day in 2^-32 units from midnight) as a fraction of a day.
#[must_use]
pub fn day_fraction(units: u32) -> f32 {
    units as f32 / 4_294_967_296.0
}

/// Microseconds as seconds, for a frame's time.
#[must_use]
pub fn seconds_of_micros(micros: u64) -> f32 {
    micros as f32 / 1_000_000.0
}
