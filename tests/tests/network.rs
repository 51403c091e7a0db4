//! Network play end to end: `fixstep host`, `join`, `spectate` and `netem` as processes of
//! their own on loopback, the way players and servers run them, judged by their hash logs,
//! drawn logs and desync reports.
//!
//! The sessions' logic is unit-tested without a network in `runtime/tests/net_lockstep.rs`;
//! these tests prove that the binary puts it on real sockets, real time and a real bad link
//! (the link conditioner, `fixstep netem`) without losing a bit.
//!
//! The tests that judge timing (frame pace, an answer within a timeout) or load the machine
//! (the flood) hold [`whole_machine`]; the others, judged by hashes and logs, hold
//! [`shared_machine`] and may run beside another test's game.

use std::collections::BTreeSet;
use std::net::{SocketAddr, UdpSocket};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use fixstep_net::access::TOKEN_TIMEOUT_SECONDS;
use fixstep_runtime::net::PEER_TIMEOUT_MICROS;
use fixstep_runtime::rng::SimRng;
use fixstep_tests::processes::{
    BAD_LINK, BAD_LINK_DELAY_MS, BAD_LINK_LOSS_PERCENT, Hosting, Running, assert_agrees,
    assert_delayed, free_port, hash_log, number_after, player_of, shared_machine, strs,
    whole_machine,
};
use fixstep_tests::{Scratch, arg, judge};
use fixstep_tools::judder::{DrawnFrame, read_drawn_log, read_truth};

/// Three players on a bad link and a host, 1,200 ticks (two minutes) of bots playing: every
/// peer computes every tick's state to the host's bit, and nobody reports a desync.
#[test]
fn three_peers_through_a_bad_link_compute_the_hosts_every_tick() {
    let _machine = shared_machine();
    let dir = Scratch::new("network", "three-peers");
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &BAD_LINK, 11);
    let played = game.bots_agree(&dir, 3, 1200);
    for (name, hashes) in played.peers {
        // A peer joins a few ticks in (the handshake over the bad link) and plays to the end.
        assert!(hashes.len() >= 1100, "{name} ran {} ticks", hashes.len());
        assert_eq!(hashes.keys().next_back(), Some(&1199), "{name} plays to the end");
    }
    // The link was as bad as asked: its delay on every input, its loss on what it carried.
    for summary in &played.summaries {
        assert_delayed(summary, BAD_LINK_DELAY_MS);
    }
    netem.stop_netem().assert_lost(BAD_LINK_LOSS_PERCENT, 5_000);
}

