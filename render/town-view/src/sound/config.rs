//! What `assets/sounds/sounds.ron` holds: when each sound plays and the numbers it is made
//! from. The file's comments say what each number means.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use fixstep_audio::SoundError;

/// The sounds file under the assets root.
#[must_use]
pub fn sounds_file(assets: &Path) -> PathBuf {
    assets.join("sounds").join("sounds.ron")
}

/// The whole sounds file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sounds {
    /// Where every sound's random numbers start.
    pub seed: u64,
    /// Footsteps.
    pub footsteps: Footsteps,
    /// Taxi engines.
    pub engine: Engine,
    /// Doors starting and ending a swing.
    pub doors: MotionSounds,
    /// The lift starting and ending a travel.
    pub lift: MotionSounds,
    /// The fountain.
    pub fountain: Fountain,
    /// Birds and crickets.
    pub ambience: Ambience,
    /// The dialogue typewriter.
    pub blips: Blips,
    /// Menu clicks.
    pub click: Click,
}

/// Footsteps: when a foot touches down, and the scuff it makes.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Footsteps {
    /// Animation frames where a foot touches the ground, by clip name.
    pub contacts: BTreeMap<String, Vec<f32>>,
    /// Volume of a walking step, dB.
    pub volume_db: f32,
    /// Volume of a running step, dB.
    pub run_volume_db: f32,
    /// Full volume within the first, silent at the second, metres.
    pub distances_m: (f32, f32),
    /// How many different steps are made.
    pub variants: u32,
    /// Rise to full amplitude, ms.
    pub attack_ms: f32,
    /// Time constant of the fall, ms.
    pub decay_ms: f32,
    /// Whole length, ms.
    pub length_ms: f32,
    /// Low-pass corner of the scuff's noise, Hz.
    pub lowpass_hz: f32,
    /// Pitch of the thump under it, Hz.
    pub thump_hz: f32,
}

/// A taxi's engine.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Engine {
    /// Fundamental when standing, Hz.
    pub idle_hz: f32,
    /// Harmonics in the loop.
    pub harmonics: u32,
    /// The speed at which the rate has risen by `rise_at_top`, m/s.
    pub top_speed_m_s: f32,
    /// How much the playback rate rises from standing to `top_speed_m_s`.
    pub rise_at_top: f32,
    /// Volume, dB.
    pub volume_db: f32,
    /// Full volume within the first, silent at the second, metres.
    pub distances_m: (f32, f32),
}

impl Engine {
    /// The playback rate of an engine at `speed_m_s`: 1 standing, `1 + rise_at_top` at the top
    /// speed and above.
    #[must_use]
    pub fn rate(&self, speed_m_s: f32) -> f32 {
        let share = (speed_m_s / self.top_speed_m_s).clamp(0.0, 1.0);
        if share.is_nan() { 1.0 } else { 1.0 + self.rise_at_top * share }
    }
}

/// A struck, decaying sound: a door's creak or knock, the lift's clunk.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Knock {
    /// Its lowest partial, Hz.
    pub pitch_hz: f32,
    /// Share of noise in it, 0 to 1.
    pub noise: f32,
    /// Time constant of the fall, ms.
    pub decay_ms: f32,
    /// Whole length, ms.
    pub length_ms: f32,
}

/// An object's sounds as its motion starts and ends.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MotionSounds {
    /// As it starts moving.
    pub start: Knock,
    /// As it comes to rest.
    pub end: Knock,
    /// Volume, dB.
    pub volume_db: f32,
    /// Full volume within the first, silent at the second, metres.
    pub distances_m: (f32, f32),
}

/// The fountain's water.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Fountain {
    /// The id of the level's cutscene trigger at the fountain.
    pub trigger: String,
    /// Low-pass corner, Hz.
    pub lowpass_hz: f32,
    /// High-pass corner, Hz.
    pub highpass_hz: f32,
    /// Volume, dB.
    pub volume_db: f32,
    /// Full volume within the first, silent at the second, metres.
    pub distances_m: (f32, f32),
}

/// The sounds of the time of day.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Ambience {
    /// Night turns to day between these hours.
    pub dawn_hours: (f32, f32),
    /// Day turns to night between these hours.
    pub dusk_hours: (f32, f32),
    /// Volume of the birds at full day, dB.
    pub birds_volume_db: f32,
    /// Volume of the crickets at full night, dB.
    pub crickets_volume_db: f32,
}

