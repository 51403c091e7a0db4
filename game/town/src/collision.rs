//! Collisions of characters with the solid parts of the level and with each other, resolved in
//! id order so every peer pushes the same character first.

use core::ops::ControlFlow;
use fixstep_runtime::{EntityId, EntityStore};

use fixstep_runtime::math::{Angle, Fx, Vec2};

use crate::geom::Rect;
use crate::grid::{Cells, Grid};
use crate::state::Character;
use crate::tuning::{CHARACTER_RADIUS, GOLDEN_ANGLE, MAX_PAIR_CANDIDATES, MAX_PAIR_CHECKS};

/// Pushes a circle of `radius` at `pos` out of `rect`, returning the corrected position.
#[must_use]
pub fn push_out_of_rect(pos: Vec2, radius: Fx, rect: &Rect) -> Vec2 {
    let closest = rect.closest_point(pos);
    let away = pos - closest;
    if away == Vec2::ZERO {
        // The centre is inside: leave by the nearest side.
        let exits = [
            (pos.x - rect.min.x, Vec2::new(rect.min.x - radius, pos.y)),
            (rect.max.x - pos.x, Vec2::new(rect.max.x + radius, pos.y)),
            (pos.y - rect.min.y, Vec2::new(pos.x, rect.min.y - radius)),
            (rect.max.y - pos.y, Vec2::new(pos.x, rect.max.y + radius)),
        ];
        let mut best = exits[0];
        for exit in &exits[1..] {
            if exit.0 < best.0 {
                best = *exit;
            }
        }
        return best.1;
    }
    // Farther than the radius along either axis cannot touch: no square root needed.
    if away.x.abs() >= radius || away.y.abs() >= radius {
        return pos;
    }
    let distance = away.length();
    if distance >= radius {
        return pos;
    }
    closest + away / distance * radius
}

/// Moves every enabled character to where [`resolve_pairs`] left it in `positions` (by slot),
/// and keeps it out of `solids` and inside `ground`; tells `placed` each one's id and where it
/// stands now, in id order.
///
/// Where it stands now goes back into `positions` too, so that a pass after it that asks where
/// a character stands (a taxi's strikes) reads the small table by slot, not the character.
pub fn resolve_static(
    characters: &mut EntityStore<Character>,
    positions: &mut [Vec2],
    (solids, ground, solid_grid): (&[Rect], &Rect, &RectIndex),
    mut placed: impl FnMut(EntityId, Vec2),
) {
    let inner = standing_area(ground);
    for (id, character) in characters.iter_mut() {
        if !character.enabled {
            continue;
        }
        let at = &mut positions[id.index as usize];
        character.pos = keep_out(*at, solids, &inner, solid_grid);
        *at = character.pos;
        placed(id, character.pos);
    }
}

/// Where a character's centre may be on `ground`: a radius inside its edges.
#[must_use]
pub fn standing_area(ground: &Rect) -> Rect {
    Rect {
        min: ground.min + Vec2::new(CHARACTER_RADIUS, CHARACTER_RADIUS),
        max: ground.max - Vec2::new(CHARACTER_RADIUS, CHARACTER_RADIUS),
    }
}

/// A character at `pos` pushed out of the `solids` near it (in level order) and kept inside
/// `inner` (its [`standing_area`]): the static half of the collision rule, which the rules and
/// the own character's prediction share.
#[must_use]
pub fn keep_out(pos: Vec2, solids: &[Rect], inner: &Rect, solid_grid: &RectIndex) -> Vec2 {
    let mut pos = pos;
    for &index in solid_grid.near(pos) {
        pos = push_out_of_rect(pos, CHARACTER_RADIUS, &solids[index as usize]);
    }
    inner.closest_point(pos)
}

/// The solid rectangles of `level` that characters cannot enter: buildings and lifts.
#[must_use]
pub fn level_solids(level: &crate::level::Level) -> Vec<Rect> {
    let mut solids: Vec<Rect> = level.buildings.iter().map(|b| b.footprint).collect();
    solids.extend(level.objects.iter().filter_map(|o| match &o.kind {
        crate::level::ObjectDefKind::Lift(lift) => Some(lift.footprint),
        _ => None,
    }));
    solids
}