/// A player whose process dies mid-game (`kill -9`) and is started again at once under the
/// same name: before the host has noticed the old connection is gone, the rejoin secret the
/// first welcome gave (kept in the player's data folder) takes the seat over as soon as the
/// new process says hello (within a second on an idle machine), the old connection is told it
/// was replaced rather than timed out, and the player
/// computes the host's every tick from its return on. The game goes on for the others
/// without a gap. Without the secret, the name would be refused while the seat is held.
#[test]
fn a_killed_peer_restarted_at_once_takes_its_seat_back_before_the_host_notices() {
    let _machine = whole_machine();
    let dir = Scratch::new("network", "rejoin");
    let game = Hosting::direct();
    let host_log = dir.path("host.hashes");
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", "350", "--hash-log", arg(&host_log), "--reports", arg(dir.dir())]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    let join = |name: &str, log: &Path, run: &str| {
        let args =
            ["--ticks", "350", "--name", name, "--hash-log", arg(log), "--reports", arg(dir.dir())];
        game.bot_peer(&dir, run, &args)
    };
    let (bob_log, alice_log) = (dir.path("bob.hashes"), dir.path("alice-again.hashes"));
    let bob = join("bob", &bob_log, "bob");
    let alice = join("alice", &dir.path("alice.hashes"), "alice");
    host.wait_for("alice joined as player", Duration::from_secs(20));
    host.wait_for("bob joined as player", Duration::from_secs(20));
    thread::sleep(Duration::from_secs(4));
    alice.kill();
    let number = host
        .stderr()
        .lines()
        .find_map(|l| l.strip_prefix("fixstep: alice joined as player "))
        .expect("the host said which player alice is")
        .to_owned();
    let restarted = Instant::now();
    let alice = join("alice", &alice_log, "alice-again");
    let back = format!("alice came back as player {number}");
    while !host.stderr().contains(&back) {
        assert!(restarted.elapsed() < Duration::from_secs(10), "{}", host.stderr());
        thread::sleep(Duration::from_millis(5));
    }
    let took = restarted.elapsed();
    println!("the seat came back {took:?} after the restart");
    // Sooner than the host drops a silent connection: the secret took the seat over, where a
    // name alone would have waited for the old connection to time out. (A busy machine may
    // take seconds to start a debug build, so the figure is printed, not held to a second.)
    let timeout = Duration::from_micros(PEER_TIMEOUT_MICROS);
    assert!(took < timeout, "the seat came back {took:?} after the restart, not at once");
    let replaced = format!("alice (player {number}) left: this player rejoined");
    assert!(host.stderr().contains(&replaced), "the old seat replaced:\n{}", host.stderr());
    let alice = alice.finish();
    let bob = bob.finish();
    let host = host.finish();
    assert!(host.stdout.contains("desyncs 0"), "the host found no desync: {}", host.stdout);
    let host_hashes = hash_log(&host_log);
    assert_eq!(host_hashes.len(), 350, "the host's game went on through the departure");
    // Before the kill, alice played in agreement for the four seconds (40 ticks) it had.
    let before = hash_log(&dir.path("alice.hashes"));
    assert_agrees("alice, before", &before, &host_hashes);
    assert!(before.len() >= 30, "alice ran {} ticks before the kill", before.len());
    assert!(
        alice.stdout.starts_with("player ") && alice.stdout.contains(" tick 350 "),
        "alice, back, ran to the host's last tick: {}",
        alice.stdout
    );
    assert_eq!(player_of(&alice.stdout).to_string(), number, "alice's own character back");
    let (bob_hashes, alice_hashes) = (hash_log(&bob_log), hash_log(&alice_log));
    assert_agrees("bob", &bob_hashes, &host_hashes);
    assert_agrees("alice, back", &alice_hashes, &host_hashes);
    assert_eq!(bob_hashes.keys().next_back(), Some(&349), "bob played on to the end");
    assert_eq!(alice_hashes.keys().next_back(), Some(&349), "alice played on to the end");
    assert!(bob.stdout.contains("desync none"), "bob: {}", bob.stdout);
    assert!(alice.stdout.contains("desync none"), "alice: {}", alice.stdout);
    println!("the seat came back {took:?} after the restart");
}

