//! Friends joining from home, through real routers' parts: a lab of network namespaces
//! (`fixstep_tests::netlab`) with two homes, each a router (nftables masquerade) with a LAN
//! behind it, and an internet with a rendezvous and coturn. The host plays in home A's LAN, the
//! friend in home B's; every game runs the `fixstep` binary inside the namespaces.
//!
//! - Router A runs miniupnpd: the host maps its port, and the friend joins at the mapped
//!   public address; again with the router's UPnP off, by NAT-PMP.
//! - Both routers map a socket to one public port whatever the destination: the friend joins
//!   by code on a direct path the probes punch, without a datagram through the relay; both
//!   routers then forget their mappings mid-game, which costs a pause, not the match.
//! - The friend's router maps each destination anew (symmetric): nothing punched holds, and
//!   the friend joins by code through the host's TURN relay, which carries the session's
//!   packets and can read none of them.
//!
//! - The host leaves mid-game, and its successor plays in the other home: the host's other
//!   player finds it by the match's code, which the successor keeps, on a path punched through
//!   both routers; and, with the successor's router symmetric, through the relay it allocates
//!   on as it takes over.
//!
//! Each game's every tick is compared between host and friend by their hash logs.

use std::net::SocketAddrV4;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use fixstep_tests::netlab::{Home, Lab, LabOptions, NatKind, Node, SERVER, lab_or_skip};
use fixstep_tests::processes::shared_machine;
use fixstep_tests::processes::{Running, assert_agrees, hash_log};
use fixstep_tests::{Scratch, arg, fixstep_binary};

/// The rendezvous's port on the lab's internet.
const RENDEZVOUS_PORT: u16 = 7480;

/// The host's game port in home A.
const HOST_PORT: u16 = 7465;

/// How long a lab game takes to start, at most: a debug build's start on a loaded machine.
const START_LIMIT: Duration = Duration::from_secs(60);

/// Ticks a game runs: thirty seconds of play.
const TICKS: u32 = 300;

/// Ticks the punched path's game runs: fifteen seconds, long enough to forget the mappings
/// mid-game and play on, short enough that the file's three games take under a minute on two
/// test threads.
const PUNCHED_TICKS: u32 = 150;

/// Ticks a friend may miss at the start of a game of `ticks`: the join's handshake.
const MISSED_AT_START: u32 = 50;

/// The friend's name, looked for in what the relay carried.
const FRIEND: &str = "zanzibar-friend";

/// `fixstep ARGS` run inside `node`'s namespace of `lab`.
fn fixstep_in(lab: &Lab, node: Node, args: &[&str]) -> Command {
    lab.exec(node, fixstep_binary(), args)
}

/// Starts the rendezvous on the lab's internet.
fn rendezvous(lab: &Lab, dir: &Scratch) -> Running {
    let port = RENDEZVOUS_PORT.to_string();
    let command = fixstep_in(lab, Node::Internet, &["rendezvous", "--port", &port]);
    let running = Running::start_command(dir, "rendezvous", command);
    running.wait_for("rendezvous listening", START_LIMIT);
    running
}

/// The rendezvous's address, as players give it.
fn rendezvous_at() -> String {
    SocketAddrV4::new(SERVER, RENDEZVOUS_PORT).to_string()
}

/// The STUN server's address (the lab's coturn), as players give it.
fn stun_at() -> String {
    SocketAddrV4::new(SERVER, 3478).to_string()
}

/// The first word after `label` in `text`.
fn word_after<'t>(text: &'t str, label: &str) -> Option<&'t str> {
    text.split(label).nth(1)?.split_whitespace().next()
}

/// Starts the host in home A's LAN, a bot playing, with `extra` arguments.
fn host(lab: &Lab, dir: &Scratch, ticks: u32, log: &Path, extra: &[&str]) -> Running {
    let (port, ticks) = (HOST_PORT.to_string(), ticks.to_string());
    let mut args =
        vec!["host", "--headless", "--port", &port, "--bot", "--ticks", &ticks, "--hash-log"];
    args.push(arg(log));
    args.extend_from_slice(extra);
    Running::start_command(dir, "host", fixstep_in(lab, Node::Lan(Home::A), &args))
}

