//! A uniform grid over the ground for finding neighbours, rebuilt every tick.
//!
//! Not simulation state: it is derived from positions during a step, so it is kept outside the
//! hashed state and reused between ticks without allocating. Entries of a cell keep their
//! insertion order (id order), and queries visit cells row by row, so every result order
//! depends on positions and ids alone.
//!
//! Rebuilding costs what the entries cost, not what the ground does: only the cells that held
//! entries are cleared, and the occupied cells are found through a bitmap of one bit a cell (a
//! read per 64 cells), never by a pass over the cells' table. Each occupied cell gets its run
//! of the entry list in cell order, so neighbouring cells' entries lie side by side. The bitmap,
//! small enough to stay in the cache, also lets queries pass over empty cells without reading
//! their tables.

use fixstep_runtime::EntityId;
use fixstep_runtime::math::{Fx, Vec2, mul};

use crate::geom::Rect;

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
    #[inline]
    fn along(&self, offset: Fx, cells: u32) -> u32 {
        let index = match self.shift {
            Some(shift) => offset.to_bits() >> shift,
            None => mul(offset, self.inv_cell).to_num::<i64>(),
        };
        index.clamp(0, i64::from(cells) - 1) as u32
    }

    /// The column of `x`.
    #[must_use]
    #[inline]
    pub fn column(&self, x: Fx) -> u32 {
        self.along(x - self.origin.x, self.cols)
    }

    /// The row of `y`.
    #[must_use]
    #[inline]
    pub fn row(&self, y: Fx) -> u32 {
        self.along(y - self.origin.y, self.rows)
    }

    /// The number of the cell `p` is in.
    #[must_use]
    #[inline]
    pub fn index(&self, p: Vec2) -> u32 {
        self.row(p.y) * self.cols + self.column(p.x)
    }
}

/// Neighbour lookup over a rectangle of ground.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    space: Cells,
    /// Per cell, where its entries start in `entries` (for occupied cells) and how many it
    /// holds (0 for every cell not in `occupied`): side by side, so that a lookup reads one
    /// cache line.
    cells: Vec<(u32, u32)>,
    /// One bit per cell: whether it holds entries.
    filled: Vec<u64>,
    /// The cells with entries, to clear before the next build.
    occupied: Vec<u32>,
    entries: Vec<(EntityId, Vec2)>,
    /// The entries as they were pushed, and their cells, until `finish` places them.
    unsorted: Vec<(EntityId, Vec2)>,
    cell_of: Vec<u32>,
}

impl Grid {
    /// An empty grid of `cell`-sized squares covering `area`.
    #[must_use]
    pub fn new(area: Rect, cell: Fx) -> Self {
        let space = Cells::new(area, cell);
        Self {
            space,
            cells: vec![(0, 0); space.count()],
            filled: vec![0; space.count().div_ceil(64)],
            occupied: Vec::new(),
            entries: Vec::new(),
            unsorted: Vec::new(),
            cell_of: Vec::new(),
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
    /// clearing only the cells the last build filled.
    pub fn begin(&mut self) {
        for &cell in &self.occupied {
            self.cells[cell as usize].1 = 0;
            self.filled[cell as usize / 64] = 0;
        }
        self.occupied.clear();
        self.unsorted.clear();
        self.cell_of.clear();
    }

    /// Adds an entry to the grid being rebuilt; queries see it after [`finish`](Self::finish).
    #[inline]
    pub fn push(&mut self, id: EntityId, pos: Vec2) {
        let cell = self.space.index(pos);
        let bit = 1 << (cell % 64);
        let word = &mut self.filled[cell as usize / 64];
        if *word & bit == 0 {
            *word |= bit;
            self.occupied.push(cell);
        }
        self.cells[cell as usize].1 += 1;
        self.cell_of.push(cell);
        self.unsorted.push((id, pos));
    }

    /// Places the pushed entries, each cell's in push order, ready for queries.
    pub fn finish(&mut self) {
        // Runs laid out in cell order, found through the bitmap (a bit a cell, 64 cells a read):
        // the cells side by side in a row have their entries side by side, so a query reads a
        // run of memory per row rather than one per cell.
        let mut start = 0;
        for (word, &filled) in self.filled.iter().enumerate() {
            let mut bits = filled;
            while bits != 0 {
                let slot = &mut self.cells[word * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
                slot.0 = start;
                start += slot.1;
            }
        }
        // Each cell's start serves as its cursor while placing, and is set back after.
        self.entries.clear();
        self.entries.resize(self.unsorted.len(), (EntityId::default(), Vec2::ZERO));
        for (entry, &cell) in self.unsorted.iter().zip(&self.cell_of) {
            let cursor = &mut self.cells[cell as usize].0;
            self.entries[*cursor as usize] = *entry;
            *cursor += 1;
        }
        for &cell in &self.occupied {
            let slot = &mut self.cells[cell as usize];
            slot.0 -= slot.1;
        }
    }

    /// The entries, with their positions, in the order they were pushed.
    #[must_use]
    pub fn pushed(&self) -> &[(EntityId, Vec2)] {
        &self.unsorted
    }

    /// Calls `visit` with every entry (and its position when the grid was built) in the cells
    /// that overlap the square of half-size `reach` around `centre`.
    pub fn query(&self, centre: Vec2, reach: Fx, visit: impl FnMut(EntityId, Vec2)) {
        let space = &self.space;
        let (c0, c1) = (space.column(centre.x - reach), space.column(centre.x + reach));
        let (r0, r1) = (space.row(centre.y - reach), space.row(centre.y + reach));
        self.visit_cells((c0, c1), (r0, r1), visit);
    }

    /// Calls `visit` with every entry in the cells that overlap `area`, row by row.
    pub fn query_box(&self, area: &Rect, visit: impl FnMut(EntityId, Vec2)) {
        let space = &self.space;
        let (c0, c1) = (space.column(area.min.x), space.column(area.max.x));
        let (r0, r1) = (space.row(area.min.y), space.row(area.max.y));
        self.visit_cells((c0, c1), (r0, r1), visit);
    }

    /// As [`query`](Self::query), skipping the cells that do not overlap `within` either: for a
    /// caller that accepts only entries inside `within`, the same entries in the same order,
    /// from fewer cells.
    pub fn query_within(
        &self,
        centre: Vec2,
        reach: Fx,
        within: &Rect,
        visit: impl FnMut(EntityId, Vec2),
    ) {
        let space = &self.space;
        let c0 = space.column(centre.x - reach).max(space.column(within.min.x));
        let c1 = space.column(centre.x + reach).min(space.column(within.max.x));
        let r0 = space.row(centre.y - reach).max(space.row(within.min.y));
        let r1 = space.row(centre.y + reach).min(space.row(within.max.y));
        self.visit_cells((c0, c1), (r0, r1), visit);
    }

    /// Visits the entries of the cells in columns `c0..=c1` of rows `r0..=r1`, row by row.
    #[inline]
    fn visit_cells(
        &self,
        (c0, c1): (u32, u32),
        (r0, r1): (u32, u32),
        mut visit: impl FnMut(EntityId, Vec2),
    ) {
        if c0 > c1 {
            return;
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
                    let (start, count) = self.cells[cell];
                    for &(id, pos) in &self.entries[start as usize..(start + count) as usize] {
                        visit(id, pos);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use fixstep_runtime::math::{Fx, Vec2, fx, mul};

    use super::Cells;
    use crate::geom::Rect;

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
