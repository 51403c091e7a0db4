//! A uniform grid over the ground for finding neighbours, rebuilt every tick.
//!
//! Not simulation state: it is derived from positions during a step, so it is kept outside the
//! hashed state and reused between ticks without allocating. Entries of a cell keep their
//! insertion order (id order), and queries visit cells row by row (south to north, each row
//! west to east), so every result order depends on positions and ids alone.
//!
//! A cell may hold any number of entries (a crowd on one spot is all in one cell), but no search
//! costs more than its caller allows: the queries visit at most the number of entries their
//! caller names, the first in that order, and say whether they left some out; the walk of the
//! neighbours after an entry ([`after`]) passes over those before it without reading them, and
//! its caller stops it when it has seen enough. A cell holding more than a crowd with room to
//! stand does is a pile ([`pile`]), its entries laid out by the parts of the cell, so that the
//! neighbours an entry meets first are those near it.
//!
//! The grid keeps nothing per cell of the ground but a bit saying whether the cell holds
//! entries: the occupied cells are numbered in cell order by counting the bits before them (a
//! count kept per 64 cells, and one population count), and only they have a place in the table
//! of where each cell's run of entries starts. So its tables grow with the entries, not with
//! the ground: on a large town a table by cell would be megabytes that every look-up reads at
//! random, where the bitmap and its counts stay in the cache. Rebuilding clears only the bitmap
//! words the last build set; each occupied cell gets its run of the entry list in cell order,
//! so neighbouring cells' entries lie side by side.

mod after;
mod pile;

use fixstep_runtime::EntityId;
use fixstep_runtime::math::{Fx, Vec2, mul};

use crate::geom::Rect;
use pile::{PILE_ENTRIES, PartStarts, Pile, PileRoom, lay_out};

/// A rectangle of ground cut into square cells, numbered row by row: which cell a point is in.
/// Shared by the neighbour grids and the index of solids.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cells {
    origin: Vec2,
    /// 1 / cell size: cells are found by multiplying, which is far cheaper than a fixed-point
    /// division and as deterministic.
    inv_cell: Fx,
    /// For a cell of 2^k metres (k >= 0), `32 + k`: a coordinate's raw bits shifted right by
    /// it are its cell, the same number the multiplication gives (both round down), in one
    /// instruction. The rules' cells are 4 and 16 metres.
    shift: Option<u32>,
    /// Cells across (east) and down (north).
    pub cols: u32,
    /// Cells north.
    pub rows: u32,
}

impl Cells {
    /// The `cell`-sized squares covering `area`.
    #[must_use]
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the cells across and north are clamped to 0..=u16::MAX"
    )]
    pub fn new(area: Rect, cell: Fx) -> Self {
        let size = area.max - area.min;
        let cols = (size.x / cell).to_num::<i64>().clamp(0, i64::from(u16::MAX)) as u32 + 1;
        let rows = (size.y / cell).to_num::<i64>().clamp(0, i64::from(u16::MAX)) as u32 + 1;
        let bits = cell.to_bits();
        let shift = (bits > 0 && bits.count_ones() == 1 && bits >= Fx::ONE.to_bits())
            .then(|| bits.trailing_zeros());
        Self { origin: area.min, inv_cell: Fx::ONE / cell, shift, cols, rows }
    }

    /// The number of cells.
    #[must_use]
    pub fn count(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    /// The cell `offset` metres from the origin falls in, along an axis with `cells` cells
    /// (clamped to them).
    #[inline(always)]
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to 0..cells, a u32 count"
    )]
    fn along(&self, offset: Fx, cells: u32) -> u32 {
        let index = match self.shift {
            Some(shift) => offset.to_bits() >> shift,
            None => mul(offset, self.inv_cell).to_num::<i64>(),
        };
        index.clamp(0, i64::from(cells) - 1) as u32
    }

    /// The column of `x`.
    #[must_use]
    #[inline(always)]
    pub fn column(&self, x: Fx) -> u32 {
        self.along(x - self.origin.x, self.cols)
    }

    /// The row of `y`.
    #[must_use]
    #[inline(always)]
    pub fn row(&self, y: Fx) -> u32 {
        self.along(y - self.origin.y, self.rows)
    }

    /// The number of the cell `p` is in.
    #[must_use]
    #[inline(always)]
    pub fn index(&self, p: Vec2) -> u32 {
        self.row(p.y) * self.cols + self.column(p.x)
    }
}

