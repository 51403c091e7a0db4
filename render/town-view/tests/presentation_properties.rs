//! Properties of what the presentation draws, over random motion and random frame timing.

use fixstep_present::interp::angle_delta;
use fixstep_present::track::Track;
use fixstep_runtime::Tick;
use fixstep_town::AnimState;
use fixstep_town_view::present::samples::{CharacterSample, ClipLengths};
use glam::Vec3;
use proptest::prelude::*;

/// Every clip 24 frames long and looping.
fn clips() -> ClipLengths {
    ClipLengths::new(vec![(24.0, true); 8])
}

fn sample(x: f32, facing: f32, frame: f32, jumps: u32) -> CharacterSample {
    CharacterSample {
        pos: Vec3::new(x, 0.0, 0.0),
        facing,
        anim: AnimState::Walk,
        clip: 1,
        frame,
        enabled: true,
        jumps,
        health: 100.0,
    }
}

fn drawn(track: &Track<CharacterSample>, alpha: f32) -> CharacterSample {
    let mut out = *track.current();
    track.sample_into(alpha, &clips(), &mut out);
    out
}

/// Frame alphas within one tick: increasing, in (0, 1].
fn alphas() -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(0.01f32..1.0, 1..6).prop_map(|mut v| {
        v.sort_by(f32::total_cmp);
        v.push(1.0);
        v
    })
}

proptest! {
    /// Within each tick the drawn facing turns one way, the short way, and never further
    /// than the turn between the two samples: it never swings the long way round.
    #[test]
    fn the_drawn_facing_never_takes_the_long_way(turns in prop::collection::vec(-3.1f32..3.1, 2..20), frames in alphas()) {
        let mut facing = 0.0f32;
        let mut track = Track::new(Tick(0), sample(0.0, facing, 0.0, 0));
        for (t, turn) in turns.iter().enumerate() {
            facing = fixstep_present::interp::wrap_angle(facing + turn);
            track.observe(Tick(t as u32 + 1), sample(0.0, facing, 0.0, 0));
            let whole = angle_delta(track.previous().facing, track.current().facing);
            let mut last = track.previous().facing;
            let mut total = 0.0;
            for &alpha in &frames {
                let now = drawn(&track, alpha).facing;
                let step = angle_delta(last, now);
                prop_assert!(step.abs() <= std::f32::consts::PI);
                prop_assert!(step * whole >= -1e-4, "stepped against the turn: {step} vs {whole}");
                total += step;
                last = now;
            }
            prop_assert!((total - whole).abs() < 1e-3, "the short way: {total} vs {whole}");
        }
    }

    /// Animation frames only ever step forward, except where a looping clip wraps from its
    /// end to its start.
    #[test]
    fn animation_frames_never_step_back_except_at_a_loop_wrap(rates in prop::collection::vec(0.0f32..6.0, 2..30), frames in alphas()) {
        let mut frame = 0.0f32;
        let mut track = Track::new(Tick(0), sample(0.0, 0.0, frame, 0));
        let mut last = frame;
        for (t, rate) in rates.iter().enumerate() {
            frame = (frame + rate) % 24.0;
            track.observe(Tick(t as u32 + 1), sample(0.0, 0.0, frame, 0));
            for &alpha in &frames {
                let now = drawn(&track, alpha).frame;
                prop_assert!((0.0..24.0).contains(&now));
                let forward = (now - last).rem_euclid(24.0);
                prop_assert!(forward < 12.0 || (last - now).abs() < 1e-4, "stepped back from {last} to {now}");
                last = now;
            }
        }
    }

    /// However the frames fall, nothing is ever drawn between the two places of a jump.
    #[test]
    fn a_jump_is_never_drawn_between_its_two_places(jump_at in 1u32..10, frames in alphas(), per_tick in 1usize..3) {
        let mut track = Track::new(Tick(0), sample(0.0, 0.0, 0.0, 0));
        for t in 1..12u32 {
            let (x, jumps) = if t < jump_at { (t as f32 * 0.1, 0) } else { (1000.0 + t as f32 * 0.1, 1) };
            track.observe(Tick(t), sample(x, 0.0, 0.0, jumps));
            // Sometimes two ticks land before a frame is drawn.
            if !(t as usize).is_multiple_of(per_tick) {
                continue;
            }
            for &alpha in &frames {
                let x = drawn(&track, alpha).pos.x;
                prop_assert!(!(2.0..1000.0).contains(&x), "drawn between the places: {x}");
            }
        }
    }
}
