//! Which tick a peer's next input is for: a round trip and a short queue ahead of the host.
//!
//! A peer's input for tick `T` must reach the host before it fixes `T`, so the peer runs its
//! input ticks ahead of the host by the round trip and [`TARGET_QUEUED_INPUTS`]. It starts
//! there, from the round trip its welcome took; from then on the host's report of how many
//! of its inputs were waiting drives the network clock's nudge (a few per cent faster or
//! slower, which keeps the queue where it should be without a visible change of pace). Only
//! when the path changes by more than a nudge can follow (a late input five ticks running, a
//! queue far too long for a second) does [`InputTicks`] step: forward past the ticks it is
//! late for, or holding back input ticks until the host catches up.

use crate::clock::TARGET_QUEUED_INPUTS;
use crate::tick::{TICK_MICROS, Tick};

/// Late inputs in a row that make the peer step its input ticks forward: five (half a
/// second). One late input is jitter the queue absorbs; five are a path that got slower
/// than the nudge can make up.
pub const LATE_RUN_TO_STEP: u32 = 5;

/// Ticks the input ticks step forward after [`LATE_RUN_TO_STEP`] late inputs: two, the
/// queue's target, so the queue refills at once.
pub const LATE_STEP_TICKS: u32 = TARGET_QUEUED_INPUTS;

/// A queue this much longer than its target is too long: three ticks (300 ms of input delay
/// more than needed).
pub const EXCESS_QUEUE_TICKS: u32 = 3;

/// Reports of a queue too long in a row that make the peer hold back: ten (a second).
pub const EXCESS_RUN_TO_HOLD: u32 = 10;

/// The numbering of a peer's input ticks; see the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputTicks {
    next: Tick,
    late_run: u32,
    excess_run: u32,
    /// Input ticks to let pass without an input, so the host's queue shortens.
    holding: u32,
    steps: u32,
}

impl InputTicks {
    /// Input ticks for a peer welcomed at host tick `welcome_tick` after a round trip of
    /// `round_trip_micros`: the first is that many ticks (rounded up) and the queue's target
    /// ahead.
    #[must_use]
    pub fn new(welcome_tick: Tick, round_trip_micros: u64) -> Self {
        let round_trip_ticks = u32::try_from(round_trip_micros.div_ceil(TICK_MICROS)).unwrap_or(0);
        let lead =
            round_trip_ticks.min(crate::net::MAX_INPUT_LEAD_TICKS / 2) + TARGET_QUEUED_INPUTS;
        Self { next: Tick(welcome_tick.0 + lead), late_run: 0, excess_run: 0, holding: 0, steps: 0 }
    }

    /// The tick the next input is for.
    #[must_use]
    pub const fn next(&self) -> Tick {
        self.next
    }

    /// How often the input ticks stepped or held back.
    #[must_use]
    pub const fn steps(&self) -> u32 {
        self.steps
    }

    /// An input tick is due: the tick its input is for, or `None` while holding back.
    pub fn take(&mut self) -> Option<Tick> {
        if self.holding > 0 {
            self.holding -= 1;
            return None;
        }
        let tick = self.next;
        self.next = tick.next();
        Some(tick)
    }

    /// The host fixed a tick with `queued` of this peer's inputs waiting, its own `late` or
    /// not.
    pub fn acknowledged(&mut self, queued: u32, late: bool) {
        self.late_run = if late { self.late_run + 1 } else { 0 };
        if self.late_run >= LATE_RUN_TO_STEP {
            self.next = Tick(self.next.0 + LATE_STEP_TICKS);
            self.late_run = 0;
            self.holding = 0;
            self.steps += 1;
        }
        let excess = queued.saturating_sub(TARGET_QUEUED_INPUTS);
        self.excess_run = if excess >= EXCESS_QUEUE_TICKS { self.excess_run + 1 } else { 0 };
        if self.excess_run >= EXCESS_RUN_TO_HOLD && self.holding == 0 {
            self.holding = excess;
            self.excess_run = 0;
            self.steps += 1;
        }
    }
}
