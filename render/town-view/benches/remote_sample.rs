//! One frame of the remote view with 100,000 remote entities, against the local
//! presentation's cost per entity.
//!
//! - `remote_draw_100k`: one 60 Hz frame of a spectator's view: every entity drawn (delays
//!   slewed, pose sampled, corrections checked) into the frame's list. Snapshots arrive every
//!   sixth frame, untimed.
//! - `remote_deliver_100k`: one snapshot handed to the view: each measured entity found by id
//!   and its measurement pushed (a third of them every tick, in three tiers).
//! - `remote_sample_100k`: sampling 100,000 buffers at one fractional tick between
//!   measurements, the kernel alone.
//! - `local_frame_13k`: the local presentation of the stress level (10,001 characters, 1,000
//!   taxis, 2,000 objects), for the cost per entity the remote view is compared with.
//!
//! Target: `remote_draw_100k` at most 5 ms on a 2-core machine. After criterion's figures the
//! bench prints the ratio of the two per-entity costs, measured back to back in one run (the
//! machine's speed moves more between runs than between the two). Run with
//! `cargo bench -p fixstep-town-view --bench remote_sample`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use fixstep_present::remote::{
    Measurement, Motion, RemoteBuffer, RemoteDraw, RemoteSample, RemoteView,
};
use fixstep_runtime::{Player, Rules as _, Simulation, Tick};
use fixstep_town::PlayerCommand;
use fixstep_town::level::{load_clips, stress_level};
use fixstep_town_view::TownPresentation as LocalPresentation;
use glam::Vec3;

/// Remote entities in the view.
const ENTITIES: u64 = 100_000;

/// A 60 Hz frame, microseconds.
const FRAME_MICROS: u64 = 16_667;

/// Frames per 100 ms tick at 60 Hz.
const FRAMES_PER_TICK: u32 = 6;

/// Ticks delivered before measuring, so every buffer holds a full history.
const WARM_UP_TICKS: u32 = 20;

/// Rounds of the back-to-back comparison whose medians give the printed ratio.
const RATIO_ROUNDS: usize = 30;

/// The measurement of entity `id` at `tick`: vehicles and walkers in tiers 1, 2 and 4,
/// moving in circles of their own, a tenth of them standing.
fn measurement(id: u64, tick: u32) -> Option<(Motion, Measurement)> {
    let tier = [1u8, 2, 4][(id % 3) as usize];
    if !tick.is_multiple_of(u32::from(tier)) {
        return None;
    }
    let motion = if id.is_multiple_of(2) { Motion::Vehicle } else { Motion::Walker };
    let centre = Vec3::new((id % 1000) as f32, 0.0, (id / 1000) as f32);
    if id.is_multiple_of(10) {
        return Some((motion, Measurement::at_rest(0, centre, 0.0, 0).in_tier(tier)));
    }
    let angle = tick as f32 * 0.05 + id as f32;
    let (s, c) = angle.sin_cos();
    let pos = centre + Vec3::new(c, 0.0, s) * 5.0;
    let vel = Vec3::new(-s, 0.0, c) * 2.5;
    Some((motion, Measurement::moving(tick, pos, vel, angle, 0).in_tier(tier)))
}

/// Delivers host tick `tick`'s snapshot to the view.
fn deliver(view: &mut RemoteView, tick: u32) {
    view.snapshot_arrived(Tick(tick));
    for id in 0..ENTITIES {
        if let Some((motion, m)) = measurement(id, tick) {
            if m.at_rest && m.tick != tick {
                // At rest: sent once, not again until it moves.
                if tick > 0 {
                    continue;
                }
            }
            view.measure(id, motion, &m);
        }
    }
}

/// A view warmed up with `WARM_UP_TICKS` of snapshots, and the next tick to deliver.
fn warm_view() -> (RemoteView, u32) {
    let mut view = RemoteView::new();
    let mut tick = 0;
    for frame in 0..WARM_UP_TICKS * FRAMES_PER_TICK {
        view.advance(FRAME_MICROS);
        if frame % FRAMES_PER_TICK == 0 {
            deliver(&mut view, tick);
            tick += 1;
        }
        view.draw();
    }
    assert_eq!(view.frame().entities.len(), ENTITIES as usize, "every entity is drawn");
    (view, tick)
}

