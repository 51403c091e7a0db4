//! One simulation that many players of one process share: a load generator's.
//!
//! Every player of a match runs the same ticks, so a process that plays hundreds of them
//! (`fixstep loadtest`) need not run hundreds of simulations to report their hashes. Each
//! virtual player hands the ticks it receives to one [`SharedTicks`], which runs each tick
//! once, from whichever player had it first; every player then reports the hash of the ticks
//! it received, as long as what it received is what the shared simulation ran. A player whose
//! tick differs from the others' reports a hash that cannot match, so the host finds the
//! desync as it would find a peer's own.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use fixstep_runtime::net::Welcome;
use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::{Simulation, StateHasher, Tick, TickRecord};

use crate::peer::restore_state;
use crate::{NetPlayError, NetRules};

/// Ticks the shared simulation keeps after running them, with their hashes, for the players
/// whose copies arrive later: 600 (a minute), far more than any player of a live match lags
/// the first (the host drops a peer that falls [`TICK_MEMORY`] behind long before).
///
/// [`TICK_MEMORY`]: fixstep_runtime::net::TICK_MEMORY
const KEPT_TICKS: usize = 600;

/// What the shared simulation says of a player's copy of a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It ran this very tick: here is the hash after it.
    Ran(u64),
    /// It has not run the tick yet (now it has the player's copy, if it had none).
    Waiting,
    /// It ran another tick under this number: the player's copy differs from the first one
    /// received. Here is the hash after the one it ran.
    Differs(u64),
    /// It ran the tick too long ago to remember, or before it started.
    Forgotten,
}

/// A simulation shared by many players; see the documentation of its module.
pub struct SharedTicks<G: NetRules> {
    content: Arc<G::Content>,
    sim: Option<G::Sim>,
    hasher: StateHasher,
    /// Ticks received and not yet run, by tick.
    waiting: BTreeMap<Tick, TickRecord<CommandOf<G>>>,
    /// The latest ticks run, with the hash after each, oldest first.
    ran: VecDeque<(TickRecord<CommandOf<G>>, u64)>,
    /// Players' copies of a tick that differed from the one run.
    differing: u64,
}

impl<G: NetRules> std::fmt::Debug for SharedTicks<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedTicks")
            .field("next", &self.next_tick())
            .field("waiting", &self.waiting.len())
            .field("differing", &self.differing)
            .finish_non_exhaustive()
    }
}

impl<G: NetRules> SharedTicks<G> {
    /// A shared simulation of `content`, started by the first welcome.
    #[must_use]
    pub fn new(content: Arc<G::Content>) -> Self {
        Self {
            content,
            sim: None,
            hasher: StateHasher::new(),
            waiting: BTreeMap::new(),
            ran: VecDeque::with_capacity(KEPT_TICKS),
            differing: 0,
        }
    }

    /// A player was welcomed: the first welcome starts the simulation from its state; later
    /// ones change nothing (their ticks follow on from it).
    ///
    /// # Errors
    ///
    /// If the first welcome's state does not decode, or decodes to another hash.
    pub fn welcomed(&mut self, welcome: &Welcome) -> Result<(), NetPlayError> {
        if self.sim.is_none() {
            self.sim = Some(restore_state::<G>(
                &self.content,
                &welcome.state,
                welcome.hash,
                welcome.tick,
            )?);
        }
        Ok(())
    }

    /// The simulation, once started.
    #[must_use]
    pub const fn sim(&self) -> Option<&G::Sim> {
        self.sim.as_ref()
    }

    /// The next tick it runs, once started.
    #[must_use]
    pub fn next_tick(&self) -> Option<Tick> {
        self.sim.as_ref().map(Simulation::next_tick)
    }

    /// How many players' copies of a tick differed from the one it ran.
    #[must_use]
    pub const fn differing(&self) -> u64 {
        self.differing
    }

    /// What it says of a player's copy of a tick, keeping the copy to run if it has none.
    pub fn offer(&mut self, record: &TickRecord<CommandOf<G>>) -> Verdict {
        let Some(next) = self.next_tick() else {
            return Verdict::Waiting;
        };
        if record.tick >= next {
            // A copy that differs from the first is found out once the tick has run (the
            // first copy may be the odd one out; the players after it will say).
            self.waiting.entry(record.tick).or_insert_with(|| record.clone());
            return Verdict::Waiting;
        }
        let Some((first, hash)) = self.ran.iter().find(|(r, _)| r.tick == record.tick) else {
            return Verdict::Forgotten;
        };
        if first == record {
            Verdict::Ran(*hash)
        } else {
            self.differing += 1;
            Verdict::Differs(*hash)
        }
    }

    /// Runs every tick it has, in order, up to the first it lacks.
    ///
    /// # Errors
    ///
    /// If a tick does not run.
    pub fn run(&mut self) -> Result<u32, NetPlayError> {
        let Some(sim) = self.sim.as_mut() else { return Ok(0) };
        let mut ran = 0;
        while let Some(record) = self.waiting.remove(&sim.next_tick()) {
            record.run(sim)?;
            sim.hash_state(&mut self.hasher);
            let hash = self.hasher.finish_reuse().total();
            if self.ran.len() >= KEPT_TICKS {
                self.ran.pop_front();
            }
            self.ran.push_back((record, hash));
            ran += 1;
        }
        Ok(ran)
    }
}
