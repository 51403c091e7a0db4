//! The presentation allocates nothing per frame once it is running.

use std::sync::Arc;

use fixstep_game::TownSim;
use fixstep_game::bots::Bot;
use fixstep_game::level::load_level;
use fixstep_render::present::LocalPresentation;
use fixstep_runtime::Simulation;

#[test]
fn drawing_frames_allocates_nothing_in_steady_state() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
    let level = Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("the town loads"));
    let mut sim = TownSim::new(Arc::clone(&level), 5, 4);
    let mut bots: Vec<Bot> = (0..4).map(|p| Bot::new(p, &level)).collect();
    let mut present = LocalPresentation::new(Arc::clone(&level), 0);
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
    use fixstep_render::present::remote::{Measurement, Motion, RemoteView};
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
