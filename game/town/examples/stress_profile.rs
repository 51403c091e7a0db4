//! Runs the stress level for a while, for profilers: `cargo run --release -p fixstep-town
//! --example stress_profile -- TICKS`. It prints the real time each 500 ticks took.
#![expect(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "a profiling harness times the simulation from outside; nothing it measures feeds back"
)]

use std::path::Path;
use std::sync::Arc;

use fixstep_runtime::Simulation;
use fixstep_town::level::{load_clips, stress_level};
use fixstep_town::{PlayerCommand, TownSim};

fn main() {
    let ticks: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&assets, "animations/humanoid.ron").expect("clips load");
    let mut sim = TownSim::new(Arc::new(stress_level(clips)), 1, 4);
    let commands = [PlayerCommand { forward: 100, turn: 300, ..PlayerCommand::default() }; 4];
    let mut started = std::time::Instant::now();
    for t in 1..=ticks {
        let tick = sim.next_tick();
        sim.step(tick, &commands).expect("in order");
        if t % 500 == 0 {
            let taxis_moving = sim.snapshot().taxis.iter().filter(|t| !t.at_rest).count();
            println!(
                "ticks {}..{}: {:?} a tick, {taxis_moving} taxis moving",
                t - 500,
                t,
                started.elapsed() / 500
            );
            started = std::time::Instant::now();
        }
    }
    println!("tick {} hash {}", sim.next_tick().0, sim.state_hash());
}