/// Separates overlapping characters: for each enabled character in id order, the overlapping
/// neighbours with a greater id, each pushed half the overlap apart, as each pair is met.
/// Exactly coincident characters part along the [`parting`] direction of the greater id.
///
/// The neighbours come in the grid's order (the cells around a character south to north, west
/// to east, each cell's in id order), and a character looks at no more than
/// [`MAX_PAIR_CANDIDATES`] of them and measures the distance to no more than
/// [`MAX_PAIR_CHECKS`], however many share its cell. So a tick's pair work is bounded per
/// character and needs no memory beyond the positions. A crowd packed tighter than that is
/// pushed apart by the checks it gets, and over the ticks it thins to where every neighbour is
/// checked.
///
/// `grid` holds every enabled character where it stands, pushed in id order. The pushes are
/// worked out in `positions`, indexed by slot (filled here, sized for `slots` slots): a table
/// of positions alone stays in the cache, where the characters do not. [`resolve_static`]
/// moves the characters there.
pub fn resolve_pairs(grid: &Grid, slots: usize, positions: &mut Vec<Vec2>) -> PairWork {
    let diameter = CHARACTER_RADIUS * 2;
    positions.resize(slots, Vec2::ZERO);
    for &(id, pos) in grid.pushed() {
        positions[id.index as usize] = pos;
    }
    let mut work = PairWork::default();
    for (pushed, &(id, _)) in grid.pushed().iter().enumerate() {
        let me = id.index as usize;
        let (mut candidates, mut checks) = (0, 0);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "both are at most room, under MAX_PAIR_CANDIDATES (64): a longer run breaks off at room"
        )]
        grid.runs_after(pushed, diameter, |run| {
            let room = (MAX_PAIR_CANDIDATES - candidates) as usize;
            for (looked, &(other, _)) in run.iter().enumerate() {
                if looked == room || checks == MAX_PAIR_CHECKS {
                    candidates += looked as u32;
                    work.cut_off += 1;
                    return ControlFlow::Break(());
                }
                checks += u32::from(separate(positions, me, other.index as usize, diameter));
            }
            candidates += run.len() as u32;
            ControlFlow::Continue(())
        });
        work.candidates += u64::from(candidates);
        work.checks += u64::from(checks);
    }
    work
}

/// Pushes the characters in slots `a` and `b` of `positions` apart, half the overlap each, if
/// they are closer than `diameter`. Returns whether it measured the distance between them:
/// whether they are within `diameter` along both axes.
#[inline]
fn separate(positions: &mut [Vec2], a: usize, b: usize, diameter: Fx) -> bool {
    let (pa, pb) = (positions[a], positions[b]);
    let apart = pb - pa;
    if apart.x.abs() >= diameter || apart.y.abs() >= diameter {
        return false;
    }
    // The length is the root of the sum of the components' squares in raw bits, rounded down:
    // it reaches the diameter exactly when the sum reaches the diameter's square, so whole bits
    // decide without a root; and the root of that very sum is the length, bit for bit.
    let (x, y) = (apart.x.to_bits().unsigned_abs(), apart.y.to_bits().unsigned_abs());
    let diameter_bits = diameter.to_bits().unsigned_abs();
    debug_assert!(diameter_bits <= MAX_DIAMETER_BITS, "a diameter of {diameter}");
    // Both components are shorter than the diameter: the sum fits 64 bits.
    let squares = x * x + y * y;
    if squares >= diameter_bits * diameter_bits {
        return true;
    }
    let distance = Fx::from_bits(squares.isqrt() as i64);
    let normal = if distance == Fx::ZERO {
        parting(b)
    } else {
        Vec2::new(div_short(apart.x, distance), div_short(apart.y, distance))
    };
    let push = normal * ((diameter - distance) / 2);
    positions[a] -= push;
    positions[b] += push;
    true
}

/// The longest diameter, in raw bits, whose pairs [`separate`] measures in 64 bits: under 2^32
/// over the square root of 2 (about 0.7 of a metre and a little), so that the sum of the
/// squares of two components shorter than it fits. Characters' is 0.7 m.
const MAX_DIAMETER_BITS: u64 = 3_037_000_499;

const _: () = assert!((MAX_DIAMETER_BITS as u128).pow(2) * 2 <= u64::MAX as u128);
#[expect(
    clippy::cast_sign_loss,
    reason = "the radius is positive; a negative one would wrap to a huge diameter and fail this"
)]
const _: () = assert!(CHARACTER_RADIUS.to_bits() as u64 * 2 <= MAX_DIAMETER_BITS);

