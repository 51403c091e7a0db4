//! What network play puts on the wire, measured by a counting proxy (`fixstep netem`, which
//! counts every datagram that crosses it, with its IP and UDP headers) between real
//! processes: that the summaries of the peer and the host say what the proxy saw, and that a
//! player's link stays within the bandwidth a lockstep game should need.

use std::net::UdpSocket;
use std::time::Duration;

use fixstep_runtime::rng::SimRng;
use fixstep_tests::Scratch;
use fixstep_tests::edges::HOST_START_S;
use fixstep_tests::processes::{BAD_LINK, Hosting, Running, shared_machine, strs};

/// A `wire ...` or netem `up ...` line's counts.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Counts {
    sent_datagrams: u64,
    sent_bytes: u64,
    received_datagrams: u64,
    received_bytes: u64,
}

/// The numbers of a line, in order (`B/s` and the like are skipped).
fn numbers(line: &str) -> Vec<f64> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')' || c == '/')
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// A summary's `wire sent D datagrams B B, received D datagrams B B in S s` line: the counts
/// and the seconds.
fn wire_of(summary: &str) -> (Counts, f64) {
    let line = summary
        .lines()
        .find_map(|l| l.strip_prefix("wire "))
        .unwrap_or_else(|| panic!("no wire line in {summary:?}"));
    let n = numbers(line);
    assert!(n.len() >= 5, "a wire line has its counts and time: {line:?}");
    // Counts of datagrams and bytes: whole numbers.
    let counts = Counts {
        sent_datagrams: n[0] as u64,
        sent_bytes: n[1] as u64,
        received_datagrams: n[2] as u64,
        received_bytes: n[3] as u64,
    };
    (counts, n[4])
}

/// Netem's `up D datagrams B B, down D datagrams B B` line, as seen from the peers' side:
/// what they sent (up) and what came to them (down).
fn proxy_of(summary: &str) -> Counts {
    let line = summary
        .lines()
        .find_map(|l| l.strip_prefix("up "))
        .unwrap_or_else(|| panic!("no traffic line in {summary:?}"));
    let n = numbers(line);
    assert_eq!(n.len(), 4, "up and down, datagrams and bytes: {line:?}");
    Counts {
        sent_datagrams: n[0] as u64,
        sent_bytes: n[1] as u64,
        received_datagrams: n[2] as u64,
        received_bytes: n[3] as u64,
    }
}

