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
