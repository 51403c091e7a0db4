//! `fixstep trace`: the remote view run over a network trace, headless.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use fixstep_runtime::file::ReadError;
use fixstep_tools::trace::TraceError;

use super::bad_input;

/// `fixstep trace`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct TraceArgs {
    /// The trace (JSON Lines: a header, then snapshot and frame events).
    #[arg(long = "in", value_name = "TRACE")]
    pub input: PathBuf,
    /// The drawn log to write (JSON Lines, one line per frame).
    #[arg(long, value_name = "DRAWN")]
    pub out: PathBuf,
}

/// Runs `fixstep trace`: one line saying what was drawn.
///
/// # Errors
///
/// A trace that cannot be read or is malformed (the error names the file and the line at
/// fault), or a drawn log that cannot be written.
pub fn run(args: &TraceArgs) -> Result<String> {
    let (input, out) = (&args.input, &args.out);
    let file =
        fixstep_runtime::file::open(input, fixstep_tools::trace::TRACE_FILE).map_err(bad_input)?;
    let drawn = std::fs::File::create(out)
        .with_context(|| format!("cannot write drawn log {}", out.display()))?;
    let summary = fixstep_tools::trace::run_trace(std::io::BufReader::new(file), drawn)
        .map_err(|e| {
            let context = format!("trace {}", input.display());
            match e {
                // Over its limit: the message names the file already.
                TraceError::Io(io) => match io.downcast::<ReadError>() {
                    Ok(over) => anyhow::Error::new(over),
                    Err(io) => anyhow::Error::new(io).context(context),
                },
                e => anyhow::Error::new(e).context(context),
            }
        })
        .map_err(bad_input)?;
    Ok(format!(
        "drew {} frames from {} snapshots into {}\n",
        summary.frames,
        summary.snapshots,
        out.display()
    ))
}
