//! Writes the generated network traces to disk, to look at and to run the tools on:
//!
//! ```text
//! cargo run -p fixstep-tools --example tracegen -- OUT_DIR [SCENARIO...]
//! fixstep trace --in OUT_DIR/steady-60/trace.jsonl --out drawn.jsonl
//! fixstep judder drawn.jsonl --trace OUT_DIR/steady-60
//! ```
//!
//! Each scenario (every one, or those named) goes to `OUT_DIR/<scenario>/trace.jsonl` and
//! `truth.jsonl`. Without arguments it lists the scenarios.

use std::path::PathBuf;
use std::process::ExitCode;

use fixstep_tools::tracegen::{generate, scenarios};

#[expect(clippy::print_stderr, reason = "a command-line tool's usage and errors, for its user")]
fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(out) = args.next().map(PathBuf::from) else {
        eprintln!("usage: tracegen OUT_DIR [SCENARIO...]\n\nscenarios:");
        for s in scenarios() {
            eprintln!("  {:<26} {}", s.name, s.about);
        }
        return ExitCode::from(2);
    };
    let names: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    let all = scenarios();
    if let Some(unknown) = names.iter().find(|n| !all.iter().any(|s| s.name == n.as_str())) {
        let known: Vec<&str> = all.iter().map(|s| s.name).collect();
        eprintln!("tracegen: no scenario {unknown:?}; there are: {}", known.join(", "));
        return ExitCode::from(2);
    }
    for scenario in all.iter().filter(|s| names.is_empty() || names.iter().any(|n| n == s.name)) {
        let dir = out.join(scenario.name);
        let generated = generate(scenario);
        if let Err(e) = generated.write_dir(&dir) {
            eprintln!("tracegen: cannot write {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let lost = generated.arrivals.iter().filter(|a| a.lost).count();
        let stalled = generated.arrivals.iter().filter(|a| a.stalled).count();
        println!(
            "{}: {} snapshots ({lost} lost, {stalled} stalled), {} frames: {}",
            dir.display(),
            generated.snapshots.len(),
            generated.frames_us.len(),
            scenario.about,
        );
    }
    ExitCode::SUCCESS
}
