//! A tick as it was fixed: what every peer and every replay runs.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::seats::SeatChanges;
use crate::sim::Simulation;
use crate::tick::Tick;

/// One tick as it was fixed (by the host of a network game, or by a local game as it ran):
/// the players who leave and join before it runs, and one command per seat after the changes
/// (a free seat's is the default, and ignored). The host sends it, every peer runs it, and a
/// replay keeps it with the state hash it led to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickRecord<C> {
    /// The tick.
    pub tick: Tick,
    /// Seats freed and taken before the tick runs.
    pub seats: SeatChanges,
    /// Every seat's command, by player number.
    pub commands: Vec<C>,
}

impl<C> TickRecord<C> {
    /// The record of a tick no player joined or left before.
    #[must_use]
    pub const fn new(tick: Tick, commands: Vec<C>) -> Self {
        Self { tick, seats: SeatChanges::NONE, commands }
    }

    /// Runs the tick on `sim`: frees and takes the seats, then steps the tick.
    ///
    /// # Errors
    ///
    /// As [`SeatChanges::apply`] and [`Simulation::step`]: a seat the game cannot free or
    /// take, a tick that is not the simulation's next, or a command count that is not its
    /// seats'.
    pub fn run<S: Simulation<Command = C> + ?Sized>(&self, sim: &mut S) -> Result<(), Error> {
        self.seats.apply(sim)?;
        sim.step(self.tick, &self.commands)?;
        Ok(())
    }
}
