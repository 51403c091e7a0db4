//! Golden hash stream of the test simulation.

mod common;

use std::path::Path;

use common::{Drift, scripted_commands};
use fixstep_runtime::golden::StreamRecorder;
use fixstep_runtime::{Simulation, StateHasher, Tick};

/// Ticks between the ticks the golden file writes out: ten samples of the run.
const SAMPLE_EVERY_TICKS: u32 = 100;

/// Protects the whole runtime's determinism at once: 1,000 ticks of the test simulation with
/// three players, whose state exercises fixed-point vectors, sin/cos, atan2, square roots,
/// entity insertion and removal with id reuse, and the random number generator. Every tick's
/// total and partial hashes are pinned in `tests/golden/drift.hashes`, with the version of
/// the test simulation they belong to; CI runs this in debug and in release, so an
/// optimization or overflow difference between the two builds fails here. An intended change
/// of the runtime's math or encoding bumps the test simulation's version and re-pins the file
/// (`FIXSTEP_BLESS=1`) in the same commit, saying why.
#[test]
fn thousand_tick_hash_stream_is_pinned() {
    let mut sim = Drift::new(0x5eed, 3);
    let mut hasher = StateHasher::new();
    let mut recorder = StreamRecorder::new::<Drift>(SAMPLE_EVERY_TICKS);
    for t in 0..1_000 {
        let tick = Tick(t);
        sim.step(tick, &scripted_commands(tick, 3)).expect("ticks in order");
        sim.hash_state(&mut hasher);
        recorder.record(tick, &hasher.finish_reuse());
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/drift.hashes");
    let comment = "The golden hash stream of runtime/tests/golden_sim.rs: 1,000 ticks of the test\n\
                   simulation (seed 0x5eed, three scripted players). Re-pin with FIXSTEP_BLESS=1.";
    if let Err(message) = recorder.finish().check(&file, comment) {
        panic!("{message}");
    }
    // The run really exercised spawning and removal: movers came and went.
    assert_eq!(sim.state.movers.len(), 44);
}
