//! The update-gap delay, one test per behaviour of its specification, and how it combines
//! with a told tier inside the remote buffer.

use fixstep_present::remote::{
    GAP_SLEW_TICKS_PER_SECOND, MAX_GAP_TICKS, Measurement, Motion, RemoteBuffer, RemoteSample,
    TICK_SECONDS, UpdateGapDelay,
};
use fixstep_runtime::clock::INTERP_DELAY_TICKS;
use glam::Vec3;

/// A 60 Hz frame, seconds.
const FRAME_S: f64 = 1.0 / 60.0;

/// The render delay of a tier-1 entity, ticks.
const RENDER_DELAY: u32 = INTERP_DELAY_TICKS;

/// Observes states at `ticks` and advances the delay until it settles.
fn settled(ticks: &[u32]) -> UpdateGapDelay {
    let mut delay = UpdateGapDelay::new();
    for &tick in ticks {
        delay.observe(tick);
    }
    for _ in 0..600 {
        delay.advance(RENDER_DELAY, MAX_GAP_TICKS, FRAME_S);
    }
    delay
}

#[test]
fn the_gap_is_zero_until_two_states_have_arrived() {
    let mut delay = UpdateGapDelay::new();
    assert_eq!(delay.gap_ticks(), 0);
    delay.observe(10);
    assert_eq!(delay.gap_ticks(), 0);
    delay.observe(16);
    assert_eq!(delay.gap_ticks(), 6);
}

#[test]
fn an_entity_updated_within_the_render_delay_gets_no_delay() {
    let every_tick = settled(&(0..50).collect::<Vec<_>>());
    assert_eq!((every_tick.target_ticks(), every_tick.delay_ticks()), (0, 0.0));
    let every_other = settled(&(0..50).step_by(2).collect::<Vec<_>>());
    assert_eq!(every_other.delay_ticks(), 0.0, "a gap of 2 is within a render delay of 2");
}

#[test]
fn an_entity_updated_every_few_ticks_is_delayed_one_tick_more_than_the_uncovered_gap() {
    let every_six = settled(&(0..60).step_by(6).collect::<Vec<_>>());
    assert_eq!(every_six.gap_ticks(), 6);
    assert_eq!(every_six.target_ticks(), 6 - RENDER_DELAY + 1);
    assert_eq!(every_six.delay_ticks(), f64::from(6 - RENDER_DELAY + 1));
}

#[test]
fn the_gap_is_the_larger_of_the_last_two_so_staggered_windows_settle_on_the_longer() {
    // Updated every 6 ticks, sent in 20-tick windows: 18 and 24 ticks apart (here scaled into
    // the one-second limit: 4 and 8).
    let mut delay = UpdateGapDelay::new();
    for tick in [0, 4, 12, 16, 24, 28] {
        delay.observe(tick);
        if tick >= 12 {
            assert_eq!(delay.gap_ticks(), 8, "after tick {tick}");
        }
    }
}

#[test]
fn a_gap_longer_than_a_second_is_a_rest_and_is_ignored() {
    let mut delay = UpdateGapDelay::new();
    delay.observe(0);
    delay.observe(3);
    delay.observe(3 + MAX_GAP_TICKS + 1);
    assert_eq!(delay.gap_ticks(), 3);
    delay.observe(3 + MAX_GAP_TICKS + 1 + MAX_GAP_TICKS);
    assert_eq!(delay.gap_ticks(), MAX_GAP_TICKS, "exactly the limit still counts");
}

#[test]
fn an_older_or_repeated_tick_is_ignored() {
    let mut delay = UpdateGapDelay::new();
    delay.observe(10);
    delay.observe(14);
    delay.observe(14);
    delay.observe(12);
    assert_eq!(delay.gap_ticks(), 4);
    delay.observe(15);
    assert_eq!(delay.gap_ticks(), 4, "the larger of 4 and 1");
}

#[test]
fn the_target_covers_what_the_render_delay_does_not_and_is_capped() {
    assert_eq!(UpdateGapDelay::target_for(1, 2, 10), 0);
    assert_eq!(UpdateGapDelay::target_for(2, 2, 10), 0);
    assert_eq!(UpdateGapDelay::target_for(3, 2, 10), 2);
    assert_eq!(UpdateGapDelay::target_for(10, 2, 10), 9);
    assert_eq!(UpdateGapDelay::target_for(10, 2, 4), 4);
}

#[test]
fn the_delay_moves_toward_its_target_at_half_the_tick_rate_and_never_jumps() {
    assert_eq!(GAP_SLEW_TICKS_PER_SECOND, 5.0);
    let mut delay = UpdateGapDelay::new();
    for tick in (0..40).step_by(8) {
        delay.observe(tick);
    }
    let mut last = 0.0;
    for _ in 0..120 {
        let now = delay.advance(RENDER_DELAY, MAX_GAP_TICKS, FRAME_S);
        assert!(now - last <= GAP_SLEW_TICKS_PER_SECOND * FRAME_S + 1e-6, "single precision");
        last = now;
    }
    assert_eq!(last, 7.0, "reached in 1.4 s");
    // Coming back down (updated every tick again) just as gently.
    for tick in 41..60 {
        delay.observe(tick);
    }
    let now = delay.advance(RENDER_DELAY, MAX_GAP_TICKS, FRAME_S);
    assert!((last - now - GAP_SLEW_TICKS_PER_SECOND * FRAME_S).abs() < 1e-6);
}

