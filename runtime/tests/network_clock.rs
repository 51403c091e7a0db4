//! The network clock, one test per behaviour of the network-clock specification: the window's
//! top, the band, the rates, discontinuities, stalls and bursts, the render tick and the
//! tick-rate nudge. Times are integer microseconds of the peer's own clock; ticks are
//! fixed-point.

use fixstep_runtime::Tick;
use fixstep_runtime::clock::{
    CLOCK_CATCH_UP_TICKS, CLOCK_SLACK, CLOCK_SLEW, CLOCK_WINDOW_TICKS, INTERP_DELAY_TICKS,
    MAX_TICK_NUDGE_PPM, NetworkClock, RENDER_DRIFT, RENDER_SNAP_TICKS, ticks_of_micros,
};
use fixstep_runtime::math::{Fx, fx, fx_ratio};
use fixstep_runtime::net::{InputTicks, LOSS_MARGIN_MICROS, MARGIN_FLOOR_MICROS};
use fixstep_runtime::tick::{FrameScheduler, TICK_MICROS};

/// One frame at 60 Hz, microseconds.
const FRAME_MICROS: u64 = 16_667;

/// The path's least delay in these tests, microseconds: 40 ms one way.
const LATENCY_MICROS: u64 = 40_000;

/// A host whose tick `k` happens at our time `start + k × 100 ms ÷ rate`, and a link that
/// delivers each tick's message after `LATENCY_MICROS` plus a per-tick extra delay.
struct Link {
    clock: NetworkClock,
    /// The next host tick to be sent.
    next_tick: u32,
    /// Our time at which the host measured tick 0 (negative: before the clock started).
    start_micros: i64,
    /// The host's clock rate against ours, parts per million (1,000,000: the same).
    rate_ppm: i64,
}

impl Link {
    fn new() -> Self {
        Self { clock: NetworkClock::new(), next_tick: 0, start_micros: 0, rate_ppm: 1_000_000 }
    }

    /// Our time at which the host measures `tick`.
    fn measured_micros(&self, tick: u32) -> i64 {
        self.start_micros + i64::from(tick) * TICK_MICROS as i64 * 1_000_000 / self.rate_ppm
    }

    /// Runs until our time reaches `until_micros`: a frame every 60th of a second, and each
    /// host tick's message at the moment it arrives (after `LATENCY_MICROS` and the extra
    /// delay `late` gives it, microseconds), the clock advanced to that moment first.
    fn run(&mut self, until_micros: u64, late: impl Fn(u32) -> u64) {
        loop {
            let now = self.clock.local_micros();
            let next_frame = (now / FRAME_MICROS + 1) * FRAME_MICROS;
            let tick = self.next_tick;
            let arrives = self.measured_micros(tick) + (LATENCY_MICROS + late(tick)) as i64;
            let arrives = u64::try_from(arrives).unwrap_or(0).max(now);
            let next = next_frame.min(arrives);
            if next > until_micros {
                return;
            }
            self.clock.advance(next - now);
            if next == arrives {
                self.clock.observe(Tick(tick));
                self.next_tick += 1;
            }
        }
    }

    /// The host's tick that the arrivals imply now: its true tick less the path's least
    /// delay, which no peer can tell from its clock.
    fn implied_host_tick(&self) -> Fx {
        let now = self.clock.local_micros() as i64 - LATENCY_MICROS as i64 - self.start_micros;
        ticks_of_micros(u64::try_from(now * self.rate_ppm / 1_000_000).unwrap_or(0))
    }
}

/// Ticks equal within a millionth of a tick: the rounding of fixed-point tick arithmetic.
fn close(a: Fx, b: Fx) -> bool {
    abs(a - b) < fx_ratio(1, 1_000_000)
}

fn micros_of_ticks(ticks: u32) -> u64 {
    u64::from(ticks) * TICK_MICROS
}

fn abs(x: Fx) -> Fx {
    if x < Fx::ZERO { -x } else { x }
}

