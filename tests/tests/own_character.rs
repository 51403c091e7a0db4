//! The own character answers on the frame after the key: `fixstep sim --input-script` holds
//! keys at real times as a window does, the local player is drawn from its prediction, and
//! the drawn log is measured against the authoritative truth, at 60 and 144 Hz.
//!
//! The level is `tests/levels/open_ground.ron`: open ground, the mayor 10 m north of the spawn
//! and a teleport 10 m east of it, nothing else that moves.

use fixstep_tests::scripted::run_script;
use fixstep_tests::{assert_each_change_shows_by_the_next_frame, frame_ms};
use fixstep_tools::judder::{DrawnFrame, JudderReport, Truth, measure_local, read_truth};

/// Starts, stops, turns, runs and strafes at times that fall at every phase of a tick, in the
/// open south of the spawn. `TURN` is per tick held.
const MOVES: &str = "\
# ms  player forward strafe turn flags
0     0  0    0    16384
200   0  0    0    0
1030  0  100  0    0
2270  0  0    0    0
3010  0  100  0    0     run
3555  0  100  0    2048  run
4120  0  0    0    0
4610  0  0    100  0
5055  0  -100 -100 0
5500  0  0    0    -2048
5980  0  0    0    0
";

/// Changes of the held input in [`MOVES`] after its first line.
const MOVES_CHANGES: usize = 10;

/// Turns east (about a quarter turn: a tick of turning, to the nearest frame) and walks into
/// the teleport 10 m ahead, and on from where it puts the character.
const TELEPORT: &str = "\
0     0  0    0  -16384
101   0  100  0  0
";

/// Walks north into the mayor, 10 m ahead, and keeps pushing.
const BUMP: &str = "\
0     0  100  0  0
";

/// How far the walk of [`BUMP`] would go in its 110 ticks with no one in the way, metres.
const BUMP_FREE_M: f64 = 110.0 * 0.14;

/// Walking and running speeds, m/s (the rules' 0.14 and 0.4 m a tick).
const WALK_M_S: f64 = 1.4;
const RUN_M_S: f64 = 4.0;

/// How far a frame may move the own character beyond what its held input moves it, metres.
const BEYOND_HELD_M: f64 = 0.01;

/// After this long with the input unchanged (ms), the drawn character is where the rules put
/// it, within [`SETTLED_M`].
const SETTLED_AFTER_MS: f64 = 300.0;
const SETTLED_M: f64 = 0.001;

/// A run of the script: the frames drawn, the truth, and the judder report.
struct Run {
    frames: Vec<DrawnFrame>,
    truth: Truth,
    report: JudderReport,
    hash: String,
}

fn play(test: &str, script: &str, ticks: u32, fps: &str, extra: &[&str]) -> Run {
    let game = ["--level", "tests/levels/open_ground.ron"];
    let run = run_script("own-character", test, &game, script, ticks, fps, extra);
    Run {
        truth: Truth::new(&read_truth(&run.truth_log).expect("truth")),
        frames: run.frames,
        report: run.report,
        hash: run.hash,
    }
}

fn answers_on_the_first_frame(fps: &str) {
    let run = play(&format!("answers-{fps}"), MOVES, 70, fps, &[]);
    assert_each_change_shows_by_the_next_frame(&run.frames, MOVES_CHANGES, fps, &run.report);
}

#[test]
fn the_own_character_starts_stops_and_turns_on_the_first_frame_after_the_key_at_60_hz() {
    answers_on_the_first_frame("60");
}

#[test]
fn the_own_character_starts_stops_and_turns_on_the_first_frame_after_the_key_at_144_hz() {
    answers_on_the_first_frame("144");
}

/// The speed `held` moves a character at, m/s.
fn held_speed(held: [i32; 4]) -> f64 {
    let share = (f64::from(held[0]).hypot(f64::from(held[1])) / 100.0).min(1.0);
    share * if held[3] == 1 { RUN_M_S } else { WALK_M_S }
}

fn never_beyond_the_held_input(fps: &str) {
    let run = play(&format!("beyond-{fps}"), MOVES, 70, fps, &[]);
    let mut checked = 0;
    for pair in run.frames.windows(2) {
        let local = |f: &DrawnFrame| f.entities.iter().find(|e| e.local).cloned();
        let (Some(a), Some(b)) = (local(&pair[0]), local(&pair[1])) else { continue };
        let held = b.held.expect("the local character carries its held input");
        let dt_s = (pair[1].at_ms - pair[0].at_ms) / 1000.0;
        let step = (0..3).map(|i| (b.pos[i] - a.pos[i]).powi(2)).sum::<f64>().sqrt();
        let allowed = held_speed(held) * dt_s + BEYOND_HELD_M;
        assert!(
            step <= allowed,
            "at {} ms the own character moved {step:.4} m, its held input {held:?} only {:.4} m",
            pair[1].at_ms,
            allowed - BEYOND_HELD_M
        );
        checked += 1;
    }
    assert!(checked > 400, "only {checked} frames checked");
}

