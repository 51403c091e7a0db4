//! The second game through the same `fixstep` commands as the town (`--game arena`): a
//! headless run with its hash log, a recorded replay that verifies, the sync test, command
//! scripts, and its errors, each one line naming the file at fault.

use std::fs;
use std::process::Output;

use fixstep_runtime::Rules as _;
use fixstep_tests::{Scratch, arg, one_line_error, run_fixstep, stderr, stdout};

/// Runs `fixstep --game arena` with `args`.
fn arena(args: &[&str]) -> Output {
    let mut all = vec!["--game", "arena"];
    all.extend_from_slice(args);
    run_fixstep(&all)
}

/// Asserts success and returns standard output.
fn ok(out: &Output) -> String {
    assert!(out.status.success(), "fixstep failed ({:?}):\n{}", out.status, stderr(out));
    stdout(out)
}

/// A headless arena prints its final tick and hash, the same on a second run; its hash log
/// has every tick and ends on that hash; and a replay recorded alongside verifies every hash.
#[test]
fn a_headless_arena_logs_every_hash_and_its_replay_verifies() {
    let dir = Scratch::new("cli-arena", "replay");
    let (log, replay) = (dir.path("hashes.txt"), dir.path("game.fxr"));
    let args = ["sim", "--ticks", "400", "--bots", "4", "--hash-log", arg(&log)];
    let first = ok(&arena(&[&args[..], &["--record", arg(&replay)]].concat()));
    let hash = first.strip_prefix("tick 400 hash ").expect("`tick 400 hash H`").trim_end();
    assert_eq!(hash.len(), 16, "{first}");
    assert_eq!(ok(&arena(&args)), first, "a second run ends on the same hash");
    let text = fs::read_to_string(&log).expect("the hash log is written");
    assert_eq!(text.lines().count(), 400);
    assert_eq!(text.lines().last(), Some(format!("399 {hash}").as_str()));

    let verified = ok(&arena(&["replay", arg(&replay), "--verify"]));
    assert!(verified.starts_with("verified 400 ticks"), "{verified}");
    assert!(verified.contains(hash), "the recording's final hash: {verified}");
    let described = ok(&arena(&["replay", arg(&replay), "--info"]));
    assert!(described.contains("ticks 0 to 400"), "{described}");
}

/// A replay names the game that recorded it, and `fixstep replay` plays it with that game
/// whatever `--game` says; a replay of a game this program does not have is refused naming
/// both games, before any of its records is read as a game's commands.
#[test]
fn a_replay_is_played_by_the_game_that_recorded_it() {
    let dir = Scratch::new("cli-arena", "foreign-replay");
    let replay = dir.path("game.fxr");
    ok(&arena(&["sim", "--ticks", "20", "--bots", "2", "--record", arg(&replay)]));
    let verified = ok(&run_fixstep(&["replay", arg(&replay), "--verify"]));
    assert!(verified.starts_with("verified 20 ticks"), "the arena's, by its header: {verified}");

    let mut bytes = fs::read(&replay).expect("recorded");
    let at = bytes.windows(8).position(|w| w == b"ArenaSim").expect("the header names it");
    bytes[at..at + 8].copy_from_slice(b"OtherSim");
    // The header's checksum no longer matches: make it again, as a crafted file would.
    let (mut length, mut at) = (0_usize, 10);
    while bytes[at] & 0x80 != 0 {
        length |= usize::from(bytes[at] & 0x7f) << (7 * (at - 10));
        at += 1;
    }
    length |= usize::from(bytes[at]) << (7 * (at - 10));
    let payload = at + 1 + 4;
    let sum = (xxhash_rust::xxh3::xxh3_64(&bytes[payload..payload + length]) & 0xffff_ffff) as u32;
    bytes[at + 1..payload].copy_from_slice(&sum.to_le_bytes());
    let crafted = dir.write("crafted.fxr", &bytes);
    let line = one_line_error(&run_fixstep(&["replay", arg(&crafted), "--verify"]));
    assert!(line.contains("recorded by OtherSim, not by TownSim"), "{line}");
    assert!(line.contains(arg(&crafted)), "names the file: {line}");
}

/// The sync test runs the arena and the town alike: every tick twice from a saved state, and
/// a copy rebuilt from the serialized state alongside.
#[test]
fn the_sync_test_passes_for_both_games() {
    let out = ok(&arena(&["sync-test", "--ticks", "300", "--bots", "4"]));
    assert!(out.starts_with("300 ticks of the arena pass the sync test"), "{out}");
    let out = ok(&run_fixstep(&["sync-test", "--ticks", "100", "--bots", "2"]));
    assert!(out.starts_with("100 ticks of the town pass the sync test"), "{out}");
}

