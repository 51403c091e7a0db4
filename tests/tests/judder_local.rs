//! The local presentation's smoothness, measured end to end: a walker crosses the town at
//! constant speed and through a teleport, `fixstep sim` draws it at 60 Hz, at 144 Hz and at
//! uneven frame times with a hitch, and `fixstep judder`'s measures (called as a library) must
//! find nothing wrong with any character: no frame off pace, no pop, reversal, slide, long-way
//! turn or animation back-step, and no frame drawn between the two ends of the teleport.

use std::fs;

use fixstep_tests::processes::shared_machine;
use fixstep_tests::{Scratch, arg, judge, run_fixstep};
use fixstep_tools::judder::{JudderReport, Summary, TruthLine, read_truth};
use fixstep_town_view::record::TAXI_ID_BASE;

/// The walker's commands: player 0 alone in the town (`--bots 0`), on a path chosen to meet no
/// one. Positions are ground metres, x east and y north, from `assets/levels/town.ron`; the
/// walk is 0.14 m a tick (1.4 m/s). The path keeps 2 m or more from the pedestrians' sidewalk
/// loops and the taxi lanes and crosses the streets where no taxi comes near (the test checks
/// that the walker's truth never changes pace, so a changed town shows up as such, not as a
/// judder).
const SCRIPT: &str = "\
# tick player forward strafe turn
# Player 0 spawns at (-8, -8) facing north-east; turn to face south, standing.
0    0  0    0  -16384
1    0  0    0  -8192
2    0  0    0  0
# Walk south after 3 s, once Ada (walking the plaza's south sidewalk, y = -19) has passed.
30   0  100  0  0
# After 93 steps, at y = -21.02: turn west, 2 m south of the plaza's and the library's
# sidewalk loops (y = -19) and 2 m north of the westbound taxi lane (y = -23), across
# columns b (x = -25) and a (x = -75) into the park; no taxi comes within 12 m.
123  0  100  0  -16384
124  0  100  0  0
# After 586 steps west, at x = -90.04: turn north, into the west teleport zone at (-90, 0)
# (radius 1.5 m), which puts the walker at the east exit (85, 0) facing west, around tick 850.
709  0  100  0  -16384
710  0  100  0  0
# About 2 s after the teleport, stop 5 m short of column d's taxi lane (x = 77) and stand.
870  0  0    0  0
";

/// Ticks run: the walk, the teleport, and 9 s of standing after it.
const TICKS: u32 = 960;

/// The walker's step per tick (m) and its tolerance: the fixed-point walk is 0.14 m along a
/// direction whose length the integer sine and cosine round by far less than a millimetre.
const WALK_STEP_M: f64 = 0.14;
const STEP_TOLERANCE_M: f64 = 0.001;