/// An orchestrator stops a game server with SIGTERM: the host ends the match as its last tick
/// would (its peers told, its hash log whole, its summary printed, success), and its peer and
/// spectator take the goodbye as the end of the game, not a failure: each writes its logs and
/// its summary.
#[test]
fn a_host_told_to_stop_ends_the_match_for_everyone_cleanly() {
    let _machine = shared_machine();
    let dir = Scratch::new("network", "stop");
    let game = Hosting::direct();
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
    let mut host_args = game.host_args();
    host_args.extend(["--hash-log", arg(&host_log)].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    let peer = game.bot_peer(&dir, "peer", &["--name", "bob", "--hash-log", arg(&peer_log)]);
    let spectator = Running::start(&dir, "spectator", &["spectate", &game.entry, "--headless"]);
    host.wait_for("bob joined as player", Duration::from_secs(20));
    host.wait_for("is watching", Duration::from_secs(20));
    thread::sleep(Duration::from_secs(3));
    host.terminate();
    let host = host.finish();
    assert!(host.stderr.contains("told to stop"), "the host says why it ends:\n{}", host.stderr);
    assert!(host.stdout.starts_with("tick "), "the host's summary: {}", host.stdout);
    let peer = peer.finish();
    assert!(peer.stderr.contains("ended the match"), "the peer says why:\n{}", peer.stderr);
    assert!(peer.stdout.contains("desync none"), "the peer's summary: {}", peer.stdout);
    let spectator = spectator.finish();
    assert!(spectator.stderr.contains("ended the match"), "and so is the spectator");
    assert!(spectator.stdout.starts_with("watched "), "its summary: {}", spectator.stdout);
    // The hash log is whole: every tick from 0 to the last the summary names, no gap.
    let ticks = number_after(&host.stdout, "tick")
        .unwrap_or_else(|| panic!("the host's summary names its tick: {}", host.stdout))
        as u32;
    let host_hashes = hash_log(&host_log);
    assert!(ticks >= 20, "the host ran its three seconds: {ticks} ticks");
    assert_eq!(
        host_hashes.keys().copied().collect::<Vec<u32>>(),
        (0..ticks).collect::<Vec<u32>>(),
        "the host's hash log has ticks 0 to {} and no other",
        ticks - 1
    );
    let peer_hashes = hash_log(&peer_log);
    assert_agrees("bob", &peer_hashes, &host_hashes);
    let reached = peer_hashes.keys().next_back().copied().unwrap_or(0);
    assert!(reached + 2 >= ticks, "bob reached tick {reached} of the host's {}", ticks - 1);
}

/// A game server with `--end-when-empty` hands its slot back once its match is over: when
/// its last player has been gone that long, it ends by itself, with its summary.
#[test]
fn a_host_ends_its_match_once_its_players_are_gone() {
    let _machine = whole_machine();
    let dir = Scratch::new("network", "empty");
    let game = Hosting::direct();
    let mut host_args = game.host_args();
    host_args.extend(["--end-when-empty", "2"].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    // Nobody yet: a server waits for its first player however long that takes.
    thread::sleep(Duration::from_secs(3));
    let peer = game.bot_peer(&dir, "peer", &["--name", "bob", "--ticks", "30"]);
    host.wait_for("bob joined as player", Duration::from_secs(20));
    peer.finish();
    // Timed from when the host says its last player left (it may hear the goodbye a moment
    // after the process is gone) to its own end: the wait it was told, and little more.
    host.wait_for("bob (player", Duration::from_secs(20));
    let gone = Instant::now();
    let host = host.finish();
    let waited = gone.elapsed();
    println!("the host ended {waited:?} after its last player left");
    assert!(host.stderr.contains("no player for 2 s"), "the host says why:\n{}", host.stderr);
    assert!(host.stdout.starts_with("tick "), "the host's summary: {}", host.stdout);
    // The host waits the 2 s it was told, then spends its 2 s farewell (its last datagrams
    // getting through) before its process ends. Both moments are seen by polling every 50 ms,
    // and a loaded machine may be a little late.
    let (least, most) = (Duration::from_millis(3_900), Duration::from_millis(5_500));
    assert!(
        (least..=most).contains(&waited),
        "the host ended {waited:?} after its last player: not --end-when-empty's 2 s and its \
         2 s farewell"
    );
}

/// A spectator runs no town: it draws the poses the host sends through the remote view. Over
/// the bad link for 600 ticks it draws every entity of the host's truth, its taxis at most
/// 1 % of their frames off pace, and nothing pops.
#[test]
fn a_spectator_draws_every_entity_smoothly_over_a_bad_link() {
    let _machine = whole_machine();
    let dir = Scratch::new("network", "spectator");
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &BAD_LINK, 23);
    let (truth, drawn) = (dir.path("truth.jsonl"), dir.path("drawn.jsonl"));
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", "700", "--truth-log", arg(&truth), "--reports", arg(dir.dir())]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    let spectator = Running::start(
        &dir,
        "spectator",
        &["spectate", &game.entry, "--headless", "--ticks", "600", "--drawn-log", arg(&drawn)],
    );
    spectator.finish();
    host.finish();
    netem.stop_netem().assert_lost(BAD_LINK_LOSS_PERCENT, 1_000);
    let report = judge(&drawn, &truth);
    println!("{report}");
    let truth_ids: BTreeSet<u64> = truth_entities(&truth);
    let drawn_ids: BTreeSet<u64> = report.entities.iter().map(|e| e.id).collect();
    let missing: Vec<&u64> = truth_ids.difference(&drawn_ids).collect();
    assert!(missing.is_empty(), "entities never drawn: {missing:?}");
    let vehicles = report.kinds.iter().find(|k| k.kind == "vehicle").expect("taxis are drawn");
    assert!(vehicles.tally.paced >= 10_000, "{} paced taxi frames", vehicles.tally.paced);
    let off = vehicles.tally.off_pace_percent().unwrap_or(f64::NAN);
    assert!(off <= 1.0, "taxis {off:.2} % off pace\n{report}");
    assert_eq!(report.all.tally.pops, 0, "pops\n{report}");
}

/// The ids of every entity a truth log has a line for.
fn truth_entities(path: &Path) -> BTreeSet<u64> {
    read_truth(path)
        .expect("the truth log reads")
        .iter()
        .flat_map(|line| line.entities.iter().map(|e| e.id))
        .collect()
}