/// The sync test takes its players as `sim` does: a command script for the players after the
/// bots (and its moves reach the hash), and a game of more players than the arena holds is
/// refused in one line rather than reported as not deterministic.
#[test]
fn the_sync_test_takes_a_script_and_refuses_too_many_players() {
    let dir = Scratch::new("cli-arena", "sync-script");
    let script = dir.write("moves.txt", "0 2 100 0\n10 2 0 -100 dash\n");
    let args = ["sync-test", "--ticks", "60", "--bots", "2"];
    let scripted = ok(&arena(&[&args[..], &["--commands", arg(&script)]].concat()));
    let idle = dir.write("idle.txt", "0 2 0 0\n");
    let still = ok(&arena(&[&args[..], &["--commands", arg(&idle)]].concat()));
    assert!(scripted.starts_with("60 ticks of the arena pass"), "{scripted}");
    assert_ne!(scripted, still, "the script's player moved");
    let line = one_line_error(&arena(&["sync-test", "--bots", "17"]));
    assert!(line.contains("--bots 17: the arena holds at most 16 players"), "{line}");
}

/// `play --bots` is refused before any window opens when the game cannot hold them all with
/// the player at the keys.
#[test]
fn play_refuses_more_bots_than_the_game_holds() {
    let line = one_line_error(&arena(&["play", "--bots", "16"]));
    assert!(
        line.contains("--bots 16: the arena holds at most 16 players, you among them"),
        "{line}"
    );
}

/// A command script drives arena players with the arena's fields (`X Y [dash]`); a line the
/// arena cannot read is refused naming the file, the line and the field.
#[test]
fn command_scripts_use_the_arenas_fields() {
    let dir = Scratch::new("cli-arena", "script");
    let good = dir.write(
        "good.txt",
        "# player 2 skates east, then dashes north\n0 2 100 0\n20 2 0 100 dash\n",
    );
    let still = dir.write("still.txt", "0 2 0 0\n");
    let moved = ok(&arena(&["sim", "--ticks", "60", "--bots", "2", "--commands", arg(&good)]));
    let stood = ok(&arena(&["sim", "--ticks", "60", "--bots", "2", "--commands", arg(&still)]));
    assert_ne!(moved, stood, "the script's commands reach the game");
    let bad = dir.write("bad.txt", "0 2 0 0\n5 2 250 0\n");
    let line = one_line_error(&arena(&["sim", "--ticks", "10", "--commands", arg(&bad)]));
    assert!(line.contains("bad.txt: line 2: x `250` is not a percent"), "{line}");
}

/// A broken rink file is refused in one line naming the file, its line and the field.
#[test]
fn a_broken_rink_is_refused_naming_its_line() {
    let dir = Scratch::new("cli-arena", "rink");
    let rink = fs::read_to_string(fixstep_tests::workspace_root().join("assets/arena/arena.ron"))
        .expect("the rink reads");
    let bad = dir.write("rink.ron", rink.replace("goal_width_mm: 6000", "goal_width_mm: 60000"));
    let line = one_line_error(&arena(&["sim", "--ticks", "10", "--level", arg(&bad)]));
    assert!(line.contains("rink.ron:"), "{line}");
    assert!(line.contains("goal_width_mm: a goal 60000 mm wide does not fit"), "{line}");
}

/// `fixstep desync-diff` lists where two arena states differ, naming the pusher a field lies
/// in, and exits 1; two equal states exit 0; files that are not states of the arena are
/// refused in one line naming the file (they are not "equal states").
#[test]
fn desync_diff_names_the_pusher_and_refuses_what_is_not_a_state() {
    use fixstep_arena::ArenaSim;
    use fixstep_arena_view::Arena;
    use fixstep_runtime::Simulation;
    use fixstep_runtime::math::Fx;

    let dir = Scratch::new("cli-arena", "desync-diff");
    let assets = fixstep_tests::workspace_root().join("assets");
    let rink = Arena::load_content(&assets, &Arena::default_content(&assets)).expect("loads");
    let host = ArenaSim::new(std::sync::Arc::new(rink), 1, 3).state().clone();
    let mut peer = host.clone();
    peer.pushers[1].as_mut().expect("seated").pos.x += Fx::ONE;
    let ron = |state| fixstep_netplay::desync::state_ron(state).expect("a state writes");
    let (a, b) = (dir.write("host.ron", ron(&host)), dir.write("peer.ron", ron(&peer)));
    let out = arena(&["desync-diff", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(1), "they differ: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "pushers[1].pos.x: 9 (bits 38654705664) -> 10 (bits 42949672960)  (pusher 1 (player 1))"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1, "one difference: {text}");
    assert_eq!(ok(&arena(&["desync-diff", arg(&a), arg(&a)])), "the states are equal\n");

    let not_state = dir.write("settings.ron", "(volume: 3)\n");
    let line = one_line_error(&arena(&["desync-diff", arg(&not_state), arg(&not_state)]));
    assert!(line.contains("settings.ron:1:"), "{line}");
    assert!(line.contains("not a state of arena"), "{line}");
    let line = one_line_error(&run_fixstep(&["desync-diff", arg(&a), arg(&b)]));
    assert!(line.contains("host.ron:") && line.contains("not a state of town"), "{line}");
}
