//! Finding the games on the local network: a player broadcasts a query to the game ports,
//! and every host that hears it answers on its own socket with what a list shows (the game,
//! its title, its players and seats, and whether it wants a password).
//!
//! Neither datagram is netcode's: each starts with a byte no netcode packet starts with, so
//! a host tells a query from a peer's packet before netcode reads it, and the query is padded
//! to [`QUERY_BYTES`], as long as the longest answer, so that nobody can use a host to send a
//! third party more than they sent it. A host answers within its limit of datagrams per
//! address, like anything else it reads.

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The port a host listens on unless told: unassigned by IANA, unlikely to be taken.
pub const DEFAULT_PORT: u16 = 7465;

/// The ports a LAN list asks unless told: the default port and the nine after it, where
/// hosts sharing a machine go.
pub const LAN_PORTS: std::ops::RangeInclusive<u16> = DEFAULT_PORT..=DEFAULT_PORT + 9;

/// A query's first bytes: a first byte no netcode packet has (its low four bits name packet
/// types 0 to 6), then words a person reading a capture understands.
const QUERY_PREFIX: &[u8] = b"\x0efixstep: who is hosting?";

/// An answer's first bytes, likewise.
const ANSWER_PREFIX: &[u8] = b"\x0dfixstep hosting ";

/// A query's length, bytes: every query is padded to it, and no answer is longer.
pub const QUERY_BYTES: usize = 256;

/// The longest title an answer carries, bytes: room for a content file's title, well inside
/// [`QUERY_BYTES`] with the rest of the answer.
pub const MAX_TITLE_BYTES: usize = 96;

/// The longest game name an answer carries, bytes.
pub const MAX_GAME_BYTES: usize = 32;

/// What a host says of its game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanAnswer {
    /// The game (`town`, `arena`): a peer of another game cannot join it.
    pub game: String,
    /// What its content is called (the town's level title).
    pub title: String,
    /// Players in it now, the host's own included.
    pub players: u16,
    /// Its seats.
    pub max_players: u16,
    /// Whether it wants a password.
    pub sealed: bool,
}

impl LanAnswer {
    /// The datagram that says it, with the game and title cut to fit.
    #[must_use]
    pub fn datagram(&self) -> Vec<u8> {
        let cut = |text: &str, most: usize| {
            let mut end = text.len().min(most);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text[..end].to_owned()
        };
        let fitted = Self {
            game: cut(&self.game, MAX_GAME_BYTES),
            title: cut(&self.title, MAX_TITLE_BYTES),
            ..self.clone()
        };
        // Serializing strings and integers into a Vec cannot fail.
        let mut bytes = ANSWER_PREFIX.to_vec();
        bytes.extend(postcard::to_allocvec(&fitted).unwrap_or_default());
        bytes
    }

    /// The answer `datagram` holds, if it is one.
    #[must_use]
    pub fn read(datagram: &[u8]) -> Option<Self> {
        postcard::from_bytes(datagram.strip_prefix(ANSWER_PREFIX)?).ok()
    }
}

/// The query datagram.
#[must_use]
pub fn query() -> Vec<u8> {
    let mut bytes = QUERY_PREFIX.to_vec();
    bytes.resize(QUERY_BYTES, 0);
    bytes
}

/// Whether `datagram` is a query.
#[must_use]
pub fn is_query(datagram: &[u8]) -> bool {
    datagram.len() == QUERY_BYTES && datagram.starts_with(QUERY_PREFIX)
}

/// A game found on the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanHost {
    /// Where it answered from: where to join it.
    pub address: SocketAddr,
    /// What it said.
    pub answer: LanAnswer,
}

/// Where [`discover`] asks: the local network's broadcast address, and this machine.
pub const LAN_TARGETS: [IpAddr; 2] =
    [IpAddr::V4(Ipv4Addr::BROADCAST), IpAddr::V4(Ipv4Addr::LOCALHOST)];

/// Asks every host on `ports` of `targets` (broadcast addresses, or hosts) what it hosts, and
/// lists those that answer within `wait`, one entry per address, in the order they answered
/// (a host of this machine once, at its network address when it answered from there too).
///
/// # Errors
///
/// If no socket can be bound. A target that cannot be sent to (no route, broadcast not
/// allowed) is skipped.
pub fn discover(targets: &[IpAddr], ports: &[u16], wait: Duration) -> io::Result<Vec<LanHost>> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
    socket.set_broadcast(true)?;
    let query = query();
    for &ip in targets {
        for &port in ports {
            // A network without broadcast still lists this machine's hosts.
            let _ = socket.send_to(&query, (ip, port));
        }
    }
    let until = Instant::now() + wait;
    let mut found: Vec<LanHost> = Vec::new();
    let mut buffer = [0u8; QUERY_BYTES];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        socket.set_read_timeout(Some(left))?;
        match socket.recv_from(&mut buffer) {
            Ok((len, from)) => {
                if let Some(answer) = LanAnswer::read(&buffer[..len])
                    && !found.iter().any(|h| h.address == from)
                {
                    found.push(LanHost { address: from, answer });
                }
            }
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                break;
            }
            // An earlier query's port was closed: the others may still answer.
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => {}
            Err(e) => return Err(e),
        }
    }
    // A host on this machine answers the broadcast from its network address and the query to
    // this machine from loopback: it is listed once, at the address friends can reach.
    let seen_outside: Vec<(u16, LanAnswer)> = found
        .iter()
        .filter(|h| !h.address.ip().is_loopback())
        .map(|h| (h.address.port(), h.answer.clone()))
        .collect();
    found.retain(|h| {
        !h.address.ip().is_loopback()
            || !seen_outside
                .iter()
                .any(|(port, answer)| *port == h.address.port() && *answer == h.answer)
    });
    Ok(found)
}

/// This machine's address on its local network, where friends reach a host: the address of
/// the interface a datagram to the internet would leave by. Nothing is sent (a UDP socket's
/// connect only picks the route). `None` without a network.
#[must_use]
pub fn lan_address() -> Option<IpAddr> {
    /// An address of the documentation range (TEST-NET-1): routed like the internet, never
    /// answered.
    const SOMEWHERE: (Ipv4Addr, u16) = (Ipv4Addr::new(192, 0, 2, 1), 9);
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect(SOMEWHERE).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_answer_is_no_longer_than_a_query_and_reads_back() {
        let answer = LanAnswer {
            game: "g".repeat(500),
            title: "é".repeat(500),
            players: u16::MAX,
            max_players: u16::MAX,
            sealed: true,
        };
        let datagram = answer.datagram();
        assert!(datagram.len() <= QUERY_BYTES, "{} bytes", datagram.len());
        let read = LanAnswer::read(&datagram).expect("it reads");
        assert_eq!(read.title.len(), MAX_TITLE_BYTES, "cut at a character's boundary");
        assert_eq!((read.players, read.sealed), (u16::MAX, true));
        assert!(is_query(&query()));
        assert!(!is_query(&datagram) && LanAnswer::read(&query()).is_none());
        // Neither looks like a netcode packet (types 0 to 6 in the low four bits).
        assert!(query()[0] & 0x0f > 6 && datagram[0] & 0x0f > 6);
    }
}