/// A peer that differs from the host on purpose (the hidden `--perturb-at`, its character
/// moved a metre after a tick) is caught at that tick: both sides write a desync report
/// naming the tick, the character and the field, and the peer says so; the host's resync
/// brings it back in agreement within a second.
#[test]
fn a_perturbed_peer_is_reported_with_the_entity_and_field_that_differ() {
    const PERTURBED_TICK: u32 = 120;
    /// How many ticks after the perturbation the report's tick may be.
    const REPORT_WITHIN_TICKS: u32 = 2;
    let _machine = shared_machine();
    let dir = Scratch::new("network", "perturbed");
    let run =
        Hosting::direct().perturbed_game(&dir, (220, 200), PERTURBED_TICK, REPORT_WITHIN_TICKS);
    let player = run.player;
    for (side, summary) in &run.summaries {
        assert!(
            summary.contains(&format!("(player {player}), field pos")),
            "the {side}'s summary names the character and the field:\n{summary}"
        );
    }
}

/// How many datagrams the flood sends.
const FLOOD_DATAGRAMS: usize = 100_000;

/// The largest datagram the flood sends, bytes: over the transport's largest packet.
const FLOOD_MAX_BYTES: usize = 1_400;

/// The least share of the flood the host must have read and counted. Loopback loses nothing
/// on its way, but the kernel drops what arrives while the host's receive buffer is full:
/// with two other builds on the 2 cores the host read 89 % of it, on an idle machine all.
/// A flood sent elsewhere, or a host that counts only what it accepts, reads next to none.
const FLOOD_LEAST_READ_SHARE: f64 = 0.5;

