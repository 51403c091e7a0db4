//! Ticks, and the frame scheduler that decides how many of them a render frame runs.
//!
//! The simulation advances in exact ticks of [`TICK_MICROS`]; real time never enters it. A
//! local game's frame loop hands the time each frame took to a [`FrameScheduler`], which says
//! how many whole ticks to run now, keeps a bounded backlog, and drops (and counts) whole ticks
//! beyond it, so a stall never turns into a fast-forward. Time here is integer microseconds.

use bytemuck::NoUninit;
use serde::{Deserialize, Serialize};

use crate::Canonical;

/// Length of one simulation tick in microseconds: 100 ms, exactly.
pub const TICK_MICROS: u64 = 100_000;

/// Ticks in one second of game time (1 s / [`TICK_MICROS`]), for rates written per second.
pub const TICKS_PER_SECOND: u32 = 10;

/// The most ticks one frame runs. A frame that took long owes several ticks; running them all
/// at once makes it slower still and the next one owes more. Three ticks (300 ms of game time)
/// keep a game drawn at 4 frames a second in real time and bound the work of any one frame.
pub const MAX_TICKS_PER_FRAME: u32 = 3;

/// The most whole ticks still owed that a frame carries over to the next ones. Ten ticks is one
/// second: owed time beyond that is a stall (a window dragged, a machine asleep), and catching
/// it up would fast-forward the world, so it is dropped and counted instead.
pub const MAX_BACKLOG_TICKS: u32 = 10;

/// A simulation tick number. Tick 0 is the first tick a simulation steps; a simulation that
/// has completed tick `t` next steps `t.next()`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Canonical,
    NoUninit,
)]
#[serde(transparent)]
#[canonical(pod)]
#[repr(transparent)]
pub struct Tick(pub u32);

impl Tick {
    /// The first tick.
    pub const ZERO: Self = Self(0);

    /// The tick after this one.
    ///
    /// # Panics
    ///
    /// After tick `u32::MAX` (13.6 years of play at 10 ticks a second).
    #[must_use]
    pub const fn next(self) -> Self {
        Self(self.0 + 1)
    }

    /// Whole ticks from `earlier` to `self`, negative when `earlier` is later.
    #[must_use]
    pub const fn since(self, earlier: Self) -> i64 {
        self.0 as i64 - earlier.0 as i64
    }

    /// The time at the start of this tick, in microseconds from tick 0.
    #[must_use]
    pub const fn start_micros(self) -> u64 {
        self.0 as u64 * TICK_MICROS
    }
}

impl core::fmt::Display for Tick {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

/// What one frame is to do, as decided by [`FrameScheduler::advance`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameTicks {
    /// Whole ticks to run in this frame, at most [`MAX_TICKS_PER_FRAME`].
    pub run: u32,
    /// Whole ticks dropped in this frame because the backlog exceeded [`MAX_BACKLOG_TICKS`].
    pub dropped: u32,
}

/// Turns real frame times into whole ticks for a local game (the third paragraph of the
/// network-clock specification): each frame runs what its time owes, at most
/// [`MAX_TICKS_PER_FRAME`]; what is still owed is kept up to [`MAX_BACKLOG_TICKS`] whole ticks
/// plus the part of a tick not yet due, and whole ticks beyond that are dropped and counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameScheduler {
    owed_micros: u64,
    dropped_total: u64,
}

impl FrameScheduler {
    /// A scheduler that owes nothing.
    #[must_use]
    pub const fn new() -> Self {
        Self { owed_micros: 0, dropped_total: 0 }
    }

    /// Adds a frame's `elapsed_micros` of real time and says how many ticks to run now and how
    /// many were dropped. The caller runs exactly `run` ticks before drawing.
    pub fn advance(&mut self, elapsed_micros: u64) -> FrameTicks {
        self.owed_micros = self.owed_micros.saturating_add(elapsed_micros);
        let owed_ticks = self.owed_micros / TICK_MICROS;
        let run = owed_ticks.min(u64::from(MAX_TICKS_PER_FRAME));
        let backlog = owed_ticks - run;
        let dropped = backlog.saturating_sub(u64::from(MAX_BACKLOG_TICKS));
        self.owed_micros -= (run + dropped) * TICK_MICROS;
        self.dropped_total += dropped;
        // dropped <= u64::MAX / TICK_MICROS < 2^47, saturated to u32 for a frame that slept for
        // over 13 years.
        #[expect(
            clippy::cast_possible_truncation,
            reason = "run is at most MAX_TICKS_PER_FRAME, a u32"
        )]
        FrameTicks { run: run as u32, dropped: u32::try_from(dropped).unwrap_or(u32::MAX) }
    }

    /// Real time owed but not yet run, in microseconds: the time since the latest completed
    /// tick was due. Below [`TICK_MICROS`] when the scheduler keeps up; the presentation draws
    /// at `min(owed, TICK_MICROS) / TICK_MICROS` of the way from the previous tick to the latest.
    #[must_use]
    pub const fn owed_micros(&self) -> u64 {
        self.owed_micros
    }

    /// The fraction of a tick since the latest completed tick, in millionths, clamped to one
    /// tick: the presentation's alpha, as an integer so the runtime stays float-free.
    #[must_use]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "owed is at most a tick, so this is at most a million"
    )]
    pub const fn alpha_millionths(&self) -> u32 {
        let owed = if self.owed_micros > TICK_MICROS { TICK_MICROS } else { self.owed_micros };
        (owed * 1_000_000 / TICK_MICROS) as u32
    }

    /// Whole ticks dropped since this scheduler was made.
    #[must_use]
    pub const fn dropped_total(&self) -> u64 {
        self.dropped_total
    }
}
