//! The link conditioner, `fixstep netem`, on its own, end to end: a UDP sender and an echoing
//! receiver of the test's own on loopback on either side of it, each datagram carrying its
//! number and the time it was sent, so that what the link did to every one of them is seen
//! from outside, and its summary checked against it.
//!
//! The network tests rely on it for their bad links (`network.rs`, `soak.rs`): were it to
//! apply less delay, loss or disorder than asked, they would pass over a better link than
//! they claim.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use fixstep_net::wire::IPV4_UDP_HEADER_BYTES;
use fixstep_tests::Scratch;
use fixstep_tests::edges::Ending;
use fixstep_tests::processes::{NetemCounts, Running, free_port, shared_machine, whole_machine};

/// The bytes of every datagram the test sends: its number, the time it was sent, and padding.
const DATAGRAM_BYTES: usize = 100;

/// How late the test may see a datagram after the link was due to hand it on, ms: the
/// conditioner's half-millisecond looks at its sockets, and the waking of its thread and of
/// the test's on a machine busy with other builds. Small beside the delays it bounds.
const SCHEDULING_MARGIN_MS: f64 = 30.0;

/// How long a process may take to start, seconds: a debug build on a busy machine.
const START_S: u64 = 60;

/// A datagram seen arriving: its number, and when it was sent and arrived, ms on the test's
/// clock.
#[derive(Clone, Copy, Debug)]
struct Arrival {
    number: u32,
    sent_ms: f64,
    at_ms: f64,
}

impl Arrival {
    fn delay_ms(&self) -> f64 {
        self.at_ms - self.sent_ms
    }
}

/// What crossed the link: the datagrams that reached the receiver (up), and its echoes that
/// came back to the sender (down), in the order they arrived.
struct Carried {
    up: Vec<Arrival>,
    down: Vec<Arrival>,
}

/// A datagram numbered `number`, stamped `at_ms`.
fn datagram(number: u32, at_ms: f64) -> [u8; DATAGRAM_BYTES] {
    let mut bytes = [0xA5; DATAGRAM_BYTES];
    bytes[..4].copy_from_slice(&number.to_le_bytes());
    bytes[4..12].copy_from_slice(&at_ms.to_le_bytes());
    bytes
}

/// The number and stamp of a datagram of [`datagram`]'s.
fn read(bytes: &[u8]) -> (u32, f64) {
    assert_eq!(bytes.len(), DATAGRAM_BYTES, "a datagram arrives whole");
    let number = u32::from_le_bytes(bytes[..4].try_into().expect("four bytes"));
    (number, f64::from_le_bytes(bytes[4..12].try_into().expect("eight bytes")))
}

/// Milliseconds since `base`.
fn ms_since(base: Instant) -> f64 {
    base.elapsed().as_secs_f64() * 1e3
}

/// Receives on `socket` until `stop`, recording every arrival; echoes each back to where it
/// came from if `echo`, numbered in the order it echoes them and stamped anew (so the order
/// of the echoes' arrival shows what the way down did, not the way up).
fn receive(
    socket: UdpSocket,
    base: Instant,
    stop: Arc<AtomicBool>,
    echo: bool,
) -> thread::JoinHandle<Vec<Arrival>> {
    thread::spawn(move || {
        socket.set_read_timeout(Some(Duration::from_millis(20))).expect("a timeout");
        let mut arrivals = Vec::new();
        let mut buf = [0u8; 2 * DATAGRAM_BYTES];
        let mut echoed = 0;
        while !stop.load(Ordering::Relaxed) {
            let Ok((len, from)) = socket.recv_from(&mut buf) else { continue };
            let at_ms = ms_since(base);
            let (number, sent_ms) = read(&buf[..len]);
            arrivals.push(Arrival { number, sent_ms, at_ms });
            if echo {
                socket.send_to(&datagram(echoed, ms_since(base)), from).expect("the echo goes");
                echoed += 1;
            }
        }
        arrivals
    })
}

