//! The network lab (`fixstep_tests::netlab`) on its own: that its NATs map and filter as
//! their kinds say, that miniupnpd on router A forwards what a client on its LAN asks for,
//! that coturn answers STUN and relays, and that a lab leaves nothing behind. The NAT
//! traversal tests rely on it: a lab whose NAT let in what a home router would not would make
//! them pass for the wrong reason.
//!
//! The datagrams are sent and received by a small Python program run inside the namespaces
//! (this process cannot enter one), which prints what it receives; every payload crosses its
//! command line and its output in hex.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddrV4};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use fixstep_tests::netlab::{
    Home, Lab, LabOptions, NAT_PMP_PORT, NatKind, Node, SERVER, SERVER_OTHER, STRANGER,
    lab_or_skip, output_within,
};

/// The UDP helper: binds `BIND:PORT`, prints `ready`, sends each `HOST:PORT:HEX` given, then
/// prints `from HOST PORT HEX` for each datagram received, until one whose payload is `UNTIL`
/// (hex; `*` any, `-` none) or `SECONDS` have passed.
const UDP_HELPER: &str = r#"
import socket, sys, time
bind, port, seconds, until = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((bind, port))
print("ready", flush=True)
for send in sys.argv[5:]:
    host, to, payload = send.split(":")
    s.sendto(bytes.fromhex(payload), (host, int(to)))
end = time.monotonic() + seconds
while time.monotonic() < end:
    s.settimeout(max(end - time.monotonic(), 0.001))
    try:
        data, (host, sport) = s.recvfrom(65535)
    except socket.timeout:
        break
    print("from", host, sport, data.hex(), flush=True)
    if until == "*" or data.hex() == until:
        break
"#;

/// How long a receiving helper waits for what it expects: far more than a datagram across
/// the lab takes (well under a millisecond), so only a datagram that never comes reaches it.
const RECEIVE_S: f64 = 5.0;

/// How long a helper may take to start and bind, seconds: Python starts in tens of ms.
const START_LIMIT: Duration = Duration::from_secs(10);

/// How long after its own time a helper may take to end: the interpreter's exit.
const END_MARGIN: Duration = Duration::from_secs(5);

/// How long to let datagrams that must not arrive have their chance before the one that
/// must, which ends the receiver: far longer than a datagram crossing the lab, so that one
/// late by a queue on another core still comes first.
const STRAGGLER_MARGIN: Duration = Duration::from_millis(200);

/// How long `upnpc` may take: its SSDP discovery waits 2 s for answers.
const UPNPC_LIMIT: Duration = Duration::from_secs(20);

/// How long the TURN client may take: its run of 10 messages takes about 4 s.
const TURN_CLIENT_LIMIT: Duration = Duration::from_secs(30);

/// The messages the TURN client sends its peer through the relay, each echoed back.
const TURN_MESSAGES: u64 = 10;

/// The port the TURN test's peer echoes on: turnutils' default.
const TURN_PEER_PORT: u16 = 3480;

/// The programs these tests run inside the lab besides the lab's own.
const HELPERS: [&str; 4] = ["python3", "upnpc", "turnutils_uclient", "turnutils_peer"];

/// Any address of a namespace's, to bind a LAN helper to.
const ANY: Ipv4Addr = Ipv4Addr::UNSPECIFIED;

/// A datagram a helper received.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Datagram {
    from: SocketAddrV4,
    payload: Vec<u8>,
}

/// When a helper stops receiving.
#[derive(Clone, Copy)]
enum Until<'a> {
    /// On this payload.
    Payload(&'a [u8]),
    /// On any datagram.
    Any,
    /// Not before its time is up (or at once, with no time).
    Never,
}

/// A running UDP helper.
struct Udp {
    child: Child,
    lines: Receiver<String>,
    seconds: f64,
}

