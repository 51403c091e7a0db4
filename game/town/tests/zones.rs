//! Teleport zones and cutscene triggers.

use crate::common;

use common::{idle, run, sim, step, v};
use fixstep_runtime::math::{Angle, Vec2};
use fixstep_runtime::{Player, Simulation};
use fixstep_town::{PlayerCommand, TownSim};

/// Places player 0 at `pos` facing `facing` (test set-up through the state, as a level
/// designer would place a character).
fn place(town: &mut TownSim, pos: Vec2, facing: Angle) {
    let mut state = town.state().clone();
    let me = state.players[0];
    let c = state.characters.get_mut(me).unwrap();
    c.pos = pos;
    c.facing = facing;
    town.restore(&state);
}

fn me(town: &TownSim) -> fixstep_town::CharacterView {
    town.snapshot().player_character(Player(0)).unwrap().clone()
}

#[test]
fn entering_a_teleport_zone_puts_the_character_at_the_paired_exit_and_counts_a_jump() {
    let mut town = sim(1);
    place(&mut town, v(0, -16), Angle::from_degrees(-90));
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    let mut ticks = 0;
    while me(&town).jumps == 0 && ticks < 100 {
        step(&mut town, &[walk]);
        ticks += 1;
    }
    let c = me(&town);
    assert_eq!(c.jumps, 1);
    assert_eq!(c.pos, v(60, 65));
    assert_eq!(c.facing, Angle::from_degrees(90));
}

#[test]
fn a_cooldown_stops_the_character_bouncing_straight_back() {
    let mut town = sim(1);
    place(&mut town, v(0, -20), Angle::ZERO);
    step(&mut town, &idle(1));
    assert_eq!(me(&town).jumps, 1);
    // Put it straight into the far zone: the cooldown holds it there.
    place(&mut town, v(60, 60), Angle::ZERO);
    run(&mut town, 5, &idle(1));
    assert_eq!(me(&town).jumps, 1);
    assert_eq!(me(&town).pos, v(60, 60));
    run(&mut town, 20, &idle(1));
    assert_eq!(me(&town).jumps, 2, "after the cooldown the zone works again");
}

#[test]
fn a_trigger_starts_a_cutscene_that_freezes_the_players_movement_until_it_ends() {
    let mut town = sim(1);
    place(&mut town, v(0, 37), Angle::QUARTER);
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    let mut ticks = 0;
    while town.snapshot().cutscenes.is_empty() && ticks < 100 {
        step(&mut town, &[walk]);
        ticks += 1;
    }
    let cutscene = town.snapshot().cutscenes[0].clone();
    assert_eq!(cutscene.player, Player(0));
    let frozen_at = me(&town).pos;
    run(&mut town, 30, &[walk]);
    assert_eq!(me(&town).pos, frozen_at, "movement ignored during the cutscene");
    run(&mut town, 30, &[walk]);
    assert!(town.snapshot().cutscenes.is_empty(), "the cutscene ended");
    assert_ne!(me(&town).pos, frozen_at, "moving again");
}

#[test]
fn a_once_trigger_plays_once_per_character() {
    let mut town = sim(1);
    place(&mut town, v(0, 40), Angle::ZERO);
    step(&mut town, &idle(1));
    assert_eq!(town.snapshot().cutscenes.len(), 1);
    run(&mut town, 60, &idle(1));
    assert!(town.snapshot().cutscenes.is_empty());
    place(&mut town, v(0, 0), Angle::ZERO);
    step(&mut town, &idle(1));
    place(&mut town, v(0, 40), Angle::ZERO);
    step(&mut town, &idle(1));
    assert!(town.snapshot().cutscenes.is_empty(), "already played");
}

/// A level of more teleport zones than the rules keep bounding squares for (eight): anyone
/// might stand in one, and a character entering the last pair's zone is sent on all the same.
#[test]
fn a_level_of_many_teleports_sends_a_character_through_the_last_listed() {
    let mut level = common::level();
    let portal = level.teleports.remove(0);
    for i in 0..4 {
        let mut far = portal.clone();
        far.id = format!("far-{i}");
        for end in &mut far.ends {
            end.zone.centre += v(-300 - 40 * i, -300);
            end.exit += v(-300 - 40 * i, -300);
        }
        level.teleports.push(far);
    }
    level.teleports.push(portal);
    let mut town = TownSim::new(std::sync::Arc::new(level), 7, 1);
    place(&mut town, v(0, -20), Angle::ZERO);
    step(&mut town, &idle(1));
    assert_eq!(me(&town).jumps, 1, "sent through the fifth pair");
    assert_eq!(me(&town).pos, v(60, 65));
}
