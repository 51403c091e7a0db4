//! Piles: cells holding more entries than a crowd with room to stand puts in one, such as
//! everyone on one spawn. A pile's entries are laid out by the parts of its cell (a
//! [`SPLIT`] × [`SPLIT`] square of parts, row by row, each part's entries in id order), so that
//! a search for the neighbours of an entry in a pile reads those near it first, rather than
//! the next in id order wherever they stand: a crowd on one spot parts into its
//! neighbourhoods instead of chains of ids.

use fixstep_runtime::EntityId;
use fixstep_runtime::math::{Fx, Vec2, mul};

use super::Cells;

/// Parts along each side of a pile's cell: a 4 m cell in parts of 1 m, more than the 0.7 m
/// across a character, so that a character's reach overlaps at most nine parts.
pub(super) const SPLIT: u32 = 4;

/// The most entries a cell holds before it is a pile. A 4 m cell holds at most 38 characters
/// that do not overlap, and a crowd with walking room a dozen or so; the town and the stress
/// level never put more than 6 in one. Cells up to this are read in id order, as they always
/// were; beyond it, by parts.
pub(super) const PILE_ENTRIES: u32 = 16;

/// Where each part of a pile's cell starts among the grid's entries, row by row, and where
/// the last ends.
pub(super) type PartStarts = [u32; (SPLIT * SPLIT + 1) as usize];

/// A pile: its cell, and where each part's entries start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Pile {
    pub(super) cell: u32,
    pub(super) starts: PartStarts,
}

impl Cells {
    /// Which of the [`SPLIT`] parts of cell `cell` along an axis `offset` metres from the
    /// origin falls in (0 the nearest the origin).
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to 0..SPLIT"
    )]
    fn part_along(&self, offset: Fx, cell: u32) -> u32 {
        let fine = match self.shift {
            Some(shift) => offset.to_bits() >> (shift - SPLIT.trailing_zeros()),
            None => mul(offset, self.inv_cell * Fx::from_num(SPLIT)).to_num::<i64>(),
        };
        (fine - i64::from(cell * SPLIT)).clamp(0, i64::from(SPLIT) - 1) as u32
    }

    /// The column of the part of cell column `column` that `x` falls in.
    #[inline]
    pub(super) fn part_column(&self, x: Fx, column: u32) -> u32 {
        self.part_along(x - self.origin.x, column)
    }

    /// The row of the part of cell row `row` that `y` falls in.
    #[inline]
    pub(super) fn part_row(&self, y: Fx, row: u32) -> u32 {
        self.part_along(y - self.origin.y, row)
    }

    /// The part of cell `cell` that `p` falls in, numbered row by row.
    #[inline]
    pub(super) fn part(&self, p: Vec2, cell: u32) -> u32 {
        let (column, row) = (cell % self.cols, cell / self.cols);
        self.part_row(p.y, row) * SPLIT + self.part_column(p.x, column)
    }
}

/// Room for laying a pile out, kept between ticks: each entry's part, and the entries and
/// their push indices in their new order.
#[derive(Clone, Debug, Default)]
pub(super) struct PileRoom {
    parts: Vec<u8>,
    moved: Vec<((EntityId, Vec2), u32)>,
}

/// Lays the `entries` of cell `cell` (in id order, with the push index of each in `pushed`) out
/// by parts, each part's in id order, and returns where each part starts among the grid's
/// entries, where the cell's first entry is at `first`.
pub(super) fn lay_out(
    space: &Cells,
    (cell, first): (u32, u32),
    (entries, pushed): (&mut [(EntityId, Vec2)], &mut [u32]),
    room: &mut PileRoom,
) -> PartStarts {
    let mut starts = PartStarts::default();
    room.parts.clear();
    #[expect(clippy::cast_possible_truncation, reason = "a part number, below SPLIT × SPLIT (16)")]
    room.parts.extend(entries.iter().map(|&(_, pos)| space.part(pos, cell) as u8));
    for &part in &room.parts {
        starts[usize::from(part) + 1] += 1;
    }
    starts[0] = first;
    for part in 1..starts.len() {
        starts[part] += starts[part - 1];
    }
    // A counting sort: stable, so each part keeps the id order the cell had.
    let mut cursors = starts;
    room.moved.clear();
    room.moved.resize(entries.len(), ((EntityId::default(), Vec2::ZERO), 0));
    for ((&entry, &k), &part) in entries.iter().zip(pushed.iter()).zip(&room.parts) {
        let cursor = &mut cursors[usize::from(part)];
        room.moved[(*cursor - first) as usize] = (entry, k);
        *cursor += 1;
    }
    for ((entry, k), &(moved, moved_k)) in
        entries.iter_mut().zip(pushed.iter_mut()).zip(&room.moved)
    {
        (*entry, *k) = (moved, moved_k);
    }
    starts
}
