//! One frame of presentation for the stress level: interpolating 10,000 characters, 1,000
//! taxis and 2,000 objects between two ticks, plus the effects and camera.
//!
//! Target: at most 0.5 ms on a 2-core machine. Run with
//! `cargo bench -p fixstep-town-view --bench interpolate`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use fixstep_runtime::{Player, Rules as _, Simulation};
use fixstep_town::PlayerCommand;
use fixstep_town::level::{load_clips, stress_level};
use fixstep_town_view::TownPresentation as LocalPresentation;

/// Ticks run before measuring, so everything is moving and every track has two samples.
const WARM_UP_TICKS: u32 = 50;

fn bench(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&assets, "animations/humanoid.ron").expect("clips load");
    let level = Arc::new(stress_level(clips));
    let mut sim = fixstep_town_view::Town::new_sim(&level, 1, 1);
    let mut present = LocalPresentation::new(level, Player(0));
    present.observe(sim.snapshot());
    let walk = [PlayerCommand { forward: 100, ..PlayerCommand::default() }];
    for _ in 0..WARM_UP_TICKS {
        let tick = sim.next_tick();
        sim.step(tick, &walk).expect("in order");
        present.observe(sim.snapshot());
    }
    let frame = present.draw(0.5, 0.0);
    let counts = (frame.characters.len(), frame.taxis.len(), frame.objects.len());
    assert_eq!(counts, (10_001, 1_000, 2_000), "the whole stress level is drawn");
    let mut alpha = 0.0f32;
    c.bench_function("present_frame_10k_characters_1k_taxis_2k_objects", |b| {
        b.iter(|| {
            alpha = (alpha + 0.17) % 1.0;
            black_box(present.draw(black_box(alpha), 1.0 / 60.0).characters.len())
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
