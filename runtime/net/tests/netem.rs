//! The link conditioner does to datagrams what it is asked to, both ways, and forgets the
//! clients that went away however busy the others keep it.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use fixstep_net::{CLIENT_IDLE_SECONDS, Netem, NetemConfig};

/// A link that does nothing to what it carries.
const CLEAN: NetemConfig = NetemConfig {
    delay_ms: 0,
    jitter_ms: 0,
    loss_percent: 0,
    duplicate_percent: 0,
    reorder_percent: 0,
    seed: 7,
};

/// How long a test waits for datagrams that should arrive, at most.
const WAIT: Duration = Duration::from_secs(5);

fn socket() -> UdpSocket {
    let socket = UdpSocket::bind("127.0.0.1:0").expect("binds");
    socket.set_nonblocking(true).expect("non-blocking");
    socket
}

fn addr(socket: &UdpSocket) -> SocketAddr {
    socket.local_addr().expect("has an address")
}

/// An echo server, a conditioner in front of it, and a client.
struct Link {
    server: UdpSocket,
    netem: Netem,
    client: UdpSocket,
}

impl Link {
    fn new(config: NetemConfig) -> Self {
        let server = socket();
        let netem = Netem::bind(([127, 0, 0, 1], 0).into(), addr(&server), config).expect("binds");
        Self { server, netem, client: socket() }
    }

    fn proxy(&self) -> SocketAddr {
        self.netem.local_addr().expect("has an address")
    }

    /// Polls the conditioner and echoes what reaches the server, until `until` or `wait`
    /// passes; returns every datagram the client got back with when it did.
    fn run(
        &mut self,
        wait: Duration,
        mut until: impl FnMut(&[(Vec<u8>, Instant)]) -> bool,
    ) -> Vec<(Vec<u8>, Instant)> {
        let start = Instant::now();
        let mut got = Vec::new();
        let mut buffer = [0u8; 2048];
        while start.elapsed() < wait && !until(&got) {
            self.netem.poll(Instant::now()).expect("polls");
            while let Ok((len, from)) = self.server.recv_from(&mut buffer) {
                self.server.send_to(&buffer[..len], from).expect("echoes");
            }
            while let Ok(len) = self.client.recv(&mut buffer) {
                got.push((buffer[..len].to_vec(), Instant::now()));
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        got
    }
}

#[test]
fn a_datagram_is_delayed_each_way_and_comes_back_whole() {
    let mut link = Link::new(NetemConfig { delay_ms: 40, ..CLEAN });
    let sent = Instant::now();
    link.client.send_to(b"hello", link.proxy()).expect("sends");
    let got = link.run(WAIT, |got| !got.is_empty());
    let (bytes, at) = got.first().expect("the echo comes back");
    assert_eq!(bytes, b"hello");
    let round_trip = at.duration_since(sent);
    assert!(round_trip >= Duration::from_millis(80), "back after {round_trip:?}, not 2 x 40 ms");
    assert_eq!(link.netem.counts().forwarded, 2, "once up, once down");
}

#[test]
fn a_lossy_link_loses_and_a_duplicating_one_doubles() {
    let mut lossy = Link::new(NetemConfig { loss_percent: 100, ..CLEAN });
    for i in 0..20u8 {
        lossy.client.send_to(&[i], lossy.proxy()).expect("sends");
    }
    let got = lossy.run(Duration::from_millis(300), |_| false);
    assert!(got.is_empty(), "{} datagrams crossed a link that loses all", got.len());
    assert_eq!(lossy.netem.counts().lost, 20);

    let mut doubling = Link::new(NetemConfig { duplicate_percent: 100, ..CLEAN });
    doubling.client.send_to(b"twice", doubling.proxy()).expect("sends");
    // Doubled on the way up, and each copy doubled on the way down.
    let got = doubling.run(WAIT, |got| got.len() >= 4);
    assert_eq!(got.len(), 4, "copies back: {got:?}");
    assert!(got.iter().all(|(bytes, _)| bytes == b"twice"));
}

#[test]
fn a_silent_client_is_forgotten_while_another_keeps_the_link_busy() {
    // A long delay keeps datagrams always on their way, as a busy link does.
    let mut link = Link::new(NetemConfig { delay_ms: 10_000, ..CLEAN });
    let gone = socket();
    gone.send_to(b"bye", link.proxy()).expect("sends");
    link.client.send_to(b"still here", link.proxy()).expect("sends");
    let start = Instant::now();
    link.netem.poll(start).expect("polls");
    assert_eq!(link.netem.clients(), 2);
    // The busy client keeps talking until well past the silent one's idle time.
    let idle = Duration::from_secs(CLIENT_IDLE_SECONDS);
    let mut now = start;
    while now < start + idle + Duration::from_secs(2) {
        now += Duration::from_secs(1);
        link.client.send_to(b"still here", link.proxy()).expect("sends");
        std::thread::sleep(Duration::from_millis(1));
        link.netem.poll(now).expect("polls");
    }
    assert_eq!(link.netem.clients(), 1, "the silent client is forgotten, the busy one kept");
}
