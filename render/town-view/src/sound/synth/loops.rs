//! Sounds that loop for as long as their source is there: the engine, the fountain, the
//! birds and the crickets. Each ends where it starts, so the loop has no seam.

use std::f32::consts::TAU;

use super::{RATE, Rng, normalize, one_pole, samples_of_ms};
use crate::sound::config::{Engine, Fountain};
use fixstep_audio::SAMPLE_RATE_HZ;

/// Length of the engine loop, seconds: long enough that its small irregularities do not
/// repeat audibly, short enough to make at once.
const ENGINE_LOOP_S: f32 = 1.0;

/// How much each firing's loudness varies, share: an engine is not a pure tone.
const ENGINE_ROUGHNESS: f32 = 0.06;

/// Samples in one period of the engine's fundamental: a whole number, so the loop repeats
/// seamlessly. [`engine_fundamental_hz`] is the pitch this makes.
#[must_use]
pub fn engine_period(engine: &Engine) -> usize {
    ((RATE / engine.idle_hz).round() as usize).max(2)
}

/// The idling engine's fundamental as made, Hz: `idle_hz` rounded to a whole number of
/// samples a period.
#[must_use]
pub fn engine_fundamental_hz(engine: &Engine) -> f32 {
    RATE / engine_period(engine) as f32
}

/// The engine: harmonics of the fundamental, falling off gently, each period a little louder
/// or softer than the last.
#[must_use]
pub fn engine(engine: &Engine, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed, "engine");
    let period = engine_period(engine);
    let periods = ((ENGINE_LOOP_S * RATE) as usize / period).max(1);
    let phases: Vec<f32> = (0..engine.harmonics).map(|_| rng.unit()).collect();
    // One loudness per period, wrapping round, blended across each period so it never steps.
    let loudness: Vec<f32> = (0..periods).map(|_| 1.0 + ENGINE_ROUGHNESS * rng.noise()).collect();
    let mut out: Vec<f32> = (0..period * periods)
        .map(|i| {
            let p = i / period;
            let within = (i % period) as f32 / period as f32;
            let level = loudness[p] * (1.0 - within) + loudness[(p + 1) % periods] * within;
            let tone: f32 = phases
                .iter()
                .enumerate()
                .map(|(h, phase)| {
                    let h = (h + 1) as f32;
                    (TAU * (h * within + phase)).sin() / h.powf(0.9)
                })
                .sum();
            level * tone
        })
        .collect();
    normalize(&mut out);
    out
}

/// Length of the fountain loop, seconds.
const FOUNTAIN_LOOP_S: f32 = 4.0;

/// How long the fountain loop's end is blended into its start, seconds.
const FOUNTAIN_SEAM_S: f32 = 0.25;

/// Makes `len` samples of a loop from `len + seam` made ones: the extra samples at the end
/// are blended into the start (equal power, for noise), so the last sample leads into the
/// first.
fn close_loop(mut samples: Vec<f32>, len: usize) -> Vec<f32> {
    let seam = samples.len() - len;
    for i in 0..seam {
        let t = i as f32 / seam as f32 * std::f32::consts::FRAC_PI_2;
        samples[i] = samples[i] * t.sin() + samples[len + i] * t.cos();
    }
    samples.truncate(len);
    samples
}

/// The fountain: band-passed noise, its level wandering, with drops.
#[must_use]
pub fn fountain(fountain: &Fountain, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed, "fountain");
    let len = (FOUNTAIN_LOOP_S * RATE) as usize;
    let total = len + (FOUNTAIN_SEAM_S * RATE) as usize;
    let (lo, hi) = (one_pole(fountain.highpass_hz), one_pole(fountain.lowpass_hz));
    let (mut below, mut band1, mut band2, mut level) = (0.0_f32, 0.0_f32, 0.0_f32, 0.85_f32);
    let mut out: Vec<f32> = (0..total)
        .map(|_| {
            let white = rng.noise();
            below += lo * (white - below);
            band1 += hi * ((white - below) - band1);
            band2 += hi * (band1 - band2);
            level = (level + 0.0004 * rng.noise()).clamp(0.6, 1.0);
            band2 * level
        })
        .collect();
    // Drops: short falling chirps here and there.
    let drop_len = samples_of_ms(30.0);
    for _ in 0..(FOUNTAIN_LOOP_S * 6.0) as usize {
        let at = (rng.unit() * (total - drop_len) as f32) as usize;
        let (hz, gain) = (rng.range(1200.0, 2600.0), rng.range(0.1, 0.3));
        let mut phase = 0.0;
        for (k, s) in out[at..at + drop_len].iter_mut().enumerate() {
            let t = k as f32 / drop_len as f32;
            phase += hz * (1.0 - 0.4 * t) / RATE;
            *s += gain * (TAU * phase).sin() * (std::f32::consts::PI * t).sin();
        }
    }
    let mut out = close_loop(out, len);
    normalize(&mut out);
    out
}

