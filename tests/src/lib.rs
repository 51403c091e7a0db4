//! Helpers for Fixstep's cross-crate tests, which live in `tests/tests/`, one file per topic:
//! the `fixstep` binary and scratch directories (here), the processes of a network game on
//! loopback ([`processes`]) and built for other architectures ([`foreign`]), a game played alone from an input script and measured
//! ([`scripted`]), hostile files and runs measured from outside ([`untrusted`]), and the scan
//! for float literals the clippy ban cannot see ([`float_literals`]).
//! Two homes behind NAT routers and an internet, in network namespaces, are [`netlab`]'s.
//!
//! ```
//! use fixstep_tests::float_literals::float_literals;
//!
//! let found = float_literals("let half = Fx::from_num(0.5); // not 1.5, a comment");
//! assert_eq!(found.iter().map(|f| f.text.as_str()).collect::<Vec<_>>(), ["0.5"]);
//! ```

pub mod edges;
pub mod float_literals;
pub mod foreign;
pub mod netlab;
pub mod processes;
pub mod scripted;
pub mod untrusted;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use fixstep_tools::judder::{DrawnFrame, JudderArgs, JudderReport, measure_local, run_judder};

/// The workspace root (where `Cargo.toml` and `assets/` are).
#[must_use]
pub fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new("."))
}

/// The `fixstep` binary of this build profile, built once on first use. `cargo test
/// --workspace` has usually built it already; `cargo test -p fixstep-tests` has not.
///
/// # Panics
///
/// If cargo cannot build it: every end-to-end test needs it.
pub fn fixstep_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| build_fixstep(None))
}

/// Builds the `fixstep` binary in this build profile, for this machine or for `target` (a
/// target triple, headless: no window, no GPU), and returns its path.
///
/// # Panics
///
/// If cargo cannot build it.
#[must_use]
pub fn build_fixstep(target: Option<&str>) -> PathBuf {
    let release = !cfg!(debug_assertions);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build.args(["build", "--quiet", "-p", "fixstep", "--bin", "fixstep"]);
    if let Some(target) = target {
        build.args(["--no-default-features", "--target", target]);
    }
    if release {
        build.arg("--release");
    }
    let status = build.current_dir(workspace_root()).status().expect("cargo runs");
    let what = target.unwrap_or("this machine");
    assert!(status.success(), "building the fixstep binary for {what} failed");
    let mut binary = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace_root().join("target"), PathBuf::from);
    if let Some(target) = target {
        binary.push(target);
    }
    binary.push(if release { "release" } else { "debug" });
    // A foreign target is a Unix one here: no suffix.
    binary.push(format!(
        "fixstep{}",
        if target.is_some() { "" } else { std::env::consts::EXE_SUFFIX }
    ));
    assert!(binary.exists(), "no binary at {}", binary.display());
    binary
}

/// The longest a run of [`run_fixstep`] may take: the longest command a test runs so, a debug
/// build on a busy machine, takes under a minute. A run still going then is stopped, and the
/// test fails rather than waits for ever on a command that should have ended.
pub const RUN_LIMIT: Duration = Duration::from_secs(600);

/// How often a bounded run looks whether its process has ended.
const RUN_POLL: Duration = Duration::from_millis(10);

/// Runs `fixstep` with `args` from the workspace root, with an empty standard input, and
/// returns what it did.
///
/// # Panics
///
/// If the binary cannot be started, or is still running after [`RUN_LIMIT`].
#[must_use]
pub fn run_fixstep(args: &[&str]) -> Output {
    run_fixstep_within(args, RUN_LIMIT)
}

