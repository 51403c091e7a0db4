//! Command scripts: the text form of the town's commands.

use fixstep_runtime::script::{CommandScript as Script, InputScript as Input};
use fixstep_runtime::{Player, Tick};
use fixstep_town::PlayerCommand;

type CommandScript = Script<PlayerCommand>;
type InputScript = Input<PlayerCommand>;

#[test]
fn a_line_holds_until_the_next_and_interact_is_one_tick() {
    let script = CommandScript::parse(
        "# tick player forward strafe turn flags\n\
         0 0 100 0 0\n\
         5 0 100 0 2048 run interact   # start running\n\
         9 1 0 -50 0\n",
    )
    .expect("valid");
    assert_eq!(script.players(), 2);
    assert_eq!(
        script.command(Player(0), Tick(3)),
        PlayerCommand { forward: 100, ..Default::default() }
    );
    let running = PlayerCommand { forward: 100, turn: 2048, run: true, ..Default::default() };
    assert_eq!(script.command(Player(0), Tick(5)), PlayerCommand { interact: true, ..running });
    assert_eq!(script.command(Player(0), Tick(6)), running);
    assert_eq!(script.command(Player(1), Tick(8)), PlayerCommand::default());
    assert_eq!(script.command(Player(1), Tick(9)).strafe, -50);
    assert!(script.drives(Player(1)) && !script.drives(Player(2)));
}

#[test]
fn malformed_lines_name_their_line_and_problem() {
    let cases = [
        (
            "0 0 100\n",
            "line 1: expected TICK PLAYER FORWARD STRAFE TURN [run] [interact], found 3 fields",
        ),
        ("\n0 0 x 0 0\n", "line 2: forward `x` is not a number in range"),
        ("0 0 0 0 0 jump\n", "line 1: unknown flag `jump` (expected run or interact)"),
        ("0 0 101 0 0\n", "line 1: movement 101 is outside -100..=100"),
        ("0 0 0 0 30000\n", "line 1: turn 30000 is more than a quarter turn in one tick"),
        ("5 0 0 0 0\n3 0 0 0 0\n", "line 2: tick 3 for player 0 does not come after its tick 5"),
        ("0 0 300 0 0\n", "line 1: forward `300` is not a number in range"),
    ];
    for (text, message) in cases {
        assert_eq!(CommandScript::parse(text).unwrap_err().to_string(), message, "{text:?}");
    }
}

/// Caught the network commands reading only what was held at a frame's end: the interact of a
/// line within the frame was lost, so a scripted peer or host never opened a door.
#[test]
fn a_frame_presses_the_interact_of_a_line_within_it_once() {
    let script = InputScript::parse("0 0 100 0 0\n1050 0 100 0 0 interact\n").expect("valid");
    let walking = PlayerCommand { forward: 100, ..Default::default() };
    assert_eq!(script.frame(1_040, 1_056), PlayerCommand { interact: true, ..walking });
    assert_eq!(script.frame(1_056, 1_072), walking, "pressed once, not held");
    assert_eq!(script.frame(1_000, 1_049), walking, "not before its time");
}
