//! # fixstep-audio
//!
//! Where a game's sound goes, for any game: [kira](https://docs.rs/kira) mixes, and its output
//! is a backend of this crate's ([`output`]). [`DeviceBackend`] plays on an ALSA device from its
//! own thread, opening `libasound.so.2` when the game starts, so building needs no sound
//! library; without a device a game plays on silent and says why once ([`report_off_once`]).
//! [`OfflineBackend`] renders the mix on demand, which is how tests listen to a game. What a
//! game sounds like is its own: the town's soundscape is `fixstep_town_view::sound`.
//!
//! ```
//! use fixstep_audio::{OfflineBackend, OfflineSettings, SAMPLE_RATE_HZ};
//! use kira::{AudioManager, AudioManagerSettings};
//!
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
//!     backend_settings: OfflineSettings,
//!     ..AudioManagerSettings::default()
//! })?;
//! let mut samples = Vec::new();
//! // A 60 Hz frame is 800 stereo frames at 48 kHz: silence, with nothing playing.
//! manager.backend_mut().render(SAMPLE_RATE_HZ as usize / 60, &mut samples);
//! assert_eq!(samples.len(), 1600);
//! assert!(samples.iter().all(|s| *s == 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod error;
pub mod output;

pub use error::SoundError;
pub use output::{
    AudioLoad, DeviceBackend, DeviceSettings, OfflineBackend, OfflineSettings, report_off_once,
};

/// The rate every sound is made at and every output plays at, Hz: what sound cards and
/// ALSA's default device take without resampling, and a whole number of samples in a frame
/// at 30, 60, 120 or 240 Hz (1600, 800, 400, 200).
pub const SAMPLE_RATE_HZ: u32 = 48_000;
