//! The remote buffer, one test per behaviour of the remote-buffer specification: sampling
//! between measurements, extrapolation and holding, rests, starts and stops, the Hermite
//! curve of vehicles and the straight segments of walkers, tiers, corrections and jumps.

use fixstep_present::remote::{
    BLEND_MAX_TICKS, BLEND_PACE_SHARE, BLEND_TICKS, MAX_EXTRAPOLATION_TICKS, Measurement, Motion,
    RemoteBuffer, RemoteSample, TICK_SECONDS, tier_delay,
};
use fixstep_runtime::clock::RENDER_DRIFT;
use glam::Vec3;

/// A 60 Hz frame, seconds.
const FRAME_S: f64 = 1.0 / 60.0;

/// A frame in ticks.
const FRAME_TICKS: f64 = FRAME_S / TICK_SECONDS;

/// Positions compared within this (m): the rounding of single-precision positions.
const EPS_M: f32 = 1e-4;

fn x(v: f32) -> Vec3 {
    Vec3::new(v, 0.0, 0.0)
}

/// Measurements of a car on the x axis at constant acceleration `a` m/s², starting at rest
/// at the origin at tick 0: position and velocity at `tick`.
fn accelerating(tick: u32, a: f32) -> Measurement {
    let t = tick as f32 * TICK_SECONDS as f32;
    Measurement::moving(tick, x(0.5 * a * t * t), x(a * t), 0.0, 0)
}

/// Samples the buffer at `tick` without delays or corrections.
fn at(buffer: &RemoteBuffer, tick: f64) -> RemoteSample {
    let mut out = RemoteSample::default();
    assert!(buffer.sample(tick, &mut out), "a sample at tick {tick}");
    out
}

/// Draws frames at 60 Hz from render tick `from` to `to` (a tier-1 entity is drawn at the
/// render tick itself) and returns what they drew.
fn frames(buffer: &mut RemoteBuffer, from: f64, to: f64) -> Vec<RemoteSample> {
    let mut drawn = Vec::new();
    let mut tick = from;
    while tick <= to + 1e-9 {
        let mut out = RemoteSample::default();
        if buffer.draw(tick, FRAME_S, &mut out) {
            drawn.push(out);
        }
        tick += FRAME_TICKS;
    }
    drawn
}

#[test]
fn samples_between_measurements_at_a_fractional_tick() {
    let mut b =
        RemoteBuffer::new(Motion::Walker, &Measurement::moving(10, x(0.0), x(10.0), 0.0, 0));
    b.push(&Measurement::moving(11, x(1.0), x(10.0), 0.0, 0));
    assert!((at(&b, 10.25).pos.x - 0.25).abs() < EPS_M);
    assert!((at(&b, 10.5).pos.x - 0.5).abs() < EPS_M);
}

#[test]
fn past_the_newest_measurement_it_extrapolates_with_the_last_velocity_then_holds() {
    let b = RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(5, x(0.0), x(10.0), 0.0, 0));
    assert!((at(&b, 6.5).pos.x - 1.5).abs() < EPS_M, "1.5 ticks at 1 m a tick");
    assert!((at(&b, 6.5).speed - 10.0).abs() < EPS_M, "drawn moving at its velocity");
    let limit = 5.0 + f64::from(MAX_EXTRAPOLATION_TICKS);
    let held = at(&b, limit + 2.0);
    assert!((held.pos.x - MAX_EXTRAPOLATION_TICKS as f32).abs() < EPS_M, "held at the limit");
    assert_eq!(held.speed, 0.0, "and drawn standing");
}

#[test]
fn an_entity_at_rest_is_held_exactly_where_it_was_measured() {
    let rest = Measurement::at_rest(3, Vec3::new(12.5, 0.25, -7.0), 1.0, 0);
    let b = RemoteBuffer::new(Motion::Vehicle, &rest);
    for tick in [3.0, 3.5, 10.0, 1000.0] {
        let s = at(&b, tick);
        assert_eq!((s.pos, s.yaw, s.speed), (rest.pos, rest.yaw, 0.0), "at tick {tick}");
    }
}