#[test]
fn nothing_is_estimated_before_the_first_observation() {
    let mut clock = NetworkClock::new();
    clock.advance(500_000);
    assert_eq!(clock.render_tick(), None);
    assert_eq!(clock.host_tick(), None);
    assert_eq!(clock.top(), None);
}

#[test]
fn the_estimate_starts_at_the_band_floor() {
    let mut clock = NetworkClock::new();
    clock.advance(1_000_000);
    clock.observe(Tick(30));
    // Offset: host tick 30 at our 10 ticks; the band's floor is a slack under it.
    assert_eq!(clock.top(), Some(fx(20)));
    assert_eq!(clock.estimate_offset(), Some(fx(20) - CLOCK_SLACK));
}

#[test]
fn the_render_tick_is_the_estimate_less_the_interpolation_delay() {
    let mut link = Link::new();
    link.run(micros_of_ticks(100), |_| 0);
    let host = link.clock.host_tick().expect("observed");
    assert_eq!(link.clock.render_tick(), Some(host - fx(INTERP_DELAY_TICKS as i32)));
    // On a steady link the estimate sits a slack under what the arrivals imply (the host's
    // tick less the path's delay).
    assert!(close(host, link.implied_host_tick() - CLOCK_SLACK));
}

#[test]
fn an_observation_is_taken_at_the_time_it_arrived() {
    // The same message handed over before or after advancing by a frame differs by the
    // frame's time: the caller advances first, so the offset is the arrival's.
    let mut early = NetworkClock::new();
    early.advance(FRAME_MICROS);
    early.observe(Tick(5));
    let mut stale = NetworkClock::new();
    stale.observe(Tick(5));
    stale.advance(FRAME_MICROS);
    assert_eq!(early.top(), Some(fx(5) - ticks_of_micros(FRAME_MICROS)));
    assert_eq!(stale.top(), Some(fx(5)));
}

#[test]
fn the_top_is_the_largest_offset_of_the_window() {
    let mut clock = NetworkClock::new();
    for (at, tick, _) in [(100_000, 0, ()), (250_000, 1, ()), (300_000, 2, ())] {
        clock.advance(at - clock.local_micros());
        clock.observe(Tick(tick));
    }
    // Offsets: 0 − 1 = −1, 1 − 2.5 = −1.5, 2 − 3 = −1: the largest is −1.
    assert_eq!(clock.top(), Some(fx(-1)));
}

#[test]
fn an_observation_ages_out_after_the_window() {
    let mut clock = NetworkClock::new();
    clock.observe(Tick(10)); // offset 10, the earliest arrival there will be
    clock.advance(micros_of_ticks(1));
    clock.observe(Tick(10)); // offset 9: late by a tick
    assert_eq!(clock.top(), Some(fx(10)));
    // Exactly a window after the early one it still counts; a microsecond later it is gone
    // and the late one is the top.
    clock.advance(micros_of_ticks(CLOCK_WINDOW_TICKS - 1));
    clock.observe(Tick(0));
    assert_eq!(clock.top(), Some(fx(10)), "exactly a window old still counts");
    clock.advance(1);
    clock.observe(Tick(0));
    assert_eq!(clock.top(), Some(fx(9)));
}

#[test]
fn a_late_snapshot_cannot_raise_the_top() {
    let mut link = Link::new();
    link.run(micros_of_ticks(60), |_| 0);
    let top = link.clock.top();
    let estimate = link.clock.estimate_offset();
    // Every message for the next window is 30 ms late.
    link.run(micros_of_ticks(60 + CLOCK_WINDOW_TICKS / 2), |_| 30_000);
    assert_eq!(link.clock.top(), top);
    assert_eq!(link.clock.estimate_offset(), estimate);
}

