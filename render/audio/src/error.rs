//! Why there is no sound.

use std::path::PathBuf;

/// Why a game's sounds cannot be loaded or played. A game that meets one plays on, silent, as
/// the town's soundscape does.
#[derive(Debug, thiserror::Error)]
pub enum SoundError {
    /// The sounds file cannot be read, is not a file, or is over its limit.
    #[error(transparent)]
    Read(fixstep_runtime::file::ReadError),
    /// The sounds file is not one.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line and column.
        message: String,
    },
    /// The system's sound library is not there.
    #[error("no sound library ({0})")]
    NoLibrary(String),
    /// The sound library is there but the device does not open.
    #[error("no audio device ({0})")]
    NoDevice(String),
    /// This platform has no output yet.
    #[error("no audio output on this platform yet")]
    Unsupported,
    /// The player turned the sound off with the device setting.
    #[error("turned off ({0})")]
    TurnedOff(String),
    /// The mixer has no room for another track or listener.
    #[error("the mixer is full ({0})")]
    MixerFull(#[source] Box<dyn std::error::Error + Send + Sync>),
}
