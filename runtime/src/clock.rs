//! The network clock: where the host's clock is, as far as this peer can tell, which tick the
//! remote entities are drawn at, and how fast this peer should send its inputs.
//!
//! # The estimate
//!
//! The clock keeps its own time, advanced by every frame's real elapsed time
//! ([`NetworkClock::advance`]), never by the count of simulated ticks. Every snapshot or tick
//! message that arrives is an **observation** ([`NetworkClock::observe`]) of the host's offset
//! from that time: `host tick − local ticks`. A message can arrive late (the network, the
//! host's timer, a stall, the frame it waits for) but never early, so the **largest** offset of
//! the recent past is the nearest to the truth: the **top** is the largest observation of the
//! last [`CLOCK_WINDOW_TICKS`]. A late message gives a smaller offset and cannot raise it; a
//! stall gives none and changes nothing; the burst of messages a stall held back, arriving at
//! once, raises nothing.
//!
//! The estimate does not chase the top: it lives in a **band** [`CLOCK_SLACK`] wide under it,
//! and starts at the band's floor. Above the top (every recent arrival says the path got
//! slower, so the render tick would outrun the snapshots) it comes down to the top at
//! [`RENDER_DRIFT`]; below the band it rises to the floor at [`CLOCK_SLEW`], slowly, there
//! being no hurry (at [`RENDER_DRIFT`] when it is more than [`CLOCK_CATCH_UP_TICKS`] below, so
//! a host clock that runs fast cannot leave it behind); inside the band it holds. The earliest
//! arrival of a window is rare: the top rises when one comes and falls back by the jitter when
//! it ages out, and an estimate that followed it would change the pace of everything on screen
//! every few seconds. The band keeps it still.
//!
//! A **discontinuity** (the estimate more than [`RENDER_SNAP_TICKS`] outside the band: a host
//! restarted, its tick jumped, the path's delay changed by seconds) is taken at once only once
//! it has persisted for a whole window, never on one observation. In the clock's first window,
//! with no history to be fooled by, it is taken at once (the messages held while a level
//! loaded arrive in one burst, seconds behind the live ones), and the rest is slewed at
//! [`RENDER_DRIFT`] either way.
//!
//! The **render tick** is the estimated host tick less [`INTERP_DELAY_TICKS`] and nothing
//! else: it keeps its pace through a silence, and remote entities are drawn at it alone,
//! without the frame's alpha, since real time is already in it. Advance the clock by a frame's
//! time *before* handing it that frame's messages, so each observation is taken at the time it
//! arrived.
//!
//! # The tick-rate nudge
//!
//! In lockstep play the host also tells each peer how long before each tick its input for
//! it arrived ([`NetworkClock::report_margin`]): how long the host's queue of its inputs is, in
//! time. The peer runs its own input ticks a little faster or slower
//! ([`NetworkClock::nudged_micros`], at most [`MAX_TICK_NUDGE_PPM`]) so that margin stays
//! short (every millisecond of it is input delay) but never runs out. The nudge bends only the peer's input ticks,
//! which a [`FrameScheduler`](crate::tick::FrameScheduler) still caps and drops as in local
//! play; the estimate above never bends with it.
//!
//! Everything here is integer and fixed-point arithmetic on times the caller passes in: the
//! clock never reads a clock, so it runs the same in a test, a trace replay and a game.
//!
//! ```
//! use fixstep_runtime::Tick;
//! use fixstep_runtime::clock::NetworkClock;
//! use fixstep_runtime::math::{fx, fx_ratio};
//!
//! let mut clock = NetworkClock::new();
//! // Our clock has run 5.04 s when the snapshot of host tick 50 arrives.
//! clock.advance(5_040_000);
//! clock.observe(Tick(50));
//! // An arrival is never early, so the host is at least at tick 50 now; the estimate starts a
//! // slack under that, and the remotes are drawn two ticks behind it: at tick 47.9.
//! let render = clock.render_tick().expect("one observation is enough to start");
//! assert_eq!(render, fx(48) - fx_ratio(1, 10));
//! // A quarter of a second later, with nothing new arrived, the render tick has moved on by
//! // 2.5 ticks: it keeps its pace through a silence.
//! clock.advance(250_000);
//! assert_eq!(clock.render_tick(), Some(render + fx_ratio(5, 2)));
//! ```

