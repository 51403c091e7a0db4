//! A host that plays in a window: its socket is served from a thread of its own, so the game
//! its peers see never waits for the host's frames.
//!
//! A window draws when the window system lets it: a slow renderer draws a few frames a
//! second, a minimised or hidden window may be sent no frames at all, and a present can block.
//! Were the host's socket served and its ticks run only between frames, every peer would feel
//! each of those stalls: inputs acknowledged late, ticks arriving in bursts, the whole game
//! paused while the host's window is hidden. So a [`HostThread`] serves the socket every
//! [`SERVE_MICROS`], and runs the ticks itself when the window falls behind:
//!
//! - while frames come, the window runs each tick on its frame, as a game played alone does,
//!   so the host's own character answers its keys at once;
//! - when the window has run no tick for [`STAND_IN_MICROS`] past one's time, the thread runs
//!   it, with the host player's held input standing in (as the host does for a peer whose input
//!   is late), and the window does not run it again (the [`HostSchedule`] says who runs
//!   each tick).
//!
//! Either way each tick runs exactly once, on the host's 100 ms schedule, and the window draws
//! every completed tick in order ([`CompletedTick`]).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use fixstep_net::WallClock;
use fixstep_present::{CommandOf, Game, SnapshotOf};
use fixstep_runtime::tick::MAX_BACKLOG_TICKS;
use fixstep_runtime::{Player, Simulation};

#[cfg(doc)]
use fixstep_netplay::STAND_IN_MICROS;
use fixstep_netplay::{HostSchedule, NetHost, NetPlayError, SERVE_MICROS};

use crate::NetGame;

/// The most completed ticks kept for a window that has not drawn them, ticks: the backlog a
/// frame scheduler keeps. A window away for longer draws from the latest on (a gap, drawn as a
/// cut).
const UNDRAWN_TICKS: usize = MAX_BACKLOG_TICKS as usize;

/// How long a host that leaves its match keeps serving its socket for the goodbyes that hand
/// the match over, microseconds: a fifth of a second, a round trip and a resend on any link
/// worth playing on, short enough that leaving feels immediate. A player that misses it turns
/// to the next host anyway, a second of silence later.
pub const HAND_OVER_FAREWELL_MICROS: u64 = 200_000;

/// A tick completed: what the window draws of it.
pub struct CompletedTick<G: Game> {
    /// The game after it.
    pub snapshot: Arc<SnapshotOf<G>>,
    /// The host player's character after it, for the own prediction.
    pub own: Option<G::Own>,
}

/// What the window and the thread share.
pub struct ServedHost<G: NetGame> {
    /// The host: its game and socket.
    pub host: NetHost<G>,
    /// The schedule, and who runs the next tick.
    pub schedule: HostSchedule,
    completed: std::collections::VecDeque<CompletedTick<G>>,
    failure: Option<NetPlayError>,
    stop: bool,
}

impl<G: NetGame> std::fmt::Debug for ServedHost<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServedHost").field("schedule", &self.schedule).finish_non_exhaustive()
    }
}

impl<G: NetGame> ServedHost<G> {
    /// Runs the next tick with `own` as the host player's command (`None`: its held input), and
    /// keeps it for the window to draw.
    ///
    /// # Errors
    ///
    /// If the tick does not run (a bug).
    pub fn run_tick(&mut self, own: Option<CommandOf<G>>) -> Result<(), NetPlayError> {
        if self.host.superseded() {
            // Two hosts must never fix ticks for one match.
            return Err(NetPlayError::Superseded);
        }
        self.host.run_tick(own)?;
        if self.completed.len() >= UNDRAWN_TICKS {
            self.completed.pop_front();
        }
        let sim = self.host.sim();
        let snapshot = Arc::clone(sim.snapshot());
        self.completed.push_back(CompletedTick { snapshot, own: G::own(sim, Player(0)) });
        Ok(())
    }

