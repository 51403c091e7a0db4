//! End-to-end runs of `fixstep trace`: a good trace gives a drawn log that `fixstep judder`
//! reads; a malformed one gives one line on standard error naming the file and the line at
//! fault, and exit code 2, never a panic.

use std::fs;

use fixstep_tests::{Scratch, arg, run_fixstep, stderr};

const HEADER: &str = r#"{"header":{"format":1,"tick_ms":100}}"#;

fn snapshot(at_ms: f64, tick: u32, x: f64) -> String {
    format!(
        r#"{{"at_ms":{at_ms},"snapshot":{{"tick":{tick},"entities":[{{"id":1,"kind":"walker","pos":[{x},0,0],"vel":[1,0,0],"yaw":0,"at_rest":false,"tier":1,"jumps":0}}],"gone":[]}}}}"#
    )
}

fn frame(at_ms: f64) -> String {
    format!(r#"{{"at_ms":{at_ms},"frame":{{}}}}"#)
}

/// A small valid trace: a walker measured every tick for a second, frames at 60 Hz.
fn good_trace() -> String {
    let mut lines = vec![HEADER.to_owned()];
    let mut events: Vec<(f64, String)> = Vec::new();
    for tick in 0..10 {
        let at = f64::from(tick) * 100.0 + 40.0;
        events.push((at, snapshot(at, tick, f64::from(tick) * 0.1)));
    }
    for i in 0..60 {
        let at = f64::from(i) * 50.0 / 3.0;
        events.push((at, frame(at)));
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    lines.extend(events.into_iter().map(|(_, line)| line));
    lines.join("\n") + "\n"
}

/// A scratch path as the text of an argument.
fn text(path: &std::path::Path) -> String {
    arg(path).to_owned()
}

/// Runs `fixstep trace` on `contents` and expects exit 2 with one line naming the file and
/// containing each of `expected`.
fn refused(test: &str, contents: &str, expected: &[&str]) {
    let scratch = Scratch::new("cli-trace", test);
    let trace = text(&scratch.write("trace.jsonl", contents));
    let out = run_fixstep(&["trace", "--in", &trace, "--out", arg(&scratch.path("drawn.jsonl"))]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "exit code; stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(&trace), "names the file: {err}");
    for part in expected {
        assert!(err.contains(part), "mentions {part:?}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_good_trace_is_drawn_and_judder_reads_the_log() {
    let scratch = Scratch::new("cli-trace", "good");
    let trace = text(&scratch.write("trace.jsonl", good_trace()));
    let drawn = text(&scratch.path("drawn.jsonl"));
    let out = run_fixstep(&["trace", "--in", &trace, "--out", &drawn]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("drew 60 frames from 10 snapshots"), "{said}");
    let log = fs::read_to_string(&drawn).expect("the drawn log is written");
    assert_eq!(log.lines().count(), 60, "one line per frame");
    let last: serde_json::Value =
        serde_json::from_str(log.lines().last().expect("lines")).expect("JSON");
    assert_eq!(last["entities"][0]["id"], 1);
    // Truth for the judder: the walker at 1 m/s from x = 0 at tick 0.
    let truth: String = (0..=200)
        .map(|i| {
            let t = f64::from(i) * 5.0;
            format!(
                r#"{{"t_ms":{t},"entities":[{{"id":1,"pos":[{},0,0],"yaw":0,"speed":1,"jumps":0}}]}}"#,
                t / 1000.0
            ) + "\n"
        })
        .collect();
    let truth = text(&scratch.write("truth.jsonl", &truth));
    let judged = run_fixstep(&["judder", &drawn, "--truth", &truth]);
    assert!(judged.status.success(), "{}", stderr(&judged));
}

#[test]
fn an_empty_trace_is_refused() {
    refused("empty", "", &["empty"]);
}

#[test]
fn a_trace_without_its_header_is_refused_at_line_one() {
    refused("no-header", &(frame(0.0) + "\n"), &["line 1"]);
}

#[test]
fn a_trace_of_another_format_or_tick_is_refused() {
    refused("format", r#"{"header":{"format":2,"tick_ms":100}}"#, &["line 1", "format 2"]);
    refused("tick", r#"{"header":{"format":1,"tick_ms":50}}"#, &["line 1", "tick_ms 50"]);
}

#[test]
fn a_line_that_is_not_json_is_refused_with_its_number() {
    let contents = format!("{HEADER}\n{}\nnot json\n{}\n", frame(0.0), frame(16.0));
    refused("not-json", &contents, &["line 3"]);
}

#[test]
fn time_going_back_is_refused() {
    let contents = format!("{HEADER}\n{}\n{}\n", frame(50.0), frame(20.0));
    refused("time-back", &contents, &["line 3", "before"]);
}

#[test]
fn a_bad_entity_is_refused_naming_it() {
    let bad_tier = snapshot(40.0, 0, 0.0).replace(r#""tier":1"#, r#""tier":3"#);
    refused("tier", &format!("{HEADER}\n{bad_tier}\n"), &["line 2", "entity 1", "tier 3"]);
    let bad_kind = snapshot(40.0, 0, 0.0).replace("walker", "boat");
    refused("kind", &format!("{HEADER}\n{bad_kind}\n"), &["line 2", "boat"]);
    let infinite = snapshot(40.0, 0, 0.0).replace("[0,0,0]", "[1e999,0,0]");
    refused("infinite", &format!("{HEADER}\n{infinite}\n"), &["line 2"]);
}

#[test]
fn an_event_that_is_both_or_neither_is_refused() {
    let both = r#"{"at_ms":1,"frame":{},"snapshot":{"tick":0,"entities":[],"gone":[]}}"#;
    refused("both", &format!("{HEADER}\n{both}\n"), &["line 2", "not both"]);
    refused("neither", &format!("{HEADER}\n{{\"at_ms\":1}}\n"), &["line 2"]);
}

#[test]
fn a_missing_trace_is_refused() {
    let scratch = Scratch::new("cli-trace", "missing");
    let out = run_fixstep(&[
        "trace",
        "--in",
        arg(&scratch.path("nowhere.jsonl")),
        "--out",
        arg(&scratch.path("drawn.jsonl")),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read trace"), "{}", stderr(&out));
}
