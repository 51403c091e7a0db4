//! Sine, cosine and atan2 in integer arithmetic.
//!
//! Both kernels work in Q62 (an `i64` whose unit is 2^-62) with 128-bit products, far finer
//! than the Q32 results, and reduce their argument to within π/4 of zero first, where short
//! Taylor series are already exact to well under one result unit. Nothing here depends on a
//! library or on the platform's float unit, so the bits are the same everywhere.

use super::{Angle, Fx};

/// π × 2^64, rounded: converts between angle units and radians without a float.
pub(super) const PI_Q64: i128 = 57_952_155_664_616_982_739;

/// 2^64 / 2π, rounded: turns radians into fractions of a turn.
pub(super) const INV_TAU_Q64: i128 = 2_935_890_503_282_001_226;

/// One in Q62, the kernels' working format: 62 fractional bits leave one integer bit and the
/// sign, enough for every intermediate value (all within ±2).
const ONE_Q62: i64 = 1 << 62;

/// Angle units (2^32 a turn) in an eighth of a turn: the widest argument the series see.
const EIGHTH_TURN_UNITS: u32 = 1 << 29;

/// Angle units in a quarter turn.
const QUARTER_TURN_UNITS: u32 = 1 << 30;

/// atan(k / 16) for k = 0..=16, in units of 2^-64 of a turn, rounded (computed to 80 digits).
/// Splitting [0, 1] into sixteenths leaves the series an argument of at most 1/32.
const ATAN_SIXTEENTHS: [u64; 17] = [
    0,
    183_254_791_493_294_829,
    365_092_647_525_521_947,
    544_161_286_195_147_500,
    719_230_530_580_881_038,
    889_236_808_649_897_497,
    1_053_311_403_703_491_191,
    1_210_791_898_940_105_794,
    1_361_218_612_134_873_190,
    1_504_319_350_508_084_718,
    1_639_986_425_056_992_830,
    1_768_249_699_764_560_868,
    1_889_248_794_157_641_523,
    2_003_206_693_688_865_343,
    2_110_406_169_363_331_920,
    2_211_169_693_311_580_795,
    2_305_843_009_213_693_952,
];

/// Product of two Q62 numbers, in Q62 (truncated toward negative infinity).
#[expect(
    clippy::cast_possible_truncation,
    reason = "the series multiply numbers of at most 1 (2^62), so the product is at most 1 too"
)]
const fn mul_q62(a: i64, b: i64) -> i64 {
    ((a as i128 * b as i128) >> 62) as i64
}

/// Rounds a Q62 number to the nearest [`Fx`] (Q32).
const fn q62_to_fx(v: i64) -> Fx {
    Fx::from_bits((v + (1 << 29)) >> 30)
}

/// sin(x) for x in [0, π/4], Q62: x·(1 − x²/(2·3)·(1 − x²/(4·5)·(1 − ...))). The first term
/// left out is x^17/17!, under 2^-50 at π/4.
fn sin_series(x: i64) -> i64 {
    let x2 = mul_q62(x, x);
    let mut s = ONE_Q62;
    for d in [14 * 15, 12 * 13, 10 * 11, 8 * 9, 6 * 7, 4 * 5, 2 * 3] {
        s = ONE_Q62 - mul_q62(x2, s) / d;
    }
    mul_q62(x, s)
}

/// cos(x) for x in [0, π/4], Q62: 1 − x²/(1·2)·(1 − x²/(3·4)·(1 − ...)). The first term left out
/// is x^16/16!, under 2^-48 at π/4.
fn cos_series(x: i64) -> i64 {
    let x2 = mul_q62(x, x);
    let mut s = ONE_Q62;
    for d in [13 * 14, 11 * 12, 9 * 10, 7 * 8, 5 * 6, 3 * 4, 2] {
        s = ONE_Q62 - mul_q62(x2, s) / d;
    }
    s
}

