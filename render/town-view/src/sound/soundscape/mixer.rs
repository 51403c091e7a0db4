//! The kira side of the soundscape: the tracks and the listener.
//!
//! ```text
//! main (master volume)
//! ├── effects (effects volume)
//! │   ├── one spatial track per character (its steps), taxi (its engine), door and lift
//! │   └── blips and clicks, not placed
//! └── ambience (ambience volume)
//!     ├── the fountain, a spatial track
//!     └── birds and crickets, not placed
//! ```
//!
//! Spatial tracks are heard by one listener at the camera's eye, turned as the camera looks:
//! kira attenuates each by its distance (linearly in decibels, from full at the near distance
//! of its sound to silence at the far one) and pans it by its direction.

use std::time::Duration;

use fixstep_present::CameraDraw;
use glam::{Mat3, Quat, Vec3};
use kira::backend::Backend;
use kira::listener::ListenerHandle;
use kira::sound::PlaybackPosition;
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{
    MainTrackBuilder, SpatialTrackBuilder, SpatialTrackHandle, TrackBuilder, TrackHandle,
};
use kira::{AudioManager, AudioManagerSettings, Capacities, Decibels, Tween};

use crate::present::samples::CharacterSample;
use crate::sound::config::{Engine, Footsteps, Sounds};
use crate::sound::synth::Bank;
use fixstep_audio::SoundError;

/// kira's processing block, frames: its default. Commands (a sound started, an emitter moved)
/// are read once per render call, not per block, so this does not delay them.
const INTERNAL_BUFFER_FRAMES: usize = 128;

/// How long a volume change takes once the game runs, ms: a step in volume clicks.
const VOLUME_GLIDE_MS: u64 = 10;

/// How long an engine takes to fall silent when its taxi is no longer drawn, ms.
const ENGINE_FADE_MS: u64 = 20;

/// Where each taxi's engine loop starts, seconds per taxi index: engines that started
/// together in phase would sound as one.
const ENGINE_PHASE_S: f64 = 0.37;

/// A change that takes effect at once: the frame's drawn state, heard from its first sample.
#[must_use]
pub fn now() -> Tween {
    Tween { duration: Duration::ZERO, ..Tween::default() }
}

/// A volume fraction (0 to 1, as an amplitude) in decibels; 0 (or less, or not a number) is
/// silence.
#[must_use]
pub fn fraction_db(fraction: f32) -> Decibels {
    amplitude_db(fraction, 0.0)
}

/// `amplitude` (0 to 1) of a sound at `base_db`, in decibels.
#[must_use]
pub fn amplitude_db(amplitude: f32, base_db: f32) -> Decibels {
    if amplitude > 0.0 {
        Decibels((base_db + 20.0 * amplitude.min(1.0).log10()).max(Decibels::SILENCE.0))
    } else {
        Decibels::SILENCE
    }
}

/// A place sounds are heard from.
pub struct Emitter {
    track: SpatialTrackHandle,
}

impl Emitter {
    /// Moves it to `at`, at once.
    pub fn place(&mut self, at: Vec3) {
        self.track.set_position(at, now());
    }

    /// Plays `sound` from it, now. A sound the mixer has no room for is not heard.
    pub fn play(&mut self, sound: StaticSoundData) {
        let _ = self.track.play(sound);
    }
}

/// A character's emitter and what its steps are measured from.
pub struct CharacterVoice {
    /// The generation of its id.
    pub generation: u32,
    /// Where its steps sound.
    pub emitter: Emitter,
    /// Its last drawing.
    pub last: CharacterSample,
    /// The frame it was last drawn on.
    pub seen: u64,
}

/// A taxi's emitter and engine.
pub struct TaxiVoice {
    /// Where its engine sounds.
    pub emitter: Emitter,
    /// The engine loop.
    pub engine: StaticSoundHandle,
    /// The frame it was last drawn on.
    pub seen: u64,
}

impl Drop for TaxiVoice {
    fn drop(&mut self) {
        // The loop never ends by itself; stopped, it lets its track go.
        self.engine
            .stop(Tween { duration: Duration::from_millis(ENGINE_FADE_MS), ..Tween::default() });
    }
}

/// The manager, its tracks and its listener.
pub struct Mixer<B: Backend> {
    /// kira's manager, which owns the backend.
    pub manager: AudioManager<B>,
    listener: ListenerHandle,
    effects: TrackHandle,
    ambience: TrackHandle,
    birds: Option<StaticSoundHandle>,
    crickets: Option<StaticSoundHandle>,
    /// The fountain's emitter and loop, kept so they play on.
    fountain: Option<(Emitter, StaticSoundHandle)>,
}

/// A kira error that means the mixer has no room (a track, a listener or a sound too many).
fn full(e: impl std::error::Error + Send + Sync + 'static) -> SoundError {
    SoundError::MixerFull(Box::new(e))
}