/// Starts the friend in home B's LAN, joining `entry` (an address or a code).
fn friend(
    lab: &Lab,
    dir: &Scratch,
    ticks: u32,
    log: &Path,
    entry: &str,
    extra: &[&str],
) -> Running {
    let ticks = ticks.to_string();
    let mut args = vec!["join", entry, "--headless", "--bot", "--name", FRIEND, "--ticks", &ticks];
    args.extend(["--hash-log", arg(log)]);
    args.extend_from_slice(extra);
    Running::start_command(dir, "friend", fixstep_in(lab, Node::Lan(Home::B), &args))
}

/// Waits until the host says the friend joined; how long that took from `since`.
fn joined_after(host: &Running, since: Instant) -> Duration {
    host.wait_for(&format!("{FRIEND} joined as player"), START_LIMIT);
    since.elapsed()
}

/// The host's join code, once announced.
fn code_of(host: &Running) -> String {
    host.wait_for("join code ", START_LIMIT);
    word_after(&host.stderr(), "join code ").expect("a code").trim_end_matches(':').to_owned()
}

/// Plays the game out and checks the friend computed every tick the host did; what the
/// friend said of its path and its summary's round trip are printed for the record.
fn agree(host: Running, friend: Running, ticks: u32, host_log: &Path, friend_log: &Path) -> String {
    let friend_said = friend.finish();
    host.finish();
    let hashes = hash_log(friend_log);
    assert!(
        hashes.len() >= usize::try_from(ticks - MISSED_AT_START).unwrap_or(usize::MAX),
        "the friend played {} ticks:\n{}",
        hashes.len(),
        friend_said.stderr
    );
    assert_agrees("the friend", &hashes, &hash_log(host_log));
    let link = friend_said.stdout.lines().find(|l| l.starts_with("link rtt")).unwrap_or_default();
    let path = friend_said.stderr.lines().find(|l| l.contains("answered at")).unwrap_or_default();
    println!("{path}\n{link}");
    friend_said.stderr
}

/// Router A runs miniupnpd: the host asks it for its port (UPnP), says the mapping, and a
/// friend in home B joins at router A's public address and that port, and plays 300 ticks
/// agreeing on every hash.
#[test]
fn a_friend_joins_at_the_port_the_hosts_router_mapped() {
    let _machine = shared_machine();
    joins_at_the_mapped_port(false, "(UPnP)", TICKS);
}

/// The same with the router's UPnP off: the host finds no UPnP router within its search's
/// two seconds, asks by NAT-PMP, and the friend joins there.
#[test]
fn a_friend_joins_at_the_port_mapped_by_nat_pmp_when_upnp_is_off() {
    let _machine = shared_machine();
    joins_at_the_mapped_port(true, "(NAT-PMP)", PUNCHED_TICKS);
}

/// A host in home A maps its port on router A's miniupnpd (`nat_pmp_only`: with UPnP off),
/// says so with `how`, and a friend joins there and plays `ticks` agreeing.
fn joins_at_the_mapped_port(nat_pmp_only: bool, how: &str, ticks: u32) {
    let options =
        LabOptions { upnp_a: true, nat_pmp_only_a: nat_pmp_only, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &[]) else {
        return;
    };
    let dir = Scratch::new("nat", if nat_pmp_only { "nat-pmp" } else { "upnp" });
    let (host_log, friend_log) = (dir.path("host.hashes"), dir.path("friend.hashes"));
    let host = host(&lab, &dir, ticks, &host_log, &["--stun", &stun_at()]);
    host.wait_for("the router forwards", START_LIMIT);
    let said = host.stderr();
    assert!(said.contains(how), "asked as {how}:\n{said}");
    let port = said
        .split("the router forwards ")
        .nth(1)
        .and_then(|rest| {
            rest.split_whitespace().find_map(|w| w.rsplit(':').next()?.parse::<u16>().ok())
        })
        .expect("the mapped port");
    let entry = SocketAddrV4::new(Home::A.wan(), port).to_string();
    let started = Instant::now();
    let friend = friend(&lab, &dir, ticks, &friend_log, &entry, &[]);
    println!("mapped {how}: joined {:?} after starting", joined_after(&host, started));
    agree(host, friend, ticks, &host_log, &friend_log);
    assert_eq!(lab.relay_counter().expect("the relay's counter").0, 0, "nothing relayed");
}

