//! Two- and three-dimensional vectors of [`Fx`].

use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use bytemuck::NoUninit;
use serde::{Deserialize, Serialize};

use crate::Canonical;

use super::{Angle, Fx, mul, sqrt::root_of_squares, trig::atan2};

/// A vector on the ground plane: `x` east, `y` north, in metres (or metres per tick, as the
/// field that holds it says). Plain old data, hashed in place.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(C)]
pub struct Vec2 {
    /// East component.
    pub x: Fx,
    /// North component.
    pub y: Fx,
}

/// A vector in space: `x` east, `y` up, `z` south, in metres: the renderer's right-handed,
/// y-up frame, so the presentation converts without swapping axes. Plain old data, hashed in
/// place.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(C)]
pub struct Vec3 {
    /// East component.
    pub x: Fx,
    /// Up component.
    pub y: Fx,
    /// South component.
    pub z: Fx,
}

impl Vec2 {
    /// The zero vector.
    pub const ZERO: Self = Self::new(Fx::ZERO, Fx::ZERO);

    /// A vector from its components.
    #[must_use]
    #[inline]
    pub const fn new(x: Fx, y: Fx) -> Self {
        Self { x, y }
    }

    /// The unit vector pointing at `angle` (0 along +x, counter-clockwise).
    #[must_use]
    #[inline]
    pub fn from_angle(angle: Angle) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self::new(cos, sin)
    }

    /// The dot product.
    #[must_use]
    #[inline]
    pub fn dot(self, other: Self) -> Fx {
        mul(self.x, other.x) + mul(self.y, other.y)
    }

    /// The z component of the 3D cross product: positive when `other` is counter-clockwise of
    /// `self`.
    #[must_use]
    #[inline]
    pub fn perp_dot(self, other: Self) -> Fx {
        mul(self.x, other.y) - mul(self.y, other.x)
    }

    /// The squared length. Overflows beyond a length of about 46,000, and so panics, in every
    /// build: the workspace turns on both integer overflow checks and the `fixed` crate's
    /// checks of multiplication in every profile. Use [`Self::length`] for large vectors.
    #[must_use]
    #[inline]
    pub fn length_squared(self) -> Fx {
        self.dot(self)
    }

    /// The length, rounded down to the nearest unit, for any vector.
    #[must_use]
    #[inline]
    pub fn length(self) -> Fx {
        root_of_squares(&[self.x.to_bits(), self.y.to_bits()])
    }

    /// The distance to `other`.
    #[must_use]
    #[inline]
    pub fn distance(self, other: Self) -> Fx {
        (other - self).length()
    }

    /// This vector scaled to length one, or zero for the zero vector.
    #[must_use]
    #[inline]
    pub fn normalize_or_zero(self) -> Self {
        let length = self.length();
        if length == Fx::ZERO {
            return Self::ZERO;
        }
        Self::new(self.x / length, self.y / length)
    }

    /// The angle this vector points at (zero for the zero vector).
    #[must_use]
    #[inline]
    pub fn angle(self) -> Angle {
        atan2(self.y, self.x)
    }

    /// This vector shortened to `max_length` if it is longer.
    #[must_use]
    #[inline]
    pub fn clamp_length(self, max_length: Fx) -> Self {
        let length = self.length();
        if length <= max_length || length == Fx::ZERO {
            return self;
        }
        Self::new(mul(self.x / length, max_length), mul(self.y / length, max_length))
    }

    /// This vector turned counter-clockwise by `angle`.
    #[must_use]
    #[inline]
    pub fn rotated(self, angle: Angle) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self::new(mul(self.x, cos) - mul(self.y, sin), mul(self.x, sin) + mul(self.y, cos))
    }

    /// The point `t` of the way from `self` to `other` (`t` = 0 gives `self`, 1 `other`).
    #[must_use]
    #[inline]
    pub fn lerp(self, other: Self, t: Fx) -> Self {
        self + (other - self) * t
    }
}

impl Vec3 {
    /// The zero vector.
    pub const ZERO: Self = Self::new(Fx::ZERO, Fx::ZERO, Fx::ZERO);

    /// A vector from its components.
    #[must_use]
    #[inline]
    pub const fn new(x: Fx, y: Fx, z: Fx) -> Self {
        Self { x, y, z }
    }

    /// The dot product.
    #[must_use]
    #[inline]
    pub fn dot(self, other: Self) -> Fx {
        mul(self.x, other.x) + mul(self.y, other.y) + mul(self.z, other.z)
    }

    /// The cross product (right-handed).
    #[must_use]
    #[inline]
    pub fn cross(self, other: Self) -> Self {
        Self::new(
            mul(self.y, other.z) - mul(self.z, other.y),
            mul(self.z, other.x) - mul(self.x, other.z),
            mul(self.x, other.y) - mul(self.y, other.x),
        )
    }

    /// The squared length; see [`Vec2::length_squared`] for its range.
    #[must_use]
    #[inline]
    pub fn length_squared(self) -> Fx {
        self.dot(self)
    }

    /// The length, rounded down to the nearest unit, for any vector.
    #[must_use]
    #[inline]
    pub fn length(self) -> Fx {
        root_of_squares(&[self.x.to_bits(), self.y.to_bits(), self.z.to_bits()])
    }

    /// The distance to `other`.
    #[must_use]
    #[inline]
    pub fn distance(self, other: Self) -> Fx {
        (other - self).length()
    }

    /// This vector scaled to length one, or zero for the zero vector.
    #[must_use]
    #[inline]
    pub fn normalize_or_zero(self) -> Self {
        let length = self.length();
        if length == Fx::ZERO {
            return Self::ZERO;
        }
        Self::new(self.x / length, self.y / length, self.z / length)
    }

    /// The point `t` of the way from `self` to `other`.
    #[must_use]
    #[inline]
    pub fn lerp(self, other: Self, t: Fx) -> Self {
        self + (other - self) * t
    }
}

macro_rules! vector_ops {
    ($ty:ident { $($field:ident),+ }) => {
        impl Add for $ty {
            type Output = Self;
            #[inline]
            fn add(self, rhs: Self) -> Self {
                Self { $($field: self.$field + rhs.$field),+ }
            }
        }
        impl Sub for $ty {
            type Output = Self;
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                Self { $($field: self.$field - rhs.$field),+ }
            }
        }
        impl Neg for $ty {
            type Output = Self;
            #[inline]
            fn neg(self) -> Self {
                Self { $($field: -self.$field),+ }
            }
        }
        impl Mul<Fx> for $ty {
            type Output = Self;
            #[inline]
            fn mul(self, rhs: Fx) -> Self {
                Self { $($field: mul(self.$field, rhs)),+ }
            }
        }
        impl Div<Fx> for $ty {
            type Output = Self;
            #[inline]
            fn div(self, rhs: Fx) -> Self {
                Self { $($field: self.$field / rhs),+ }
            }
        }
        impl AddAssign for $ty {
            #[inline]
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }
        impl SubAssign for $ty {
            #[inline]
            fn sub_assign(&mut self, rhs: Self) {
                *self = *self - rhs;
            }
        }
    };
}

vector_ops!(Vec2 { x, y });
vector_ops!(Vec3 { x, y, z });