#[test]
fn no_frame_moves_the_own_character_beyond_its_held_input_at_60_hz() {
    never_beyond_the_held_input("60");
}

#[test]
fn no_frame_moves_the_own_character_beyond_its_held_input_at_144_hz() {
    never_beyond_the_held_input("144");
}

fn settles_on_the_authoritative_motion(fps: &str) {
    let run = play(&format!("settles-{fps}"), MOVES, 70, fps, &[]);
    let mut changes: Vec<f64> = run.frames.iter().filter_map(|f| f.input_ms).collect();
    changes.dedup();
    let mut checked = 0;
    for frame in &run.frames {
        let Some(e) = frame.entities.iter().find(|e| e.local) else { continue };
        let since = frame.at_ms - frame.input_ms.expect("frames carry the input's time");
        // The truth between two ticks is a straight line over the tick, whose command is all
        // that was held over it: a change before the tick ends is already in it (and a frame
        // holds what it sees at its end over the whole frame, so a change counts from the
        // frame before it).
        let tick_ends_ms = 100.0 * (e.tick.floor() + 1.0);
        let changes_in_tick =
            changes.iter().any(|&c| c > frame.at_ms && c - frame_ms(fps) < tick_ends_ms);
        if since < SETTLED_AFTER_MS || changes_in_tick {
            continue;
        }
        // Truth ends at the last tick run: a frame drawn past it has nothing to compare with.
        let Some(truth) = run.truth.at(e.id, 100.0 * e.tick) else { continue };
        let off = (0..3).map(|i| (e.pos[i] - truth.pos[i]).powi(2)).sum::<f64>().sqrt();
        assert!(
            off <= SETTLED_M,
            "at {} ms, {since:.0} ms after the last change, the own character is {off:.5} m from \
             where the rules put it at tick {:.3}",
            frame.at_ms,
            e.tick
        );
        checked += 1;
    }
    assert!(checked > 150, "only {checked} settled frames checked");
}

#[test]
fn held_unchanged_for_300_ms_the_own_character_is_where_the_rules_put_it_at_60_hz() {
    settles_on_the_authoritative_motion("60");
}

#[test]
fn held_unchanged_for_300_ms_the_own_character_is_where_the_rules_put_it_at_144_hz() {
    settles_on_the_authoritative_motion("144");
}

#[test]
fn the_prediction_never_reaches_the_authoritative_state() {
    // The same held input drawn from the prediction and drawn between ticks: the same ticks
    // and hashes, since only the drawing differs.
    let predicted = play("state-predicted", MOVES, 70, "60", &[]);
    let between = play("state-between", MOVES, 70, "60", &["--no-predict"]);
    assert_eq!(predicted.hash, between.hash);
    let latency = |run: &Run| measure_local(&run.frames).latency().expect("changes").p50;
    assert!(
        latency(&between) > 2.0 * latency(&predicted),
        "drawn between ticks, the own character answers later: {} ms against {} ms",
        latency(&between),
        latency(&predicted)
    );
}

fn local_row(run: &Run) -> fixstep_tools::judder::EntityStats {
    let id = measure_local(&run.frames).id.expect("a local character");
    run.report.entity(id).expect("measured").clone()
}

fn jumps_and_bumps_without_a_pop(fps: &str) {
    let teleport = play(&format!("teleport-{fps}"), TELEPORT, 100, fps, &[]);
    let id = measure_local(&teleport.frames).id.expect("a local character");
    let start = teleport.truth.at(id, 0.0).expect("truth at the start");
    let end = teleport.truth.at(id, 9_900.0).expect("truth at the end");
    assert_ne!(start.leg, end.leg, "the walk north reaches the teleport");
    let t = local_row(&teleport).tally;
    assert_eq!((t.pops, t.misplaced), (0, 0), "through the teleport\n{}", teleport.report);
    let bump = play(&format!("bump-{fps}"), BUMP, 110, fps, &[]);
    let t = local_row(&bump).tally;
    assert_eq!((t.pops, t.misplaced), (0, 0), "into the mayor\n{}", bump.report);
    // The mayor stood in the way: pushing him, the walk went at half its pace (the rules push
    // both apart by half their overlap).
    let end = bump.truth.at(id, 10_900.0).expect("truth at the end");
    let north = -end.pos[2];
    assert!(north < BUMP_FREE_M - 3.0, "the mayor held the walker back: {north} m north");
}

#[test]
fn a_teleport_and_a_bump_into_another_character_are_drawn_without_a_pop_at_60_hz() {
    jumps_and_bumps_without_a_pop("60");
}

#[test]
fn a_teleport_and_a_bump_into_another_character_are_drawn_without_a_pop_at_144_hz() {
    jumps_and_bumps_without_a_pop("144");
}