/// The link conditioner between a sender and a receiver of the test's.
struct Link {
    netem: Running,
    /// The sender's socket, talking to the conditioner.
    client: UdpSocket,
    /// The receiver's socket, where the conditioner forwards to.
    server: UdpSocket,
}

impl Link {
    /// `fixstep netem` with `args` between a new sender and receiver.
    fn start(dir: &Scratch, args: &[&str]) -> Self {
        let server = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
        let forward = server.local_addr().expect("an address").to_string();
        let listen: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().expect("an address");
        let listen_text = listen.to_string();
        let mut all = vec!["netem", "--listen", &listen_text, "--forward", &forward];
        all.extend_from_slice(args);
        let netem = Running::start(dir, "netem", &all);
        netem.wait_for("netem on", Duration::from_secs(START_S));
        let client = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
        client.connect(listen).expect("the conditioner's address");
        Self { netem, client, server }
    }

    /// Sends `count` datagrams `gap` apart, which the receiver echoes if `echo`, and waits
    /// `settle` for the last to come back.
    fn carry(&self, count: u32, gap: Duration, echo: bool, settle: Duration) -> Carried {
        let base = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let server = self.server.try_clone().expect("a clone");
        let client = self.client.try_clone().expect("a clone");
        let up = receive(server, base, Arc::clone(&stop), echo);
        let down = receive(client, base, Arc::clone(&stop), false);
        for number in 0..count {
            self.client.send(&datagram(number, ms_since(base))).expect("the datagram goes");
            thread::sleep(gap);
        }
        thread::sleep(settle);
        stop.store(true, Ordering::Relaxed);
        let up = up.join().expect("the receiver ends");
        let down = down.join().expect("the sender's receiver ends");
        Carried { up, down }
    }

    /// Stops the conditioner as Ctrl-C would, and returns its summary.
    fn stop(self) -> Summary {
        self.netem.terminate();
        Summary::read(&self.netem.finish().stdout)
    }
}

/// A conditioner's summary: its counts, and the traffic each way.
#[derive(Debug)]
struct Summary {
    counts: NetemCounts,
    /// Datagrams and bytes (with their IP and UDP headers) from the clients, bound up.
    up: (u64, u64),
    /// The same from the forwarded address, bound down to the clients.
    down: (u64, u64),
}

impl Summary {
    /// Reads `forwarded N lost N duplicated N reordered N` and `up N datagrams N B, down N
    /// datagrams N B`.
    fn read(text: &str) -> Self {
        let traffic = |way: &str| -> (u64, u64) {
            let words: Vec<&str> = text
                .lines()
                .flat_map(|l| l.split(", "))
                .find_map(|part| part.strip_prefix(way))
                .unwrap_or_else(|| panic!("no {way:?} traffic in the summary: {text}"))
                .split_whitespace()
                .collect();
            let number = |i: usize| -> u64 {
                words.get(i).and_then(|w| w.parse().ok()).unwrap_or_else(|| {
                    panic!("no number at word {i} of the {way:?} traffic: {text}")
                })
            };
            (number(0), number(2))
        };
        Self { counts: NetemCounts::read(text), up: traffic("up "), down: traffic("down ") }
    }
}

/// The bytes of `datagrams` of the test's on the wire, as the summary counts them.
fn wire_bytes(datagrams: u64) -> u64 {
    datagrams * (DATAGRAM_BYTES as u64 + IPV4_UDP_HEADER_BYTES)
}

/// How many of `arrivals` came after one sent later than them: overtaken on the way.
fn overtaken(arrivals: &[Arrival]) -> usize {
    let mut highest = None;
    arrivals
        .iter()
        .filter(|a| {
            let late = highest.is_some_and(|h| a.number < h);
            highest = highest.max(Some(a.number));
            late
        })
        .count()
}

