//! NPC taxis: driving the route, the stand, braking for people, strikes.

use crate::common;

use common::{run, sim};
use fixstep_runtime::math::{Fx, fx};
use fixstep_runtime::{Player, Simulation};
use fixstep_town::TownSim;
use fixstep_town::tuning::{MAX_HEALTH, TAXI_MAX_STEER};

fn taxi(town: &TownSim) -> fixstep_town::TaxiView {
    town.snapshot().taxis[0]
}

#[test]
fn a_taxi_pulls_away_drives_its_route_and_stays_at_its_stand() {
    let mut town = sim(0);
    assert!(taxi(&town).at_rest);
    let mut moved = false;
    let mut stood = 0;
    let mut left_stand = false;
    let mut max_speed = Fx::ZERO;
    for _ in 0..600 {
        run(&mut town, 1, &[]);
        let t = taxi(&town);
        max_speed = max_speed.max(t.speed);
        assert!(t.steer.signed_units().unsigned_abs() <= TAXI_MAX_STEER.0, "steering within lock");
        if t.speed > Fx::ZERO {
            moved = true;
            if stood > 0 {
                left_stand = true;
                break;
            }
        } else if moved {
            assert!(t.at_rest);
            // The stand is the waypoint (-20, -40), reached northbound: the taxi keeps 2 m to
            // the right of the centre line, at (-18, -40).
            assert!(
                (t.pos - common::v(-18, -40)).length() <= fx(1),
                "stopped at the stand: {:?}",
                t.pos
            );
            stood += 1;
        }
    }
    assert!(moved, "the taxi pulled away");
    assert!(stood >= 40, "stood at the stand for its stand ticks ({stood})");
    assert!(left_stand, "pulled away from the stand");
    assert!(max_speed <= Fx::ONE, "never above its top speed");
}

#[test]
fn acceleration_and_braking_are_bounded() {
    let mut town = sim(0);
    let mut last = taxi(&town).speed;
    for _ in 0..400 {
        run(&mut town, 1, &[]);
        let speed = taxi(&town).speed;
        assert!(speed - last <= fixstep_town::tuning::TAXI_ACCELERATION);
        assert!(last - speed <= fixstep_town::tuning::TAXI_BRAKING);
        last = speed;
    }
}

#[test]
fn the_wheels_turn_with_distance_and_the_body_follows_the_steering() {
    let mut town = sim(0);
    run(&mut town, 60, &[]);
    let t = taxi(&town);
    assert_ne!(t.wheel_rotation.0, 0);
    // After the first corner (the route turns north at (-20, -80)) the body points north-ish.
    run(&mut town, 120, &[]);
    let yaw = taxi(&town).yaw;
    assert!(yaw.signed_units() > 0, "turned left toward north: {yaw:?}");
}

/// Puts a player character standing in the taxi's path and checks it brakes instead of
/// striking, then moves it into the path at the last moment to be struck.
#[test]
fn a_taxi_brakes_for_a_person_in_front_and_strikes_one_that_steps_out() {
    use fixstep_town::PlayerCommand;
    let mut town = sim(1);
    // Let the taxi get going east along y = -80.
    run(&mut town, 30, &[PlayerCommand::default()]);
    let t = taxi(&town);
    assert!(t.speed > Fx::ZERO);
    // Teleporting the player is not a command; restore a state with the player placed ahead.
    let mut state = town.state().clone();
    let me = state.players[0];
    let ahead = t.pos + fixstep_runtime::math::Vec2::new(fx(12), Fx::ZERO);
    state.characters.get_mut(me).unwrap().pos = ahead;
    town.restore(&state);
    run(&mut town, 60, &[PlayerCommand::default()]);
    let t = taxi(&town);
    assert_eq!(t.speed, Fx::ZERO, "stopped for the person");
    let me_view = town.snapshot().player_character(Player(0)).unwrap().clone();
    assert_eq!(me_view.health, MAX_HEALTH, "not struck");
    assert!((me_view.pos - t.pos).length() > fx(2));

    // Now step in front of the bumper of a moving taxi.
    let mut town = sim(1);
    run(&mut town, 30, &[PlayerCommand::default()]);
    let t = taxi(&town);
    let mut state = town.state().clone();
    let forward = fixstep_runtime::math::Vec2::from_angle(t.yaw);
    state.characters.get_mut(state.players[0]).unwrap().pos = t.pos + forward * fx(2);
    town.restore(&state);
    run(&mut town, 1, &[PlayerCommand::default()]);
    let me_view = town.snapshot().player_character(Player(0)).unwrap().clone();
    assert!(me_view.health < MAX_HEALTH, "struck: {}", me_view.health);
    assert_eq!(me_view.anim, fixstep_town::AnimState::Hit);
    let before = me_view.pos;
    run(&mut town, 1, &[PlayerCommand::default()]);
    assert_ne!(town.snapshot().player_character(Player(0)).unwrap().pos, before, "knocked back");
}

/// A taxi strikes a person where the tick's collisions left them, not where they stood before:
/// one standing beside a passing taxi, a few centimetres clear of its body, is missed; the
/// same person with someone jostling them from the far side, pushed into the body by the
/// collisions of that very tick, is struck.
#[test]
fn a_taxi_strikes_a_person_the_crowd_pushed_into_its_side_that_tick() {
    use fixstep_runtime::math::{Vec2, fx_ratio};
    use fixstep_town::PlayerCommand;
    use fixstep_town::tuning::{CHARACTER_RADIUS, TAXI_WIDTH};
    // Beside the body's middle, half a metre behind it (so not in the corridor it brakes
    // for), and 5 cm further out than a strike reaches.
    let clear = fx_ratio(5, 100);
    let beside = TAXI_WIDTH / 2 + CHARACTER_RADIUS + clear;
    // The jostler overlaps the person by 30 cm: each is pushed 15 cm, 10 cm into the body.
    let jostler_beside = beside + fx_ratio(40, 100);
    let struck = |jostled: bool| {
        let mut town = sim(2);
        let idle = [PlayerCommand::default(); 2];
        run(&mut town, 30, &idle);
        let t = taxi(&town);
        assert!(t.speed > Fx::ZERO, "the taxi is under way");
        let forward = Vec2::from_angle(t.yaw);
        let left = Vec2::new(-forward.y, forward.x);
        let behind = t.pos - forward * fx_ratio(1, 2);
        let mut state = town.state().clone();
        let (person, jostler) = (state.players[0], state.players[1]);
        state.characters.get_mut(person).unwrap().pos = behind + left * beside;
        let far = if jostled { jostler_beside } else { fx(20) };
        state.characters.get_mut(jostler).unwrap().pos = behind + left * far;
        town.restore(&state);
        run(&mut town, 1, &idle);
        town.snapshot().player_character(Player(0)).unwrap().health < MAX_HEALTH
    };
    assert!(!struck(false), "a person clear of the body is not struck");
    assert!(struck(true), "a person pushed into the body that tick is struck");
}
