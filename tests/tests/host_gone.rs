//! A connection that ends while the match goes on, end to end. A host that dies without a
//! goodbye (a crash, `kill -9`, a pulled cable): its peer and its spectator learn it only
//! from the silence, and must end on their own, saying so, with what they computed until then
//! intact. And a player and a spectator the host drops, whose games end badly though the
//! host's goes on.
//!
//! A host that is told to stop says goodbye, which `network.rs` covers; that is the way a
//! match ends well.

use std::time::Duration;

use fixstep_net::access::TOKEN_TIMEOUT_SECONDS;
use fixstep_runtime::net::PEER_TIMEOUT_MICROS;
use fixstep_tests::edges::{Ending, Relay, wait_for_ticks};
use fixstep_tests::processes::{
    Hosting, Running, assert_agrees, free_port, hash_log, player_of, shared_machine, strs,
};
use fixstep_tests::{Scratch, arg};

/// How many ticks the host runs with its peer and spectator before it is killed: five
/// seconds, long enough for both to be playing along, not only welcomed.
const KILLED_AT_TICK: u32 = 50;

/// How long after netcode's timeout a peer may take to end, seconds: its next look at the
/// socket, its logs and its exit, on a machine busy with other builds. Far under a second
/// without them; a peer that waits for another timeout, or forever, is well past it.
const END_MARGIN_S: u64 = 10;

/// How long a process may take to start and be welcomed, seconds: a debug build on a busy
/// machine.
const WELCOME_S: u64 = 60;