/// Both routers map a socket to one public port for every destination: the friend types the
/// host's code and joins on a direct path the probes punch, within 3 s of starting, with no
/// datagram through the relay. Both routers then forget every mapping at once mid-game; the
/// next datagrams out make them again, and the match goes on, every hash agreeing.
#[test]
fn a_friend_joins_by_code_on_a_punched_path_that_survives_forgotten_mappings() {
    let _machine = shared_machine();
    let Some(lab) = lab_or_skip(LabOptions { turn: true, ..LabOptions::default() }, &[]) else {
        return;
    };
    let dir = Scratch::new("nat", "punched");
    let _rendezvous = rendezvous(&lab, &dir);
    let (host_log, friend_log) = (dir.path("host.hashes"), dir.path("friend.hashes"));
    let rendezvous = rendezvous_at();
    let stun = stun_at();
    let host_args = ["--code", "--rendezvous", &rendezvous, "--stun", &stun, "--no-port-mapping"];
    let host = host(&lab, &dir, PUNCHED_TICKS, &host_log, &host_args);
    let code = code_of(&host);
    let started = Instant::now();
    let friend_args = ["--rendezvous", &rendezvous, "--stun", &stun];
    let friend = friend(&lab, &dir, PUNCHED_TICKS, &friend_log, &code, &friend_args);
    let took = joined_after(&host, started);
    println!("punched: joined {took:?} after starting");
    assert!(took < Duration::from_secs(3), "joined {took:?} after starting");
    friend.wait_for("direct path", START_LIMIT);
    // Mid-game, both routers forget.
    std::thread::sleep(Duration::from_secs(5));
    for home in Home::ALL {
        lab.forget_mappings(home).expect("the mappings can be flushed");
    }
    let said = agree(host, friend, PUNCHED_TICKS, &host_log, &friend_log);
    assert!(said.contains(&format!("the host of {code} answered at {}", Home::A.wan())), "{said}");
    assert_eq!(lab.relay_counter().expect("the relay's counter").0, 0, "nothing relayed");
}

/// The friend's router maps every destination to a port of its own (and the host's maps none
/// on request, which the host says in one line and hosts on): the host's punches go
/// to a port that leads nowhere, and the friend's probes come from one the host's router
/// never saw. The friend joins by code through the host's TURN relay, plays 300 ticks agreeing
/// on every hash, and the relay carried the session without its player's name in a byte of
/// it.
#[test]
fn a_friend_behind_a_symmetric_nat_joins_by_code_through_the_relay() {
    let _machine = shared_machine();
    let options = LabOptions { nat_b: NatKind::Symmetric, turn: true, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &["tcpdump"]) else {
        return;
    };
    let dir = Scratch::new("nat", "relayed");
    let _rendezvous = rendezvous(&lab, &dir);
    let capture = dir.path("relay.pcap");
    let mut tcpdump = lab.exec(
        Node::Internet,
        "tcpdump",
        ["-i", "any", "-U", "-w", arg(&capture), "udp and host", &SERVER.to_string()],
    );
    let sniffer = Running::start_command(&dir, "tcpdump", {
        tcpdump.env_remove("XDG_DATA_HOME");
        tcpdump
    });
    let turn = lab.turn().expect("the lab's relay");
    let (host_log, friend_log) = (dir.path("host.hashes"), dir.path("friend.hashes"));
    let rendezvous = rendezvous_at();
    let stun = stun_at();
    let relay = turn.address.to_string();
    // Its router has no UPnP or NAT-PMP: the host is told no, in one line, and hosts on.
    let host_args = [
        "--code",
        "--rendezvous",
        &rendezvous,
        "--stun",
        &stun,
        "--turn",
        &relay,
        "--turn-user",
        turn.user,
        "--turn-password",
        turn.password,
    ];
    let host = host(&lab, &dir, TICKS, &host_log, &host_args);
    host.wait_for("the TURN relay gave this host", START_LIMIT);
    let code = code_of(&host);
    let started = Instant::now();
    let friend = friend(
        &lab,
        &dir,
        TICKS,
        &friend_log,
        &code,
        &["--rendezvous", &rendezvous, "--stun", &stun],
    );
    let took = joined_after(&host, started);
    friend.wait_for("relayed path", START_LIMIT);
    host.wait_for("the router forwards no port", START_LIMIT);
    let host_said = host.stderr();
    let said = agree(host, friend, TICKS, &host_log, &friend_log);
    let refusals = host_said.matches("the router forwards no port").count();
    assert_eq!(refusals, 1, "a router that says no is one line:\n{host_said}");
    let (packets, bytes) = lab.relay_counter().expect("the relay's counter");
    assert!(packets > 300, "the relay carried the session: {packets} datagrams, {bytes} B");
    sniffer.kill();
    let captured = std::fs::read(&capture).expect("the capture");
    assert!(captured.len() > 10_000, "the capture holds the session: {} B", captured.len());
    assert!(
        !captured.windows(FRIEND.len()).any(|w| w == FRIEND.as_bytes()),
        "the friend's name crossed the relay in the clear"
    );
    println!("relayed: joined in {took:?}; relay {packets} datagrams {bytes} B\n{said}");
}