/// Radians, in Q62, of `units` of angle (at most an eighth of a turn).
#[expect(
    clippy::cast_possible_truncation,
    reason = "at most an eighth of a turn: under π/4 in Q62, below 2^62"
)]
fn units_to_q62_radians(units: u32) -> i64 {
    // units · 2π / 2^32 · 2^62 = units · π · 2^31 = units · PI_Q64 / 2^33.
    ((i128::from(units) * PI_Q64) >> 33) as i64
}

/// Sine and cosine of a quarter-turn residual `f` in [0, 2^30], as Q62.
fn quadrant_sin_cos(f: u32) -> (i64, i64) {
    if f <= EIGHTH_TURN_UNITS {
        let x = units_to_q62_radians(f);
        (sin_series(x), cos_series(x))
    } else {
        // sin f = cos(π/2 − f) and cos f = sin(π/2 − f), keeping the series within π/4.
        let x = units_to_q62_radians(QUARTER_TURN_UNITS - f);
        (cos_series(x), sin_series(x))
    }
}

/// Sine and cosine of an angle of `units` (2^32 a turn).
pub(super) fn sin_cos(units: u32) -> (Fx, Fx) {
    let quadrant = units >> 30;
    let (s, c) = quadrant_sin_cos(units & (QUARTER_TURN_UNITS - 1));
    let (sin, cos) = match quadrant {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    };
    (q62_to_fx(sin), q62_to_fx(cos))
}

/// atan(t) for t in [0, 1] (Q62), in units of 2^-64 of a turn, at most an eighth of a turn.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "|u| is at most 1/32 in Q62, and the atan, 0 to an eighth of a turn, is 0 to 2^61 units"
)]
fn atan_unit_interval(t: u64) -> u64 {
    // The nearest sixteenth c = k/16, then atan t = atan c + atan u with u = (t − c)/(1 + t·c),
    // |u| <= 1/32.
    let k = ((t + (1 << 57)) >> 58) as usize;
    let c = (k as u64) << 58;
    let numerator = i128::from(t) - i128::from(c);
    let denominator = i128::from(ONE_Q62) + ((i128::from(t) * i128::from(c)) >> 62);
    let u = ((numerator << 62) / denominator) as i64;
    // atan u = u·(1 − u²·(1/3 − u²·(1/5 − u²·(1/7 − u²/9)))); the next term, u^11/11, is under 2^-58.
    let u2 = mul_q62(u, u);
    let mut s = ONE_Q62 / 9;
    for d in [7, 5, 3] {
        s = ONE_Q62 / d - mul_q62(u2, s);
    }
    let series = mul_q62(u, ONE_Q62 - mul_q62(u2, s));
    let turns = (i128::from(series) * INV_TAU_Q64) >> 62;
    (i128::from(ATAN_SIXTEENTHS[k]) + turns) as u64
}

/// The angle of the vector (`x`, `y`) from the +x axis, counter-clockwise, rounded to the
/// nearest angle unit (about 1.5e-9 rad). The angle of the zero vector is zero.
#[must_use]
pub fn atan2(y: Fx, x: Fx) -> Angle {
    let (ax, ay) = (x.to_bits().unsigned_abs(), y.to_bits().unsigned_abs());
    if ax == 0 && ay == 0 {
        return Angle::ZERO;
    }
    let (small, large) = if ay > ax { (ax, ay) } else { (ay, ax) };
    #[expect(
        clippy::cast_possible_truncation,
        reason = "small <= large, so the ratio is at most 1 in Q62 (2^62)"
    )]
    let t = ((u128::from(small) << 62) / u128::from(large)) as u64;
    let octant = atan_unit_interval(t);
    // In 2^-64 turns, wrapping: a quarter is 2^62 and a half 2^63.
    let first_quadrant = if ay > ax { (1u64 << 62) - octant } else { octant };
    let turn = match (x.is_negative(), y.is_negative()) {
        (false, false) => first_quadrant,
        (true, false) => (1u64 << 63) - first_quadrant,
        (true, true) => (1u64 << 63) + first_quadrant,
        (false, true) => first_quadrant.wrapping_neg(),
    };
    Angle((turn.wrapping_add(1 << 31) >> 32) as u32)
}
