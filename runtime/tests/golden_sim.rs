//! Golden hash stream of the test simulation.

mod common;

use common::{Drift, scripted_commands};
use fixstep_runtime::{Simulation, StateHasher, Tick};
use xxhash_rust::xxh3::xxh3_64;

/// Protects the whole runtime's determinism at once: 1,000 ticks of the test simulation with
/// three players, whose state exercises fixed-point vectors, sin/cos, atan2, square roots,
/// entity insertion and removal with id reuse, and the random number generator. The pinned
/// values are the hash of the stream of per-tick totals and the final partial hashes; CI runs
/// this in debug and in release, so an optimization or overflow difference between the two
/// builds fails here. Any intended change to the runtime's math or encoding must re-pin it in
/// the same commit, saying why.
#[test]
fn thousand_tick_hash_stream_is_pinned() {
    let mut sim = Drift::new(0x5eed, 3);
    let mut hasher = StateHasher::new();
    let mut stream = Vec::with_capacity(8_000);
    for t in 0..1_000 {
        let tick = Tick(t);
        sim.step(tick, &scripted_commands(tick, 3)).expect("ticks in order");
        sim.hash_state(&mut hasher);
        stream.extend_from_slice(&hasher.finish_reuse().total().to_le_bytes());
    }
    let last = sim.state_hash();
    let parts: Vec<(&str, String)> =
        last.parts().iter().map(|p| (p.name, format!("{:016x}", p.hash))).collect();
    assert_eq!(format!("{:016x}", xxh3_64(&stream)), "c2c209df194ee08d");
    assert_eq!(last.to_string(), "551299b21cef1425");
    assert_eq!(
        parts,
        [
            ("tick", "dab56b5fa04896bc".to_owned()),
            ("movers", "fa98a4229106e646".to_owned()),
            ("players", "22395620b738b83a".to_owned()),
            ("rng", "a7b174cc65c8c0d8".to_owned()),
        ]
    );
    // The run really exercised spawning and removal: movers came and went.
    assert_eq!(sim.state.movers.len(), 44);
}
