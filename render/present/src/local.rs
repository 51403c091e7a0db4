//! A game played locally: its simulation, its state hash, and the presentation that draws it,
//! stepped one tick at a time. A window, a screenshot, the image tests and the frame
//! benchmark all run a game through this.

use std::sync::Arc;

use fixstep_runtime::{Simulation, StateHasher, Tick};

use crate::game::{CommandOf, Game, PartialOf, Presentation};

/// A game being played locally; see the [module documentation](self).
pub struct LocalGame<G: Game> {
    /// The simulation.
    pub sim: G::Sim,
    /// What it looks like.
    pub presentation: G::Presentation,
    hasher: StateHasher,
    hash: u64,
    local_player: usize,
}

impl<G: Game> std::fmt::Debug for LocalGame<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalGame")
            .field("game", &G::NAME)
            .field("next_tick", &self.sim.next_tick())
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish_non_exhaustive()
    }
}

impl<G: Game> LocalGame<G> {
    /// A game of `content` with `players` players, seen by player `local_player`.
    #[must_use]
    pub fn new(content: &Arc<G::Content>, seed: u64, players: usize, local_player: usize) -> Self {
        let sim = G::new_sim(content, seed, players);
        let mut presentation = G::presentation(content, local_player);
        presentation.observe(sim.snapshot(), G::own(&sim, local_player));
        let hash = sim.state_hash().total();
        Self { sim, presentation, hasher: StateHasher::new(), hash, local_player }
    }

    /// A game of `content` played alone by a player at the keys: their character is drawn
    /// from the prediction of what they hold ([`Presentation::predict_own`]).
    #[must_use]
    pub fn held_by_player(content: &Arc<G::Content>, seed: u64) -> Self {
        let sim = G::new_sim(content, seed, 1);
        let mut presentation = G::presentation(content, 0);
        presentation.predict_own();
        presentation.observe(sim.snapshot(), G::own(&sim, 0));
        let hash = sim.state_hash().total();
        Self { sim, presentation, hasher: StateHasher::new(), hash, local_player: 0 }
    }

    /// Runs the next tick of a game played alone, with the own `command` that stands for
    /// `partial` (what was held over the tick), and shows the presentation the result.
    ///
    /// # Errors
    ///
    /// If the simulation refuses the tick.
    pub fn step_own(
        &mut self,
        command: &CommandOf<G>,
        partial: &PartialOf<G>,
    ) -> Result<(), fixstep_runtime::Error> {
        self.presentation.own_command(self.sim.next_tick(), command, partial);
        self.step(std::slice::from_ref(command))
    }

    /// Runs the next tick with one command per player, and shows its snapshot (and the local
    /// player's own character after it) to the presentation.
    ///
    /// # Errors
    ///
    /// If the simulation refuses the tick (a wrong number of commands).
    pub fn step(&mut self, commands: &[CommandOf<G>]) -> Result<(), fixstep_runtime::Error> {
        let tick = self.sim.next_tick();
        let snapshot = Arc::clone(self.sim.step(tick, commands)?);
        self.sim.hash_state(&mut self.hasher);
        self.hash = self.hasher.finish_reuse().total();
        self.presentation.observe(&snapshot, G::own(&self.sim, self.local_player));
        Ok(())
    }

    /// Ticks run so far: the state is at time `tick × 100 ms`.
    #[must_use]
    pub fn tick(&self) -> Tick {
        self.sim.next_tick()
    }

    /// The state hash of the latest tick.
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }
}
