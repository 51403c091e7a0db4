//! The presentation allocates nothing per frame once it is running.

use fixstep_runtime::{Bot as _, Player};
use fixstep_town_view::Town;
use std::sync::Arc;

use fixstep_runtime::{Rules as _, Simulation};
use fixstep_town::bots::TownBot;
use fixstep_town::level::load_level;
use fixstep_town_view::TownPresentation as LocalPresentation;

#[test]
fn drawing_frames_allocates_nothing_in_steady_state() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let level = Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("the town loads"));
    let mut sim = Town::new_sim(&level, 5, 4);
    let mut bots: Vec<TownBot> = (0..4).map(|p| TownBot::new(Player(p), &level)).collect();
    let mut present = LocalPresentation::new(Arc::clone(&level), Player(0));
    present.observe(sim.snapshot());
    let mut frames_measured = 0;
    let mut allocations = 0;
    for tick in 0..300 {
        let commands: Vec<_> = bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        let t = sim.next_tick();
        sim.step(t, &commands).expect("in order");
        present.observe(sim.snapshot());
        // Six frames a tick, as at 60 Hz; the first 100 ticks let every buffer grow.
        for f in 0..6 {
            let alpha = (f + 1) as f32 / 6.0;
            let info = allocation_counter::measure(|| {
                std::hint::black_box(present.draw(alpha, 1.0 / 60.0));
            });
            if tick >= 100 {
                frames_measured += 1;
                allocations += info.count_total;
            }
        }
    }
    assert_eq!(frames_measured, 1_200);
    // The counter does count: one boxed value is one allocation.
    let control = allocation_counter::measure(|| {
        std::hint::black_box(Box::new(7u64));
    });
    assert_eq!(control.count_total, 1);
    assert_eq!(allocations, 0, "allocations in {frames_measured} steady-state frames");
}

#[test]
fn remote_frames_allocate_nothing_in_steady_state() {
    use fixstep_present::remote::{Measurement, Motion, RemoteView};
    use fixstep_runtime::Tick;
    use glam::Vec3;

    /// Remote entities in the view: a crowd in all three tiers.
    const ENTITIES: u64 = 1_000;
    let mut view = RemoteView::new();
    let mut frames_measured = 0;
    let mut allocations = 0;
    for tick in 0..300u32 {
        // Each tick: the snapshot arrives 40 ms in, then six 60 Hz frames are drawn.
        let info = allocation_counter::measure(|| {
            view.advance(40_000);
            view.snapshot_arrived(Tick(tick));
            for id in 0..ENTITIES {
                let tier = [1u8, 2, 4][(id % 3) as usize];
                if tick % u32::from(tier) != 0 {
                    continue;
                }
                let pos = Vec3::new(id as f32, 0.0, tick as f32 * 0.1);
                let m = Measurement::moving(tick, pos, Vec3::Z, 0.0, 0).in_tier(tier);
                view.measure(id, if id % 2 == 0 { Motion::Vehicle } else { Motion::Walker }, &m);
            }
            for _ in 0..6 {
                view.advance(10_000);
                std::hint::black_box(view.draw().entities.len());
            }
            view.advance(0);
        });
        view.advance(0);
        if tick >= 100 {
            frames_measured += 6;
            allocations += info.count_total;
        }
    }
    assert_eq!(frames_measured, 1_200);
    assert_eq!(view.frame().entities.len(), ENTITIES as usize, "the whole crowd is drawn");
    assert_eq!(allocations, 0, "allocations in {frames_measured} steady-state frames");
}

#[test]
fn a_whole_frame_of_the_stress_level_allocates_nothing_in_steady_state() {
    use fixstep_gpu::CameraView;
    use fixstep_town::level::{load_clips, stress_level};
    use fixstep_town_view::gpu::label_layout::LabelLayout;
    use fixstep_town_view::gpu::lights::point_lights;

    // The stress level (10,000 characters, 1,000 taxis whose 2,000 headlights are far more
    // than a frame lights), by night: the presentation, the choice of the nearest lights and
    // the placing of the labels, which is all the CPU does for a frame before the GPU's part.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&root, "animations/humanoid.ron").expect("clips load");
    let level = Arc::new(stress_level(clips));
    let mut sim = Town::new_sim(&level, 5, 1);
    let mut present = LocalPresentation::new(Arc::clone(&level), Player(0));
    let mut layout = LabelLayout::new(&level, |_| 200.0);
    let mut lights = Vec::new();
    present.observe(sim.snapshot());
    let walk = fixstep_town::PlayerCommand { forward: 100, turn: 300, ..Default::default() };
    let (mut frames_measured, mut allocations) = (0, 0);
    for tick in 0..40 {
        let t = sim.next_tick();
        sim.step(t, &[walk]).expect("in order");
        present.observe(sim.snapshot());
        for f in 0..3 {
            let alpha = (f + 1) as f32 / 3.0;
            let info = allocation_counter::measure(|| {
                let frame = present.draw(alpha, 1.0 / 30.0);
                point_lights(&level, &frame.taxis, 1.0, frame.camera.target, &mut lights);
                let camera = CameraView::new(&frame.camera, 1280, 720);
                layout.place(frame, &camera, Some(Player(0)), &|_| 60.0);
                std::hint::black_box((lights.len(), layout.placed.len()));
            });
            // The first ticks let every buffer grow.
            if tick >= 20 {
                frames_measured += 1;
                allocations += info.count_total;
            }
        }
    }
    assert_eq!(frames_measured, 60);
    assert_eq!(lights.len(), fixstep_gpu::lights::MAX_POINT_LIGHTS, "lights were chosen");
    assert!(!layout.placed.is_empty(), "labels were placed");
    assert_eq!(allocations, 0, "allocations in {frames_measured} steady-state frames");
}
