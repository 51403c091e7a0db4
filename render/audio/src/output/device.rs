//! The sound card: a kira backend whose thread pulls blocks of the mix from kira's renderer
//! and writes them to an ALSA device.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kira::backend::{Backend, Renderer};

#[cfg(target_os = "linux")]
use super::alsa::Pcm;
#[cfg(not(target_os = "linux"))]
use super::elsewhere::Pcm;
use crate::SAMPLE_RATE_HZ;
use crate::error::SoundError;

/// The environment variable that names the ALSA device to play on: `default` when unset,
/// `null` for ALSA's device that takes samples and plays nothing (the audio thread then runs
/// as it would with a sound card, to measure it), `off` for no sound at all.
pub const DEVICE_ENV: &str = "FIXSTEP_AUDIO_DEVICE";

/// The device name that turns the sound off.
pub const DEVICE_OFF: &str = "off";

/// How much sound is buffered ahead of the speaker, µs: 40 ms covers a frame of a 30 Hz game
/// that stalls, while a step still sounds with the frame that drew it to the ear.
pub const LATENCY_US: u32 = 40_000;

/// Frames the audio thread renders and writes at a time: 256 at 48 kHz is 5.3 ms, so a sound
/// started by the game waits at most that long for the renderer to read it.
pub const BLOCK_FRAMES: usize = 256;

/// Which device plays the sound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceSettings {
    /// An ALSA device name, or [`DEVICE_OFF`].
    pub device: String,
}

impl Default for DeviceSettings {
    fn default() -> Self {
        Self { device: "default".into() }
    }
}

impl DeviceSettings {
    /// The device [`DEVICE_ENV`] names, or the system's default.
    #[must_use]
    pub fn from_env() -> Self {
        match std::env::var(DEVICE_ENV) {
            Ok(device) if !device.trim().is_empty() => Self { device: device.trim().into() },
            _ => Self::default(),
        }
    }

    /// The ALSA device `name`.
    #[must_use]
    pub fn named(name: &str) -> Self {
        Self { device: name.into() }
    }
}

/// How busy the audio thread has been.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AudioLoad {
    /// Seconds of sound rendered.
    pub rendered_s: f64,
    /// Seconds spent rendering them.
    pub busy_s: f64,
}

impl AudioLoad {
    /// The share of one core the mixing takes: time spent over time rendered.
    #[must_use]
    pub fn share(&self) -> f64 {
        if self.rendered_s > 0.0 { self.busy_s / self.rendered_s } else { 0.0 }
    }
}

/// What the audio thread counts, shared with the game.
#[derive(Debug, Default)]
struct Counters {
    frames: AtomicU64,
    busy_ns: AtomicU64,
}

/// Plays the mix on an ALSA device, from a thread of its own.
pub struct DeviceBackend {
    /// The device, until the thread takes it.
    pcm: Option<Pcm>,
    device: String,
    thread: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    counters: Arc<Counters>,
}

impl std::fmt::Debug for DeviceBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceBackend")
            .field("device", &self.device)
            .field("playing", &self.thread.is_some())
            .finish_non_exhaustive()
    }
}

impl DeviceBackend {
    /// The device played on.
    #[must_use]
    pub fn device(&self) -> &str {
        &self.device
    }

    /// How busy the audio thread has been so far.
    #[must_use]
    pub fn load(&self) -> AudioLoad {
        let frames = self.counters.frames.load(Ordering::Relaxed);
        let busy = self.counters.busy_ns.load(Ordering::Relaxed);
        AudioLoad {
            rendered_s: frames as f64 / f64::from(SAMPLE_RATE_HZ),
            busy_s: busy as f64 / 1e9,
        }
    }
}

impl Backend for DeviceBackend {
    type Settings = DeviceSettings;
    type Error = SoundError;

    fn setup(
        settings: DeviceSettings,
        _internal_buffer_size: usize,
    ) -> Result<(Self, u32), SoundError> {
        if settings.device == DEVICE_OFF {
            return Err(SoundError::TurnedOff(format!("{DEVICE_ENV}={DEVICE_OFF}")));
        }
        let pcm = Pcm::open(&settings.device, SAMPLE_RATE_HZ, LATENCY_US)?;
        let backend = Self {
            pcm: Some(pcm),
            device: settings.device,
            thread: None,
            stop: Arc::new(AtomicBool::new(false)),
            counters: Arc::default(),
        };
        Ok((backend, SAMPLE_RATE_HZ))
    }

    fn start(&mut self, renderer: Renderer) -> Result<(), SoundError> {
        let Some(pcm) = self.pcm.take() else { return Ok(()) };
        let stop = Arc::clone(&self.stop);
        let counters = Arc::clone(&self.counters);
        let thread = std::thread::Builder::new()
            .name("fixstep-audio".into())
            .spawn(move || play(pcm, renderer, &stop, &counters))
            .map_err(|e| SoundError::NoDevice(format!("no audio thread: {e}")))?;
        self.thread = Some(thread);
        Ok(())
    }
}

impl Drop for DeviceBackend {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            // A write returns within a block, so the thread ends promptly; a panic in it has
            // already been printed, and the game goes on.
            let _ = thread.join();
        }
    }
}

/// The audio thread: renders a block, writes it (waiting while the device is full), until
/// told to stop or the device fails.
fn play(mut pcm: Pcm, mut renderer: Renderer, stop: &AtomicBool, counters: &Counters) {
    pcm.quiet_this_thread();
    let mut block = vec![0.0_f32; BLOCK_FRAMES * 2];
    let started = Instant::now();
    let mut written: u64 = 0;
    let latency = Duration::from_micros(u64::from(LATENCY_US));
    while !stop.load(Ordering::Relaxed) {
        let busy = Instant::now();
        renderer.on_start_processing();
        renderer.process(&mut block, 2);
        let busy_ns = u64::try_from(busy.elapsed().as_nanos()).unwrap_or(u64::MAX);
        counters.busy_ns.fetch_add(busy_ns, Ordering::Relaxed);
        if let Err(why) = pcm.write(&block) {
            report_off_once(&SoundError::NoDevice(format!("ALSA: the device failed: {why}")));
            return;
        }
        written += BLOCK_FRAMES as u64;
        counters.frames.store(written, Ordering::Relaxed);
        // A device that takes samples faster than it plays them (ALSA's null device plays
        // none) would let this loop race ahead; keep at most the latency ahead of real time.
        let due = Duration::from_secs_f64(written as f64 / f64::from(SAMPLE_RATE_HZ));
        if let Some(ahead) = due.checked_sub(started.elapsed())
            && ahead > latency
        {
            std::thread::sleep(ahead - latency);
        }
    }
}

/// Whether the game has said why it is silent.
static SAID_OFF: AtomicBool = AtomicBool::new(false);

/// Says in one log line why the game has no sound (`sound: off: …`), the first time
/// only: a game that opens its sound again (a new match, after a failed device) does not
/// repeat it. Returns whether it said it now.
pub fn report_off_once(why: &SoundError) -> bool {
    let first = !SAID_OFF.swap(true, Ordering::Relaxed);
    if first {
        tracing::warn!("sound: off: {why}");
    }
    first
}
