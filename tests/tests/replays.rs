//! Replays of network matches, end to end: `fixstep host --record` and `join --record` over a
//! bad link, with a late joiner, a player killed and back, and a desync resynced; then
//! `fixstep replay` on the files with no assets at all.

use std::path::Path;
use std::thread;
use std::time::Duration;

use fixstep_tests::processes::{
    BAD_LINK, BAD_LINK_LOSS_PERCENT, Hosting, Running, hash_log, player_of, shared_machine, strs,
};
use fixstep_tests::{Scratch, arg, run_fixstep};

/// Ticks the recorded match runs: 40 s, room for a late join, a kill and a return.
const MATCH_TICKS: u32 = 400;

/// The tick after which bob's state is moved off the host's, to be resynced.
const PERTURBED_TICK: u32 = 150;

/// `fixstep --assets EMPTY replay FILE ARGS...`: what it printed, and whether it succeeded.
fn replay(empty: &Path, file: &Path, args: &[&str]) -> (String, String, bool) {
    let mut all = vec!["--assets", arg(empty), "replay", arg(file)];
    all.extend_from_slice(args);
    let out = run_fixstep(&all);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr), out.status.success())
}

/// A match recorded by its host through a bad link (80 ms, 20 ms of jitter, 5 % loss), with
/// bob there from the start and desynced on purpose (the host resyncs him), alice joining
/// late, killed with `kill -9` and back under her name: the host's replay re-simulates to its
/// every hash with an empty assets folder, and its state at ticks spread over the match hashes
/// as the host's hash log says. Alice's second replay, which starts where she came back,
/// verifies from its first keyframe; bob's names the tick he was moved off at, the truth of
/// what he computed.
#[test]
fn a_recorded_network_match_verifies_anywhere_and_agrees_with_the_hosts_log() {
    let _machine = shared_machine();
    let dir = Scratch::new("replays", "network-match");
    let empty = dir.path("no-assets");
    std::fs::create_dir_all(&empty).expect("an empty folder");
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &BAD_LINK, 29);
    let (host_log, host_replay) = (dir.path("host.hashes"), dir.path("host.fxr"));
    let ticks = MATCH_TICKS.to_string();
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", &ticks, "--hash-log", arg(&host_log), "--record", arg(&host_replay)]
            .map(str::to_owned),
    );
    host_args.extend(["--reports".to_owned(), arg(&dir.path("host-reports")).to_owned()]);
    let host = Running::start(&dir, "host", &strs(&host_args));
    let peer = |name: &str, run: &str, extra: &[&str]| {
        let record = dir.path(&format!("{run}.fxr"));
        let reports = dir.path(&format!("{run}-reports"));
        let mut args = vec!["--ticks", &ticks, "--name", name, "--record", arg(&record)];
        args.extend(["--reports", arg(&reports)]);
        args.extend_from_slice(extra);
        game.bot_peer(&dir, run, &args)
    };
    let perturbed = PERTURBED_TICK.to_string();
    let bob = peer("bob", "bob", &["--perturb-at", &perturbed]);
    host.wait_for("bob joined as player", Duration::from_secs(30));
    thread::sleep(Duration::from_secs(8));
    let alice = peer("alice", "alice", &[]);
    host.wait_for("alice joined as player", Duration::from_secs(30));
    thread::sleep(Duration::from_secs(8));
    alice.kill();
    let alice = peer("alice", "alice-again", &[]);
    host.wait_for("alice came back as player", Duration::from_secs(30));
    let (alice, bob, host) = (alice.finish(), bob.finish(), host.finish());
    netem.stop_netem().assert_lost(BAD_LINK_LOSS_PERCENT, 1_000);
    assert!(host.stderr.contains("desync at tick"), "bob was resynced:\n{}", host.stderr);
    let host_hashes = hash_log(&host_log);
    assert_eq!(host_hashes.len(), MATCH_TICKS as usize);

    let (out, err, ok) = replay(&empty, &host_replay, &["--verify"]);
    assert!(ok, "the host's replay verifies with no assets: {err}");
    assert!(out.starts_with(&format!("verified {MATCH_TICKS} ticks")), "{out}");
    let final_hash = &host_hashes[&(MATCH_TICKS - 1)];
    assert!(out.trim_end().ends_with(&format!("final hash {final_hash}")), "{out}");
    for at in [0, 97, PERTURBED_TICK, 271, 333, MATCH_TICKS - 1] {
        let (out, err, ok) = replay(&empty, &host_replay, &["--at", &at.to_string(), "--hash"]);
        assert!(ok, "--at {at}: {err}");
        assert_eq!(out, format!("{at} {}\n", host_hashes[&at]), "tick {at}");
    }
    let (summary, _, ok) = replay(&empty, &host_replay, &["--info"]);
    assert!(ok && summary.contains("recorded by the host"), "{summary}");

    // Alice's replay from her return starts there, and verifies from its first keyframe.
    let (out, err, ok) = replay(&empty, &dir.path("alice-again.fxr"), &["--verify"]);
    assert!(ok, "alice's replay verifies: {err}");
    assert!(out.contains("hashes match"), "{out}");
    let player = player_of(&alice.stdout);
    let (summary, _, _) = replay(&empty, &dir.path("alice-again.fxr"), &["--info"]);
    assert!(summary.contains(&format!("recorded by player {}", player + 1)), "{summary}");
    assert!(!summary.contains("ticks 0 to"), "alice came in late: {summary}");
    // Her replay names who played, as the host's roster told her.
    assert!(summary.contains("bob") && summary.contains("alice"), "{summary}");

    // Bob's replay holds what bob computed: moved off after the perturbed tick.
    let (_, err, ok) = replay(&empty, &dir.path("bob.fxr"), &["--verify"]);
    assert!(!ok, "bob's replay records the state he was moved to");
    assert!(err.contains(&format!("tick {PERTURBED_TICK}:")), "{err}");
    assert!(bob.stdout.contains("resynced"), "{}", bob.stdout);
}