#[test]
fn sampling_writes_into_the_callers_sample_and_leaves_it_when_there_is_none() {
    let b = RemoteBuffer::new(Motion::Walker, &Measurement::at_rest(8, x(2.0), 0.0, 0));
    let mut out = RemoteSample { tick: -1.0, pos: x(99.0), yaw: 3.0, speed: 7.0, jumps: 9 };
    let untouched = out;
    assert!(!b.sample(7.9, &mut out));
    assert_eq!(out, untouched);
    assert!(b.sample(8.0, &mut out));
    assert_eq!(out.pos, x(2.0));
}

#[test]
fn every_newer_measurement_is_kept_and_an_older_or_repeated_one_ignored() {
    // A car coming to a stop: the same place measured with another velocity is a measurement.
    let mut b = RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(0, x(0.0), x(2.0), 0.0, 0));
    assert!(b.push(&Measurement::moving(1, x(0.1), x(0.0), 0.0, 0)));
    assert!(b.push(&Measurement::at_rest(2, x(0.1), 0.0, 0)));
    assert!(!b.push(&Measurement::at_rest(2, x(5.0), 0.0, 0)), "a repeated tick");
    assert!(!b.push(&Measurement::at_rest(1, x(5.0), 0.0, 0)), "an older tick");
    assert_eq!(b.newest().tick, 2);
    assert_eq!(b.newest().pos, x(0.1));
}

#[test]
fn nothing_is_drawn_before_the_first_measurement() {
    let mut b =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(50, x(0.0), x(10.0), 0.0, 0));
    let mut out = RemoteSample::default();
    assert!(!b.sample(49.99, &mut out));
    assert!(!b.draw(49.99, FRAME_S, &mut out));
    assert!(b.draw(50.0, FRAME_S, &mut out));
}

#[test]
fn a_new_entity_moves_as_measured_from_its_first_tick_never_standing_at_it() {
    // First seen moving: from its first tick on it moves at its measured velocity.
    let mut b =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(20, x(0.0), x(12.0), 0.0, 0));
    b.push(&Measurement::moving(21, x(1.2), x(12.0), 0.0, 0));
    let drawn = frames(&mut b, 20.0, 21.0);
    assert!(drawn.len() >= 6);
    for pair in drawn.windows(2) {
        let step = pair[1].pos.x - pair[0].pos.x;
        assert!((step - 1.2 * FRAME_TICKS as f32).abs() < 1e-3, "step {step}");
    }
}

#[test]
fn a_start_is_held_at_rest_until_one_snapshot_before_the_first_motion() {
    let mut b = RemoteBuffer::new(Motion::Walker, &Measurement::at_rest(10, x(0.0), 0.0, 0));
    b.push(&Measurement::moving(20, x(0.1), x(1.0), 0.0, 0));
    for tick in [10.0, 15.0, 18.9, 18.999] {
        assert_eq!(at(&b, tick).pos, x(0.0), "still standing at tick {tick}");
        assert_eq!(at(&b, tick).speed, 0.0);
    }
    assert_eq!(at(&b, 19.0).pos, x(0.0), "and sets off from where it stood");
    assert!((at(&b, 19.5).pos.x - 0.05).abs() < EPS_M, "moving over the last tick");
    assert!(at(&b, 19.5).speed > 0.0);
}

#[test]
fn a_car_pulls_away_from_its_measured_standstill() {
    // A car that starts at 2.5 m/s² is drawn on the curve from standstill: speed 0 at the
    // start, the measured speed at the first motion measurement, accelerating between.
    let mut b = RemoteBuffer::new(Motion::Vehicle, &Measurement::at_rest(0, x(0.0), 0.0, 0));
    b.push(&Measurement::moving(11, x(0.0125), x(0.25), 0.0, 0));
    assert!(at(&b, 10.0).speed.abs() < EPS_M);
    assert!((at(&b, 10.5).pos.x - 0.003_125).abs() < 1e-5, "exactly the constant acceleration");
    assert!((at(&b, 10.999).speed - 0.25).abs() < 1e-3);
}

