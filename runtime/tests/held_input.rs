//! Held input: a player whose command for a tick is missing keeps what it held, and a
//! one-tick action is not repeated.

mod common;

use common::{Drift, DriftCommand};
use fixstep_runtime::Player;
use fixstep_runtime::{Error, HeldInputs, Simulation, Tick};

const THRUST: DriftCommand = DriftCommand { thrust: 8, turn: 3, spawn: false };
const SPAWN: DriftCommand = DriftCommand { thrust: 8, turn: 3, spawn: true };

#[test]
fn a_missing_command_is_the_held_input_of_the_last() {
    let mut inputs = HeldInputs::new(2);
    let mut tick = Vec::new();
    inputs.set(Player(0), SPAWN).expect("player 0");
    inputs.set(Player(1), THRUST).expect("player 1");
    assert_eq!(inputs.take(&mut tick), 0);
    assert_eq!(tick, [SPAWN, THRUST]);
    // Nothing arrives: both keep thrusting and turning, and the spawn is not repeated.
    assert_eq!(inputs.take(&mut tick), 2);
    assert_eq!(tick, [THRUST, THRUST]);
    assert_eq!(inputs.take(&mut tick), 2);
    assert_eq!(tick, [THRUST, THRUST]);
    // A command that arrives replaces the held one; the other player still holds.
    inputs.set(Player(0), DriftCommand::default()).expect("player 0");
    assert!(inputs.arrived(Player(0)) && !inputs.arrived(Player(1)));
    assert_eq!(inputs.take(&mut tick), 1);
    assert_eq!(tick, [DriftCommand::default(), THRUST]);
}

#[test]
fn a_player_who_never_sent_anything_holds_the_default() {
    let mut inputs = HeldInputs::<DriftCommand>::new(1);
    let mut tick = Vec::new();
    inputs.take(&mut tick);
    assert_eq!(tick, [DriftCommand::default()]);
    assert_eq!(inputs.add_player().expect("a second seat"), Player(1));
    inputs.take(&mut tick);
    assert_eq!(tick, [DriftCommand::default(); 2]);
}

#[test]
fn a_command_for_a_player_not_in_the_game_is_refused() {
    let mut inputs = HeldInputs::<DriftCommand>::new(2);
    let err = inputs.set(Player(2), THRUST).expect_err("two players");
    assert!(matches!(err, Error::NoSuchPlayer { player: Player(2), players: 2 }));
    assert_eq!(err.to_string(), "player 2 is not in the game, which has 2 players");
}

/// In the simulation: a player whose input stops arriving moves on as if it had sent the same
/// thrust again, and spawns once, not once a tick.
#[test]
fn a_simulation_fed_held_inputs_runs_as_if_the_held_commands_were_sent() {
    let mut late = Drift::new(3, 1);
    let mut sent = Drift::new(3, 1);
    let mut inputs = HeldInputs::new(1);
    let mut commands = Vec::new();
    for t in 0..40 {
        let tick = Tick(t);
        if t == 0 {
            inputs.set(Player(0), SPAWN).expect("player 0");
        }
        inputs.take(&mut commands);
        late.step(tick, &commands).expect("in order");
        sent.step(tick, &[if t == 0 { SPAWN } else { THRUST }]).expect("in order");
        assert_eq!(late.state_hash(), sent.state_hash(), "tick {t}");
    }
}

/// Held keys in frames: a press (here a spawn) reaches exactly one tick's command, whether
/// its frame completes no tick (it waits for the tick under way), one, or several; what is
/// held goes on in every tick.
#[test]
fn a_press_in_a_frame_reaches_one_tick_however_many_the_frame_completes() {
    use fixstep_runtime::input::{HeldInput, SampledInput};
    use fixstep_runtime::tick::{FrameScheduler, TICK_MICROS};

    // Frames of 60 ms, 110 ms and 250 ms complete 0, 1 and 2 ticks from a fresh start; the
    // press is in the first frame only, and the key stays down.
    for first_ms in [60, 110, 250] {
        let mut input = SampledInput::<DriftCommand>::default();
        let mut scheduler = FrameScheduler::new();
        let mut commands = Vec::new();
        let mut frame = |input: &mut SampledInput<DriftCommand>, ms: u64, held| {
            input
                .run_frame(&mut scheduler, ms * 1_000, &held, |command, _| {
                    commands.push(command);
                    Ok::<(), ()>(())
                })
                .expect("no error");
        };
        frame(&mut input, first_ms, SPAWN);
        for _ in 0..5 {
            frame(&mut input, TICK_MICROS / 1_000, THRUST);
        }
        let spawns: Vec<usize> = (0..commands.len()).filter(|&i| commands[i].spawn).collect();
        assert_eq!(spawns, [0], "a press in a {first_ms} ms first frame: in the first tick only");
        assert!(commands.iter().all(|c| c.thrust == THRUST.thrust), "held throughout");
    }
}
