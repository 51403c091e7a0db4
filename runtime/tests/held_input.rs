//! Held input: a player whose command for a tick is missing keeps what it held, and a
//! one-tick action is not repeated. The host fixes every tick's commands, so it is the host's
//! session these tests feed, through its own players' inputs.

use crate::common;

use common::{Drift, DriftCommand, DriftData};
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, HostConfig, HostEvent, HostSession, Identity, PROTOCOL_VERSION,
};
use fixstep_runtime::{ContentDigest, Player, Simulation, Tick};

const THRUST: DriftCommand = DriftCommand { thrust: 8, turn: 3, spawn: false };
const SPAWN: DriftCommand = DriftCommand { thrust: 8, turn: 3, spawn: true };

/// A host at tick 0 whose `players` seats are all its own.
fn host(players: usize) -> HostSession<DriftData> {
    let identity =
        Identity { protocol: PROTOCOL_VERSION, sim_version: 8, level: ContentDigest(0xd1f7) };
    let config = HostConfig {
        identity,
        max_players: players,
        max_spectators: 0,
        local_players: players,
        seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
    };
    HostSession::new(config, Tick::ZERO)
}

/// The commands of the next tick the host fixes.
fn fix(host: &mut HostSession<DriftData>) -> Vec<DriftCommand> {
    host.fix_tick().commands
}

#[test]
fn a_missing_command_is_the_held_input_of_the_last() {
    let mut host = host(2);
    host.local_input(Player(0), Tick(0), SPAWN);
    host.local_input(Player(1), Tick(0), THRUST);
    assert_eq!(fix(&mut host), [SPAWN, THRUST]);
    // Nothing arrives: both keep thrusting and turning, and the spawn is not repeated.
    assert_eq!(fix(&mut host), [THRUST, THRUST]);
    assert_eq!(fix(&mut host), [THRUST, THRUST]);
    // A command that arrives replaces the held one; the other player still holds.
    host.local_input(Player(0), Tick(3), DriftCommand::default());
    assert_eq!(fix(&mut host), [DriftCommand::default(), THRUST]);
}

#[test]
fn a_player_who_never_sent_anything_holds_the_default() {
    let mut host = host(2);
    assert_eq!(fix(&mut host), [DriftCommand::default(); 2]);
    // The host's own players are no peers: their missing inputs are not news of lateness.
    let late = host.drain_events().filter(|e| matches!(e, HostEvent::InputLate { .. })).count();
    assert_eq!(late, 0);
}

#[test]
fn an_input_for_a_seat_that_is_not_the_hosts_or_a_tick_gone_is_ignored() {
    let mut host = host(1);
    host.local_input(Player(1), Tick(0), THRUST);
    assert_eq!(fix(&mut host), [DriftCommand::default()], "seat 1 is not there");
    host.local_input(Player(0), Tick(0), SPAWN);
    assert_eq!(fix(&mut host), [DriftCommand::default()], "tick 0 is fixed already");
}

/// In the simulation: a player whose input stops arriving moves on as if it had sent the same
/// thrust again, and spawns once, not once a tick.
#[test]
fn a_simulation_fed_held_inputs_runs_as_if_the_held_commands_were_sent() {
    let mut late = Drift::new(3, 1);
    let mut sent = Drift::new(3, 1);
    let mut host = host(1);
    host.local_input(Player(0), Tick(0), SPAWN);
    for t in 0..40 {
        let tick = Tick(t);
        host.fix_tick().run(&mut late).expect("in order");
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