use std::collections::VecDeque;

use crate::math::{FX_FRAC_BITS, Fx, fx, fx_ratio};
use crate::tick::{TICK_MICROS, Tick};

/// How far behind the estimated host tick remote entities are drawn, in ticks: two. One tick
/// would leave no snapshot beyond the render tick whenever a message comes a little late; two
/// keep a pair of snapshots on either side of it through the jitter of an ordinary link, at
/// the cost of 200 ms of delay.
pub const INTERP_DELAY_TICKS: u32 = 2;

/// How long the clock remembers observations, in ticks of its own time: 40 ticks (4 s, about
/// forty snapshots). Long enough that the window nearly always holds an arrival that came with
/// the path's least delay, whose offset is the truth; short enough that a path that got slower
/// is believed within seconds.
pub const CLOCK_WINDOW_TICKS: u32 = 40;

/// Width of the band under the top in which the estimate holds still, in ticks: a tenth of a
/// tick (10 ms). The top moves by the jitter of the rare earliest arrival; the band absorbs
/// those moves so the pace of everything drawn stays constant, and costs its width in delay.
pub const CLOCK_SLACK: Fx = fx_ratio(1, 10);

/// How fast the estimate rises to the band's floor, in ticks per tick: 0.5 %. A rise means the
/// remotes could be drawn with less delay; there is no hurry, and a pace change of half a per
/// cent is invisible (the eye notices about 5 %).
pub const CLOCK_SLEW: Fx = fx_ratio(5, 1000);

/// How fast the estimate comes down to the top (and rises from more than
/// [`CLOCK_CATCH_UP_TICKS`] below the band, and slews in the first window), in ticks per tick:
/// 3 %. Above the top the render tick runs ahead of the snapshots, which is urgent; 3 % is
/// fast (it absorbs a tick of error in 3.3 s) and leaves two points under the 5 % an eye
/// notices for what the remote buffers add on top (4 % left so little that a live spectator
/// drew its taxis off pace in every slew). The remote buffers slew their tier delays at the same rate.
pub const RENDER_DRIFT: Fx = fx_ratio(3, 100);

/// How far below the band's floor the estimate may be before it rises at [`RENDER_DRIFT`]
/// instead of [`CLOCK_SLEW`], in ticks: one tick. Within a tick the extra delay is harmless;
/// beyond it, a host clock that runs more than [`CLOCK_SLEW`] fast would leave the estimate
/// further behind without end.
pub const CLOCK_CATCH_UP_TICKS: Fx = fx(1);

/// How far outside the band the estimate must be for a discontinuity, in ticks: five ticks
/// (500 ms). Jitter and ordinary stalls stay well inside it; beyond it, slewing at
/// [`RENDER_DRIFT`] would take over ten seconds, so the clock steps once the difference has
/// persisted for a whole window.
pub const RENDER_SNAP_TICKS: Fx = fx(5);

/// The most the tick-rate nudge speeds up or slows down this peer's input ticks, in parts
/// per million: 3 %. Enough to absorb a host clock a few per cent off and to close 100 ms of
/// margin in a few seconds, small enough that the own character's pace does not visibly
/// change.
pub const MAX_TICK_NUDGE_PPM: i32 = 30_000;

/// The nudge per millisecond between the margin this peer's inputs arrive with and its
/// target, in parts per million: 300, so 100 ms of difference asks for the most, 3 %, and 10
/// ms for 0.3 %, which closes it in a few seconds without a visible change of pace.
pub const NUDGE_PPM_PER_MS: i64 = 300;

/// How fast the nudge learns a lasting difference of pace (a host clock a little fast or
/// slow, which a nudge in proportion to the difference alone would answer with a margin
/// standing off its target), in parts per million per millisecond of difference per report:
/// one. A host 1 % slow holds the margin 33 ms long at first and is learned in half a
/// minute; slow enough that the jitter of single reports never rocks it.
pub const NUDGE_LEARN_PPM_PER_MS: i64 = 1;

/// Observations the window is made to hold without growing: a window of one snapshot a tick
/// holds [`CLOCK_WINDOW_TICKS`]; the rest is room for bursts, so a steady game never allocates.
const WINDOW_CAPACITY: usize = 4 * CLOCK_WINDOW_TICKS as usize;

/// Parts per million in one.
const PPM: i64 = 1_000_000;

