//! A local game: the town's simulation, its state hash, and the presentation that draws it,
//! stepped one tick at a time. The window, `fixstep screenshot`, the image tests and the
//! frame benchmark all run the game through this.

use std::sync::Arc;

pub use crate::assets::{GameAssets, load_game_assets};
use crate::present::LocalPresentation;
use anyhow::Result;
use fixstep_game::level::Level;
use fixstep_game::predict::{OwnRules, PartialInput};
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::{Simulation, StateHasher};

/// A game being played locally.
#[derive(Debug)]
pub struct LocalGame {
    /// The simulation.
    pub sim: TownSim,
    /// What it looks like.
    pub presentation: LocalPresentation,
    hasher: StateHasher,
    hash: u64,
    local_player: usize,
}

impl LocalGame {
    /// A game of `level` with `players` players, seen by player `local_player`.
    #[must_use]
    pub fn new(level: Arc<Level>, seed: u64, players: usize, local_player: usize) -> Self {
        let sim = TownSim::new(Arc::clone(&level), seed, players);
        let mut presentation = LocalPresentation::new(level, local_player);
        presentation.observe(sim.snapshot());
        let hash = sim.state_hash().total();
        Self { sim, presentation, hasher: StateHasher::new(), hash, local_player }
    }

    /// A game of `level` played alone by a player at the keys: their character is drawn from
    /// the prediction of what they hold (see [`crate::present::own`]).
    #[must_use]
    pub fn held_by_player(level: Arc<Level>, seed: u64) -> Self {
        let mut game = Self::new(level, seed, 1, 0);
        game.presentation.predict_own();
        game.presentation.observe_own(OwnRules::body(&game.sim, 0));
        game
    }

    /// Runs the next tick of a game played alone, with the own `command` that stands for
    /// `partial` (what was held over the tick), and shows the prediction the authoritative
    /// result.
    ///
    /// # Errors
    ///
    /// If the simulation refuses the tick.
    pub fn step_own(&mut self, command: PlayerCommand, partial: &PartialInput) -> Result<()> {
        self.presentation.own_command(self.sim.next_tick(), command, partial);
        self.step(&[command])?;
        self.presentation.observe_own(OwnRules::body(&self.sim, self.local_player));
        Ok(())
    }

    /// Runs the next tick with one command per player, and shows its snapshot to the
    /// presentation.
    ///
    /// # Errors
    ///
    /// If the simulation refuses the tick (a wrong number of commands).
    pub fn step(&mut self, commands: &[PlayerCommand]) -> Result<()> {
        let tick = self.sim.next_tick();
        let snapshot = Arc::clone(self.sim.step(tick, commands)?);
        self.sim.hash_state(&mut self.hasher);
        self.hash = self.hasher.finish_reuse().total();
        self.presentation.observe(&snapshot);
        Ok(())
    }

    /// The latest completed tick.
    #[must_use]
    pub fn tick(&self) -> u32 {
        self.sim.snapshot().tick.0
    }

    /// The state hash of the latest tick.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }
}
