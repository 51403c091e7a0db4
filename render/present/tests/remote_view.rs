//! The remote view: buffers found by sparse ids, drawn at the clock's render tick, dropped
//! when gone, and new again when an id comes back.

use fixstep_present::remote::{Measurement, Motion, RemoteFrame, RemoteView};
use fixstep_runtime::Tick;
use fixstep_runtime::clock::{CLOCK_SLACK, INTERP_DELAY_TICKS};
use fixstep_runtime::tick::TICK_MICROS;
use glam::Vec3;

/// A 60 Hz frame, microseconds.
const FRAME_MICROS: u64 = 16_667;

/// One-way delay of the simulated link, microseconds.
const LATENCY_MICROS: u64 = 40_000;

/// A host sending every tick's snapshot to the view over a steady link.
struct Host {
    view: RemoteView,
    next_tick: u32,
    now_micros: u64,
}

impl Host {
    fn new() -> Self {
        Self { view: RemoteView::new(), next_tick: 0, now_micros: 0 }
    }

    /// Runs 60 Hz frames until `until_micros`, delivering each tick's snapshot (built by
    /// `snapshot`) when it arrives, and drawing every frame.
    fn run(&mut self, until_micros: u64, snapshot: impl FnMut(&mut RemoteView, u32)) {
        self.run_watching(until_micros, snapshot, |_| {});
    }

    /// [`run`](Self::run), handing each frame drawn to `drawn`.
    fn run_watching(
        &mut self,
        until_micros: u64,
        mut snapshot: impl FnMut(&mut RemoteView, u32),
        mut drawn: impl FnMut(&RemoteFrame),
    ) {
        loop {
            let next_frame = (self.now_micros / FRAME_MICROS + 1) * FRAME_MICROS;
            let arrives = u64::from(self.next_tick) * 100_000 + LATENCY_MICROS;
            let next = next_frame.min(arrives);
            if next > until_micros {
                return;
            }
            self.view.advance(next - self.now_micros);
            self.now_micros = next;
            if next == arrives {
                let tick = self.next_tick;
                self.view.snapshot_arrived(Tick(tick));
                snapshot(&mut self.view, tick);
                self.next_tick += 1;
            } else {
                drawn(self.view.draw());
            }
        }
    }
}

fn walker(tick: u32, x: f32) -> Measurement {
    Measurement::moving(tick, Vec3::new(x, 0.0, 0.0), Vec3::X, 0.0, 0)
}

#[test]
fn nothing_is_drawn_before_the_clock_has_observed_anything() {
    let mut view = RemoteView::new();
    view.advance(1_000_000);
    let frame = view.draw();
    assert!(frame.entities.is_empty());
    assert_eq!(frame.render_tick, f64::NEG_INFINITY);
}

#[test]
fn entities_are_drawn_at_the_clocks_render_tick_without_the_frames_alpha() {
    let mut host = Host::new();
    host.run(3_000_000, |view, tick| {
        view.measure(1, Motion::Walker, &walker(tick, tick as f32 * 0.1));
    });
    let frame = host.view.frame().clone();
    let render = host.view.clock().render_tick().expect("observed").to_num::<f64>();
    assert_eq!(frame.render_tick, render);
    // Steady link: the host's estimated tick is the newest arrival's implication less the
    // slack; the frame draws two ticks behind that.
    let expected = (host.now_micros - LATENCY_MICROS) as f64 / 100_000.0
        - CLOCK_SLACK.to_num::<f64>()
        - f64::from(INTERP_DELAY_TICKS);
    assert!((render - expected).abs() < 1e-6, "render tick {render}, expected {expected}");
    assert_eq!(frame.entities[0].sample.tick, render, "a tier-1 entity has no delay of its own");
}

#[test]
fn sparse_ids_are_found_through_the_map() {
    let mut host = Host::new();
    let ids = [0, 7, 1 << 40, u64::MAX];
    host.run(2_000_000, |view, tick| {
        for (i, &id) in ids.iter().enumerate() {
            view.measure(id, Motion::Walker, &walker(tick, i as f32 * 10.0 + tick as f32 * 0.1));
        }
    });
    assert_eq!(host.view.len(), 4);
    for (i, &id) in ids.iter().enumerate() {
        let drawn = host.view.drawn(id).expect("every id is drawn");
        assert!((drawn.x - i as f32 * 10.0).abs() < 2.0, "entity {id} at {drawn}");
    }
}

