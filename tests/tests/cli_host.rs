//! What `fixstep host` says and refuses: its summary's count of late inputs, end to end with a
//! peer behind a relay whose way up can stall, and options a window host has no use for.

use std::thread;
use std::time::Duration;

use fixstep_tests::edges::{Relay, wait_for_ticks};
use fixstep_tests::processes::{
    Finished, Hosting, Running, assert_agrees, free_port, hash_log, number_after, one_game, strs,
};
use fixstep_tests::{Scratch, arg, one_line_error, run_fixstep};

/// The ticks of each game: twenty seconds.
const TICKS: u32 = 200;

/// The host's tick at which the peer's way up stalls: eight seconds in, the peer long settled.
const STALL_AT_TICK: u32 = 80;

/// How long the peer's way up stalls: a second, ten ticks fixed without its inputs. Far under
/// the five seconds after which the host drops a silent peer.
const STALL: Duration = Duration::from_secs(1);

/// How long a process may take to start and be welcomed, seconds: a debug build on a busy
/// machine.
const WELCOME_S: u64 = 60;

/// Plays a game of [`TICKS`] between a headless host with a bot and a bot peer behind a
/// [`Relay`], whose way up (the peer's inputs) stalls for `stall` at [`STALL_AT_TICK`] if
/// given. Checks that the peer computed the host's every tick; returns the host's and the
/// peer's summaries.
fn game_through_a_relay(dir: &Scratch, stall: Option<Duration>) -> (Finished, Finished) {
    let host_port = free_port();
    let relay = Relay::start(host_port);
    let game = Hosting::at(host_port, relay.entry());
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
    let ticks = TICKS.to_string();
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", &ticks, "--hash-log", arg(&host_log), "--reports", arg(dir.dir())]
            .map(str::to_owned),
    );
    let host = Running::start(dir, "host", &strs(&host_args));
    let peer_args = [
        "--name",
        "bob",
        "--ticks",
        &ticks,
        "--hash-log",
        arg(&peer_log),
        "--reports",
        arg(dir.dir()),
    ];
    let peer = game.bot_peer(dir, "peer", &peer_args);
    host.wait_for("bob joined as player", Duration::from_secs(WELCOME_S));
    if let Some(stall) = stall {
        wait_for_ticks(&host, &host_log, STALL_AT_TICK, Duration::from_secs(WELCOME_S));
        relay.hold_up(true);
        thread::sleep(stall);
        relay.hold_up(false);
    }
    let peer = peer.finish();
    let host = host.finish();
    drop(relay);
    assert!(host.stdout.contains("desyncs 0"), "the host: {}", host.stdout);
    assert!(peer.stdout.contains("desync none"), "the peer: {}", peer.stdout);
    let (host_hashes, peer_hashes) = (hash_log(&host_log), hash_log(&peer_log));
    assert_eq!(host_hashes.len(), TICKS as usize, "the host ran every tick");
    assert_agrees("the peer", &peer_hashes, &host_hashes);
    (host, peer)
}

/// The late inputs a summary counts.
fn late_inputs(summary: &str) -> f64 {
    number_after(summary, "late inputs").unwrap_or_else(|| panic!("no late inputs in {summary}"))
}

/// A peer whose way up stalls for a second mid-game (its inputs held, then delivered all at
/// once, late): the host fixes the ticks of that second with the peer's held input standing
/// in, and its summary counts those late inputs, about the ten ticks of the stall; the peer
/// is told, and counts them too. The game goes on in agreement.
#[test]
fn a_peer_whose_inputs_arrive_late_is_counted_in_the_hosts_late_inputs() {
    let _game = one_game();
    let dir = Scratch::new("cli-host", "late");
    let (host, peer) = game_through_a_relay(&dir, Some(STALL));
    let (host_late, peer_late) = (late_inputs(&host.stdout), late_inputs(&peer.stdout));
    println!("late inputs: the host counts {host_late}, the peer {peer_late}");
    let stall_ticks = STALL.as_millis() as f64 / 100.0;
    assert!(
        host_late >= stall_ticks / 2.0,
        "a stall of {stall_ticks} ticks, {host_late} late inputs: {}",
        host.stdout
    );
    assert!(host_late <= f64::from(TICKS) / 2.0, "late inputs all game: {}", host.stdout);
    assert!(peer_late > 0.0, "the peer is told its inputs came late: {}", peer.stdout);
}

/// The same game through the same relay, which never stalls: the host counts no late input,
/// and neither does the peer. A late input is a lateness the game felt, not a count that
/// grows on its own.
#[test]
fn a_clean_game_counts_no_late_input() {
    let _game = one_game();
    let dir = Scratch::new("cli-host", "clean");
    let (host, peer) = game_through_a_relay(&dir, None);
    assert_eq!(late_inputs(&host.stdout), 0.0, "the host: {}", host.stdout);
    assert_eq!(late_inputs(&peer.stdout), 0.0, "the peer: {}", peer.stdout);
}

/// `--end-when-empty` ends a headless server's match when its players are gone; a window host
/// ends when its own player quits, so the option means nothing there. Without `--headless` it
/// is refused in one line naming `--headless`, exit 2, before any window opens.
#[test]
fn end_when_empty_without_headless_is_refused() {
    for args in
        [&["host", "--end-when-empty", "2"][..], &["host", "--end-when-empty", "2", "--port", "0"]]
    {
        let line = one_line_error(&run_fixstep(args));
        assert!(line.contains("--headless"), "{args:?}: {line}");
    }
}