/// One observation: the host's offset from our time, and when it arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Observation {
    /// Our time when it arrived, microseconds.
    at_micros: u64,
    /// Host tick minus our time in ticks.
    offset: Fx,
}

/// Where the estimate stands against the observations, for discontinuities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// The observation is more than the slack and [`RENDER_SNAP_TICKS`] above the estimate:
    /// the host is ahead of what the clock believes.
    Ahead,
    /// The observation is more than [`RENDER_SNAP_TICKS`] below the estimate: the host is
    /// behind (or the path got slower by that much).
    Behind,
}

/// A run of observations all on one side of the estimate by more than a snap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutsideRun {
    side: Side,
    /// Our time of the run's first observation, microseconds.
    since_micros: u64,
}

/// The peer's estimate of the host's clock; see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct NetworkClock {
    /// Our own time since the clock was made, microseconds.
    local_micros: u64,
    /// The observations that may still become the top: within the window, in arrival order,
    /// with strictly decreasing offsets (a later, larger one makes older, smaller ones moot).
    window: VecDeque<Observation>,
    /// The estimated host tick minus our time in ticks, once anything was observed.
    estimate: Option<Fx>,
    /// Our time of the first observation, microseconds: the first window runs from it.
    first_micros: Option<u64>,
    /// A run of observations far outside the band, if one is going on.
    outside: Option<OutsideRun>,
    /// The tick-rate nudge, parts per million (positive: run faster).
    nudge_ppm: i32,
    /// The part of the nudge learned from a lasting difference of pace, parts per million.
    nudge_learned_ppm: i64,
    /// Discontinuities taken since the clock was made.
    snaps: u32,
    /// The newest host tick observed.
    newest: Option<Tick>,
    /// The render tick held through a change of host, until the new host's ticks reach it.
    held: Option<Fx>,
}

impl Default for NetworkClock {
    fn default() -> Self {
        Self::new()
    }
}

impl NetworkClock {
    /// A clock at time zero that has observed nothing.
    #[must_use]
    pub fn new() -> Self {
        Self {
            local_micros: 0,
            window: VecDeque::with_capacity(WINDOW_CAPACITY),
            estimate: None,
            first_micros: None,
            outside: None,
            nudge_ppm: 0,
            nudge_learned_ppm: 0,
            snaps: 0,
            newest: None,
            held: None,
        }
    }

    /// Our own time since the clock was made, microseconds.
    #[must_use]
    pub const fn local_micros(&self) -> u64 {
        self.local_micros
    }

    /// Advances our time by a frame's real `elapsed_micros` and moves the estimate toward the
    /// band at the rates of the [module documentation](self). Call it before handing the clock
    /// the frame's messages.
    pub fn advance(&mut self, elapsed_micros: u64) {
        self.local_micros = self.local_micros.saturating_add(elapsed_micros);
        let (Some(estimate), Some(top)) = (self.estimate, self.top()) else { return };
        let dt = ticks_of_micros(elapsed_micros);
        let floor = top.saturating_sub(CLOCK_SLACK);
        let first_window = self.in_first_window();
        let next = if estimate < floor {
            let fast = first_window || floor.saturating_sub(estimate) > CLOCK_CATCH_UP_TICKS;
            let rate = if fast { RENDER_DRIFT } else { CLOCK_SLEW };
            estimate.saturating_add(rate.saturating_mul(dt)).min(floor)
        } else if estimate > top {
            estimate.saturating_sub(RENDER_DRIFT.saturating_mul(dt)).max(top)
        } else {
            estimate
        };
        self.estimate = Some(next);
        self.check_band();
        self.release_hold();
    }

    /// A message measured by the host at `host_tick` arrived now.
    pub fn observe(&mut self, host_tick: Tick) {
        self.take_observation(host_tick);
        self.release_hold();
    }

