//! Geometry for the checks, exact in integer centimetres: rectangles, circles and segments,
//! and whether they contain, overlap or cross one another.

use crate::level::model::{CircleCm, PointCm, RectCm};

/// Whether `r` has a positive width and depth.
pub(super) fn rect_has_area(r: &RectCm) -> bool {
    r.min.0 < r.max.0 && r.min.1 < r.max.1
}

/// Whether `p` is inside `r` or on its edge.
pub(super) fn rect_contains(r: &RectCm, p: PointCm) -> bool {
    p.0 >= r.min.0 && p.0 <= r.max.0 && p.1 >= r.min.1 && p.1 <= r.max.1
}

/// Whether `inner` lies within `outer` (edges may touch).
pub(super) fn rect_within(inner: &RectCm, outer: &RectCm) -> bool {
    rect_contains(outer, inner.min) && rect_contains(outer, inner.max)
}

/// The squared distance between two points, square centimetres.
fn distance_squared(a: PointCm, b: PointCm) -> i128 {
    let dx = i128::from(b.0) - i128::from(a.0);
    let dy = i128::from(b.1) - i128::from(a.1);
    dx * dx + dy * dy
}

/// Whether `p` is inside the circle or on its edge.
pub(super) fn circle_contains(c: &CircleCm, p: PointCm) -> bool {
    let r = i128::from(c.radius_cm);
    distance_squared(c.centre, p) <= r * r
}

/// Whether two circles share area: their centres are closer than the sum of their radii.
pub(super) fn circles_overlap(a: &CircleCm, b: &CircleCm) -> bool {
    let reach = i128::from(a.radius_cm) + i128::from(b.radius_cm);
    distance_squared(a.centre, b.centre) < reach * reach
}

/// The squared distance from `p` to the outline (the edges) of `r`, square centimetres.
pub(super) fn distance_to_outline_squared(r: &RectCm, p: PointCm) -> i128 {
    let (x, y) = (i128::from(p.0), i128::from(p.1));
    let (x0, y0, x1, y1) =
        (i128::from(r.min.0), i128::from(r.min.1), i128::from(r.max.0), i128::from(r.max.1));
    if rect_contains(r, p) {
        let d = (x - x0).min(x1 - x).min(y - y0).min(y1 - y);
        d * d
    } else {
        let dx = (x0 - x).max(0).max(x - x1);
        let dy = (y0 - y).max(0).max(y - y1);
        dx * dx + dy * dy
    }
}

/// The sign of the turn from `a→b` to `a→c`: positive counter-clockwise.
fn orientation(a: PointCm, b: PointCm, c: PointCm) -> i128 {
    let (abx, aby) = (i128::from(b.0) - i128::from(a.0), i128::from(b.1) - i128::from(a.1));
    let (acx, acy) = (i128::from(c.0) - i128::from(a.0), i128::from(c.1) - i128::from(a.1));
    (abx * acy - aby * acx).signum()
}

/// Whether `p`, known to be on the line through `a` and `b`, is on the segment between them.
fn within_segment_box(a: PointCm, b: PointCm, p: PointCm) -> bool {
    p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether the closed segments `a–b` and `c–d` share a point.
fn segments_intersect(a: PointCm, b: PointCm, c: PointCm, d: PointCm) -> bool {
    let (d1, d2) = (orientation(c, d, a), orientation(c, d, b));
    let (d3, d4) = (orientation(a, b, c), orientation(a, b, d));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && within_segment_box(c, d, a))
        || (d2 == 0 && within_segment_box(c, d, b))
        || (d3 == 0 && within_segment_box(a, b, c))
        || (d4 == 0 && within_segment_box(a, b, d))
}

/// Whether the segment `a–b` touches or enters the rectangle `r`.
pub(super) fn segment_touches_rect(a: PointCm, b: PointCm, r: &RectCm) -> bool {
    if a.0.max(b.0) < r.min.0
        || a.0.min(b.0) > r.max.0
        || a.1.max(b.1) < r.min.1
        || a.1.min(b.1) > r.max.1
    {
        return false;
    }
    if rect_contains(r, a) || rect_contains(r, b) {
        return true;
    }
    let corners = [r.min, (r.max.0, r.min.1), r.max, (r.min.0, r.max.1)];
    (0..4).any(|k| segments_intersect(a, b, corners[k], corners[(k + 1) % 4]))
}
