//! Every sound of the town, made from the numbers of the sounds file when the game starts:
//! struck and scuffed sounds ([`shots`]) and loops ([`loops`]). Each takes its random numbers
//! from its own seeded generator, so the samples are the same on every run and machine.

pub mod loops;
pub mod shots;

use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use kira::{Decibels, Frame};

use crate::sound::config::Sounds;
use fixstep_audio::SAMPLE_RATE_HZ;

/// [`SAMPLE_RATE_HZ`] as a float, for the synthesis' arithmetic.
const RATE: f32 = SAMPLE_RATE_HZ as f32;

/// Loudest sample a sound is made with: below full scale, so that a few sounds at once
/// rarely reach the output's clipping.
const PEAK: f32 = 0.8;

/// SplitMix64: small, fast, and the same numbers everywhere from the same seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for the sound named `name`, from the file's `seed`: each sound its own
    /// numbers, so changing one sound leaves the others as they were.
    #[must_use]
    pub fn new(seed: u64, name: &str) -> Self {
        // FNV-1a of the name: stable across Rust versions, unlike the std hasher.
        let name_hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        Self(seed ^ name_hash)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        // The top 24 bits: exactly representable.
        (self.next_u64() >> 40) as f32 / (1_u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// White noise in [-1, 1).
    pub fn noise(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }
}

/// The multiplier of a one-pole low-pass filter with its corner at `corner_hz`.
#[must_use]
pub fn one_pole(corner_hz: f32) -> f32 {
    1.0 - (-std::f32::consts::TAU * corner_hz / RATE).exp()
}

/// Samples in `ms` milliseconds, at least one.
#[must_use]
pub fn samples_of_ms(ms: f32) -> usize {
    ((ms * RATE / 1000.0).round() as usize).max(1)
}

/// Scales `samples` so their loudest is 0.8 of full scale.
pub fn normalize(samples: &mut [f32]) {
    let peak = samples.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
    if peak > 0.0 {
        samples.iter_mut().for_each(|s| *s *= PEAK / peak);
    }
}

/// Mono samples as a sound kira plays, at `volume_db`.
#[must_use]
pub fn sound_data(samples: &[f32], volume_db: f32) -> StaticSoundData {
    let frames: Arc<[Frame]> = samples.iter().map(|&s| Frame::from_mono(s)).collect();
    StaticSoundData {
        sample_rate: SAMPLE_RATE_HZ,
        frames,
        settings: Default::default(),
        slice: None,
    }
    .volume(Decibels(volume_db))
}

/// Every sound of the town, made once.
#[derive(Clone, Debug)]
pub struct Bank {
    /// Footsteps, a few variants.
    pub footsteps: Vec<StaticSoundData>,
    /// The engine loop.
    pub engine: StaticSoundData,
    /// A door starting to swing.
    pub door_start: StaticSoundData,
    /// A door coming to rest.
    pub door_end: StaticSoundData,
    /// The lift starting.
    pub lift_start: StaticSoundData,
    /// The lift stopping.
    pub lift_end: StaticSoundData,
    /// The fountain loop.
    pub fountain: StaticSoundData,
    /// The birds loop.
    pub birds: StaticSoundData,
    /// The crickets loop.
    pub crickets: StaticSoundData,
    /// A dialogue blip.
    pub blip: StaticSoundData,
    /// A menu click.
    pub click: StaticSoundData,
}

impl Bank {
    /// Makes every sound of `sounds`. Volumes that depend on the moment (a running step, the
    /// time of day) are set when they play; the rest are in the sounds.
    #[must_use]
    pub fn make(sounds: &Sounds) -> Self {
        let seed = sounds.seed;
        let doors = &sounds.doors;
        let lift = &sounds.lift;
        Self {
            footsteps: (0..sounds.footsteps.variants)
                .map(|v| sound_data(&shots::footstep(&sounds.footsteps, seed, v), 0.0))
                .collect(),
            engine: sound_data(&loops::engine(&sounds.engine, seed), sounds.engine.volume_db)
                .loop_region(..),
            door_start: sound_data(
                &shots::knock(&doors.start, seed, "door start"),
                doors.volume_db,
            ),
            door_end: sound_data(&shots::knock(&doors.end, seed, "door end"), doors.volume_db),
            lift_start: sound_data(&shots::knock(&lift.start, seed, "lift start"), lift.volume_db),
            lift_end: sound_data(&shots::knock(&lift.end, seed, "lift end"), lift.volume_db),
            fountain: sound_data(
                &loops::fountain(&sounds.fountain, seed),
                sounds.fountain.volume_db,
            )
            .loop_region(..),
            birds: sound_data(&loops::birds(seed), 0.0).loop_region(..),
            crickets: sound_data(&loops::crickets(seed), 0.0).loop_region(..),
            blip: sound_data(&shots::blip(&sounds.blips), sounds.blips.volume_db),
            click: sound_data(&shots::click(&sounds.click, seed), sounds.click.volume_db),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_makes_the_same_numbers_and_names_differ() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7, "a").next_u64()).collect();
        let mut r = Rng::new(7, "a");
        let b: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
        assert_eq!(a[0], b[0]);
        assert_ne!(Rng::new(7, "a").next_u64(), Rng::new(7, "b").next_u64());
        let mut r = Rng::new(1, "unit");
        assert!((0..10_000).map(|_| r.unit()).all(|u| (0.0..1.0).contains(&u)));
    }
}
