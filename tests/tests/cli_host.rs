//! What `fixstep host` says and refuses: its summary's count of late inputs, end to end with a
//! peer behind a relay whose way up can stall, and options a window host has no use for.

use std::thread;
use std::time::{Duration, Instant};

use fixstep_tests::edges::{Relay, wait_for_ticks};
use fixstep_tests::processes::{
    Finished, Hosting, Running, assert_agrees, free_port, hash_log, number_after, strs,
    whole_machine,
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

/// A tick, milliseconds.
const TICK_MS: u64 = 100;

/// The shortest silence of the link one way that can make an input late, milliseconds: a
/// tick, the spacing of a peer's frames up and the host's down, and the least margin a peer's
/// inputs arrive with (`MARGIN_FLOOR_MICROS`). Any shorter and every input was in time.
const STALL_MS: u64 = TICK_MS + 20;

/// What a game through a relay left: the host's and the peer's summaries, and how many
/// inputs the machine's own stalls could have made late.
struct RelayedGame {
    host: Finished,
    peer: Finished,
    /// For each silence of the link one way (up or down) longer than [`STALL_MS`] since the
    /// peer was welcomed, the ticks it spans, summed: a peer or host held up that long by a
    /// busy machine sends nothing, and an input due meanwhile may come late. On an idle
    /// machine it is 0.
    stalled_ticks: u32,
}

/// Plays a game of [`TICKS`] between a headless host with a bot and a bot peer behind a
/// [`Relay`], whose way up (the peer's inputs) stalls for `stall` at [`STALL_AT_TICK`] if
/// given. Checks that the peer computed the host's every tick; returns the summaries and how
/// long the link fell silent on its own.
fn game_through_a_relay(dir: &Scratch, stall: Option<Duration>) -> RelayedGame {
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
    let welcomed = Instant::now();
    if let Some(stall) = stall {
        wait_for_ticks(&host, &host_log, STALL_AT_TICK, Duration::from_secs(WELCOME_S));
        relay.hold_up(true);
        thread::sleep(stall);
        relay.hold_up(false);
    }
    let peer = peer.finish();
    let host = host.finish();
    let silences = relay.silences_since(welcomed, Duration::from_millis(STALL_MS));
    drop(relay);
    let stalled_ticks = silences
        .iter()
        .map(|gap| u32::try_from(gap.as_millis().div_ceil(u128::from(TICK_MS))).unwrap_or(u32::MAX))
        .sum();
    println!("the link fell silent for {silences:?}: {stalled_ticks} ticks");
    assert!(host.stdout.contains("desyncs 0"), "the host: {}", host.stdout);
    assert!(peer.stdout.contains("desync none"), "the peer: {}", peer.stdout);
    let (host_hashes, peer_hashes) = (hash_log(&host_log), hash_log(&peer_log));
    assert_eq!(host_hashes.len(), TICKS as usize, "the host ran every tick");
    assert_agrees("the peer", &peer_hashes, &host_hashes);
    RelayedGame { host, peer, stalled_ticks }
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
    let _machine = whole_machine();
    let dir = Scratch::new("cli-host", "late");
    let RelayedGame { host, peer, .. } = game_through_a_relay(&dir, Some(STALL));
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
/// and neither does the peer, but for those a stall of the machine itself could have made
/// late. A late input is a lateness the game felt, not a count that grows on its own: on an
/// idle machine the link never falls silent and both counts are 0; on a busy one, a second's
/// stall of the peer's process may make ten inputs late, and the relay sees that second pass
/// without a datagram.
#[test]
fn a_clean_game_counts_no_late_input() {
    let _machine = whole_machine();
    let dir = Scratch::new("cli-host", "clean");
    let RelayedGame { host, peer, stalled_ticks } = game_through_a_relay(&dir, None);
    let allowed = f64::from(stalled_ticks);
    assert!(late_inputs(&host.stdout) <= allowed, "{stalled_ticks} stalled: {}", host.stdout);
    assert!(late_inputs(&peer.stdout) <= allowed, "{stalled_ticks} stalled: {}", peer.stdout);
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