/// A host killed (SIGKILL) with `--no-migration` while a bot peer and a headless spectator
/// are connected (so that nobody takes the match over): neither is told, and each ends by itself within netcode's timeout (the 15 s a connect token gives)
/// and a margin, exiting 1 with one line that names the host's address and says it stopped
/// answering (not a panic, not a hang, not a bare "timed out"). The peer's hash log agrees
/// with the host's on every tick both ran: the host's log holds every tick it ran before it
/// was killed, and the peer ran the host's ticks, no more.
#[test]
fn a_host_killed_without_a_goodbye_is_noticed_by_its_peer_and_spectator_who_say_so() {
    let _machine = shared_machine();
    let dir = Scratch::new("host-gone", "killed");
    let game = Hosting::direct();
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
    let mut host_args = game.host_args();
    // As before players could take a match over: the match ends with its host.
    host_args.extend(["--bot", "--hash-log", arg(&host_log), "--no-migration"].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    let entry = game.entry.as_str();
    let peer_args =
        ["join", entry, "--headless", "--bot", "--name", "bob", "--hash-log", arg(&peer_log)];
    let peer = Ending::start(&dir, "peer", &peer_args);
    let spectator = Ending::start(&dir, "spectator", &["spectate", entry, "--headless"]);
    host.wait_for("bob joined as player", Duration::from_secs(WELCOME_S));
    host.wait_for("spectator is watching", Duration::from_secs(WELCOME_S));
    wait_for_ticks(&host, &host_log, KILLED_AT_TICK, Duration::from_secs(WELCOME_S));
    host.kill();
    let killed = std::time::Instant::now();
    let limit = Duration::from_secs(TOKEN_TIMEOUT_SECONDS.unsigned_abs().into())
        + Duration::from_secs(END_MARGIN_S);
    for (who, ending) in [("the peer", peer), ("the spectator", spectator)] {
        let ended = ending.end(limit.saturating_sub(killed.elapsed()));
        let after = ended.at - killed;
        println!("{who} ended {after:?} after the host was killed");
        assert!(after <= limit, "{who} ended {after:?} after the host was killed");
        let line = ended.failed_in_one_line(&format!("{who} fails, as a lost connection is"));
        assert!(line.contains(entry), "{who} names the host {entry}: {line}");
        assert!(line.contains("the host stopped answering"), "{who} says why: {line}");
    }
    let host_hashes = hash_log(&host_log);
    assert!(
        host_hashes.len() >= KILLED_AT_TICK as usize,
        "the host's log holds the {} ticks it ran before the kill",
        host_hashes.len()
    );
    let peer_hashes = hash_log(&peer_log);
    assert!(peer_hashes.len() >= 30, "bob played along: {} ticks", peer_hashes.len());
    assert_agrees("bob", &peer_hashes, &host_hashes);
}

/// The host's tick at which the dropped player's way up goes dead: three seconds in, the
/// player long playing along.
const WAY_UP_DEAD_AT_TICK: u32 = 30;

/// A player and a spectator whose ways up go dead mid-game (a relay each holds everything
/// they send from then on; the host's datagrams still reach them) are dropped by the host once
/// it has heard nothing from them for its five seconds, and told why. Each ends within those
/// five seconds and a margin, exiting 1 (its game ended badly, not with the match) with one
/// line that names the host it dialled and says it was dropped for its silence, and still
/// prints its summary; the player's hashes agree with the host's to its last tick. The host
/// plays on and says both left.
#[test]
fn a_player_and_a_spectator_the_host_drops_fail_saying_why_with_their_summaries() {
    let _machine = shared_machine();
    let dir = Scratch::new("host-gone", "dropped");
    let host_port = free_port();
    let (player_relay, spectator_relay) = (Relay::start(host_port), Relay::start(host_port));
    let game = Hosting::at(host_port, player_relay.entry());
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--hash-log", arg(&host_log), "--also-reachable-at", &spectator_relay.entry()]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    let (player_entry, spectator_entry) = (player_relay.entry(), spectator_relay.entry());
    let peer_args = [
        "join",
        &player_entry,
        "--headless",
        "--bot",
        "--name",
        "bob",
        "--hash-log",
        arg(&peer_log),
    ];
    let peer = Ending::start(&dir, "peer", &peer_args);
    let spectator_args = ["spectate", &spectator_entry, "--headless", "--name", "watcher"];
    let spectator = Ending::start(&dir, "spectator", &spectator_args);
    host.wait_for("bob joined as player", Duration::from_secs(WELCOME_S));
    host.wait_for("watcher is watching", Duration::from_secs(WELCOME_S));
    wait_for_ticks(&host, &host_log, WAY_UP_DEAD_AT_TICK, Duration::from_secs(WELCOME_S));
    player_relay.hold_up(true);
    spectator_relay.hold_up(true);
    let dead = std::time::Instant::now();
    let limit = Duration::from_micros(PEER_TIMEOUT_MICROS) + Duration::from_secs(END_MARGIN_S);
    let mut summaries = Vec::new();
    for (who, ending, entry) in
        [("the player", peer, &player_entry), ("the spectator", spectator, &spectator_entry)]
    {
        let ended = ending.end(limit.saturating_sub(dead.elapsed()));
        println!("{who} ended {:?} after its way up went dead: {}", ended.at - dead, ended.stderr);
        let line = ended.failed_in_one_line(&format!("{who}, dropped, fails"));
        assert!(
            line.contains(&format!("the host at {entry} dropped this peer"))
                && line.contains("heard nothing from this peer"),
            "{who} names the host and says why: {line}"
        );
        summaries.push(ended.stdout);
    }
    let player = player_of(&summaries[0]);
    assert!(summaries[1].starts_with("watched "), "the spectator's summary: {}", summaries[1]);
    for left in [format!("bob (player {player}) left"), "watcher (spectator) left".to_owned()] {
        host.wait_for(
            &format!("{left}: the host heard nothing from this peer"),
            Duration::from_secs(END_MARGIN_S),
        );
    }
    let peer_hashes = hash_log(&peer_log);
    assert!(
        peer_hashes.len() >= WAY_UP_DEAD_AT_TICK as usize - 10,
        "bob played along: {} ticks",
        peer_hashes.len()
    );
    host.terminate();
    let host = host.finish();
    assert!(host.stdout.contains("desyncs 0"), "the host: {}", host.stdout);
    assert_agrees("bob", &peer_hashes, &hash_log(&host_log));
}