/// A measured player through the proxy with `link`, `others` bot players straight to the
/// host: the measured player's summary, the proxy's and the host's.
fn measured_game(name: &str, link: &[&str], others: usize, ticks: u32) -> [String; 3] {
    let _machine = shared_machine();
    let dir = Scratch::new("wire", name);
    let (game, netem_port) = Hosting::through_netem();
    // The proxy runs until the host has ended, so that it counts everything either sent.
    let netem = game.netem(&dir, netem_port, link, 5);
    let mut host_args = game.host_args();
    host_args.extend(["--ticks", &(ticks + 120).to_string()].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    // A connection request the proxy forwards before the host has bound its port is counted
    // by the proxy and read by no one: a busy machine starts the host slower than the peer.
    host.wait_for("hosting", Duration::from_secs(HOST_START_S));
    let direct = Hosting::at(game.host_port, format!("127.0.0.1:{}", game.host_port));
    let bots: Vec<Running> = (0..others)
        .map(|i| {
            let name = format!("other{i}");
            let ticks = (ticks + 60).to_string();
            direct.bot_peer(&dir, &name, &["--name", &name, "--ticks", &ticks])
        })
        .collect();
    for i in 0..others {
        host.wait_for(&format!("other{i} joined as player"), Duration::from_secs(30));
    }
    let measured =
        game.bot_peer(&dir, "measured", &["--name", "measured", "--ticks", &ticks.to_string()]);
    let measured = measured.finish().stdout;
    for bot in bots {
        bot.finish();
    }
    let host = host.finish().stdout;
    netem.terminate();
    [measured, netem.finish().stdout, host]
}

/// The peer counts at its socket what the proxy counts in front of it, datagram for datagram
/// and byte for byte (headers included), and the host's socket saw the same. A summary that
/// counted only payloads (renet's own figures, which this replaced, were 6 times too low) or
/// missed a kind of datagram fails here.
#[test]
fn a_peers_and_the_hosts_wire_counts_are_what_a_counting_proxy_saw() {
    let [peer, proxy, host] = measured_game("counts", &[], 0, 150);
    let (peer, _) = wire_of(&peer);
    let (host, _) = wire_of(&host);
    let proxy = proxy_of(&proxy);
    assert_eq!(peer.sent_datagrams, proxy.sent_datagrams, "{peer:?} {proxy:?}");
    assert_eq!(peer.sent_bytes, proxy.sent_bytes, "{peer:?} {proxy:?}");
    // What was on its way to the peer when it left never reached it.
    let unread = proxy.received_datagrams - peer.received_datagrams;
    assert!(unread <= 3, "the peer read all but {unread} of what came: {peer:?} {proxy:?}");
    assert!(peer.received_bytes <= proxy.received_bytes);
    // The proxy forwards everything on this link: the host received what the peer sent, and
    // sent what the proxy had from it.
    assert_eq!(host.received_datagrams, proxy.sent_datagrams, "{host:?} {proxy:?}");
    assert_eq!(host.received_bytes, proxy.sent_bytes, "{host:?} {proxy:?}");
    assert_eq!(host.sent_datagrams, proxy.received_datagrams, "{host:?} {proxy:?}");
    assert_eq!(host.sent_bytes, proxy.received_bytes, "{host:?} {proxy:?}");
}

/// Rates from the proxy's counts over the peer's time: (datagrams up, bytes up, datagrams
/// down, bytes down) a second.
fn rates(peer: &str, proxy: &str) -> [f64; 4] {
    let (_, seconds) = wire_of(peer);
    let c = proxy_of(proxy);
    [c.sent_datagrams, c.sent_bytes, c.received_datagrams, c.received_bytes]
        .map(|n| n as f64 / seconds)
}

/// A player among four walking on a good link sends at most 1 KB a second and receives at
/// most 1.5 KB a second, in at most 30 datagrams a second each way, headers included: a frame
/// a tick each way, commands sent only as they change. (The transport this replaced sent 480
/// datagrams and 27 KB a second each way.)
#[test]
fn a_player_on_a_good_link_sends_a_kilobyte_a_second() {
    let [peer, proxy, _] = measured_game("good-link", &[], 3, 200);
    let [up_datagrams, up, down_datagrams, down] = rates(&peer, &proxy);
    let figures = format!(
        "up {up_datagrams:.1} datagrams/s {up:.0} B/s, down {down_datagrams:.1} datagrams/s \
         {down:.0} B/s"
    );
    println!("{figures}");
    assert!(up <= 1_000.0 && down <= 1_500.0, "{figures}");
    assert!(up_datagrams <= 30.0 && down_datagrams <= 30.0, "{figures}");
}

/// Over 80 ms each way with 20 ms of jitter and 5 % loss, a player sends at most 2 KB a second
/// and receives at most 3 KB: its frames carry what is not yet acknowledged (more of it on a
/// slow link), and it repeats its inputs once while the link loses them.
#[test]
fn a_player_on_a_bad_link_sends_two_kilobytes_a_second() {
    let [peer, proxy, _] = measured_game("bad-link", &BAD_LINK, 1, 200);
    let [up_datagrams, up, down_datagrams, down] = rates(&peer, &proxy);
    let figures = format!(
        "up {up_datagrams:.1} datagrams/s {up:.0} B/s, down {down_datagrams:.1} datagrams/s \
         {down:.0} B/s"
    );
    println!("{figures}");
    assert!(up <= 2_000.0 && down <= 3_000.0, "{figures}");
    assert!(up_datagrams <= 30.0 && down_datagrams <= 30.0, "{figures}");
}

/// A summary's `reads N = payload A + netcode B + ...` line: the total it says, and each
/// reason's count by name.
fn reads_of(summary: &str) -> (u64, Vec<(String, u64)>) {
    let line = summary
        .lines()
        .find_map(|l| l.strip_prefix("reads "))
        .unwrap_or_else(|| panic!("no reads line in {summary:?}"));
    let (total, terms) = line.split_once(" = ").unwrap_or_else(|| panic!("a sum: {line:?}"));
    let total = total.parse().unwrap_or_else(|_| panic!("a total: {line:?}"));
    let terms = terms
        .split(" + ")
        .map(|term| {
            let (name, count) = term.split_once(' ').unwrap_or_else(|| panic!("{term:?}"));
            (name.to_owned(), count.parse().unwrap_or_else(|_| panic!("a count: {term:?}")))
        })
        .collect();
    (total, terms)
}

/// LAN queries the stranger sends.
const LAN_QUERIES: u64 = 20;

/// Random datagrams the stranger sends.
const RANDOM_DATAGRAMS: u64 = 2_000;

/// Well-formed netcode payload packets the stranger sends, which no key it has opens.
const FORGED: u64 = 30;

/// A stranger sends a known mix of garbage through the counting proxy while a player plays
/// through it: every datagram the host read is counted under one reason, the reasons add up
/// to the datagrams read, and those are what the proxy delivered. (A host that counted only
/// what it dropped for being malformed or flooded summed to a fraction of a fuzzer's.)
#[test]
fn every_datagram_the_proxy_delivered_is_in_the_hosts_reads_under_one_reason() {
    let _machine = shared_machine();
    let dir = Scratch::new("wire", "reads");
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &[], 5);
    let mut host_args = game.host_args();
    host_args.extend(["--ticks", "200"].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("hosting", Duration::from_secs(HOST_START_S));
    let peer = game.bot_peer(&dir, "player", &["--name", "player", "--ticks", "120"]);
    host.wait_for("player joined as player", Duration::from_secs(30));
    let stranger = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
    let entry = format!("127.0.0.1:{netem_port}");
    let mut rng = SimRng::new(0x5EED, 0);
    for i in 0..RANDOM_DATAGRAMS {
        let len = rng.below(120) as usize + 1;
        let datagram: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        stranger.send_to(&datagram, &entry).expect("loopback sends");
        if i % 100 == 99 {
            // Well under what the proxy's and the host's socket buffers hold.
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    for _ in 0..LAN_QUERIES {
        stranger.send_to(&fixstep_net::lan::query(), &entry).expect("loopback sends");
    }
    for i in 0..FORGED {
        let mut datagram = vec![0x15, u8::try_from(i).expect("small")];
        datagram.extend([0xC3; 40]);
        stranger.send_to(&datagram, &entry).expect("loopback sends");
    }
    let peer = peer.finish();
    assert!(peer.stdout.contains("desync none"), "{}", peer.stdout);
    let host = host.finish().stdout;
    netem.terminate();
    let proxy = proxy_of(&netem.finish().stdout);
    let (total, reasons) = reads_of(&host);
    let (wire, _) = wire_of(&host);
    let count = |name: &str| reasons.iter().find(|(n, _)| n == name).map_or(0, |r| r.1);
    assert_eq!(reasons.iter().map(|r| r.1).sum::<u64>(), total, "the reasons add up: {host}");
    assert_eq!(total, wire.received_datagrams, "to the datagrams read: {host}");
    assert_eq!(total, proxy.sent_datagrams, "which the proxy delivered: {host}");
    assert_eq!(count("lan_query"), LAN_QUERIES, "{host}");
    assert!(count("payload") > 100, "the player's frames: {host}");
    assert!(count("not_netcode") > RANDOM_DATAGRAMS / 2, "most random bytes: {host}");
    assert!(count("unknown_address") >= FORGED, "the forgeries, and some random: {host}");
}
