//! A player's frames in a network game, one path for the window and for `fixstep join
//! --headless`: the commands a frame completes go to the host on the input clock the host's
//! reports nudge, the ticks the drawn time has reached are run and observed, and the town is
//! drawn at the network clock's render tick with the own character predicted from its keys.

use std::convert::Infallible;
use std::sync::Arc;

use anyhow::Result;
use fixstep_game::level::Level;
use fixstep_game::predict::{InputAccumulator, OwnRules};
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::math::Fx;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{Simulation, StateHash};

use super::NetPeer;
use crate::present::{DrawFrame, LocalPresentation};

/// A player's side of every frame of a network game; see the [module documentation](self).
pub struct PlayerFrames {
    level: Arc<Level>,
    /// Whether the own character is drawn ahead of the ticks, where its keys have taken it.
    predict: bool,
    /// Made once the host has welcomed the peer.
    presentation: Option<LocalPresentation>,
    input: InputAccumulator,
    input_schedule: FrameScheduler,
}

impl std::fmt::Debug for PlayerFrames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerFrames")
            .field("predict", &self.predict)
            .field("started", &self.presentation.is_some())
            .finish_non_exhaustive()
    }
}

impl PlayerFrames {
    /// A player's frames on `level`, its own character predicted if `predict` (a bot that
    /// reads the town, not keys, has nothing to predict from).
    #[must_use]
    pub fn new(level: Arc<Level>, predict: bool) -> Self {
        Self {
            level,
            predict,
            presentation: None,
            input: InputAccumulator::new(),
            input_schedule: FrameScheduler::new(),
        }
    }

    /// Makes the presentation once `peer` has been welcomed, from the state the welcome
    /// brought. `true` on the call that makes it, so a caller can start what starts with the
    /// game (a truth log's first snapshot, a bot).
    pub fn start(&mut self, peer: &NetPeer) -> bool {
        if self.presentation.is_some() {
            return false;
        }
        let (Some(player), Some(sim)) = (peer.player(), peer.sim()) else { return false };
        let player = usize::from(player);
        let mut presentation = LocalPresentation::new(Arc::clone(&self.level), player);
        presentation.observe(sim.snapshot());
        if self.predict {
            presentation.predict_own();
            presentation.observe_own(OwnRules::body(sim, player));
        }
        self.presentation = Some(presentation);
        true
    }

    /// The presentation, once started.
    #[must_use]
    pub const fn presentation(&self) -> Option<&LocalPresentation> {
        self.presentation.as_ref()
    }

    /// The presentation, once started, to change (its camera, the names it draws).
    pub const fn presentation_mut(&mut self) -> Option<&mut LocalPresentation> {
        self.presentation.as_mut()
    }

    /// The own input, to turn by the mouse.
    pub const fn input_mut(&mut self) -> &mut InputAccumulator {
        &mut self.input
    }

    /// Integrates `held` over a frame of `elapsed_micros` on the peer's nudged input clock,
    /// and sends each command the frame completes for the next tick the peer owes, as
    /// `choose` decides it (the held keys' command, or a bot's), telling the prediction.
    pub fn send_inputs(
        &mut self,
        peer: &mut NetPeer,
        elapsed_micros: u64,
        held: &PlayerCommand,
        mut choose: impl FnMut(&NetPeer, PlayerCommand) -> PlayerCommand,
    ) {
        let nudged = peer.clock().nudged_micros(elapsed_micros);
        let presentation = &mut self.presentation;
        let sent = self.input.run_frame(
            &mut self.input_schedule,
            nudged,
            held,
            |command, partial| -> Result<(), Infallible> {
                let Some(tick) = peer.next_input_tick() else { return Ok(()) };
                let command = choose(peer, command);
                peer.submit(tick, command);
                if let Some(p) = presentation.as_mut() {
                    p.own_command(tick, command, partial);
                }
                Ok(())
            },
        );
        let Ok(_) = sent;
    }

    /// Runs the ticks that have arrived up to `limit` (see [`NetPeer::run_due`]), each
    /// observed by the presentation and then seen by `on_tick`.
    ///
    /// # Errors
    ///
    /// If a tick does not run.
    pub fn run_ticks(
        &mut self,
        peer: &mut NetPeer,
        limit: Option<Fx>,
        mut on_tick: impl FnMut(&TownSim, &StateHash),
    ) -> Result<u32> {
        let player = peer.player().map(usize::from);
        let presentation = &mut self.presentation;
        peer.run_due(limit, |sim, hash| {
            if let (Some(p), Some(player)) = (presentation.as_mut(), player) {
                p.observe(sim.snapshot());
                p.observe_own(OwnRules::body(sim, player));
            }
            on_tick(sim, hash);
        })
    }

    /// Draws the frame: the town between its two latest ticks at `render_tick` (the network
    /// clock's), and the own character where the keys held so far have taken it. `None`
    /// before the start.
    pub fn draw(&mut self, render_tick: Option<Fx>, elapsed_micros: u64) -> Option<&DrawFrame> {
        let presentation = self.presentation.as_mut()?;
        presentation.own_input(&self.input.partial());
        let latest = presentation.latest().map_or(0, |s| s.tick.0);
        let drawn = render_tick.map_or(0.0, |r| r.to_num::<f64>());
        let alpha = (drawn - f64::from(latest) + 1.0).clamp(0.0, 1.0) as f32;
        Some(presentation.draw(alpha, elapsed_micros as f32 / 1e6))
    }
}
