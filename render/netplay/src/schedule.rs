//! The host's 100 ms schedule, kept one way for every host: a headless host's loop and a
//! windowed host's frames and serving thread all ask it which ticks are due.

use fixstep_runtime::HeldInput;
use fixstep_runtime::tick::{FrameScheduler, TICK_MICROS};

/// How often a serving thread serves its socket, microseconds: 2 ms, as a headless host does,
/// so an input that arrives just before its tick is fixed is not missed for want of a look,
/// and an acknowledgement leaves within 2 ms of what it acknowledges. A windowed host's,
/// peer's or spectator's thread ([`crate::NetPeer::serve_from_thread`]) looks as often.
pub const SERVE_MICROS: u64 = 2_000;

/// How long past a tick's time a windowed host's window may leave it unrun before its serving
/// thread runs it, microseconds: 50 ms. A window drawing at 20 frames a second or faster runs
/// every tick itself; one slower than that, hidden or stalled, has the thread stand in, so no
/// tick is more than half a tick late for the peers.
pub const STAND_IN_MICROS: u64 = 50_000;

/// The host's 100 ms schedule, and who runs each tick on it.
///
/// Ticks are due at fixed times from the start, whoever runs them, so the game keeps the
/// schedule through any stall: a tick runs once, never before its time; a host that fell
/// behind runs what it owes at the frame scheduler's pace and is back on time without a tick
/// lost or the schedule slipping. A headless host runs every tick from its loop
/// ([`run_due`](Self::run_due)) and sleeps until the next is due
/// ([`next_due_micros`](Self::next_due_micros)). A windowed host runs them on its frames, and
/// its serving thread stands in for a window late by [`STAND_IN_MICROS`]
/// ([`thread_due`](Self::thread_due)). Pure bookkeeping on times in microseconds, tested
/// without threads or clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostSchedule {
    /// When the game started: tick `n` (counting from one) is due `n` ticks later.
    start_micros: u64,
    /// Ticks run.
    ran: u64,
    /// Ticks the serving thread ran.
    stood_in: u64,
}

impl HostSchedule {
    /// A game that starts at `start_micros`, its first tick due a tick later.
    #[must_use]
    pub const fn starting_at(start_micros: u64) -> Self {
        Self { start_micros, ran: 0, stood_in: 0 }
    }

    /// Ticks due by `now_micros`.
    #[must_use]
    pub const fn due(&self, now_micros: u64) -> u64 {
        now_micros.saturating_sub(self.start_micros) / TICK_MICROS
    }

    /// When the next tick is due, microseconds: the latest a host may sleep to before it runs
    /// it. In the past while the host is behind.
    #[must_use]
    pub const fn next_due_micros(&self) -> u64 {
        self.start_micros + (self.ran + 1) * TICK_MICROS
    }

    /// Whether a windowed host's window is late with a tick at `now_micros`, so its serving
    /// thread runs it.
    #[must_use]
    pub const fn thread_due(&self, now_micros: u64) -> bool {
        self.ran < self.due(now_micros.saturating_sub(STAND_IN_MICROS))
    }

    /// The serving thread ran the next tick.
    pub const fn thread_ran(&mut self) {
        self.ran += 1;
        self.stood_in += 1;
    }

    /// What a frame scheduler owes at `now_micros`: the time since the latest tick run was
    /// due. Whole ticks of it are ticks due and not run; the rest is the presentation's
    /// fraction of a tick.
    #[must_use]
    pub const fn owed_micros(&self, now_micros: u64) -> u64 {
        now_micros.saturating_sub(self.start_micros + self.ran * TICK_MICROS)
    }

    /// The next tick at `now_micros`: whether to run it (`false`: it is not due, or the
    /// serving thread ran it already).
    pub const fn take_due(&mut self, now_micros: u64) -> bool {
        if self.ran < self.due(now_micros) {
            self.ran += 1;
            true
        } else {
            false
        }
    }

    /// A look at the schedule at `now_micros` (a frame of the window, a turn of a headless
    /// host's loop) with `held` held: feeds `input` the time the schedule owes and hands `run`
    /// each tick due (its command, and what was held of it). What was held while a serving
    /// thread stood in is in the next command: a key pressed then is not lost, only late.
    /// Returns the look's frame scheduler, for the fraction of a tick to draw at.
    ///
    /// # Errors
    ///
    /// The first error of `run`.
    pub fn run_due<I: HeldInput, E>(
        &mut self,
        now_micros: u64,
        input: &mut I,
        held: &I::Command,
        mut run: impl FnMut(I::Command, &I::Partial) -> Result<(), E>,
    ) -> Result<FrameScheduler, E> {
        // What is owed is the time since the latest tick run was due, whoever ran it, so a
        // stall leaves nothing to catch up twice.
        let mut scheduler = FrameScheduler::new();
        let owed = self.owed_micros(now_micros);
        input.run_frame(&mut scheduler, owed, held, |command, partial| {
            if self.take_due(now_micros) { run(command, partial) } else { Ok(()) }
        })?;
        Ok(scheduler)
    }

    /// Ticks run.
    #[must_use]
    pub const fn ran(&self) -> u64 {
        self.ran
    }

    /// Ticks the serving thread ran, the window being late.
    #[must_use]
    pub const fn stood_in(&self) -> u64 {
        self.stood_in
    }
}
