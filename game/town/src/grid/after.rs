//! The neighbours after an entry: the runs of entries with a greater id in the cells (and, in
//! a pile, the parts) that its reach overlaps, in query order. The collisions between
//! characters walk them, a pair for each entry after another, so every pair is met once.
//!
//! Those at or before the entry are passed over, never read one by one: in its own cell (or
//! part) the run starts where it lies, elsewhere a binary search finds the start. So a
//! character in a cell of thousands finds the ones after it at the cost of a few reads.

use core::ops::ControlFlow;

use fixstep_runtime::EntityId;
use fixstep_runtime::math::{Fx, Vec2};

use super::Grid;
use super::pile::{PILE_ENTRIES, SPLIT};

/// A run of entries: their ids and their positions when the grid was built.
type Run<'a> = &'a [(EntityId, Vec2)];

impl Grid {
    /// Calls `each` with the runs of entries after pushed entry `pushed` (those with a greater
    /// id) in the cells that overlap the square of half-size `reach` around it, until it
    /// breaks: a run a cell, row by row, or in a pile's cell a run a part that the square
    /// overlaps. Inlined into its one caller, whose loop over the entries it then holds.
    #[inline(always)]
    pub fn runs_after(
        &self,
        pushed: usize,
        reach: Fx,
        mut each: impl FnMut(Run<'_>) -> ControlFlow<()>,
    ) {
        let (id, centre) = self.unsorted[pushed];
        let ((c0, c1), (r0, r1)) = self.around(centre, reach);
        let (own_cell, placed) = (self.cell_of[pushed], self.placed[pushed]);
        let mut row = r0;
        while row <= r1 {
            let mut column = c0;
            while column <= c1 {
                let cell = row * self.space.cols + column;
                column += 1;
                if !self.is_filled(cell) {
                    continue;
                }
                let (start, count) = self.run_of(cell);
                let entries = &self.entries[start as usize..(start + count) as usize];
                let run = if count > PILE_ENTRIES {
                    let own = Own { id, cell: own_cell, placed, centre, reach };
                    if self.pile_runs_after(cell, &own, &mut each).is_break() {
                        return;
                    }
                    continue;
                } else if cell == own_cell {
                    &entries[(placed + 1 - start) as usize..]
                } else {
                    &entries[entries.partition_point(|&(other, _)| other <= id)..]
                };
                if !run.is_empty() && each(run).is_break() {
                    return;
                }
            }
            row += 1;
        }
    }

    /// Calls `each` with the runs after `own` in the parts of pile `cell` that its reach
    /// overlaps, row by row, and says whether `each` broke.
    #[inline(never)]
    fn pile_runs_after(
        &self,
        cell: u32,
        own: &Own,
        each: &mut impl FnMut(Run<'_>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Ok(at) = self.piles.binary_search_by_key(&cell, |pile| pile.cell) else {
            return ControlFlow::Continue(());
        };
        let starts = &self.piles[at].starts;
        let space = &self.space;
        let (column, row) = (cell % space.cols, cell / space.cols);
        let (x, y, reach) = (own.centre.x, own.centre.y, own.reach);
        let (c0, c1) = (space.part_column(x - reach, column), space.part_column(x + reach, column));
        let (r0, r1) = (space.part_row(y - reach, row), space.part_row(y + reach, row));
        let own_part = (cell == own.cell).then(|| space.part(own.centre, cell));
        for part_row in r0..=r1 {
            for part_column in c0..=c1 {
                let part = part_row * SPLIT + part_column;
                let (start, end) = (starts[part as usize], starts[part as usize + 1]);
                let entries = &self.entries[start as usize..end as usize];
                let run = if own_part == Some(part) {
                    &entries[(own.placed + 1 - start) as usize..]
                } else {
                    &entries[entries.partition_point(|&(other, _)| other <= own.id)..]
                };
                if !run.is_empty() {
                    each(run)?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The entry whose followers are looked for: its id, its cell, where it lies among the
/// entries, and the square it reaches.
#[derive(Clone, Copy, Debug)]
struct Own {
    id: EntityId,
    cell: u32,
    placed: u32,
    centre: Vec2,
    reach: Fx,
}
