//! The snapshot a tick publishes.

use crate::common;

use std::sync::Arc;

use fixstep_runtime::{Bot as _, Player, Simulation};
use fixstep_town::TownSim;
use fixstep_town::bots::TownBot;

/// Protects the snapshot a tick writes as it goes (the characters' views are written in the
/// tick's last pass over them, not by a pass of their own after): through a thousand ticks of
/// bots that walk, open doors, take teleports and talk, it is the snapshot that publishing the
/// finished state afresh gives.
#[test]
fn a_tick_publishes_what_its_finished_state_shows() {
    let level = Arc::new(common::level());
    let players = 4;
    let mut town = TownSim::new(Arc::clone(&level), 11, players);
    let mut bots: Vec<TownBot> = Player::all(players).map(|p| TownBot::new(p, &level)).collect();
    for _ in 0..1_000 {
        let commands: Vec<_> = bots.iter_mut().map(|bot| bot.command(town.snapshot())).collect();
        let tick = town.next_tick();
        town.step(tick, &commands).expect("in order");
        let mut afresh = town.clone();
        afresh.restore(town.state());
        assert_eq!(**afresh.snapshot(), **town.snapshot(), "the snapshot after tick {tick:?}");
    }
}
