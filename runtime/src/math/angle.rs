//! Binary angles.

use bytemuck::NoUninit;
use serde::{Deserialize, Serialize};

use crate::Canonical;

use super::{Fx, trig};

/// An angle as a fraction of a full turn: 2^32 units are one turn, so one unit is about
/// 1.46e-9 radians. Arithmetic wraps, which is exactly the geometry of a circle: adding a
/// quarter turn to three quarters gives zero, with no range check or `rem_euclid`.
///
/// Counter-clockwise seen from above is positive; 0 points along +x.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Canonical,
    NoUninit,
)]
#[serde(transparent)]
#[canonical(pod)]
#[repr(transparent)]
pub struct Angle(pub u32);

impl Angle {
    /// No turn at all.
    pub const ZERO: Self = Self(0);
    /// A quarter turn (π/2).
    pub const QUARTER: Self = Self(1 << 30);
    /// Half a turn (π).
    pub const HALF: Self = Self(1 << 31);
    /// Three quarters of a turn (3π/2, or -π/2).
    pub const THREE_QUARTERS: Self = Self(3 << 30);

    /// The angle of `numerator / denominator` of a full turn, rounded toward zero: `from_turns(1, 8)`
    /// is 45°. Level data writes angles this way or in degrees.
    ///
    /// # Panics
    ///
    /// If `denominator` is zero.
    #[must_use]
    #[inline]
    pub const fn from_turns(numerator: i64, denominator: i64) -> Self {
        let units = ((numerator as i128) << 32) / denominator as i128;
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "the units taken mod 2^32: wrapping round the turn is the meaning"
        )]
        Self(units as u32)
    }

    /// The angle of a whole number of degrees (any sign, any size: it wraps).
    #[must_use]
    #[inline]
    pub const fn from_degrees(degrees: i32) -> Self {
        Self::from_turns(degrees as i64, 360)
    }

    /// The angle of `radians`, wrapped into one turn.
    #[must_use]
    #[inline]
    pub fn from_radians(radians: Fx) -> Self {
        // units = radians * 2^32 / 2π = bits * (2^64 / 2π) / 2^64.
        let units = (i128::from(radians.to_bits()) * trig::INV_TAU_Q64) >> 64;
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "the units taken mod 2^32: wrapping round the turn is the meaning"
        )]
        Self(units as u32)
    }

    /// This angle in radians, in [-π, π).
    #[must_use]
    #[inline]
    pub fn to_radians(self) -> Fx {
        // radians = signed_units * π / 2^31, so bits = signed_units * π * 2^64 / 2^63.
        let bits = (i128::from(self.signed_units()) * trig::PI_Q64) >> 63;
        #[expect(clippy::cast_possible_truncation, reason = "at most π in Q32, under 2^34")]
        Fx::from_bits(bits as i64)
    }

    /// The units of this angle read as signed: (-2^31, 2^31] maps to (-π, π].
    #[must_use]
    #[inline]
    pub const fn signed_units(self) -> i32 {
        self.0 as i32
    }

    /// The signed turn from `self` to `to` the short way round, in angle units: `self + result`
    /// is `to`, and `|result| <= 2^31` (half a turn). Exactly half a turn comes out as -2^31.
    #[must_use]
    #[inline]
    pub const fn shortest_delta(self, to: Self) -> i32 {
        to.0.wrapping_sub(self.0) as i32
    }

    /// This angle turned by `delta` units (wrapping).
    #[must_use]
    #[inline]
    pub const fn rotated(self, delta: i32) -> Self {
        #[expect(
            clippy::cast_sign_loss,
            reason = "the bits of the delta, reinterpreted: in two's complement the wrapping add turns either way"
        )]
        Self(self.0.wrapping_add(delta as u32))
    }

    /// The angle turned toward `target` by at most `max_step` units, the short way round:
    /// the bounded-rate turn that steering and characters use.
    #[must_use]
    #[inline]
    pub const fn turned_toward(self, target: Self, max_step: u32) -> Self {
        let delta = self.shortest_delta(target);
        let limit = if max_step > i32::MAX as u32 { i32::MAX } else { max_step as i32 };
        let step = if delta > limit {
            limit
        } else if delta < -limit {
            -limit
        } else {
            delta
        };
        self.rotated(step)
    }

    /// The sine of this angle, within 2^-31 of the exact value.
    #[must_use]
    #[inline]
    pub fn sin(self) -> Fx {
        trig::sin_cos(self.0).0
    }

    /// The cosine of this angle, within 2^-31 of the exact value.
    #[must_use]
    #[inline]
    pub fn cos(self) -> Fx {
        trig::sin_cos(self.0).1
    }

    /// Sine and cosine together, at the cost of one.
    #[must_use]
    #[inline]
    pub fn sin_cos(self) -> (Fx, Fx) {
        trig::sin_cos(self.0)
    }
}

impl core::ops::Add for Angle {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        Self(self.0.wrapping_add(rhs.0))
    }
}

impl core::ops::Sub for Angle {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Self(self.0.wrapping_sub(rhs.0))
    }
}

impl core::ops::Neg for Angle {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self(self.0.wrapping_neg())
    }
}
