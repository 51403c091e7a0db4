//! The two example traces, end to end: the remote view (network clock, remote buffers, gap
//! delay) runs over each, and `fixstep judder`'s measures of what it drew must meet the
//! targets of a smooth client.
//!
//! `town-steady-60` is a 40 ms link without jitter, drawn at 60 Hz; `town-jitter-144` has 60
//! to 100 ms of delay, drawn at 144 Hz. Both hold five vehicles and three walkers in all three
//! tiers, starts, stops, a teleport, a walker placed elsewhere while at rest, tier changes, and
//! a car that appears mid-trace and leaves. They share one truth, kept compressed.

use std::fs;
use std::io::Read as _;
use std::path::Path;

use fixstep_tests::{Scratch, workspace_root};
use fixstep_tools::judder::{JudderArgs, JudderReport, KindRow, Summary, run_judder};
use fixstep_tools::trace::run_trace;

/// Vehicles: at most this share of paced frames off pace (%).
const VEHICLE_OFF_PACE_PERCENT: f64 = 1.0;
/// Vehicles: position error p99 at most this (m).
const VEHICLE_ERROR_P99_M: f64 = 0.05;
/// Walkers: at most this share of paced frames off pace (%). Walkers are drawn at each
/// segment's average speed, which departs from the truth while they speed up or slow down.
const WALKER_OFF_PACE_PERCENT: f64 = 5.0;
/// Median delay on the steady link (ms): 40 ms of path, the two ticks of interpolation
/// delay, and little else.
const STEADY_DELAY_P50_MS: f64 = 260.0;

/// The fewest paced frames of each kind a trace must judge, so that each kind's off-pace share
/// is a share of something: the 60 Hz trace judges about 9,600 of its five vehicles' frames
/// and 5,700 of its three walkers', the 144 Hz trace more than twice as many. Fewer means a
/// kind was mostly not drawn, not moving, or not judged, where a kind with none would count
/// as 0 % off pace.
const MIN_PACED_FRAMES_PER_KIND: usize = 5_000;

/// A scratch directory of the test `test`'s own with the example trace `name` and the shared
/// truth (decompressed) in it.
fn with_trace(name: &str, test: &str) -> Scratch {
    let scratch = Scratch::new("example-traces", test);
    let traces = workspace_root().join("tests/traces");
    fs::copy(traces.join(name).join("trace.jsonl"), scratch.path("trace.jsonl"))
        .expect("the example trace is in the repository");
    let mut truth = String::new();
    flate2::read::GzDecoder::new(
        fs::File::open(traces.join("town-truth.jsonl.gz")).expect("the truth is there"),
    )
    .read_to_string(&mut truth)
    .expect("the truth decompresses");
    scratch.write("truth.jsonl", truth);
    scratch
}

/// Runs the trace tool and judder over the example trace `name`.
fn draw_and_judge(name: &str) -> (JudderReport, Vec<u8>) {
    let scratch = with_trace(name, name);
    let drawn = drawn_log(&scratch.path("trace.jsonl"));
    fs::write(scratch.path("drawn.jsonl"), &drawn).expect("the drawn log can be written");
    let report = run_judder(&JudderArgs {
        drawn: scratch.path("drawn.jsonl"),
        truth: None,
        trace: Some(scratch.dir().to_path_buf()),
        plot: None,
        worst: 4,
        assets: workspace_root().join("assets"),
    })
    .expect("judder reads what the trace tool wrote");
    (report, drawn)
}

fn drawn_log(trace: &Path) -> Vec<u8> {
    let input = std::io::BufReader::new(fs::File::open(trace).expect("the trace opens"));
    let mut drawn = Vec::new();
    run_trace(input, &mut drawn).expect("the example trace is valid");
    drawn
}

fn row<'a>(report: &'a JudderReport, kind: &str) -> &'a KindRow {
    report.kind(kind).unwrap_or_else(|| panic!("no {kind} in\n{report}"))
}

/// The measures every example must meet.
fn assert_smooth(report: &JudderReport) {
    let vehicles = &row(report, "vehicle").tally;
    let walkers = &row(report, "walker").tally;
    for (kind, tally) in [("vehicle", vehicles), ("walker", walkers)] {
        assert!(
            tally.paced >= MIN_PACED_FRAMES_PER_KIND,
            "only {} paced {kind} frames (at least {MIN_PACED_FRAMES_PER_KIND})\n{report}",
            tally.paced
        );
    }
    let off = |t: &fixstep_tools::judder::Tally| t.off_pace_percent().expect("paced frames");
    assert!(off(vehicles) <= VEHICLE_OFF_PACE_PERCENT, "vehicles off pace\n{report}");
    let error = Summary::of(&vehicles.position_errors_m).expect("vehicles measured");
    assert!(error.p99 <= VEHICLE_ERROR_P99_M, "vehicle error p99 {}\n{report}", error.p99);
    assert!(off(walkers) <= WALKER_OFF_PACE_PERCENT, "walkers off pace\n{report}");
    let all = &report.all.tally;
    assert!(all.paced > 10_000, "most frames are judged\n{report}");
    assert_eq!(all.pops, 0, "pops\n{report}");
    assert_eq!(all.slides, 0, "slides\n{report}");
    assert_eq!(all.misplaced, 0, "frames drawn between the two places of a jump\n{report}");
    assert_eq!(all.early, 0, "entities drawn before their first measurement\n{report}");
    assert_eq!(all.reversals, 0, "steps against the motion\n{report}");
    assert_eq!(report.all.entities, 8, "every entity is drawn\n{report}");
}

#[test]
fn the_steady_link_at_60_hz_is_drawn_smoothly_and_with_little_delay() {
    let (report, _) = draw_and_judge("town-steady-60");
    assert_smooth(&report);
    let delay = Summary::of(&report.all.tally.delays_ms).expect("delays measured");
    assert!(delay.p50 <= STEADY_DELAY_P50_MS, "median delay {} ms\n{report}", delay.p50);
}

#[test]
fn the_jittery_link_at_144_hz_is_drawn_smoothly() {
    let (report, _) = draw_and_judge("town-jitter-144");
    assert_smooth(&report);
    // The jitter costs the difference between the earliest and the usual arrival, not more:
    // the earliest comes after 60 ms.
    let delay = Summary::of(&report.all.tally.delays_ms).expect("delays measured");
    assert!(delay.p50 <= STEADY_DELAY_P50_MS + 20.0, "median delay {} ms\n{report}", delay.p50);
}

#[test]
fn the_same_trace_draws_the_same_bytes() {
    let scratch = with_trace("town-jitter-144", "repeat");
    let first = drawn_log(&scratch.path("trace.jsonl"));
    let second = drawn_log(&scratch.path("trace.jsonl"));
    assert!(!first.is_empty());
    assert!(first == second, "two runs of one trace drew different logs");
}