/// The direction in which the character in slot `slot` parts from one on the very same spot:
/// the slot times the golden angle. Successive multiples of the golden angle never line up, so
/// a crowd on one spot (everyone on one spawn) parts every way, into a disc, rather than along
/// one line that would outgrow any ground.
#[inline]
fn parting(slot: usize) -> Vec2 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a slot index, under 2^32, and the angle wraps mod 2^32 anyway"
    )]
    Vec2::from_angle(Angle((slot as u32).wrapping_mul(GOLDEN_ANGLE.0)))
}

/// `x / d` for `x` shorter than a metre (under 2^32 raw units) and `d` at least `|x|`: the
/// fixed-point division bit for bit (both truncate toward zero), in 64 bits where the general
/// one takes 128. A crowd's collisions divide twice a pair.
#[inline]
fn div_short(x: Fx, d: Fx) -> Fx {
    let magnitude = (x.to_bits().unsigned_abs() << 32) / d.to_bits().unsigned_abs();
    // At most 2^32 (|x| <= d): an i64.
    let quotient = magnitude as i64;
    Fx::from_bits(if x.to_bits() < 0 { -quotient } else { quotient })
}

/// What a tick's collisions between characters cost. Not simulation state: a count of work, for
/// tests and measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairWork {
    /// Neighbours looked at (at most [`MAX_PAIR_CANDIDATES`] a character).
    pub candidates: u64,
    /// Distances measured: neighbours looked at that were within a diameter along both axes
    /// (at most [`MAX_PAIR_CHECKS`] a character).
    pub checks: u64,
    /// Characters that stopped at one of the two limits with neighbours left.
    pub cut_off: u32,
}

/// Which of a list of rectangles that never move are near each part of the ground, built once
/// per level: the solids a character may touch (buildings never move), and the doors it may
/// reach.
#[derive(Clone, Debug, Default)]
pub struct RectIndex {
    space: Cells,
    /// Per cell, where its rectangles start in `items`, and after the last cell where the
    /// items end: the cells' lists lie in cell order, so a cell's ends where the next one's
    /// starts. Four bytes a cell, half of what a start and an end would take: on a large town
    /// this table is megabytes, read at every character's cell every tick.
    starts: Vec<u32>,
    items: Vec<u32>,
    /// One bit per cell: whether it lists any rectangle. Most of a crowd stands where no solid
    /// is near, and this bitmap is small enough to stay in the cache, where the ranges are not.
    listed: Vec<u64>,
}

impl RectIndex {
    /// Indexes `solids` over `ground` in cells of `cell` metres; a solid is listed in every
    /// cell within a character's radius of it.
    #[must_use]
    pub fn new(solids: &[Rect], ground: &Rect, cell: Fx) -> Self {
        Self::within(solids, CHARACTER_RADIUS, ground, cell)
    }

