//! A kira backend that plays nowhere: the caller asks for the next samples of the mix, and
//! gets them at once. Tests and benchmarks hear the game through it, deterministically.

use kira::backend::{Backend, Renderer};

use crate::SAMPLE_RATE_HZ;
use crate::error::SoundError;

/// Settings of the offline output: none, it always runs at [`SAMPLE_RATE_HZ`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OfflineSettings;

/// Holds kira's renderer and renders on demand. See [`OfflineBackend::render`].
#[derive(Default)]
pub struct OfflineBackend {
    renderer: Option<Renderer>,
}

impl std::fmt::Debug for OfflineBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OfflineBackend").field("started", &self.renderer.is_some()).finish()
    }
}

impl OfflineBackend {
    /// Appends the next `frames` stereo frames of the mix to `out`, interleaved left, right.
    ///
    /// Everything sent to the mixer before this call (sounds started, positions, volumes)
    /// takes effect at the first of these frames: kira reads its commands once, when a
    /// render starts, and this is one render. A caller that renders each drawn frame's
    /// duration right after the frame's commands therefore hears each frame's sounds start
    /// exactly at the frame's first sample.
    pub fn render(&mut self, frames: usize, out: &mut Vec<f32>) {
        let start = out.len();
        out.resize(start + frames * 2, 0.0);
        if let Some(renderer) = self.renderer.as_mut() {
            renderer.on_start_processing();
            renderer.process(&mut out[start..], 2);
        }
    }
}

impl Backend for OfflineBackend {
    type Settings = OfflineSettings;
    type Error = SoundError;

    fn setup(
        _settings: OfflineSettings,
        _internal_buffer_size: usize,
    ) -> Result<(Self, u32), SoundError> {
        Ok((Self { renderer: None }, SAMPLE_RATE_HZ))
    }

    fn start(&mut self, renderer: Renderer) -> Result<(), SoundError> {
        self.renderer = Some(renderer);
        Ok(())
    }
}
