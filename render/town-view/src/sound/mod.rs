//! The town's sound. Nothing here reads the simulation: like the renderer, the sound hears
//! what the presentation draws, at the time it draws it. A footstep sounds on the frame whose
//! drawn animation puts the foot down, not on the tick that moved the character, so sound and
//! picture agree whatever the frame rate.
//!
//! ## Playing the town
//!
//! Load the sounds file, open the soundscape once per game, and after drawing each frame hand
//! it the frame:
//!
//! ```no_run
//! use std::sync::Arc;
//! use fixstep_audio::DeviceSettings;
//! use fixstep_town_view::sound::{Sounds, TownSoundscape};
//! use fixstep_runtime::Player;
//! use fixstep_town_view::{TownPresentation, assets};
//!
//! let root = std::path::Path::new("assets");
//! let level = Arc::new(assets::load_level_file(root, &assets::default_level(root))?);
//! let sounds = Sounds::load(root)?;
//! // The sound card named by FIXSTEP_AUDIO_DEVICE, or ALSA's default. Without one the
//! // soundscape is silent and says why, once: "sound: off: no audio device (ALSA: …)".
//! let mut sound = TownSoundscape::open(&level, &sounds, &DeviceSettings::from_env());
//! sound.set_volumes(0.8, 1.0, 0.7); // master, effects, ambience: 0 to 1
//!
//! let mut presentation = TownPresentation::new(Arc::clone(&level), Player::FIRST);
//! let dt = 1.0 / 60.0;
//! let frame = presentation.draw(0.5, dt);
//! sound.update(frame, dt); // every frame, right after drawing it
//! sound.click(); // a menu button was pressed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What is heard
//!
//! - **Footsteps** at each character, when its drawn animation frame passes a contact frame
//!   of its clip (`assets/sounds/sounds.ron` names them: walk 0 and 12, run 0 and 8);
//! - **taxi engines**, one loop each, their pitch rising with the drawn speed
//!   ([`config::Engine::rate`]);
//! - **doors and the lift**, a sound when their drawn motion starts and another when it ends;
//! - **the fountain**, a loop at its place, and **birds by day, crickets by night**,
//!   crossfaded by the drawn time of day;
//! - **dialogue blips**, one per newly shown letter of the typewriter;
//! - **menu clicks**, on [`TownSoundscape::click`].
//!
//! Every sound is made in code when the soundscape opens ([`synth`]), from the numbers and
//! seed of the sounds file: no recordings, the same samples everywhere.
//!
//! ## Listening without a sound card
//!
//! [kira](https://docs.rs/kira) mixes, into a backend of `fixstep-audio`'s: the sound card
//! (`DeviceBackend`), or a buffer rendered on demand (`OfflineBackend`), which is how the
//! tests listen to the town:
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_audio::{OfflineBackend, OfflineSettings, SAMPLE_RATE_HZ};
//! use fixstep_town_view::sound::{Sounds, TownSoundscape};
//! use fixstep_town_view::{DrawFrame, assets};
//!
//! let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let level = Arc::new(assets::load_level_file(root, &assets::default_level(root))?);
//! let sounds = Sounds::load(root)?;
//! let mut sound = TownSoundscape::<OfflineBackend>::new(&level, &sounds, OfflineSettings)?;
//! sound.update(&DrawFrame::default(), 1.0 / 60.0);
//! let mut samples = Vec::new();
//! // One 60 Hz frame is 800 stereo frames at 48 kHz; the frame's sounds start at the first.
//! sound.backend_mut().expect("sounding").render(SAMPLE_RATE_HZ as usize / 60, &mut samples);
//! assert_eq!(samples.len(), 1600);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod config;
pub mod soundscape;
pub mod synth;

pub use config::Sounds;
pub use soundscape::TownSoundscape;
