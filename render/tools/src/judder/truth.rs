//! Sampling the truth at any host time: linear between lines, stepping across a change of
//! leg, and nothing where the entity is not in the file.

use std::collections::BTreeMap;
use std::f64::consts::{PI, TAU};

use super::logs::TruthLine;

/// An entity's true state at one host time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TruthSample {
    /// Position (m).
    pub pos: [f64; 3],
    /// Heading (radians, in `[-π, π]`).
    pub yaw: f64,
    /// Speed (m/s).
    pub speed: f64,
    /// The leg this time falls in.
    pub leg: u64,
}

/// How far (ms) outside an entity's first or last line a time may be and still be read as on
/// that line: a frame's host time comes through `100 * tick` and a difference of frame times,
/// which leave rounding errors around 1e-13 ms, and a frame meant to show the first moment of
/// the truth must not be lost to them.
pub const EDGE_TOLERANCE_MS: f64 = 1e-6;

#[derive(Debug, Clone, Copy)]
struct Line {
    t_ms: f64,
    /// Index of the truth line, to tell a gap (the entity left and came back) from two
    /// neighbouring lines.
    line: usize,
    state: TruthSample,
}

#[derive(Debug, Default)]
struct Track {
    lines: Vec<Line>,
    /// Host times (ms) of the lines where the leg changed: the truth steps there.
    jumps_ms: Vec<f64>,
}

/// The truth of every entity, ready to be sampled.
#[derive(Debug, Default)]
pub struct Truth {
    tracks: BTreeMap<u64, Track>,
}

impl Truth {
    /// Splits the truth lines (in increasing `t_ms`) into one track per entity.
    #[must_use]
    pub fn new(lines: &[TruthLine]) -> Self {
        let mut tracks: BTreeMap<u64, Track> = BTreeMap::new();
        for (index, line) in lines.iter().enumerate() {
            for entity in &line.entities {
                let track = tracks.entry(entity.id).or_default();
                let state = TruthSample {
                    pos: entity.pos,
                    yaw: wrap_angle(entity.yaw),
                    speed: entity.speed,
                    leg: u64::from(entity.leg()),
                };
                if track.lines.last().is_some_and(|last| last.state.leg != state.leg) {
                    track.jumps_ms.push(line.t_ms);
                }
                track.lines.push(Line { t_ms: line.t_ms, line: index, state });
            }
        }
        Self { tracks }
    }

    /// Whether the truth has the entity at all.
    #[must_use]
    pub fn knows(&self, id: u64) -> bool {
        self.tracks.contains_key(&id)
    }

    /// The entity's state at host time `t_ms`: interpolated between the lines around it
    /// (the yaw the short way round), or the earlier line's where the leg changes between
    /// them, as the entity stays in its old place until the line that shows it in the new
    /// one. `None` outside the entity's lines or in a gap between them.
    #[must_use]
    pub fn at(&self, id: u64, t_ms: f64) -> Option<TruthSample> {
        let lines = &self.tracks.get(&id)?.lines;
        let (first, last) = (lines.first()?.t_ms, lines.last()?.t_ms);
        let t_ms = if t_ms < first && first - t_ms <= EDGE_TOLERANCE_MS {
            first
        } else if t_ms > last && t_ms - last <= EDGE_TOLERANCE_MS {
            last
        } else {
            t_ms
        };
        let after = lines.partition_point(|l| l.t_ms <= t_ms);
        let a = lines.get(after.checked_sub(1)?)?;
        if a.t_ms == t_ms {
            return Some(a.state);
        }
        let b = lines.get(after)?;
        if b.line != a.line + 1 {
            return None;
        }
        if a.state.leg != b.state.leg {
            return Some(a.state);
        }
        let f = (t_ms - a.t_ms) / (b.t_ms - a.t_ms);
        let (sa, sb) = (a.state, b.state);
        Some(TruthSample {
            pos: lerp3(sa.pos, sb.pos, f),
            yaw: wrap_angle(sa.yaw + f * wrap_angle(sb.yaw - sa.yaw)),
            speed: sa.speed + f * (sb.speed - sa.speed),
            leg: sa.leg,
        })
    }

    /// Whether the truth's own speed is zero all through `[t0_ms, t1_ms]`: on every line from
    /// the one at or before `t0_ms` to the one at or after `t1_ms`.
    #[must_use]
    pub fn still_between(&self, id: u64, t0_ms: f64, t1_ms: f64) -> bool {
        let Some(track) = self.tracks.get(&id) else { return false };
        let lines = &track.lines;
        let first = lines.partition_point(|l| l.t_ms <= t0_ms).saturating_sub(1);
        let last = lines.partition_point(|l| l.t_ms < t1_ms).min(lines.len().saturating_sub(1));
        lines.get(first..=last).is_some_and(|span| span.iter().all(|l| l.state.speed == 0.0))
    }

    /// Whether the leg changes at a time in `[t0_ms, t1_ms]`.
    #[must_use]
    pub fn jumped_between(&self, id: u64, t0_ms: f64, t1_ms: f64) -> bool {
        let Some(track) = self.tracks.get(&id) else { return false };
        let first = track.jumps_ms.partition_point(|&j| j < t0_ms);
        track.jumps_ms.get(first).is_some_and(|&j| j <= t1_ms)
    }

    /// Whether the leg changes within `window_ms` of `t_ms`, either side.
    #[must_use]
    pub fn near_jump(&self, id: u64, t_ms: f64, window_ms: f64) -> bool {
        self.jumped_between(id, t_ms - window_ms, t_ms + window_ms)
    }
}

/// `a` to `b` by `f` (0 at `a`, 1 at `b`).
#[must_use]
pub fn lerp3(a: [f64; 3], b: [f64; 3], f: f64) -> [f64; 3] {
    [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])]
}

/// An angle brought into `[-π, π]`: the shortest arc of a turn, or a heading's usual form.
#[must_use]
pub fn wrap_angle(radians: f64) -> f64 {
    let wrapped = radians - TAU * (radians / TAU).round();
    // Rounding can leave a hair past π; fold it back so callers can rely on the range.
    if wrapped > PI {
        wrapped - TAU
    } else if wrapped < -PI {
        wrapped + TAU
    } else {
        wrapped
    }
}
