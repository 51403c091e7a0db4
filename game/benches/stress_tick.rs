//! One tick of the generated stress level (10,000 characters, 1,000 taxis, 2,000 objects), and
//! the full state hash of that level.
//!
//! Targets on a 2-core machine: a tick's median at most 1.5 ms (over 60 times faster than real
//! time at 100 ms ticks) with the presentation holding the latest snapshot, as it does on a
//! player's machine (`tick_with_held_snapshot`), and the state hash at most a tenth of that,
//! compared in the same run. `tick` holds no snapshot; `copy_state_bytes` copies as many bytes
//! as the hash reads, for the hash-to-copy ratio. Run with
//! `cargo bench -p fixstep-game --bench stress_tick`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use fixstep_game::level::{load_clips, stress_level};
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::hash::CanonicalBytes;
use fixstep_runtime::{Simulation, StateHasher};

/// Ticks run before measuring, so pedestrians are spread along their routes and taxis are
/// moving (10 s of game time).
const WARM_UP_TICKS: u32 = 100;

fn bench(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
    let clips = load_clips(&assets, "animations/humanoid.ron").expect("clips load");
    let level = Arc::new(stress_level(clips));
    let mut sim = TownSim::new(level, 1, 4);
    let commands = [PlayerCommand { forward: 100, turn: 300, ..PlayerCommand::default() }; 4];
    for _ in 0..WARM_UP_TICKS {
        let tick = sim.next_tick();
        sim.step(tick, &commands).expect("in order");
    }
    let mut group = c.benchmark_group("stress_level");
    group.sample_size(30);
    group.bench_function("tick", |b| {
        b.iter(|| {
            let tick = sim.next_tick();
            black_box(sim.step(tick, &commands).expect("in order"));
        });
    });
    // The presentation keeps the latest snapshot while the next tick runs.
    let mut held = Arc::clone(sim.snapshot());
    group.bench_function("tick_with_held_snapshot", |b| {
        b.iter(|| {
            let tick = sim.next_tick();
            held = Arc::clone(sim.step(tick, &commands).expect("in order"));
            black_box(&held);
        });
    });
    let mut hasher = StateHasher::new();
    group.bench_function("state_hash", |b| {
        b.iter(|| {
            sim.hash_state(&mut hasher);
            black_box(hasher.finish_reuse().total())
        });
    });
    let bytes = CanonicalBytes::of(sim.state());
    let mut copy = vec![0u8; bytes.as_slice().len()];
    group.bench_function("copy_state_bytes", |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(bytes.as_slice()));
            black_box(&copy);
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