/// Ticks the migrated match runs: the host leaves at [`KILLED_AT_TICK`], and the players play
/// on for ten seconds under the successor.
const MIGRATED_TICKS: u32 = 150;

/// The tick of the second player's at which the host is killed: both players long playing.
const KILLED_AT_TICK: u32 = 50;

/// How long the relay is held still from the host's death in the relayed migration: past
/// the players' second of silence and the successor's first lookups, so that they come
/// before its allocation.
const RELAY_HELD: Duration = Duration::from_millis(2_500);

/// Sends `signal` (`STOP`, `CONT`) to each of `pids`.
fn signal_all(pids: &[u32], signal: &str) {
    for pid in pids {
        let sent = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -{signal} {pid}");
    }
}

/// The second player's name: it plays in home A, beside the host.
const NEIGHBOUR: &str = "zanzibar-neighbour";

/// The host, in home A, is killed mid-game without a goodbye. Its first successor, the friend
/// who joined first, plays in home B behind a router that lets nothing in unasked and
/// forwards no port. The host's neighbour in home A finds the friend's new host by the
/// match's code: the friend renews the listing from the socket it hosts on, the rendezvous
/// tells each where the other is, and the probes punch through both routers. Both play on to
/// the end, every hash agreeing, on a direct path.
#[test]
fn a_successor_behind_another_router_is_found_by_the_matchs_code() {
    let _machine = shared_machine();
    let answered =
        migrates("migrated", LabOptions::default(), "direct path", &Home::B.wan().to_string());
    println!("migrated, punched: {answered}");
}

/// The same with the friend's router symmetric: nothing punched towards it holds, so the
/// friend, given a TURN relay of its own, allocates on it as it takes the match over and
/// offers it with the code; the neighbour plays on through it. The relay is held still
/// (SIGSTOP) from the kill for [`RELAY_HELD`], so the neighbour's lookup reaches the friend
/// before the relay gave it an address: the neighbour is let through the relay once it does.
#[test]
fn a_successor_behind_a_symmetric_nat_is_reached_through_its_relay() {
    let _machine = shared_machine();
    let options = LabOptions { nat_b: NatKind::Symmetric, turn: true, ..LabOptions::default() };
    let answered = migrates("migrated-relayed", options, "relayed path", &SERVER.to_string());
    println!("migrated, relayed: {answered}");
}

