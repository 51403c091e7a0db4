//! `fixstep judder`: how smoothly a client drew a world, measured frame by frame against
//! where every entity really was.
//!
//! It reads a drawn log (what each frame drew) and a truth file (where each entity was), both
//! in the formats of `docs/FORMATS.md`, and counts for each kind of entity the frames
//! drawn at the wrong pace, the position error and delay, pops, reversals, slides and frames
//! drawn between two places across a jump; for local play also turns drawn the long way round
//! and animations stepping backwards. The drawn log's extension fields for local play are
//! described at [`DrawnEntity`]. With `--plot`, the worst entities' drawn and true speeds are
//! drawn over time.
//!
//! The measures are those of `docs/FORMATS.md`, over each pair of consecutive frames that both draw
//! an entity, with these readings of it:
//!
//! - distances are in 3D (x, y and z), so a figure drawn hopping is as wrong as one sliding;
//! - the truth holds an entity's old place until the line that shows it in a new leg (a
//!   local truth without `leg` uses `jumps`);
//! - a pair whose interval `[t - dt, t]` holds a jump is judged only for position error, delay
//!   and being misplaced: its true "step" is the teleport, so pace, reversals, pops, slides
//!   and long-way turns mean nothing there;
//! - a pair is not measured (but counted as such) where the truth lacks the entity at either
//!   end of the interval; animation back-steps need no truth and are counted on every pair.

mod local;
mod logs;
mod measures;
mod plot;
mod report;
mod truth;

use std::path::PathBuf;

pub use local::{LocalMeasures, VISIBLE_CHANGE_M, VISIBLE_TURN_RAD, measure_local};
pub use logs::{
    DrawnEntity, DrawnFrame, TraceEntities, TruthEntity, TruthLine, drawn_log_from_bytes,
    json_line_error, read_drawn_log, read_trace_entities, read_truth, trace_entities_from_bytes,
    truth_from_bytes, write_drawn_log, write_truth,
};
pub use measures::{
    EntityStats, JUMP_WINDOW_MS, LONG_WAY_RAD, MISPLACED_M, MOVING_M_S, MS_PER_S, OFF_PACE, POP_M,
    SLIDE_M, SpeedPoint, Summary, TICK_MS, Tally, UNKNOWN_KIND, measure,
};
pub use plot::{CHART_HEIGHT_PX, FONT_PATH, MAX_CHARTS, WIDTH_PX, plot_speeds};
pub use report::{JudderReport, KindRow};
pub use truth::{EDGE_TOLERANCE_MS, Truth, TruthSample, wrap_angle};

use crate::ToolError;

/// How many of the worst entities `fixstep judder` plots unless told: enough to compare a
/// few, few enough that each chart stays readable in one picture.
pub const DEFAULT_WORST: usize = 4;

/// What `fixstep judder` is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudderArgs {
    /// The drawn log to measure.
    pub drawn: PathBuf,
    /// The truth file; without it, the trace directory's `truth.jsonl`.
    pub truth: Option<PathBuf>,
    /// A trace directory: its `truth.jsonl` is the truth (unless `truth` is given) and its
    /// `trace.jsonl` snapshots give the entities' kinds.
    pub trace: Option<PathBuf>,
    /// Where to write a PNG of the worst entities' drawn and true speeds.
    pub plot: Option<PathBuf>,
    /// How many of the worst entities to list and plot ([`DEFAULT_WORST`] by default).
    pub worst: usize,
    /// The assets root, whose font letters the plot.
    pub assets: PathBuf,
}

/// Measures a drawn log against the truth and, if asked, plots the worst entities.
///
/// # Errors
///
/// Neither a truth file nor a trace is given; a file cannot be read or is malformed (the
/// error names the file and line); or the plot cannot be written.
pub fn run_judder(args: &JudderArgs) -> Result<JudderReport, ToolError> {
    let truth_path = match (&args.truth, &args.trace) {
        (Some(truth), _) => truth.clone(),
        (None, Some(trace)) => trace.join("truth.jsonl"),
        (None, None) => return Err(ToolError::NoTruth),
    };
    let trace = match &args.trace {
        Some(trace) => read_trace_entities(&trace.join("trace.jsonl"))?,
        None => TraceEntities::default(),
    };
    let frames = read_drawn_log(&args.drawn)?;
    let truth = Truth::new(&read_truth(&truth_path)?);
    let stats = measure(&frames, &truth, &trace);
    let mut report =
        JudderReport::new(args.drawn.clone(), truth_path, frames.len(), stats, args.worst);
    report.local = measure_local(&frames);
    if let Some(plot) = &args.plot {
        let worst: Vec<&EntityStats> = report.worst_entities().iter().collect();
        plot_speeds(plot, &worst, &args.assets)?;
        report.plot = Some(plot.clone());
    }
    Ok(report)
}
