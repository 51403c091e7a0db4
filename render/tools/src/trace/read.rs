//! Reading a trace, one checked event at a time.

use std::collections::BTreeSet;
use std::io::BufRead;

use fixstep_runtime::file::{LineError, LineReader};

use fixstep_runtime::tick::TICK_MICROS;
use glam::Vec3;
use serde::Deserialize;

use fixstep_present::format::{
    TRACE_FORMAT, TraceEntityLine, TraceEventLine, TraceFrame, TraceHeaderLine,
};
use fixstep_present::remote::{Measurement, Motion};

use super::TraceError;
use crate::judder::json_line_error;

/// The tick length a trace must have, milliseconds: the runtime's.
pub const TRACE_TICK_MS: u64 = TICK_MICROS / 1_000;

/// The snapshot periods (tiers) a trace may give an entity, in ticks.
pub const TIERS: [u8; 3] = [1, 2, 4];

/// The longest line of a trace, bytes: a snapshot of every one of the stress level's 13,000
/// entities is about 2 MB; a line without end stops here instead of filling memory.
pub const MAX_TRACE_LINE_BYTES: usize = 4 << 20;

/// Microseconds in a millisecond.
const MICROS_PER_MS: f64 = 1_000.0;

/// The largest time a trace may give (ms): about 292 years, beyond which microseconds no
/// longer fit the clock's 64 bits.
const MAX_AT_MS: f64 = 9.2e15;

/// One entity of a snapshot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceEntity {
    /// Its id.
    pub id: u64,
    /// How it moves.
    pub motion: Motion,
    /// What was measured.
    pub measurement: Measurement,
}

/// An event of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceEvent {
    /// A snapshot arrives.
    Snapshot {
        /// The client's time, microseconds from the trace's origin (may be negative).
        at_micros: i64,
        /// The time as written, milliseconds.
        at_ms: f64,
        /// The host tick it was measured at.
        tick: u32,
        /// The entities measured.
        entities: Vec<TraceEntity>,
        /// The ids that left.
        gone: Vec<u64>,
    },
    /// A frame is drawn.
    Frame {
        /// The client's time, microseconds from the trace's origin.
        at_micros: i64,
        /// The time as written, milliseconds.
        at_ms: f64,
    },
}

/// Reads a trace's events in order, checking each line: the header first, then events with
/// non-decreasing times, each a snapshot or a frame with every number finite and every field
/// in range. The first problem ends the reading with its line number.
pub struct TraceReader<R> {
    lines: LineReader<R>,
    line: usize,
    last_at_ms: Option<f64>,
}

impl<R: BufRead> TraceReader<R> {
    /// Reads and checks the header.
    ///
    /// # Errors
    ///
    /// The input cannot be read, is empty, or its first line is not a header of format
    /// [`TRACE_FORMAT`] with 100 ms ticks.
    pub fn new(input: R) -> Result<Self, TraceError> {
        let mut reader =
            Self { lines: LineReader::new(input, MAX_TRACE_LINE_BYTES), line: 0, last_at_ms: None };
        let Some(text) = reader.next_line()? else {
            return Err(TraceError::Empty);
        };
        let header: TraceHeaderLine = parse(&text).map_err(|m| reader.error(m))?;
        if header.header.format != TRACE_FORMAT {
            return Err(reader.error(format!(
                "trace format {} is not the {TRACE_FORMAT} this build reads",
                header.header.format
            )));
        }
        #[expect(clippy::float_cmp, reason = "the tick length must be exactly 100 ms")]
        if header.header.tick_ms != TRACE_TICK_MS as f64 {
            return Err(reader.error(format!(
                "tick_ms {} is not this build's {TRACE_TICK_MS} ms tick",
                header.header.tick_ms
            )));
        }
        Ok(reader)
    }

    /// The 1-based number of the line read last.
    #[must_use]
    pub const fn line(&self) -> usize {
        self.line
    }

    fn error(&self, message: impl Into<String>) -> TraceError {
        TraceError::Line { line: self.line, message: message.into() }
    }