/// Neighbour lookup over a rectangle of ground.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    space: Cells,
    /// One bit per cell: whether it holds entries.
    filled: Vec<u64>,
    /// Per word of `filled`, the occupied cells before it: an occupied cell's rank, its place
    /// among the occupied cells in cell order, is this plus the bits below it in its word.
    ranks: Vec<u32>,
    /// The words of `filled` with bits set, to clear before the next build.
    touched: Vec<u32>,
    /// By rank, where each occupied cell's entries start in `entries`, and after the last where
    /// the entries end: a cell's count is the next start less its own.
    starts: Vec<u32>,
    entries: Vec<(EntityId, Vec2)>,
    /// The entries as they were pushed, and their cells, until `finish` places them.
    unsorted: Vec<(EntityId, Vec2)>,
    cell_of: Vec<u32>,
    /// Where `finish` placed each pushed entry in `entries`, in push order.
    placed: Vec<u32>,
    /// The cells holding more than [`PILE_ENTRIES`], in cell order, laid out by parts.
    piles: Vec<Pile>,
    /// For the entries of piles, which pushed entry each is (by its place in `entries`).
    pushed_of: Vec<u32>,
    /// Room for laying a pile out.
    room: PileRoom,
}

impl Grid {
    /// An empty grid of `cell`-sized squares covering `area`.
    #[must_use]
    pub fn new(area: Rect, cell: Fx) -> Self {
        let space = Cells::new(area, cell);
        Self {
            space,
            filled: vec![0; space.count().div_ceil(64)],
            ranks: vec![0; space.count().div_ceil(64)],
            touched: Vec::new(),
            starts: Vec::new(),
            entries: Vec::new(),
            unsorted: Vec::new(),
            cell_of: Vec::new(),
            placed: Vec::new(),
            piles: Vec::new(),
            pushed_of: Vec::new(),
            room: PileRoom::default(),
        }
    }

    /// Replaces the contents with `items`.
    pub fn rebuild(&mut self, items: impl Iterator<Item = (EntityId, Vec2)>) {
        self.begin();
        for (id, pos) in items {
            self.push(id, pos);
        }
        self.finish();
    }

    /// Empties the grid for a rebuild by [`push`](Self::push) and [`finish`](Self::finish),
    /// clearing only the bitmap words the last build set.
    pub fn begin(&mut self) {
        for &word in &self.touched {
            self.filled[word as usize] = 0;
        }
        self.touched.clear();
        self.unsorted.clear();
        self.cell_of.clear();
        self.piles.clear();
    }

    /// Adds an entry to the grid being rebuilt; queries see it after [`finish`](Self::finish).
    /// Entries are pushed in id order, which keeps every cell's entries in id order.
    #[inline]
    pub fn push(&mut self, id: EntityId, pos: Vec2) {
        debug_assert!(
            self.unsorted.last().is_none_or(|&(last, _)| last < id),
            "pushed out of id order"
        );
        let cell = self.space.index(pos);
        let word = &mut self.filled[cell as usize / 64];
        if *word == 0 {
            self.touched.push(cell / 64);
        }
        *word |= 1 << (cell % 64);
        self.cell_of.push(cell);
        self.unsorted.push((id, pos));
    }