impl<B: Backend<Error = SoundError>> Mixer<B> {
    /// Starts backend `B` with `settings`, and the tracks on it.
    pub fn new(settings: B::Settings) -> Result<Self, SoundError> {
        let mut manager = AudioManager::<B>::new(AudioManagerSettings {
            capacities: Capacities::default(),
            // Silent until the first frame sets the volumes: a track starts at its builder's
            // volume, and a change glides over kira's first block, so starting at full volume
            // would leak that block's sound at a volume of zero.
            main_track_builder: MainTrackBuilder::new().volume(Decibels::SILENCE),
            internal_buffer_size: INTERNAL_BUFFER_FRAMES,
            backend_settings: settings,
        })?;
        let listener = manager.add_listener(Vec3::ZERO, Quat::IDENTITY).map_err(full)?;
        let effects =
            manager.add_sub_track(TrackBuilder::new().volume(Decibels::SILENCE)).map_err(full)?;
        let ambience =
            manager.add_sub_track(TrackBuilder::new().volume(Decibels::SILENCE)).map_err(full)?;
        Ok(Self {
            manager,
            listener,
            effects,
            ambience,
            birds: None,
            crickets: None,
            fountain: None,
        })
    }

    /// Starts the loops that always play: the birds and crickets (silent until the first
    /// frame's time of day), and the fountain at `fountain`, if the level has one.
    pub fn start_ambience(
        &mut self,
        bank: &Bank,
        sounds: &Sounds,
        fountain: Option<Vec3>,
    ) -> Result<(), SoundError> {
        self.birds = Some(self.ambience.play(bank.birds.volume(Decibels::SILENCE)).map_err(full)?);
        self.crickets =
            Some(self.ambience.play(bank.crickets.volume(Decibels::SILENCE)).map_err(full)?);
        if let Some(at) = fountain {
            let builder = SpatialTrackBuilder::new().distances(sounds.fountain.distances_m);
            let track =
                self.ambience.add_spatial_sub_track(&self.listener, at, builder).map_err(full)?;
            let mut emitter = Emitter { track };
            let water = emitter.track.play(bank.fountain.clone()).map_err(full)?;
            emitter.place(at);
            self.fountain = Some((emitter, water));
        }
        Ok(())
    }

    /// Puts the listener at the camera's eye, looking where it looks.
    pub fn listen_from(&mut self, camera: &CameraDraw) {
        let forward = (camera.target - camera.eye).normalize_or(Vec3::NEG_Z);
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        // kira's listener, as glam's cameras, looks along its -z with +x to its right.
        let turned = Quat::from_mat3(&Mat3::from_cols(right, up, -forward));
        self.listener.set_position(camera.eye, now());
        self.listener.set_orientation(turned, now());
    }

    /// Sets the three volumes (fractions, as amplitudes), at once or `soon`, over
    /// 10 ms.
    pub fn set_volumes(&mut self, master: f32, effects: f32, ambience: f32, soon: bool) {
        let tween = if soon {
            Tween { duration: Duration::from_millis(VOLUME_GLIDE_MS), ..Tween::default() }
        } else {
            now()
        };
        self.manager.main_track().set_volume(fraction_db(master), tween);
        self.effects.set_volume(fraction_db(effects), tween);
        self.ambience.set_volume(fraction_db(ambience), tween);
    }

    /// Sets the birds' and crickets' volumes.
    pub fn set_daylight(&mut self, birds: Decibels, crickets: Decibels) {
        let glide = Tween::default();
        if let Some(b) = self.birds.as_mut() {
            b.set_volume(birds, glide);
        }
        if let Some(c) = self.crickets.as_mut() {
            c.set_volume(crickets, glide);
        }
    }

    /// Plays `sound` on the effects track, not placed: blips, clicks.
    pub fn play_effect(&mut self, sound: StaticSoundData) {
        let _ = self.effects.play(sound);
    }

    /// An emitter on the effects track at `at`, heard from `distances` (near, far) metres.
    /// One that `persists` lets its sounds finish after it is dropped.
    pub fn emitter(
        &mut self,
        at: Vec3,
        distances: (f32, f32),
        persists: bool,
    ) -> Result<Emitter, SoundError> {
        let builder =
            SpatialTrackBuilder::new().distances(distances).persist_until_sounds_finish(persists);
        let track =
            self.effects.add_spatial_sub_track(&self.listener, at, builder).map_err(full)?;
        Ok(Emitter { track })
    }

    /// A character's voice, first drawn as `sample`.
    pub fn character(
        &mut self,
        generation: u32,
        sample: CharacterSample,
        footsteps: &Footsteps,
    ) -> Result<CharacterVoice, SoundError> {
        let emitter = self.emitter(sample.pos, footsteps.distances_m, true)?;
        Ok(CharacterVoice { generation, emitter, last: sample, seen: 0 })
    }

    /// Taxi `index`'s voice at `at`, its engine running.
    pub fn taxi(
        &mut self,
        index: usize,
        at: Vec3,
        bank: &Bank,
        engine: &Engine,
    ) -> Result<TaxiVoice, SoundError> {
        let mut emitter = self.emitter(at, engine.distances_m, true)?;
        let loop_s = bank.engine.duration().as_secs_f64();
        let phase = (index as f64 * ENGINE_PHASE_S) % loop_s.max(f64::MIN_POSITIVE);
        let sound = bank.engine.start_position(PlaybackPosition::Seconds(phase));
        let engine = emitter.track.play(sound).map_err(full)?;
        emitter.place(at);
        Ok(TaxiVoice { emitter, engine, seen: 0 })
    }
}
