//! Reading and writing the JSON Lines files `fixstep judder` measures (declared in
//! `fixstep_present::format`): drawn logs, truth files, and the entity kinds of a trace.
//! Every reading error names the file, the line and what is wrong with it; nothing here
//! panics on bad input.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use fixstep_present::format::TraceSnapshot;
pub use fixstep_present::format::{DrawnEntity, DrawnFrame, TruthEntity, TruthLine};
use serde::de::DeserializeOwned;
use serde::{Deserialize as _, Serialize};

use crate::ToolError;

/// What a check of one line found wrong.
type LineResult = Result<(), String>;

/// Reads a drawn log and checks it: strictly increasing `at_ms`, finite numbers, each entity
/// at most once a frame, a positive clip length.
///
/// # Errors
///
/// The file cannot be read, is empty, or a line is not a valid drawn frame; the error names
/// the file and the line.
pub fn read_drawn_log(path: &Path) -> Result<Vec<DrawnFrame>, ToolError> {
    let mut previous: Option<f64> = None;
    let frames = read_jsonl(path, "drawn log", |frame: &DrawnFrame| {
        finite("at_ms", frame.at_ms)?;
        finite("render_tick", frame.render_tick)?;
        if let Some(before) = previous
            && frame.at_ms <= before
        {
            return Err(format!("at_ms {} is not after the previous line's {before}", frame.at_ms));
        }
        previous = Some(frame.at_ms);
        let mut seen = HashSet::new();
        for entity in &frame.entities {
            let id = entity.id;
            if !seen.insert(id) {
                return Err(format!("entity {id} is drawn twice"));
            }
            finite_in(id, "tick", entity.tick)?;
            for value in entity.pos {
                finite_in(id, "pos", value)?;
            }
            finite_in(id, "yaw", entity.yaw)?;
            finite_in(id, "speed", entity.speed)?;
            if let Some(frame) = entity.frame {
                finite_in(id, "frame", frame)?;
            }
            if let Some(frames) = entity.frames
                && !(frames.is_finite() && frames > 0.0)
            {
                return Err(format!("entity {id}: frames {frames} is not a positive frame count"));
            }
        }
        Ok(())
    })?;
    if frames.is_empty() {
        return Err(ToolError::Empty {
            what: "drawn log",
            path: path.to_path_buf(),
            message: "no frames",
        });
    }
    Ok(frames)
}

/// Reads a truth file and checks it: strictly increasing `t_ms`, finite numbers, each entity
/// at most once a line.
///
/// # Errors
///
/// The file cannot be read, is empty, or a line is not a valid truth line; the error names
/// the file and the line.
pub fn read_truth(path: &Path) -> Result<Vec<TruthLine>, ToolError> {
    let mut previous: Option<f64> = None;
    let lines = read_jsonl(path, "truth", |line: &TruthLine| {
        finite("t_ms", line.t_ms)?;
        if let Some(before) = previous
            && line.t_ms <= before
        {
            return Err(format!("t_ms {} is not after the previous line's {before}", line.t_ms));
        }
        previous = Some(line.t_ms);
        let mut seen = HashSet::new();
        for entity in &line.entities {
            let id = entity.id;
            if !seen.insert(id) {
                return Err(format!("entity {id} is listed twice"));
            }
            for value in entity.pos {
                finite_in(id, "pos", value)?;
            }
            finite_in(id, "yaw", entity.yaw)?;
            finite_in(id, "speed", entity.speed)?;
        }
        Ok(())
    })?;
    if lines.is_empty() {
        return Err(ToolError::Empty {
            what: "truth",
            path: path.to_path_buf(),
            message: "no lines",
        });
    }
    Ok(lines)
}

/// What a trace tells of its entities: their kinds, and the spans of host ticks in which each
/// was known (from a measurement to its being gone).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceEntities {
    /// Each id's kind (`"vehicle"`, `"walker"`), as it was first sent.
    pub kinds: BTreeMap<u64, String>,
    /// Each id's lives, in order: the tick of the first measurement of the life, and the tick
    /// from which it was gone (`None` while it lasts to the end).
    pub lives: BTreeMap<u64, Vec<(u32, Option<u32>)>>,
}