impl Udp {
    /// Starts a helper in `node` bound to `bind:port` that sends `sends`, then receives for up
    /// to `seconds` or `until`; returns once it is bound.
    fn start(
        lab: &Lab,
        node: Node,
        (bind, port): (Ipv4Addr, u16),
        seconds: f64,
        until: Until<'_>,
        sends: &[(SocketAddrV4, &[u8])],
    ) -> Self {
        let until = match until {
            Until::Payload(payload) => hex(payload),
            Until::Any => "*".to_owned(),
            Until::Never => "-".to_owned(),
        };
        let mut args = vec![
            "-c".to_owned(),
            UDP_HELPER.to_owned(),
            bind.to_string(),
            port.to_string(),
            seconds.to_string(),
            until,
        ];
        args.extend(
            sends.iter().map(|(to, payload)| format!("{}:{}:{}", to.ip(), to.port(), hex(payload))),
        );
        let mut child = lab
            .exec(node, "python3", &args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 starts in the lab");
        let stdout = child.stdout.take().expect("the helper's output is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let ready = lines.recv_timeout(START_LIMIT);
        assert_eq!(ready.as_deref(), Ok("ready"), "the helper in {node:?} binds {bind}:{port}");
        Self { child, lines, seconds }
    }

    /// A helper in the internet bound to `from` that only sends `payload` to `to`, and has
    /// ended when this returns.
    fn send(lab: &Lab, from: SocketAddrV4, to: SocketAddrV4, payload: &[u8]) {
        let sender = Self::start(
            lab,
            Node::Internet,
            (*from.ip(), from.port()),
            0.0,
            Until::Never,
            &[(to, payload)],
        );
        assert!(sender.finish().is_empty(), "a sender receives nothing");
    }

    /// Waits for the helper's end and returns what it received.
    fn finish(mut self) -> Vec<Datagram> {
        let limit = Duration::from_secs_f64(self.seconds) + END_MARGIN;
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the helper can be waited for") {
                break status;
            }
            assert!(started.elapsed() < limit, "the helper still runs after {limit:?}");
            thread::sleep(Duration::from_millis(10));
        };
        assert!(status.success(), "the helper failed: {status}");
        self.lines.try_iter().filter_map(|line| parse_from(&line)).collect()
    }
}

