//! A uniform grid over the ground for finding neighbours, rebuilt every tick.
//!
//! Not simulation state: it is derived from positions during a step, so it is kept outside the
//! hashed state and reused between ticks without allocating. Entries of a cell keep their
//! insertion order (id order), and queries visit cells row by row, so every result order
//! depends on positions and ids alone.
//!
//! Rebuilding costs what the entries cost, not what the ground does: only the cells that held
//! entries are cleared, and each occupied cell gets its run of the entry list in the order
//! cells were first filled, without a pass over every cell of the ground. A bitmap of the
//! occupied cells, small enough to stay in the cache, lets queries pass over empty cells
//! without reading their tables.

use fixstep_runtime::EntityId;
use fixstep_runtime::math::{Fx, Vec2, mul};

use crate::geom::Rect;

/// Neighbour lookup over a rectangle of ground.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    origin: Vec2,
    /// 1 / cell size: cells are found by multiplying, which is far cheaper than a fixed-point
    /// division and as deterministic.
    inv_cell: Fx,
    cols: u32,
    rows: u32,
    /// Per cell, where its entries start in `entries` (for occupied cells) and how many it
    /// holds (0 for every cell not in `occupied`): side by side, so that a lookup reads one
    /// cache line.
    cells: Vec<(u32, u32)>,
    /// One bit per cell: whether it holds entries.
    filled: Vec<u64>,
    /// The cells with entries, in the order they were first filled.
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
        let size = area.max - area.min;
        let cols = (size.x / cell).to_num::<i64>().clamp(0, i64::from(u16::MAX)) as u32 + 1;
        let rows = (size.y / cell).to_num::<i64>().clamp(0, i64::from(u16::MAX)) as u32 + 1;
        Self {
            origin: area.min,
            inv_cell: Fx::ONE / cell,
            cols,
            rows,
            cells: vec![(0, 0); (cols * rows) as usize],
            filled: vec![0; (cols * rows).div_ceil(64) as usize],
            occupied: Vec::new(),
            entries: Vec::new(),
            unsorted: Vec::new(),
            cell_of: Vec::new(),
        }
    }

    fn column(&self, x: Fx) -> u32 {
        mul(x - self.origin.x, self.inv_cell).to_num::<i64>().clamp(0, i64::from(self.cols) - 1)
            as u32
    }

    fn row(&self, y: Fx) -> u32 {
        mul(y - self.origin.y, self.inv_cell).to_num::<i64>().clamp(0, i64::from(self.rows) - 1)
            as u32
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
    pub fn push(&mut self, id: EntityId, pos: Vec2) {
        let cell = self.row(pos.y) * self.cols + self.column(pos.x);
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
        let mut start = 0;
        for &cell in &self.occupied {
            let slot = &mut self.cells[cell as usize];
            slot.0 = start;
            start += slot.1;
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
        let (c0, c1) = (self.column(centre.x - reach), self.column(centre.x + reach));
        let (r0, r1) = (self.row(centre.y - reach), self.row(centre.y + reach));
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
        let c0 = self.column(centre.x - reach).max(self.column(within.min.x));
        let c1 = self.column(centre.x + reach).min(self.column(within.max.x));
        let r0 = self.row(centre.y - reach).max(self.row(within.min.y));
        let r1 = self.row(centre.y + reach).min(self.row(within.max.y));
        self.visit_cells((c0, c1), (r0, r1), visit);
    }

    /// Visits the entries of the cells in columns `c0..=c1` of rows `r0..=r1`, row by row.
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
            let first = (row * self.cols) as usize;
            for cell in first + c0 as usize..=first + c1 as usize {
                if self.filled[cell / 64] & (1 << (cell % 64)) == 0 {
                    continue;
                }
                let (start, count) = (self.cells[cell].0 as usize, self.cells[cell].1 as usize);
                for &(id, pos) in &self.entries[start..start + count] {
                    visit(id, pos);
                }
            }
        }
    }
}
