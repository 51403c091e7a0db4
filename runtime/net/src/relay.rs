//! A host's allocation on a TURN relay (RFC 8656, with turn-client-proto's sans-IO client),
//! for the joiners nothing direct reaches: a router that maps every destination to a new
//! port (symmetric NAT) defeats hole punching, but a relay's address is reached like any
//! host's. The host allocates an address on the relay from its game socket and offers it as
//! a candidate; a joiner sends its packets to that address like to any host, and the relay
//! hands them to the host wrapped in TURN's messages, and the host's answers back. What
//! crosses the relay is the session's sealed packets: it reads nothing of them.
//!
//! Only the host speaks TURN, so a joiner needs no credentials of the relay's: the host lets
//! each joiner's IP address in (a TURN permission) as its rendezvous announces it.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use turn_client_proto::api::{TurnClientApi, TurnConfig, TurnEvent, TurnPollRet, TurnRecvRet};
use turn_client_proto::prelude::DelayedTransmitBuild;
use turn_client_proto::stun::Instant;
use turn_client_proto::stun::agent::Transmit;
use turn_client_proto::types::{TransportType, TurnCredentials};
use turn_client_proto::udp::TurnClientUdp;

/// The most peers a relay carries for one host: its connections twice over (a peer that
/// reconnects from a new port counts again), so a flood of forged senders cannot grow it
/// without bound.
const MAX_RELAYED_PEERS: usize = 2 * crate::MAX_CONNECTIONS;

/// The most joiners' IP addresses a host lets through its relay at once: as many.
const MAX_PERMISSIONS: usize = MAX_RELAYED_PEERS;

/// A TURN server and the long-term credentials a host allocates with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnServer {
    /// Where it listens (UDP).
    pub address: SocketAddr,
    /// The user name.
    pub user: String,
    /// The password.
    pub password: String,
}

/// TURN's port unless a URL names one (RFC 8656).
pub const TURN_PORT: u16 = 3478;

impl TurnServer {
    /// The relay `url` names (`turn:HOST:PORT`, `HOST:PORT`, or a host on [`TURN_PORT`]; a
    /// `?transport=udp` after it is allowed), with these credentials.
    ///
    /// # Errors
    ///
    /// If the name does not resolve to an address, in words.
    pub fn at(url: &str, user: &str, password: &str) -> Result<Self, String> {
        let at = url.trim();
        let at = at.strip_prefix("turn:").unwrap_or(at);
        let at = at.split_once('?').map_or(at, |(at, _)| at);
        let with_port = if at.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok()) {
            at.to_owned()
        } else {
            format!("{at}:{TURN_PORT}")
        };
        let address = std::net::ToSocketAddrs::to_socket_addrs(&with_port)
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| format!("the TURN relay {url:?} names no address"))?;
        Ok(Self { address, user: user.to_owned(), password: password.to_owned() })
    }
}

/// What happened to a host's allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelayEvent {
    /// The relay gave the host this address; joiners may send to it.
    Allocated(SocketAddr),
    /// The relay gave none (wrong credentials, no room, no answer).
    Failed(String),
}

/// A host's allocation on a TURN relay.
pub struct Relay {
    client: TurnClientUdp,
    server: SocketAddr,
    allocated: Option<SocketAddr>,
    /// Peers heard through the relay: what goes to them goes through it too.
    peers: HashSet<SocketAddr>,
    permitted: HashSet<IpAddr>,
    /// Joiners' IP addresses announced before the relay gave an address: permitted as it does
    /// (a joiner that dials as the host starts, or as a player takes its match over, looks
    /// the code up before the allocation is made).
    waiting: HashSet<IpAddr>,
    events: Vec<RelayEvent>,
    over: bool,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay")
            .field("server", &self.server)
            .field("allocated", &self.allocated)
            .field("peers", &self.peers.len())
            .finish_non_exhaustive()
    }
}

/// `now` as the TURN client's clock (nanoseconds of the host's time).
fn instant(now: Duration) -> Instant {
    Instant::from_nanos(i64::try_from(now.as_nanos()).unwrap_or(i64::MAX))
}

impl Relay {
    /// Allocates on `server` from the socket bound at `local`; the requests go out at the
    /// next [`poll`](Self::poll).
    #[must_use]
    pub fn allocate(server: &TurnServer, local: SocketAddr) -> Self {
        let credentials = TurnCredentials::new(&server.user, &server.password);
        let client = TurnClientUdp::allocate(local, server.address, TurnConfig::new(credentials));
        Self {
            client,
            server: server.address,
            allocated: None,
            peers: HashSet::new(),
            permitted: HashSet::new(),
            waiting: HashSet::new(),
            events: Vec::new(),
            over: false,
        }
    }

