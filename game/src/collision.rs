//! Collisions of characters with the solid parts of the level and with each other, resolved in
//! id order so every peer pushes the same character first.

use fixstep_runtime::math::{Fx, Vec2};
use fixstep_runtime::{EntityId, EntityStore};

use crate::geom::Rect;
use crate::grid::{Cells, Grid};
use crate::state::Character;
use crate::tuning::CHARACTER_RADIUS;

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
/// and keeps it out of `solids` and inside `ground`.
pub fn resolve_static(
    characters: &mut EntityStore<Character>,
    positions: &[Vec2],
    solids: &[Rect],
    ground: &Rect,
    solid_grid: &SolidIndex,
) {
    let inner = standing_area(ground);
    for (id, character) in characters.iter_mut() {
        if !character.enabled {
            continue;
        }
        character.pos = keep_out(positions[id.index as usize], solids, &inner, solid_grid);
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
pub fn keep_out(pos: Vec2, solids: &[Rect], inner: &Rect, solid_grid: &SolidIndex) -> Vec2 {
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

/// Separates overlapping characters: for each enabled character in id order, every
/// overlapping neighbour with a greater id, each pushed half the overlap apart. Exactly
/// coincident characters are split along x, the lower id west.
///
/// `grid` holds every enabled character where it stands, pushed in id order. The pushes are
/// worked out in `positions`, indexed by slot (filled here, sized for `slots` slots): a table
/// of positions alone stays in the cache, where the characters do not. [`resolve_static`]
/// moves the characters there.
pub fn resolve_pairs(
    grid: &Grid,
    slots: usize,
    positions: &mut Vec<Vec2>,
    pairs: &mut Vec<(EntityId, EntityId)>,
) {
    let diameter = CHARACTER_RADIUS * 2;
    positions.resize(slots, Vec2::ZERO);
    pairs.clear();
    for &(id, pos) in grid.pushed() {
        positions[id.index as usize] = pos;
        grid.query(pos, diameter, |other, _| {
            if other > id {
                pairs.push((id, other));
            }
        });
    }
    for &(a, b) in pairs.iter() {
        let (pa, pb) = (positions[a.index as usize], positions[b.index as usize]);
        let apart = pb - pa;
        if apart.x.abs() >= diameter || apart.y.abs() >= diameter {
            continue;
        }
        let distance = apart.length();
        if distance >= diameter {
            continue;
        }
        let normal =
            if distance == Fx::ZERO { Vec2::new(Fx::ONE, Fx::ZERO) } else { apart / distance };
        let push = normal * ((diameter - distance) / 2);
        positions[a.index as usize] -= push;
        positions[b.index as usize] += push;
    }
}

/// Which solid rectangles are near each part of the ground: built once per level, since
/// buildings never move.
#[derive(Clone, Debug, Default)]
pub struct SolidIndex {
    space: Cells,
    /// Per cell, the range of `items` listing its solids.
    ranges: Vec<(u32, u32)>,
    items: Vec<u32>,
    /// One bit per cell: whether it lists any solid. Most of a crowd stands where no solid is
    /// near, and this bitmap is small enough to stay in the cache, where the ranges are not.
    listed: Vec<u64>,
}

impl SolidIndex {
    /// Indexes `solids` over `ground` in cells of `cell` metres; a solid is listed in every
    /// cell within a character's radius of it.
    #[must_use]
    pub fn new(solids: &[Rect], ground: &Rect, cell: Fx) -> Self {
        let space = Cells::new(*ground, cell);
        let cols = space.cols;
        let mut index = Self {
            space,
            ranges: Vec::new(),
            items: Vec::new(),
            listed: vec![0; space.count().div_ceil(64)],
        };
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); space.count()];
        for (i, rect) in solids.iter().enumerate() {
            let grown = rect.grown(CHARACTER_RADIUS);
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
            let start = index.items.len() as u32;
            index.items.extend(list);
            index.ranges.push((start, index.items.len() as u32));
        }
        index
    }

    fn cell_of(&self, p: Vec2) -> (u32, u32) {
        (self.space.column(p.x), self.space.row(p.y))
    }

    /// The solids that a character at `p` might touch, in level order.
    #[must_use]
    pub fn near(&self, p: Vec2) -> &[u32] {
        let cell = self.space.index(p) as usize;
        if self.listed[cell / 64] & (1 << (cell % 64)) == 0 {
            return &[];
        }
        let (start, end) = self.ranges[cell];
        &self.items[start as usize..end as usize]
    }
}