/// The host ticks a frame's render tick advances on a steady link: a 60 Hz frame is a sixth
/// of a 100 ms tick, and the last frame drawn before an entity is gone is at most that short
/// of its tick.
const TICKS_PER_FRAME: f64 = FRAME_MICROS as f64 / TICK_MICROS as f64;

/// Protects despawning: an entity gone from a tick is drawn on every frame before that tick
/// (its last frame less than a frame short of it), never at or after it, and its buffer is
/// dropped, so neither a vanishing too early nor a ghost lingering passes.
#[test]
fn a_gone_entity_is_drawn_up_to_its_tick_and_then_dropped() {
    /// The host tick entity 9 is gone from: a little over a second into the two-second run,
    /// with frames drawn of it before and enough of the run after for its drop to show.
    const GONE: u32 = 12;
    let mut host = Host::new();
    // Per frame, the tick entity 9 was drawn at, if it was.
    let mut frames: Vec<Option<f64>> = Vec::new();
    host.run_watching(
        2_000_000,
        |view, tick| {
            if tick < GONE {
                view.measure(9, Motion::Vehicle, &walker(tick, tick as f32));
            } else if tick == GONE {
                view.gone(9, Tick(GONE));
            }
        },
        |frame| frames.push(frame.entities.iter().find(|e| e.id == 9).map(|e| e.sample.tick)),
    );
    let late: Vec<f64> =
        frames.iter().flatten().copied().filter(|&t| t >= f64::from(GONE)).collect();
    assert!(late.is_empty(), "drawn at or after the tick it is gone: {late:?}");
    let first = frames.iter().position(Option::is_some).expect("drawn while it was there");
    let shown = frames[first..].iter().take_while(|t| t.is_some()).count();
    let after = &frames[first + shown..];
    assert!(!after.is_empty(), "still drawn on the run's last frame");
    assert!(after.iter().all(Option::is_none), "drawn again after it was dropped: {after:?}");
    let drawn: Vec<f64> = frames[first..first + shown].iter().flatten().copied().collect();
    assert!(drawn.windows(2).all(|w| w[0] < w[1]), "drawn moving forward: {drawn:?}");
    let last = drawn[drawn.len() - 1];
    assert!(
        last >= f64::from(GONE) - TICKS_PER_FRAME,
        "dropped before its tick: last drawn at {last}, gone at {GONE}"
    );
    assert!(host.view.is_empty(), "dropped once the render tick passed it");
    assert!(host.view.buffer(9).is_none());
}

#[test]
fn an_id_measured_again_after_it_is_gone_is_a_new_entity() {
    let mut host = Host::new();
    host.run(6_000_000, |view, tick| match tick {
        0..10 => view.measure(3, Motion::Walker, &walker(tick, tick as f32 * 0.1)),
        10 => view.gone(3, Tick(10)),
        // Back at tick 40, elsewhere: drawn from 40 on, never slid from its old place.
        40.. => view.measure(3, Motion::Walker, &walker(tick, 100.0 + tick as f32 * 0.1)),
        _ => {}
    });
    let buffer = host.view.buffer(3).expect("the new life has a buffer");
    assert_eq!(buffer.first_tick(), 40);
}

#[test]
fn the_view_removes_a_dropped_entity_without_losing_the_others() {
    let mut host = Host::new();
    host.run(3_000_000, |view, tick| {
        for id in 1..=5u64 {
            if id == 2 && tick >= 8 {
                if tick == 8 {
                    view.gone(2, Tick(8));
                }
                continue;
            }
            view.measure(id, Motion::Walker, &walker(tick, id as f32 * 100.0 + tick as f32 * 0.1));
        }
    });
    assert_eq!(host.view.len(), 4);
    for id in [1, 3, 4, 5] {
        let drawn = host.view.drawn(id).expect("still drawn");
        assert!((drawn.x - id as f32 * 100.0).abs() < 5.0, "entity {id} drawn as itself");
    }
}

/// The host's silence before a spectator turns to the successor, microseconds: a second.
const SILENCE_MICROS: u64 = 1_000_000;

/// How long the successor gathers its players before it fixes ticks again, microseconds.
const GATHER_MICROS: u64 = 300_000;

