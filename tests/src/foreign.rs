//! `fixstep` built for another architecture and run on this machine: aarch64 under qemu's
//! user-mode emulation, 32-bit x86 natively. The targets and their runners are the ones
//! `.cargo/config.toml` names, so `cargo test --target T` and these tests run a binary alike.
//!
//! A machine without a target's toolchain (the rustup target, the cross linker, the emulator)
//! skips the tests that need it, saying so; CI installs them and sets [`REQUIRE_FOREIGN_VAR`],
//! which turns a missing toolchain into a failure.

use std::process::{Command, Stdio};

use crate::processes::Program;
use crate::{build_fixstep, workspace_root};

/// Set to `1` where the foreign targets must run (CI): a target that cannot is a failure, not
/// a skip.
pub const REQUIRE_FOREIGN_VAR: &str = "FIXSTEP_REQUIRE_FOREIGN";

/// A target `fixstep` is built for to play against this machine's build.
#[derive(Clone, Copy, Debug)]
pub struct Foreign {
    /// The Rust target triple.
    pub target: &'static str,
    /// The program that runs its binaries here, relative to the workspace root (the target's
    /// `runner` in `.cargo/config.toml`); `None` where this machine runs them itself.
    pub runner: Option<&'static str>,
    /// The C compiler that links for the target.
    linker: &'static str,
}

/// 64-bit ARM: a player on an ARM laptop or a Raspberry Pi, emulated here.
pub const AARCH64: Foreign = Foreign {
    target: "aarch64-unknown-linux-gnu",
    runner: Some(".cargo/runners/aarch64"),
    linker: "aarch64-linux-gnu-gcc",
};

/// 32-bit x86, run natively by this machine's 64-bit CPU: another word size and another
/// calling convention for the same instructions.
pub const I686: Foreign =
    Foreign { target: "i686-unknown-linux-gnu", runner: None, linker: "i686-linux-gnu-gcc" };

impl Foreign {
    /// Builds the headless `fixstep` (no window, no GPU) for this target, in this profile,
    /// and returns how to run it; `None`, having said why, where this machine cannot and CI
    /// does not require it.
    ///
    /// # Panics
    ///
    /// If the build fails where the toolchain is installed, or where [`REQUIRE_FOREIGN_VAR`]
    /// requires it.
    #[must_use]
    pub fn build_fixstep(&self) -> Option<Program> {
        if let Err(missing) = self.toolchain() {
            return skip_or_fail(self.target, &missing);
        }
        let binary = build_fixstep(Some(self.target));
        let runner = self.runner.map(|runner| workspace_root().join(runner));
        let program = Program::new(runner, binary);
        // The emulator, the target's loader and C library: what the build does not need.
        match program.command().arg("--version").output() {
            Ok(out) if out.status.success() => Some(program),
            Ok(out) => {
                let said = String::from_utf8_lossy(&out.stderr);
                skip_or_fail(self.target, &format!("its fixstep does not run: {}", said.trim()))
            }
            Err(e) => skip_or_fail(self.target, &format!("its fixstep does not start: {e}")),
        }
    }

    /// Whether this machine has what building for the target takes; what is missing if not.
    fn toolchain(&self) -> Result<(), String> {
        let installed = Command::new("rustup")
            .args(["target", "list", "--installed"])
            .output()
            .map_err(|e| format!("rustup cannot be asked for its targets: {e}"))?;
        if !String::from_utf8_lossy(&installed.stdout).lines().any(|t| t == self.target) {
            return Err(format!("rustup target add {} has not been run", self.target));
        }
        let linker = Command::new(self.linker).arg("--version").stdout(Stdio::null()).status();
        if !linker.is_ok_and(|s| s.success()) {
            return Err(format!("no {} to link with", self.linker));
        }
        Ok(())
    }
}

/// `None`, having said why `target` is skipped; or, where [`REQUIRE_FOREIGN_VAR`] requires the
/// foreign targets, a failure.
fn skip_or_fail(target: &str, why: &str) -> Option<Program> {
    let required = std::env::var(REQUIRE_FOREIGN_VAR).is_ok_and(|v| v == "1");
    assert!(!required, "{target}: {why}");
    println!("skipped: {target} cannot build or run here ({why})");
    None
}
