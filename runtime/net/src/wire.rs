//! What goes on the wire, counted where it goes: at the socket, every datagram with the IP and
//! UDP headers it carries, so that the figures a summary prints are the ones a proxy or a
//! network bill would show (not a transport's payload bytes, which leave out every header).

use std::cell::Cell;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::time::Instant;

/// The IPv4 and UDP headers of a datagram, bytes: 20 and 8.
pub const IPV4_UDP_HEADER_BYTES: u64 = 28;

/// The IPv6 and UDP headers of a datagram, bytes: 40 and 8.
pub const IPV6_UDP_HEADER_BYTES: u64 = 48;

/// The headers of a datagram to or from `address`, bytes.
const fn header_bytes(address: &SocketAddr) -> u64 {
    match address {
        SocketAddr::V4(_) => IPV4_UDP_HEADER_BYTES,
        SocketAddr::V6(_) => IPV6_UDP_HEADER_BYTES,
    }
}

/// Datagrams and bytes (with their IP and UDP headers) sent and received by a socket since it
/// was opened, and for how long.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct WireCounts {
    /// Datagrams sent.
    pub datagrams_sent: u64,
    /// Bytes sent, headers included.
    pub bytes_sent: u64,
    /// Datagrams received (every one read, taken or turned away).
    pub datagrams_received: u64,
    /// Bytes received, headers included.
    pub bytes_received: u64,
    /// Microseconds since the socket was opened.
    pub micros: u64,
}

impl WireCounts {
    /// `count` a second over the counts' time.
    fn per_second(&self, count: u64) -> f64 {
        if self.micros == 0 { 0.0 } else { count as f64 * 1e6 / self.micros as f64 }
    }

    /// Datagrams sent a second.
    #[must_use]
    pub fn datagrams_sent_per_second(&self) -> f64 {
        self.per_second(self.datagrams_sent)
    }

    /// Bytes sent a second, headers included.
    #[must_use]
    pub fn bytes_sent_per_second(&self) -> f64 {
        self.per_second(self.bytes_sent)
    }

    /// Datagrams received a second.
    #[must_use]
    pub fn datagrams_received_per_second(&self) -> f64 {
        self.per_second(self.datagrams_received)
    }

    /// Bytes received a second, headers included.
    #[must_use]
    pub fn bytes_received_per_second(&self) -> f64 {
        self.per_second(self.bytes_received)
    }
}

impl std::fmt::Display for WireCounts {
    /// `sent D datagrams B B, received D datagrams B B in S s`: what a summary prints, and
    /// what tests read back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "sent {} datagrams {} B, received {} datagrams {} B in {:.1} s ({:.0}/{:.0} B/s)",
            self.datagrams_sent,
            self.bytes_sent,
            self.datagrams_received,
            self.bytes_received,
            self.micros as f64 / 1e6,
            self.bytes_sent_per_second(),
            self.bytes_received_per_second(),
        )
    }
}

/// A non-blocking UDP socket that counts what crosses it.
#[derive(Debug)]
pub struct CountedSocket {
    socket: UdpSocket,
    opened: Instant,
    counts: Cell<WireCounts>,
}

impl CountedSocket {
    /// Counts what crosses `socket`, made non-blocking.
    ///
    /// # Errors
    ///
    /// If the socket cannot be made non-blocking.
    pub fn new(socket: UdpSocket) -> io::Result<Self> {
        socket.set_nonblocking(true)?;
        Ok(Self { socket, opened: Instant::now(), counts: Cell::new(WireCounts::default()) })
    }

    /// Sends `datagram` to `to`, counting it if it went.
    ///
    /// # Errors
    ///
    /// The socket's.
    pub fn send_to(&self, datagram: &[u8], to: SocketAddr) -> io::Result<usize> {
        let sent = self.socket.send_to(datagram, to)?;
        let mut counts = self.counts.get();
        counts.datagrams_sent += 1;
        counts.bytes_sent += sent as u64 + header_bytes(&to);
        self.counts.set(counts);
        Ok(sent)
    }

    /// Receives a datagram into `buffer`, counting it.
    ///
    /// # Errors
    ///
    /// The socket's (`WouldBlock` when nothing waits).
    pub fn recv_from(&self, buffer: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        let (len, from) = self.socket.recv_from(buffer)?;
        let mut counts = self.counts.get();
        counts.datagrams_received += 1;
        counts.bytes_received += len as u64 + header_bytes(&from);
        self.counts.set(counts);
        Ok((len, from))
    }

    /// Where it is bound.
    ///
    /// # Errors
    ///
    /// The socket's.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// What crossed it so far.
    #[must_use]
    pub fn counts(&self) -> WireCounts {
        let micros = u64::try_from(self.opened.elapsed().as_micros()).unwrap_or(u64::MAX);
        WireCounts { micros, ..self.counts.get() }
    }
}
