//! What the window tests share: where they write, the binary, a config directory of each
//! test's own, and a virtual X display.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use fixstep_gpu::testing::gpu_or_skip;

/// Where the tests write their pictures and logs: under the build's target directory, never
/// in the repository.
pub fn output_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("window-tests");
    std::fs::create_dir_all(&dir).expect("the output directory");
    dir
}

/// The `fixstep` binary.
pub const FIXSTEP: &str = env!("CARGO_BIN_EXE_fixstep");

/// An Xvfb server, stopped when dropped.
pub struct Xvfb {
    child: Child,
    /// Its `DISPLAY`.
    pub display: String,
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts Xvfb on a display number it picks itself (`-displayfd`), or says why not.
pub fn start_xvfb() -> Result<Xvfb, String> {
    let mut child = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start Xvfb ({e}); install the xvfb package"))?;
    let stdout = child.stdout.take().ok_or("Xvfb has no output")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).map_err(|e| format!("Xvfb said nothing: {e}"))?;
    let number = line.trim();
    if number.is_empty() {
        let _ = child.kill();
        return Err("Xvfb did not start".to_owned());
    }
    Ok(Xvfb { display: format!(":{number}"), child })
}

/// A config directory of the test's own (so that no test reads or writes the player's
/// settings), empty.
pub fn config_home(test: &str) -> PathBuf {
    let dir = output_dir().join(format!("{test}-config"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Xvfb on a display of its own, or `None` (the test skipped, saying why) without a GPU or
/// Xvfb, unless CI requires them.
pub fn xvfb_or_skip(test: &str) -> Option<Xvfb> {
    gpu_or_skip(test)?;
    match start_xvfb() {
        Ok(x) => Some(x),
        Err(reason) => {
            assert!(std::env::var("FIXSTEP_REQUIRE_GPU").as_deref() != Ok("1"), "{reason}");
            println!("skipped: {reason}");
            None
        }
    }
}
