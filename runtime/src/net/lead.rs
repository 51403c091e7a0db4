//! Which tick a peer's next input is for, and how early its inputs should reach the host.
//!
//! A peer's input for tick `T` must reach the host before it fixes `T`, and every
//! millisecond it waits there is input delay. So the peer runs its input ticks ahead of the
//! host by the round trip and a small margin. It starts there, from the round trip its
//! welcome took; from then on the host says of every tick how long before it was fixed the
//! peer's input arrived, and [`InputTicks`] sums those up: the margin they arrive with (the
//! median of the last few seconds) and the margin they should arrive with
//! ([`margin_target_micros`](InputTicks::margin_target_micros): a floor, the spread of the
//! arrivals, and two of the peer's input repeats more for a while after an input came late,
//! so that one lost to the link still arrives in time with a repeat). The network clock's nudge (a few per
//! cent faster or slower, invisible) holds the one at the other.
//!
//! Only when the path changes by more than a nudge can follow (a late input five ticks
//! running, a margin far too long for a second) does [`InputTicks`] step: forward past the
//! ticks it is late for, or holding back input ticks until the host catches up.

use std::collections::VecDeque;

use crate::tick::{TICK_MICROS, Tick};

/// Late inputs in a row that make the peer step its input ticks forward: five (half a
/// second). One late input is jitter the margin absorbs next time; five are a path that got
/// slower than the nudge can make up.
const LATE_RUN_TO_STEP: u32 = 5;

/// Ticks the input ticks step forward after [`LATE_RUN_TO_STEP`] late inputs: two, so the
/// inputs are early again at once and the nudge takes the excess back.
const LATE_STEP_TICKS: u32 = 2;

/// A margin this many ticks over its target is too long: three (300 ms of input delay more
/// than needed, which the nudge would take ten seconds to take back).
const EXCESS_QUEUE_TICKS: u32 = 3;

/// Reports of a margin too long in a row that make the peer hold back: ten (a second).
const EXCESS_RUN_TO_HOLD: u32 = 10;

/// The least margin an input should reach the host with, microseconds: 20 ms, for the
/// host's and the peer's loops (each looks at its socket every few milliseconds) and a
/// scheduling hiccup of either.
pub const MARGIN_FLOOR_MICROS: u32 = 20_000;

/// The margin added for a while after an input came late, microseconds: the delay of the
/// peer's repeat ([`INPUT_REPEAT_MICROS`](crate::net::INPUT_REPEAT_MICROS), 50 ms), which it
/// sends while [`InputTicks::lossy`], so that an input lost to the link still arrives in time
/// with its repeat.
#[expect(clippy::cast_possible_truncation, reason = "50 ms in microseconds, far inside a u32")]
pub const LOSS_MARGIN_MICROS: u32 = crate::net::INPUT_REPEAT_MICROS as u32;

/// How long a late input keeps the margin's target [`LOSS_MARGIN_MICROS`] longer, ticks:
/// 30 s. A lossy link loses an input every few seconds and keeps it longer for good; a link
/// that lost one in a passing burst goes back to the short margin half a minute later, at the
/// cost of one late input each time it finds the link still lossy.
const LATE_MEMORY_TICKS: u32 = 300;

/// Inputs that must have arrived in time since the input ticks started (or last stepped)
/// before a late one counts as the link losing inputs: 10, a second of them. Until then a
/// late input says that the lead the welcome's round trip gave was short, which the step and
/// the nudge mend; taken for loss, it would make the peer repeat every input, twice the
/// datagrams, for [`LATE_MEMORY_TICKS`].
const SETTLED_INPUTS: u32 = 10;

/// The inputs in time the margin and its spread are taken over: 50, five seconds of ticks.
const MARGIN_WINDOW: usize = 50;

/// The share of the window's arrivals below the spread's lower end and above its upper end,
/// in reports: five of fifty (the 10th and 90th percentiles), so one freak arrival does not
/// widen the target.
const SPREAD_TAIL: usize = MARGIN_WINDOW / 10;

/// The numbering of a peer's input ticks; see the documentation of its module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputTicks {
    next: Tick,
    /// The first tick this peer sent an input for: the host reports the ticks before it late,
    /// and they say nothing about the link.
    first: Tick,
    /// The latest tick the host fixed with this peer's input late (from `first` on).
    last_late: Option<Tick>,
    /// The latest tick the host fixed.
    acknowledged: Tick,
    /// The margins of the latest inputs that arrived in time, oldest first.
    margins: VecDeque<u32>,
    /// The same, sorted, for the median and the spread.
    sorted: Vec<u32>,
    late_run: u32,
    excess_run: u32,
    /// Inputs in time since the input ticks started or last stepped.
    in_time: u32,
    /// Input ticks to let pass without an input, so the host's queue shortens.
    holding: u32,
    steps: u32,
}

impl InputTicks {
    /// Input ticks for a peer welcomed at host tick `welcome_tick` after a round trip of
    /// `round_trip_micros`: the first is the round trip and the floor of the margin ahead,
    /// in whole ticks rounded up.
    #[must_use]
    pub fn new(welcome_tick: Tick, round_trip_micros: u64) -> Self {
        let ahead = round_trip_micros.saturating_add(u64::from(MARGIN_FLOOR_MICROS));
        let lead = u32::try_from(ahead.div_ceil(TICK_MICROS))
            .unwrap_or(u32::MAX)
            .min(crate::net::MAX_INPUT_LEAD_TICKS / 2);
        let first = Tick(welcome_tick.0 + lead);
        Self {
            next: first,
            first,
            last_late: None,
            acknowledged: welcome_tick,
            margins: VecDeque::with_capacity(MARGIN_WINDOW),
            sorted: Vec::with_capacity(MARGIN_WINDOW),
            late_run: 0,
            excess_run: 0,
            in_time: 0,
            holding: 0,
            steps: 0,
        }
    }