/// [`run_fixstep`], for a run that must end within `limit`: a refusal, which ends before
/// anything runs, is given seconds, so that a refusal that went missing fails at once.
///
/// # Panics
///
/// If the binary cannot be started, or is still running after `limit` (it is killed then).
#[must_use]
pub fn run_fixstep_within(args: &[&str], limit: Duration) -> Output {
    let _machine = processes::machine_for_a_run();
    let mut child = Command::new(fixstep_binary())
        .args(args)
        .current_dir(workspace_root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixstep binary starts");
    // Both pipes are drained while the run goes on, so that a run that writes much never
    // stalls on a full pipe.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the run can be waited for") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let said = stderr.join().unwrap_or_default();
            panic!(
                "`fixstep {}` was still running after {limit:?}; it said:\n{}",
                args.join(" "),
                String::from_utf8_lossy(&said)
            );
        }
        std::thread::sleep(RUN_POLL);
    };
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// What a run printed on its standard output.
#[must_use]
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run printed on its standard error.
#[must_use]
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts an input error as the CLI promises it (exit code 2, nothing on standard output,
/// exactly one line on standard error) and returns that line.
///
/// # Panics
///
/// If the run is not such an error.
pub fn one_line_error(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "exit code 2 expected; stderr:\n{err}");
    assert!(out.stdout.is_empty(), "nothing expected on standard output: {}", stdout(out));
    assert_eq!(err.trim_end().lines().count(), 1, "one line expected on standard error:\n{err}");
    err.trim_end().to_owned()
}

/// A scratch directory for one test, removed when the test passes, so parallel tests and
/// repeated runs never see each other's files. A failing test keeps it, and says where: the
/// logs, drawn logs and replays a failure message names are there to look at.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new, empty directory for test `test` of the suite `suite`: named by both and the
    /// process id, unique across concurrent `cargo test` runs and across a suite's tests.
    ///
    /// # Panics
    ///
    /// If the directory cannot be made.
    #[must_use]
    pub fn new(suite: &str, test: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("fixstep-{suite}-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the scratch directory can be created");
        Self(dir)
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// The path of `name` in the directory.
    #[must_use]
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `contents` to `name` in the directory and returns its path.
    ///
    /// # Panics
    ///
    /// If the file cannot be written.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).expect("a scratch file can be written");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            println!("the failed test's files are kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Copies the folder `from` to `to`, files and folders: assets of a test's own to change.
///
/// # Panics
///
/// If a file cannot be read or written.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder can be made");
    for entry in std::fs::read_dir(from).expect("a folder can be listed") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a file can be copied");
        }
    }
}

/// A path as a command-line argument (the test machines' temporary paths are UTF-8).
///
/// # Panics
///
/// On a path that is not UTF-8.
#[must_use]
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("scratch paths are UTF-8")
}

/// `fixstep judder`'s measures (as a library) of the drawn log `drawn` against the truth log
/// `truth`.
///
/// # Panics
///
/// If either log cannot be read.
#[must_use]
pub fn judge(drawn: &Path, truth: &Path) -> JudderReport {
    run_judder(&JudderArgs {
        drawn: drawn.to_path_buf(),
        truth: Some(truth.to_path_buf()),
        trace: None,
        plot: None,
        worst: 4,
        assets: workspace_root().join("assets"),
    })
    .expect("the logs can be measured")
}

/// The interval between two frames at `fps` frames a second, milliseconds.
///
/// # Panics
///
/// If `fps` is not a number.
#[must_use]
pub fn frame_ms(fps: &str) -> f64 {
    1000.0 / fps.parse::<f64>().expect("a number of frames a second")
}

/// Asserts that each of the `changes` changes of the local player's held input that `frames`
/// (drawn at `fps`) carry showed in the own character's motion on the first frame drawn after
/// it; `report` is the judder report of the run, shown on failure.
///
/// # Panics
///
/// If a change showed later, or not at all.
pub fn assert_each_change_shows_by_the_next_frame(
    frames: &[DrawnFrame],
    changes: usize,
    fps: &str,
    report: &JudderReport,
) {
    let local = measure_local(frames);
    assert_eq!(local.unseen_changes, 0, "every change shows\n{report}");
    assert_eq!(local.latencies_ms.len(), changes, "{report}");
    let worst = local.latencies_ms.iter().copied().fold(0.0, f64::max);
    assert!(
        worst <= frame_ms(fps) + 0.01,
        "a change showed {worst} ms after it, later than the next frame (each change: {:?} \
         ms)\n{report}",
        local.latencies_ms
    );
}