#[test]
fn a_stop_is_interpolated_over_the_motion_and_held_after() {
    // A car braking at 4 m/s² from 0.4 m/s stops at tick 131, measured at rest there.
    let mut b =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(130, x(105.68), x(0.4), 0.0, 0));
    b.push(&Measurement::at_rest(131, x(105.7), 0.0, 0));
    assert!((at(&b, 130.5).pos.x - 105.695).abs() < EPS_M, "on the braking curve");
    assert!(at(&b, 130.999).speed < 0.01, "drawing up to a standstill");
    for tick in [131.0, 140.0] {
        assert_eq!(at(&b, tick).pos, x(105.7));
        assert_eq!(at(&b, tick).speed, 0.0);
    }
}

#[test]
fn a_long_stand_is_held_and_never_spread_over() {
    // Stopped at tick 5, off again at tick 60: standing from 5 to 59, whatever the gap.
    let mut b = RemoteBuffer::new(Motion::Walker, &Measurement::moving(4, x(0.0), x(1.0), 0.0, 0));
    b.push(&Measurement::at_rest(5, x(0.1), 0.0, 0));
    b.push(&Measurement::moving(60, x(0.2), x(1.0), 0.0, 0));
    for tick in [5.0, 20.0, 40.0, 59.0] {
        assert_eq!(at(&b, tick).pos, x(0.1), "at tick {tick}");
    }
    assert!((at(&b, 59.5).pos.x - 0.15).abs() < EPS_M);
}

#[test]
fn two_rests_in_different_places_step_at_the_seconds_tick_without_a_slide() {
    let mut b = RemoteBuffer::new(Motion::Walker, &Measurement::at_rest(0, x(20.0), 0.0, 0));
    b.push(&Measurement::at_rest(80, x(23.0), 0.0, 0));
    let drawn = frames(&mut b, 0.0, 81.0);
    for s in &drawn {
        let expected = if s.tick < 80.0 { 20.0 } else { 23.0 };
        assert_eq!(s.pos.x, expected, "at tick {}", s.tick);
        assert_eq!(s.speed, 0.0, "feet still at tick {}", s.tick);
    }
}

#[test]
fn a_vehicle_follows_a_hermite_curve_with_its_velocity_continuous_at_each_measurement() {
    // Constant acceleration is a cubic (indeed a quadratic): the curve draws it exactly, and
    // the drawn velocity at each measurement is the measured one, from either side.
    let a = 3.0;
    let mut b = RemoteBuffer::new(Motion::Vehicle, &accelerating(0, a));
    for tick in [2, 4, 6, 8] {
        b.push(&accelerating(tick, a));
    }
    for i in 0..80 {
        let tick = f64::from(i) * 0.1;
        let t = (tick * TICK_SECONDS) as f32;
        let s = at(&b, tick);
        assert!((s.pos.x - 0.5 * a * t * t).abs() < 1e-4, "position at tick {tick}");
        assert!((s.speed - a * t).abs() < 1e-3, "speed at tick {tick}: {}", s.speed);
    }
    for m in [2.0, 4.0, 6.0] {
        let before = at(&b, m - 1e-4).speed;
        let after = at(&b, m).speed;
        assert!((before - after).abs() < 1e-3, "velocity jumps at tick {m}: {before} {after}");
    }
}

/// The town moves a taxi a straight step a tick: a curve through its measured velocities would
/// draw it speeding up and slowing down within each step, off the pace it went.
#[test]
fn a_vehicle_measured_a_tick_apart_at_the_very_step_it_made_moves_straight_at_that_speed() {
    // 1 m in a tick is 10 m/s, and the second measurement says 10 m/s: a straight step.
    let mut stepped =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(10, x(0.0), x(8.0), 0.0, 0));
    stepped.push(&Measurement::moving(11, x(1.0), x(10.0), 0.0, 0));
    for tick in [10.0, 10.25, 10.5, 10.75] {
        let s = at(&stepped, tick);
        assert!((s.pos.x - (tick as f32 - 10.0)).abs() < EPS_M, "on the step at {tick}");
        assert!((s.speed - 10.0).abs() < 1e-3, "at the step's speed at {tick}: {}", s.speed);
    }
    // Half a metre a second off the step is no rounding: the curve through the velocities.
    let mut curved =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(10, x(0.0), x(8.0), 0.0, 0));
    curved.push(&Measurement::moving(11, x(1.0), x(10.5), 0.0, 0));
    let mid = at(&curved, 10.5).pos.x;
    assert!((mid - 0.468_75).abs() < EPS_M, "the Hermite curve's midpoint: {mid}");
}

