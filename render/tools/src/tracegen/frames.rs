//! When the client draws its frames.

use super::rng::Rng;

/// Microseconds in a second.
const MICROS_PER_S: f64 = 1_000_000.0;

/// Microseconds in a millisecond.
const MICROS_PER_MS: f64 = 1000.0;

/// How the client's frames are paced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FrameSpec {
    /// Exactly `hz` frames a second.
    Fixed {
        /// Frames a second.
        hz: f64,
    },
    /// Locked to a display's vsync at `hz`: every frame lasts a whole number of refreshes,
    /// usually one, and with probability `miss_chance` it misses one or more (up to
    /// `max_missed`).
    Vsync {
        /// The display's refresh rate, Hz.
        hz: f64,
        /// The chance that a frame misses its vsync.
        miss_chance: f64,
        /// The most vsyncs one frame misses.
        max_missed: u32,
    },
    /// Mostly `hz`, but with probability `hitch_chance` a frame takes `min_ms` to `max_ms`
    /// (a shader compiled, a file loaded, the collector ran).
    Hitching {
        /// The usual rate, Hz.
        hz: f64,
        /// The chance that a frame hitches.
        hitch_chance: f64,
        /// The shortest hitch, ms.
        min_ms: f64,
        /// The longest hitch, ms.
        max_ms: f64,
    },
    /// Every frame lasts a random `min_ms` to `max_ms`: a busy machine.
    Uneven {
        /// The shortest frame, ms.
        min_ms: f64,
        /// The longest frame, ms.
        max_ms: f64,
    },
}

/// A time in microseconds, rounded to a whole one.
fn whole(us: f64) -> i64 {
    // Frame times are under an hour, far inside an i64 of microseconds.
    us.round() as i64
}

/// The frames' times from client time 0 up to `end_us`, in microseconds, strictly
/// increasing.
#[must_use]
pub fn frame_times(spec: FrameSpec, end_us: i64, rng: &mut Rng) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    // Frames are counted (a refresh grid) or their times summed in f64 and rounded once each,
    // so no rounding builds up over thousands of frames.
    let mut refreshes = 0_u32;
    let mut at = 0.0_f64;
    loop {
        let at_us = match spec {
            FrameSpec::Fixed { hz } | FrameSpec::Vsync { hz, .. } => {
                whole(f64::from(refreshes) * MICROS_PER_S / hz)
            }
            FrameSpec::Hitching { .. } | FrameSpec::Uneven { .. } => whole(at),
        };
        if at_us > end_us {
            return out;
        }
        if out.last().is_none_or(|&last| at_us > last) {
            out.push(at_us);
        }
        match spec {
            FrameSpec::Fixed { .. } => refreshes += 1,
            FrameSpec::Vsync { miss_chance, max_missed, .. } => {
                refreshes += 1;
                if rng.chance(miss_chance) {
                    refreshes += rng.range_u32(1, max_missed);
                }
            }
            FrameSpec::Hitching { hz, hitch_chance, min_ms, max_ms } => {
                at += if rng.chance(hitch_chance) {
                    rng.range(min_ms, max_ms) * MICROS_PER_MS
                } else {
                    MICROS_PER_S / hz
                };
            }
            FrameSpec::Uneven { min_ms, max_ms } => at += rng.range(min_ms, max_ms) * MICROS_PER_MS,
        }
    }
}
