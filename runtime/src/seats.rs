//! Seats: players joining and leaving a running game between two ticks.
//!
//! A game's players sit in numbered seats, and each tick takes one command per seat. Who joins
//! and who leaves is fixed before a tick, like its commands, as [`SeatChanges`]: the host of a
//! network game decides them, every peer applies them before running the tick, and a replay
//! records them, so a departure is as deterministic as a step. A seat freed is kept (its
//! number stays, its command is ignored) until a newcomer takes it: the players' numbers never
//! move, and a game that runs for weeks needs no more seats than it ever had players at once.

use serde::{Deserialize, Serialize};

use crate::Player;
use crate::error::Error;
use crate::sim::Simulation;

/// Who leaves and who joins right before a tick runs: the seats freed first, then the seats
/// taken. A newcomer takes a free seat (its number below the seats there are) or the next one
/// after the last; several newcomers after the last take the seats in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatChanges {
    /// The seats whose players leave: their characters leave the world, and the seats stand
    /// free.
    pub freed: Vec<Player>,
    /// The seats new players take, in the order they joined.
    pub joined: Vec<Player>,
}

impl SeatChanges {
    /// No one joins or leaves.
    pub const NONE: Self = Self { freed: Vec::new(), joined: Vec::new() };

    /// Whether no one joins or leaves.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.freed.is_empty() && self.joined.is_empty()
    }

    /// `count` players joining after the last of `seats` seats: the seats a game starts with
    /// when its players simply arrive one after another.
    #[must_use]
    pub fn arrivals(seats: usize, count: u16) -> Self {
        // Seats number fewer than u16::MAX: a game's players are `u16`s.
        let first = u16::try_from(seats).unwrap_or(u16::MAX);
        let joined = (0..count).map(|i| Player(first.saturating_add(i))).collect();
        Self { freed: Vec::new(), joined }
    }

    /// How many seats there are after the changes, from `seats` before: `None` if a change
    /// names a seat that cannot be (freeing one past the last, taking one beyond the next), or
    /// the seats would pass `max`. Which seats are free is the game's to know; this checks what
    /// the numbers alone can say, as a reader of a record must before it sizes anything.
    #[must_use]
    pub fn seats_after(&self, seats: usize, max: usize) -> Option<usize> {
        if self.freed.iter().any(|s| s.index() >= seats) {
            return None;
        }
        let mut seats = seats;
        for &seat in &self.joined {
            match seat.index() {
                s if s < seats => {}
                s if s == seats => seats += 1,
                _ => return None,
            }
        }
        (seats <= max).then_some(seats)
    }

    /// Applies the changes to `sim`: frees the seats, then seats the newcomers.
    ///
    /// # Errors
    ///
    /// As [`Simulation::free_seat`] and [`Simulation::seat_player`]: a seat freed that no one
    /// holds, a seat taken that is not free, or one more player than the game holds. The
    /// changes before the one refused stay made.
    pub fn apply<S: Simulation + ?Sized>(&self, sim: &mut S) -> Result<(), Error> {
        for &seat in &self.freed {
            sim.free_seat(seat)?;
        }
        for &seat in &self.joined {
            sim.seat_player(seat)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_after_counts_newcomers_past_the_last_and_refuses_gaps() {
        let seats = |numbers: &[u16]| numbers.iter().copied().map(Player).collect::<Vec<_>>();
        let changes = SeatChanges { freed: seats(&[1]), joined: seats(&[1, 3, 4]) };
        assert_eq!(changes.seats_after(3, 16), Some(5));
        assert_eq!(changes.seats_after(3, 4), None, "over the most seats");
        let gap = SeatChanges { freed: vec![], joined: seats(&[4]) };
        assert_eq!(gap.seats_after(3, 16), None, "seat 3 skipped");
        let past = SeatChanges { freed: seats(&[3]), joined: vec![] };
        assert_eq!(past.seats_after(3, 16), None, "seat 3 is not there to free");
        assert_eq!(SeatChanges::arrivals(2, 3).joined, seats(&[2, 3, 4]));
        assert_eq!(SeatChanges::arrivals(2, 3).seats_after(2, 16), Some(5));
    }
}