    fn take_observation(&mut self, host_tick: Tick) {
        self.newest = Some(self.newest.map_or(host_tick, |n| n.max(host_tick)));
        let now = self.local_micros;
        let offset = ticks_of_tick(host_tick).saturating_sub(self.local_ticks());
        let window_micros = u64::from(CLOCK_WINDOW_TICKS) * TICK_MICROS;
        while self.window.front().is_some_and(|o| now - o.at_micros > window_micros) {
            self.window.pop_front();
        }
        while self.window.back().is_some_and(|o| o.offset <= offset) {
            self.window.pop_back();
        }
        self.window.push_back(Observation { at_micros: now, offset });

        let Some(estimate) = self.estimate else {
            self.estimate = Some(offset.saturating_sub(CLOCK_SLACK));
            self.first_micros = Some(now);
            return;
        };
        let side =
            if offset > estimate.saturating_add(CLOCK_SLACK).saturating_add(RENDER_SNAP_TICKS) {
                Some(Side::Ahead)
            } else if offset < estimate.saturating_sub(RENDER_SNAP_TICKS) {
                Some(Side::Behind)
            } else {
                None
            };
        self.outside = match (side, self.outside) {
            (None, _) => None,
            (Some(side), Some(run)) if run.side == side => Some(run),
            (Some(side), _) => Some(OutsideRun { side, since_micros: now }),
        };
        if let Some(run) = self.outside
            && now - run.since_micros >= window_micros
        {
            // Every observation for a whole window says the host is elsewhere: believe them,
            // and only them.
            self.window.retain(|o| o.at_micros >= run.since_micros);
            self.take_discontinuity();
            return;
        }
        self.check_band();
    }

    /// Takes a discontinuity at once in the first window, where there is no history to be
    /// fooled by.
    fn check_band(&mut self) {
        let (Some(estimate), Some(top)) = (self.estimate, self.top()) else { return };
        let floor = top.saturating_sub(CLOCK_SLACK);
        let outside = estimate < floor.saturating_sub(RENDER_SNAP_TICKS)
            || estimate > top.saturating_add(RENDER_SNAP_TICKS);
        if outside && self.in_first_window() {
            self.take_discontinuity();
        }
    }

    /// Steps the estimate to the band's floor.
    fn take_discontinuity(&mut self) {
        if let Some(top) = self.top() {
            self.estimate = Some(top.saturating_sub(CLOCK_SLACK));
            self.outside = None;
            self.snaps = self.snaps.saturating_add(1);
        }
    }

    fn in_first_window(&self) -> bool {
        let window_micros = u64::from(CLOCK_WINDOW_TICKS) * TICK_MICROS;
        self.first_micros.is_some_and(|first| self.local_micros - first < window_micros)
    }

    /// Our time in ticks.
    fn local_ticks(&self) -> Fx {
        ticks_of_micros(self.local_micros)
    }

    /// The largest offset (host tick − our ticks) observed in the window; `None` before the
    /// first observation.
    #[must_use]
    pub fn top(&self) -> Option<Fx> {
        self.window.front().map(|o| o.offset)
    }

    /// The estimated host tick minus our time in ticks; `None` before the first observation.
    #[must_use]
    pub const fn estimate_offset(&self) -> Option<Fx> {
        self.estimate
    }

    /// The host tick the clock estimates it is now, fractional; `None` before the first
    /// observation.
    #[must_use]
    pub fn host_tick(&self) -> Option<Fx> {
        self.estimate.map(|e| self.local_ticks().saturating_add(e))
    }

    /// The tick remote entities are drawn at now: the estimated host tick less
    /// [`INTERP_DELAY_TICKS`] (or the tick held through a change of host, until that is
    /// reached). `None` before the first observation.
    #[must_use]
    pub fn render_tick(&self) -> Option<Fx> {
        let estimated = self.estimated_render_tick();
        match (self.held, estimated) {
            (Some(held), Some(tick)) if tick >= held => Some(tick),
            (Some(held), _) => Some(held),
            (None, tick) => tick,
        }
    }

    fn estimated_render_tick(&self) -> Option<Fx> {
        self.host_tick().map(|t| t.saturating_sub(fx(INTERP_DELAY_TICKS as i32)))
    }

    /// The host went silent and another took the match over, its ticks going on from where
    /// the old one's stopped, but later in time by the silence: the render tick holds where
    /// what is drawn stopped (now, or at `stopped_at` if that is sooner: the newest tick
    /// observed unless told, a drawing that carries on past its newest news saying how far)
    /// and goes on from there at its pace once the new host's ticks reach it; the clock learns
    /// the new host as it learned the first, from its first observation. Without the hold,
    /// the render tick would have run on through the silence, and the new host's ticks would
    /// come seconds behind it: drawn as they came, held, then snapped to.
    pub fn host_changed(&mut self, stopped_at: Option<Fx>) {
        let now = self.render_tick();
        let stopped = stopped_at.or_else(|| self.newest.map(ticks_of_tick));
        self.held = match (now, stopped) {
            (Some(now), Some(stopped)) => Some(now.min(stopped)),
            (now, stopped) => now.or(stopped),
        };
        self.window.clear();
        self.estimate = None;
        self.first_micros = None;
        self.outside = None;
    }