    fn next_line(&mut self) -> Result<Option<String>, TraceError> {
        match self.lines.next_line() {
            Ok(None) => Ok(None),
            Ok(Some(text)) => {
                self.line = self.lines.line();
                Ok(Some(text))
            }
            Err(LineError::NotText { line }) => {
                self.line = line;
                Err(self.error("not UTF-8"))
            }
            Err(LineError::TooLong { line, limit }) => {
                self.line = line;
                Err(self.error(format!("longer than {limit} bytes: not a line of a trace")))
            }
            Err(LineError::Io { source, .. }) => Err(TraceError::Io(source)),
        }
    }

    /// The next event, or `None` at the end of the trace.
    ///
    /// # Errors
    ///
    /// The input cannot be read, or the line is not a valid event.
    pub fn next_event(&mut self) -> Result<Option<TraceEvent>, TraceError> {
        let Some(text) = self.next_line()? else { return Ok(None) };
        self.event(&text).map(Some).map_err(|m| self.error(m))
    }

    fn event(&mut self, text: &str) -> Result<TraceEvent, String> {
        let line: TraceEventLine = parse(text)?;
        let at_ms = line.at_ms;
        if !at_ms.is_finite() || at_ms.abs() > MAX_AT_MS {
            return Err(format!("at_ms {at_ms} is not a time"));
        }
        if let Some(before) = self.last_at_ms
            && at_ms < before
        {
            return Err(format!("at_ms {at_ms} is before the previous event's {before}"));
        }
        self.last_at_ms = Some(at_ms);
        // Within ±MAX_AT_MS, so the microseconds fit an i64.
        let at_micros = (at_ms * MICROS_PER_MS).round() as i64;
        match (line.snapshot, line.frame) {
            (Some(snapshot), None) => {
                let mut entities = Vec::with_capacity(snapshot.entities.len());
                // A set, not a look back over the line: a line of 40,000 entities would take
                // a billion comparisons.
                let mut seen = BTreeSet::new();
                for e in &snapshot.entities {
                    if !seen.insert(e.id) {
                        return Err(format!("entity {} is measured twice", e.id));
                    }
                    entities.push(
                        entity(e, snapshot.tick).map_err(|m| format!("entity {}: {m}", e.id))?,
                    );
                }
                Ok(TraceEvent::Snapshot {
                    at_micros,
                    at_ms,
                    tick: snapshot.tick,
                    entities,
                    gone: snapshot.gone,
                })
            }
            (None, Some(TraceFrame {})) => Ok(TraceEvent::Frame { at_micros, at_ms }),
            (Some(_), Some(_)) => Err("an event is a snapshot or a frame, not both".to_owned()),
            (None, None) => Err("an event needs a snapshot or a frame".to_owned()),
        }
    }
}

fn entity(e: &TraceEntityLine, tick: u32) -> Result<TraceEntity, String> {
    let motion = match e.kind.as_str() {
        "vehicle" => Motion::Vehicle,
        "walker" => Motion::Walker,
        other => return Err(format!("kind {other:?} is neither \"vehicle\" nor \"walker\"")),
    };
    if !TIERS.contains(&e.tier) {
        return Err(format!("tier {} is not one of 1, 2 or 4", e.tier));
    }
    let pos = vector("pos", e.pos)?;
    let vel = vector("vel", e.vel)?;
    if !e.yaw.is_finite() {
        return Err("yaw is not a finite number".to_owned());
    }
    Ok(TraceEntity {
        id: e.id,
        motion,
        measurement: Measurement {
            tick,
            pos,
            vel,
            yaw: e.yaw as f32,
            at_rest: e.at_rest,
            tier: e.tier,
            jumps: e.jumps,
        },
    })
}

/// The largest coordinate or speed a trace may give, in metres or metres per second: far
/// beyond any world, and within what single-precision drawing represents to a millimetre.
const MAX_COORDINATE: f64 = 1.0e5;

fn vector(field: &str, v: [f64; 3]) -> Result<Vec3, String> {
    if v.iter().any(|x| !x.is_finite() || x.abs() > MAX_COORDINATE) {
        return Err(format!("{field} {v:?} is not a finite vector within {MAX_COORDINATE} m"));
    }
    Ok(Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32))
}

fn parse<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, String> {
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.trim().is_empty() {
        return Err("empty line".to_owned());
    }
    serde_json::from_str(text).map_err(|e| json_line_error(&e))
}
