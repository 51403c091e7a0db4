//! A game played alone from an input script, as the own-character tests play it: `fixstep sim
//! --input-script` holds the input at real times as a window does, and logs the frames it
//! draws and the authoritative truth, for the drawn log to be measured against the truth.

use std::path::PathBuf;

use fixstep_tools::judder::{DrawnFrame, JudderReport, read_drawn_log};

use crate::{Scratch, arg, judge, run_fixstep};

/// A scripted run: the frames drawn, the judder report and the state hash printed, and the
/// truth log for a test that reads more of it than the report does.
#[derive(Debug)]
pub struct ScriptedRun {
    /// The frames drawn, from the drawn log.
    pub frames: Vec<DrawnFrame>,
    /// `fixstep judder`'s measures of the drawn log against the truth log.
    pub report: JudderReport,
    /// The state hash `fixstep sim` printed at the end.
    pub hash: String,
    /// The truth log, there as long as the run is kept.
    pub truth_log: PathBuf,
    /// The scratch directory the logs are in, removed with the run.
    _dir: Scratch,
}

/// Runs `fixstep sim` of `game` (its arguments: `--game arena`, or a town `--level`) for
/// `ticks` ticks with the input `script` held at its times, drawn at `fps` frames a second,
/// with the further arguments `extra`; test `test` of suite `suite` names its scratch
/// directory.
///
/// # Panics
///
/// If the run fails, or its logs cannot be read or measured.
#[must_use]
pub fn run_script(
    suite: &str,
    test: &str,
    game: &[&str],
    script: &str,
    ticks: u32,
    fps: &str,
    extra: &[&str],
) -> ScriptedRun {
    let dir = Scratch::new(suite, test);
    let input = dir.write("input.txt", script);
    let (drawn, truth) = (dir.path("drawn.jsonl"), dir.path("truth.jsonl"));
    let ticks = ticks.to_string();
    let mut args = vec!["sim"];
    args.extend(game);
    args.extend([
        "--ticks",
        &ticks,
        "--input-script",
        arg(&input),
        "--fps",
        fps,
        "--drawn-log",
        arg(&drawn),
        "--truth-log",
        arg(&truth),
    ]);
    args.extend(extra);
    let out = run_fixstep(&args);
    assert!(out.status.success(), "fixstep sim failed: {}", String::from_utf8_lossy(&out.stderr));
    let report = judge(&drawn, &truth);
    ScriptedRun {
        frames: read_drawn_log(&drawn).expect("drawn log"),
        report,
        hash: String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        truth_log: truth,
        _dir: dir,
    }
}
