//! Square roots.

use super::Fx;

/// The square root of `x`, rounded down to the nearest representable value (so within one
/// unit in the last place of the exact root). A negative `x` gives zero: the simulation only
/// takes roots of squared lengths, and a negative one is a rounding remnant of zero.
#[must_use]
#[inline]
pub fn sqrt(x: Fx) -> Fx {
    let bits = x.to_bits();
    if bits <= 0 {
        return Fx::ZERO;
    }
    // sqrt(bits · 2^-32) · 2^32 = sqrt(bits · 2^32): one exact integer root.
    #[expect(clippy::cast_sign_loss, reason = "bits is positive: the rest returned above")]
    let root = ((bits as u128) << 32).isqrt();
    #[expect(clippy::cast_possible_truncation, reason = "bits < 2^63, so the root is under 2^48")]
    Fx::from_bits(root as i64)
}

/// The root of a sum of squares of raw [`Fx`] bits, as raw bits, saturating at [`Fx::MAX`].
/// Shared by the vector lengths: squaring the raw bits in 128 bits never overflows, where
/// squaring an `Fx` would for components beyond ±46,000.
#[inline]
pub(super) fn root_of_squares(components: &[i64]) -> Fx {
    let sum: u128 = components
        .iter()
        .map(|&c| {
            let magnitude = u128::from(c.unsigned_abs());
            magnitude * magnitude
        })
        .fold(0, u128::saturating_add);
    // sqrt(sum of (x * 2^32)^2) = |v| * 2^32: the raw bits of the length. Both roots are the
    // exact integer root, so they agree bit for bit; the 64-bit one is several times faster and
    // serves every vector shorter than 2^32 raw units an axis (under a metre), such as the gap
    // between two characters that touch.
    let root = match u64::try_from(sum) {
        Ok(small) => u128::from(small.isqrt()),
        Err(_) => sum.isqrt(),
    };
    Fx::from_bits(i64::try_from(root).unwrap_or(i64::MAX))
}
