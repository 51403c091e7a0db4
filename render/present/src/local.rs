//! A game played locally: its simulation, its state hash, and the presentation that draws it,
//! stepped one tick at a time. A window, a screenshot, the image tests and the frame
//! benchmark all run a game through this.

use std::sync::Arc;

use fixstep_runtime::{Bot, Player, Simulation, StateHasher, Tick};

use crate::game::{CommandOf, Game, PartialOf, Presentation};

/// A game being played locally; see the [module documentation](self).
pub struct LocalGame<G: Game> {
    /// The simulation.
    pub sim: G::Sim,
    /// What it looks like.
    pub presentation: G::Presentation,
    hasher: StateHasher,
    hash: u64,
    local_player: Player,
    /// The bots of the players after the one at the keys, in player order.
    bots: Vec<G::Bot>,
    /// A tick's commands, kept to be filled again.
    commands: Vec<CommandOf<G>>,
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
    pub fn new(content: &Arc<G::Content>, seed: u64, players: usize, local_player: Player) -> Self {
        Self::seen_by(content, seed, players, local_player, false)
    }

    /// A game of `content` with `players` players, seen by player `local_player`, whose own
    /// character is drawn from the prediction of what they hold if `predicted`.
    fn seen_by(
        content: &Arc<G::Content>,
        seed: u64,
        players: usize,
        local_player: Player,
        predicted: bool,
    ) -> Self {
        let sim = G::new_sim(content, seed, players);
        let mut presentation = G::presentation(content, local_player);
        if predicted {
            presentation.predict_own();
        }
        presentation.observe(sim.snapshot(), G::own(&sim, local_player));
        let hash = sim.state_hash().total();
        let (bots, commands) = (Vec::new(), Vec::new());
        Self { sim, presentation, hasher: StateHasher::new(), hash, local_player, bots, commands }
    }

    /// A game of `content` played by a player at the keys (player 0), and by `bots` bots
    /// (players 1 to `bots`): the player's character is drawn from the prediction of what
    /// they hold ([`Presentation::predict_own`]).
    #[must_use]
    pub fn held_by_player(content: &Arc<G::Content>, seed: u64, bots: usize) -> Self {
        let mut game = Self::seen_by(content, seed, 1 + bots, Player::FIRST, true);
        game.bots = Player::all(1 + bots).skip(1).map(|player| G::bot(content, player)).collect();
        game
    }

    /// Runs the next tick of a game [held by a player](Self::held_by_player), with their own
    /// `command` that stands for `partial` (what was held over the tick) and the bots'
    /// commands, and shows the presentation the result.
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
        let mut commands = std::mem::take(&mut self.commands);
        commands.clear();
        commands.push(command.clone());
        let snapshot = self.sim.snapshot();
        commands.extend(self.bots.iter_mut().map(|bot| bot.command(snapshot)));
        let stepped = self.step(&commands);
        self.commands = commands;
        stepped
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