#[test]
fn a_stall_changes_nothing() {
    let mut link = Link::new();
    link.run(micros_of_ticks(80), |_| 0);
    let estimate = link.clock.estimate_offset();
    let top = link.clock.top();
    let render_before = link.clock.render_tick().expect("observed");
    // Three seconds without a message: the estimate holds and the render tick keeps its pace.
    let stall_frames = 180;
    for _ in 0..stall_frames {
        link.clock.advance(FRAME_MICROS);
    }
    assert_eq!(link.clock.estimate_offset(), estimate);
    assert_eq!(link.clock.top(), top);
    let moved = link.clock.render_tick().expect("observed") - render_before;
    assert!(close(moved, ticks_of_micros(stall_frames * FRAME_MICROS)));
}

#[test]
fn a_burst_of_late_snapshots_raises_nothing() {
    let mut link = Link::new();
    link.run(micros_of_ticks(80), |_| 0);
    let estimate = link.clock.estimate_offset();
    let top = link.clock.top();
    // A 300 ms stall of the link: ticks 80 to 85 arrive in one frame, at tick 86's time.
    link.run(micros_of_ticks(86) + LATENCY_MICROS + FRAME_MICROS, |tick| {
        if (80..86).contains(&tick) { micros_of_ticks(86 - tick) } else { 0 }
    });
    assert_eq!(link.clock.top(), top);
    assert_eq!(link.clock.estimate_offset(), estimate);
}

#[test]
fn the_render_tick_keeps_its_pace_through_a_stall_and_the_burst_that_ends_it() {
    let mut link = Link::new();
    link.run(micros_of_ticks(100), |_| 0);
    let mut last = link.clock.render_tick().expect("observed");
    // A second-long stall of the link and its burst; the render tick must move by exactly a
    // frame's time in every frame, never halt and never leap.
    let stalled =
        |tick: u32| if (100..110).contains(&tick) { micros_of_ticks(110 - tick) } else { 0 };
    while link.clock.local_micros() < micros_of_ticks(140) {
        link.run(link.clock.local_micros() + FRAME_MICROS, stalled);
        let now = link.clock.render_tick().expect("observed");
        let moved = now - last;
        assert!(close(moved, ticks_of_micros(FRAME_MICROS)), "moved {moved} ticks in a frame");
        last = now;
    }
}

#[test]
fn inside_the_band_it_holds() {
    let mut link = Link::new();
    // Arrivals jitter by up to a twentieth of a tick: the top moves within the slack.
    let jitter = |tick: u32| u64::from(tick * 7 % 5) * 1_000;
    link.run(micros_of_ticks(20), jitter);
    let estimate = link.clock.estimate_offset();
    link.run(micros_of_ticks(300), jitter);
    assert_eq!(link.clock.estimate_offset(), estimate);
}

#[test]
fn an_early_arrival_aging_out_does_not_move_the_estimate() {
    // The rare earliest arrival raises the top; when it ages out the top falls back by the
    // jitter, which stays inside the band: the estimate, and every remote's pace, hold still.
    let mut link = Link::new();
    let jitter = |tick: u32| if tick.is_multiple_of(97) { 0 } else { 6_000 };
    link.run(micros_of_ticks(200), jitter);
    let settled = link.clock.estimate_offset().expect("observed");
    let mut lowest = settled;
    let mut highest = settled;
    while link.clock.local_micros() < micros_of_ticks(600) {
        link.run(link.clock.local_micros() + FRAME_MICROS, jitter);
        let e = link.clock.estimate_offset().expect("observed");
        lowest = lowest.min(e);
        highest = highest.max(e);
    }
    assert_eq!((lowest, highest), (settled, settled));
}

#[test]
fn below_the_band_it_rises_at_clock_slew() {
    let mut link = Link::new();
    let faster = |t: u32| if t < 60 { 50_000 } else { 0 };
    link.run(micros_of_ticks(60), faster);
    let before = link.clock.estimate_offset().expect("observed");
    // The path gets faster by half a tick: tick 60 arrives at 6.04 s and raises the top; the
    // estimate follows at the slow rate, frame by frame...
    link.run(micros_of_ticks(60) + LATENCY_MICROS, faster);
    assert_eq!(link.clock.estimate_offset(), Some(before), "it rises with time, not at once");
    let start = link.clock.local_micros();
    link.run(start + 3 * FRAME_MICROS, faster);
    let rose = link.clock.estimate_offset().expect("observed") - before;
    let expected = CLOCK_SLEW * ticks_of_micros(link.clock.local_micros() - start);
    assert!(close(rose, expected), "rose {rose}, expected {expected}");
    // ...and reaches the floor, no further.
    link.run(micros_of_ticks(400), faster);
    assert_eq!(link.clock.estimate_offset(), link.clock.top().map(|t| t - CLOCK_SLACK));
}