#[test]
fn a_walker_is_drawn_on_straight_segments_at_each_segments_average_speed() {
    let mut b = RemoteBuffer::new(Motion::Walker, &Measurement::moving(0, x(0.0), x(1.0), 0.0, 0));
    // Measured velocities say nothing of how it moved between: the segment's average rules.
    b.push(&Measurement::moving(2, x(0.3), x(2.0), 0.0, 0));
    for tick in [0.0, 0.5, 1.0, 1.5, 1.99] {
        let s = at(&b, tick);
        assert!((s.pos.x - 0.15 * tick as f32).abs() < EPS_M, "on the line at {tick}");
        assert!((s.speed - 1.5).abs() < EPS_M, "at the average speed at {tick}");
    }
}

#[test]
fn the_sample_speed_is_the_speed_the_pose_is_drawn_moving_at() {
    let a = 2.0;
    let mut b = RemoteBuffer::new(Motion::Vehicle, &accelerating(0, a));
    b.push(&accelerating(4, a));
    for tick in [0.5, 1.5, 2.5, 3.5] {
        let h = 1e-3;
        let moved = (at(&b, tick + h).pos - at(&b, tick - h).pos).length();
        let drawn_speed = moved / (2.0 * h * TICK_SECONDS) as f32;
        assert!((at(&b, tick).speed - drawn_speed).abs() < 2e-2, "at tick {tick}");
    }
}

#[test]
fn a_far_tier_is_drawn_its_period_less_one_snapshot_behind() {
    assert_eq!([tier_delay(1), tier_delay(2), tier_delay(4)], [0.0, 1.0, 3.0]);
    let mut b = RemoteBuffer::new(
        Motion::Vehicle,
        &Measurement::moving(100, x(0.0), x(10.0), 0.0, 0).in_tier(4),
    );
    let mut out = RemoteSample::default();
    assert!(b.draw(104.0, FRAME_S, &mut out), "a new entity starts at its tier's delay");
    assert_eq!(out.tick, 101.0);
}

/// Protects the far tiers' delay: an entity measured every fourth tick is drawn on every frame
/// once that delay has passed, and each time between two measurements it has, never guessed
/// past the newest.
#[test]
fn a_far_tier_is_interpolated_between_two_measurements_at_every_frame() {
    // Tier 4, measured every fourth tick, the newest arriving as the render tick (two ticks
    // behind the host) passes it: with the tier's delay, every frame falls between two.
    let m = |tick: u32| Measurement::moving(tick, x(tick as f32), x(10.0), 0.0, 0).in_tier(4);
    let mut b = RemoteBuffer::new(Motion::Vehicle, &m(0));
    let mut next = 4;
    let mut render = 0.0;
    let mut out = RemoteSample::default();
    let mut drawn_frames = 0;
    while render < 60.0 {
        // The host is at render + 2; a measurement of tick k has arrived once k <= host.
        while f64::from(next) <= render + 2.0 {
            b.push(&m(next));
            next += 4;
        }
        let drawn = b.draw(render, FRAME_S, &mut out);
        // Before its first measurement plus the tier's delay there is nothing to draw; from a
        // frame after that (the render tick is a sum of frames, inexact), every frame draws.
        let due = render >= tier_delay(4) + FRAME_TICKS;
        assert!(drawn || !due, "not drawn at render tick {render}");
        if drawn {
            assert!(out.tick < f64::from(b.newest().tick), "extrapolated at {}", out.tick);
            drawn_frames += 1;
        }
        render += FRAME_TICKS;
    }
    assert!(drawn_frames > 0, "drawn at all");
}

