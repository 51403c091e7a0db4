//! End-to-end runs of the `fixstep` binary: what a player or a script sees.

use fixstep_tests::run_fixstep;

#[test]
fn fixstep_about_says_what_is_there_and_succeeds() {
    let out = run_fixstep(&["about"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fixstep-runtime"), "{text}");
    assert!(text.contains("fixstep-town-view"), "{text}");
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

/// A host to reach at port 0 is bad input, as any address that names no host is: one line
/// naming the address, exit code 2, for every command that reaches a host.
#[test]
fn a_host_at_port_0_is_refused_as_bad_input() {
    for args in [
        &["join", "127.0.0.1:0", "--headless", "--ticks", "1"][..],
        &["spectate", "127.0.0.1:0", "--headless", "--ticks", "1"],
        &["loadtest", "127.0.0.1:0", "--peers", "1"],
    ] {
        let line = fixstep_tests::one_line_error(&run_fixstep(args));
        assert!(line.contains("`127.0.0.1:0` names port 0"), "{args:?}: {line}");
    }
}

/// A host told `--port 0` takes whichever port the system gives it, and its warning that the
/// session is open names that port, not 0.
#[test]
fn an_open_host_on_port_0_names_the_port_it_bound() {
    let out =
        run_fixstep(&["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--ticks", "1"]);
    assert!(out.status.success(), "{}", fixstep_tests::stderr(&out));
    let said = fixstep_tests::stderr(&out);
    let warning = said.lines().find(|l| l.contains("open and unencrypted")).expect("warned");
    assert!(!warning.contains("port 0 "), "{warning}");
    let bound = said
        .lines()
        .find(|l| l.contains("hosting "))
        .and_then(|l| l.rsplit(':').next())
        .expect("the address named");
    assert!(warning.contains(&format!("port {bound} ")), "{warning} / bound {bound}");
}

/// The help says what each command needs and what each option does, in its own words:
/// `judder` needs a truth (`--truth` or `--trace`), and `join --bot` speaks of the peer's
/// character, not the host's.
#[test]
fn the_help_says_what_a_command_needs_in_its_own_words() {
    let help = |args: &[&str]| fixstep_tests::stdout(&run_fixstep(args));
    let judder = help(&["judder", "--help"]);
    assert!(judder.contains("--truth") && judder.contains("--trace"), "{judder}");
    assert!(
        judder.contains("one of them is needed") || judder.contains("Needed unless"),
        "{judder}"
    );
    let join = help(&["join", "--help"]);
    assert!(join.contains("a headless peer's stands still"), "{join}");
    for command in ["join", "spectate"] {
        let text = help(&[command, "--help"]);
        assert!(text.contains("Stop once the game has run to this tick"), "{command}: {text}");
    }
}