    /// Indexes `rects` over `ground` in cells of `cell` metres; a rectangle is listed in every
    /// cell within `margin` of it.
    #[must_use]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a level's rectangles and their listings number far fewer than 2^32, which would take 16 GiB"
    )]
    pub fn within(rects: &[Rect], margin: Fx, ground: &Rect, cell: Fx) -> Self {
        let space = Cells::new(*ground, cell);
        let cols = space.cols;
        let mut index = Self {
            space,
            starts: Vec::with_capacity(space.count() + 1),
            items: Vec::new(),
            listed: vec![0; space.count().div_ceil(64)],
        };
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); space.count()];
        for (i, rect) in rects.iter().enumerate() {
            let grown = rect.grown(margin);
            let (c0, r0) = index.cell_of(grown.min);
            let (c1, r1) = index.cell_of(grown.max);
            for row in r0..=r1 {
                for col in c0..=c1 {
                    per_cell[(row * cols + col) as usize].push(i as u32);
                }
            }
        }
        for (cell, list) in per_cell.into_iter().enumerate() {
            if !list.is_empty() {
                index.listed[cell / 64] |= 1 << (cell % 64);
            }
            index.starts.push(index.items.len() as u32);
            index.items.extend(list);
        }
        index.starts.push(index.items.len() as u32);
        index
    }

    fn cell_of(&self, p: Vec2) -> (u32, u32) {
        (self.space.column(p.x), self.space.row(p.y))
    }

    /// The rectangles listed near `p`, in their order: for solids, those that a character at
    /// `p` might touch.
    #[must_use]
    pub fn near(&self, p: Vec2) -> &[u32] {
        let cell = self.space.index(p) as usize;
        if self.listed[cell / 64] & (1 << (cell % 64)) == 0 {
            return &[];
        }
        &self.items[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use fixstep_runtime::math::{Fx, Vec2, fx, fx_ratio};

    use super::{RectIndex, div_short, parting, separate};
    use crate::geom::Rect;
    use crate::tuning::CHARACTER_RADIUS;

    /// Raw bits `i` of a fixed scatter, from -`span` to `span` (exclusive).
    fn scattered(i: i64, span: i64) -> i64 {
        (i.wrapping_mul(0x5851_f42d_4c95_7f2d) >> 16) % span
    }

    /// The pair rule as it was written first: the length, then the normal by the general
    /// division.
    fn reference(positions: &mut [Vec2], a: usize, b: usize, diameter: Fx) {
        let apart = positions[b] - positions[a];
        if apart.x.abs() >= diameter || apart.y.abs() >= diameter {
            return;
        }
        let distance = apart.length();
        if distance >= diameter {
            return;
        }
        let normal = if distance == Fx::ZERO { parting(b) } else { apart / distance };
        let push = normal * ((diameter - distance) / 2);
        positions[a] -= push;
        positions[b] += push;
    }

    /// Protects the short cuts of the pair rule (whole bits instead of a root for pairs too far
    /// apart, 64-bit divisions for the normal): the very bits of the rule written plainly, for
    /// pairs apart by anything up to a metre and a half, touching or on one spot.
    #[test]
    fn separating_a_pair_gives_the_bits_of_the_plain_rule() {
        let diameter = CHARACTER_RADIUS * 2;
        let metre_and_a_half = 3 << 31;
        for i in 0..50_000_i64 {
            let a = Vec2::new(
                Fx::from_bits(scattered(i, 1 << 40)),
                Fx::from_bits(scattered(i + 7, 1 << 40)),
            );
            let offset = match i % 4 {
                0 => Vec2::ZERO,
                1 => Vec2::new(diameter, Fx::ZERO),
                _ => Vec2::new(
                    Fx::from_bits(scattered(i + 1, metre_and_a_half)),
                    Fx::from_bits(scattered(i + 2, metre_and_a_half)),
                ),
            };
            #[expect(
                clippy::cast_sign_loss,
                reason = "i counts up from 0, so i % 1000 is 0 to 999"
            )]
            let (slot_a, slot_b) = (2, (i % 1000) as usize + 3);
            let mut fast = vec![Vec2::ZERO; 1003];
            fast[slot_a] = a;
            fast[slot_b] = a + offset;
            let mut plain = fast.clone();
            separate(&mut fast, slot_a, slot_b, diameter);
            reference(&mut plain, slot_a, slot_b, diameter);
            let (fast, plain) = ([fast[slot_a], fast[slot_b]], [plain[slot_a], plain[slot_b]]);
            assert_eq!(fast, plain, "pair {i}: {a:?} and {offset:?} apart");
        }
    }

    /// Protects the index of things that never move (the solids, the doors): near any point it
    /// lists every rectangle within its margin, in their order.
    #[test]
    fn the_rect_index_lists_every_rectangle_within_its_margin() {
        let ground = Rect { min: Vec2::new(fx(-50), fx(-50)), max: Vec2::new(fx(50), fx(50)) };
        let point = |i: i64| {
            Vec2::new(
                Fx::from_bits(scattered(i, 50 << 32)),
                Fx::from_bits(scattered(i + 5, 50 << 32)),
            )
        };
        let doors: Vec<Rect> = (0..200).map(|i| Rect { min: point(i), max: point(i) }).collect();
        let margin = fx(2);
        let index = RectIndex::within(&doors, margin, &ground, fx(4));
        for i in 1_000..6_000 {
            let p = point(i);
            let near = index.near(p);
            assert!(near.windows(2).all(|w| w[0] < w[1]), "listed out of order");
            #[expect(clippy::cast_possible_truncation, reason = "200 doors")]
            for (door, rect) in doors.iter().enumerate() {
                let within =
                    (rect.min.x - p.x).abs() <= margin && (rect.min.y - p.y).abs() <= margin;
                assert!(!within || near.contains(&(door as u32)), "{p:?} missed door {door}");
            }
        }
    }

    /// Protects the 64-bit division: the fixed-point division's bits, for every sign, up to a
    /// metre over anything as long.
    #[test]
    fn the_short_division_is_the_fixed_point_division() {
        for i in 0..50_000_i64 {
            let x = Fx::from_bits(scattered(i, 1 << 32));
            let d = Fx::from_bits(x.to_bits().abs() + scattered(i + 3, 1 << 33).abs())
                .max(fx_ratio(1, 1 << 30));
            assert_eq!(div_short(x, d), x / d, "{x} / {d}");
        }
    }
}
