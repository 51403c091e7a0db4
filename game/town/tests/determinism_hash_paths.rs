//! The town's state hash is the same whether plain old data is hashed in place (little-endian
//! machines) or written field by field (big-endian ones): peers on both agree.

use std::path::Path;
use std::sync::Arc;

use fixstep_runtime::{Bot as _, Player, Simulation, StateHasher};
use fixstep_town::bots::TownBot;
use fixstep_town::level::{load_clips, load_level, stress_level};
use fixstep_town::{PlayerCommand, TownSim};

fn both_paths(sim: &TownSim) -> (fixstep_runtime::StateHash, fixstep_runtime::StateHash) {
    let mut in_place = StateHasher::new();
    let mut by_field = StateHasher::field_by_field();
    sim.hash_state(&mut in_place);
    sim.hash_state(&mut by_field);
    (in_place.finish_reuse(), by_field.finish_reuse())
}

/// The town with four bots, at every tick for 600 ticks: characters moving, talking, struck
/// by taxis and respawning, taxis driving and standing, doors, the lift and the sign cycling.
#[test]
fn town_hashes_agree_on_both_paths_every_tick() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let level = Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("town loads"));
    let mut sim = TownSim::new(Arc::clone(&level), 5, 4);
    let mut bots: Vec<TownBot> = (0..4).map(|p| TownBot::new(Player(p), &level)).collect();
    for _ in 0..600 {
        let commands: Vec<PlayerCommand> =
            bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        let tick = sim.next_tick();
        sim.step(tick, &commands).expect("in order");
        let (in_place, by_field) = both_paths(&sim);
        assert_eq!(in_place, by_field, "tick {tick}");
    }
}

/// The stress level: 10,000 characters, 1,000 taxis and 2,000 objects, long runs of memory
/// fed to the hash without a copy.
#[test]
fn stress_level_hashes_agree_on_both_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&root, "animations/humanoid.ron").expect("clips load");
    let mut sim = TownSim::new(Arc::new(stress_level(clips)), 1, 4);
    let commands = [PlayerCommand { forward: 100, ..PlayerCommand::default() }; 4];
    for _ in 0..20 {
        let tick = sim.next_tick();
        sim.step(tick, &commands).expect("in order");
    }
    let (in_place, by_field) = both_paths(&sim);
    assert_eq!(in_place, by_field);
}
