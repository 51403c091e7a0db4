//! A host refusing a peer, end to end over UDP: the refused process is told why at once (the
//! host's words, not a timeout), exits as a failure with one line saying it, and the game it
//! could not join goes on for the others.
//!
//! The session's reasons are unit-tested in `runtime/tests/net_lockstep.rs`; a wrong password
//! in `network.rs`.

use std::time::Duration;

use fixstep_tests::edges::{Ended, Ending};
use fixstep_tests::processes::{Hosting, Running, shared_machine, strs};
use fixstep_tests::{Scratch, arg};

/// How soon a refused process must have ended, seconds, from its start: half the ten seconds
/// a peer waits for its welcome before it gives up by itself, so a refusal that was never
/// said (and a process that waited out its own timeout instead) fails. A refusal takes a
/// round trip on loopback, and a debug build's start.
const REFUSED_WITHIN_S: u64 = 5;

/// How long a host may take to start listening, seconds: a debug build on a busy machine.
const START_S: u64 = 60;

/// Runs `fixstep` with `args` as `name` to its end, which must come within
/// [`REFUSED_WITHIN_S`] of its start (a test's own limit on a hang is twelve times that).
fn refused(dir: &Scratch, name: &str, args: &[&str]) -> Ended {
    let ended = Ending::start(dir, name, args).end(Duration::from_secs(12 * REFUSED_WITHIN_S));
    assert!(
        ended.took < Duration::from_secs(REFUSED_WITHIN_S),
        "{name} was refused only {:?} after its start, as a timeout would be:\n{}",
        ended.took,
        ended.stderr
    );
    let _ = ended.failed_in_one_line(&format!("{name} fails, as a refused connection does"));
    ended
}

/// A headless host with a bot of its own and `--max-players 2` counts its own player as one of
/// the two: the first peer (player 1) fills it, and the next is refused within a few seconds
/// with the host's own reason, "the game is full: 2 players of 2", which the host logs too. A
/// spectator is still taken (its places are counted apart), and the player who got in plays
/// on as if nothing happened.
#[test]
fn a_full_host_refuses_the_next_player_at_once_saying_it_is_full() {
    let _machine = shared_machine();
    let dir = Scratch::new("refusals", "full");
    let game = Hosting::direct();
    let mut host_args = game.host_args();
    host_args.extend(["--bot", "--max-players", "2"].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    let bob = game.bot_peer(&dir, "bob", &["--name", "bob", "--ticks", "150"]);
    host.wait_for("bob joined as player 1", Duration::from_secs(START_S));
    let eve = refused(
        &dir,
        "eve",
        &["join", &game.entry, "--headless", "--bot", "--name", "eve", "--ticks", "50"],
    );
    let said = "the host refused this player: the game is full: 2 players of 2";
    assert!(eve.stderr.contains(said), "eve is told the game is full: {}", eve.stderr);
    assert!(eve.stdout.is_empty(), "eve played nothing: {}", eve.stdout);
    assert!(
        host.stderr().contains("refused player \"eve\": the game is full: 2 players of 2"),
        "the host says whom it refused and why:\n{}",
        host.stderr()
    );
    let watching = Running::start(
        &dir,
        "spectator",
        &["spectate", &game.entry, "--headless", "--name", "carol", "--ticks", "20"],
    )
    .finish();
    assert!(watching.stdout.starts_with("watched "), "a full game is watched: {}", watching.stdout);
    let bob = bob.finish();
    assert!(
        bob.stdout.starts_with("player 1 tick 150 ") && bob.stdout.contains("desync none"),
        "bob plays his game to its end: {}",
        bob.stdout
    );
    host.terminate();
    let host = host.finish();
    assert!(host.stdout.contains("desyncs 0"), "{}", host.stdout);
}

/// A peer on another level than the host's (the two-lane test level against the town), a
/// spectator on it, and a peer of another game (the arena) are each refused within a few
/// seconds, told what differs: the level's digest, theirs and the host's. Not left to wait
/// for a welcome that cannot come, nor let in to desync on the first tick.
#[test]
fn a_peer_of_another_level_is_refused_at_once_naming_what_differs() {
    let _machine = shared_machine();
    let dir = Scratch::new("refusals", "level");
    let game = Hosting::direct();
    // Were a peer let in, it would desync: the reports go in the test's folder.
    let reports = arg(dir.dir());
    let mut host_args = game.host_args();
    host_args.extend(["--reports", reports].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("hosting", Duration::from_secs(START_S));
    let lanes = "tests/levels/two_lanes.ron";
    let entry = game.entry.as_str();
    let join = ["join", entry, "--headless", "--bot", "--reports", reports];
    for (name, role, args) in [
        ("lanes", "player", [&join[..], &["--level", lanes]].concat()),
        ("lanes-watcher", "spectator", vec!["spectate", entry, "--headless", "--level", lanes]),
        ("arena", "player", [&["--game", "arena"][..], &join].concat()),
    ] {
        let mut args = args;
        args.extend(["--name", name]);
        let ended = refused(&dir, name, &args);
        // The arena's rules have a version of their own too, which is named first when it
        // differs from the town's.
        let said = format!("the host refused this {role}: this peer differs from the host: ");
        assert!(ended.stderr.contains(&said), "{name} is told it differs: {}", ended.stderr);
        assert!(ended.stderr.contains("level digest "), "{name}, the level: {}", ended.stderr);
        assert!(
            ended.stderr.contains("(the host's level is "),
            "{name} is told the host's level too: {}",
            ended.stderr
        );
        let logged = format!("refused {role} {name:?}: this peer differs from the host: ");
        assert!(host.stderr().contains(&logged), "the host logs it:\n{}", host.stderr());
    }
    assert!(!host.stderr().contains("joined as player"), "nobody got in:\n{}", host.stderr());
    host.terminate();
    host.finish();
}