/// Asserts that `count` of `given` is `percent` % of them, within five standard deviations
/// of the chance (the conditioner draws from a seeded stream, so only one that ignores its
/// option or applies another share fails).
fn assert_share(what: &str, count: u64, given: u64, percent: u32) {
    let p = f64::from(percent) / 100.0;
    let share = count as f64 / given as f64;
    let spread = 5.0 * (p * (1.0 - p) / given as f64).sqrt();
    assert!(
        (share - p).abs() <= spread,
        "{what}: {count} of {given}, {:.2} %, not {percent} %",
        share * 100.0
    );
}

/// The p-th percentile of `values` (sorted in place), 0 to 100.
fn percentile(values: &mut [f64], p: usize) -> f64 {
    values.sort_by(f64::total_cmp);
    values[(values.len() - 1) * p / 100]
}

/// `--delay 60 --jitter 40`: every datagram, each way, arrives between 60 and 100 ms after it
/// was sent (plus a scheduling margin), none sooner; the delays spread over most of the 40 ms
/// of jitter, not one fixed delay. Nothing is lost, duplicated or held back, and the summary
/// counts every datagram and byte the test sent and echoed.
#[test]
fn delay_and_jitter_put_every_datagram_within_their_window() {
    const DELAY_MS: f64 = 60.0;
    const JITTER_MS: f64 = 40.0;
    const COUNT: u32 = 400;
    let _machine = whole_machine();
    let dir = Scratch::new("netem", "delay");
    let link = Link::start(&dir, &["--delay", "60", "--jitter", "40", "--seed", "5"]);
    let carried = link.carry(COUNT, Duration::from_millis(2), true, Duration::from_secs(1));
    let summary = link.stop();
    for (way, arrivals) in [("up", &carried.up), ("down", &carried.down)] {
        assert_eq!(arrivals.len(), COUNT as usize, "every datagram arrives {way}");
        let mut delays: Vec<f64> = arrivals.iter().map(Arrival::delay_ms).collect();
        let (least, most) = (percentile(&mut delays, 0), percentile(&mut delays, 100));
        let (p5, p95) = (percentile(&mut delays, 5), percentile(&mut delays, 95));
        println!("{way}: delays {least:.1} to {most:.1} ms, p5 {p5:.1}, p95 {p95:.1}");
        assert!(least >= DELAY_MS, "a datagram came {way} after {least:.1} ms, under the delay");
        assert!(
            most <= DELAY_MS + JITTER_MS + SCHEDULING_MARGIN_MS,
            "a datagram came {way} after {most:.1} ms, past the delay and the jitter"
        );
        // An even draw from 0 to 40 ms puts nine tenths of the delays 36 ms apart.
        assert!(
            p95 - p5 >= 0.6 * JITTER_MS,
            "the delays {way} spread {:.1} ms from p5 to p95, not most of the jitter",
            p95 - p5
        );
    }
    let sent = u64::from(COUNT);
    assert_eq!(
        summary.counts,
        NetemCounts { forwarded: 2 * sent, lost: 0, duplicated: 0, reordered: 0 },
        "{summary:?}"
    );
    assert_eq!(summary.up, (sent, wire_bytes(sent)), "what the sender sent: {summary:?}");
    assert_eq!(summary.down, (sent, wire_bytes(sent)), "what the receiver echoed: {summary:?}");
}

