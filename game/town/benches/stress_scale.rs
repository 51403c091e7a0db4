//! The stress level at 1, 4 and 10 times its people, taxis and objects (`--level stress:N`):
//! one tick with the presentation holding the latest snapshot, as on a player's machine, the
//! full state hash, and the heap an entity takes (printed: the simulation's live bytes over its
//! characters, taxis and objects, with the level it was built from).
//!
//! Targets on a 2-core machine, compared in one run: the tick at 10 times costs at most 10
//! times the tick at 1 (the work an entity costs holds as the town grows), and the hash stays
//! at most a tenth of the tick at every scale. Every scale's tick is timed over the same ticks
//! of its town's life ([`MEASURED_TICKS`]). Run with `cargo bench -p fixstep-town --bench
//! stress_scale`; `fixstep sim --level stress:10 --ticks 300 --timing` gives the same figures
//! from the command line.
#![expect(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "the bench times the ticks it plays with the wall clock, leaving out the restores \
              between them; no time of it reaches the simulation"
)]

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use fixstep_runtime::{Simulation, StateHasher};
use fixstep_town::level::{StressScale, load_clips, stress_level_at};
use fixstep_town::{PlayerCommand, TownSim};

/// The scales measured: today's stress level, four times and ten times it.
const SCALES: [u32; 3] = [1, 4, 10];

/// Ticks run before measuring, so pedestrians are spread along their routes and taxis are
/// moving (10 s of game time).
const WARM_UP_TICKS: u32 = 100;

/// The ticks timed after the warm-up, at every scale: the same 300 (30 s of game time), played
/// again from the warm state as often as the measurement needs. A town's tick costs more as its
/// crowd spreads and gathers (the stress level's by some 40 % from its first ten seconds to the
/// next fifty), and run on, a small town would be timed over minutes of its life that a large
/// one, each tick ten times as long, never reaches in the same measuring time.
const MEASURED_TICKS: u32 = 300;

/// Players walking about, as in the stress tick's benchmark.
const PLAYERS: usize = 4;

fn bench(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&assets, "animations/humanoid.ron").expect("clips load");
    let commands = [PlayerCommand { forward: 100, turn: 300, ..PlayerCommand::default() }; PLAYERS];
    let mut group = c.benchmark_group("stress_scale");
    group.sample_size(20);
    for times in SCALES {
        let scale = StressScale::new(times).expect("a scale");
        // The level and the simulation built from it, and what stays allocated of both.
        let mut built = None;
        let heap = allocation_counter::measure(|| {
            let level = Arc::new(stress_level_at(scale, clips.clone()));
            let mut sim = TownSim::new(level, 1, PLAYERS);
            sim.step(sim.next_tick(), &commands).expect("in order");
            built = Some(sim);
        });
        let mut sim = built.expect("built");
        let entities = scale.pedestrians() + PLAYERS + scale.taxis() + scale.objects();
        // Whole bytes and tenths of a megabyte: no floats in a simulation crate, benches too.
        let live = heap.bytes_current;
        println!(
            "stress x{times}: {entities} entities; {} heap bytes an entity ({}.{} MB live)",
            live / i64::try_from(entities).unwrap_or(i64::MAX),
            live / 1_000_000,
            live / 100_000 % 10,
        );
        for _ in 1..WARM_UP_TICKS {
            sim.step(sim.next_tick(), &commands).expect("in order");
        }
        // The presentation keeps the latest snapshot while the next tick runs.
        let mut held = Arc::clone(sim.snapshot());
        let warm = sim.state().clone();
        let mut played = 0;
        group.bench_function(BenchmarkId::new("tick", times), |b| {
            b.iter_custom(|iterations| {
                let mut spent = Duration::ZERO;
                for _ in 0..iterations {
                    if played == MEASURED_TICKS {
                        sim.restore(&warm);
                        played = 0;
                    }
                    let began = Instant::now();
                    let tick = sim.next_tick();
                    held = Arc::clone(sim.step(tick, &commands).expect("in order"));
                    black_box(&held);
                    spent += began.elapsed();
                    played += 1;
                }
                spent
            });
        });
        let mut hasher = StateHasher::new();
        group.bench_function(BenchmarkId::new("state_hash", times), |b| {
            b.iter(|| {
                sim.hash_state(&mut hasher);
                black_box(hasher.finish_reuse().total())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