#[test]
fn far_below_the_band_it_catches_up_at_render_drift() {
    // A host clock running 3 % fast outruns a rise at CLOCK_SLEW; the estimate never falls
    // more than the catch-up distance under the band.
    let mut link = Link::new();
    link.rate_ppm = 1_030_000;
    let mut worst = Fx::ZERO;
    while link.clock.local_micros() < micros_of_ticks(1_200) {
        link.run(link.clock.local_micros() + FRAME_MICROS, |_| 0);
        let (Some(top), Some(estimate)) = (link.clock.top(), link.clock.estimate_offset()) else {
            continue;
        };
        worst = worst.max(top - CLOCK_SLACK - estimate);
    }
    // Each arrival raises the top by the 3 % of a tick the host gained since the last one.
    let margin = fx_ratio(1, 20);
    assert!(worst <= CLOCK_CATCH_UP_TICKS + margin, "fell {worst} ticks behind the band");
    assert_eq!(link.clock.snaps(), 0, "a fast host is followed, not snapped to");
}

#[test]
fn a_slow_host_clock_is_followed_without_a_snap() {
    // A host clock 3 % slow: the arrivals imply an ever smaller offset, and the estimate comes
    // down with them, never above the top for long and never by a step.
    let mut link = Link::new();
    link.rate_ppm = 970_000;
    let mut worst = Fx::ZERO;
    while link.clock.local_micros() < micros_of_ticks(1_200) {
        link.run(link.clock.local_micros() + FRAME_MICROS, |_| 0);
        let Some(host) = link.clock.host_tick() else { continue };
        if link.clock.local_micros() > micros_of_ticks(CLOCK_WINDOW_TICKS) {
            worst = worst.max(host - link.implied_host_tick());
        }
    }
    // The window remembers the last window's arrivals: the top lags a slow host by the rate
    // difference over a window (1.2 ticks here), and the render tick stays behind the newest
    // snapshot by the interpolation delay less that.
    let lag = fx_ratio(3, 100) * fx(CLOCK_WINDOW_TICKS as i32);
    assert!(worst <= lag + fx_ratio(1, 10), "ran {worst} ticks ahead of the host");
    assert!(worst < fx(INTERP_DELAY_TICKS as i32));
    assert_eq!(link.clock.snaps(), 0);
}

#[test]
fn above_the_top_it_comes_down_at_render_drift() {
    let mut link = Link::new();
    link.run(micros_of_ticks(60), |_| 0);
    let before = link.clock.estimate_offset().expect("observed");
    // The path gets slower by a whole tick and stays so: once the fast arrivals age out, the
    // estimate comes down at RENDER_DRIFT to the new top.
    let slower = |t: u32| if t >= 60 { 100_000 } else { 0 };
    link.run(micros_of_ticks(60 + CLOCK_WINDOW_TICKS) + micros_of_ticks(2), slower);
    let start = link.clock.estimate_offset().expect("observed");
    assert!(start < before, "it has started coming down");
    link.run(link.clock.local_micros() + 6 * FRAME_MICROS, slower);
    let fell = start - link.clock.estimate_offset().expect("observed");
    let expected = RENDER_DRIFT * ticks_of_micros(6 * FRAME_MICROS);
    assert!(abs(fell - expected) < fx_ratio(1, 100_000), "fell {fell}, expected {expected}");
    link.run(micros_of_ticks(300), slower);
    assert_eq!(link.clock.estimate_offset(), link.clock.top());
    assert_eq!(link.clock.snaps(), 0);
}

