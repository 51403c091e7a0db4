//! Player commands: movement, what happens to a malformed one, and to a missing one.

use crate::common;

use common::{idle, player_pos, run, sim, step};
use fixstep_runtime::math::{Angle, Fx};
use fixstep_runtime::{Command, Player, Simulation};
use fixstep_town::PlayerCommand;
use fixstep_town::tuning::{RUN_SPEED, WALK_SPEED};

fn close(a: Fx, b: Fx) -> bool {
    (a - b).abs() <= Fx::from_bits(1 << 8)
}

#[test]
fn walking_forward_moves_walk_speed_per_tick_along_the_facing() {
    let mut town = sim(1);
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    run(&mut town, 10, &[walk]);
    let pos = player_pos(&town, Player(0));
    assert!(close(pos.x, WALK_SPEED * 10), "{pos:?}");
    assert!(close(pos.y, Fx::ZERO), "{pos:?}");
}

#[test]
fn running_is_faster_and_strafe_goes_right() {
    let mut town = sim(1);
    run(&mut town, 5, &[PlayerCommand { forward: 100, run: true, ..PlayerCommand::default() }]);
    assert!(close(player_pos(&town, Player(0)).x, RUN_SPEED * 5));
    let mut town = sim(1);
    // Facing east, right is south (-y).
    run(&mut town, 5, &[PlayerCommand { strafe: 100, ..PlayerCommand::default() }]);
    assert!(close(player_pos(&town, Player(0)).y, -WALK_SPEED * 5));
}

#[test]
fn turning_changes_the_facing_by_the_commanded_amount() {
    let mut town = sim(1);
    step(&mut town, &[PlayerCommand { turn: 16_384, ..PlayerCommand::default() }]);
    assert_eq!(town.snapshot().player_character(Player(0)).unwrap().facing, Angle::QUARTER);
}

#[test]
fn a_command_moves_only_its_senders_character() {
    let mut town = sim(2);
    let before = player_pos(&town, Player(1));
    run(
        &mut town,
        10,
        &[PlayerCommand { forward: 100, ..PlayerCommand::default() }, PlayerCommand::default()],
    );
    assert_eq!(player_pos(&town, Player(1)), before);
    assert_ne!(player_pos(&town, Player(0)), common::v(0, 0));
}

#[test]
fn a_rejected_command_is_counted_and_changes_no_hash() {
    let malformed = [
        PlayerCommand { forward: 101, ..PlayerCommand::default() },
        PlayerCommand { strafe: -128, ..PlayerCommand::default() },
        PlayerCommand { turn: 16_385, forward: 50, ..PlayerCommand::default() },
        PlayerCommand { turn: i16::MIN, interact: true, ..PlayerCommand::default() },
    ];
    for bad in malformed {
        let mut with_bad = sim(1);
        let mut without = sim(1);
        run(&mut with_bad, 3, &idle(1));
        run(&mut without, 3, &idle(1));
        step(&mut with_bad, &[bad]);
        step(&mut without, &idle(1));
        assert_eq!(with_bad.state_hash(), without.state_hash(), "{bad:?}");
        assert_eq!(with_bad.rejected_commands(), [1]);
        assert_eq!(without.rejected_commands(), [0]);
    }
}

#[test]
fn command_ranges_are_validated() {
    assert!(
        PlayerCommand { forward: 100, strafe: -100, turn: -16_384, ..PlayerCommand::default() }
            .validate()
            .is_ok()
    );
    assert!(PlayerCommand { forward: -101, ..PlayerCommand::default() }.validate().is_err());
    assert_eq!(
        PlayerCommand { turn: 20_000, ..PlayerCommand::default() }
            .validate()
            .unwrap_err()
            .to_string(),
        "turn 20000 is more than a quarter turn in one tick"
    );
}

/// The command a host fixes for a player whose command `arrived`, or did not, after `last`:
/// the held input of the last stands in for a missing one.
fn fixed(arrived: Option<PlayerCommand>, last: &mut PlayerCommand) -> PlayerCommand {
    let command = arrived.unwrap_or_else(|| last.held());
    *last = command;
    command
}

/// A player whose input for a tick is missing is simulated with the held input of its last:
/// a walk goes on exactly as if the same command had come again.
#[test]
fn a_missing_input_keeps_the_held_movement() {
    let walk = PlayerCommand { forward: 100, strafe: -30, turn: 200, run: true, interact: false };
    let mut sent = sim(1);
    run(&mut sent, 12, &[walk]);
    let mut late = sim(1);
    let mut last = PlayerCommand::default();
    for t in 0..12 {
        // Only every third tick's input arrives.
        let arrived = (t % 3 == 0).then_some(walk);
        step(&mut late, &[fixed(arrived, &mut last)]);
    }
    assert_eq!(late.state_hash(), sent.state_hash());
}

/// Interact is a press: a missing input after it does not press again. (Pressed twice next to
/// the mayor, the second press would move the dialogue to its second line.)
#[test]
fn a_missing_input_does_not_repeat_an_interact() {
    let press = PlayerCommand { interact: true, ..PlayerCommand::default() };
    assert_eq!(press.held(), PlayerCommand::default());
    let mut town = sim(1);
    let mut state = town.state().clone();
    let me = state.players[0];
    state.characters.get_mut(me).expect("player").pos = common::v(-8, 0);
    town.restore(&state);
    let mut last = PlayerCommand::default();
    for t in 0..3 {
        step(&mut town, &[fixed((t == 0).then_some(press), &mut last)]);
    }
    let dialogue = &town.snapshot().dialogues[0];
    assert_eq!(
        (dialogue.line, dialogue.line_started.0),
        (0, 0),
        "the dialogue is on its first line"
    );
}
