//! The simulation crates' clippy configuration really rejects floats, hash-ordered
//! collections and the wall clock: CI's `cargo clippy -- -D warnings` is what enforces the
//! first determinism rule, so the configuration itself is tested here on a scratch crate.

use std::path::Path;
use std::process::Command;

use fixstep_tests::processes::shared_machine;
use fixstep_tests::workspace_root;

/// Runs clippy with `clippy_toml` on a scratch crate whose library is `source`, and returns
/// whether it passed and what it printed.
fn clippy_on(clippy_toml: &Path, source: &str) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("fixstep-float-ban-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("scratch dir");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"scratch\"\nversion = \"0.0.0\"\nedition = \"2024\"\n[workspace]\n",
    )
    .expect("manifest");
    std::fs::copy(clippy_toml, dir.join("clippy.toml")).expect("clippy.toml");
    std::fs::write(dir.join("src/lib.rs"), source).expect("source");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["clippy", "--quiet", "--", "-D", "warnings"])
        .current_dir(&dir)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("cargo clippy runs");
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn clippy_rejects_floats_maps_and_clocks_in_runtime_and_game() {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    for krate in ["runtime", "game/town", "game/arena"] {
        let config = workspace_root().join(krate).join("clippy.toml");
        let clean = "//! c\n/// d\npub fn half(x: i64) -> i64 { x / 2 }\n";
        let (passed, text) = clippy_on(&config, clean);
        assert!(passed, "{krate}: integer code must pass: {text}");
        for (banned, bad) in [
            ("f32", "pub fn half(x: f32) -> f32 { x }"),
            ("f64", "pub fn speed() -> Option<f64> { None }"),
            (
                "std::collections::HashMap",
                "pub fn m() -> std::collections::HashMap<u8, u8> { Default::default() }",
            ),
            (
                "std::time::Instant",
                "pub fn now() -> std::time::Instant { std::time::Instant::now() }",
            ),
        ] {
            let (passed, text) = clippy_on(&config, &format!("//! c\n/// d\n{bad}\n"));
            assert!(!passed, "{krate}: clippy accepted {banned}");
            assert!(
                text.contains(&format!("disallowed type `{banned}`")),
                "{krate} {banned}: {text}"
            );
        }
    }
}
