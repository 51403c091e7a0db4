//! The own character's input and prediction: a tick's command is what was held over the tick,
//! and the prediction moves a copy of the character exactly as the rules then do.

use crate::common;

use common::{player_pos, sim, step};
use fixstep_runtime::math::{Fx, Vec2, fx_ratio};
use fixstep_runtime::tick::TICK_MICROS;
use fixstep_runtime::{HeldInput as _, Player};
use fixstep_town::PlayerCommand;
use fixstep_town::predict::{InputAccumulator, OwnMovement, PartialInput};
use std::sync::Arc;

const WALK: PlayerCommand =
    PlayerCommand { forward: 100, strafe: 0, turn: 0, run: false, interact: false };

fn held(forward: i8, strafe: i8, turn: i16, run: bool) -> PlayerCommand {
    PlayerCommand { forward, strafe, turn, run, interact: false }
}

#[test]
fn a_key_held_over_the_whole_tick_gives_the_keys_command() {
    let mut input = InputAccumulator::new();
    input.fill(&held(100, 0, 2048, true));
    assert_eq!(input.take(), held(100, 0, 2048, true));
    input.fill(&PlayerCommand::default());
    assert_eq!(input.take(), PlayerCommand::default(), "nothing held, nothing asked");
}

#[test]
fn a_key_pressed_partway_asks_for_the_share_of_the_tick_it_was_held() {
    let mut input = InputAccumulator::new();
    input.hold(&PlayerCommand::default(), 70_000);
    input.fill(&WALK);
    assert_eq!(input.take().forward, 30, "pressed 70 ms in: the last 30 % of a walk");
    input.hold(&WALK, 40_000);
    input.fill(&PlayerCommand::default());
    assert_eq!(input.take().forward, 40, "released 40 ms in: the first 40 %");
}

#[test]
fn a_diagonal_is_no_faster_than_a_straight_walk() {
    let mut input = InputAccumulator::new();
    input.fill(&held(100, 100, 0, false));
    let c = input.take();
    assert_eq!((c.forward, c.strafe), (71, 71), "each axis 1/sqrt 2 of full speed");
}

#[test]
fn walking_then_running_asks_for_the_average_speed_as_a_run() {
    let mut input = InputAccumulator::new();
    input.hold(&WALK, 50_000);
    input.fill(&held(100, 0, 0, true));
    let c = input.take();
    // Half a tick at 1.4 m/s and half at 4 m/s: 2.7 m/s, 67.5 % of a run.
    assert!(c.run);
    assert!((67..=68).contains(&c.forward), "{}", c.forward);
}

#[test]
fn key_turning_is_a_rate_and_the_mouse_an_amount_carried_past_the_limit() {
    let mut input = InputAccumulator::new();
    input.hold(&held(0, 0, 2048, false), 25_000);
    input.fill(&PlayerCommand::default());
    assert_eq!(input.take().turn, 512, "a quarter of a tick of turning");
    input.turn_by(40_000);
    assert_eq!(input.partial().turn, 16_384 << 16, "at most a quarter turn a tick");
    input.fill(&PlayerCommand::default());
    assert_eq!(input.take().turn, 16_384);
    input.fill(&PlayerCommand::default());
    assert_eq!(input.take().turn, 16_384);
    input.fill(&PlayerCommand::default());
    assert_eq!(i32::from(input.take().turn), 40_000 - 2 * 16_384, "the rest, then nothing");
    input.fill(&PlayerCommand::default());
    assert_eq!(input.take().turn, 0);
}

#[test]
fn an_interact_is_pressed_once_in_the_tick_it_came() {
    let mut input = InputAccumulator::new();
    input.hold(&PlayerCommand { interact: true, ..PlayerCommand::default() }, 10_000);
    input.fill(&PlayerCommand::default());
    assert!(input.take().interact);
    input.fill(&PlayerCommand::default());
    assert!(!input.take().interact, "not repeated by the next tick");
}

#[test]
fn the_partial_input_grows_with_the_time_held() {
    let mut input = InputAccumulator::new();
    assert_eq!(input.partial(), PartialInput::NONE);
    input.hold(&WALK, 25_000);
    let p = input.partial();
    assert_eq!(p.share, fx_ratio(1, 4));
    assert_eq!(p.wish, Vec2::new(fx_ratio(14, 100) / 4, Fx::ZERO));
    assert_eq!(p.held, WALK);
    input.hold(&WALK, TICK_MICROS);
    assert_eq!(input.micros(), TICK_MICROS, "the tick's time never overflows into the next");
}

/// Steps the town with `held` integrated the way a frame loop does, and checks that the
/// prediction of every tick (the partial input of the whole tick, on a copy made before it)
/// lands where the rules then put the character, within the rounding of a command.
fn predicted_and_authoritative_agree(script: &[(u64, PlayerCommand)], ticks: u32) {
    let mut town = sim(1);
    let rules = OwnMovement::new(&Arc::new(common::level()));
    let mut input = InputAccumulator::new();
    let mut now = 0u64;
    for _ in 0..ticks {
        let body = OwnMovement::body(&town, Player(0)).expect("player 0");
        // Frames of 16.667 ms through the tick, each holding what the script says then.
        let end = now + TICK_MICROS;
        while input.micros() < TICK_MICROS {
            let frame_end = (now + 16_667).min(end);
            let keys = script.iter().rev().find(|(at, _)| *at <= now).map_or(WALK, |(_, k)| *k);
            input.hold(&keys, frame_end - now);
            now = frame_end;
        }
        let predicted = rules.partial(&body, &input.partial());
        let command = input.take();
        let mut stepped = body;
        rules.step(&mut stepped, &command);
        step(&mut town, &[command]);
        let truth = player_pos(&town, Player(0));
        assert_eq!(stepped.character.pos, truth, "a whole tick on the copy is the rules' tick");
        let off = (predicted.pos - truth).length();
        assert!(off <= fx_ratio(3, 1000), "the partial of a whole tick is {off} m off the tick");
    }
}

#[test]
fn the_prediction_of_a_tick_is_where_the_rules_put_the_character() {
    predicted_and_authoritative_agree(
        &[
            (0, WALK),
            (230_000, held(0, 0, 2048, false)),
            (410_000, held(100, -100, -2048, true)),
            (790_000, PlayerCommand::default()),
            (950_000, held(-100, 100, 0, false)),
        ],
        15,
    );
}

#[test]
fn the_prediction_stops_at_a_wall_as_the_rules_do() {
    // The fixture's building covers 20..30 m both ways; running north-east from the origin
    // reaches its corner in about 70 ticks and stays against it.
    let mut town = sim(1);
    let turn = PlayerCommand { turn: 8_192, ..PlayerCommand::default() };
    step(&mut town, &[turn]);
    let rules = OwnMovement::new(town.level());
    let run = held(100, 0, 0, true);
    let mut copy = OwnMovement::body(&town, Player(0)).expect("player 0");
    for _ in 0..120 {
        rules.step(&mut copy, &run);
        step(&mut town, &[run]);
        assert_eq!(copy.character.pos, player_pos(&town, Player(0)));
    }
    // Free, it would have run on along the diagonal into the building; the corner turned it
    // aside along a wall.
    let end = player_pos(&town, Player(0));
    assert!((end.x - end.y).abs() > Fx::ONE, "deflected by the building: at {end:?}");
    let mut partial = InputAccumulator::new();
    partial.fill(&run);
    let predicted = rules.partial(&copy, &partial.partial());
    rules.step(&mut copy, &partial.take());
    assert_eq!(predicted.pos, copy.character.pos, "a whole tick held is the tick's command");
}