#[test]
fn one_observation_is_never_a_discontinuity() {
    let mut link = Link::new();
    link.run(micros_of_ticks(100), |_| 0);
    let estimate = link.clock.estimate_offset();
    // One message ten seconds late (a retransmission from long ago).
    link.clock.observe(Tick(2));
    link.run(link.clock.local_micros() + FRAME_MICROS, |_| 0);
    assert_eq!(link.clock.estimate_offset(), estimate);
    assert_eq!(link.clock.snaps(), 0);
}

#[test]
fn a_discontinuity_is_taken_only_once_it_has_persisted_a_whole_window() {
    let mut link = Link::new();
    link.run(micros_of_ticks(100), |_| 0);
    let estimate = link.clock.estimate_offset().expect("observed");
    // The host restarts: from our tick 100 on, its ticks count from 0 again.
    link.start_micros = micros_of_ticks(100) as i64;
    link.next_tick = 0;
    link.run(micros_of_ticks(100 + CLOCK_WINDOW_TICKS - 1), |_| 0);
    assert_eq!(link.clock.snaps(), 0, "not before a whole window");
    assert_eq!(link.clock.estimate_offset(), Some(estimate), "held all the while");
    link.run(micros_of_ticks(100 + CLOCK_WINDOW_TICKS + 2), |_| 0);
    assert_eq!(link.clock.snaps(), 1);
    let host = link.clock.host_tick().expect("observed");
    assert!(close(host, link.implied_host_tick() - CLOCK_SLACK), "{host}");
}

#[test]
fn a_forward_jump_of_the_host_is_taken_after_a_window() {
    let mut link = Link::new();
    link.run(micros_of_ticks(100), |_| 0);
    // The host's tick jumps 500 ticks ahead.
    link.start_micros -= micros_of_ticks(500) as i64;
    link.next_tick += 500;
    let jumped_at = link.clock.local_micros();
    while link.clock.snaps() == 0 {
        link.run(link.clock.local_micros() + FRAME_MICROS, |_| 0);
        assert!(link.clock.local_micros() < micros_of_ticks(1_000), "the jump is never taken");
    }
    let taken_after = link.clock.local_micros() - jumped_at;
    assert!(taken_after >= micros_of_ticks(CLOCK_WINDOW_TICKS), "not before a window");
    assert!(taken_after <= micros_of_ticks(CLOCK_WINDOW_TICKS + 2), "but as soon as it has");
    let host = link.clock.host_tick().expect("observed");
    assert!(close(host, link.implied_host_tick() - CLOCK_SLACK), "{host}");
}

#[test]
fn in_the_first_window_a_discontinuity_is_taken_at_once() {
    // The messages held while the level loaded arrive first, seconds late; the live ones
    // follow in the same frame.
    let mut clock = NetworkClock::new();
    clock.advance(micros_of_ticks(50));
    for held in 0..5 {
        clock.observe(Tick(held));
    }
    clock.observe(Tick(49));
    assert_eq!(clock.snaps(), 1);
    assert_eq!(clock.estimate_offset(), Some(fx(-1) - CLOCK_SLACK));
}

#[test]
fn in_the_first_window_the_rest_is_slewed_at_render_drift_either_way() {
    let mut clock = NetworkClock::new();
    clock.advance(micros_of_ticks(10));
    clock.observe(Tick(5)); // a late one first: offset −5
    clock.observe(Tick(8)); // then one two ticks later than the truth but within a snap
    let start = clock.estimate_offset().expect("observed");
    assert!(RENDER_SNAP_TICKS > fx(3));
    assert_eq!(start, fx(-5) - CLOCK_SLACK, "three ticks under the floor is no discontinuity");
    clock.advance(FRAME_MICROS);
    let rose = clock.estimate_offset().expect("observed") - start;
    assert_eq!(rose, RENDER_DRIFT * ticks_of_micros(FRAME_MICROS));
}