#[test]
fn a_max_delay_of_zero_turns_it_off_at_once() {
    let mut delay = settled(&(0..60).step_by(6).collect::<Vec<_>>());
    assert!(delay.delay_ticks() > 0.0);
    assert_eq!(delay.advance(RENDER_DELAY, 0, FRAME_S), 0.0);
    assert_eq!((delay.delay_ticks(), delay.target_ticks()), (0.0, 0));
}

#[test]
fn reset_forgets_every_gap_and_the_delay() {
    let mut delay = settled(&(0..60).step_by(6).collect::<Vec<_>>());
    delay.reset();
    assert_eq!(delay, UpdateGapDelay::new());
    delay.observe(3);
    assert_eq!(delay.gap_ticks(), 0, "no state before the reset is remembered");
}

// How it combines with the remote buffer and a told tier.

fn moving(tick: u32, tier: u8) -> Measurement {
    Measurement::moving(tick, Vec3::new(tick as f32, 0.0, 0.0), Vec3::X * 10.0, 0.0, 0)
        .in_tier(tier)
}

/// Draws `seconds` of 60 Hz frames with the render tick two ticks behind a host whose
/// measurements of the entity come from `measure` (`None` where the host sends nothing).
fn run(seconds: f64, measure: impl Fn(u32) -> Option<Measurement>) -> (RemoteBuffer, Vec<f64>) {
    let mut buffer: Option<RemoteBuffer> = None;
    let mut delays = Vec::new();
    let mut host_tick = 0;
    let mut render = -f64::from(RENDER_DELAY);
    let mut out = RemoteSample::default();
    while render < seconds / TICK_SECONDS {
        while f64::from(host_tick) <= render + f64::from(RENDER_DELAY) {
            if let Some(m) = measure(host_tick) {
                match &mut buffer {
                    Some(b) => {
                        b.push(&m);
                    }
                    None => buffer = Some(RemoteBuffer::new(Motion::Vehicle, &m)),
                }
            }
            host_tick += 1;
        }
        if let Some(b) = &mut buffer
            && b.draw(render, FRAME_S, &mut out)
        {
            delays.push(render - out.tick);
        }
        render += FRAME_S / TICK_SECONDS;
    }
    (buffer.expect("measured"), delays)
}

#[test]
fn a_told_tier_covers_its_own_period_and_the_gap_delay_adds_nothing() {
    let (buffer, delays) = run(10.0, |t| (t % 4 == 0).then(|| moving(t, 4)));
    assert_eq!(buffer.gap_delay().gap_ticks(), 4);
    assert_eq!(buffer.gap_delay().delay_ticks(), 0.0);
    assert!(delays.iter().all(|&d| (d - 3.0).abs() < 1e-9), "the tier's delay alone");
}

#[test]
fn an_untold_slow_update_adds_to_the_tiers_delay() {
    // Tier 2 told, but updated every 6 ticks: the tier covers 2 + 1 ticks of render delay,
    // the gap delay the remaining 6 − 3 + 1.
    let (buffer, delays) = run(10.0, |t| (t % 6 == 0).then(|| moving(t, 2)));
    assert_eq!(buffer.gap_delay().target_ticks(), 4);
    assert!((delays.last().expect("drawn") - 5.0).abs() < 1e-9, "{:?}", delays.last());
}

#[test]
fn a_tier_change_measures_the_gaps_afresh() {
    // From tier 4 to tier 2 at tick 40: the four-tick gaps of the old tier must not delay it.
    let (buffer, _) = run(8.0, |t| {
        if t < 40 { (t % 4 == 0).then(|| moving(t, 4)) } else { (t % 2 == 0).then(|| moving(t, 2)) }
    });
    assert_eq!(buffer.gap_delay().gap_ticks(), 2);
    assert_eq!(buffer.gap_delay().delay_ticks(), 0.0);
}

#[test]
fn a_rest_is_not_a_gap_of_the_entitys_rate() {
    // Moving every tick, at rest from tick 20 to 27 (not sent), moving again from 28.
    let (buffer, _) = run(6.0, |t| match t {
        0..20 | 28.. => Some(moving(t, 1)),
        20 => Some(Measurement::at_rest(20, Vec3::new(20.0, 0.0, 0.0), 0.0, 0)),
        _ => None,
    });
    assert_eq!(buffer.gap_delay().gap_ticks(), 1);
    assert_eq!(buffer.gap_delay().delay_ticks(), 0.0);
}