    /// The tick the next input is for.
    #[must_use]
    pub const fn next(&self) -> Tick {
        self.next
    }

    /// The first tick this peer sent an input for: the host fixes the ticks before it
    /// without one, and they are no late inputs.
    #[must_use]
    pub const fn first(&self) -> Tick {
        self.first
    }

    /// How often the input ticks stepped or held back.
    #[must_use]
    pub const fn steps(&self) -> u32 {
        self.steps
    }

    /// The margin this peer's inputs reach the host with: the median of the latest
    /// `MARGIN_WINDOW` that arrived in time, microseconds; `None` before the first. (Late
    /// ones lengthen the target instead: counted as no margin, a lossy link's few late inputs
    /// would pass for jitter a tick wide, and lengthen it twice.)
    #[must_use]
    pub fn margin_micros(&self) -> Option<u32> {
        self.sorted.get(self.sorted.len() / 2).copied()
    }

    /// The margin they should reach it with: [`MARGIN_FLOOR_MICROS`], the spread of the
    /// latest arrivals (their 10th to 90th percentile, so that nearly every one is in time
    /// when the median is on target), and [`LOSS_MARGIN_MICROS`] within
    /// `LATE_MEMORY_TICKS` of a late input.
    #[must_use]
    pub fn margin_target_micros(&self) -> u32 {
        let spread = match (self.sorted.first(), self.sorted.last()) {
            (Some(_), Some(_)) if self.sorted.len() > 2 * SPREAD_TAIL => {
                self.sorted[self.sorted.len() - 1 - SPREAD_TAIL] - self.sorted[SPREAD_TAIL]
            }
            _ => 0,
        };
        let loss = if self.lossy() { LOSS_MARGIN_MICROS } else { 0 };
        MARGIN_FLOOR_MICROS.saturating_add(spread).saturating_add(loss)
    }

    /// Whether an input came late within `LATE_MEMORY_TICKS`: the link loses inputs, so
    /// each is repeated ([`INPUT_REPEAT_MICROS`](crate::net::INPUT_REPEAT_MICROS)) and arrives
    /// [`LOSS_MARGIN_MICROS`] earlier.
    #[must_use]
    pub fn lossy(&self) -> bool {
        self.last_late
            .is_some_and(|late| self.acknowledged.since(late) < i64::from(LATE_MEMORY_TICKS))
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

    /// The host fixed `tick` with this peer's input for it `early_micros` before (`None`:
    /// late, its held input stood in). A tick before the first input is no news of the link.
    pub fn acknowledged(&mut self, tick: Tick, early_micros: Option<u32>) {
        if tick < self.first {
            return;
        }
        self.acknowledged = self.acknowledged.max(tick);
        let late = early_micros.is_none();
        if late && self.in_time >= SETTLED_INPUTS {
            self.last_late = Some(tick);
        }
        if !late {
            self.in_time = self.in_time.saturating_add(1);
        }
        if let Some(early) = early_micros {
            self.remember(early);
        }
        self.late_run = if late { self.late_run + 1 } else { 0 };
        if self.late_run >= LATE_RUN_TO_STEP {
            self.next = Tick(self.next.0 + LATE_STEP_TICKS);
            self.late_run = 0;
            self.in_time = 0;
            self.holding = 0;
            self.steps += 1;
            // The margins before the step say nothing of the margins after it.
            self.margins.clear();
            self.sorted.clear();
        }
        let over = early_micros.unwrap_or(0).saturating_sub(self.margin_target_micros());
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a tick is 100,000 microseconds, far inside a u32"
        )]
        let excess = over / TICK_MICROS as u32;
        self.excess_run = if excess >= EXCESS_QUEUE_TICKS { self.excess_run + 1 } else { 0 };
        if self.excess_run >= EXCESS_RUN_TO_HOLD && self.holding == 0 {
            self.holding = excess;
            self.excess_run = 0;
            self.steps += 1;
            self.margins.clear();
            self.sorted.clear();
        }
    }

    fn remember(&mut self, margin: u32) {
        if self.margins.len() == MARGIN_WINDOW
            && let Some(oldest) = self.margins.pop_front()
            && let Ok(at) = self.sorted.binary_search(&oldest)
        {
            self.sorted.remove(at);
        }
        self.margins.push_back(margin);
        let at = self.sorted.partition_point(|&m| m < margin);
        self.sorted.insert(at, margin);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first inputs of a peer whose lead was short come late: that is the lead's
    /// calibration, not a lossy link, and no input is repeated for it. Once its inputs have
    /// come in time, a late one is the link's.
    #[test]
    fn late_inputs_count_as_loss_only_once_the_lead_has_settled() {
        let mut inputs = InputTicks::new(Tick(10), 30_000);
        let first = inputs.take().expect("an input tick");
        for late in 0..3 {
            inputs.acknowledged(Tick(first.0 + late), None);
        }
        assert!(!inputs.lossy(), "the first inputs' lateness is no loss");
        for in_time in 3..3 + SETTLED_INPUTS {
            inputs.acknowledged(Tick(first.0 + in_time), Some(25_000));
        }
        inputs.acknowledged(Tick(first.0 + 3 + SETTLED_INPUTS), None);
        assert!(inputs.lossy(), "settled, a late input is the link's");
    }
}