#[test]
fn a_short_margin_speeds_the_input_ticks_up_and_a_long_one_slows_them_down() {
    let mut clock = NetworkClock::new();
    clock.report_margin(40_000, 40_000);
    assert_eq!(clock.nudge_ppm(), 0);
    assert_eq!(clock.nudged_micros(100_000), 100_000);
    let mut short = NetworkClock::new();
    short.report_margin(30_000, 40_000);
    assert_eq!(short.nudge_ppm(), 3_000 + 10, "10 ms short: 0.3 % faster, and 10 ppm learned");
    assert!(short.nudged_micros(100_000) > 100_000);
    let mut long = NetworkClock::new();
    long.report_margin(60_000, 40_000);
    assert_eq!(long.nudge_ppm(), -6_000 - 20, "20 ms long: 0.6 % slower, and 20 ppm learned");
    assert!(long.nudged_micros(100_000) < 100_000);
    // A difference that lasts is learned: the same report asks for more each time.
    long.report_margin(60_000, 40_000);
    assert_eq!(long.nudge_ppm(), -6_000 - 40);
}

#[test]
fn the_nudge_is_at_most_three_per_cent() {
    let mut clock = NetworkClock::new();
    clock.report_margin(10_000_000, 0);
    assert_eq!(clock.nudge_ppm(), -MAX_TICK_NUDGE_PPM);
    assert_eq!(clock.nudged_micros(1_000_000), 970_000);
    clock.report_margin(i64::MIN, i64::MAX);
    assert_eq!(clock.nudge_ppm(), MAX_TICK_NUDGE_PPM);
    assert_eq!(MAX_TICK_NUDGE_PPM, 30_000);
}

/// A peer's inputs over a link 80 ms one way with 0 to 60 ms of jitter, to a host whose
/// clock runs 1 % slow (a tick every 101 ms of our time), played for `seconds`: the margins
/// each input arrived with after the first minute (`None`: late) and their target then.
fn margins_over_a_jittery_link(seconds: u64) -> (Vec<Option<u64>>, u32) {
    let mut clock = NetworkClock::new();
    let mut scheduler = FrameScheduler::new();
    // Welcomed at host tick 0, 500 ms into our time, after a round trip of 160 ms.
    let mut inputs = InputTicks::new(Tick(0), 160_000);
    let mut arrivals: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
    let mut host_next: u32 = 0;
    let mut host_due: u64 = 600_000;
    let mut margins = Vec::new();
    for frame in 0..(60 * seconds) {
        clock.advance(FRAME_MICROS);
        let now = clock.local_micros();
        if now < 500_000 {
            continue;
        }
        let run = scheduler.advance(clock.nudged_micros(FRAME_MICROS)).run;
        for _ in 0..run {
            if let Some(tick) = inputs.take() {
                let jitter = u64::from(tick.0 * 37 % 61) * 1_000;
                arrivals.insert(tick.0, now + 80_000 + jitter);
            }
        }
        while now >= host_due {
            let early =
                arrivals.get(&host_next).filter(|&&at| at <= host_due).map(|&at| host_due - at);
            if frame > 60 * 60 {
                margins.push(early);
            }
            inputs.acknowledged(Tick(host_next), early.map(|e| e as u32));
            if let Some(margin) = inputs.margin_micros() {
                clock.report_margin(i64::from(margin), i64::from(inputs.margin_target_micros()));
            }
            host_next += 1;
            host_due += 101_000;
        }
    }
    (margins, inputs.margin_target_micros())
}

#[test]
fn the_margin_stays_short_but_never_runs_out() {
    let (margins, target) = margins_over_a_jittery_link(300);
    let late = margins.iter().filter(|m| m.is_none()).count();
    assert_eq!(late, 0, "the host never had to guess an input");
    let mut arrived: Vec<u64> = margins.iter().flatten().copied().collect();
    arrived.sort_unstable();
    let median = arrived[arrived.len() / 2];
    // On target: the floor and the jitter's spread, no loss allowance (nothing came late).
    assert!((MARGIN_FLOOR_MICROS..MARGIN_FLOOR_MICROS + LOSS_MARGIN_MICROS).contains(&target));
    assert!(
        median.abs_diff(u64::from(target)) < 10_000,
        "median margin {median} µs, target {target} µs"
    );
    // Short: a queue of whole ticks would hold each input 100 ms or more.
    assert!(median < 100_000, "median margin {median} µs is input delay for nothing");
}

