//! Files nobody vouches for, and runs measured from outside: the hostile inputs every reading
//! command must refuse in one line, and the peak resident memory of a `fixstep` run.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::{Scratch, fixstep_binary, workspace_root};

/// The most resident memory a run may reach whatever its input, kilobytes: 300 MB.
pub const MAX_PEAK_RSS_KB: u64 = 300_000;

/// How long a run may take before it is killed, seconds: not a measure (every run here ends
/// in well under a second), only what stops a run that hangs on its input from hanging the
/// test too.
const HANG_GUARD_SECONDS: &str = "120";

/// The bytes of the sparse file: 10 GiB that take no disk.
const SPARSE_BYTES: u64 = 10 << 30;

/// A run and its peak resident memory.
#[derive(Debug)]
pub struct Measured {
    /// What it printed and how it ended.
    pub output: Output,
    /// Its peak resident memory (`ru_maxrss`), kilobytes.
    pub peak_kb: u64,
}

/// Runs `fixstep` with `args` from the workspace root under GNU `time` (which reports the
/// child's `ru_maxrss` from `wait4`), killed if it runs past the hang guard.
///
/// # Panics
///
/// If `time` or `timeout` cannot be run, or `time` reports no number.
#[must_use]
pub fn run_measured(dir: &Scratch, args: &[&str]) -> Measured {
    static RUNS: AtomicU32 = AtomicU32::new(0);
    let report = dir.path(&format!("peak-rss-{}.txt", RUNS.fetch_add(1, Ordering::Relaxed)));
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&report)
        .args(["timeout", "-s", "KILL", HANG_GUARD_SECONDS])
        .arg(fixstep_binary())
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("GNU time runs (the `time` package)");
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let peak_kb = text
        .lines()
        .rev()
        .find_map(|l| l.trim().parse::<u64>().ok())
        .unwrap_or_else(|| panic!("time reported no peak memory for {args:?}: {text}"));
    Measured { output, peak_kb }
}

/// The hostile inputs, by what they are: `/dev/zero` (endless zeros), a FIFO nobody writes
/// to (an open that would block, a read that would wait) and a sparse 10 GiB file (a length
/// that would fill memory).
///
/// # Panics
///
/// If the FIFO or the sparse file cannot be made.
#[must_use]
pub fn hostile_files(dir: &Scratch) -> [(&'static str, PathBuf); 3] {
    let fifo = dir.path("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let sparse = dir.path("sparse.bin");
    std::fs::File::create(&sparse)
        .and_then(|f| f.set_len(SPARSE_BYTES))
        .expect("a sparse file can be made");
    [("/dev/zero", PathBuf::from("/dev/zero")), ("a FIFO", fifo), ("a 10 GiB sparse file", sparse)]
}
