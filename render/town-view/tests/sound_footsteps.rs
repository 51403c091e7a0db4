//! Footsteps sound on the frame that draws the foot down: measured in the mixed samples of 10 s
//! of the real town (three bots and a local player walking, running and stopping on held
//! keys, drawn at 60 Hz), against the drawn frames.
//!
//! How the steps are heard apart from everything else: the same frames are mixed twice, once
//! as they are and once with the steps' volume at silence (kira then plays every step, at
//! zero amplitude, so both mixes add the same sounds in the same order). The first minus the
//! second is exactly the steps as they are in the mix, without the engines, the fountain, the
//! lift or the birds; its onsets are measured in 1 ms windows. No sound is left out of the
//! mix or moved in it.

mod sound_common;

use std::collections::HashMap;

use fixstep_town::level::Level;
use fixstep_town_view::sound::Sounds;
use sound_common::{
    FULL, Mix, WALK_AND_RUN, ms, onsets, play_held, quantile, render, sounds, town,
};

/// The steps' sounds may be this far from the frame that put the foot down, ms.
const WITHIN_MS: f64 = 5.0;

/// A foot put down, as the drawn frames say.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The frame that drew it down.
    frame: usize,
    /// Its first sample.
    at: usize,
    /// Close enough to be heard clearly, not only at the edge of hearing.
    clear: bool,
}

/// Every foot put down by a character within hearing, from the frames alone: between two
/// consecutive drawings of a character on one clip (same state, jumps and switch), each
/// contact frame the drawn frame passed, round the loop.
fn steps_drawn(
    level: &Level,
    sounds: &Sounds,
    frames: &[sound_common::Drawn],
    starts: &[usize],
) -> Vec<Step> {
    let (_, far) = sounds.footsteps.distances_m;
    let mut last = HashMap::new();
    let mut out = Vec::new();
    for (k, drawn) in frames.iter().enumerate() {
        let f = &drawn.frame;
        for c in &f.characters {
            let s = c.sample;
            let key = (c.id.index, c.id.generation);
            let before = last.insert(key, s);
            let Some(p) = before else { continue };
            if (p.clip, p.anim, p.jumps, p.enabled) != (s.clip, s.anim, s.jumps, s.enabled) {
                continue;
            }
            let clip = &level.clips.defs[usize::from(s.clip)];
            let Some(contacts) = sounds.footsteps.contacts.get(&clip.name) else { continue };
            let frames_in_clip = clip.frames as f32;
            let mut to = s.frame;
            if to < p.frame {
                to += frames_in_clip;
            }
            let passed = contacts
                .iter()
                .flat_map(|&c| [c, c + frames_in_clip])
                .any(|c| p.frame < c && c <= to);
            let distance = (s.pos - f.camera.eye).length();
            if passed && distance < far {
                out.push(Step { frame: k, at: starts[k], clear: distance < far - 1.0 });
            }
        }
    }
    // A step that starts while another is still sounding may be lost under it: not clear.
    let length = (sounds.footsteps.length_ms * sound_common::SAMPLES_PER_MS as f32) as usize;
    let ats: Vec<usize> = out.iter().map(|s| s.at).collect();
    for s in &mut out {
        if ats.iter().any(|&a| a < s.at && s.at - a < length) {
            s.clear = false;
        }
    }
    out
}

/// The steps alone, as they are in the full mix (see the module documentation).
fn steps_mixed(
    level: &std::sync::Arc<Level>,
    sounds: &Sounds,
    frames: &[sound_common::Drawn],
) -> Mix {
    let full = render(level, sounds, FULL, frames, |_, _| {});
    assert!(
        full.samples.iter().all(|s| s.abs() < 1.0),
        "the mix clips: the difference would not be the steps alone"
    );
    let mut muted = sounds.clone();
    muted.footsteps.volume_db = -200.0;
    muted.footsteps.run_volume_db = -200.0;
    let without = render(level, &muted, FULL, frames, |_, _| {});
    full.minus(&without)
}

#[test]
fn every_footstep_sounds_within_5_ms_of_the_frame_that_draws_the_foot_down() {
    let level = town();
    let sounds = sounds();
    let frames = play_held(&level, WALK_AND_RUN, 3, 10);
    let steps_only = steps_mixed(&level, &sounds, &frames);
    let expected = steps_drawn(&level, &sounds, &frames, &steps_only.starts);
    let heard = onsets(&steps_only.energy(), 1e-12, 4.0, 3);

    let tolerance = WITHIN_MS * sound_common::SAMPLES_PER_MS as f64;
    let nearest = |at: usize| {
        expected
            .iter()
            .map(|s| (at as f64 - s.at as f64, s.frame))
            .min_by(|a, b| a.0.abs().total_cmp(&b.0.abs()))
    };
    let mut offsets = Vec::new();
    let mut unexplained = Vec::new();
    for &at in &heard {
        match nearest(at) {
            Some((offset, _)) if offset.abs() <= tolerance => offsets.push(ms(offset).abs()),
            other => unexplained.push((ms(at as f64), other.map(|(o, k)| (ms(o), k)))),
        }
    }
    let missing: Vec<&Step> = expected
        .iter()
        .filter(|s| s.clear)
        .filter(|s| !heard.iter().any(|&h| (h as f64 - s.at as f64).abs() <= tolerance))
        .collect();
    let clear = expected.iter().filter(|s| s.clear).count();
    let (p50, max) = (quantile(&mut offsets, 0.5), quantile(&mut offsets, 1.0));
    println!(
        "footsteps: {} drawn within hearing ({clear} clear), {} onsets heard, {} matched: \
         offset p50 {p50:.3} ms, max {max:.3} ms",
        expected.len(),
        heard.len(),
        offsets.len(),
    );
    assert!(clear >= 40, "too few steps to judge: {clear}");
    assert!(
        unexplained.is_empty(),
        "onsets no drawn step explains (ms, nearest step): {unexplained:?}"
    );
    assert!(missing.is_empty(), "clear steps not heard: {missing:?}");
    assert!(max <= WITHIN_MS, "a step {max} ms from its frame");
}