/// Plays the migration in a lab of `options`, its files in the scratch folder `run`: the host in home A listed under a code, the
/// friend in home B and the neighbour in home A joined by it, the host killed at the
/// neighbour's tick [`KILLED_AT_TICK`]. Checks both play on to the end agreeing, the friend
/// kept the code, and the neighbour found the friend's host on a `path` at `address`; returns
/// what the neighbour said of it and how long after the kill.
fn migrates(run: &str, options: LabOptions, path: &str, address: &str) -> String {
    let Some(lab) = lab_or_skip(options, &[]) else {
        return String::new();
    };
    let dir = Scratch::new("nat", run);
    let _rendezvous = rendezvous(&lab, &dir);
    let (host_log, friend_log, neighbour_log) =
        (dir.path("host.hashes"), dir.path("friend.hashes"), dir.path("neighbour.hashes"));
    let (rendezvous, stun) = (rendezvous_at(), stun_at());
    let turn = lab.turn();
    let relay = turn.as_ref().map(|t| t.address.to_string()).unwrap_or_default();
    let mut relay_args = Vec::new();
    if let Some(turn) = &turn {
        relay_args =
            vec!["--turn", &relay, "--turn-user", turn.user, "--turn-password", turn.password];
    }
    let mut host_args =
        vec!["--code", "--rendezvous", &rendezvous, "--stun", &stun, "--no-port-mapping"];
    host_args.extend_from_slice(&relay_args);
    let host = host(&lab, &dir, MIGRATED_TICKS, &host_log, &host_args);
    let code = code_of(&host);
    let dial_args = ["--rendezvous", rendezvous.as_str(), "--stun", stun.as_str()];
    let mut friend_args = dial_args.to_vec();
    friend_args.extend_from_slice(&relay_args);
    let friend = friend(&lab, &dir, MIGRATED_TICKS, &friend_log, &code, &friend_args);
    joined_after(&host, Instant::now());
    let ticks = MIGRATED_TICKS.to_string();
    let mut args =
        vec!["join", &code, "--headless", "--bot", "--name", NEIGHBOUR, "--ticks", &ticks];
    args.extend(["--hash-log", arg(&neighbour_log)]);
    args.extend_from_slice(&dial_args);
    let neighbour =
        Running::start_command(&dir, "neighbour", fixstep_in(&lab, Node::Lan(Home::A), &args));
    host.wait_for(&format!("{NEIGHBOUR} joined as player"), START_LIMIT);
    fixstep_tests::edges::wait_for_ticks(&neighbour, &neighbour_log, KILLED_AT_TICK, START_LIMIT);
    let killed = Instant::now();
    let relay_daemons = if turn.is_some() { lab.daemon_pids() } else { Vec::new() };
    signal_all(&relay_daemons, "STOP");
    host.kill();
    if !relay_daemons.is_empty() {
        std::thread::sleep(RELAY_HELD);
        signal_all(&relay_daemons, "CONT");
    }
    neighbour.wait_for("the next host of", START_LIMIT);
    let found = killed.elapsed();
    let neighbour_said = neighbour.finish();
    let friend_said = friend.finish();
    let (friend_hashes, neighbour_hashes) = (hash_log(&friend_log), hash_log(&neighbour_log));
    let last = |hashes: &std::collections::BTreeMap<u32, String>| hashes.keys().max().copied();
    assert!(
        last(&neighbour_hashes) >= Some(MIGRATED_TICKS - 1),
        "the neighbour played on to the end:\n{}",
        neighbour_said.stderr
    );
    assert!(
        last(&friend_hashes) >= Some(MIGRATED_TICKS - 1),
        "the friend hosted and played on to the end:\n{}",
        friend_said.stderr
    );
    assert_agrees("the neighbour", &neighbour_hashes, &friend_hashes);
    assert!(
        friend_said.stderr.contains(&format!("the match keeps its code {code}")),
        "{}",
        friend_said.stderr
    );
    let answered = neighbour_said
        .stderr
        .lines()
        .find(|l| l.contains("the next host of"))
        .unwrap_or_default()
        .to_owned();
    assert!(
        answered.contains(path) && answered.contains(address),
        "the neighbour reached the friend's host on a {path} at {address}: {answered}"
    );
    let paused = neighbour_said.stderr.lines().find(|l| l.contains("the match goes on under"));
    format!("{answered}, {found:?} after the kill; {}", paused.unwrap_or_default())
}