    /// Whether the render tick holds through a change of host (see
    /// [`host_changed`](Self::host_changed)).
    #[must_use]
    pub const fn holding(&self) -> bool {
        self.held.is_some()
    }

    /// The newest host tick observed, if any.
    #[must_use]
    pub const fn newest_observed(&self) -> Option<Tick> {
        self.newest
    }

    /// Lets go of a held render tick once the estimate has reached it. An estimate that came
    /// past it at once (the new host's first observations) is lowered to it, so the render
    /// tick goes on from where it held at its pace, and rises to the band at the clock's
    /// usual rates: never a jump.
    fn release_hold(&mut self) {
        if let (Some(held), Some(tick)) = (self.held, self.estimated_render_tick())
            && tick >= held
        {
            let over = tick.saturating_sub(held);
            self.estimate = self.estimate.map(|e| e.saturating_sub(over));
            self.held = None;
        }
    }

    /// Discontinuities the clock has stepped over since it was made.
    #[must_use]
    pub const fn snaps(&self) -> u32 {
        self.snaps
    }

    /// This peer's inputs arrive at the host `margin_micros` before their ticks are fixed
    /// (as [`InputTicks`](crate::net::InputTicks) sums up the host's reports), where
    /// `target_micros` would do: sets the nudge, [`NUDGE_PPM_PER_MS`] for each millisecond
    /// short of the target (faster) or beyond it (slower), plus what it has learned of a
    /// lasting difference ([`NUDGE_LEARN_PPM_PER_MS`]), at most [`MAX_TICK_NUDGE_PPM`] either
    /// way.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the nudge is clamped to ±MAX_TICK_NUDGE_PPM, which fits an i32"
    )]
    pub fn report_margin(&mut self, margin_micros: i64, target_micros: i64) {
        let difference = target_micros.saturating_sub(margin_micros);
        let limit = i64::from(MAX_TICK_NUDGE_PPM);
        self.nudge_learned_ppm = self
            .nudge_learned_ppm
            .saturating_add(difference.saturating_mul(NUDGE_LEARN_PPM_PER_MS) / 1_000)
            .clamp(-limit, limit);
        let ppm = (difference.saturating_mul(NUDGE_PPM_PER_MS) / 1_000)
            .saturating_add(self.nudge_learned_ppm);
        self.nudge_ppm = ppm.clamp(-limit, limit) as i32;
    }

    /// The tick-rate nudge, parts per million: positive runs this peer's input ticks faster.
    #[must_use]
    pub const fn nudge_ppm(&self) -> i32 {
        self.nudge_ppm
    }

    /// A frame's `elapsed_micros` as this peer's input ticks should see it: scaled by the
    /// nudge. Feed it to the [`FrameScheduler`](crate::tick::FrameScheduler) that decides when
    /// the next input tick is due; the clock itself is advanced by the real time.
    #[must_use]
    pub fn nudged_micros(&self, elapsed_micros: u64) -> u64 {
        let scaled = i128::from(elapsed_micros) * i128::from(PPM + i64::from(self.nudge_ppm))
            / i128::from(PPM);
        u64::try_from(scaled).unwrap_or(u64::MAX)
    }
}

/// `micros` microseconds in ticks, exactly to 2^-32 of a tick (saturated past 2^31 ticks, 6.8
/// years).
#[must_use]
pub fn ticks_of_micros(micros: u64) -> Fx {
    let bits = (i128::from(micros) << FX_FRAC_BITS) / i128::from(TICK_MICROS);
    Fx::from_bits(i64::try_from(bits).unwrap_or(i64::MAX))
}

/// A tick number as fixed-point ticks (saturated past 2^31 ticks, 6.8 years of play).
#[must_use]
pub fn ticks_of_tick(tick: Tick) -> Fx {
    i32::try_from(tick.0).map_or(Fx::MAX, |whole| Fx::from_bits(i64::from(whole) << FX_FRAC_BITS))
}