/// Draws entity 1, which moves as `motion` says, through a takeover: the old host measures it (`old`) at every tick to
/// `last_old`, the view is told of the change a silence later, and the new host, after it
/// gathered, sends a snapshot a tick from `first_new` on, measuring it when `new` says.
/// Returns every frame's drawn x. Entity 2, when `walking_by`, walks on all along far off
/// (tier 4: sent every fourth tick, and at tick 50 as a change makes a host send it), so the
/// render tick holds where its guess stopped, three tiers' ticks past the others'.
fn drawn_through_a_takeover(
    motion: Motion,
    last_old: u32,
    old: impl Fn(u32) -> Measurement,
    first_new: u32,
    new: impl Fn(u32) -> Option<Measurement>,
    walking_by: bool,
) -> Vec<f32> {
    let drawn_x =
        |frame: &RemoteFrame| frame.entities.iter().find(|e| e.id == 1).map(|e| e.sample.pos.x);
    let by = |view: &mut RemoteView, tick: u32| {
        if walking_by && (tick.is_multiple_of(4) || tick == 50) {
            view.measure(2, Motion::Walker, &walker(tick, walked(tick)).in_tier(4));
        }
    };
    let mut host = Host::new();
    let mut drawn = Vec::new();
    let end_old = u64::from(last_old) * TICK_MICROS + LATENCY_MICROS;
    host.run_watching(
        end_old,
        |view, tick| {
            view.measure(1, motion, &old(tick));
            by(view, tick);
        },
        |frame| drawn.extend(drawn_x(frame)),
    );
    // The old host is silent: frames go on, nothing arrives.
    let changed = end_old + SILENCE_MICROS;
    let resumed = changed + GATHER_MICROS;
    let mut now = end_old;
    let mut next_tick = first_new;
    let mut told = false;
    while now < resumed + 6_000_000 {
        let next_frame = (now / FRAME_MICROS + 1) * FRAME_MICROS;
        let arrives = resumed + u64::from(next_tick - first_new) * TICK_MICROS + LATENCY_MICROS;
        let next = next_frame.min(arrives);
        host.view.advance(next - now);
        now = next;
        if !told && now >= changed {
            told = true;
            host.view.host_changed();
        }
        if next == arrives {
            host.view.snapshot_arrived(Tick(next_tick));
            if let Some(measured) = new(next_tick) {
                host.view.measure(1, motion, &measured);
            }
            by(&mut host.view, next_tick);
            next_tick += 1;
        } else {
            let frame = host.view.draw();
            drawn.push(drawn_x(frame).expect("drawn through the takeover"));
        }
    }
    drawn
}

/// [`drawn_through_a_takeover`] of a walker the old host measured walking at one metre a
/// second ([`walked`]) to tick 50.
fn walker_through_a_takeover(
    first_new: u32,
    new: impl Fn(u32) -> Option<Measurement>,
    walking_by: bool,
) -> Vec<f32> {
    drawn_through_a_takeover(
        Motion::Walker,
        50,
        |t| walker(t, walked(t)),
        first_new,
        new,
        walking_by,
    )
}

/// Asserts that a walker's drawn x (one a frame) never goes back and never pops: a frame's
/// true step is under 2 cm, a little more while it catches up after the hold.
fn assert_walks_on(drawn: &[f32], case: &str) {
    for (frame, pair) in drawn.windows(2).enumerate() {
        let step = pair[1] - pair[0];
        assert!(step >= -1e-5, "{case}: frame {frame} went back {step} m");
        assert!(step < 0.05, "{case}: frame {frame} popped {step} m");
    }
}

/// The x of a walker at one metre a second, at `tick`.
fn walked(tick: u32) -> f32 {
    tick as f32 * 0.1
}

#[test]
fn through_a_takeover_a_walker_holds_and_goes_on_never_backwards_and_never_popping() {
    // The new host goes on from the tick after the spectator's newest, or a few ticks later
    // (ticks the successor ran whose snapshots never reached this spectator).
    for (first_new, tier) in [(51, 1), (53, 1), (56, 1), (51, 2), (53, 4)] {
        let case = format!("first new tick {first_new}, tier {tier}");
        // A new host's first word on an entity near a tier's edge may differ from the old
        // one's, which kept it in its tier by hysteresis.
        let new = |tick: u32| {
            (tick == first_new || tick.is_multiple_of(u32::from(tier)))
                .then(|| walker(tick, walked(tick)).in_tier(tier))
        };
        let drawn = walker_through_a_takeover(first_new, new, false);
        assert_walks_on(&drawn, &case);
        let last = *drawn.last().expect("frames drawn");
        assert!(last > 9.0, "{case}: it walked on, to {last} m");
    }
}

