//! Talking to the dialogue NPC.

use crate::common;

use common::{INTERACT, idle, run, sim, step, v};
use fixstep_runtime::math::Angle;
use fixstep_runtime::{Player, Simulation};
use fixstep_town::{AnimState, TownSim};

fn near_the_mayor() -> TownSim {
    let mut town = sim(1);
    let mut state = town.state().clone();
    let me = state.players[0];
    state.characters.get_mut(me).unwrap().pos = v(-8, 0);
    state.characters.get_mut(me).unwrap().facing = Angle::HALF;
    town.restore(&state);
    town
}

#[test]
fn interacting_near_the_talker_starts_a_dialogue_at_its_first_line() {
    let mut town = near_the_mayor();
    step(&mut town, &[INTERACT]);
    let d = town.snapshot().dialogues[0].clone();
    assert_eq!((d.player, d.dialogue, d.line, d.line_started.0), (Player(0), 0, 0, 0));
    step(&mut town, &idle(1));
    let level = std::sync::Arc::clone(town.level());
    let views = &town.snapshot().characters;
    let mayor = views.iter().find(|c| &*level.character_name(c.role) == "Mayor").unwrap().clone();
    assert_eq!(mayor.anim, AnimState::Talk);
    // The mayor turned to face the player (east of it).
    assert!(mayor.facing.shortest_delta(Angle::ZERO).unsigned_abs() < Angle::from_degrees(1).0);
}

#[test]
fn a_line_advances_on_interact_and_the_dialogue_ends_after_the_last() {
    let mut town = near_the_mayor();
    step(&mut town, &[INTERACT]);
    run(&mut town, 3, &idle(1));
    step(&mut town, &[INTERACT]);
    let d = town.snapshot().dialogues[0].clone();
    assert_eq!((d.line, d.line_started.0), (1, 4));
    step(&mut town, &[INTERACT]);
    assert!(town.snapshot().dialogues.is_empty());
}

#[test]
fn a_line_advances_by_itself_after_its_duration() {
    let mut town = near_the_mayor();
    step(&mut town, &[INTERACT]);
    run(&mut town, 29, &idle(1));
    assert_eq!(town.snapshot().dialogues[0].line, 0);
    step(&mut town, &idle(1));
    assert_eq!(town.snapshot().dialogues[0].line, 1);
    run(&mut town, 30, &idle(1));
    assert!(town.snapshot().dialogues.is_empty());
}

/// Protects leaving a conversation by walking off: a dialogue that did start ends once the
/// player has run away, well before its first line's 30 ticks could have ended it.
#[test]
fn walking_away_ends_the_dialogue() {
    let mut town = near_the_mayor();
    step(&mut town, &[INTERACT]);
    let started = &town.snapshot().dialogues;
    assert_eq!(started.len(), 1, "the dialogue started: {started:?}");
    assert_eq!(
        (started[0].player, started[0].line),
        (Player(0), 0),
        "the player's, at its first line"
    );
    let away = fixstep_town::PlayerCommand { forward: -100, run: true, ..Default::default() };
    run(&mut town, 20, &[away]);
    assert!(town.snapshot().dialogues.is_empty(), "{:?}", town.snapshot().dialogues);
}
