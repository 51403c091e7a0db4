//! The local frame scheduler: how many ticks each render frame runs.

use fixstep_runtime::tick::{
    FrameScheduler, FrameTicks, MAX_BACKLOG_TICKS, MAX_TICKS_PER_FRAME, TICK_MICROS,
};

#[test]
fn a_frame_runs_the_whole_ticks_its_time_owes() {
    let mut s = FrameScheduler::new();
    assert_eq!(s.advance(16_667), FrameTicks { run: 0, dropped: 0 });
    assert_eq!(s.owed_micros(), 16_667);
    // 6 frames of 16,667 µs = 100,002 µs: the sixth completes one tick, 2 µs stay owed.
    for _ in 0..4 {
        assert_eq!(s.advance(16_667).run, 0);
    }
    assert_eq!(s.advance(16_667), FrameTicks { run: 1, dropped: 0 });
    assert_eq!(s.owed_micros(), 2);
}

#[test]
fn sixty_hertz_runs_exactly_ten_ticks_a_second_over_a_minute() {
    let mut s = FrameScheduler::new();
    let mut ran = 0;
    // 3,600 frames alternating 16,666 and 16,667 µs plus one 1 µs: 60 s of frames in all.
    for frame in 0..3_600u64 {
        ran += s.advance(16_666 + frame % 2).run;
    }
    ran += s.advance(60_000_000 - 1_800 * 16_666 - 1_800 * 16_667).run;
    assert_eq!(ran, 600);
    assert_eq!(s.owed_micros(), 0);
    assert_eq!(s.dropped_total(), 0);
}

#[test]
fn a_slow_frame_runs_at_most_the_frame_limit_and_catches_up_later() {
    let mut s = FrameScheduler::new();
    let first = s.advance(5 * TICK_MICROS + 40_000);
    assert_eq!(first, FrameTicks { run: MAX_TICKS_PER_FRAME, dropped: 0 });
    // What is still owed (two ticks and 40 ms) runs in the next frames, never more than the
    // limit in any one.
    let second = s.advance(0);
    assert_eq!(second, FrameTicks { run: 2, dropped: 0 });
    assert_eq!(s.owed_micros(), 40_000);
}

#[test]
fn a_stall_keeps_the_backlog_and_drops_and_counts_the_rest() {
    let mut s = FrameScheduler::new();
    // A 5 s stall owes 50 ticks and 30 ms.
    let stall = s.advance(50 * TICK_MICROS + 30_000);
    let kept = MAX_BACKLOG_TICKS;
    assert_eq!(stall.run, MAX_TICKS_PER_FRAME);
    assert_eq!(stall.dropped, 50 - MAX_TICKS_PER_FRAME - kept);
    assert_eq!(s.dropped_total(), u64::from(stall.dropped));
    // The kept backlog and the fraction of a tick survive; it drains at the frame limit.
    assert_eq!(s.owed_micros(), u64::from(kept) * TICK_MICROS + 30_000);
    let mut drained = 0;
    while s.owed_micros() >= TICK_MICROS {
        let frame = s.advance(0);
        assert!(frame.run <= MAX_TICKS_PER_FRAME);
        assert_eq!(frame.dropped, 0);
        drained += frame.run;
    }
    assert_eq!(drained, kept);
}

#[test]
fn alpha_is_the_fraction_of_a_tick_owed_clamped_to_one() {
    let mut s = FrameScheduler::new();
    s.advance(25_000);
    assert_eq!(s.alpha_millionths(), 250_000);
    s.advance(5 * TICK_MICROS);
    // A backlog remains: the latest tick is more than a tick old, so alpha is 1.
    assert_eq!(s.alpha_millionths(), 1_000_000);
}

#[test]
fn an_absurd_elapsed_time_neither_overflows_nor_runs_away() {
    let mut s = FrameScheduler::new();
    let frame = s.advance(u64::MAX);
    assert_eq!(frame.run, MAX_TICKS_PER_FRAME);
    assert!(frame.dropped > 0);
    let next = s.advance(u64::MAX);
    assert_eq!(next.run, MAX_TICKS_PER_FRAME);
}