#[test]
fn a_runner_guessed_on_past_where_it_stopped_is_drawn_back_after_a_takeover_never_cut_back() {
    // Four metres a second to tick 50, where it stops: the old host falls silent before it
    // says so, and the drawing guesses the run on past the stop before it holds. Alone, the
    // render tick holds where the runner's guess stopped; with another walking by far off, it
    // holds past it, and the runner's pause must not skip its stillness while the blend back
    // runs.
    const RUN_M_PER_TICK: f32 = 0.4;
    let stop = 50.0 * RUN_M_PER_TICK;
    for walking_by in [false, true] {
        let old = |tick: u32| {
            let at = Vec3::new(tick as f32 * RUN_M_PER_TICK, 0.0, 0.0);
            Measurement::moving(tick, at, Vec3::X * 4.0, 0.0, 0)
        };
        let new = |tick: u32| Some(Measurement::at_rest(tick, Vec3::new(stop, 0.0, 0.0), 0.0, 0));
        let drawn = drawn_through_a_takeover(Motion::Walker, 50, old, 51, new, walking_by);
        let furthest = drawn.iter().copied().fold(f32::MIN, f32::max);
        let case = if walking_by { "walked by" } else { "alone" };
        assert!(furthest > stop + 0.5, "{case}: guessed on past the stop (to {furthest} m)");
        for (frame, pair) in drawn.windows(2).enumerate() {
            let step = pair[1] - pair[0];
            // At most a run's frame and a half (a blend's peak pace is 1.5 times its average).
            assert!(step.abs() < 0.1, "{case}: frame {frame} popped {step} m");
        }
        let last = *drawn.last().expect("frames drawn");
        assert!((last - stop).abs() < 1e-3, "{case}: it ends where it stopped, not at {last} m");
    }
}

#[test]
fn a_runner_whose_guess_the_new_host_bears_out_before_it_stops_is_never_cut_back() {
    // Six metres a second to tick 51, then a stop at tick 52; the spectator's newest word from
    // the old host is of tick 50, so it guesses the run on three ticks, to tick 53. The new
    // host's first word bears the guess out (still running at 51: nothing to correct), and
    // only the next says it stopped, 1.2 m short of the guess. That correction is still of
    // the guess made before the change of host, paced by the run it guessed: never a cut.
    // The successor may also go on from a tick the spectator has (48): those say nothing new.
    const RUN_M_PER_TICK: f32 = 0.6;
    const STOP_TICK: u32 = 52;
    let at = |tick: u32| Vec3::new(tick.min(STOP_TICK - 1) as f32 * RUN_M_PER_TICK, 0.0, 0.0);
    let measured = |tick: u32| {
        if tick < STOP_TICK {
            Measurement::moving(tick, at(tick), Vec3::X * 6.0, 0.0, 0)
        } else {
            Measurement::at_rest(tick, at(tick), 0.0, 0)
        }
    };
    let stop = at(STOP_TICK).x;
    for first_new in [51, 48] {
        let drawn = drawn_through_a_takeover(
            Motion::Walker,
            50,
            measured,
            first_new,
            |t| Some(measured(t)),
            false,
        );
        let furthest = drawn.iter().copied().fold(f32::MIN, f32::max);
        assert!(furthest > stop + 1.0, "from {first_new}: guessed on past the stop, to {furthest}");
        for (frame, pair) in drawn.windows(2).enumerate() {
            let step = pair[1] - pair[0];
            assert!(step.abs() < 0.15, "from {first_new}: frame {frame} popped {step} m");
        }
        let last = *drawn.last().expect("frames drawn");
        assert!(
            (last - stop).abs() < 1e-3,
            "from {first_new}: it ends where it stopped, at {last}"
        );
    }
}

