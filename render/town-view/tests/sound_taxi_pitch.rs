//! A taxi's engine rises in pitch with the taxi's drawn speed: the fundamental measured in the
//! mixed samples (by autocorrelation, in 43 ms windows) follows the documented mapping from
//! the drawn speed ([`fixstep_town_view::sound::config::Engine::rate`]).
//!
//! The town is played for 12 s (the plaza's taxi pulls away from standing to its top speed)
//! with the camera riding 5 m behind and above that taxi, so its distance and direction stay
//! the same. The other sounds are left out of what is heard: the frames keep only that taxi,
//! and the ambience volume is zero.

mod sound_common;

use fixstep_audio::SAMPLE_RATE_HZ;
use fixstep_town_view::sound::synth::loops::engine_fundamental_hz;
use glam::Vec3;
use sound_common::{EFFECTS_ONLY, Mix, WALK_AND_RUN, play_held, render, sounds, town};

/// The taxi listened to: the plaza's, which stands at first and then drives off.
const TAXI: usize = 0;

/// Samples in a measuring window: 43 ms, two periods of the lowest note and more.
const WINDOW: usize = 2048;

/// Samples between windows: 100 ms.
const HOP: usize = 4800;

/// Notes the measure looks for, Hz: below the idle note, above the top one.
const LOWEST_HZ: f32 = 35.0;
const HIGHEST_HZ: f32 = 200.0;

/// The fundamental of `x[at..at + WINDOW]`, Hz: the shortest lag whose normalised
/// autocorrelation peaks within 10 % of the best (a period, not a multiple of it), refined
/// between samples by a parabola.
fn fundamental(x: &[f32], at: usize) -> Option<f32> {
    let rate = SAMPLE_RATE_HZ as f32;
    let (min_lag, max_lag) = ((rate / HIGHEST_HZ) as usize, (rate / LOWEST_HZ) as usize);
    if at + WINDOW + max_lag + 1 >= x.len() {
        return None;
    }
    let a = &x[at..at + WINDOW];
    let energy_a: f32 = a.iter().map(|s| s * s).sum();
    let r: Vec<f32> = (min_lag - 1..=max_lag + 1)
        .map(|lag| {
            let b = &x[at + lag..at + lag + WINDOW];
            let dot: f32 = a.iter().zip(b).map(|(p, q)| p * q).sum();
            let energy_b: f32 = b.iter().map(|s| s * s).sum();
            dot / (energy_a * energy_b).sqrt().max(f32::MIN_POSITIVE)
        })
        .collect();
    let best = r.iter().copied().fold(f32::MIN, f32::max);
    let i =
        (1..r.len() - 1).find(|&i| r[i] >= 0.9 * best && r[i] >= r[i - 1] && r[i] >= r[i + 1])?;
    let (l, c, rr) = (r[i - 1], r[i], r[i + 1]);
    let shift = 0.5 * (l - rr) / (l - 2.0 * c + rr);
    let lag = (min_lag - 1 + i) as f32 + if shift.is_finite() { shift } else { 0.0 };
    Some(rate / lag)
}

/// Pearson's correlation.
fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

#[test]
fn the_engine_note_follows_the_drawn_speed() {
    let level = town();
    let sounds = sounds();
    let frames = play_held(&level, WALK_AND_RUN, 3, 12);
    let speeds: Vec<f32> = frames
        .iter()
        .map(|d| d.frame.taxis.iter().find(|t| t.index == TAXI).map_or(0.0, |t| t.sample.speed))
        .collect();
    let mix: Mix = render(&level, &sounds, EFFECTS_ONLY, &frames, |_, f| {
        f.taxis.retain(|t| t.index == TAXI);
        f.characters.clear();
        f.objects.clear();
        f.dialogue = None;
        if let Some(t) = f.taxis.first() {
            f.camera.target = t.sample.pos;
            f.camera.eye = t.sample.pos + Vec3::new(0.0, 3.0, 4.0);
        }
    });
    let x = mix.mono();
    let idle_hz = engine_fundamental_hz(&sounds.engine);
    let (mut measured, mut drawn, mut worst) = (Vec::new(), Vec::new(), 0.0_f64);
    for at in (0..x.len()).step_by(HOP).skip(1) {
        let Some(hz) = fundamental(&x, at) else { continue };
        // The drawn speed over the window: the frames shown during it, each for its share.
        let (mut sum, mut weight) = (0.0, 0.0);
        for (k, &start) in mix.starts.iter().enumerate() {
            let end = mix.starts.get(k + 1).copied().unwrap_or(x.len());
            let overlap = end.min(at + WINDOW).saturating_sub(start.max(at)) as f32;
            sum += overlap * sounds.engine.rate(speeds[k]);
            weight += overlap;
        }
        let expected_hz = idle_hz * sum / weight;
        let error = f64::from((hz - expected_hz).abs() / expected_hz);
        worst = worst.max(error);
        measured.push(f64::from(hz));
        drawn.push(f64::from(sum / weight));
    }
    let r = correlation(&measured, &drawn);
    let (lo, hi) = measured.iter().fold((f64::MAX, f64::MIN), |(l, h), &m| (l.min(m), h.max(m)));
    println!(
        "taxi pitch: {} windows, {lo:.1} to {hi:.1} Hz, correlation with the drawn speed {r:.4}, \
         worst {:.2} % from the mapping",
        measured.len(),
        worst * 100.0
    );
    assert!(hi - lo > 0.3 * f64::from(idle_hz), "the taxi hardly changed speed: {lo}..{hi} Hz");
    assert!(r > 0.9, "the note does not follow the drawn speed: r = {r}");
    assert!(worst < 0.03, "{:.2} % off the documented mapping", worst * 100.0);
}
