//! A player's frames in a network game, one path for the window and for `fixstep join
//! --headless`: the commands a frame completes go to the host on the input clock the host's
//! reports nudge, the ticks the drawn time has reached are run and observed, and the game is
//! drawn at the network clock's render tick with the own character predicted from its keys.

use std::convert::Infallible;
use std::sync::Arc;

use fixstep_present::{CommandOf, FrameOf, Game, Presentation};
use fixstep_runtime::math::Fx;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{HeldInput, Simulation, StateHash};

use fixstep_netplay::{NetPeer, NetPlayError};

use crate::NetGame;

/// A player's side of every frame of a network game; see the documentation of its module.
pub struct PlayerFrames<G: Game> {
    content: Arc<G::Content>,
    /// Whether the own character is drawn ahead of the ticks, where its keys have taken it.
    predict: bool,
    /// Made once the host has welcomed the peer.
    presentation: Option<G::Presentation>,
    input: G::Input,
    input_schedule: FrameScheduler,
    /// The peer's resyncs when the presentation was made.
    resyncs: u32,
}

impl<G: Game> std::fmt::Debug for PlayerFrames<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerFrames")
            .field("predict", &self.predict)
            .field("started", &self.presentation.is_some())
            .finish_non_exhaustive()
    }
}

impl<G: NetGame> PlayerFrames<G> {
    /// A player's frames on `content`, its own character predicted if `predict` (a bot that
    /// reads the game, not keys, has nothing to predict from).
    #[must_use]
    pub fn new(content: Arc<G::Content>, predict: bool) -> Self {
        Self {
            content,
            predict,
            presentation: None,
            input: G::Input::default(),
            input_schedule: FrameScheduler::new(),
            resyncs: 0,
        }
    }

    /// Makes the presentation once `peer` has been welcomed, from the state the welcome
    /// brought. `true` on the call that makes it, so a caller can start what starts with the
    /// game (a truth log's first snapshot, a bot). After a resync it is made again from the
    /// state the resync brought: the game jumped, and is drawn from there, never blended.
    pub fn start(&mut self, peer: &NetPeer<G>) -> bool {
        if self.presentation.is_some() && self.resyncs == peer.resyncs() {
            return false;
        }
        let first = self.presentation.is_none();
        self.resyncs = peer.resyncs();
        let (Some(player), Some(sim)) = (peer.player(), peer.sim()) else { return false };
        let mut presentation = G::presentation(&self.content, player);
        if self.predict {
            presentation.predict_own();
        }
        presentation.observe(sim.snapshot(), G::own(sim, player));
        self.presentation = Some(presentation);
        first
    }

    /// The presentation, once started.
    #[must_use]
    pub const fn presentation(&self) -> Option<&G::Presentation> {
        self.presentation.as_ref()
    }

    /// The presentation, once started, to change (its camera, the names it draws).
    pub const fn presentation_mut(&mut self) -> Option<&mut G::Presentation> {
        self.presentation.as_mut()
    }

    /// The own input, to turn by the mouse.
    pub const fn input_mut(&mut self) -> &mut G::Input {
        &mut self.input
    }

    /// Holds `held` over a frame of `elapsed_micros` on the peer's nudged input clock, and
    /// sends each command the frame completes for the next tick the peer owes, as `choose`
    /// decides it (the held keys' command, or a bot's), telling the prediction.
    pub fn send_inputs(
        &mut self,
        peer: &mut NetPeer<G>,
        elapsed_micros: u64,
        held: &CommandOf<G>,
        mut choose: impl FnMut(&NetPeer<G>, CommandOf<G>) -> CommandOf<G>,
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
                if let Some(p) = presentation.as_mut() {
                    p.own_command(tick, &command, partial);
                }
                peer.submit(tick, command);
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
        peer: &mut NetPeer<G>,
        limit: Option<Fx>,
        mut on_tick: impl FnMut(&G::Sim, &StateHash),
    ) -> Result<u32, NetPlayError> {
        let player = peer.player();
        let presentation = &mut self.presentation;
        peer.run_due(limit, |sim, hash| {
            if let (Some(p), Some(player)) = (presentation.as_mut(), player) {
                p.observe(sim.snapshot(), G::own(sim, player));
            }
            on_tick(sim, hash);
        })
    }

    /// Draws the frame: the game between its two latest ticks at `render_tick` (the network
    /// clock's), and the own character where the keys held so far have taken it. `None`
    /// before the start.
    pub fn draw(&mut self, render_tick: Option<Fx>, elapsed_micros: u64) -> Option<&FrameOf<G>> {
        let presentation = self.presentation.as_mut()?;
        presentation.own_input(&self.input.partial());
        let latest = presentation.latest_tick().map_or(0, |t| t.0);
        let drawn = render_tick.map_or(0.0, fixstep_present::convert::f64_of);
        let alpha = (drawn - f64::from(latest) + 1.0).clamp(0.0, 1.0) as f32;
        let dt = fixstep_present::convert::seconds_of_micros(elapsed_micros);
        Some(presentation.draw(alpha, dt))
    }
}
