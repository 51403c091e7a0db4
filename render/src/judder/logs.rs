//! The JSON Lines files `fixstep judder` reads and the local game writes: drawn logs, truth
//! files, and the entity kinds of a trace. Every reading error names the file, the line and
//! what is wrong with it; nothing here panics on bad input.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One line of a drawn log: what one frame drew.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawnFrame {
    /// The client's real time at which the frame is drawn (ms); strictly increasing down the
    /// log, as the measures divide by the time between frames.
    pub at_ms: f64,
    /// The fractional host tick that the frame draws remote entities at.
    pub render_tick: f64,
    /// Extension: the real time (ms) of the latest change of what the local player holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_ms: Option<f64>,
    /// Extension: where the camera's eye was (m), y up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<[f64; 3]>,
    /// Every entity that the frame draws.
    pub entities: Vec<DrawnEntity>,
}

/// An entity as a frame drew it.
///
/// The first five fields are the drawn-log format's. The rest extend it for local play, where
/// there is no trace to tell kinds and the figures are animated; each may be left out:
///
/// - `kind` (string): what the entity is, such as `"character"`, `"taxi"` or `"object"`:
///   the row of the report it counts in when no trace names its kind (`"entity"` when
///   neither does).
/// - `anim` (string): the name of the animation state (clip) drawn.
/// - `frame` (number): the fractional frame of that clip drawn.
/// - `frames` (number > 0): the clip's length in frames.
/// - `looping` (bool): the clip wraps from its last frame to its first.
/// - `local` (bool): the local player's own character, drawn from its prediction; its `tick`
///   is the predicted time, ahead of the frame's render tick.
/// - `held` (four integers): what the local player holds (forward, strafe, key turn per
///   tick, run), with the frame's `input_ms` telling when it last changed.
///
/// An animation back-step is judged only between two frames that both give `anim` and
/// `frame`; a wrap is recognised only where the later one gives `looping: true` and `frames`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawnEntity {
    /// The entity's id, stable for its life.
    pub id: u64,
    /// The fractional host tick this entity is drawn at.
    pub tick: f64,
    /// The drawn position (m), y up.
    pub pos: [f64; 3],
    /// The drawn heading (radians, counter-clockwise seen from above, 0 along +x).
    pub yaw: f64,
    /// The speed it is drawn moving at (m/s).
    pub speed: f64,
    /// Extension: the entity's kind, for the report's rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Extension: the animation state drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anim: Option<String>,
    /// Extension: the fractional frame of the animation drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<f64>,
    /// Extension: the animation clip's frame count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<f64>,
    /// Extension: the animation clip loops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub looping: Option<bool>,
    /// Extension: it is the local player's own character, drawn from its prediction at the
    /// `tick` it predicts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub local: bool,
    /// Extension, local character only: what its player holds at the frame: forward and
    /// strafe (percent), key turn per tick (2^-16 of a turn) and run (0 or 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<[i32; 4]>,
}

impl DrawnEntity {
    /// An entity drawn at `pos` with heading `yaw`, with none of the extension fields.
    #[must_use]
    pub fn new(id: u64, tick: f64, pos: [f64; 3], yaw: f64, speed: f64) -> Self {
        Self {
            id,
            tick,
            pos,
            yaw,
            speed,
            kind: None,
            anim: None,
            frame: None,
            frames: None,
            looping: None,
            local: false,
            held: None,
        }
    }
}

/// One line of a truth file: where every entity really was at one moment of host time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TruthLine {
    /// Host time (ms); host tick `k` is at `100 k`. Strictly increasing down the file.
    pub t_ms: f64,
    /// The entities that exist at that time.
    pub entities: Vec<TruthEntity>,
}

/// An entity's true state at one moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TruthEntity {
    /// The entity's id.
    pub id: u64,
    /// Its position (m), y up.
    pub pos: [f64; 3],
    /// Its heading (radians).
    pub yaw: f64,
    /// Its speed (m/s).
    pub speed: f64,
    /// The host's count of the times it put the entity somewhere new.
    pub jumps: u64,
    /// The count of the entity's discontinuities, where the truth steps instead of being
    /// interpolated. A local game's truth may leave it out: `jumps` stands for it then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leg: Option<u64>,
}

impl TruthEntity {
    /// The leg the truth is interpolated within: `leg`, or `jumps` where the file has none.
    #[must_use]
    pub fn leg(&self) -> u64 {
        self.leg.unwrap_or(self.jumps)
    }
}

/// The parts of a trace line that give entity kinds and lives; everything else is ignored.
#[derive(Debug, Deserialize)]
struct TraceLine {
    #[serde(default)]
    snapshot: Option<TraceSnapshot>,
}