/// A running host flooded with 100,000 datagrams while it plays with a peer: random bytes
/// from a stranger, and real packets of the peer's (caught on their way) mutated, truncated,
/// extended and replayed, sent from the peer's own address. The host keeps ticking, nothing
/// panics, and the peer still computes the host's every tick.
#[test]
fn a_flood_of_random_and_mutated_datagrams_does_not_stop_the_host() {
    let _machine = whole_machine();
    let dir = Scratch::new("network", "flood");
    let host_port = free_port();
    let front = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
    let front_addr = front.local_addr().expect("an address");
    let host_addr: SocketAddr = format!("127.0.0.1:{host_port}").parse().expect("an address");
    let game = Hosting::at(host_port, front_addr.to_string());
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", "400", "--hash-log", arg(&host_log), "--reports", arg(dir.dir())]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    let relay = Relay::start(front, host_addr);
    let peer_args = ["--ticks", "380", "--hash-log", arg(&peer_log), "--reports", arg(dir.dir())];
    let peer = game.bot_peer(&dir, "peer", &peer_args);
    host.wait_for("joined as player", Duration::from_secs(20));
    let sent = relay.flood(host_addr, FLOOD_DATAGRAMS);
    let peer = peer.finish();
    let host = host.finish();
    relay.stop();
    assert_eq!(sent, FLOOD_DATAGRAMS);
    let host_hashes = hash_log(&host_log);
    assert_eq!(host_hashes.len(), 400, "the host kept ticking");
    let peer_hashes = hash_log(&peer_log);
    assert_agrees("the peer", &peer_hashes, &host_hashes);
    assert_eq!(peer_hashes.keys().next_back(), Some(&379), "the peer played on to the end");
    assert!(peer.stdout.contains("desync none"), "{}", peer.stdout);
    assert!(host.stdout.contains("desyncs 0"), "{}", host.stdout);
    let malformed: u64 = host
        .stdout
        .split("malformed datagrams ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("the host counts what it dropped: {}", host.stdout));
    assert!(malformed > 0, "some of the flood is shaped as no netcode packet: {}", host.stdout);
    // The host read (and so judged) most of it.
    let received = number_after(&host.stdout, "received")
        .unwrap_or_else(|| panic!("the host counts its datagrams: {}", host.stdout));
    assert!(
        received >= FLOOD_LEAST_READ_SHARE * FLOOD_DATAGRAMS as f64,
        "the host read {received} of the {FLOOD_DATAGRAMS} datagrams: {}",
        host.stdout
    );
}

/// A relay between a peer and the host that keeps a copy of the peer's packets, so the
/// flood can send them on mutated, from the peer's address.
struct Relay {
    /// The socket the relay sends to the host from: the peer's address as the host sees it.
    back: UdpSocket,
    caught: Arc<Mutex<Vec<Vec<u8>>>>,
    stop: Arc<AtomicBool>,
    thread: thread::JoinHandle<()>,
}

/// Packets of the peer's the relay keeps to mutate.
const RELAY_KEEPS: usize = 256;

impl Relay {
    fn start(front: UdpSocket, host: SocketAddr) -> Self {
        let back = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
        back.connect(host).expect("the host's address");
        let poll = Some(Duration::from_millis(1));
        front.set_read_timeout(poll).expect("a timeout");
        back.set_read_timeout(poll).expect("a timeout");
        let caught = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (to_host, keep, done) =
            (back.try_clone().expect("a clone"), caught.clone(), stop.clone());
        let thread = thread::spawn(move || {
            let mut buf = [0u8; 2048];
            let mut peer: Option<SocketAddr> = None;
            while !done.load(Ordering::Relaxed) {
                if let Ok((n, from)) = front.recv_from(&mut buf) {
                    peer = Some(from);
                    let _ = to_host.send(&buf[..n]);
                    let mut kept = keep.lock().expect("the relay's copies");
                    if kept.len() < RELAY_KEEPS {
                        kept.push(buf[..n].to_vec());
                    }
                }
                if let (Ok(n), Some(peer)) = (to_host.recv(&mut buf), peer) {
                    let _ = front.send_to(&buf[..n], peer);
                }
            }
        });
        Self { back, caught, stop, thread }
    }

    /// Sends `count` datagrams to `host`: half random from a stranger's socket, half the
    /// peer's own packets mutated (bits flipped, cut short, lengthened, or replayed as they
    /// were) from the peer's address. Returns how many went out.
    fn flood(&self, host: SocketAddr, count: usize) -> usize {
        let stranger = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
        let mut rng = SimRng::new(0xF100D, 0);
        let mut pick = |low: usize, high: usize| low + rng.below((high - low + 1) as u32) as usize;
        let mut sent = 0;
        let start = Instant::now();
        for i in 0..count {
            let caught: Vec<Vec<u8>> = self.caught.lock().expect("the relay's copies").clone();
            let datagram = if i % 2 == 0 || caught.is_empty() {
                let len = pick(0, FLOOD_MAX_BYTES);
                (0..len).map(|_| pick(0, 255) as u8).collect::<Vec<u8>>()
            } else {
                let mut packet = caught[pick(0, caught.len() - 1)].clone();
                match pick(0, 3) {
                    0 => {
                        for _ in 0..=pick(0, 7) {
                            if !packet.is_empty() {
                                let at = pick(0, packet.len() - 1);
                                packet[at] ^= 1 << pick(0, 7);
                            }
                        }
                    }
                    1 => packet.truncate(pick(0, packet.len())),
                    2 => {
                        let more = pick(1, 64);
                        packet.extend((0..more).map(|_| pick(0, 255) as u8));
                    }
                    // Replayed as it was.
                    _ => {}
                }
                packet
            };
            let out = if i % 2 == 0 {
                stranger.send_to(&datagram, host)
            } else {
                self.back.send(&datagram)
            };
            if out.is_ok() {
                sent += 1;
            }
            // About 5,000 a second: a flood, spread over most of the game.
            if i % 500 == 499 {
                let due = Duration::from_millis((i as u64 + 1) / 5);
                if let Some(wait) = due.checked_sub(start.elapsed()) {
                    thread::sleep(wait);
                }
            }
        }
        sent
    }

    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

/// Network play as a player sees it, over 80 ms one way with 30 ms of jitter: the other
/// player, walking east at constant speed, is drawn with no frame off its pace at 60 Hz
/// (the peer runs each tick when its drawn time reaches it, so the jitter never shows), and
/// the own character starts moving on the first frame after its key.
#[test]
fn over_a_jittery_link_a_walker_keeps_its_pace_and_the_own_character_answers_at_once() {
    let _machine = whole_machine();
    let dir = Scratch::new("network", "walk");
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &["--delay", "80", "--jitter", "30"], 31);
    // The host's player walks east from its first tick; the peer's waits four seconds (it
    // has joined by then), then walks east beside it.
    let host_walk = dir.write("host-walk.txt", "0 0 100 0 0\n");
    let peer_walk = dir.write("peer-walk.txt", "0 0 0 0 0\n4000 0 100 0 0\n");
    let (truth, drawn) = (dir.path("truth.jsonl"), dir.path("drawn.jsonl"));
    let mut host_args = game.host_args();
    host_args.extend(
        [
            "--level",
            "tests/levels/two_lanes.ron",
            "--ticks",
            "320",
            "--input-script",
            arg(&host_walk),
            "--reports",
            arg(dir.dir()),
        ]
        .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    let peer = Running::start(
        &dir,
        "peer",
        &[
            "join",
            &game.entry,
            "--level",
            "tests/levels/two_lanes.ron",
            "--headless",
            "--ticks",
            "300",
            "--input-script",
            arg(&peer_walk),
            "--drawn-log",
            arg(&drawn),
            "--truth-log",
            arg(&truth),
            "--fps",
            "60",
            "--reports",
            arg(dir.dir()),
        ],
    );
    let peer = peer.finish();
    host.finish();
    let link = netem.stop_netem();
    assert_eq!(link.lost, 0, "a link without loss lost nothing: {link:?}");
    assert!(link.forwarded >= 300, "the link carried the game: {link:?}");
    assert_delayed(&peer.stdout, 80);
    let report = judge(&drawn, &truth);
    println!("{report}");
    let frames = read_drawn_log(&drawn).expect("the drawn log reads");
    let walker = walker_id(&frames);
    let stats = report.entities.iter().find(|e| e.id == walker).expect("the walker is drawn");
    assert!(stats.tally.paced >= 1_000, "{} paced frames of the walker", stats.tally.paced);
    assert_eq!(stats.tally.off_pace, 0, "the walker's frames off pace\n{report}");
    assert_eq!(stats.tally.pops, 0, "the walker's pops\n{report}");
    // Counted in frames, not ms: a busy machine may draw a frame late, which is not the
    // network's doing.
    assert_eq!(
        report.local.frames_to_show,
        [1],
        "the frame after the key that first shows the own character moving\n{report}"
    );
}

/// The id of the character the drawn log draws that is not the local player's.
fn walker_id(frames: &[DrawnFrame]) -> u64 {
    frames
        .iter()
        .flat_map(|f| &f.entities)
        .find(|e| !e.local && e.kind.as_deref() == Some("character"))
        .map(|e| e.id)
        .expect("the other player is drawn")
}

/// A password session: a peer with the password plays and agrees with the host; one with
/// another password, or none, is told so within a few seconds (not left to time out), and
/// exits with an error that says which. An open host says, in one line, that it is open.
#[test]
fn a_wrong_or_missing_password_is_refused_at_once_with_a_clear_message() {
    let _machine = shared_machine();
    let dir = Scratch::new("network", "password");
    let open = Hosting::direct();
    let open_host = Running::start(&dir, "open-host", &strs(&open.host_args()));
    open_host.wait_for("this session is open and unencrypted", Duration::from_secs(20));
    drop(open_host);
    let game = Hosting::direct();
    let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", "150", "--password", "hunter2", "--hash-log", arg(&host_log)]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("hosting", Duration::from_secs(20));
    let peer = game.bot_peer(
        &dir,
        "peer",
        &["--ticks", "150", "--password", "hunter2", "--hash-log", arg(&peer_log)],
    );
    for (password, expected) in
        [(Some("hunter3"), "refused this password"), (None, "asks for a password")]
    {
        let mut args = vec!["join", game.entry.as_str(), "--headless", "--bot", "--name", "eve"];
        args.extend(password.map(|p| ["--password", p]).into_iter().flatten());
        let started = Instant::now();
        let out = std::process::Command::new(fixstep_tests::fixstep_binary())
            .args(&args)
            .current_dir(fixstep_tests::workspace_root())
            .env("XDG_DATA_HOME", dir.dir())
            .output()
            .expect("fixstep runs");
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{password:?} is refused");
        assert!(stderr.contains(expected), "{password:?}: says {expected:?}:\n{stderr}");
        // Told, not left to wait for the connection to time out.
        let timeout = Duration::from_secs(TOKEN_TIMEOUT_SECONDS.unsigned_abs().into());
        assert!(took < timeout / 2, "{password:?}: told after {took:?}");
    }
    let peer = peer.finish();
    host.finish();
    assert!(peer.stdout.contains("desync none"), "{}", peer.stdout);
    assert_agrees("the peer with the password", &hash_log(&peer_log), &hash_log(&host_log));
}