/// How the simulated frames are paced.
enum Pacing {
    /// Evenly, at this many frames a second.
    Fps(&'static str),
    /// Intervals (ms) from a frame-times file, repeated.
    Uneven,
}

/// Frame intervals alternating 15 and 18.5 ms (a display that cannot hold its rate), with one
/// 120 ms hitch, longer than a tick, in the middle; the file repeats, so every 1.8 s or so.
fn uneven_frame_times() -> String {
    let mut text = String::from("# alternating 15 and 18.5 ms, one 120 ms hitch\n");
    for i in 0..100 {
        text.push_str(match i {
            51 => "120\n",
            _ if i % 2 == 0 => "15\n",
            _ => "18.5\n",
        });
    }
    text
}

/// Runs the walker with `pacing`, writing the drawn and truth logs, and measures them.
fn walk(test: &str, pacing: &Pacing) -> (JudderReport, Vec<TruthLine>) {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let dir = Scratch::new("judder-local", test);
    let script = dir.path("walker.txt");
    fs::write(&script, SCRIPT).expect("the script can be written");
    let (drawn, truth) = (dir.path("drawn.jsonl"), dir.path("truth.jsonl"));
    let times = dir.path("frame-times.txt");
    let ticks = TICKS.to_string();
    let mut args = vec![
        "sim",
        "--level",
        "assets/levels/town.ron",
        "--ticks",
        &ticks,
        "--bots",
        "0",
        "--commands",
        arg(&script),
        "--drawn-log",
        arg(&drawn),
        "--truth-log",
        arg(&truth),
    ];
    match pacing {
        Pacing::Fps(fps) => args.extend(["--fps", fps]),
        Pacing::Uneven => {
            fs::write(&times, uneven_frame_times()).expect("the frame times can be written");
            args.extend(["--frame-times", arg(&times)]);
        }
    }
    let out = run_fixstep(&args);
    assert!(out.status.success(), "fixstep sim failed: {}", String::from_utf8_lossy(&out.stderr));
    let report = judge(&drawn, &truth);
    let lines = read_truth(&truth).expect("the truth log reads back");
    (report, lines)
}

/// The walker's id: characters' ids are slot indices (below the taxis'), and the player's
/// character is made after the pedestrians and talkers, so it has the highest.
fn walker_id(truth: &[TruthLine]) -> u64 {
    let first = truth.first().expect("the truth log has lines");
    first
        .entities
        .iter()
        .map(|e| e.id)
        .filter(|&id| id < TAXI_ID_BASE)
        .max()
        .expect("the truth has characters")
}

/// Checks from the truth that the walk is what the test means to measure: every tick a step
/// of exactly walking pace or none (nobody pushed, struck or blocked the walker), the one jump
/// with plenty of walking before it and some after it, then standing.
fn check_walk(truth: &[TruthLine], id: u64) {
    let track: Vec<(f64, [f64; 3], u32)> = truth
        .iter()
        .filter_map(|line| {
            line.entities.iter().find(|e| e.id == id).map(|e| (line.t_ms, e.pos, e.jumps))
        })
        .collect();
    assert_eq!(track.len(), truth.len(), "the walker is in every truth line");
    let (mut before, mut after) = (0, 0);
    for pair in track.windows(2) {
        let ((_, a, jumps_a), (t, b, jumps_b)) = (pair[0], pair[1]);
        if jumps_a != jumps_b {
            continue;
        }
        let step = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2) + (b[2] - a[2]).powi(2)).sqrt();
        let walking = (step - WALK_STEP_M).abs() < STEP_TOLERANCE_M;
        assert!(
            walking || step < 1e-9,
            "the walker was disturbed at {t} ms: a step of {step:.4} m (walking is \
             {WALK_STEP_M} m a tick); the town changed under the script's path"
        );
        if walking && jumps_b == 0 {
            before += 1;
        } else if walking {
            after += 1;
        }
    }
    let jumps = track.last().map_or(0, |&(_, _, jumps)| jumps);
    assert_eq!(jumps, 1, "the walker should teleport exactly once");
    assert!(before > 500, "the walk before the teleport is long: {before} steps");
    assert!(after >= 10, "the walker keeps walking after the teleport: {after} steps");
    let last = truth.last().expect("the truth log has lines");
    let others: Vec<u64> = last
        .entities
        .iter()
        .filter(|e| e.id < TAXI_ID_BASE && e.id != id && e.jumps > 0)
        .map(|e| e.id)
        .collect();
    assert!(others.is_empty(), "only the walker should jump; these characters did too: {others:?}");
}

/// Asserts the characters' smoothness and the walker's measures.
fn check_smooth(report: &JudderReport, truth: &[TruthLine], delay_ms: (f64, f64)) {
    let id = walker_id(truth);
    check_walk(truth, id);
    println!("{report}");
    let row = report.kind("character").expect("the drawn log draws characters");
    let t = &row.tally;
    assert!(t.frames > 1000, "many character frames measured: {}", t.frames);
    assert_eq!(t.off_pace, 0, "off-pace character frames");
    assert_eq!(t.long_way_turns, 0, "character turns drawn the long way round");
    assert_eq!(t.anim_backsteps, 0, "character animations stepping back");
    assert_eq!(t.pops, 0, "character pops");
    assert_eq!(t.reversals, 0, "character reversals");
    assert_eq!(t.slides, 0, "character slides");
    assert_eq!(t.misplaced, 0, "characters drawn between the two ends of a jump");

    let error = Summary::of(&t.position_errors_m).expect("position errors measured");
    assert!(error.max < 0.01, "position error up to {:.4} m", error.max);
    let delay = Summary::of(&t.delays_ms).expect("delays measured");
    assert!(
        delay.min >= delay_ms.0 && delay.max <= delay_ms.1,
        "delay {:.2}..{:.2} ms, expected within {:?}",
        delay.min,
        delay.max,
        delay_ms
    );

    let walker = report.entity(id).expect("the drawn log draws the walker");
    assert!(walker.tally.paced > 1000, "the walker's pace judged on {} frames", walker.tally.paced);
    // A measured frame pair spans the teleport, so "nothing misplaced" was really judged.
    assert!(
        walker.speeds.iter().any(|s| s.jumped),
        "no measured frame pair of the walker spans its teleport"
    );
    assert_eq!(walker.tally.misplaced, 0, "the walker drawn between the teleport's ends");
}

