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
//! - [`Access`] and [`Admission`] say who may join: anyone (an open session, for a LAN), or
//!   whoever holds a session's key ([`SessionKey`], from a password or a matchmaker), which
//!   then also encrypts and authenticates every packet ([`access`]);
//! - [`PeerLink`] holds a peer's session on its transport, and serves the socket from a thread
//!   of its own when the peer's frames are too slow to (a window drawing a few frames a
//!   second, or blocked while it is dragged);
//! - [`lan`] finds the games on the local network: a broadcast query every host answers;
//! - [`port_map`] asks the home router to forward the host's port (UPnP IGD, NAT-PMP), and
//!   [`stun`] asks STUN servers where the router maps the host's socket;
//! - [`rendezvous`] finds a host behind a home router by its join code ([`join_code`]), and
//!   punches a direct path to it through both routers;
//! - [`WallClock`] gives the sessions and the network clock their microseconds;
//! - [`Netem`] is a link conditioner: a UDP proxy that delays, jitters, drops, duplicates and
//!   reorders, for tests and for trying a bad link on loopback.
//!
//! A game's loop, each frame: [`HostTransport::receive`] (or the peer's) hands what arrived
//! to the session, the game runs what the session says, and [`HostTransport::send`] sends
//! what the session has to say. A host and a peer on loopback, as far as the peer asking for
//! the game's state to join:
//!
//! ```
//! use std::time::Duration;
//! use fixstep_net::{Access, Admission, HostTransport, PeerTransport, SessionKey, WallClock};
//! use fixstep_runtime::net::{
//!     DEFAULT_SEAT_GRACE_MICROS, GameData, HostConfig, HostEvent, HostSession, Identity,
//!     PROTOCOL_VERSION, PeerConfig, PeerSession, Role,
//! };
//! use fixstep_runtime::{Command, ContentDigest, Tick};
//! use serde::{Deserialize, Serialize};
//!
//! /// A game whose players nudge something left or right.
//! struct Nudges;
//!
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
//! struct Nudge(i8);
//!
//! impl Command for Nudge {
//!     fn held(&self) -> Self { *self }
//! }
//!
//! impl GameData for Nudges {
//!     type Command = Nudge;
//!     type SpectatorUpdate = ();
//!     type SpectatorView = ();
//! }
//!
//! let identity = Identity { protocol: PROTOCOL_VERSION, sim_version: 1, level: ContentDigest(7) };
//! let config = HostConfig {
//!     identity, max_players: 4, max_spectators: 8, local_players: 0,
//!     seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
//! };
//! let mut host = HostSession::<Nudges>::new(config, Tick::ZERO);
//! // A session sealed by a password: only peers that know it can join, or read a packet.
//! let access = Access::Key(SessionKey::from_password("correct horse")?);
//! let mut host_link = HostTransport::bind(([127, 0, 0, 1], 0).into(), &[], 4, &access)?;
//! let address = host_link.local_addr().expect("bound");
//! let mut peer = PeerSession::<Nudges>::new(PeerConfig {
//!     identity,
//!     name: "ada".to_owned(),
//!     role: Role::Player,
//!     rejoin: None,
//! });
//! let admission = Admission::Key(SessionKey::from_password("correct horse")?);
//! let mut peer_link = PeerTransport::connect(address, &admission)?;
//! let (clock, step) = (WallClock::new(), Duration::from_millis(5));
//! let mut asked = false;
//! for _ in 0..400 {
//!     peer_link.receive(step, &mut peer)?;
//!     peer_link.send(&mut peer)?;
//!     host_link.receive(step, clock.now_micros(), &mut host)?;
//!     asked |= host.drain_events().any(|e| matches!(e, HostEvent::StateWanted { .. }));
//!     host_link.send(&mut host);
//!     if asked {
//!         break;
//!     }
//!     std::thread::sleep(step);
//! }
//! assert!(asked, "the peer's hello crossed the socket, and the host would now welcome it");
//! # Ok::<(), fixstep_net::NetError>(())
//! ```

