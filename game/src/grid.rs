//! A uniform grid over the ground for finding neighbours, rebuilt every tick.
//!
//! Not simulation state: it is derived from positions at the start of a step, so it is kept
//! outside the hashed state and reused between ticks without allocating. Entries of a cell
//! keep their insertion order (id order), and queries visit cells row by row, so every result
//! order depends on positions and ids alone.

use fixstep_runtime::EntityId;
use fixstep_runtime::math::{Fx, Vec2};

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
    /// Per cell, the index in `entries` where its entries start; one more at the end.
    starts: Vec<u32>,
    entries: Vec<(EntityId, Vec2)>,
    /// Scratch of `rebuild`, kept to reuse its allocations.
    unsorted: Vec<(EntityId, Vec2)>,
    cell_of: Vec<u32>,
    cursor: Vec<u32>,
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
            starts: vec![0; (cols * rows + 1) as usize],
            entries: Vec::new(),
            unsorted: Vec::new(),
            cell_of: Vec::new(),
            cursor: Vec::new(),
        }
    }

    fn column(&self, x: Fx) -> u32 {
        ((x - self.origin.x) * self.inv_cell).to_num::<i64>().clamp(0, i64::from(self.cols) - 1)
            as u32
    }

    fn row(&self, y: Fx) -> u32 {
        ((y - self.origin.y) * self.inv_cell).to_num::<i64>().clamp(0, i64::from(self.rows) - 1)
            as u32
    }

    /// Replaces the contents with `items` (a counting sort by cell).
    pub fn rebuild(&mut self, items: impl Iterator<Item = (EntityId, Vec2)>) {
        self.unsorted.clear();
        self.cell_of.clear();
        for (id, pos) in items {
            let cell = self.row(pos.y) * self.cols + self.column(pos.x);
            self.cell_of.push(cell);
            self.unsorted.push((id, pos));
        }
        self.starts.fill(0);
        for &cell in &self.cell_of {
            self.starts[cell as usize + 1] += 1;
        }
        for i in 1..self.starts.len() {
            self.starts[i] += self.starts[i - 1];
        }
        // Place each entry at its cell's next free slot; `cursor` walks the starts.
        self.entries.clear();
        self.entries.resize(self.unsorted.len(), (EntityId::default(), Vec2::ZERO));
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts);
        for (entry, &cell) in self.unsorted.iter().zip(&self.cell_of) {
            let slot = &mut self.cursor[cell as usize];
            self.entries[*slot as usize] = *entry;
            *slot += 1;
        }
    }

    /// Calls `visit` with every entry (and its position when the grid was built) in the cells
    /// that overlap the square of half-size `reach` around `centre`.
    pub fn query(&self, centre: Vec2, reach: Fx, mut visit: impl FnMut(EntityId, Vec2)) {
        let (c0, c1) = (self.column(centre.x - reach), self.column(centre.x + reach));
        let (r0, r1) = (self.row(centre.y - reach), self.row(centre.y + reach));
        for row in r0..=r1 {
            let first = (row * self.cols + c0) as usize;
            let last = (row * self.cols + c1) as usize;
            let (start, end) = (self.starts[first] as usize, self.starts[last + 1] as usize);
            for &(id, pos) in &self.entries[start..end] {
                visit(id, pos);
            }
        }
    }
}
