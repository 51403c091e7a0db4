//! Fixed-point math whose every output bit is the same on every machine and in every build.
//!
//! The simulation never touches a float (docs/ARCHITECTURE.md, rule 1). Its scalar is [`Fx`], a signed
//! 64-bit number with 32 fractional bits (`fixed::types::I32F32`): a resolution of 2^-32 and a
//! range of ±2^31, which holds a town in metres with sub-nanometre steps. Angles are
//! [`Angle`]s, 32-bit binary angles in which 2^32 is a full turn, so turning past ±π wraps for
//! free and the shortest signed difference is one wrapping subtraction.
//!
//! The functions here ([`Angle::sin_cos`], [`atan2`], [`sqrt`], [`Vec2::length`], ...) are
//! written in integer arithmetic only, so no library upgrade or compiler flag can change a bit
//! of their results; the golden tests in `runtime/tests/golden_math.rs` pin 10,000 outputs of
//! each.

mod angle;
mod sqrt;
mod trig;
mod vec;

pub use angle::Angle;
pub use sqrt::sqrt;
pub use trig::atan2;
pub use vec::{Vec2, Vec3};

/// The simulation's scalar: a signed fixed-point number with 32 integer and 32 fractional
/// bits. Positions are metres, speeds metres per tick or per second as each field documents.
pub type Fx = fixed::types::I32F32;

/// Number of fractional bits of [`Fx`]: one unit of its raw bits is 2^-`FX_FRAC_BITS`.
pub const FX_FRAC_BITS: u32 = 32;

/// `a * b`, bit for bit as the fixed crate computes it (rounded toward -∞; an overflowing
/// product panics with "overflow" in every build, as the workspace's settings make `*` do), in
/// one 64×64-bit multiplication: the fixed crate widens to a 128×128-bit multiplication with
/// overflow detection, several times the work, and the rules multiply tens of thousands of
/// times a tick. `runtime/tests/fixed_mul.rs` checks it against `*`.
///
/// # Panics
///
/// When the product does not fit an [`Fx`], like `*`.
#[inline]
#[must_use]
pub fn mul(a: Fx, b: Fx) -> Fx {
    // |a·b| < 2^126: the wide product never overflows. Shifting right floors, as fixed does.
    let product = (i128::from(a.to_bits()) * i128::from(b.to_bits())) >> FX_FRAC_BITS;
    match i64::try_from(product) {
        Ok(bits) => Fx::from_bits(bits),
        Err(_) => panic!("overflow"),
    }
}

/// Makes an [`Fx`] from a whole number, the way constants and level data are usually written.
#[must_use]
pub const fn fx(whole: i32) -> Fx {
    Fx::from_bits((whole as i64) << FX_FRAC_BITS)
}

/// Makes an [`Fx`] equal to `numerator / denominator`, rounded toward zero: a way to write
/// fractional constants (`fx_ratio(3, 2)` is 1.5) without a float literal.
///
/// # Panics
///
/// If `denominator` is zero; in a `const` this is a compile error.
#[must_use]
pub const fn fx_ratio(numerator: i32, denominator: i32) -> Fx {
    Fx::from_bits(((numerator as i64) << FX_FRAC_BITS) / denominator as i64)
}