/// The stress level's local presentation after a few ticks, and its entity count.
fn local_presentation() -> (LocalPresentation, usize) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&assets, "animations/humanoid.ron").expect("clips load");
    let level = Arc::new(stress_level(clips));
    let mut sim = fixstep_town_view::Town::new_sim(&level, 1, 1);
    let mut present = LocalPresentation::new(level, Player(0));
    present.observe(sim.snapshot());
    let walk = [PlayerCommand { forward: 100, ..PlayerCommand::default() }];
    for _ in 0..10 {
        let tick = sim.next_tick();
        sim.step(tick, &walk).expect("in order");
        present.observe(sim.snapshot());
    }
    let frame = present.draw(0.5, 0.0);
    let count = frame.characters.len() + frame.taxis.len() + frame.objects.len();
    (present, count)
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Every measurement of host tick `tick`, made ahead so that timing them measures the view.
fn snapshot(tick: u32) -> Vec<(u64, Motion, Measurement)> {
    (0..ENTITIES)
        .filter_map(|id| {
            let (motion, m) = measurement(id, tick)?;
            (!m.at_rest || tick == 0).then_some((id, motion, m))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (mut view, mut tick) = warm_view();
    println!(
        "a remote buffer is {} bytes; a drawn entity {} bytes",
        size_of::<RemoteBuffer>(),
        size_of::<RemoteDraw>()
    );
    let mut frame = 0u32;
    // A frame's drawing alone: the snapshots due are delivered between the timed frames.
    c.bench_function("remote_draw_100k", |b| {
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            for _ in 0..iters {
                view.advance(FRAME_MICROS);
                if frame.is_multiple_of(FRAMES_PER_TICK) {
                    deliver(&mut view, tick);
                    tick += 1;
                }
                frame += 1;
                let start = Instant::now();
                black_box(view.draw().entities.len());
                timed += start.elapsed();
            }
            timed
        });
    });

    // One snapshot's measurements handed to the view (found by id, pushed).
    let snapshots: Vec<Vec<(u64, Motion, Measurement)>> = (tick..tick + 8).map(snapshot).collect();
    let mut next = 0;
    c.bench_function("remote_deliver_100k", |b| {
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            for _ in 0..iters {
                // The same eight ticks again and again would be refused as old: move the view
                // on to new ones, untimed.
                if next == snapshots.len() {
                    next = 0;
                    let (fresh, fresh_tick) = warm_view();
                    view = fresh;
                    tick = fresh_tick;
                }
                let measured = &snapshots[next];
                let start = Instant::now();
                view.snapshot_arrived(Tick(measured.first().map_or(0, |m| m.2.tick)));
                for (id, motion, m) in measured {
                    view.measure(*id, *motion, m);
                }
                timed += start.elapsed();
                next += 1;
            }
            timed
        });
    });

    let buffers: Vec<RemoteBuffer> = (0..ENTITIES)
        .filter_map(|id| {
            let (motion, first) = measurement(id, 0)?;
            let mut buffer = RemoteBuffer::new(motion, &first);
            for t in 1..8 {
                if let Some((_, m)) = measurement(id, t) {
                    buffer.push(&m);
                }
            }
            Some(buffer)
        })
        .collect();
    let mut sample_tick = 2.0;
    c.bench_function("remote_sample_100k", |b| {
        b.iter(|| {
            sample_tick = if sample_tick > 3.9 { 2.0 } else { sample_tick + 0.17 };
            let mut out = RemoteSample::default();
            let mut drawn = 0;
            for buffer in &buffers {
                drawn += usize::from(buffer.sample(black_box(sample_tick), &mut out));
            }
            black_box((drawn, out))
        });
    });

    let (mut local, local_entities) = local_presentation();
    let mut alpha = 0.0f32;
    c.bench_function("local_frame_13k", |b| {
        b.iter(|| {
            alpha = (alpha + 0.17) % 1.0;
            black_box(local.draw(black_box(alpha), 1.0 / 60.0).characters.len())
        });
    });

    // Back to back, so both see the same machine.
    let mut remote_ns = Vec::new();
    let mut local_ns = Vec::new();
    for _ in 0..RATIO_ROUNDS {
        view.advance(FRAME_MICROS);
        if frame.is_multiple_of(FRAMES_PER_TICK) {
            deliver(&mut view, tick);
            tick += 1;
        }
        frame += 1;
        let start = Instant::now();
        black_box(view.draw().entities.len());
        remote_ns.push(start.elapsed().as_nanos() as f64 / ENTITIES as f64);
        let start = Instant::now();
        alpha = (alpha + 0.17) % 1.0;
        black_box(local.draw(alpha, 1.0 / 60.0).characters.len());
        local_ns.push(start.elapsed().as_nanos() as f64 / local_entities as f64);
    }
    let (remote, local) = (median(remote_ns), median(local_ns));
    println!(
        "per entity and frame: remote view {remote:.1} ns, local presentation {local:.1} ns: \
         ratio {:.2}",
        remote / local
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