    /// The relay's address.
    #[must_use]
    pub const fn server(&self) -> SocketAddr {
        self.server
    }

    /// The address the relay gave, once it did.
    #[must_use]
    pub const fn allocated(&self) -> Option<SocketAddr> {
        self.allocated
    }

    /// Whether what goes to `to` goes through the relay: a peer heard through it.
    #[must_use]
    pub fn carries(&self, to: SocketAddr) -> bool {
        self.peers.contains(&to)
    }

    /// What happened since the last call.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, RelayEvent> {
        self.events.drain(..)
    }

    /// Lets `ip` (a joiner's) send through the relay.
    pub fn permit(&mut self, ip: IpAddr, now: Duration) {
        if self.permitted.len() + self.waiting.len() >= MAX_PERMISSIONS {
            return;
        }
        if self.allocated.is_none() {
            self.waiting.insert(ip);
        } else if self.permitted.insert(ip) {
            let _ = self.client.create_permission(TransportType::Udp, ip, instant(now));
        }
    }

    /// Takes `datagram` from the relay at `now`: a peer's packet it carried (which the host
    /// reads as from that peer), or `None` for the relay's own messages.
    pub fn receive(
        &mut self,
        local: SocketAddr,
        datagram: &[u8],
        now: Duration,
    ) -> Option<(SocketAddr, Vec<u8>)> {
        let transmit = Transmit::new(datagram, TransportType::Udp, self.server, local);
        match self.client.recv(transmit, instant(now)) {
            TurnRecvRet::PeerData(data) => {
                let peer = data.peer;
                if !self.peers.contains(&peer) {
                    if self.peers.len() >= MAX_RELAYED_PEERS {
                        return None;
                    }
                    self.peers.insert(peer);
                    // A channel costs 4 bytes a packet where an indication costs 36.
                    let _ = self.client.bind_channel(TransportType::Udp, peer, instant(now));
                }
                Some((peer, data.data().to_vec()))
            }
            TurnRecvRet::Handled | TurnRecvRet::Ignored(_) | TurnRecvRet::PeerIcmp { .. } => None,
        }
    }

    /// `datagram` for `to` wrapped for the relay, if it can go (a permission for `to`'s IP
    /// is in place).
    pub fn wrap(&mut self, to: SocketAddr, datagram: &[u8], now: Duration) -> Option<Vec<u8>> {
        let built = self.client.send_to(TransportType::Udp, to, datagram, instant(now)).ok()??;
        Some(built.data.build())
    }

    /// What to send the relay to give its allocation back at `now` (the host stops): a
    /// host started again on the same port is then given a new one at once, instead of
    /// being refused while the old one lasts.
    pub fn release(&mut self, now: Duration) -> Vec<Vec<u8>> {
        if self.allocated.is_none() || self.client.delete(instant(now)).is_err() {
            return Vec::new();
        }
        let mut out = Vec::new();
        while let Some(transmit) = self.client.poll_transmit(instant(now)) {
            out.push(transmit.data.to_vec());
        }
        self.allocated = None;
        out
    }

    /// What to send the relay at `now` (its allocation, refreshes, permissions, channels),
    /// and what happened meanwhile into [`drain_events`](Self::drain_events).
    pub fn poll(&mut self, now: Duration) -> Vec<Vec<u8>> {
        let at = instant(now);
        if !self.over && matches!(self.client.poll(at), TurnPollRet::Closed) {
            self.over = true;
            if self.allocated.is_none() {
                self.events.push(RelayEvent::Failed(format!(
                    "the TURN relay at {} gave no address (wrong user or password, no room, or \
                     no answer)",
                    self.server
                )));
            }
        }
        while let Some(event) = self.client.poll_event() {
            match event {
                TurnEvent::AllocationCreated(TransportType::Udp, address) => {
                    self.allocated = Some(address);
                    self.events.push(RelayEvent::Allocated(address));
                    for ip in std::mem::take(&mut self.waiting) {
                        self.permit(ip, now);
                    }
                }
                TurnEvent::AllocationCreateFailed(_) => {
                    self.events.push(RelayEvent::Failed(format!(
                        "the TURN relay at {} refused an allocation",
                        self.server
                    )));
                }
                _ => {}
            }
        }
        // After the events: the permissions an allocation lets out go with it.
        let mut out = Vec::new();
        while let Some(transmit) = self.client.poll_transmit(at) {
            out.push(transmit.data.to_vec());
        }
        out
    }
}