/// The dialogue typewriter's blips.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Blips {
    /// The lowest note, Hz.
    pub pitch_hz: f32,
    /// Notes a letter picks from.
    pub pitch_steps: u32,
    /// Between neighbouring notes, semitones.
    pub step_semitones: f32,
    /// Length of a blip, ms.
    pub length_ms: f32,
    /// Least time between two blips, ms.
    pub min_interval_ms: f32,
    /// Volume, dB.
    pub volume_db: f32,
}

impl Blips {
    /// The playback rate of the blip for `letter`: one of the notes, picked by the letter so
    /// that the same word always sounds the same.
    #[must_use]
    pub fn rate(&self, letter: char) -> f32 {
        let step = u32::from(letter) % self.pitch_steps.max(1);
        (step as f32 * self.step_semitones / 12.0).exp2()
    }
}

/// A menu click.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Click {
    /// Pitch, Hz.
    pub pitch_hz: f32,
    /// Length, ms.
    pub length_ms: f32,
    /// Volume, dB.
    pub volume_db: f32,
}

/// The sounds file: the town's is 4 kB of recipes; a thousand sounds fit in far less than
/// this.
pub const SOUNDS_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("sounds file", 1_000_000);

impl Sounds {
    /// Reads `sounds/sounds.ron` under `assets`.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, or is not a sounds file (with its line and column).
    pub fn load(assets: &Path) -> Result<Self, SoundError> {
        let path = sounds_file(assets);
        let text =
            fixstep_runtime::file::read_text(&path, SOUNDS_FILE).map_err(SoundError::Read)?;
        Self::parse(&text).map_err(|message| SoundError::Parse { path, message })
    }

    /// A sounds file's text as sounds.
    ///
    /// # Errors
    ///
    /// What is wrong, with its line and column.
    pub fn parse(text: &str) -> Result<Self, String> {
        let sounds: Self = ron::Options::default().from_str(text).map_err(|e| e.to_string())?;
        sounds.check()?;
        Ok(sounds)
    }

    /// Numbers the sounds cannot be made from.
    fn check(&self) -> Result<(), String> {
        let positive = [
            ("footsteps.attack_ms", self.footsteps.attack_ms),
            ("footsteps.decay_ms", self.footsteps.decay_ms),
            ("footsteps.length_ms", self.footsteps.length_ms),
            ("engine.idle_hz", self.engine.idle_hz),
            ("engine.top_speed_m_s", self.engine.top_speed_m_s),
            ("blips.length_ms", self.blips.length_ms),
            ("click.length_ms", self.click.length_ms),
        ];
        if let Some((name, _)) =
            positive.iter().find(|(_, v)| v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
        {
            return Err(format!("{name} must be above 0"));
        }
        let distances = [
            ("footsteps", self.footsteps.distances_m),
            ("engine", self.engine.distances_m),
            ("doors", self.doors.distances_m),
            ("lift", self.lift.distances_m),
            ("fountain", self.fountain.distances_m),
        ];
        if let Some((name, _)) =
            distances.iter().find(|(_, (near, far))| !(0.0 <= *near && near < far))
        {
            return Err(format!("{name}.distances_m must be (near, far) with 0 <= near < far"));
        }
        if self.footsteps.variants == 0 {
            return Err("footsteps.variants must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assets() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("assets")
    }

    #[test]
    fn the_town_sounds_file_loads() {
        let sounds = Sounds::load(&assets()).expect("the sounds file loads");
        assert_eq!(sounds.footsteps.contacts["walk"], [0.0, 12.0]);
        assert_eq!(sounds.footsteps.contacts["run"], [0.0, 8.0]);
    }

    #[test]
    fn the_engine_rises_by_the_documented_mapping() {
        let sounds = Sounds::load(&assets()).expect("the sounds file loads");
        let e = &sounds.engine;
        assert!((e.rate(0.0) - 1.0).abs() < 1e-6);
        assert!((e.rate(e.top_speed_m_s) - (1.0 + e.rise_at_top)).abs() < 1e-6);
        assert!((e.rate(e.top_speed_m_s / 2.0) - (1.0 + e.rise_at_top / 2.0)).abs() < 1e-6);
        assert!((e.rate(f32::NAN) - 1.0).abs() < 1e-6, "a speed that is not a number idles");
    }

    #[test]
    fn a_broken_file_is_named_with_its_problem() {
        let text = std::fs::read_to_string(sounds_file(&assets())).expect("read");
        let broken = text.replace("idle_hz: 48.0", "idle_hz: 0.0");
        assert_eq!(Sounds::parse(&broken), Err("engine.idle_hz must be above 0".into()));
        let err = Sounds::parse("(seed: 1)").expect_err("incomplete");
        assert!(err.contains("1:"), "names where: {err}");
    }
}
