//! One tick of the generated stress level (10,000 characters, 1,000 taxis, 2,000 objects), the
//! full state hash of that level, and one tick of the same level with its 10,000 characters on
//! one spot.
//!
//! Targets on a 2-core machine: a tick's median at most 1.5 ms (over 60 times faster than real
//! time at 100 ms ticks) with the presentation holding the latest snapshot, as it does on a
//! player's machine (`tick_with_held_snapshot`), and the state hash at most a tenth of that,
//! compared in the same run. `tick` holds no snapshot; `copy_state_bytes` copies as many bytes
//! as the hash reads, for the hash-to-copy ratio. `tick_crowd_on_one_spot` is the first tick of
//! as many characters (10,004) as players on the crowd level's one spawn, every one on top of
//! every other: at most 3 times `tick` in the same run, since no character checks more than a
//! bounded number of neighbours however many share its spot. Run with `cargo bench -p fixstep-town --bench stress_tick`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use fixstep_runtime::hash::CanonicalBytes;
use fixstep_runtime::{Simulation, StateHasher};
use fixstep_town::level::{crowd_level, load_clips, stress_level};
use fixstep_town::{PlayerCommand, TownSim};

/// Ticks run before measuring, so pedestrians are spread along their routes and taxis are
/// moving (10 s of game time).
const WARM_UP_TICKS: u32 = 100;

fn bench(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&assets, "animations/humanoid.ron").expect("clips load");
    let crowd = Arc::new(crowd_level(clips.clone()));
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
    // As many characters on one spot, every one of them overlapping every other: the first
    // tick of the crowd level's players, all on its one spawn, from the start each time. The
    // copy it runs on has ticked once, so that its buffers are as large as the crowd needs, as
    // the stress level's are, and is restored twice, so that it has snapshots of its own to
    // publish into (a copy shares its original's until it makes some).
    let crowd_size = sim.state().characters.len();
    let packed = TownSim::new(Arc::clone(&crowd), 1, crowd_size);
    let idle = vec![PlayerCommand::default(); crowd_size];
    let mut ticked = packed.clone();
    ticked.step(ticked.next_tick(), &idle).expect("in order");
    group.bench_function("tick_crowd_on_one_spot", |b| {
        b.iter_batched_ref(
            || {
                let mut sim = ticked.clone();
                sim.restore(packed.state());
                sim.restore(packed.state());
                sim
            },
            |sim| {
                let tick = sim.next_tick();
                black_box(sim.step(tick, &idle).expect("in order"));
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
