//! Scripted bots: they open doors, talk and take teleports like players.

use crate::common;

use std::sync::Arc;

use fixstep_runtime::{Bot as _, Player, Simulation};
use fixstep_town::bots::{Goal, TownBot};
use fixstep_town::state::ObjectPhase;
use fixstep_town::{AnimState, TownSim};

#[test]
fn a_bot_opens_a_door_takes_a_teleport_and_talks() {
    let level = Arc::new(common::level());
    let mut town = TownSim::new(Arc::clone(&level), 3, 1);
    let mut bot = TownBot::new(Player(0), &level);
    assert!(bot.plan().contains(&Goal::Interact));
    let (mut opened, mut teleported, mut talked) = (false, false, false);
    for _ in 0..3_000 {
        let command = bot.command(town.snapshot());
        let tick = town.next_tick();
        town.step(tick, &[command]).expect("in order");
        let s = town.snapshot();
        opened |= town.state().objects[common::DOOR].phase != ObjectPhase::Closed;
        teleported |= s.player_character(Player(0)).unwrap().jumps > 0;
        talked |= !s.dialogues.is_empty()
            && s.player_character(Player(0)).unwrap().anim == AnimState::Talk;
    }
    assert!(opened, "opened the door");
    assert!(teleported, "took the teleport");
    assert!(talked, "talked to the mayor");
    assert_eq!(town.rejected_commands(), [0], "a bot sends only valid commands");
}
