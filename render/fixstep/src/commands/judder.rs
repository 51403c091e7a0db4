//! `fixstep judder`: how smoothly a drawn log drew, measured against the truth.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use fixstep_tools::judder::{DEFAULT_WORST, JudderArgs as Judge, run_judder};

use super::{Paths, bad_input};

/// `fixstep judder`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct JudderArgs {
    /// The drawn log (JSON Lines, one line per frame).
    pub drawn: PathBuf,
    /// The truth file (JSON Lines): where every entity really was. Needed unless `--trace`
    /// names a trace directory, whose `truth.jsonl` it is then.
    #[arg(long, required_unless_present = "trace")]
    pub truth: Option<PathBuf>,
    /// A trace directory: its trace.jsonl names the kinds, and its truth.jsonl is the truth
    /// unless --truth is given.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Draw drawn and true speed over time for the worst entities into this PNG.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// How many of the worst entities to list and plot.
    #[arg(long, default_value_t = DEFAULT_WORST,
          value_parser = super::bounds::up_to(super::bounds::MAX_WORST))]
    pub worst: usize,
}

/// Runs `fixstep judder`; returns the report to print.
///
/// # Errors
///
/// A file that cannot be read or is malformed (named with its line), or a plot that cannot be
/// written.
pub fn run(args: &JudderArgs, paths: &Paths) -> Result<String> {
    let report = run_judder(&Judge {
        drawn: args.drawn.clone(),
        truth: args.truth.clone(),
        trace: args.trace.clone(),
        plot: args.plot.clone(),
        worst: args.worst,
        assets: paths.assets.clone(),
    })
    .map_err(bad_input)?;
    Ok(report.to_string())
}
