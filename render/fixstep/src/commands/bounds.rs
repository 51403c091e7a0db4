//! The upper limits of the options that multiply what a command writes or holds: frames a
//! second, ticks, bots, frames, counts. Each is refused by the command line's parser, which
//! names the limit, before anything runs.

use clap::builder::{RangedU64ValueParser, TypedValueParser};

/// The most frames a second a run draws (`--fps`): beyond a thousand a frame is shorter than a
/// socket's look and than any display's refresh, and a drawn log grows by a line a frame.
pub const MAX_FPS: f64 = 1_000.0;

/// The most ticks a run counts to (`--ticks`, `--tick`): a day of 100 ms ticks. A hash log is
/// 22 bytes a tick and a truth log a line a tick, so a day of the town is a few GB at most.
pub const MAX_TICKS: u32 = 864_000;

/// The most bots a window or a sync test adds (`--bots`): as many as a host seats. A game
/// that holds fewer refuses more with its own limit named. `sim` takes as many as its game
/// holds (the town's 65,535): its tick is bounded however they crowd, and what it writes is
/// bounded by its ticks and frames.
pub const MAX_BOTS: u16 = 256;

/// The most frames a window plays before it quits (`--frames`): a day at 120 Hz, each frame a
/// line of a drawn log.
pub const MAX_PLAY_FRAMES: u64 = 10_000_000;

/// The most frames a screenshot benchmark times (`--bench-frames`): each is two samples kept
/// for the percentiles; a hundred thousand is minutes of frames.
pub const MAX_BENCH_FRAMES: u64 = 100_000;

/// The most characters a screenshot benchmark adds (`--extra-characters`): the stress
/// level's crowd.
pub const MAX_EXTRA_CHARACTERS: u64 = 10_000;

/// The most worst entities `judder` lists and plots (`--worst`): a line and a chart each.
pub const MAX_WORST: u64 = 100;

/// The longest a load test measures (`--duration`), seconds: a day.
pub const MAX_LOADTEST_SECONDS: u32 = 86_400;

/// The longest delay and jitter `netem` adds (`--delay`, `--jitter`), milliseconds: every
/// datagram is held that long, so ten seconds of a flood is the most it keeps.
pub const MAX_NETEM_DELAY_MS: u32 = 10_000;

/// The longest `lan` waits for answers (`--wait-ms`), milliseconds: a minute.
pub const MAX_LAN_WAIT_MS: u64 = 60_000;

/// Parses `--fps`: a frame rate above 0 and at most [`MAX_FPS`].
///
/// # Errors
///
/// Anything else, naming the limit.
pub fn frames_per_second(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(fps) if fps.is_finite() && fps > 0.0 && fps <= MAX_FPS => Ok(fps),
        _ => Err(format!("`{text}` is not a frame rate above 0 and at most {MAX_FPS} a second")),
    }
}

/// A parser of a `u64`-sized count from 0 to `max`, which clap's message names.
#[must_use]
pub fn up_to(max: u64) -> impl TypedValueParser<Value = usize> {
    RangedU64ValueParser::<usize>::new().range(0..=max)
}
