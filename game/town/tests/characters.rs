//! Characters: animation frames, collisions, pedestrians, health.

use crate::common;

use common::{idle, run, sim, step, v};
use fixstep_runtime::math::{Angle, Fx, fx, fx_ratio};
use fixstep_runtime::{Player, Simulation};
use fixstep_town::level::ClipDef;
use fixstep_town::tuning::CHARACTER_RADIUS;
use fixstep_town::{AnimState, PlayerCommand, TownSim, advance_frame};

fn clip(frames: u32, per_tick: Fx, looping: bool) -> ClipDef {
    ClipDef { name: "c".to_owned(), frames, frames_per_tick: per_tick, looping }
}

#[test]
fn a_looping_clip_wraps_and_a_one_shot_clip_holds_its_last_frame() {
    let looping = clip(24, fx_ratio(24, 10), true);
    assert_eq!(advance_frame(&looping, fx(22)), fx(24) + fx_ratio(4, 10) - fx(24));
    let one_shot = clip(6, fx(2), false);
    assert_eq!(advance_frame(&one_shot, fx(4)), fx(5));
    assert_eq!(advance_frame(&one_shot, fx(5)), fx(5));
}

#[test]
fn frames_advance_by_the_clip_rate_and_restart_when_the_state_changes() {
    let mut town = sim(1);
    let me = |t: &TownSim| t.snapshot().player_character(Player(0)).unwrap().clone();
    run(&mut town, 3, &idle(1));
    assert_eq!((me(&town).anim, me(&town).frame), (AnimState::Idle, fx(3)));
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    step(&mut town, &[walk]);
    assert_eq!((me(&town).anim, me(&town).frame), (AnimState::Walk, Fx::ZERO));
    step(&mut town, &[walk]);
    assert_eq!(me(&town).frame, fx_ratio(24, 10));
}

#[test]
fn a_character_cannot_walk_into_a_building() {
    let mut town = sim(1);
    // Face north-east toward the hall at (20..30, 20..30) and walk for a long time.
    step(&mut town, &[PlayerCommand { turn: 8_192, ..PlayerCommand::default() }]);
    run(&mut town, 400, &[PlayerCommand { forward: 100, run: true, ..PlayerCommand::default() }]);
    let pos = town.snapshot().player_character(Player(0)).unwrap().pos;
    let inside = pos.x > fx(20) && pos.x < fx(30) && pos.y > fx(20) && pos.y < fx(30);
    assert!(!inside, "{pos:?}");
    assert!(pos.x >= fx(19) && pos.y >= fx(19), "pressed against the corner: {pos:?}");
}

/// How far two characters may overlap after a tick's collisions, metres: the pushes are
/// fixed-point divisions, each rounding by a few ulps, so exactly touching is not exact.
const OVERLAP_TOLERANCE: Fx = fx_ratio(1, 100);

/// Protects character-against-character collisions: one walking into another standing still
/// is held off on every tick, never passes through, and does reach it (so the test is about a
/// contact, not two characters that never met).
#[test]
fn two_characters_walking_into_each_other_are_kept_apart() {
    let mut town = sim(2);
    let collision_distance = CHARACTER_RADIUS * 2;
    // Player 1 spawns at (0, 5); player 0 at (0, 0) walks north into it.
    step(
        &mut town,
        &[PlayerCommand { turn: 16_384, ..PlayerCommand::default() }, PlayerCommand::default()],
    );
    let walk =
        [PlayerCommand { forward: 100, ..PlayerCommand::default() }, PlayerCommand::default()];
    let mut closest = Fx::MAX;
    for tick in 0..80 {
        step(&mut town, &walk);
        let a = town.snapshot().player_character(Player(0)).unwrap().pos;
        let b = town.snapshot().player_character(Player(1)).unwrap().pos;
        let distance = (b - a).length();
        assert!(
            distance >= collision_distance - OVERLAP_TOLERANCE,
            "tick {tick}: {distance} apart, closer than {collision_distance}: {a:?} {b:?}"
        );
        assert!(a.y < b.y, "tick {tick}: the walker got past the one standing: {a:?} {b:?}");
        closest = closest.min(distance);
    }
    assert!(
        closest <= collision_distance + OVERLAP_TOLERANCE,
        "the walker never reached the other character: closest {closest}"
    );
}

#[test]
fn a_pedestrian_walks_its_route_and_waves_at_its_stop() {
    let mut town = sim(0);
    let walker = |t: &TownSim| {
        let level = t.level();
        t.snapshot()
            .characters
            .iter()
            .find(|c| &*level.character_name(c.role) == "Walker")
            .unwrap()
            .clone()
    };
    let mut waved = false;
    for _ in 0..200 {
        step(&mut town, &[]);
        let w = walker(&town);
        if w.anim == AnimState::Wave {
            waved = true;
            assert_eq!(w.pos, v(-40, 50));
        }
    }
    assert!(waved);
    // Back and forth between its two points: it is on the segment.
    let w = walker(&town);
    assert_eq!(w.pos.y, fx(50));
    assert!(w.pos.x >= fx(-50) && w.pos.x <= fx(-40));
}

#[test]
fn health_lost_comes_back_over_time_and_none_left_means_down_then_respawn() {
    let mut town = sim(1);
    let mut state = town.state().clone();
    let me = state.players[0];
    state.characters.get_mut(me).unwrap().health = 50;
    state.characters.get_mut(me).unwrap().since_hit = 0;
    town.restore(&state);
    run(&mut town, 60, &idle(1));
    let health = town.snapshot().player_character(Player(0)).unwrap().health;
    assert!(health > 50 && health < 100, "{health}");

    let mut state = town.state().clone();
    let c = state.characters.get_mut(me).unwrap();
    c.health = 0;
    c.pos = v(7, 7);
    town.restore(&state);
    step(&mut town, &idle(1));
    assert!(!town.snapshot().player_character(Player(0)).unwrap().enabled);
    run(&mut town, 20, &idle(1));
    let c = town.snapshot().player_character(Player(0)).unwrap().clone();
    assert!(c.enabled);
    assert_eq!((c.health, c.jumps, c.pos, c.facing), (100, 1, v(0, 0), Angle::ZERO));
}

#[test]
fn time_of_day_advances_each_tick_and_wraps_at_the_end_of_the_day() {
    let mut town = sim(0);
    let start = town.snapshot().time_of_day;
    step(&mut town, &[]);
    assert!(town.snapshot().time_of_day > start);
    // A day is 6,000 ticks in the fixture.
    run(&mut town, 5_999, &[]);
    assert_eq!(town.snapshot().time_of_day, start);
}
