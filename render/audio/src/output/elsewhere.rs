//! The stand-in for a sound card on platforms the game has no output for yet: it never
//! opens, so the game runs silent and says why.

use std::convert::Infallible;

use crate::error::SoundError;

/// A device that cannot be opened.
pub struct Pcm(Infallible);

impl Pcm {
    /// Never opens.
    pub fn open(_device: &str, _rate: u32, _latency_us: u32) -> Result<Self, SoundError> {
        Err(SoundError::Unsupported)
    }

    /// Never called: there is no open device.
    pub fn quiet_this_thread(&self) {
        match self.0 {}
    }

    /// Never called: there is no open device.
    pub fn write(&mut self, _interleaved: &[f32]) -> Result<(), String> {
        match self.0 {}
    }
}
