//! Sounds that are struck once: footsteps, knocks (doors, the lift), blips and clicks. Each
//! reaches its full amplitude within a millisecond, so that it is heard on the frame that
//! started it and its start can be measured in the mix.

use std::f32::consts::TAU;

use super::{RATE, Rng, normalize, one_pole, samples_of_ms};
use crate::sound::config::{Blips, Click, Footsteps, Knock};

/// The last part of every struck sound fades to zero over this long, ms: a sound cut off at a
/// non-zero sample clicks.
const TAIL_FADE_MS: f32 = 2.0;

/// An envelope that rises linearly over `attack` samples and then falls exponentially with
/// time constant `decay` samples, at sample `i`.
fn strike(i: usize, attack: usize, decay: f32) -> f32 {
    if i < attack { (i + 1) as f32 / attack as f32 } else { (-((i - attack) as f32) / decay).exp() }
}

/// Fades the last [`TAIL_FADE_MS`] of `samples` out.
fn fade_tail(samples: &mut [f32]) {
    let n = samples_of_ms(TAIL_FADE_MS).min(samples.len());
    let len = samples.len();
    for (k, s) in samples[len - n..].iter_mut().enumerate() {
        *s *= 1.0 - (k + 1) as f32 / n as f32;
    }
}

/// Footstep `variant`: low-passed noise, a scuff, over a short thump, struck hard.
#[must_use]
pub fn footstep(step: &Footsteps, seed: u64, variant: u32) -> Vec<f32> {
    let mut rng = Rng::new(seed, &format!("footstep {variant}"));
    let len = samples_of_ms(step.length_ms);
    let attack = samples_of_ms(step.attack_ms);
    let decay = samples_of_ms(step.decay_ms) as f32;
    // Each variant a little brighter or duller, and its thump a little higher or lower.
    let a = one_pole(step.lowpass_hz * rng.range(0.8, 1.25));
    let thump_hz = step.thump_hz * rng.range(0.85, 1.15);
    let mut lowpassed = 0.0;
    let mut out: Vec<f32> = (0..len)
        .map(|i| {
            lowpassed += a * (rng.noise() - lowpassed);
            // The low-pass takes the noise's level down: about a third of white noise's.
            let scuff = lowpassed * 3.0;
            // A cosine: at its height on the first sample, as the foot lands.
            let thump =
                (TAU * thump_hz * i as f32 / RATE).cos() * (-(i as f32) / (2.0 * decay)).exp();
            strike(i, attack, decay) * (scuff + 0.7 * thump)
        })
        .collect();
    fade_tail(&mut out);
    normalize(&mut out);
    out
}

/// Ratios of a struck bar's partials to its lowest: what makes a knock wooden or metallic
/// rather than a note.
const BAR_PARTIALS: [f32; 4] = [1.0, 2.76, 5.40, 8.93];

/// A knock: a struck bar's inharmonic partials, its pitch wandering a little (a creak), with
/// a share of noise.
#[must_use]
pub fn knock(knock: &Knock, seed: u64, name: &str) -> Vec<f32> {
    let mut rng = Rng::new(seed, name);
    let len = samples_of_ms(knock.length_ms);
    let attack = samples_of_ms(0.5);
    let decay = samples_of_ms(knock.decay_ms) as f32;
    let mut phases = [0.0_f32; BAR_PARTIALS.len()];
    let mut wobble = 0.0_f32;
    let a = one_pole(3000.0);
    let mut lowpassed = 0.0;
    let mut out: Vec<f32> = (0..len)
        .map(|i| {
            // A slow random walk of the pitch, within a few per cent.
            wobble = (wobble + 0.002 * rng.noise()).clamp(-0.04, 0.04);
            let mut tone = 0.0;
            for (k, (ratio, phase)) in BAR_PARTIALS.iter().zip(&mut phases).enumerate() {
                *phase = (*phase + knock.pitch_hz * ratio * (1.0 + wobble) / RATE).fract();
                // Higher partials die away sooner.
                let partial_decay = decay / (1.0 + k as f32 * 0.8);
                tone += (TAU * *phase).sin() * (-(i as f32) / partial_decay).exp() / (1 + k) as f32;
            }
            lowpassed += a * (rng.noise() - lowpassed);
            let noise = lowpassed * 3.0 * (-(i as f32) / (decay * 0.3)).exp();
            strike(i, attack, f32::INFINITY) * ((1.0 - knock.noise) * tone + knock.noise * noise)
        })
        .collect();
    fade_tail(&mut out);
    normalize(&mut out);
    out
}

/// A dialogue blip: a short sine, struck and falling away.
#[must_use]
pub fn blip(blips: &Blips) -> Vec<f32> {
    let len = samples_of_ms(blips.length_ms);
    let attack = samples_of_ms(0.3);
    let decay = len as f32 / 4.0;
    let mut out: Vec<f32> = (0..len)
        .map(|i| strike(i, attack, decay) * (TAU * blips.pitch_hz * i as f32 / RATE).sin())
        .collect();
    fade_tail(&mut out);
    normalize(&mut out);
    out
}

/// A menu click: a very short, bright tick.
#[must_use]
pub fn click(click: &Click, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed, "click");
    let len = samples_of_ms(click.length_ms);
    let attack = samples_of_ms(0.2);
    let decay = len as f32 / 3.0;
    let mut out: Vec<f32> = (0..len)
        .map(|i| {
            let tone = (TAU * click.pitch_hz * i as f32 / RATE).sin();
            strike(i, attack, decay) * (0.8 * tone + 0.2 * rng.noise())
        })
        .collect();
    fade_tail(&mut out);
    normalize(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sound::config::Sounds;

    fn sounds() -> Sounds {
        let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        Sounds::load(&assets).expect("the sounds load")
    }

    /// The loudest sample within the first millisecond, against the loudest of all.
    fn onset_share(samples: &[f32]) -> f32 {
        let peak = |s: &[f32]| s.iter().fold(0.0_f32, |m, x| m.max(x.abs()));
        peak(&samples[..samples_of_ms(1.0)]) / peak(samples)
    }

    #[test]
    fn a_footstep_is_at_full_strength_within_a_millisecond() {
        let sounds = sounds();
        for v in 0..sounds.footsteps.variants {
            let step = footstep(&sounds.footsteps, sounds.seed, v);
            assert!(onset_share(&step) > 0.5, "variant {v}: {}", onset_share(&step));
            assert_eq!(step, footstep(&sounds.footsteps, sounds.seed, v), "made the same again");
        }
        assert_ne!(footstep(&sounds.footsteps, 1, 0), footstep(&sounds.footsteps, 2, 0));
    }

    #[test]
    fn struck_sounds_start_at_once_and_end_at_zero() {
        let sounds = sounds();
        for samples in [
            knock(&sounds.doors.start, sounds.seed, "a"),
            knock(&sounds.lift.end, sounds.seed, "b"),
            blip(&sounds.blips),
            click(&sounds.click, sounds.seed),
        ] {
            assert!(onset_share(&samples) > 0.3, "{}", onset_share(&samples));
            assert!(samples.last().is_some_and(|s| s.abs() < 1e-6));
        }
    }
}
