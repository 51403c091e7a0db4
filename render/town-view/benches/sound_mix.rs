//! One second of the town's mix, rendered offline: the time it takes is the share of a core
//! the audio thread needs. The town is played for 10 s (three bots, a local player walking and
//! running), drawn at 60 Hz; each measured second hears the next 60 frames (round the 10 s)
//! and renders 48,000 frames of sound. Only the rendering is timed (what the audio thread
//! does); hearing the frames is the game thread's.
//!
//! Run with `cargo bench -p fixstep-town-view --features sound --bench sound_mix`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use fixstep_audio::{OfflineBackend, OfflineSettings, SAMPLE_RATE_HZ};
use fixstep_present::{Controls, Game, LocalGame, Presentation};
use fixstep_runtime::input::HeldInput as _;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_town::predict::InputAccumulator;
use fixstep_town_view::DrawFrame;
use fixstep_town_view::Town;
use fixstep_town_view::assets::{default_level, load_level_file};
use fixstep_town_view::sound::{Sounds, TownSoundscape};

/// Frames a second drawn.
const FPS: usize = 60;

/// Seconds of the town drawn, heard round and round.
const SECONDS: usize = 10;

/// The town drawn at [`FPS`] for [`SECONDS`]: walking for 3 s, then running.
fn frames(level: &Arc<fixstep_town::level::Level>) -> Vec<DrawFrame> {
    let mut game = LocalGame::<Town>::held_by_player(level, 1, 3);
    let mut scheduler = FrameScheduler::new();
    let mut input = InputAccumulator::default();
    let dt = 1_000_000 / FPS as u64;
    (0..SECONDS * FPS)
        .map(|k| {
            let controls = Controls { forward: 100, run: k > 3 * FPS, ..Controls::default() };
            let command = Town::held(&controls);
            input
                .run_frame(&mut scheduler, dt, &command, |c, p| game.step_own(&c, p))
                .expect("a tick runs");
            Presentation::<Town>::own_input(&mut game.presentation, &input.partial());
            let alpha = scheduler.alpha_millionths() as f32 / 1e6;
            game.presentation.draw(alpha, dt as f32 / 1e6).clone()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let level = Arc::new(load_level_file(&assets, &default_level(&assets)).expect("the town"));
    let sounds = Sounds::load(&assets).expect("the sounds");
    let frames = frames(&level);
    let mut sound =
        TownSoundscape::<OfflineBackend>::new(&level, &sounds, OfflineSettings).expect("mixer");
    let per_frame = SAMPLE_RATE_HZ as usize / FPS;
    let mut samples = Vec::with_capacity(per_frame * 2);
    let mut next = 0;
    // One second of sound: hears 60 frames, and returns the time spent rendering.
    let mut second = |sound: &mut TownSoundscape<OfflineBackend>| {
        let mut rendering = Duration::ZERO;
        for _ in 0..FPS {
            sound.update(&frames[next % frames.len()], 1.0 / FPS as f32);
            next += 1;
            samples.clear();
            let started = Instant::now();
            sound.backend_mut().expect("sounding").render(per_frame, &mut samples);
            rendering += started.elapsed();
            black_box(&samples);
        }
        rendering
    };
    // Warm up: every voice made, every loop running.
    for _ in 0..SECONDS {
        second(&mut sound);
    }
    let shares: Vec<f64> = (0..5).map(|_| second(&mut sound).as_secs_f64() * 100.0).collect();
    let (lo, hi) = shares.iter().fold((f64::MAX, 0.0_f64), |(l, h), &s| (l.min(s), h.max(s)));
    println!("mix: the audio thread's share of a core, 5 seconds: {lo:.2} % to {hi:.2} %");
    c.bench_function("mix_one_second_of_the_town", |b| {
        b.iter_custom(|seconds| (0..seconds).map(|_| second(&mut sound)).sum());
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
