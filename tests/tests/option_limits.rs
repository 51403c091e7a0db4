//! Options that multiply what a run writes or holds have upper limits, refused by the
//! command line's parser in one line that names the limit, before anything runs.

use std::time::Duration;

use fixstep_tests::{Scratch, arg, one_line_error, run_fixstep_within};

/// The longest a refusal may take: it ends before anything runs, in milliseconds; a debug
/// build starting on a busy machine is given far more. A limit that went missing lets a host
/// or a spectator run on, and fails here instead of holding the test for ever.
const REFUSAL_LIMIT: Duration = Duration::from_secs(60);

/// Runs `fixstep args`, which must be refused, within [`REFUSAL_LIMIT`].
fn refused(args: &[&str]) -> String {
    one_line_error(&run_fixstep_within(args, REFUSAL_LIMIT))
}

#[test]
fn a_frame_rate_over_a_thousand_is_refused_before_a_frame_is_drawn() {
    let dir = Scratch::new("option-limits", "fps");
    let drawn = dir.path("drawn.jsonl");
    let line = refused(&["sim", "--ticks", "10", "--fps", "100000000", "--drawn-log", arg(&drawn)]);
    assert!(line.contains("--fps") && line.contains("at most 1000"), "{line}");
    assert!(!drawn.exists(), "nothing is written");
    for fps in ["0", "-5", "nan", "inf"] {
        let rate = format!("--fps={fps}");
        let line = refused(&["sim", "--ticks", "1", &rate]);
        assert!(line.contains("at most 1000"), "{fps}: {line}");
    }
    let ok = run_fixstep_within(&["sim", "--ticks", "1", "--fps", "1000"], REFUSAL_LIMIT);
    assert!(ok.status.success(), "a thousand frames a second is allowed");
}

#[test]
fn every_multiplying_option_names_its_limit() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "--ticks", "864001"], "0..=864000"),
        (&["sim", "--ticks", "1", "--bots", "65536"], "the town holds at most 65535 players"),
        (&["sync-test", "--ticks", "864001"], "0..=864000"),
        (&["sync-test", "--bots", "257"], "0..=256"),
        (&["host", "--headless", "--ticks", "864001"], "0..=864000"),
        (&["host", "--headless", "--fps", "1001"], "at most 1000"),
        (&["join", "127.0.0.1:9", "--headless", "--fps", "1001"], "at most 1000"),
        (&["spectate", "127.0.0.1:9", "--headless", "--ticks", "864001"], "0..=864000"),
        (&["spectate", "127.0.0.1:9", "--headless", "--fps", "1001"], "at most 1000"),
        (&["play", "--frames", "10000001"], "0..=10000000"),
        (&["play", "--bots", "257"], "0..=256"),
        (&["screenshot", "--tick", "864001", "--out", "x.png"], "0..=864000"),
        (&["screenshot", "--tick", "1", "--bench-frames", "100001"], "0..=100000"),
        (
            &["screenshot", "--tick", "1", "--out", "x.png", "--extra-characters", "10001"],
            "0..=10000",
        ),
        (&["judder", "d.jsonl", "--worst", "101"], "0..=100"),
        (&["loadtest", "127.0.0.1:9", "--peers", "1", "--duration", "86401"], "1..=86400"),
        (
            &["netem", "--listen", "127.0.0.1:9", "--forward", "127.0.0.1:9", "--delay", "10001"],
            "0..=10000",
        ),
        (
            &["netem", "--listen", "127.0.0.1:9", "--forward", "127.0.0.1:9", "--jitter", "10001"],
            "0..=10000",
        ),
        (&["lan", "--wait-ms", "60001"], "0..=60000"),
    ];
    for (args, limit) in cases {
        let line = refused(args);
        assert!(line.contains(limit), "`fixstep {}` must name {limit}: {line}", args.join(" "));
    }
}