    /// Places the pushed entries, each cell's in push order, ready for queries.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "one entry per entity pushed, fewer than 2^32 like the entities' slots"
    )]
    pub fn finish(&mut self) {
        let mut occupied = 0;
        for (&word, rank) in self.filled.iter().zip(&mut self.ranks) {
            *rank = occupied;
            occupied += word.count_ones();
        }
        // Each occupied cell's count, then the sums up to and including it: where its run ends.
        self.starts.clear();
        self.starts.resize(occupied as usize + 1, 0);
        for &cell in &self.cell_of {
            let count = &mut self.starts[rank(&self.filled, &self.ranks, cell) as usize];
            *count += 1;
            if *count == PILE_ENTRIES + 1 {
                self.piles.push(Pile { cell, starts: PartStarts::default() });
            }
        }
        let mut end = 0;
        for start in &mut self.starts {
            end += *start;
            *start = end;
        }
        // Placed from the last pushed to the first, each at its cell's end less one, so that
        // each cell keeps push order and every end comes down to its cell's start.
        self.entries.clear();
        self.entries.resize(self.unsorted.len(), (EntityId::default(), Vec2::ZERO));
        self.placed.resize(self.unsorted.len(), 0);
        let pushed = self.unsorted.iter().zip(&self.cell_of).zip(&mut self.placed);
        for ((entry, &cell), placed) in pushed.rev() {
            let cursor = &mut self.starts[rank(&self.filled, &self.ranks, cell) as usize];
            *cursor -= 1;
            self.entries[*cursor as usize] = *entry;
            *placed = *cursor;
        }
        if !self.piles.is_empty() {
            // Which pushed entry each entry is, for laying the piles out.
            self.pushed_of.clear();
            self.pushed_of.resize(self.unsorted.len(), 0);
            for (k, &at) in self.placed.iter().enumerate() {
                self.pushed_of[at as usize] = k as u32;
            }
        }
        self.lay_out_piles();
    }

    /// Where occupied cell `cell`'s entries start in `entries`, and how many it holds.
    #[inline(always)]
    fn run_of(&self, cell: u32) -> (u32, u32) {
        let at = rank(&self.filled, &self.ranks, cell) as usize;
        (self.starts[at], self.starts[at + 1] - self.starts[at])
    }

    /// Whether cell `cell` holds entries.
    #[inline(always)]
    fn is_filled(&self, cell: u32) -> bool {
        self.filled[cell as usize / 64] & (1 << (cell % 64)) != 0
    }

    /// Lays each pile (noted as it filled) out by parts (see [`pile`]), and notes where its
    /// entries went.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a place within a pile, and the grid holds fewer than 2^32 entries"
    )]
    fn lay_out_piles(&mut self) {
        let mut piles = core::mem::take(&mut self.piles);
        for pile in &mut piles {
            let (start, count) = self.run_of(pile.cell);
            let range = start as usize..(start + count) as usize;
            let run = (&mut self.entries[range.clone()], &mut self.pushed_of[range]);
            pile.starts = lay_out(&self.space, (pile.cell, start), run, &mut self.room);
            for (at, &pushed) in
                self.pushed_of[start as usize..][..count as usize].iter().enumerate()
            {
                self.placed[pushed as usize] = start + at as u32;
            }
        }
        piles.sort_unstable_by_key(|pile| pile.cell);
        self.piles = piles;
    }

    /// The entries, with their positions, in the order they were pushed.
    #[must_use]
    pub fn pushed(&self) -> &[(EntityId, Vec2)] {
        &self.unsorted
    }

    /// Calls `visit` with the entries (and their positions when the grid was built) in the
    /// cells that overlap the square of half-size `reach` around `centre`, in query order, at
    /// most `limit` of them.
    pub fn query(
        &self,
        centre: Vec2,
        reach: Fx,
        limit: u32,
        visit: impl FnMut(EntityId, Vec2),
    ) -> Visited {
        let (columns, rows) = self.around(centre, reach);
        self.visit_cells(columns, rows, limit, visit)
    }

    /// Calls `visit` with the entries in the cells that overlap `area`, row by row, at most
    /// `limit` of them.
    pub fn query_box(&self, area: &Rect, limit: u32, visit: impl FnMut(EntityId, Vec2)) -> Visited {
        let space = &self.space;
        let columns = (space.column(area.min.x), space.column(area.max.x));
        let rows = (space.row(area.min.y), space.row(area.max.y));
        self.visit_cells(columns, rows, limit, visit)
    }

    /// As [`query`](Self::query), skipping the cells that do not overlap `within` either: for a
    /// caller that accepts only entries inside `within`, the same entries in the same order,
    /// from fewer cells.
    pub fn query_within(
        &self,
        centre: Vec2,
        reach: Fx,
        within: &Rect,
        limit: u32,
        visit: impl FnMut(EntityId, Vec2),
    ) -> Visited {
        let space = &self.space;
        let ((c0, c1), (r0, r1)) = self.around(centre, reach);
        let columns = (c0.max(space.column(within.min.x)), c1.min(space.column(within.max.x)));
        let rows = (r0.max(space.row(within.min.y)), r1.min(space.row(within.max.y)));
        self.visit_cells(columns, rows, limit, visit)
    }

    /// The columns and rows of the cells that overlap the square of half-size `reach` around
    /// `centre`.
    #[inline(always)]
    fn around(&self, centre: Vec2, reach: Fx) -> ((u32, u32), (u32, u32)) {
        let space = &self.space;
        (
            (space.column(centre.x - reach), space.column(centre.x + reach)),
            (space.row(centre.y - reach), space.row(centre.y + reach)),
        )
    }

    /// Calls `visit` with the entries of the filled cells in columns `c0..=c1` of rows
    /// `r0..=r1` (row by row, a cell's in id order, a pile's by parts), at most `limit` of
    /// them, and says how many it visited and whether it left some out.
    #[inline]
    fn visit_cells(
        &self,
        (c0, c1): (u32, u32),
        (r0, r1): (u32, u32),
        limit: u32,
        mut visit: impl FnMut(EntityId, Vec2),
    ) -> Visited {
        let mut seen = Visited::default();
        if c0 > c1 {
            return seen;
        }
        for row in r0..=r1 {
            let first = (row * self.space.cols) as usize;
            let (low, high) = (first + c0 as usize, first + c1 as usize);
            // The row's filled cells, a bitmap word at a time: empty cells cost nothing.
            for word in low / 64..=high / 64 {
                let below_low = if word == low / 64 { (1u64 << (low % 64)) - 1 } else { 0 };
                let above_high =
                    if word == high / 64 && high % 64 < 63 { !0u64 << (high % 64 + 1) } else { 0 };
                let mut bits = self.filled[word] & !below_low & !above_high;
                while bits != 0 {
                    let cell = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    #[expect(clippy::cast_possible_truncation, reason = "a cell number, a u32")]
                    let (start, count) = self.run_of(cell as u32);
                    let run = &self.entries[start as usize..(start + count) as usize];
                    let room = (limit - seen.count) as usize;
                    if run.len() > room {
                        for &(id, pos) in &run[..room] {
                            visit(id, pos);
                        }
                        return Visited { count: limit, cut_off: true };
                    }
                    for &(id, pos) in run {
                        visit(id, pos);
                    }
                    seen.count += count;
                }
            }
        }
        seen
    }
}