#[test]
fn an_entity_resting_through_a_takeover_goes_on_smoothly_when_it_moves_again() {
    // It rests at 5 m from tick 30 and walks off soon after the takeover (its news there
    // before the render tick goes on, or after); another walks by far off (tier 4) all along,
    // so the render tick holds where that one's guess stopped, four ticks past the resting
    // one's newest news: eased away slowly, that pause would draw it behind the six
    // measurements it keeps once it walks, a tick's step at a time.
    let rest = Vec3::new(5.0, 0.0, 0.0);
    for walks_at in [56, 70] {
        let old = |tick: u32| Measurement::at_rest(tick.min(30), rest, 0.0, 0);
        let new = |tick: u32| match tick {
            51 => Some(Measurement::at_rest(51, rest, 0.0, 0)),
            t if t >= walks_at => Some(walker(t, 5.0 + walked(t - walks_at))),
            _ => None,
        };
        let drawn = drawn_through_a_takeover(Motion::Walker, 50, old, 51, new, true);
        assert_walks_on(&drawn, &format!("walking at {walks_at}"));
        let last = *drawn.last().expect("frames drawn");
        assert!(last > 7.0, "walking at {walks_at}: it walked off, to {last} m");
    }
}

#[test]
fn a_held_picture_stays_bit_for_bit_when_the_new_host_agrees_with_it_to_rounding() {
    // The new host's words put the walker a twentieth of a millimetre behind where the old
    // host's did (a position rounded the other way): nothing to see, and nothing drawn. While
    // the render tick holds, the drawing stays exactly where it is; a step back of any size
    // (a micrometre of a blend's rounding, or the twentieth of a millimetre) is a reversal.
    const ROUNDED_M: f32 = 5e-5;
    for (first_new, walking_by) in [(51, false), (51, true), (53, true)] {
        let case = format!("first new tick {first_new}, walking by {walking_by}");
        let new = |tick: u32| Some(walker(tick, walked(tick) - ROUNDED_M));
        let drawn = walker_through_a_takeover(first_new, new, walking_by);
        for (frame, pair) in drawn.windows(2).enumerate() {
            let step = pair[1] - pair[0];
            assert!(step >= 0.0, "{case}: frame {frame} went back {step} m");
        }
    }
}

#[test]
fn a_taxi_that_drove_off_unseen_during_a_takeover_is_drawn_on_without_a_pop() {
    // A taxi rests at 5 m through the old host's silence and drives off at 13 m/s at
    // `drives_at`, maybe before the new host's first word on it (ticks the successor ran
    // that never reached this spectator). Or it drives on all along. Its news comes a tick
    // at a time, faster than the drawing goes while the render tick catches up from the
    // hold, and pushes out the rest it is drawn from: drawn from the oldest it keeps, it
    // would step a tick at a time. It is drawn on at a taxi's pace, never a pop.
    const M_PER_TICK: f32 = 1.3;
    let rest = Vec3::new(5.0, 0.0, 0.0);
    let driving = |from: u32, tick: u32| {
        let at = rest + Vec3::X * (tick - from) as f32 * M_PER_TICK;
        Measurement::moving(tick, at, Vec3::X * M_PER_TICK * 10.0, 0.0, 0)
    };
    for first_new in [49, 51, 53, 55, 57] {
        for drives_at in [None, Some(50), Some(52), Some(54), Some(56), Some(60), Some(70)] {
            for walking_by in [false, true] {
                let case = format!("new from {first_new}, drives at {drives_at:?}, {walking_by}");
                let old = |tick: u32| match drives_at {
                    Some(_) => Measurement::at_rest(tick.min(30), rest, 0.0, 0),
                    None => driving(0, tick),
                };
                let new = |tick: u32| match drives_at {
                    Some(at) if tick < at => {
                        (tick == first_new).then(|| Measurement::at_rest(tick, rest, 0.0, 0))
                    }
                    Some(at) => Some(driving(at, tick)),
                    None => Some(driving(0, tick)),
                };
                let drawn =
                    drawn_through_a_takeover(Motion::Vehicle, 50, old, first_new, new, walking_by);
                for (frame, pair) in drawn.windows(2).enumerate() {
                    let step = pair[1] - pair[0];
                    // A frame of the taxi's run is 0.22 m: at most half as much again.
                    assert!(step.abs() < 0.33, "{case}: frame {frame} popped {step} m");
                }
            }
        }
    }
}
