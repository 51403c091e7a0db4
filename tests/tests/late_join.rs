//! A new player joining a game long under way over a lossy link, end to end: the state it is
//! welcomed with is too big for one datagram, so the reliable channel sends it in slices,
//! some of which the link loses and the host sends again.
//!
//! A late joiner's state is unit-tested in `game/town/tests/`; players there from the start, over
//! the same kind of link, in `network.rs`.

use std::time::Duration;

use fixstep_tests::edges::{CrowdBehindRelay, Ending, crowd_level, ticks_logged, wait_for_ticks};
use fixstep_tests::processes::{
    Hosting, Running, assert_agrees, assert_delayed, hash_log, number_after, shared_machine, strs,
};
use fixstep_tests::{Scratch, arg};

/// The lossy link: 40 ms one way, 5 % of the datagrams lost.
const LINK: [&str; 4] = ["--delay", "40", "--loss", "5"];

/// The link's delay, ms.
const LINK_DELAY_MS: u32 = 40;

/// The link's loss, percent.
const LINK_LOSS_PERCENT: u32 = 5;

/// The least a welcome of the crowd level takes, bytes: most of what its people make.
const MIN_WELCOME_BYTES: f64 = 20_000.0;

/// The least datagrams it comes in: a slice to each of them.
const MIN_WELCOME_DATAGRAMS: f64 = 16.0;

/// How many ticks the game runs before the new player comes: ten seconds.
const JOIN_AFTER_TICKS: u32 = 100;

/// The host's ticks, all told: the new player's twenty seconds after the late start.
const HOST_TICKS: u32 = 320;

/// The new player's last tick: the host's nearly.
const PEER_TICKS: u32 = 300;

/// How long a process may take to start and be welcomed, seconds: a debug build on a busy
/// machine.
const WELCOME_S: u64 = 60;

/// A crowd game (six hundred people standing about, a thirty-kilobyte state) has run ten
/// seconds when a new player joins through a link of 40 ms and 5 % loss. A player joining
/// straight to the host just before shows how big the welcome is: over twenty kilobytes in
/// over sixteen datagrams. The new player is welcomed at the host's tick of the moment, and
/// from that tick on computes every tick's state to the host's bit for twenty seconds, with
/// no desync; the link applied its delay and its loss.
#[test]
fn a_new_player_joining_late_over_a_lossy_link_computes_the_hosts_every_tick() {
    let _machine = shared_machine();
    let dir = Scratch::new("late-join", "lossy");
    let level = dir.write("crowd.ron", crowd_level());
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &LINK, 41);
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("newcomer.hashes"));
    let host_ticks = HOST_TICKS.to_string();
    let mut host_args = game.host_args();
    host_args.extend(
        [
            "--level",
            arg(&level),
            "--bot",
            "--ticks",
            &host_ticks,
            "--hash-log",
            arg(&host_log),
            "--reports",
            arg(dir.dir()),
        ]
        .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    wait_for_ticks(&host, &host_log, JOIN_AFTER_TICKS, Duration::from_secs(WELCOME_S));
    // The welcome's size, as a player straight to the host sees it in its first tick.
    let direct = format!("127.0.0.1:{}", game.host_port);
    let probe_args =
        ["join", &direct, "--headless", "--bot", "--name", "probe", "--level", arg(&level)];
    let probe = Ending::start(&dir, "probe", &[&probe_args[..], &["--ticks", "1"]].concat())
        .end(Duration::from_secs(WELCOME_S));
    assert!(probe.status.success(), "the probe joins: {probe:?}");
    // `wire sent N datagrams N B, received N datagrams N B in ...`
    let received = probe.stdout.split("received").nth(1).unwrap_or_default();
    let datagrams: f64 =
        received.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0.0);
    let bytes = number_after(received, "datagrams").unwrap_or(0.0);
    println!("a welcome of the crowd: {datagrams} datagrams, {bytes} B");
    assert!(
        datagrams >= MIN_WELCOME_DATAGRAMS && bytes >= MIN_WELCOME_BYTES,
        "the welcome is sliced into many datagrams: {}",
        probe.stdout
    );
    let peer_ticks = PEER_TICKS.to_string();
    let peer_args = [
        "--name",
        "newcomer",
        "--level",
        arg(&level),
        "--ticks",
        &peer_ticks,
        "--hash-log",
        arg(&peer_log),
        "--reports",
        arg(dir.dir()),
    ];
    let peer = game.bot_peer(&dir, "newcomer", &peer_args);
    host.wait_for("newcomer joined as player", Duration::from_secs(WELCOME_S));
    let welcomed_by = ticks_logged(&host_log);
    let peer = peer.finish();
    let host = host.finish();
    let link = netem.stop_netem();
    println!("{}{}{link:?}", peer.stdout, host.stdout);
    assert!(peer.stdout.contains("desync none"), "the newcomer: {}", peer.stdout);
    assert!(host.stdout.contains("desyncs 0"), "the host: {}", host.stdout);
    // Ticks that arrive together are run together, so a peer may stop a tick or two past the
    // one it was asked to reach.
    let reached = number_after(&peer.stdout, " tick ").unwrap_or(0.0);
    assert!(
        peer.stdout.starts_with("player ") && reached >= f64::from(PEER_TICKS),
        "the newcomer was welcomed and played to its last tick: {}",
        peer.stdout
    );
    let (host_hashes, peer_hashes) = (hash_log(&host_log), hash_log(&peer_log));
    assert_eq!(host_hashes.len(), HOST_TICKS as usize, "the host ran every tick");
    let first = peer_hashes.keys().next().copied().unwrap_or(0);
    assert!(
        (JOIN_AFTER_TICKS..=welcomed_by).contains(&first),
        "the newcomer came after tick {JOIN_AFTER_TICKS}, was welcomed by tick {welcomed_by}, \
         and first ran tick {first}"
    );
    assert_agrees("the newcomer", &peer_hashes, &host_hashes);
    // Ticks that arrive together run together: it may run a tick or two past its last.
    let last = peer_hashes.keys().next_back().copied().unwrap_or(0);
    assert!(
        last >= PEER_TICKS - 1,
        "it played to its end, tick {}: it ran to {last}",
        PEER_TICKS - 1
    );
    assert_delayed(&peer.stdout, LINK_DELAY_MS);
    // Some thirty datagrams a second, both ways, for the newcomer's twenty seconds.
    link.assert_lost(LINK_LOSS_PERCENT, 400);
}