/// Ticks of the match resumed from its replay.
const RESUMED_TICKS: u32 = 200;

/// The tick after which the second host plays on.
const RESUME_AFTER_TICK: u32 = 99;

/// A match hosted with its host's bot and recorded, then hosted again from its replay at tick
/// 99 with the same bot: the second host's hashes from tick 100 on are the first's, bit for
/// bit, and tick numbers go on from the replay's. A bot's commands come from the state alone,
/// so the same commands reach the same states: the match went on as it would have.
#[test]
fn a_match_resumed_from_its_replay_continues_the_hosts_hash_stream() {
    let _machine = shared_machine();
    let dir = Scratch::new("replays", "resumed");
    let (first_log, replay_file) = (dir.path("first.hashes"), dir.path("first.fxr"));
    let ticks = RESUMED_TICKS.to_string();
    let first = Hosting::direct();
    let mut args = first.host_args();
    args.extend(
        ["--bot", "--ticks", &ticks, "--hash-log", arg(&first_log), "--record", arg(&replay_file)]
            .map(str::to_owned),
    );
    let done = Running::start(&dir, "first", &strs(&args)).finish();
    assert!(done.stdout.contains(&format!("tick {RESUMED_TICKS}")), "{}", done.stdout);

    let second_log = dir.path("second.hashes");
    let at = RESUME_AFTER_TICK.to_string();
    let second = Hosting::direct();
    let mut args = second.host_args();
    args.extend(
        [
            "--bot",
            "--ticks",
            &ticks,
            "--hash-log",
            arg(&second_log),
            "--from-replay",
            arg(&replay_file),
            "--at",
            &at,
        ]
        .map(str::to_owned),
    );
    let done = Running::start(&dir, "second", &strs(&args)).finish();
    let said = format!("playing on from the replay's tick {RESUME_AFTER_TICK}");
    assert!(done.stderr.contains(&said), "{}", done.stderr);
    let (first, second) = (hash_log(&first_log), hash_log(&second_log));
    assert_eq!(second.keys().next(), Some(&(RESUME_AFTER_TICK + 1)), "ticks go on from there");
    assert_eq!(second.len(), (RESUMED_TICKS - RESUME_AFTER_TICK - 1) as usize);
    for (tick, hash) in &second {
        assert_eq!(Some(hash), first.get(tick), "tick {tick}");
    }
}

/// A host killed with `kill -9` in the middle of a match, started again on its own replay on
/// the same port: the match goes on from the last tick the replay holds, and a player who
/// joins again under the name it played under takes its character back, computing the new
/// host's every tick.
#[test]
fn a_crashed_host_restarted_on_its_replay_gives_players_their_seats_back() {
    let _machine = shared_machine();
    let dir = Scratch::new("replays", "crashed-host");
    let game = Hosting::direct();
    let replay_file = dir.path("server.fxr");
    let mut args = game.host_args();
    args.extend(["--bot", "--record", arg(&replay_file)].map(str::to_owned));
    let host = Running::start(&dir, "server", &strs(&args));
    let bob = game.bot_peer(&dir, "bob", &["--name", "bob"]);
    host.wait_for("bob joined as player 1", Duration::from_secs(30));
    thread::sleep(Duration::from_secs(6));
    host.kill();
    // Bob's game lost its host; he closes it and joins again once the server is back.
    bob.kill();

    let (server_log, bob_log) = (dir.path("again.hashes"), dir.path("bob-again.hashes"));
    let mut args = game.host_args();
    args.extend(
        ["--bot", "--hash-log", arg(&server_log), "--from-replay", arg(&replay_file)]
            .map(str::to_owned),
    );
    let again = Running::start(&dir, "server-again", &strs(&args));
    again.wait_for("playing on from the replay's tick", Duration::from_secs(30));
    let bob = game.bot_peer(&dir, "bob-again", &["--name", "bob", "--hash-log", arg(&bob_log)]);
    again.wait_for("bob came back as player 1", Duration::from_secs(30));
    thread::sleep(Duration::from_secs(5));
    again.terminate();
    let (again, _) = (again.finish(), bob.finish());
    assert!(again.stdout.contains("desyncs 0"), "{}", again.stdout);
    let (server, bob) = (hash_log(&server_log), hash_log(&bob_log));
    let resumed_from = *server.keys().next().expect("the server ran ticks");
    assert!(resumed_from > 40, "it went on from the crash, not the start: tick {resumed_from}");
    assert!(bob.len() > 20, "bob played on: {} ticks", bob.len());
    for (tick, hash) in &bob {
        assert_eq!(Some(hash), server.get(tick), "bob's tick {tick}");
    }
}
