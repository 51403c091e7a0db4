//! The three volumes: zero is silence from the first sample, the master scales everything,
//! and effects and ambience are two parts that add up to the whole. Measured on 2 s of the
//! real town's mix.

mod sound_common;

use sound_common::{FULL, Mix, Volumes, WALK_AND_RUN, play_held, render, sounds, town};

fn rms(mix: &Mix) -> f32 {
    (mix.samples.iter().map(|s| s * s).sum::<f32>() / mix.samples.len() as f32).sqrt()
}

#[test]
fn volume_zero_is_silence_and_the_volumes_scale_and_add_up() {
    let level = town();
    let sounds = sounds();
    let frames = play_held(&level, WALK_AND_RUN, 3, 2);
    let mix = |volumes| render(&level, &sounds, volumes, &frames, |_, _| {});
    let full = mix(FULL);
    assert!(rms(&full) > 1e-3, "the town is heard: rms {}", rms(&full));

    for silent in [
        Volumes { master: 0.0, effects: 1.0, ambience: 1.0 },
        Volumes { master: 1.0, effects: 0.0, ambience: 0.0 },
    ] {
        let quiet = mix(silent);
        let loudest = quiet.samples.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
        assert_eq!(loudest, 0.0, "{silent:?} is not silent");
    }

    // The first of kira's blocks fades in from silence, in decibels: compared after it.
    let faded_in = 2 * 10 * sound_common::SAMPLES_PER_MS;
    let half = mix(Volumes { master: 0.5, ..FULL });
    let pairs = full.samples.iter().zip(&half.samples).skip(faded_in);
    let off = pairs.map(|(f, h)| (0.5 * f - h).abs()).fold(0.0, f32::max);
    assert!(off < 1e-6, "half the master volume is half the mix, {off} off");

    let effects = mix(Volumes { ambience: 0.0, ..FULL });
    let ambience = mix(Volumes { effects: 0.0, ..FULL });
    assert!(rms(&effects) > 1e-4 && rms(&ambience) > 1e-4, "both parts are heard");
    let sum = effects.samples.iter().zip(&ambience.samples).map(|(e, a)| e + a);
    let off = full.samples.iter().zip(sum).map(|(f, s)| (f - s).abs()).fold(0.0, f32::max);
    assert!(off < 1e-5, "effects and ambience add up to the mix, {off} off");
    println!(
        "volumes: rms full {:.4}, effects {:.4}, ambience {:.4}",
        rms(&full),
        rms(&effects),
        rms(&ambience)
    );
}