/// The rank of occupied cell `cell`: how many occupied cells come before it.
#[inline(always)]
fn rank(filled: &[u64], ranks: &[u32], cell: u32) -> u32 {
    let word = cell as usize / 64;
    ranks[word] + (filled[word] & ((1 << (cell % 64)) - 1)).count_ones()
}

/// What a bounded query visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Visited {
    /// Entries visited.
    pub count: u32,
    /// Whether it stopped at its limit with entries left unvisited.
    pub cut_off: bool,
}

#[cfg(test)]
mod tests {
    use core::ops::ControlFlow;

    use fixstep_runtime::EntityId;
    use fixstep_runtime::math::{Fx, Vec2, fx, fx_ratio, mul};

    use super::{Cells, Grid, PILE_ENTRIES};
    use crate::geom::Rect;

    /// A point `i` of a fixed scatter: within `spread` metres of `centre` on each axis.
    fn scattered(i: u64, centre: Vec2, spread: i64) -> Vec2 {
        let span = (2 * spread) << 32;
        let along = |k: u64| {
            let mixed = (i.wrapping_add(k).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 8) as i64;
            Fx::from_bits(mixed % span - (spread << 32))
        };
        centre + Vec2::new(along(1), along(2))
    }

    /// Protects the search for the neighbours after an entry, in plain cells and in piles:
    /// it hands out every entry with a greater id within its reach, each once, in runs of
    /// ascending ids, and none at or before it.
    #[test]
    fn the_runs_after_an_entry_hold_every_follower_in_reach_once() {
        let area = Rect { min: Vec2::new(fx(-20), fx(-20)), max: Vec2::new(fx(20), fx(20)) };
        let mut grid = Grid::new(area, fx(4));
        // A pile of 300 within a metre and a half of a cell's corner, and 200 about the ground.
        let points: Vec<Vec2> = (0..500)
            .map(|i| {
                if i % 5 < 3 {
                    scattered(i, Vec2::new(fx(4), fx(4)), 1)
                } else {
                    scattered(i, Vec2::ZERO, 18)
                }
            })
            .collect();
        #[expect(clippy::cast_possible_truncation, reason = "500 points")]
        grid.rebuild(
            points
                .iter()
                .enumerate()
                .map(|(i, &p)| (EntityId { index: i as u32 * 2, generation: 0 }, p)),
        );
        assert!(grid.piles.len() >= 2, "the pile spans cells holding more than {PILE_ENTRIES}");
        let reach = fx_ratio(7, 10);
        for (me, &(id, at)) in grid.pushed().iter().enumerate() {
            let mut found = Vec::new();
            grid.runs_after(me, reach, |run| {
                assert!(run.windows(2).all(|w| w[0].0 < w[1].0), "a run out of id order");
                found.extend(run.iter().map(|&(other, _)| other));
                ControlFlow::Continue(())
            });
            assert!(found.iter().all(|&other| other > id), "{id}: one at or before it");
            let mut once = found.clone();
            once.sort_unstable();
            once.dedup();
            assert_eq!(once.len(), found.len(), "{id}: one handed out twice");
            for &(other, pos) in grid.pushed() {
                let near = (pos.x - at.x).abs() <= reach && (pos.y - at.y).abs() <= reach;
                if other > id && near {
                    assert!(found.contains(&other), "{id} at {at:?} missed {other} at {pos:?}");
                }
            }
        }
    }

    /// The shift that finds a cell of 2^k metres is the multiplication it replaces, bit for
    /// bit, on both sides of the origin and beyond the edges.
    #[test]
    fn shifting_finds_the_cell_multiplying_finds() {
        let area = Rect { min: Vec2::new(fx(-37), fx(-1000)), max: Vec2::new(fx(990), fx(50)) };
        for cell in [fx(1), fx(4), fx(16), fx(256)] {
            let cells = Cells::new(area, cell);
            assert!(cells.shift.is_some());
            let mut x = Fx::from_bits(-(3 << 40) + 12_345);
            while x < fx(3000) {
                let offset = x - area.min.x;
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "clamped to 0..cols, a u32 count"
                )]
                let multiplied = mul(offset, Fx::ONE / cell)
                    .to_num::<i64>()
                    .clamp(0, i64::from(cells.cols) - 1) as u32;
                assert_eq!(cells.column(x), multiplied, "{x} in cells of {cell}");
                x += Fx::from_bits(0x1_3579_bdf1);
            }
        }
        assert!(Cells::new(area, Fx::ONE * 3).shift.is_none());
        assert!(Cells::new(area, Fx::ONE / 2).shift.is_none());
    }
}
