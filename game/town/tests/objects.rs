//! Interactive objects: doors, the lift and the sign, driven by authoritative tasks.

use crate::common;

use common::{DOOR, INTERACT, LIFT, SIGN, STAY_OPEN_TICKS, SWING_TICKS, idle, run, sim, step, v};
use fixstep_runtime::math::{Angle, Fx, fx};
use fixstep_runtime::{Player, Simulation};
use fixstep_town::state::{ObjectPhase, TaskEasing};
use fixstep_town::{PlayerCommand, TownSim, eased};

/// A town whose player stands at the hall door, south of it, facing north.
fn at_the_door() -> TownSim {
    let mut town = sim(1);
    // Walk from (0,0) to (25,19): turn north-east-ish, then walk there.
    let mut guard = 0;
    loop {
        let me = town.snapshot().player_character(Player(0)).unwrap().clone();
        let offset = v(25, 19) - me.pos;
        if offset.length() < Fx::from_num(1) / 2 || guard > 400 {
            break;
        }
        let delta = me.facing.shortest_delta(offset.angle());
        let command = PlayerCommand {
            forward: if delta.unsigned_abs() < Angle::from_degrees(10).0 { 100 } else { 0 },
            turn: PlayerCommand::turn_for(delta),
            run: true,
            ..PlayerCommand::default()
        };
        step(&mut town, &[command]);
        guard += 1;
    }
    assert!(guard <= 400, "the player reached the door");
    town
}

fn door(town: &TownSim) -> (Angle, ObjectPhase) {
    (town.snapshot().objects[DOOR].rotation, town.state().objects[DOOR].phase)
}

#[test]
fn a_door_opens_over_its_swing_ticks_on_interact() {
    let mut town = at_the_door();
    assert_eq!(door(&town), (Angle::ZERO, ObjectPhase::Closed));
    step(&mut town, &[INTERACT]);
    // Linear easing: each tick of the swing turns a fifth of the way to -90°.
    let open = Angle::from_degrees(-90).signed_units();
    for k in 1..=SWING_TICKS {
        if k > 1 {
            step(&mut town, &idle(1));
        }
        let expected = i64::from(open) * i64::from(k) / i64::from(SWING_TICKS);
        let got = i64::from(door(&town).0.signed_units());
        assert!((got - expected).abs() <= 2, "tick {k} of the swing: {got} vs {expected}");
        assert_eq!(door(&town).1, ObjectPhase::Opening);
    }
    step(&mut town, &idle(1));
    assert_eq!(door(&town), (Angle::from_degrees(-90), ObjectPhase::Open));
}

#[test]
fn an_open_door_closes_by_itself_and_on_interact() {
    let mut town = at_the_door();
    step(&mut town, &[INTERACT]);
    run(&mut town, SWING_TICKS + STAY_OPEN_TICKS, &idle(1));
    assert_eq!(door(&town).1, ObjectPhase::Closing, "closing by itself after it stayed open");
    run(&mut town, SWING_TICKS, &idle(1));
    assert_eq!(door(&town), (Angle::ZERO, ObjectPhase::Closed));

    step(&mut town, &[INTERACT]);
    run(&mut town, SWING_TICKS + 1, &idle(1));
    assert_eq!(door(&town).1, ObjectPhase::Open);
    step(&mut town, &[INTERACT]);
    assert_eq!(door(&town).1, ObjectPhase::Closing, "interact closes an open door");
}

#[test]
fn a_door_out_of_reach_ignores_interact() {
    let mut town = sim(1);
    step(&mut town, &[INTERACT]);
    assert_eq!(door(&town), (Angle::ZERO, ObjectPhase::Closed));
}

#[test]
fn the_lift_waits_rises_with_easing_waits_and_comes_down() {
    let mut town = sim(0);
    let height = |t: &TownSim| t.snapshot().objects[LIFT].offset.y;
    run(&mut town, 10, &[]);
    assert_eq!(height(&town), Fx::ZERO);
    // Rising over 20 ticks, smoothstep: slow at first, exactly half way at the middle.
    step(&mut town, &[]);
    let first = height(&town);
    assert!(first > Fx::ZERO && first < fx(6) / 20, "eased start: {first}");
    run(&mut town, 9, &[]);
    assert_eq!(height(&town), fx(3));
    run(&mut town, 10, &[]);
    assert_eq!(height(&town), fx(6));
    step(&mut town, &[]);
    assert_eq!(town.state().objects[LIFT].phase, ObjectPhase::AtTop);
    run(&mut town, 10 + 20 - 1, &[]);
    assert_eq!(height(&town), Fx::ZERO);
}

#[test]
fn the_sign_fades_out_and_back_in_growing_to_full_size() {
    let mut town = sim(0);
    let sign = |t: &TownSim| t.snapshot().objects[SIGN];
    run(&mut town, 12 + 8, &[]);
    assert_eq!(sign(&town).opacity, Fx::ZERO);
    run(&mut town, 12 + 1, &[]);
    assert!(sign(&town).scale < Fx::ONE && sign(&town).opacity > Fx::ZERO);
    run(&mut town, 7, &[]);
    assert_eq!((sign(&town).opacity, sign(&town).scale), (Fx::ONE, Fx::ONE));
}

#[test]
fn easing_starts_at_zero_and_ends_at_exactly_one() {
    for easing in [TaskEasing::Linear, TaskEasing::InOut] {
        assert_eq!(eased(easing, 0, 10), Fx::ZERO);
        assert_eq!(eased(easing, 10, 10), Fx::ONE);
        assert_eq!(eased(easing, 5, 10), Fx::ONE / 2);
        let mut last = Fx::ZERO;
        for k in 0..=10 {
            let p = eased(easing, k, 10);
            assert!(p >= last);
            last = p;
        }
    }
}
