//! Helpers for Fixstep's cross-crate tests, which live in `tests/tests/`, one file per topic.

pub mod float_literals;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub mod tracegen;

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
    BINARY.get_or_init(|| {
        let release = !cfg!(debug_assertions);
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "fixstep-render", "--bin", "fixstep"]);
        if release {
            build.arg("--release");
        }
        let status = build.current_dir(workspace_root()).status().expect("cargo runs");
        assert!(status.success(), "building the fixstep binary failed");
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| workspace_root().join("target"), PathBuf::from);
        let binary = target
            .join(if release { "release" } else { "debug" })
            .join(format!("fixstep{}", std::env::consts::EXE_SUFFIX));
        assert!(binary.exists(), "no binary at {}", binary.display());
        binary
    })
}

/// Runs `fixstep` with `args` from the workspace root and returns what it did.
///
/// # Panics
///
/// If the binary cannot be started.
#[must_use]
pub fn run_fixstep(args: &[&str]) -> Output {
    Command::new(fixstep_binary())
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("the fixstep binary starts")
}