#[test]
fn the_estimate_never_bends_with_the_tick_rate_nudge() {
    let mut nudged = Link::new();
    let mut plain = Link::new();
    for step in 0..200 {
        nudged.clock.report_margin(if step % 2 == 0 { 0 } else { 500_000 }, 40_000);
        nudged.run(micros_of_ticks(step), |_| 0);
        plain.run(micros_of_ticks(step), |_| 0);
    }
    assert_eq!(nudged.clock.render_tick(), plain.clock.render_tick());
}

/// Protects what a player and a spectator see through a change of host: the render tick holds
/// where the drawing stopped (never moving back), waits for the new host's ticks (which go on
/// from the old host's, a silence later), and goes on from where it held at its pace, without
/// a jump, even when the new host's first ticks come in a burst ahead of it.
#[test]
fn through_a_change_of_host_the_render_tick_holds_then_goes_on_without_a_jump() {
    let mut clock = NetworkClock::new();
    for tick in 0..50 {
        clock.advance(TICK_MICROS);
        clock.observe(Tick(tick));
    }
    // A second and a half of silence: the render tick runs on meanwhile.
    for _ in 0..90 {
        clock.advance(16_667);
    }
    let before = clock.render_tick().expect("observed");
    clock.host_changed(None);
    let held = clock.render_tick().expect("held");
    assert_eq!(held, fx(49), "held at the newest tick observed");
    assert!(held <= before, "never forward at the change");
    assert!(clock.holding());
    let mut last = held;
    let mut tick = 50;
    for frame in 0..600 {
        clock.advance(16_667);
        // The new host's ticks: five at once first (those it had that this peer lacked), then
        // one a tick.
        if frame == 20 {
            for _ in 0..5 {
                clock.observe(Tick(tick));
                tick += 1;
            }
        } else if frame > 20 && frame % 6 == 0 {
            clock.observe(Tick(tick));
            tick += 1;
        }
        let now = clock.render_tick().expect("drawn");
        let step = now - last;
        assert!(step >= Fx::ZERO, "frame {frame}: the render tick went back {step}");
        // A frame is a sixth of a tick; at most the clock's catch-up rate faster.
        assert!(step <= fx_ratio(18, 100), "frame {frame}: a jump of {step} ticks");
        last = now;
    }
    assert!(!clock.holding(), "the hold ended once the new host's ticks reached it");
    assert!(last > held + fx(50), "it went on: {last}");
}

/// The same when the host hands the match over and the new host's first tick comes at once: the
/// new host's timeline puts the render tick ahead of where it held, and it goes on from where it
/// held all the same, catching up at the clock's rates instead of jumping.
#[test]
fn a_quick_change_of_host_goes_on_from_the_held_tick_without_a_jump() {
    let mut clock = NetworkClock::new();
    for tick in 0..50 {
        clock.advance(TICK_MICROS);
        clock.observe(Tick(tick));
    }
    clock.advance(30_000);
    clock.host_changed(None);
    let mut last = clock.render_tick().expect("held");
    for frame in 0..120 {
        clock.advance(16_667);
        // The new host's ticks from 50, the first a few frames after the change.
        if frame >= 3 && (frame - 3) % 6 == 0 {
            clock.observe(Tick(50 + (frame - 3) / 6));
        }
        let now = clock.render_tick().expect("drawn");
        let step = now - last;
        assert!(step >= Fx::ZERO, "frame {frame}: the render tick went back {step}");
        assert!(step <= fx_ratio(18, 100), "frame {frame}: a jump of {step} ticks");
        last = now;
    }
}
