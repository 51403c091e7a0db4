//! `fixstep trace`: the remote view run over a trace, headless.
//!
//! A trace (the traces' `FORMAT.md`) is what a network client sees: snapshots arriving at
//! real times, and the times at which it must draw a frame. This runs the network clock, the
//! remote buffers and the update-gap delay over it exactly as a client would, and writes what
//! each frame drew as a drawn log, which `fixstep judder` measures against the truth. The same
//! trace gives the same drawn log, byte for byte, on every run.

mod read;

use std::io::{BufRead, Write};

use fixstep_runtime::Tick;
use serde::Serialize;

pub use read::{TIERS, TRACE_FORMAT, TRACE_TICK_MS, TraceEntity, TraceEvent, TraceReader};

use fixstep_game::level::Level;

use crate::present::frame::ObjectDraw;
use crate::present::remote::{Motion, RemoteFrame, RemoteView};
use crate::record::ObjectMotion;

/// What can go wrong running a trace.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The trace has no lines at all.
    #[error("the trace is empty: its first line must be the header")]
    Empty,
    /// A line of the trace is malformed.
    #[error("line {line}: {message}")]
    Line {
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Reading the trace or writing the drawn log failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// What a run of a trace did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceSummary {
    /// Frames drawn (lines written).
    pub frames: usize,
    /// Snapshots handed to the view.
    pub snapshots: usize,
    /// Discontinuities the clock stepped over.
    pub clock_snaps: u32,
}

/// One entity in a drawn-log line, as the format has it.
#[derive(Debug, Serialize)]
struct DrawnEntityLine {
    id: u64,
    tick: f64,
    pos: [f32; 3],
    yaw: f32,
    speed: f32,
    /// The drawn-log extension naming how it moves, so `fixstep judder` can tell vehicles
    /// from walkers without the trace.
    kind: &'static str,
}

/// One drawn-log line.
#[derive(Serialize)]
struct DrawnFrameLine<'a> {
    at_ms: f64,
    render_tick: f64,
    entities: &'a [DrawnEntityLine],
}

/// Writes a drawn-log line (the format's, entities in id order) for each frame of a remote
/// view: the trace tool's output, and a spectator's.
#[derive(Debug)]
pub struct RemoteFrameWriter<W: Write> {
    out: W,
    entities: Vec<DrawnEntityLine>,
    objects: ObjectMotion,
}

impl<W: Write> RemoteFrameWriter<W> {
    /// A writer to `out`.
    pub const fn new(out: W) -> Self {
        Self { out, entities: Vec::new(), objects: ObjectMotion::new() }
    }

    /// Writes the line of `frame`, drawn at `at_ms`. Before the first snapshot the render
    /// tick is given as 0.
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn frame(&mut self, at_ms: f64, frame: &RemoteFrame) -> std::io::Result<()> {
        self.entities.clear();
        self.write(at_ms, frame)
    }

    /// Writes the line of `frame` and of the `objects` of `level` drawn with it (as a local
    /// drawn log has them: kind "object", at the render tick), drawn at `at_ms`.
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn frame_with_objects(
        &mut self,
        at_ms: f64,
        frame: &RemoteFrame,
        objects: &[ObjectDraw],
        level: &Level,
    ) -> std::io::Result<()> {
        self.entities.clear();
        let tick = if frame.render_tick.is_finite() { frame.render_tick } else { 0.0 };
        let entities = &mut self.entities;
        self.objects.each(at_ms, level, objects, |id, pos, yaw, speed| {
            entities.push(DrawnEntityLine {
                id,
                tick,
                pos: pos.to_array(),
                yaw,
                speed,
                kind: "object",
            });
        });
        self.write(at_ms, frame)
    }

    fn write(&mut self, at_ms: f64, frame: &RemoteFrame) -> std::io::Result<()> {
        self.entities.extend(frame.entities.iter().map(|e| DrawnEntityLine {
            id: e.id,
            tick: e.sample.tick,
            pos: e.sample.pos.to_array(),
            yaw: e.sample.yaw,
            speed: e.sample.speed,
            kind: match e.motion {
                Motion::Vehicle => "vehicle",
                Motion::Walker => "walker",
            },
        }));
        self.entities.sort_unstable_by_key(|e| e.id);
        let render_tick = if frame.render_tick.is_finite() { frame.render_tick } else { 0.0 };
        let line = DrawnFrameLine { at_ms, render_tick, entities: &self.entities };
        serde_json::to_writer(&mut self.out, &line).map_err(std::io::Error::from)?;
        self.out.write_all(b"\n")
    }

    /// Flushes and returns the destination.
    ///
    /// # Errors
    ///
    /// If flushing fails.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Runs the remote view over the trace read from `input` and writes a drawn-log line to
/// `output` for every frame event. Frames before the first snapshot draw nothing and give the
/// render tick as 0.
///
/// # Errors
///
/// A line of the trace is malformed (the error has its number), or reading or writing fails.
/// What was written before the bad line stays written.
pub fn run_trace<R: BufRead, W: Write>(input: R, output: W) -> Result<TraceSummary, TraceError> {
    let mut reader = TraceReader::new(input)?;
    let mut writer = RemoteFrameWriter::new(std::io::BufWriter::new(output));
    let mut view = RemoteView::new();
    let mut summary = TraceSummary::default();
    let mut last_micros: Option<i64> = None;
    while let Some(event) = reader.next_event()? {
        let at_micros = match &event {
            TraceEvent::Snapshot { at_micros, .. } | TraceEvent::Frame { at_micros, .. } => {
                *at_micros
            }
        };
        // Times never go back (the reader checks), so the difference is never negative.
        let elapsed = last_micros.map_or(0, |last| at_micros.abs_diff(last));
        last_micros = Some(at_micros);
        view.advance(elapsed);
        match event {
            TraceEvent::Snapshot { tick, entities: measured, gone, .. } => {
                summary.snapshots += 1;
                view.snapshot_arrived(Tick(tick));
                for e in &measured {
                    view.measure(e.id, e.motion, &e.measurement);
                }
                for id in gone {
                    view.gone(id, Tick(tick));
                }
            }
            TraceEvent::Frame { at_ms, .. } => {
                writer.frame(at_ms, view.draw())?;
                summary.frames += 1;
            }
        }
    }
    writer.finish()?;
    summary.clock_snaps = view.clock().snaps();
    Ok(summary)
}
