//! The arena allocates nothing per tick or per frame once it is running: a tick of its rules
//! (whose snapshot refills the last one's room), its presentation taking the tick and drawing
//! frames between, and a host gathering what its spectators are sent.

use std::path::Path;
use std::sync::Arc;

use fixstep_arena::ArenaCommand;
use fixstep_arena_view::Arena;
use fixstep_netplay_view::shapes::ShapeSource;
use fixstep_present::{Game, Presentation};
use fixstep_runtime::{Bot as _, Player, Rules as _, Simulation as _};

#[test]
fn ticks_and_frames_allocate_nothing_in_steady_state() {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let rink =
        Arc::new(Arena::load_content(&assets, &Arena::default_content(&assets)).expect("loads"));
    let mut sim = Arena::new_sim(&rink, 2, 6);
    let mut bots: Vec<_> = (0..6).map(|p| Arena::bot(&rink, Player(p))).collect();
    let mut presentation = Arena::presentation(&rink, Player(0));
    let mut source = ShapeSource::default();
    let mut commands: Vec<ArenaCommand> = Vec::with_capacity(6);
    let (mut measured, mut allocations) = (0, 0);
    for tick in 0..400 {
        commands.clear();
        commands.extend(bots.iter_mut().map(|b| b.command(sim.snapshot())));
        // The first 100 ticks let every list grow to its size.
        let steady = tick >= 100;
        let info = allocation_counter::measure(|| {
            let next = sim.next_tick();
            sim.step(next, &commands).expect("in order");
            presentation.observe(sim.snapshot(), None);
            source.fill::<Arena>(sim.snapshot());
        });
        if steady {
            measured += 1;
            allocations += info.count_total;
        }
        for f in 0..6 {
            let alpha = (f + 1) as f32 / 6.0;
            let info = allocation_counter::measure(|| {
                std::hint::black_box(presentation.draw(alpha, 1.0 / 60.0));
            });
            if steady {
                allocations += info.count_total;
            }
        }
    }
    assert_eq!(measured, 300);
    let control = allocation_counter::measure(|| {
        std::hint::black_box(Box::new(7u64));
    });
    assert_eq!(control.count_total, 1, "the counter counts");
    assert_eq!(allocations, 0, "allocations in 300 steady ticks and their 1,800 frames");
}
