//! End-to-end runs of the `fixstep` binary: what a player or a script sees.

use fixstep_tests::run_fixstep;

#[test]
fn fixstep_about_says_what_is_there_and_succeeds() {
    let out = run_fixstep(&["about"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fixstep-runtime"), "{text}");
    assert!(text.contains("fixstep-game"), "{text}");
}

#[test]
fn a_usage_error_is_one_line_and_exit_code_2() {
    let out = run_fixstep(&["--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--no-such-flag"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn help_and_version_succeed_on_standard_output() {
    for flag in ["--help", "--version"] {
        let out = run_fixstep(&[flag]);
        assert!(out.status.success(), "{flag}");
        assert!(!out.stdout.is_empty(), "{flag}");
    }
}

/// What only a headless run does (a hash log, a tick limit, a bot) is refused in a window, in
/// one line naming `--headless`, rather than silently ignored.
#[test]
fn headless_only_options_are_refused_without_headless() {
    for args in [
        &["host", "--hash-log", "hashes.txt"][..],
        &["join", "127.0.0.1:7465", "--ticks", "10"],
        &["spectate", "127.0.0.1:7465", "--drawn-log", "drawn.jsonl"],
        &["--game", "arena", "host", "--bot"],
    ] {
        let line = fixstep_tests::one_line_error(&run_fixstep(args));
        assert!(line.contains("--headless"), "{args:?}: {line}");
    }
}