impl TraceEntities {
    /// Whether the trace had measured entity `id` by host tick `tick` in a life still going
    /// on then: a client that draws it at `tick` otherwise draws it before its first
    /// measurement (or after it was gone). Ids the trace never names are not judged.
    #[must_use]
    pub fn known_at(&self, id: u64, tick: f64) -> bool {
        let Some(lives) = self.lives.get(&id) else { return true };
        lives.iter().any(|&(start, gone)| {
            tick >= f64::from(start) && gone.is_none_or(|g| tick < f64::from(g))
        })
    }
}

/// Reads the entity kinds and lives from a trace's snapshots (every other line is passed
/// over).
///
/// # Errors
///
/// The file cannot be read, or a line is not JSON or has a snapshot that is not one; the
/// error names the file and the line.
pub fn read_trace_entities(path: &Path) -> Result<TraceEntities, ToolError> {
    let mut info = TraceEntities::default();
    read_jsonl(path, "trace", |line: &serde_json::Value| {
        let Some(snapshot) = line.get("snapshot") else { return Ok(()) };
        let snapshot = TraceSnapshot::deserialize(snapshot).map_err(|e| e.to_string())?;
        for entity in &snapshot.entities {
            info.kinds.entry(entity.id).or_insert_with(|| entity.kind.clone());
            let lives = info.lives.entry(entity.id).or_default();
            if lives.last().is_none_or(|&(_, gone)| gone.is_some()) {
                lives.push((snapshot.tick, None));
            }
        }
        for id in &snapshot.gone {
            if let Some((_, gone @ None)) = info.lives.get_mut(id).and_then(|l| l.last_mut()) {
                *gone = Some(snapshot.tick);
            }
        }
        Ok(())
    })?;
    Ok(info)
}

/// Writes a drawn log, one frame a line.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_drawn_log(path: &Path, frames: &[DrawnFrame]) -> Result<(), ToolError> {
    write_jsonl(path, frames).map_err(|source| ToolError::Write {
        what: "drawn log",
        path: path.to_path_buf(),
        source,
    })
}

/// Writes a truth file, one line per moment.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_truth(path: &Path, lines: &[TruthLine]) -> Result<(), ToolError> {
    write_jsonl(path, lines).map_err(|source| ToolError::Write {
        what: "truth",
        path: path.to_path_buf(),
        source,
    })
}

fn write_jsonl<T: Serialize>(path: &Path, items: &[T]) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    for item in items {
        serde_json::to_writer(&mut out, item).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Parses every line of a JSON Lines file as a `T` and hands it to `check`; the first
/// problem is returned with the file (called `what`) and the 1-based line number.
fn read_jsonl<T, F>(path: &Path, what: &'static str, mut check: F) -> Result<Vec<T>, ToolError>
where
    T: DeserializeOwned,
    F: FnMut(&T) -> LineResult,
{
    let bytes = std::fs::read(path).map_err(|source| ToolError::Read {
        what,
        path: path.to_path_buf(),
        source,
    })?;
    let mut items = Vec::new();
    let mut lines = bytes.split(|&b| b == b'\n').enumerate().peekable();
    while let Some((index, raw)) = lines.next() {
        // The final `\n` leaves an empty piece after it that is not a line.
        if raw.is_empty() && lines.peek().is_none() {
            break;
        }
        let fail = |message: String| ToolError::Line {
            what,
            path: path.to_path_buf(),
            line: index + 1,
            message,
        };
        let item = parse_line::<T>(raw).map_err(fail)?;
        check(&item).map_err(fail)?;
        items.push(item);
    }
    Ok(items)
}

fn parse_line<T: DeserializeOwned>(raw: &[u8]) -> Result<T, String> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let text = std::str::from_utf8(raw).map_err(|e| format!("not UTF-8 ({e})"))?;
    if text.trim().is_empty() {
        return Err("empty line".to_owned());
    }
    serde_json::from_str(text).map_err(|e| json_line_error(&e))
}

/// A JSON error of a one-line document, for a message that gives the real line itself:
/// serde_json says "at line 1 column N" of the one line it saw, so only the column is kept.
#[must_use]
pub fn json_line_error(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = message.strip_suffix(&suffix).unwrap_or(&message);
    format!("{message} (column {})", e.column())
}

fn finite(field: &str, value: f64) -> LineResult {
    if value.is_finite() { Ok(()) } else { Err(format!("{field} is not a finite number")) }
}

fn finite_in(id: u64, field: &str, value: f64) -> LineResult {
    finite(field, value).map_err(|m| format!("entity {id}: {m}"))
}