#[test]
fn a_tier_change_slews_the_delay_at_render_drift_and_never_jumps() {
    let m = |tick: u32, tier: u8| {
        Measurement::moving(tick, x(tick as f32), x(10.0), 0.0, 0).in_tier(tier)
    };
    let mut b = RemoteBuffer::new(Motion::Vehicle, &m(0, 1));
    for tick in 1..=10 {
        b.push(&m(tick, 1));
    }
    let drawn = frames(&mut b, 8.0, 9.0);
    assert_eq!(drawn.last().map(|s| (9.0 - s.tick).abs() < 1e-9), Some(true), "tier 1: no delay");
    // Told tier 4: the delay grows toward 3 ticks at RENDER_DRIFT, a frame at a time.
    b.push(&m(12, 4));
    let drift = RENDER_DRIFT.to_num::<f64>();
    let mut render = 9.0;
    let mut last = None;
    for _ in 0..600 {
        render += FRAME_TICKS;
        let mut out = RemoteSample::default();
        assert!(b.draw(render, FRAME_S, &mut out));
        let delay = render - out.tick;
        if let Some(previous) = last {
            let grew: f64 = delay - previous;
            // (The delay is single precision: steps agree to a millionth of a tick.)
            assert!(grew >= -1e-6 && grew <= drift * FRAME_TICKS + 1e-6, "grew {grew}");
        }
        last = Some(delay);
    }
    assert!((last.expect("drawn") - 3.0).abs() < 1e-6, "reaches the tier's delay");
}

#[test]
fn a_late_measurement_is_blended_away_over_blend_ticks_instead_of_jumped() {
    // Drawn past its newest measurement (extrapolated at 10 m/s), the car in fact slowed:
    // the late measurement's difference is drawn away, every frame moving forward.
    let mut b =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(0, x(0.0), x(10.0), 0.0, 0));
    let before = frames(&mut b, 0.0, 1.5);
    let last = *before.last().expect("drawn");
    b.push(&Measurement::moving(1, x(0.95), x(9.0), 0.0, 0));
    // (Past tick 4 the new measurement's extrapolation holds: the frames stop before.)
    let after = frames(&mut b, last.tick + FRAME_TICKS, last.tick + BLEND_TICKS + FRAME_TICKS);
    let mut previous = last;
    for s in &after {
        let step = s.pos.x - previous.pos.x;
        assert!(step > 0.0, "moves on at tick {}", s.tick);
        assert!(step < 2.0 * 1.0 * FRAME_TICKS as f32, "no jump at tick {}", s.tick);
        previous = *s;
    }
    // ...and once the blend is over the pose is the measurements' again.
    let end = *after.last().expect("drawn");
    assert!((end.pos - at(&b, end.tick).pos).length() < EPS_M);
    let halfway = after.iter().find(|s| s.tick >= last.tick + BLEND_TICKS / 2.0).expect("drawn");
    assert!((halfway.pos - at(&b, halfway.tick).pos).length() > EPS_M, "still blending midway");
}

/// Protects the catch-up after a link stall: several measurements arriving at once are drawn
/// as one blend, every frame after them a step of at most twice the car's pace either way (no
/// leap forward, no jump back), ending on the measurements' pose.
#[test]
fn a_burst_of_late_measurements_is_blended_like_one() {
    // A stall of the link: the car was extrapolated and then held; five measurements arrive
    // at once. The catch-up is a blend, not a leap.
    let mut b = RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(0, x(0.0), x(5.0), 0.0, 0));
    let before = frames(&mut b, 0.0, 5.0);
    let last = *before.last().expect("drawn");
    for tick in 1..=6 {
        b.push(&Measurement::moving(tick, x(0.5 * tick as f32), x(5.0), 0.0, 0));
    }
    let after = frames(&mut b, last.tick + FRAME_TICKS, last.tick + BLEND_MAX_TICKS);
    assert!(!after.is_empty(), "drawn after the burst");
    let pace = 0.5 * FRAME_TICKS as f32;
    let mut previous = last;
    for s in &after {
        let step = s.pos.x - previous.pos.x;
        assert!(step.abs() < 2.0 * pace, "a leap of {step} m at tick {}", s.tick);
        previous = *s;
    }
    let end = *after.last().expect("drawn");
    assert!((end.pos - at(&b, end.tick).pos).length() < EPS_M, "caught up in the end");
}

