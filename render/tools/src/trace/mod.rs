//! `fixstep trace`: the remote view run over a trace, headless.
//!
//! A trace (`fixstep_present::format`) is what a network client sees: snapshots arriving at
//! real times, and the times at which it must draw a frame. This runs the network clock, the
//! remote buffers and the update-gap delay over it exactly as a client would, and writes what
//! each frame drew as a drawn log, which `fixstep judder` measures against the truth. The same
//! trace gives the same drawn log, byte for byte, on every run.

mod read;

use std::io::{BufRead, Write};

use fixstep_present::record::DrawnLog;
use fixstep_present::remote::RemoteView;
use fixstep_runtime::Tick;

pub use read::{MAX_TRACE_LINE_BYTES, TIERS, TRACE_TICK_MS, TraceEntity, TraceEvent, TraceReader};

/// A trace: the example traces are under 0.5 MB each, so this is thirty of them. `fixstep
/// trace` reads it a line at a time, but keeps a remote buffer for every entity it names: 16 MB
/// of new entities (160,000) peaked at 82 MB.
pub const TRACE_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("trace", 16_000_000);

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
    let mut writer = DrawnLog::new(std::io::BufWriter::new(output));
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
                let frame = view.draw();
                writer.write(at_ms, None, |line| frame.record(line))?;
                summary.frames += 1;
            }
        }
    }
    writer.finish()?;
    summary.clock_snaps = view.clock().snaps();
    Ok(summary)
}