/// Fixed rates draw every frame 100 ms (one tick) behind, give or take rounding.
const FIXED_DELAY_MS: (f64, f64) = (99.0, 101.0);

#[test]
fn a_walker_through_a_teleport_is_smooth_at_60_hz() {
    let (report, truth) = walk("60hz", &Pacing::Fps("60"));
    check_smooth(&report, &truth, FIXED_DELAY_MS);
}

#[test]
fn a_walker_through_a_teleport_is_smooth_at_144_hz() {
    let (report, truth) = walk("144hz", &Pacing::Fps("144"));
    check_smooth(&report, &truth, FIXED_DELAY_MS);
}

#[test]
fn a_walker_through_a_teleport_is_smooth_at_uneven_frame_times_with_a_hitch() {
    let (report, truth) = walk("uneven", &Pacing::Uneven);
    // A hitch may leave a frame further behind (or the next nearer): within two ticks.
    check_smooth(&report, &truth, (0.0, 200.0));
}

/// A walker on open ground who starts, stops, walks again, runs and stops: every start and
/// stop changes its animation state (idle, walk, run).
const START_STOP: &str = "\
# tick player forward strafe turn
0   0 0   0 0
10  0 100 0 0
30  0 0   0 0
40  0 100 0 0
47  0 0   0 0
55  0 100 0 0 run
70  0 0   0 0
80  0 100 0 0
95  0 0   0 0
";

/// Runs [`START_STOP`] on `tests/levels/open_ground.ron` at `fps` and measures it.
fn start_and_stop(fps: &str) -> JudderReport {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let dir = Scratch::new("judder-local", &format!("start-stop-{fps}"));
    let script = dir.path("walker.txt");
    fs::write(&script, START_STOP).expect("the script can be written");
    let (drawn, truth) = (dir.path("drawn.jsonl"), dir.path("truth.jsonl"));
    let out = run_fixstep(&[
        "sim",
        "--level",
        "tests/levels/open_ground.ron",
        "--ticks",
        "110",
        "--commands",
        arg(&script),
        "--fps",
        fps,
        "--drawn-log",
        arg(&drawn),
        "--truth-log",
        arg(&truth),
    ]);
    assert!(out.status.success(), "fixstep sim failed: {}", String::from_utf8_lossy(&out.stderr));
    judge(&drawn, &truth)
}

/// Keeping the feet blended across a change of animation state (the presentation's one
/// departure from "reset" in the specification) is what keeps a walker's starts and stops at
/// its pace: a reset held the old place a tick and then stepped, 5.5 % of the moving frames
/// off pace and up to 0.33 m off.
fn starts_and_stops_at_pace(fps: &str) {
    let report = start_and_stop(fps);
    let t = &report.kind("character").expect("characters are drawn").tally;
    assert!(t.paced > 400, "{report}");
    assert_eq!((t.off_pace, t.pops, t.slides, t.reversals), (0, 0, 0, 0), "{report}");
    let error = Summary::of(&t.position_errors_m).expect("position errors measured");
    assert!(error.max < 0.01, "position error up to {:.4} m\n{report}", error.max);
}

#[test]
fn a_walker_that_starts_and_stops_keeps_its_pace_across_every_change_of_animation_at_60_hz() {
    starts_and_stops_at_pace("60");
}

#[test]
fn a_walker_that_starts_and_stops_keeps_its_pace_across_every_change_of_animation_at_144_hz() {
    starts_and_stops_at_pace("144");
}