impl Drop for Udp {
    fn drop(&mut self) {
        // A test that failed before its helper ended leaves nothing running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A helper's `from HOST PORT HEX` line as a datagram.
fn parse_from(line: &str) -> Option<Datagram> {
    let mut words = line.strip_prefix("from ")?.split_whitespace();
    let host: Ipv4Addr = words.next()?.parse().ok()?;
    let port: u16 = words.next()?.parse().ok()?;
    let payload = unhex(words.next().unwrap_or(""))?;
    Some(Datagram { from: SocketAddrV4::new(host, port), payload })
}

/// `bytes` in lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of lowercase or uppercase hex; `None` if it is not.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// The one datagram a receiver got; fails naming what it got otherwise.
fn only(received: &[Datagram], what: &str) -> Datagram {
    assert_eq!(received.len(), 1, "{what}: one datagram expected, got {received:?}");
    received[0].clone()
}

/// Runs `command` within `limit`; its standard output, asserting it succeeded.
fn succeed(mut command: Command, limit: Duration, what: &str) -> String {
    let out = output_within(&mut command, limit).unwrap_or_else(|e| panic!("{what}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what} failed ({}):\n{stdout}\n{stderr}", out.status);
    stdout
}

/// An endpoint-independent NAT gives a LAN socket one public address and port whatever it
/// sends to, its own port here; datagrams to that port come in only from where the socket
/// sent to, not from another address nor from another port of an address it sent to.
#[test]
fn endpoint_independent_nat_maps_once_and_lets_only_replies_in() {
    let Some(lab) = lab_or_skip(LabOptions::default(), &HELPERS) else {
        return;
    };
    let first = SocketAddrV4::new(SERVER, 4001);
    let second = SocketAddrV4::new(STRANGER, 4002);
    let one = Udp::start(&lab, Node::Internet, (SERVER, 4001), RECEIVE_S, Until::Any, &[]);
    let two = Udp::start(&lab, Node::Internet, (STRANGER, 4002), RECEIVE_S, Until::Any, &[]);
    let lan_port = 5001;
    let lan = Udp::start(
        &lab,
        Node::Lan(Home::A),
        (ANY, lan_port),
        RECEIVE_S,
        Until::Payload(b"last"),
        &[(first, b"hello"), (second, b"hello")],
    );
    let at_first = only(&one.finish(), "the first destination");
    let at_second = only(&two.finish(), "the second destination");
    let public = SocketAddrV4::new(Home::A.wan(), lan_port);
    assert_eq!(at_first.from, public, "the first destination sees router A's WAN, same port");
    assert_eq!(at_second.from, public, "the second destination sees the same mapping");

    // Strangers: another address, and another port of an address the socket sent to.
    Udp::send(&lab, SocketAddrV4::new(SERVER_OTHER, 4001), public, b"other address");
    Udp::send(&lab, SocketAddrV4::new(STRANGER, 4003), public, b"other port");
    thread::sleep(STRAGGLER_MARGIN);
    // The first destination, late: its reply still comes in, and ends the receiver.
    Udp::send(&lab, first, public, b"last");
    let got = only(&lan.finish(), "the LAN socket");
    assert_eq!(got, Datagram { from: first, payload: b"last".to_vec() });
}

/// A symmetric NAT gives each destination of one LAN socket a public port of its own.
#[test]
fn symmetric_nat_maps_each_destination_apart() {
    let options = LabOptions { nat_b: NatKind::Symmetric, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &HELPERS) else {
        return;
    };
    let one = Udp::start(&lab, Node::Internet, (SERVER, 4001), RECEIVE_S, Until::Any, &[]);
    let two = Udp::start(&lab, Node::Internet, (STRANGER, 4002), RECEIVE_S, Until::Any, &[]);
    let sends: [(SocketAddrV4, &[u8]); 2] = [
        (SocketAddrV4::new(SERVER, 4001), b"hello"),
        (SocketAddrV4::new(STRANGER, 4002), b"hello"),
    ];
    let lan = Udp::start(&lab, Node::Lan(Home::B), (ANY, 5002), 0.0, Until::Never, &sends);
    let at_first = only(&one.finish(), "the first destination").from;
    let at_second = only(&two.finish(), "the second destination").from;
    assert!(lan.finish().is_empty());
    assert_eq!(*at_first.ip(), Home::B.wan(), "router B's WAN address");
    assert_eq!(*at_second.ip(), Home::B.wan(), "router B's WAN address");
    // Equal only by a 1 in 64,512 chance of the random ports.
    assert_ne!(at_first.port(), at_second.port(), "a public port per destination");
}

/// miniupnpd on router A maps what `upnpc` on home A's LAN asks for (found by SSDP), and a
/// datagram from anywhere on the internet reaches the LAN socket through it; before the
/// mapping, none did.
#[test]
fn upnp_mapping_lets_the_internet_in() {
    let options = LabOptions { upnp_a: true, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &HELPERS) else {
        return;
    };
    let port = 6001;
    let public = SocketAddrV4::new(Home::A.wan(), port);
    let lan = Udp::start(
        &lab,
        Node::Lan(Home::A),
        (ANY, port),
        RECEIVE_S + UPNPC_LIMIT.as_secs_f64(),
        Until::Payload(b"mapped"),
        &[],
    );
    // From a port of its own: the conntrack entry this one leaves would take the mapped
    // datagram past the new DNAT rule, were it from the same address and port.
    Udp::send(&lab, SocketAddrV4::new(STRANGER, 7001), public, b"unmapped");

    let host = Home::A.host().to_string();
    let port_text = port.to_string();
    // `-i`: miniupnpc 2.2.4 takes an IGD with a reserved external address as not connected.
    let args = ["-i", "-a", &host, &port_text, &port_text, "UDP"];
    let said = succeed(lab.exec(Node::Lan(Home::A), "upnpc", args), UPNPC_LIMIT, "upnpc -a");
    let expected = format!("external {public} UDP is redirected to internal {host}:{port}");
    assert!(said.contains(&expected), "upnpc maps {public}:\n{said}\n{}", lab.logs());

    thread::sleep(STRAGGLER_MARGIN);
    Udp::send(&lab, SocketAddrV4::new(STRANGER, 7002), public, b"mapped");
    let got = only(&lan.finish(), "the LAN socket behind the mapping");
    assert_eq!(got.from, SocketAddrV4::new(STRANGER, 7002), "{}", lab.logs());
    assert_eq!(got.payload, b"mapped");
}

/// miniupnpd on router A maps a port for a NAT-PMP request from home A's LAN (RFC 6886,
/// written by hand), reports router A's public address's port for it, and a datagram from the
/// internet reaches the LAN socket through it.
#[test]
fn nat_pmp_mapping_lets_the_internet_in() {
    let options = LabOptions { upnp_a: true, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &HELPERS) else {
        return;
    };
    let port: u16 = 6002;
    let mut request = vec![NAT_PMP_VERSION, NAT_PMP_MAP_UDP, 0, 0];
    request.extend_from_slice(&port.to_be_bytes());
    request.extend_from_slice(&port.to_be_bytes());
    request.extend_from_slice(&NAT_PMP_LIFETIME_S.to_be_bytes());
    let gateway = SocketAddrV4::new(Home::A.router_lan(), NAT_PMP_PORT);
    let asking = Udp::start(
        &lab,
        Node::Lan(Home::A),
        (ANY, port),
        RECEIVE_S,
        Until::Any,
        &[(gateway, &request)],
    );
    let answer = only(&asking.finish(), "the NAT-PMP answer");
    assert_eq!(answer.from, gateway);
    let reply = &answer.payload;
    assert_eq!(reply.len(), 16, "a mapping response: {reply:02x?}");
    assert_eq!(
        reply[..4],
        [NAT_PMP_VERSION, NAT_PMP_MAP_UDP | 0x80, 0, 0],
        "success: {reply:02x?}"
    );
    assert_eq!(reply[8..10], port.to_be_bytes(), "the internal port");
    let public_port = u16::from_be_bytes([reply[10], reply[11]]);
    let public = SocketAddrV4::new(Home::A.wan(), public_port);

    let lan = Udp::start(
        &lab,
        Node::Lan(Home::A),
        (ANY, port),
        RECEIVE_S,
        Until::Payload(b"mapped"),
        &[],
    );
    let stranger = SocketAddrV4::new(STRANGER, 7003);
    Udp::send(&lab, stranger, public, b"mapped");
    let got = only(&lan.finish(), "the LAN socket behind the mapping");
    assert_eq!(got, Datagram { from: stranger, payload: b"mapped".to_vec() }, "{}", lab.logs());
}

/// NAT-PMP's version number, 0 in every message.
const NAT_PMP_VERSION: u8 = 0;

/// NAT-PMP's opcode for a UDP mapping; its response's is this plus 128.
const NAT_PMP_MAP_UDP: u8 = 1;

/// The lifetime a NAT-PMP request asks for, s: RFC 6886's recommended two hours, far beyond
/// the test.
const NAT_PMP_LIFETIME_S: u32 = 7200;

/// `forget_mappings` empties a router's conntrack table, which a datagram out had filled.
#[test]
fn forgetting_mappings_empties_the_table() {
    let Some(lab) = lab_or_skip(LabOptions::default(), &HELPERS) else {
        return;
    };
    let one = Udp::start(&lab, Node::Internet, (SERVER, 4001), RECEIVE_S, Until::Any, &[]);
    let sends: [(SocketAddrV4, &[u8]); 1] = [(SocketAddrV4::new(SERVER, 4001), b"hello")];
    let lan = Udp::start(&lab, Node::Lan(Home::A), (ANY, 5004), 0.0, Until::Never, &sends);
    only(&one.finish(), "the destination");
    assert!(lan.finish().is_empty());
    let before = lab.mappings(Home::A).expect("conntrack lists router A's table");
    assert!(before >= 1, "the datagram out left a mapping");
    lab.forget_mappings(Home::A).expect("conntrack flushes router A's table");
    assert_eq!(lab.mappings(Home::A).expect("conntrack lists router A's table"), 0);
}

/// coturn answers a STUN binding request from home B's LAN with router B's public address:
/// the request written by hand (RFC 5389), the XOR-MAPPED-ADDRESS read back.
#[test]
fn coturn_answers_stun_with_the_public_address() {
    let options = LabOptions { turn: true, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &HELPERS) else {
        return;
    };
    let turn = lab.turn().expect("the lab runs coturn");
    let transaction: [u8; 12] = *b"fixstep-lab1";
    let mut request = Vec::new();
    request.extend_from_slice(&BINDING_REQUEST.to_be_bytes());
    request.extend_from_slice(&0u16.to_be_bytes());
    request.extend_from_slice(&MAGIC_COOKIE.to_be_bytes());
    request.extend_from_slice(&transaction);
    assert_eq!(request.len(), 20);
    let lan_port = 5005;
    let lan = Udp::start(
        &lab,
        Node::Lan(Home::B),
        (ANY, lan_port),
        RECEIVE_S,
        Until::Any,
        &[(turn.address, &request)],
    );
    let answer = only(&lan.finish(), "the STUN answer");
    assert_eq!(answer.from, turn.address);
    let mapped = xor_mapped_address(&answer.payload, &transaction);
    assert_eq!(mapped, Some(SocketAddrV4::new(Home::B.wan(), lan_port)), "{:02x?}", answer.payload);
}

/// STUN's binding request type.
const BINDING_REQUEST: u16 = 0x0001;

/// STUN's binding success response type.
const BINDING_SUCCESS: u16 = 0x0101;

/// STUN's magic cookie, which every RFC 5389 message carries and XOR-MAPPED-ADDRESS is
/// masked with.
const MAGIC_COOKIE: u32 = 0x2112_A442;

/// The XOR-MAPPED-ADDRESS attribute's type.
const XOR_MAPPED_ADDRESS: u16 = 0x0020;

/// The IPv4 address a binding success response for `transaction` reports; `None` if it is
/// not one or has none.
fn xor_mapped_address(message: &[u8], transaction: &[u8; 12]) -> Option<SocketAddrV4> {
    let u16_at = |at: usize| Some(u16::from_be_bytes(message.get(at..at + 2)?.try_into().ok()?));
    if u16_at(0)? != BINDING_SUCCESS
        || message.get(4..8)? != MAGIC_COOKIE.to_be_bytes()
        || message.get(8..20)? != transaction
    {
        return None;
    }
    let end = 20 + usize::from(u16_at(2)?);
    let mut at = 20;
    // Each attribute takes at least its 4-byte header: a bound on the walk.
    for _ in 0..message.len() / 4 {
        if at + 4 > end {
            return None;
        }
        let kind = u16_at(at)?;
        let length = usize::from(u16_at(at + 2)?);
        if kind == XOR_MAPPED_ADDRESS && length == 8 && message.get(at + 5) == Some(&0x01) {
            let port = u16_at(at + 6)? ^ ((MAGIC_COOKIE >> 16) as u16);
            let masked = u32::from_be_bytes(message.get(at + 8..at + 12)?.try_into().ok()?);
            return Some(SocketAddrV4::new(Ipv4Addr::from(masked ^ MAGIC_COOKIE), port));
        }
        // Attributes are padded to 4 bytes.
        at += 4 + length.div_ceil(4) * 4;
    }
    None
}

/// A TURN client on home B's LAN, with the lab's credentials, exchanges messages with a peer
/// on the internet through coturn's relay, and the relay counter counts them, both ways.
#[test]
fn coturn_relays_and_the_counter_counts() {
    let options = LabOptions { turn: true, ..LabOptions::default() };
    let Some(lab) = lab_or_skip(options, &HELPERS) else {
        return;
    };
    let turn = lab.turn().expect("the lab runs coturn");
    assert_eq!(lab.relay_counter().expect("the counter reads"), (0, 0), "nothing relayed yet");
    let peer_port = TURN_PEER_PORT.to_string();
    let peer = lab
        .exec(Node::Internet, "turnutils_peer", ["-L", &STRANGER.to_string(), "-p", &peer_port])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the TURN test's peer starts");
    let peer = KillOnDrop(peer);
    let messages = TURN_MESSAGES.to_string();
    let args = [
        "-u",
        turn.user,
        "-w",
        turn.password,
        "-e",
        &STRANGER.to_string(),
        "-r",
        &peer_port,
        "-n",
        &messages,
        "-m",
        "1",
        // No RTCP pair, one allocation only; an IPv4 relay.
        "-c",
        "-X",
        &turn.address.ip().to_string(),
    ]
    .map(str::to_owned);
    let said = succeed(
        lab.exec(Node::Lan(Home::B), "turnutils_uclient", args),
        TURN_CLIENT_LIMIT,
        "uclient",
    );
    drop(peer);
    let received = format!("tot_recv_msgs={TURN_MESSAGES}");
    assert!(said.contains(&received), "every message came back:\n{said}\n{}", lab.logs());
    let (packets, bytes) = lab.relay_counter().expect("the counter reads");
    assert!(packets >= 2 * TURN_MESSAGES, "{packets} datagrams counted, both ways expected");
    assert!(bytes > packets * 100, "{bytes} bytes counted: each message is 100 bytes");
}

/// A child killed when dropped.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A lab removes its namespaces and kills its daemons when dropped, and building one removes
/// a dead run's leftovers.
#[test]
fn labs_leave_nothing_behind() {
    let options = LabOptions { turn: true, ..LabOptions::default() };
    if Lab::available().is_err() {
        // Skipped, having said why, or failed where the lab is required.
        assert!(lab_or_skip(options, &[]).is_none());
        return;
    }
    // A leftover of a run that died: a namespace named after a process that has ended.
    let mut gone = Command::new("true").spawn().expect("`true` runs");
    let dead_pid = gone.id();
    gone.wait().expect("`true` ends");
    let leftover = format!("fxl{dead_pid}-0-net");
    let made = Command::new("ip").args(["netns", "add", &leftover]).status();
    assert!(made.is_ok_and(|s| s.success()), "the leftover namespace {leftover} is made");

    let lab = lab_or_skip(options, &[]).expect("the lab builds here");
    let names: Vec<String> = [Node::Internet, Node::Router(Home::A), Node::Lan(Home::B)]
        .map(|node| lab.namespace(node))
        .to_vec();
    let daemons = lab.daemon_pids();
    let listed = namespaces();
    assert!(!listed.contains(&leftover), "the leftover is removed: {listed:?}");
    assert!(names.iter().all(|name| listed.contains(name)), "{names:?} in {listed:?}");
    assert!(!daemons.is_empty(), "coturn runs");
    drop(lab);
    let listed = namespaces();
    assert!(names.iter().all(|name| !listed.contains(name)), "{names:?} left in {listed:?}");
    for pid in daemons {
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "daemon {pid} runs");
    }
}

/// The names of the machine's namespaces.
fn namespaces() -> Vec<String> {
    let out = Command::new("ip").args(["netns", "list"]).output().expect("ip lists namespaces");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect()
}