#[test]
fn a_big_correction_is_drawn_at_no_more_than_a_third_again_the_pace() {
    // Held 2 m short of where a 10 m/s car really is: caught up at most a third faster.
    let mut b =
        RemoteBuffer::new(Motion::Vehicle, &Measurement::moving(0, x(0.0), x(10.0), 0.0, 0));
    let held_from = f64::from(MAX_EXTRAPOLATION_TICKS);
    let before = frames(&mut b, 0.0, held_from + 2.0);
    let last = *before.last().expect("drawn");
    for tick in 1..=6 {
        b.push(&Measurement::moving(tick, x(tick as f32), x(10.0), 0.0, 0));
    }
    let after = frames(&mut b, last.tick + FRAME_TICKS, last.tick + BLEND_MAX_TICKS);
    let mut previous = last;
    let pace = 10.0 * FRAME_S as f32;
    for s in &after {
        let step = s.pos.x - previous.pos.x;
        assert!(step <= pace * (1.0 + BLEND_PACE_SHARE) + 1e-3, "step {step} at {}", s.tick);
        previous = *s;
    }
    let end = *after.last().expect("drawn");
    assert!((end.pos - at(&b, end.tick).pos).length() < EPS_M, "caught up in the end");
}

#[test]
fn a_teleport_sized_difference_is_taken_at_once() {
    // A walker held still for a second and a half of link stall, 30 m behind: not a blend of
    // seconds at a run, but one cut.
    let mut b = RemoteBuffer::new(Motion::Walker, &Measurement::moving(0, x(0.0), x(1.5), 0.0, 0));
    let before = frames(&mut b, 0.0, 6.0);
    let last = *before.last().expect("drawn");
    for tick in 1..=8 {
        b.push(&Measurement::moving(tick, x(0.15 * tick as f32 + 30.0), x(1.5), 0.0, 0));
    }
    let after = frames(&mut b, last.tick + FRAME_TICKS, last.tick + FRAME_TICKS);
    assert!((after[0].pos - at(&b, after[0].tick).pos).length() < EPS_M, "taken at once");
}

#[test]
fn no_blend_when_the_newest_measurement_lies_beyond_the_tick_drawn() {
    // The usual frame: drawn between two measurements; newer ones change nothing drawn.
    let a = 2.0;
    let mut b = RemoteBuffer::new(Motion::Vehicle, &accelerating(0, a));
    for tick in 1..=3 {
        b.push(&accelerating(tick, a));
    }
    let mut render = 0.0;
    for next in 4..40 {
        for s in frames(&mut b, render, render + 1.0 - FRAME_TICKS / 2.0) {
            assert_eq!(s.pos, at(&b, s.tick).pos, "drawn exactly at tick {}", s.tick);
        }
        render += 1.0;
        b.push(&accelerating(next, a));
    }
}

#[test]
fn a_jump_is_never_drawn_in_between() {
    // Walking at 1.4 m/s, teleported at tick 200 to the other side of the town.
    let mut b =
        RemoteBuffer::new(Motion::Walker, &Measurement::moving(198, x(0.0), x(1.4), 0.0, 0));
    b.push(&Measurement::moving(199, x(0.14), x(1.4), 0.0, 0));
    b.push(&Measurement::at_rest(200, Vec3::new(60.0, 0.0, -40.0), 0.0, 1));
    let drawn = frames(&mut b, 198.0, 201.0);
    for s in &drawn {
        let near_old = s.pos.x < 1.0;
        let at_new = s.pos == Vec3::new(60.0, 0.0, -40.0);
        assert!(near_old || at_new, "drawn between the two places at tick {}: {:?}", s.tick, s.pos);
        assert_eq!(at_new, s.tick >= 200.0, "the cut is at the jump's tick, {}", s.tick);
        assert_eq!(s.jumps, u32::from(at_new));
    }
    // Before the cut the old leg goes on moving, never toward the new place.
    let before: Vec<_> = drawn.iter().filter(|s| s.tick < 200.0).collect();
    assert!(before.windows(2).all(|w| w[1].pos.x >= w[0].pos.x));
}

#[test]
fn a_correction_across_a_jump_is_taken_at_once() {
    // Extrapolating a walker when the snapshot of its teleport comes late: the new place is
    // drawn at once, never blended toward.
    let mut b = RemoteBuffer::new(Motion::Walker, &Measurement::moving(0, x(0.0), x(1.0), 0.0, 0));
    let before = frames(&mut b, 0.0, 2.0);
    let last = *before.last().expect("drawn");
    b.push(&Measurement::at_rest(1, x(50.0), 0.0, 1));
    let after = frames(&mut b, last.tick + FRAME_TICKS, last.tick + FRAME_TICKS);
    assert_eq!(after[0].pos, x(50.0));
}