/// Length of the birds loop, seconds: long, so the song does not repeat noticeably.
const BIRDS_LOOP_S: f32 = 9.0;

/// Phrases of birdsong in one loop.
const BIRD_PHRASES: usize = 14;

/// Birds: phrases of a few quick whistles, each a swept sine with a smooth envelope, none
/// across the loop's end.
#[must_use]
pub fn birds(seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed, "birds");
    let len = (BIRDS_LOOP_S * RATE) as usize;
    let mut out = vec![0.0_f32; len];
    for _ in 0..BIRD_PHRASES {
        let notes = 2 + (rng.next_u64() % 4) as usize;
        let mut at = (rng.unit() * (len - SAMPLE_RATE_HZ as usize / 2) as f32) as usize;
        let gain = rng.range(0.3, 1.0);
        for _ in 0..notes {
            let note = samples_of_ms(rng.range(40.0, 90.0));
            let (from, to) = (rng.range(2500.0, 4500.0), rng.range(2000.0, 5500.0));
            let mut phase = 0.0;
            for (k, s) in out.iter_mut().skip(at).take(note).enumerate() {
                let t = k as f32 / note as f32;
                phase += (from + (to - from) * t) / RATE;
                *s += gain * (TAU * phase).sin() * (std::f32::consts::PI * t).sin().powi(2);
            }
            at += note + samples_of_ms(rng.range(20.0, 70.0));
        }
    }
    normalize(&mut out);
    out
}

/// Length of the crickets loop, seconds; every cricket's rhythm divides it.
const CRICKETS_LOOP_S: f32 = 2.0;

/// Each cricket's song pitch (Hz), chirps a second and first chirp (s): rhythms that divide
/// [`CRICKETS_LOOP_S`], so the loop has no seam.
const CRICKETS: [(f32, f32, f32); 3] =
    [(4300.0, 2.0, 0.05), (4750.0, 2.5, 0.21), (5150.0, 1.5, 0.33)];

/// Pulses in one chirp, and the pulse's length (ms): a cricket's wings rasp in short bursts.
const CRICKET_PULSES: usize = 3;
const CRICKET_PULSE_MS: f32 = 14.0;

/// Crickets at night: bursts of a high tone.
#[must_use]
pub fn crickets(seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed, "crickets");
    let len = (CRICKETS_LOOP_S * RATE) as usize;
    let mut out = vec![0.0_f32; len];
    let pulse = samples_of_ms(CRICKET_PULSE_MS);
    for (hz, per_second, first_s) in CRICKETS {
        let gain = rng.range(0.5, 1.0);
        let chirps = (CRICKETS_LOOP_S * per_second).round() as usize;
        for c in 0..chirps {
            let start = ((first_s + c as f32 / per_second) * RATE) as usize;
            for p in 0..CRICKET_PULSES {
                let at = start + p * pulse * 2;
                for (k, s) in out.iter_mut().skip(at).take(pulse).enumerate() {
                    let t = k as f32 / pulse as f32;
                    let i = (at + k) as f32;
                    *s += gain * (TAU * hz * i / RATE).sin() * (std::f32::consts::PI * t).sin();
                }
            }
        }
    }
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

    #[test]
    fn the_engine_loop_is_whole_periods_of_its_fundamental() {
        let sounds = sounds();
        let e = engine(&sounds.engine, sounds.seed);
        let period = engine_period(&sounds.engine);
        assert_eq!(e.len() % period, 0);
        assert!((engine_fundamental_hz(&sounds.engine) - sounds.engine.idle_hz).abs() < 0.5);
        // The seam: the last sample leads into the first as any sample into the next.
        let step = (e[0] - e[e.len() - 1]).abs();
        let largest = e.windows(2).map(|w| (w[1] - w[0]).abs()).fold(0.0, f32::max);
        assert!(step <= largest, "seam step {step} vs largest {largest}");
    }

    #[test]
    fn loops_are_made_the_same_every_time() {
        let sounds = sounds();
        assert_eq!(fountain(&sounds.fountain, 3), fountain(&sounds.fountain, 3));
        assert_eq!(birds(3), birds(3));
        assert_eq!(crickets(3), crickets(3));
        assert_ne!(birds(3), birds(4));
    }
}
