//! Reading and writing the JSON Lines files `fixstep judder` measures (declared in
//! `fixstep_present::format`): drawn logs, truth files, and the entity kinds of a trace.
//! Every reading error names the file, the line and what is wrong with it; nothing here
//! panics on bad input.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use fixstep_present::format::TraceSnapshot;
pub use fixstep_present::format::{DrawnEntity, DrawnFrame, TruthEntity, TruthLine};
use fixstep_runtime::file::{FileKind, LineError, LineReader, ReadError, open};
use serde::de::DeserializeOwned;
use serde::{Deserialize as _, Serialize};

use crate::ToolError;

/// What a check of one line found wrong.
type LineResult = Result<(), String>;

/// A drawn log: a minute of the town with four bots at 144 frames a second is 32 MB, and the
/// walk through its teleport that `tests/tests/judder_local.rs` draws for 96 s at 144 Hz is
/// 44 MB. Read and measured, a log takes up to about three and a half times its bytes (each
/// frame's list of entities kept at its length): `judder` given a drawn log of 56 MB, a truth
/// log and a trace each at its limit, all of the entities that take the most memory per byte,
/// peaked at 277 MB, under the program's 300 MB.
pub const DRAWN_LOG_FILE: FileKind = FileKind::new("drawn log", 56_000_000);

/// A truth log: a line a tick of every entity, 1.5 MB for a minute of the town; a generated
/// scenario's line every 5 ms makes 5 MB for a minute.
pub const TRUTH_LOG_FILE: FileKind = FileKind::new("truth log", 16_000_000);

/// A trace, as `judder` reads its entities: the same limit as `fixstep trace` reads it with.
pub use crate::trace::TRACE_FILE;

/// The longest line of a JSON Lines file, bytes: a frame of the stress level's 13,000
/// entities drawn is about 2 MB; a line without end stops here instead of filling memory.
pub const MAX_JSON_LINE_BYTES: usize = 4 << 20;

/// Reads a drawn log and checks it: strictly increasing `at_ms`, finite numbers, each entity
/// at most once a frame, a positive clip length.
///
/// # Errors
///
/// The file cannot be read, is empty, or a line is not a valid drawn frame; the error names
/// the file and the line.
pub fn read_drawn_log(path: &Path) -> Result<Vec<DrawnFrame>, ToolError> {
    let file = open(path, DRAWN_LOG_FILE)?;
    drawn_log_from(BufReader::new(file), path)
}

/// A drawn log's `bytes`, read and checked as [`read_drawn_log`] reads and checks the file
/// `path`, which names it in errors.
///
/// # Errors
///
/// As [`read_drawn_log`], but for reading the file.
pub fn drawn_log_from_bytes(bytes: &[u8], path: &Path) -> Result<Vec<DrawnFrame>, ToolError> {
    drawn_log_from(bytes, path)
}

fn drawn_log_from(lines: impl BufRead, path: &Path) -> Result<Vec<DrawnFrame>, ToolError> {
    let mut previous: Option<f64> = None;
    let frames = read_jsonl(lines, path, DRAWN_LOG_FILE, "drawn log", |frame: &mut DrawnFrame| {
        // A frame's entities are kept for the whole log: without the room a list grows by as
        // it is read, which is up to as much again.
        frame.entities.shrink_to_fit();
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
    let file = open(path, TRUTH_LOG_FILE)?;
    truth_from(BufReader::new(file), path)
}

/// A truth file's `bytes`, read and checked as [`read_truth`] reads and checks the file
/// `path`, which names it in errors.
///
/// # Errors
///
/// As [`read_truth`], but for reading the file.
pub fn truth_from_bytes(bytes: &[u8], path: &Path) -> Result<Vec<TruthLine>, ToolError> {
    truth_from(bytes, path)
}

fn truth_from(source: impl BufRead, path: &Path) -> Result<Vec<TruthLine>, ToolError> {
    let mut previous: Option<f64> = None;
    let lines = read_jsonl(source, path, TRUTH_LOG_FILE, "truth", |line: &mut TruthLine| {
        line.entities.shrink_to_fit();
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
    let file = open(path, TRACE_FILE)?;
    trace_entities_from(BufReader::new(file), path)
}

/// A trace's `bytes`, read as [`read_trace_entities`] reads the file `path`, which names it in
/// errors.
///
/// # Errors
///
/// As [`read_trace_entities`], but for reading the file.
pub fn trace_entities_from_bytes(bytes: &[u8], path: &Path) -> Result<TraceEntities, ToolError> {
    trace_entities_from(bytes, path)
}

fn trace_entities_from(lines: impl BufRead, path: &Path) -> Result<TraceEntities, ToolError> {
    let mut info = TraceEntities::default();
    each_jsonl(lines, path, TRACE_FILE, "trace", |line: serde_json::Value| {
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

/// Parses every line of `source`, a JSON Lines file of `kind` at `path`, as a `T` and hands
/// it to `check`, keeping what it passes; the first problem is returned with the file (called
/// `what`) and the 1-based line number.
fn read_jsonl<T, F>(
    source: impl BufRead,
    path: &Path,
    kind: FileKind,
    what: &'static str,
    mut check: F,
) -> Result<Vec<T>, ToolError>
where
    T: DeserializeOwned,
    F: FnMut(&mut T) -> LineResult,
{
    let mut items = Vec::new();
    each_jsonl(source, path, kind, what, |mut item: T| {
        check(&mut item)?;
        items.push(item);
        Ok(())
    })?;
    Ok(items)
}

/// Parses every line of `source`, a JSON Lines file of `kind` at `path`, as a `T` and hands
/// it to `take`, a line at a time (the file is never held whole); the first problem is
/// returned with the file (called `what`) and the 1-based line number.
fn each_jsonl<T, F>(
    source: impl BufRead,
    path: &Path,
    kind: FileKind,
    what: &'static str,
    mut take: F,
) -> Result<(), ToolError>
where
    T: DeserializeOwned,
    F: FnMut(T) -> LineResult,
{
    let mut lines = LineReader::new(source, MAX_JSON_LINE_BYTES);
    let fail = |line: usize, message: String| ToolError::Line {
        what,
        path: path.to_path_buf(),
        line,
        message,
    };
    loop {
        let raw = match lines.next_line() {
            Ok(Some(raw)) => raw,
            Ok(None) => return Ok(()),
            Err(LineError::Io { source, .. }) => {
                return Err(ReadError::from_io(path, kind.name, source).into());
            }
            Err(LineError::TooLong { line, limit }) => {
                return Err(fail(line, format!("longer than {limit} bytes: not a line of {what}")));
            }
            Err(LineError::NotText { line }) => return Err(fail(line, "not UTF-8".to_owned())),
        };
        let item = parse_line::<T>(raw.as_bytes()).map_err(|m| fail(lines.line(), m))?;
        take(item).map_err(|m| fail(lines.line(), m))?;
    }
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