/// How long after its start a peer never welcomed may take to give up, seconds: the host's
/// five seconds before it drops a peer it does not hear from, or the peer's own ten before it
/// stops waiting for its welcome, and a margin for a debug build on a busy machine.
const NEVER_WELCOMED_ENDS_S: u64 = 30;

/// A new player of the crowd game whose welcome never gets through (a relay drops every
/// datagram a slice of it comes in, each time it is sent again) never plays: the host drops
/// it once it has heard nothing from it for five seconds, and the player, which never got in,
/// fails (exit 1) with one line naming the host, printing no summary; not a success with an
/// empty game.
#[test]
fn a_new_player_whose_welcome_never_arrives_fails_saying_so() {
    let _machine = shared_machine();
    let dir = Scratch::new("late-join", "never-welcomed");
    let CrowdBehindRelay { relay, host, level } =
        CrowdBehindRelay::start(&dir, &["--reports", arg(dir.dir())]);
    let entry = relay.entry();
    let peer = Ending::start(
        &dir,
        "newcomer",
        &[
            "join",
            &entry,
            "--headless",
            "--bot",
            "--name",
            "newcomer",
            "--level",
            arg(&level),
            "--ticks",
            "100",
        ],
    )
    .end(Duration::from_secs(NEVER_WELCOMED_ENDS_S));
    println!("the newcomer ended after {:?}: {}", peer.took, peer.stderr);
    let line = peer.failed_in_one_line("it fails, never welcomed");
    assert!(peer.stdout.is_empty(), "it played nothing to sum up: {}", peer.stdout);
    assert!(line.contains(&entry), "it names the host {entry}: {line}");
    assert!(
        host.stderr().contains("newcomer (player 1) left: the host heard nothing from this peer"),
        "the host dropped it:\n{}",
        host.stderr()
    );
    host.terminate();
    host.finish();
}