#[derive(Debug, Deserialize)]
struct TraceSnapshot {
    tick: u32,
    entities: Vec<TraceEntity>,
    #[serde(default)]
    gone: Vec<u64>,
}

#[derive(Debug, Deserialize)]
struct TraceEntity {
    id: u64,
    kind: String,
}

/// Reads a drawn log and checks it: strictly increasing `at_ms`, finite numbers, each entity
/// at most once a frame, a positive clip length.
///
/// # Errors
///
/// The file cannot be read, is empty, or a line is not a valid drawn frame; the error names
/// the file and the line.
pub fn read_drawn_log(path: &Path) -> Result<Vec<DrawnFrame>> {
    let mut previous: Option<f64> = None;
    let frames = read_jsonl(path, "drawn log", |frame: &DrawnFrame| {
        finite("at_ms", frame.at_ms)?;
        finite("render_tick", frame.render_tick)?;
        if let Some(before) = previous
            && frame.at_ms <= before
        {
            bail!("at_ms {} is not after the previous line's {before}", frame.at_ms);
        }
        previous = Some(frame.at_ms);
        let mut seen = HashSet::new();
        for entity in &frame.entities {
            let id = entity.id;
            if !seen.insert(id) {
                bail!("entity {id} is drawn twice");
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
                bail!("entity {id}: frames {frames} is not a positive frame count");
            }
        }
        Ok(())
    })?;
    if frames.is_empty() {
        bail!("drawn log {}: no frames", path.display());
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
pub fn read_truth(path: &Path) -> Result<Vec<TruthLine>> {
    let mut previous: Option<f64> = None;
    let lines = read_jsonl(path, "truth", |line: &TruthLine| {
        finite("t_ms", line.t_ms)?;
        if let Some(before) = previous
            && line.t_ms <= before
        {
            bail!("t_ms {} is not after the previous line's {before}", line.t_ms);
        }
        previous = Some(line.t_ms);
        let mut seen = HashSet::new();
        for entity in &line.entities {
            let id = entity.id;
            if !seen.insert(id) {
                bail!("entity {id} is listed twice");
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
        bail!("truth {}: no lines", path.display());
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

/// Reads the entity kinds and lives from a trace's snapshots.
///
/// # Errors
///
/// The file cannot be read, or a line is not JSON or has a snapshot entity without `id` or
/// `kind`; the error names the file and the line.
pub fn read_trace_entities(path: &Path) -> Result<TraceEntities> {
    let mut info = TraceEntities::default();
    read_jsonl(path, "trace", |line: &TraceLine| {
        let Some(snapshot) = &line.snapshot else { return Ok(()) };
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
pub fn write_drawn_log(path: &Path, frames: &[DrawnFrame]) -> Result<()> {
    write_jsonl(path, frames).with_context(|| format!("cannot write drawn log {}", path.display()))
}

/// Writes a truth file, one line per moment.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_truth(path: &Path, lines: &[TruthLine]) -> Result<()> {
    write_jsonl(path, lines).with_context(|| format!("cannot write truth {}", path.display()))
}

fn write_jsonl<T: Serialize>(path: &Path, items: &[T]) -> Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    for item in items {
        serde_json::to_writer(&mut out, item)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Parses every line of a JSON Lines file as a `T` and hands it to `check`; the first
/// problem is returned with the file (called `what`) and the 1-based line number.
fn read_jsonl<T, F>(path: &Path, what: &str, mut check: F) -> Result<Vec<T>>
where
    T: DeserializeOwned,
    F: FnMut(&T) -> Result<()>,
{
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read {what} {}", path.display()))?;
    let mut items = Vec::new();
    let mut lines = bytes.split(|&b| b == b'\n').enumerate().peekable();
    while let Some((index, raw)) = lines.next() {
        // The final `\n` leaves an empty piece after it that is not a line.
        if raw.is_empty() && lines.peek().is_none() {
            break;
        }
        let place = || format!("{what} {}, line {}", path.display(), index + 1);
        let item = parse_line::<T>(raw).with_context(place)?;
        check(&item).with_context(place)?;
        items.push(item);
    }
    Ok(items)
}

fn parse_line<T: DeserializeOwned>(raw: &[u8]) -> Result<T> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let text = std::str::from_utf8(raw).map_err(|e| anyhow::anyhow!("not UTF-8 ({e})"))?;
    if text.trim().is_empty() {
        bail!("empty line");
    }
    serde_json::from_str(text).map_err(|e| anyhow::anyhow!("{}", json_line_error(&e)))
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

fn finite(field: &str, value: f64) -> Result<()> {
    if value.is_finite() { Ok(()) } else { bail!("{field} is not a finite number") }
}

fn finite_in(id: u64, field: &str, value: f64) -> Result<()> {
    finite(field, value).with_context(|| format!("entity {id}"))
}