// Each narrowing or sign-dropping cast is proven safe: a silent wrap breaks determinism or bounds.
#![warn(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

pub mod access;
mod host_socket;
pub mod join_code;
pub mod lan;
mod limiter;
pub mod netcode;
mod netem;
mod peer_link;
pub mod port_map;
pub mod reads;
pub mod relay;
pub mod rendezvous;
pub mod renet_guard;
pub mod stun;
mod transport;
pub mod wire;

use std::net::SocketAddr;
use std::time::Instant;

use fixstep_runtime::net::Goodbye;

pub use access::{Access, Admission, SessionKey, password_in_file, rejoin_secret};
pub use netem::{CLIENT_IDLE_SECONDS, Netem, NetemConfig, NetemCounts, Traffic};
pub use peer_link::{PeerLink, SessionGuard};
pub use reads::{Reads, Reason};
pub use transport::{
    HostTransport, LinkStats, MAX_CONNECTIONS, MAX_PLAYERS, MAX_SPECTATORS, NETCODE_PROTOCOL_ID,
    PeerTransport, bind_towards, connection_config, peer_message_bytes,
};
pub use wire::WireCounts;

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
    /// The host closed the connection: it ended the match, or dropped this peer, and said
    /// why in its goodbye (`None` if the goodbye was lost on the way).
    #[error("the host at {host} {}", ended_how(.goodbye.as_ref()))]
    HostEnded {
        /// The host's address.
        host: SocketAddr,
        /// What the host said.
        goodbye: Option<Goodbye>,
    },
    /// The host turned the connection request away before any session began.
    #[error("the host at {host} {}", refused_how(*.refusal, *.sealed))]
    Refused {
        /// The host's address.
        host: SocketAddr,
        /// Why.
        refusal: access::Refusal,
        /// Whether this peer presented a password (or token).
        sealed: bool,
    },
    /// An empty password was given: it would let anyone in, as no password does.
    #[error("the password is empty: give one, or none for an open game")]
    EmptyPassword,
    /// A password cannot be made a key.
    #[error("the password cannot be made a key: {0}")]
    Password(#[source] argon2::Error),
    /// No connect token can be sealed for the host.
    #[error("cannot seal a connect token for {host}: {source}")]
    Token {
        /// The host's address.
        host: SocketAddr,
        /// netcode's error.
        source: renetcode::TokenGenerationError,
    },
    /// netcode's client cannot start with the token given.
    #[error("cannot start a connection to {host}: {source}")]
    Client {
        /// The host's address.
        host: SocketAddr,
        /// netcode's error.
        source: renetcode::NetcodeError,
    },
    /// The host's socket failed.
    #[error("the host's socket: {0}")]
    Transport(#[source] std::io::Error),
    /// A socket failed.
    #[error("{what}: {source}")]
    Io {
        /// Which socket.
        what: &'static str,
        /// Why.
        source: std::io::Error,
    },
}

fn ended_how(goodbye: Option<&Goodbye>) -> String {
    match goodbye {
        Some(Goodbye::MatchEnded) => "ended the match".to_owned(),
        Some(goodbye) => format!("dropped this peer: {goodbye}"),
        None => "ended the game, or dropped this peer (its goodbye was lost)".to_owned(),
    }
}

const fn refused_how(refusal: access::Refusal, sealed: bool) -> &'static str {
    match (refusal, sealed) {
        // Said in the words of a session, not of the command line: the front screen shows
        // them too.
        (access::Refusal::Key, true) => "refused this password: the host has another, or none",
        (access::Refusal::Key, false) => "asks for a password, and none was given",
        (access::Refusal::Expired, _) => {
            "found the connect token expired: this machine's clock is more than two minutes \
             behind the host's"
        }
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
