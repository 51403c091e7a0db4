//! The files of the drawing's measures, declared once: the **trace** (what a network client
//! sees: snapshots arriving at real times, and frames to draw), the **drawn log** (what each
//! frame drew) and the **truth** (where every entity really was). All are JSON Lines: one JSON
//! object a line. `docs/FORMATS.md` in the repository describes them for a reader; the types
//! here are what writes and reads them, so the two sides cannot drift.
//!
//! Positions are metres in a right-handed world with y up (x east, z south), headings radians
//! counter-clockwise seen from above with 0 along +x, speeds metres a second, ticks the host's
//! 100 ms ticks (fractional where drawn between them), times milliseconds.

use std::borrow::Cow;

use serde::{Deserialize, Serialize, Serializer};

/// The trace format version this build writes and reads.
pub const TRACE_FORMAT: u32 = 1;

/// A trace's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceHeaderLine {
    /// The header.
    pub header: TraceHeader,
}

/// What a trace is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceHeader {
    /// [`TRACE_FORMAT`].
    pub format: u32,
    /// The host's tick, milliseconds: 100 (written as a whole number when it is one).
    #[serde(serialize_with = "whole_or_fraction")]
    pub tick_ms: f64,
}

/// Every line of a trace after the header: a snapshot arriving, or a frame to draw, at the
/// client's time `at_ms` (never earlier than the line before).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceEventLine {
    /// The client's real time, milliseconds from the trace's origin (may be negative).
    pub at_ms: f64,
    /// A snapshot arrives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<TraceSnapshot>,
    /// A frame is drawn: an empty object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<TraceFrame>,
}

/// A frame event's (empty) body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceFrame {}

/// A snapshot of the host, as it arrives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSnapshot {
    /// The host tick it was measured at.
    pub tick: u32,
    /// The entities measured.
    pub entities: Vec<TraceEntityLine>,
    /// The ids gone since the last snapshot.
    #[serde(default)]
    pub gone: Vec<u64>,
}

/// One entity as a snapshot measured it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceEntityLine {
    /// Its id, stable for its life.
    pub id: u64,
    /// How it moves: `"vehicle"` or `"walker"`.
    pub kind: String,
    /// Position.
    pub pos: [f64; 3],
    /// Velocity, metres a second.
    pub vel: [f64; 3],
    /// Heading.
    pub yaw: f64,
    /// The host's own rule: it stands still.
    pub at_rest: bool,
    /// Its snapshot period, ticks: 1, 2 or 4.
    pub tier: u8,
    /// Counts the times the host put it somewhere new.
    pub jumps: u32,
}

/// One line of a drawn log: what one frame drew.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "single_vec")]
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
/// - `held` (four integers): what the local player holds, as its game writes it (the town's:
///   forward, strafe, key turn per tick, run), with the frame's `input_ms` telling when it
///   last changed.
///
/// Positions, headings, speeds and frames are written to single precision, the precision
/// they were drawn at, and read as doubles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawnEntity {
    /// The entity's id, stable for its life.
    pub id: u64,
    /// The fractional host tick this entity is drawn at.
    pub tick: f64,
    /// The drawn position (m), y up.
    #[serde(serialize_with = "single_array")]
    pub pos: [f64; 3],
    /// The drawn heading (radians, counter-clockwise seen from above, 0 along +x).
    #[serde(serialize_with = "single")]
    pub yaw: f64,
    /// The speed it is drawn moving at (m/s).
    #[serde(serialize_with = "single")]
    pub speed: f64,
    /// Extension: the entity's kind, for the report's rows (a game's own name, borrowed, as a
    /// frame records it; owned when read back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Cow<'static, str>>,
    /// Extension: the animation state drawn (as `kind`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anim: Option<Cow<'static, str>>,
    /// Extension: the fractional frame of the animation drawn.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "single_option")]
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
    /// Extension, local character only: what its player holds at the frame.
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

    /// The same entity marked as of `kind`.
    #[must_use]
    pub fn of_kind(mut self, kind: &'static str) -> Self {
        self.kind = Some(Cow::Borrowed(kind));
        self
    }
}

/// One line of a truth file: where every entity really was at one moment of host time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    pub jumps: u32,
    /// The count of the entity's discontinuities, where the truth steps instead of being
    /// interpolated. A local game's truth may leave it out: `jumps` stands for it then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leg: Option<u32>,
}

impl TruthEntity {
    /// The leg the truth is interpolated within: `leg`, or `jumps` where the file has none.
    #[must_use]
    pub fn leg(&self) -> u32 {
        self.leg.unwrap_or(self.jumps)
    }
}

/// A drawn number, written as the single-precision number it was drawn as: the shortest text
/// that reads back as that `f32`, not the seventeen digits of the double it was widened to.
fn single<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f32(*value as f32)
}

fn single_option<S: Serializer>(value: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => serializer.serialize_some(&(*v as f32)),
        None => serializer.serialize_none(),
    }
}

fn single_array<S: Serializer>(value: &[f64; 3], serializer: S) -> Result<S::Ok, S::Error> {
    value.map(|v| v as f32).serialize(serializer)
}

fn single_vec<S: Serializer>(value: &Option<[f64; 3]>, serializer: S) -> Result<S::Ok, S::Error> {
    value.map(|v| v.map(|x| x as f32)).serialize(serializer)
}

/// A number written as a whole number when it is one (`100`, not `100.0`), as a person writes
/// a header.
fn whole_or_fraction<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    #[expect(clippy::float_cmp, reason = "whole numbers are exact")]
    let whole = value.trunc() == *value && value.abs() < 1e15;
    if whole { serializer.serialize_i64(*value as i64) } else { serializer.serialize_f64(*value) }
}
