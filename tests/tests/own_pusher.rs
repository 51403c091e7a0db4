//! The arena's own pusher answers on the frame after the key, as the town's own character
//! does (`own_character.rs`): `fixstep sim --game arena --input-script` holds the stick at real
//! times as a window does, the local pusher is drawn from its prediction, and the drawn log is
//! measured against the authoritative truth, at 60 and 144 Hz.
//!
//! The player is alone on the rink, on the west side, where the moves below keep it clear of
//! the boards and the pucks.

use fixstep_tests::assert_each_change_shows_by_the_next_frame;
use fixstep_tests::scripted::{ScriptedRun, run_script};
use fixstep_tools::judder::measure_local;

/// Starts, stops, turns and a dash, at times that fall at every phase of a tick: the stick
/// in percent east and north. The last stop, of a slow stick just after a tick began, changes
/// the tick's step least of all: eased out rather than re-aimed, it would not show on the
/// first frame at 144 Hz.
const MOVES: &str = "\
# ms  player x    y    flags
0     0      0    0
1030  0      0    60
2270  0      0    0
3010  0      -60  0
3555  0      -60  -60
4120  0      0    0
4610  0      60   -60  dash
5055  0      0    60
5500  0      0    0
6010  0      0    30
6805  0      0    0
";

/// Changes of the held stick in [`MOVES`] after its first line.
const MOVES_CHANGES: usize = 10;

/// A run of [`MOVES`] on the rink for 70 ticks, drawn at `fps` frames a second.
fn play(test: &str, fps: &str, extra: &[&str]) -> ScriptedRun {
    run_script("own-pusher", test, &["--game", "arena"], MOVES, 70, fps, extra)
}

fn answers_on_the_first_frame(fps: &str) {
    let run = play(&format!("answers-{fps}"), fps, &[]);
    assert_each_change_shows_by_the_next_frame(&run.frames, MOVES_CHANGES, fps, &run.report);
    let id = measure_local(&run.frames).id.expect("a local pusher");
    let tally = &run.report.entity(id).expect("the own pusher is measured").tally;
    assert_eq!((tally.pops, tally.misplaced), (0, 0), "no hop at a key\n{}", run.report);
}

#[test]
fn the_own_pusher_starts_stops_turns_and_dashes_on_the_first_frame_after_the_key_at_60_hz() {
    answers_on_the_first_frame("60");
}

#[test]
fn the_own_pusher_starts_stops_turns_and_dashes_on_the_first_frame_after_the_key_at_144_hz() {
    answers_on_the_first_frame("144");
}

#[test]
fn the_pushers_prediction_never_reaches_the_authoritative_state() {
    // The same stick drawn from the prediction and drawn between ticks: the same ticks and
    // hashes, since only the drawing differs; and between ticks, the pusher answers later.
    let predicted = play("state-predicted", "60", &[]);
    let between = play("state-between", "60", &["--no-predict"]);
    assert_eq!(predicted.hash, between.hash);
    let latency = |run: &ScriptedRun| measure_local(&run.frames).latency().expect("changes").p50;
    assert!(
        latency(&between) > 2.0 * latency(&predicted),
        "drawn between ticks, the own pusher answers later: {} ms against {} ms",
        latency(&between),
        latency(&predicted)
    );
}
