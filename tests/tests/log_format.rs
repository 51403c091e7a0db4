//! The program's log lines on standard error: `fixstep: ...` for a person by default, and one
//! JSON object a line with `--log-format json`, for a log collector.

use std::time::Duration;

use fixstep_tests::Scratch;
use fixstep_tests::processes::{Hosting, Running, shared_machine, strs};
use serde_json::Value;

/// Ticks the host runs: two seconds, long enough for a player to join and leave.
const HOST_TICKS: &str = "40";

/// A host and a player, each logging as `format` asks: the host's and the player's standard
/// error.
fn logged_game(name: &str, format: &[&str]) -> [String; 2] {
    let _machine = shared_machine();
    let dir = Scratch::new("log-format", name);
    let game = Hosting::direct();
    let mut host_args = format.iter().map(|&a| a.to_owned()).collect::<Vec<_>>();
    host_args.extend(game.host_args());
    host_args.extend(["--ticks", HOST_TICKS, "--metrics", "127.0.0.1:0"].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("hosting", Duration::from_secs(60));
    let mut peer_args = format.to_vec();
    peer_args.extend(["join", game.entry.as_str(), "--headless", "--bot", "--ticks", "10"]);
    let peer = Running::start(&dir, "peer", &peer_args).finish();
    let host = host.finish();
    [host.stderr, peer.stderr]
}

/// With `--log-format json`, every line the host and a player write on standard error is a
/// JSON object with a timestamp, a level, a target and a message, and the host's say what
/// its human lines say (hosting, the player joining, where the metrics are, the lateness).
#[test]
fn json_logs_are_one_object_a_line_with_the_fields_a_collector_reads() {
    let [host, peer] = logged_game("json", &["--log-format", "json"]);
    let mut messages = Vec::new();
    for (who, log) in [("host", &host), ("peer", &peer)] {
        for line in log.lines() {
            let event: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{who}'s line {line:?} is no JSON: {e}"));
            for field in ["timestamp", "level", "target", "message"] {
                assert!(event[field].is_string(), "{who}'s line {line:?} has no {field}");
            }
            assert!(["INFO", "WARN", "ERROR"].contains(&event["level"].as_str().unwrap_or("")));
            if who == "host" {
                messages.push(event["message"].as_str().unwrap_or_default().to_owned());
            }
        }
    }
    for said in ["hosting ", "joined as player", "metrics at http://", "ticks ran late by"] {
        assert!(messages.iter().any(|m| m.contains(said)), "no {said:?} in {messages:?}");
    }
    let hosting: Value = host
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["message"].as_str().is_some_and(|m| m.starts_with("hosting ")))
        .expect("the hosting line");
    assert!(
        hosting["address"].as_str().is_some_and(|a| a.starts_with("127.0.0.1:")),
        "the event carries its fields: {hosting}"
    );
}

/// By default every line the host writes is a person's `fixstep: ...`, with no JSON in it.
#[test]
fn human_logs_are_the_lines_the_program_always_wrote() {
    let [host, _] = logged_game("human", &[]);
    assert!(!host.trim().is_empty());
    for line in host.lines() {
        assert!(line.starts_with("fixstep: ") && !line.contains('{'), "{line:?}\n{host}");
    }
    assert!(host.contains("fixstep: hosting "), "{host}");
}