    /// The ticks completed since the last call, oldest first.
    pub fn drain_completed(&mut self) -> std::collections::vec_deque::Drain<'_, CompletedTick<G>> {
        self.completed.drain(..)
    }

    /// What stopped the thread, if it stopped.
    pub fn take_failure(&mut self) -> Option<NetPlayError> {
        self.failure.take()
    }

    /// One look at the socket at `now_micros` (`elapsed_micros` after the last), with the
    /// stand-in ticks the window is late with.
    fn serve(&mut self, elapsed_micros: u64, now_micros: u64) -> Result<(), NetPlayError> {
        self.host.receive(elapsed_micros, now_micros)?;
        for news in self.host.drain_news() {
            tracing::info!("{news}");
        }
        while self.schedule.thread_due(now_micros) {
            self.run_tick(None)?;
            self.schedule.thread_ran();
        }
        self.host.send();
        Ok(())
    }
}

/// A host served from a thread of its own; see the [module documentation](self).
pub struct HostThread<G: NetGame> {
    shared: Arc<Mutex<ServedHost<G>>>,
    clock: WallClock,
    thread: Option<JoinHandle<()>>,
}

impl<G: NetGame> std::fmt::Debug for HostThread<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostThread")
            .field("serving", &self.thread.is_some())
            .finish_non_exhaustive()
    }
}

impl<G: NetGame> HostThread<G> {
    /// Serves `host` from a new thread, on `clock` (the one the window's times are read from).
    ///
    /// # Errors
    ///
    /// If the thread cannot be started.
    pub fn start(host: NetHost<G>, clock: WallClock) -> Result<Self, NetPlayError> {
        let shared = Arc::new(Mutex::new(ServedHost {
            host,
            schedule: HostSchedule::starting_at(clock.now_micros()),
            completed: std::collections::VecDeque::new(),
            failure: None,
            stop: false,
        }));
        let served = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("fixstep host".to_owned())
            .spawn(move || serve(&served, clock))
            .map_err(NetPlayError::Thread)?;
        Ok(Self { shared, clock, thread: Some(thread) })
    }

    /// The host, locked: the window runs its ticks and reads what it draws through this. Held
    /// briefly: the thread waits for it to serve the socket.
    pub fn lock(&self) -> MutexGuard<'_, ServedHost<G>> {
        // A panic on the thread is a bug, but the host it left is whole between ticks, so the
        // window goes on with it rather than losing the game.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The clock the host keeps its times on.
    #[must_use]
    pub const fn clock(&self) -> &WallClock {
        &self.clock
    }

    /// Stops the thread and leaves the match to the next host of the succession: every peer
    /// is told and turns to it at once (see [`NetHost::hand_over`]); with nobody to hand it to,
    /// the match ends. The goodbyes have [`HAND_OVER_FAREWELL_MICROS`] to leave.
    pub fn hand_over(&mut self) {
        self.lock().stop = true;
        if let Some(thread) = self.thread.take() {
            // A thread that panicked has nothing more to say than its panic message did.
            let _ = thread.join();
        }
        let mut served = self.lock();
        let host = &mut served.host;
        if let Err(error) = host.hand_over() {
            tracing::warn!("the match could not be handed over: {error}");
        }
        let (start, mut last) = (self.clock.now_micros(), self.clock.now_micros());
        while self.clock.now_micros() - start < HAND_OVER_FAREWELL_MICROS {
            let now = self.clock.now_micros();
            if host.receive(now - last, now).is_err() {
                break;
            }
            last = now;
            host.send();
            std::thread::sleep(std::time::Duration::from_micros(SERVE_MICROS));
        }
        host.shut_down();
    }

    /// Stops the thread and tells every peer the game is over.
    pub fn shut_down(&mut self) {
        self.lock().stop = true;
        if let Some(thread) = self.thread.take() {
            // A thread that panicked has nothing more to say than its panic message did.
            let _ = thread.join();
        }
        self.lock().host.shut_down();
    }
}

impl<G: NetGame> Drop for HostThread<G> {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.shut_down();
        }
    }
}

/// The thread: serves the socket every [`SERVE_MICROS`] until told to stop or the host fails.
fn serve<G: NetGame>(shared: &Mutex<ServedHost<G>>, clock: WallClock) {
    let mut last = clock.now_micros();
    loop {
        let now = clock.now_micros();
        {
            let mut served = shared.lock().unwrap_or_else(PoisonError::into_inner);
            if served.stop {
                return;
            }
            if let Err(e) = served.serve(now - last, now) {
                served.failure = Some(e);
                return;
            }
        }
        last = now;
        let next = now + SERVE_MICROS;
        let left = next.saturating_sub(clock.now_micros());
        std::thread::sleep(std::time::Duration::from_micros(left));
    }
}
