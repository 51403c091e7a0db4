//! One tick of the generated stress level (10,000 characters, 1,000 taxis, 2,000 objects), and
//! the full state hash of that level.
//!
//! Targets on a 2-core machine: a tick's median at most 2 ms (50 times faster than real time
//! at 100 ms ticks), the hash at most a tenth of that. Run with
//! `cargo bench -p fixstep-game --bench stress_tick`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use fixstep_game::level::{load_clips, stress_level};
use fixstep_game::{PlayerCommand, TownSim};
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
    let mut hasher = StateHasher::new();
    group.bench_function("state_hash", |b| {
        b.iter(|| {
            sim.hash_state(&mut hasher);
            black_box(hasher.finish_reuse().total())
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
