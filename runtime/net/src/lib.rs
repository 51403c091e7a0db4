//! # fixstep-net
//!
//! Where sockets and real time meet the lockstep sessions of
//! [`fixstep_runtime::net`], which know neither:
//!
//! - [`HostTransport`] and [`PeerTransport`] carry a session's messages over UDP with renet
//!   (reliable ordered and unreliable channels, fragmentation of large states, round-trip
//!   measures) on netcode connections (encrypted, replay-protected packets, so a stranger's
//!   datagrams never reach a session), every datagram checked before netcode reads it
//!   ([`netcode`]) and every payload before renet does ([`renet_guard`]);
//! - [`PeerLink`] holds a peer's session on its transport, and serves the socket from a thread
//!   of its own when the peer's frames are too slow to (a window drawing a few frames a
//!   second, or blocked while it is dragged);
//! - [`WallClock`] gives the sessions and the network clock their microseconds;
//! - [`Netem`] is a link conditioner: a UDP proxy that delays, jitters, drops, duplicates and
//!   reorders, for tests and for trying a bad link on loopback.
//!
//! A game's loop, each frame: [`HostTransport::receive`] (or the peer's) hands what arrived
//! to the session, the game runs what the session says, and [`HostTransport::send`] sends
//! what the session has to say.

pub mod netcode;
mod netem;
mod peer_link;
pub mod renet_guard;
mod transport;

use std::net::SocketAddr;
use std::time::Instant;

pub use netem::{CLIENT_IDLE_SECONDS, Netem, NetemConfig, NetemCounts};
pub use peer_link::{PeerLink, SessionGuard};
pub use transport::{
    HostTransport, LinkStats, MAX_CONNECTIONS, NETCODE_PROTOCOL_ID, PeerTransport,
    connection_config,
};

/// What went wrong with the network.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// A socket could not be bound.
    #[error("cannot use the address {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The connection to the host failed or ended.
    #[error("connection to {host}: {reason}")]
    Connect {
        /// The host's address.
        host: SocketAddr,
        /// Why.
        reason: String,
    },
    /// The host closed the connection and said goodbye: it ended the game (its match is
    /// over, or it was stopped), or it dropped this peer (silent past its timeout, or sending
    /// what it refuses). netcode's goodbye carries no reason to tell these apart.
    #[error("the host at {host} ended the game (or dropped this peer)")]
    HostEnded {
        /// The host's address.
        host: SocketAddr,
    },
    /// The host's transport failed.
    #[error("the host's transport: {0}")]
    Transport(String),
    /// A socket failed.
    #[error("{what}: {source}")]
    Io {
        /// Which socket.
        what: &'static str,
        /// Why.
        source: std::io::Error,
    },
}

impl NetError {
    fn transport(e: impl std::fmt::Display) -> Self {
        Self::Transport(e.to_string())
    }
}

/// Real time since the clock was made, in the integer microseconds the sessions and the
/// network clock take.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    start: Instant,
}

impl Default for WallClock {
    fn default() -> Self {
        Self::new()
    }
}

impl WallClock {
    /// A clock at zero now.
    #[must_use]
    pub fn new() -> Self {
        Self { start: Instant::now() }
    }

    /// Microseconds since it was made.
    #[must_use]
    pub fn now_micros(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_micros()).unwrap_or(u64::MAX)
    }
}