/// `--reorder 10` over a 20 ms delay: a tenth of the datagrams, each way, is held back a
/// further delay, so the datagrams sent in the meantime overtake it; the summary's
/// `reordered` is a tenth of what the link carried, and about as many arrive after a later
/// one. Nothing is lost or repeated.
#[test]
fn reorder_holds_back_its_share_and_later_datagrams_overtake_them() {
    const COUNT: u32 = 1_000;
    let _machine = whole_machine();
    let dir = Scratch::new("netem", "reorder");
    let link = Link::start(&dir, &["--delay", "20", "--reorder", "10", "--seed", "6"]);
    let carried = link.carry(COUNT, Duration::from_millis(1), true, Duration::from_secs(1));
    let summary = link.stop();
    let sent = u64::from(COUNT);
    assert_eq!(carried.up.len(), COUNT as usize, "every datagram arrives: {summary:?}");
    assert_eq!(carried.down.len(), COUNT as usize, "every echo arrives: {summary:?}");
    let reordered = summary.counts.reordered;
    assert_share("held back to be overtaken", reordered, 2 * sent, 10);
    let late = (overtaken(&carried.up) + overtaken(&carried.down)) as u64;
    println!("{reordered} held back, {late} overtaken");
    // Each held-back datagram is overtaken by the twenty sent in its extra 20 ms, but for
    // one near the end, or one held while the test's sending thread was kept waiting.
    assert!(
        (reordered / 2..=reordered).contains(&late),
        "{late} datagrams arrived after a later one, of {reordered} held back: {summary:?}"
    );
    assert_eq!(summary.counts.forwarded, 2 * sent, "{summary:?}");
    assert_eq!((summary.counts.lost, summary.counts.duplicated), (0, 0), "{summary:?}");
}

/// `--loss 10`: a tenth of the datagrams, each way, never arrives, and the summary's `lost`
/// says how many; what arrives, arrives once and in order. The `up` and `down` traffic are
/// exactly what the sender sent and what the receiver echoed of what reached it.
#[test]
fn loss_drops_its_share_and_the_summary_counts_what_crossed() {
    const COUNT: u32 = 1_000;
    let _machine = shared_machine();
    let dir = Scratch::new("netem", "loss");
    let link = Link::start(&dir, &["--loss", "10", "--seed", "7"]);
    let carried = link.carry(COUNT, Duration::from_millis(1), true, Duration::from_secs(1));
    let summary = link.stop();
    let (sent, up, down) = (u64::from(COUNT), carried.up.len() as u64, carried.down.len() as u64);
    println!("{sent} sent, {up} arrived, {down} echoes came back: {summary:?}");
    let counts = summary.counts;
    assert_share("lost", counts.lost, sent + up, 10);
    assert_eq!(counts.lost, sent - down, "lost on the way up, or the echo's way down");
    assert_eq!(counts.forwarded, up + down, "{summary:?}");
    assert_eq!((counts.duplicated, counts.reordered), (0, 0), "{summary:?}");
    assert_eq!(summary.up, (sent, wire_bytes(sent)), "what the sender sent: {summary:?}");
    assert_eq!(summary.down, (up, wire_bytes(up)), "what the receiver echoed: {summary:?}");
    for (way, arrivals) in [("up", &carried.up), ("down", &carried.down)] {
        assert_eq!(overtaken(arrivals), 0, "without --reorder, datagrams keep their order {way}");
        let numbers: std::collections::BTreeSet<u32> = arrivals.iter().map(|a| a.number).collect();
        assert_eq!(numbers.len(), arrivals.len(), "without --duplicate, each arrives once {way}");
    }
}

