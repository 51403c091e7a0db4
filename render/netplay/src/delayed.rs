//! The match as spectators see it: the host's own ticks, run again a fixed delay later.
//!
//! Competitive games hold spectators back so that a watcher cannot coach a player. The delay
//! is the host's to enforce, never the spectator's: a spectator is sent nothing of a tick
//! until the delay has passed since the host ran it. The host keeps a second simulation
//! that runs each fixed tick again once it is that old, and cuts the spectators' feeds from
//! it; a spectator that joins late starts at the delayed tick, as everyone's view does.

use std::collections::VecDeque;

use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::{Simulation, Tick, TickRecord};

use crate::NetRules;

/// The longest delay a host may hold spectators back, seconds: an hour, longer than any
/// tournament stream's (ten to twenty minutes); the ticks it holds are a few bytes each.
pub const MAX_SPECTATOR_DELAY_S: u32 = 3_600;

/// The simulation spectators are fed from, the delay behind the host's.
pub(crate) struct DelayedMatch<G: NetRules> {
    sim: G::Sim,
    /// The ticks run by the host that this simulation has yet to run, oldest first.
    waiting: VecDeque<TickRecord<CommandOf<G>>>,
    /// How many ticks behind the host it runs.
    delay_ticks: u32,
}

impl<G: NetRules> DelayedMatch<G> {
    /// A copy of `sim`, the host's game now, that runs `delay_ticks` behind it.
    pub(crate) fn new(sim: G::Sim, delay_ticks: u32) -> Self {
        Self { sim, waiting: VecDeque::new(), delay_ticks }
    }

    /// Takes the tick the host just ran, and runs the one that is now old enough, if any:
    /// the tick it ran.
    ///
    /// # Errors
    ///
    /// If the tick does not run (it ran on the host: a bug).
    pub(crate) fn host_ran(
        &mut self,
        record: &TickRecord<CommandOf<G>>,
    ) -> Result<Option<TickRecord<CommandOf<G>>>, fixstep_runtime::Error> {
        self.waiting.push_back(record.clone());
        if self.waiting.len() <= self.delay_ticks as usize {
            return Ok(None);
        }
        let Some(due) = self.waiting.pop_front() else { return Ok(None) };
        due.run(&mut self.sim)?;
        Ok(Some(due))
    }

    /// The simulation, at the delayed tick.
    pub(crate) const fn sim(&self) -> &G::Sim {
        &self.sim
    }

    /// The next tick it runs.
    pub(crate) fn next_tick(&self) -> Tick {
        self.sim.next_tick()
    }
}
