//! Golden values of the fixed-point math: every output bit of sin, cos, atan2 and sqrt over
//! 10,000 inputs each, folded into one hash per function.
//!
//! These protect the simulation against a change of bits that no accuracy test would see: a
//! rewritten series, a reordered rounding, an upgraded dependency, a different optimization in
//! release. Peers on different builds must compute identical bits, not merely close ones. If a
//! change to `runtime/src/math` is intended, re-pin here in the same commit and say why.

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3, atan2, sqrt};
use xxhash_rust::xxh3::xxh3_64;

const SAMPLES: usize = 10_000;

/// 10,000 deterministic 64-bit inputs (SplitMix64 from a fixed start).
fn inputs() -> impl Iterator<Item = u64> {
    let mut state = 0x0123_4567_89ab_cdef_u64;
    (0..SAMPLES).map(move |_| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

/// The hash of the little-endian bytes of every output.
fn fold(outputs: impl Iterator<Item = i64>) -> String {
    let bytes: Vec<u8> = outputs.flat_map(i64::to_le_bytes).collect();
    format!("{:016x}", xxh3_64(&bytes))
}

fn fx(bits: u64, shift: u64) -> Fx {
    Fx::from_bits((bits as i64) >> (shift % 48))
}

#[test]
fn sin_bits_are_pinned() {
    let hash = fold(inputs().map(|b| Angle(b as u32).sin().to_bits()));
    assert_eq!(hash, "d2c3568fabe2dc48");
}

#[test]
fn cos_bits_are_pinned() {
    let hash = fold(inputs().map(|b| Angle(b as u32).cos().to_bits()));
    assert_eq!(hash, "3c2c611f6405d36b");
}

#[test]
fn atan2_bits_are_pinned() {
    let hash = fold(inputs().map(|b| {
        let y = fx(b, b >> 58);
        let x = fx(b.rotate_left(23), b >> 52);
        i64::from(atan2(y, x).0)
    }));
    assert_eq!(hash, "88931cf8cd6001f3");
}

#[test]
fn sqrt_bits_are_pinned() {
    let hash = fold(inputs().map(|b| sqrt(fx(b >> 1, b >> 58)).to_bits()));
    assert_eq!(hash, "88d76dbee0dc4d4f");
}

/// Vector length, normalization and radians conversion build on the kernels above but have
/// their own rounding; pinned together.
#[test]
fn vector_and_conversion_bits_are_pinned() {
    let hash = fold(inputs().flat_map(|b| {
        let v = Vec2::new(fx(b, b >> 58), fx(b.rotate_left(17), b >> 52));
        let w = Vec3::new(v.x, fx(b.rotate_left(41), b >> 46), v.y);
        let n = v.normalize_or_zero();
        let a = Angle(b as u32);
        [
            v.length().to_bits(),
            w.length().to_bits(),
            n.x.to_bits(),
            n.y.to_bits(),
            a.to_radians().to_bits(),
            i64::from(Angle::from_radians(fx(b, b >> 50)).0),
        ]
    }));
    assert_eq!(hash, "5c56a476717cd0d5");
}

/// A few values a reader can check by hand, so a re-pin of the hashes above can be judged.
#[test]
fn well_known_values() {
    assert_eq!(Angle::from_degrees(90).sin(), Fx::ONE);
    assert_eq!(Angle::from_degrees(180).cos(), -Fx::ONE);
    // 30° is not a whole number of angle units: 357,913,941 units is a third of a unit short,
    // so its sine is two Fx units under one half.
    assert_eq!(Angle::from_degrees(30).sin().to_bits(), (1 << 31) - 2);
    assert_eq!(Angle::from_turns(1, 8).sin(), Angle::from_turns(1, 8).cos());
    assert_eq!(sqrt(Fx::from_num(2)).to_bits(), 6_074_000_999); // floor(sqrt(2) * 2^32 = 6,074,000,999.95)
}