/// `--duplicate 10`: a tenth of the datagrams, each way, arrives twice, the rest once, and
/// the summary's `duplicated` says how many; its `forwarded` counts both copies.
#[test]
fn duplicate_sends_its_share_twice() {
    const COUNT: u32 = 1_000;
    let _machine = shared_machine();
    let dir = Scratch::new("netem", "duplicate");
    let link = Link::start(&dir, &["--duplicate", "10", "--seed", "8"]);
    let carried = link.carry(COUNT, Duration::from_millis(1), true, Duration::from_secs(1));
    let summary = link.stop();
    let (sent, up, down) = (u64::from(COUNT), carried.up.len() as u64, carried.down.len() as u64);
    println!("{sent} sent, {up} arrived, {down} echoes came back: {summary:?}");
    let counts = summary.counts;
    // The receiver echoes every copy: the way down is given what arrived up.
    assert_share("duplicated", counts.duplicated, sent + up, 10);
    assert_eq!(counts.duplicated, down - sent, "copies up, and copies of the echoes down");
    assert_eq!(counts.forwarded, up + down, "{summary:?}");
    assert_eq!((counts.lost, counts.reordered), (0, 0), "{summary:?}");
    assert_eq!(summary.up, (sent, wire_bytes(sent)), "{summary:?}");
    assert_eq!(summary.down, (up, wire_bytes(up)), "{summary:?}");
    let mut copies = std::collections::BTreeMap::<u32, u32>::new();
    for arrival in &carried.up {
        *copies.entry(arrival.number).or_default() += 1;
    }
    assert_eq!(copies.len(), COUNT as usize, "every datagram arrives");
    assert!(copies.values().all(|&n| n <= 2), "none more than twice");
    let twice = copies.values().filter(|&&n| n == 2).count() as u64;
    assert_eq!(twice, up - sent, "the copies up are whole datagrams sent twice");
}

/// `--seconds 2`: the conditioner ends by itself once its two seconds are up (not sooner,
/// and not long after), with status 0 and its summary of what it carried meanwhile.
#[test]
fn seconds_ends_it_by_itself_with_its_summary() {
    const SECONDS: u64 = 2;
    /// How long after its time it may take to end, seconds: a look at the clock, the
    /// summary, and a busy machine's scheduling.
    const END_MARGIN_S: u64 = 10;
    /// The datagrams sent once it forwards.
    const COUNT: u32 = 50;
    let _machine = whole_machine();
    let dir = Scratch::new("netem", "seconds");
    let server = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
    let forward = server.local_addr().expect("an address").to_string();
    let listen = format!("127.0.0.1:{}", free_port());
    let seconds = SECONDS.to_string();
    let netem = Ending::start(
        &dir,
        "netem",
        &["netem", "--listen", &listen, "--forward", &forward, "--seconds", &seconds],
    );
    let client = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
    server.set_nonblocking(true).expect("non-blocking");
    let mut buf = [0u8; 2 * DATAGRAM_BYTES];
    let mut received = 0;
    let send = |number: u32| {
        client.send_to(&datagram(number, 0.0), &listen).expect("the datagram goes");
    };
    // Those sent before it listens are not its: sent until one comes through, then COUNT.
    let start = Instant::now();
    let mut number = 0;
    while received == 0 {
        send(number);
        number += 1;
        thread::sleep(Duration::from_millis(10));
        received += std::iter::from_fn(|| server.recv_from(&mut buf).ok()).count();
        assert!(start.elapsed() < Duration::from_secs(START_S), "it forwards nothing");
    }
    for more in 0..COUNT {
        send(number + more);
    }
    let ended = netem.end(Duration::from_secs(START_S + SECONDS + END_MARGIN_S));
    thread::sleep(Duration::from_millis(100));
    received += std::iter::from_fn(|| server.recv_from(&mut buf).ok()).count();
    println!("ended after {:?}: {}", ended.took, ended.stdout);
    assert!(ended.status.success(), "it ends well: {ended:?}");
    assert!(ended.took >= Duration::from_secs(SECONDS), "it ended after {:?}", ended.took);
    assert!(
        ended.took <= Duration::from_secs(SECONDS + END_MARGIN_S),
        "it ended {:?} after its start, not {SECONDS} s",
        ended.took
    );
    let summary = Summary::read(&ended.stdout);
    let received = received as u64;
    assert!(received > u64::from(COUNT), "the {COUNT} sent after the first came through");
    assert_eq!(summary.counts.forwarded, received, "it forwarded what arrived: {summary:?}");
    assert_eq!(summary.up, (received, wire_bytes(received)), "{summary:?}");
    assert_eq!(summary.down, (0, 0), "nothing came back: {summary:?}");
}
