//! Ground-plane shapes in fixed-point metres.

use fixstep_runtime::Canonical;
use fixstep_runtime::math::{Fx, Vec2};
use serde::{Deserialize, Serialize};

/// An axis-aligned rectangle, `min` south-west of `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Rect {
    /// South-west corner.
    pub min: Vec2,
    /// North-east corner.
    pub max: Vec2,
}

impl Rect {
    /// Whether `p` is inside or on the edge.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// The point of the rectangle nearest to `p` (`p` itself when inside).
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        Vec2::new(p.x.clamp(self.min.x, self.max.x), p.y.clamp(self.min.y, self.max.y))
    }

    /// The centre.
    #[must_use]
    pub fn centre(&self) -> Vec2 {
        Vec2::new((self.min.x + self.max.x) / 2, (self.min.y + self.max.y) / 2)
    }

    /// Whether the two rectangles share any area (touching edges do not count).
    #[must_use]
    pub fn overlaps(&self, other: &Self) -> bool {
        self.min.x < other.max.x
            && other.min.x < self.max.x
            && self.min.y < other.max.y
            && other.min.y < self.max.y
    }

    /// This rectangle grown by `margin` on every side.
    #[must_use]
    pub fn grown(&self, margin: Fx) -> Self {
        let m = Vec2::new(margin, margin);
        Self { min: self.min - m, max: self.max + m }
    }
}

/// A circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Circle {
    /// Centre.
    pub centre: Vec2,
    /// Radius, metres.
    pub radius: Fx,
}

impl Circle {
    /// Whether `p` is inside or on the edge.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        let d = p - self.centre;
        // Outside the bounding square needs no square root: most points are.
        if d.x.abs() > self.radius || d.y.abs() > self.radius {
            return false;
        }
        d.length() <= self.radius
    }

    /// Whether the two circles share any area.
    #[must_use]
    pub fn overlaps(&self, other: &Self) -> bool {
        (other.centre - self.centre).length() < self.radius + other.radius
    }
}
