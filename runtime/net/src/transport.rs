//! The lockstep sessions carried over UDP by renet, on netcode connections.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, SystemTime};

use fixstep_runtime::net::wire::{MAX_RELIABLE_BYTES, MAX_UNRELIABLE_BYTES};
use fixstep_runtime::net::{Delivery, GameData, Goodbye, HostSession, PeerId, PeerSession};
use renet::{ChannelConfig, ConnectionConfig, RenetClient, RenetServer, SendType, ServerEvent};
use renetcode::{ClientAuthentication, DisconnectReason, ServerAuthentication, ServerConfig};

use crate::access::{Access, Admission, TOKEN_TIMEOUT_SECONDS};
use crate::netcode::{ClientLink, ServerLink};
use crate::reads::Reads;
use crate::rendezvous::{Candidate, Listing, ListingSecret, PathKind};
use crate::wire::WireCounts;
use crate::{NetError, WallClock};

/// netcode's protocol id for Fixstep: the same for every version, so that a peer of another
/// version connects and is told by the host what differs, instead of timing out in silence.
pub const NETCODE_PROTOCOL_ID: u64 = 0x0f1c_57e9;

/// The reliable channel's id.
const RELIABLE: u8 = 0;

/// The unreliable channel's id.
const UNRELIABLE: u8 = 1;

/// How long a reliable message waits for its acknowledgement before it is sent again: 100 ms,
/// a tick. Longer would hold the tick stream back by more than the input queue hides on a
/// lossy link; shorter resends what is merely on its way on a slow one.
const RESEND: Duration = Duration::from_millis(100);

/// What the host may send in one update, bytes: enough for a late joiner's whole state in a
/// few updates, while a steady game sends a few hundred bytes a tick to each peer.
const BYTES_PER_UPDATE: u64 = 1 << 20;

/// What a peer may send in one update, bytes: 16 KiB, 8 MB/s at a look every 2 ms. A peer
/// sends a few hundred bytes a tick, and a desync's state now and then; a budget the size of
/// the host's would let a client on the host's machine (a test's) send hundreds of thousands
/// of datagrams a second and take the machine's cores from the host.
const PEER_BYTES_PER_UPDATE: u64 = 16 << 10;

/// The most players a host takes: 256, as many as the largest lockstep games seat (a
/// host's part of a tick with that many is well under a millisecond, and each peer's frames
/// are a kilobyte a second).
pub const MAX_PLAYERS: usize = 256;

/// The most spectators a host takes: 64. Each is sent its own view of every tick, several
/// kilobytes a second, so they cost the host more than players do.
pub const MAX_SPECTATORS: usize = 64;

/// The most connections a host takes (netcode's): its players and spectators.
pub const MAX_CONNECTIONS: usize = MAX_PLAYERS + MAX_SPECTATORS;

/// The least a host lets a peer's reliable messages being reassembled take, bytes: 64 KiB,
/// room for a hello and a small game's state.
const MIN_PEER_MESSAGE_BYTES: usize = 64 << 10;

/// How much larger than the host's state at its start a peer's reliable messages may be: four
/// times. The largest a peer sends is its state, after a desync, and a state grows as players
/// join.
const PEER_MESSAGE_STATE_FACTOR: usize = 4;

/// The channels, one way: reliable and ordered (`reliable_bytes` of messages in flight or
/// being reassembled), and unreliable. One reliable channel only: [`crate::renet_guard`]
/// counts the reliable messages handed on per connection, not per channel.
fn channels(reliable_bytes: usize) -> Vec<ChannelConfig> {
    vec![
        ChannelConfig {
            channel_id: RELIABLE,
            max_memory_usage_bytes: reliable_bytes,
            send_type: SendType::ReliableOrdered { resend_time: RESEND },
        },
        ChannelConfig {
            channel_id: UNRELIABLE,
            max_memory_usage_bytes: 64 * MAX_UNRELIABLE_BYTES,
            send_type: SendType::Unreliable,
        },
    ]
}

/// renet's configuration of a connection, the same at both ends: the channels and what the
/// host may send in an update. Public so that tests can build renet endpoints exactly like
/// the transport's.
#[must_use]
pub fn connection_config() -> ConnectionConfig {
    ConnectionConfig {
        available_bytes_per_tick: BYTES_PER_UPDATE,
        server_channels_config: channels(2 * MAX_RELIABLE_BYTES),
        client_channels_config: channels(2 * MAX_RELIABLE_BYTES),
    }
}

/// What a host holds of one peer's reliable messages being reassembled, bytes, for a game
/// whose state takes `state_bytes`: `PEER_MESSAGE_STATE_FACTOR` times it, at least
/// `MIN_PEER_MESSAGE_BYTES`, at most what the protocol allows. A peer that means harm can
/// make the host hold this much for it, so with hundreds of peers it is the host's memory.
#[must_use]
pub fn peer_message_bytes(state_bytes: usize) -> usize {
    state_bytes
        .saturating_mul(PEER_MESSAGE_STATE_FACTOR)
        .clamp(MIN_PEER_MESSAGE_BYTES, 2 * MAX_RELIABLE_BYTES)
}

const fn channel_of(delivery: Delivery) -> u8 {
    match delivery {
        Delivery::Reliable => RELIABLE,
        Delivery::Unreliable => UNRELIABLE,
    }
}

/// A socket of any local address and port, of `host`'s family.
///
/// # Errors
///
/// If none can be bound.
pub fn bind_towards(host: SocketAddr) -> Result<UdpSocket, NetError> {
    let local = any_address_towards(host);
    UdpSocket::bind(local).map_err(|e| NetError::Bind { addr: local, source: e })
}

/// Every local address of `host`'s family, and a port the system picks.
pub(crate) fn any_address_towards(host: SocketAddr) -> SocketAddr {
    if host.is_ipv4() {
        SocketAddr::from(([0, 0, 0, 0], 0))
    } else {
        SocketAddr::from(([0u16; 8], 0))
    }
}

/// The time since the Unix epoch, which netcode's connect tokens are stamped with.
fn epoch_time() -> Duration {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default()
}

/// What a peer's link looks like from its end of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Round-trip time, microseconds, as renet measures it from its acknowledgements. Those
    /// go only for reliable messages, so a player measures its own from its inputs' (see
    /// `fixstep_netplay`), and this is the handshake's, or a spectator's updates'.
    pub rtt_micros: u64,
    /// What crossed the peer's socket.
    pub wire: WireCounts,
}

/// renet's round trip, microseconds.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a live link's round trip: small, finite, and not negative after the max"
)]
fn rtt_micros(info: &renet::NetworkInfo) -> u64 {
    (info.rtt * 1e6).max(0.0) as u64
}

/// The host's socket: carries a [`HostSession`]'s messages to and from its peers.
pub struct HostTransport {
    server: RenetServer,
    transport: ServerLink,
}

impl std::fmt::Debug for HostTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostTransport").field("addresses", &self.transport.addresses()).finish()
    }
}

impl HostTransport {
    /// A host listening on `bind`, taking at most `max_connections` peers, who must present
    /// what `access` asks. Peers connect to the address they were given: `bind`'s own, or one
    /// of `also_reachable_at` (a link conditioner's, a public address in front of a NAT),
    /// which netcode must know for a matchmaker's tokens (a peer's own password tokens are
    /// good at any of the host's addresses).
    ///
    /// # Errors
    ///
    /// If the socket cannot be bound or set up.
    pub fn bind(
        bind: SocketAddr,
        also_reachable_at: &[SocketAddr],
        max_connections: usize,
        access: &Access,
    ) -> Result<Self, NetError> {
        let socket = UdpSocket::bind(bind).map_err(|e| NetError::Bind { addr: bind, source: e })?;
        Self::on_socket(socket, also_reachable_at, max_connections, access)
    }

    /// A host listening on `socket`, bound already (a player's, kept for the day it takes its
    /// match over); otherwise as [`bind`](Self::bind).
    ///
    /// # Errors
    ///
    /// If the socket cannot be set up.
    pub fn on_socket(
        socket: UdpSocket,
        also_reachable_at: &[SocketAddr],
        max_connections: usize,
        access: &Access,
    ) -> Result<Self, NetError> {
        let unbound = SocketAddr::from(([0, 0, 0, 0], 0));
        let bind = socket.local_addr().unwrap_or(unbound);
        let local = socket.local_addr().map_err(|e| NetError::Bind { addr: bind, source: e })?;
        let mut public_addresses = vec![local];
        public_addresses.extend_from_slice(also_reachable_at);
        public_addresses.extend(access.extra_addresses());
        let authentication = match access {
            Access::Open => ServerAuthentication::Unsecure,
            Access::Key(key) => ServerAuthentication::Secure { private_key: *key.bytes() },
        };
        let config = ServerConfig {
            current_time: epoch_time(),
            max_clients: max_connections.min(MAX_CONNECTIONS),
            protocol_id: NETCODE_PROTOCOL_ID,
            public_addresses,
            authentication,
        };
        let transport = ServerLink::new(config, access.key().clone(), socket)
            .map_err(|e| NetError::Bind { addr: bind, source: e })?;
        Ok(Self { server: RenetServer::new(connection_config()), transport })
    }

    /// The same host, holding at most `bytes` of each peer's reliable messages being
    /// reassembled (see [`peer_message_bytes`]) instead of twice the protocol's largest
    /// message: call it before any peer connects.
    #[must_use]
    pub fn with_peer_message_limit(mut self, bytes: usize) -> Self {
        let config =
            ConnectionConfig { client_channels_config: channels(bytes), ..connection_config() };
        self.server = RenetServer::new(config);
        self
    }

    /// Answers the LAN's queries with `answer` from now on ([`crate::lan`]).
    pub fn set_lan_answer(&mut self, answer: &crate::lan::LanAnswer) {
        self.transport.set_lan_answer(Some(answer.datagram()));
    }

    /// Where it listens.
    #[must_use]
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.transport.addresses().first().copied()
    }

    /// Lists the match at a rendezvous with `listing` from now on, so that joiners reach it
    /// by its code; `None` ends the listing it had.
    pub fn set_listing(&mut self, listing: Option<Listing>) {
        self.transport.set_listing(listing);
    }

    /// Lists the match at the rendezvous at `rendezvous`, giving its address on this
    /// machine's network as a candidate (for a friend on the same network), under a fresh
    /// secret.
    pub fn list_at(&mut self, rendezvous: SocketAddr) {
        let secret = renetcode::generate_random_bytes();
        let listing = Listing::new(rendezvous, self.local_candidates(), secret);
        self.set_listing(Some(listing));
    }

    /// Renews the listing `code` holds at `rendezvous` under `secret` from this host's socket
    /// from now on (it took the match over), giving its address on this machine's network
    /// as a candidate.
    pub fn resume_listing(
        &mut self,
        rendezvous: SocketAddr,
        code: crate::join_code::JoinCode,
        secret: ListingSecret,
    ) {
        let listing = Listing::resume(rendezvous, code, secret, self.local_candidates());
        self.set_listing(Some(listing));
    }

    /// Stops renewing the listing without ending it (see [`ServerLink::leave_listing`]):
    /// the match went on under another host.
    pub fn leave_listing(&mut self) {
        self.transport.leave_listing();
    }

    /// The host's address on this machine's network, with its port: for a friend on the
    /// same network.
    fn local_candidates(&self) -> Vec<Candidate> {
        let port = self.local_addr().map_or(0, |a| a.port());
        let local = crate::lan::lan_address()
            .map(|ip| Candidate { kind: PathKind::Local, address: SocketAddr::new(ip, port) });
        local.into_iter().collect()
    }

    /// The match's listing, if it has one: its code, once the rendezvous gave one.
    #[must_use]
    pub const fn listing(&self) -> Option<&Listing> {
        self.transport.listing()
    }

    /// Asks the STUN servers at `servers` for the host's public address from now on; once
    /// one answers, the listing offers it to joiners.
    pub fn learn_public_address(&mut self, servers: Vec<SocketAddr>) {
        self.transport.learn_public_address(servers);
    }

    /// The host's public address as a STUN server saw it, and that server.
    #[must_use]
    pub fn stun_learned(&self) -> Option<(SocketAddr, SocketAddr)> {
        self.transport.stun_learned()
    }

    /// Allocates an address on the TURN relay `server` from now on, for joiners nothing
    /// direct reaches ([`crate::relay`]); the listing offers it once the relay gave it.
    ///
    /// # Errors
    ///
    /// If the socket has no address.
    pub fn relay_through(&mut self, server: &crate::relay::TurnServer) -> Result<(), NetError> {
        self.transport
            .relay_through(server)
            .map_err(|source| NetError::Io { what: "the host's socket", source })
    }

    /// The address the relay gave the host, once it did.
    #[must_use]
    pub fn relayed_address(&self) -> Option<SocketAddr> {
        self.transport.relayed_address()
    }

    /// Connected peers whose packets the relay carries.
    #[must_use]
    pub fn relayed_peers(&self) -> usize {
        self.transport.relayed_clients()
    }

    /// What happened to the relay's allocation since the last call.
    pub fn drain_relay_events(&mut self) -> std::vec::Drain<'_, crate::relay::RelayEvent> {
        self.transport.drain_relay_events()
    }

    /// The match's listing, to change what it gives.
    pub const fn listing_mut(&mut self) -> Option<&mut Listing> {
        self.transport.listing_mut()
    }

    /// What the listing learned since the last call.
    pub fn drain_listing_events(&mut self) -> std::vec::Drain<'_, crate::rendezvous::ListingEvent> {
        self.transport.drain_listing_events()
    }

    /// Receives what came in the last `elapsed` and hands it to `session` (stamped
    /// `now_micros`), with connections and disconnections.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn receive<D: GameData>(
        &mut self,
        elapsed: Duration,
        now_micros: u64,
        session: &mut HostSession<D>,
    ) -> Result<(), NetError> {
        self.server.update(elapsed);
        self.transport.update(elapsed, &mut self.server).map_err(NetError::Transport)?;
        while let Some(event) = self.server.get_event() {
            match event {
                ServerEvent::ClientConnected { client_id } => {
                    session.connect(PeerId(client_id), now_micros);
                }
                ServerEvent::ClientDisconnected { client_id, .. } => {
                    session.disconnect(PeerId(client_id));
                }
            }
        }
        for client in self.transport.drain_cut_off() {
            session.drop_peer(PeerId(client), Goodbye::Malformed);
        }
        for client in self.server.clients_id() {
            for (channel, delivery) in
                [(RELIABLE, Delivery::Reliable), (UNRELIABLE, Delivery::Unreliable)]
            {
                while let Some(bytes) = self.server.receive_message(client, channel) {
                    if channel == RELIABLE {
                        self.transport.took_reliable(client);
                    }
                    session.receive(PeerId(client), delivery, &bytes, now_micros);
                }
            }
        }
        Ok(())
    }

    /// Sends what `session` has to send.
    pub fn send<D: GameData>(&mut self, session: &mut HostSession<D>) {
        for (peer, delivery, bytes) in session.drain_outgoing() {
            if self.server.is_connected(peer.0) {
                self.server.send_message(peer.0, channel_of(delivery), bytes);
            }
        }
        self.transport.send_packets(&mut self.server);
    }

    /// Drops `peer`'s connection (the session found it silent).
    pub fn disconnect(&mut self, peer: PeerId) {
        self.server.disconnect(peer.0);
    }

    /// The round trip to `peer` as renet measures it, microseconds: good for a spectator,
    /// whose updates it acknowledges; a player's frames go unacknowledged by renet, and the
    /// session has a better one ([`HostSession::round_trip_micros`]).
    #[must_use]
    pub fn rtt_micros(&self, peer: PeerId) -> Option<u64> {
        self.server.network_info(peer.0).ok().as_ref().map(rtt_micros)
    }

    /// What crossed the host's socket so far, to and from every peer.
    #[must_use]
    pub fn wire(&self) -> WireCounts {
        self.transport.wire()
    }

    /// Every datagram the host's socket gave it so far, by what became of it: taken
    /// (payloads renet read, netcode's own packets), or turned away before netcode or renet
    /// read it (datagrams shaped as no netcode packet can be, payloads of connected peers kept
    /// from renet by [`crate::renet_guard`], floods, connection requests it did not take,
    /// packets that did not open). They add up to [`wire`](Self::wire)'s datagrams received.
    #[must_use]
    pub const fn reads(&self) -> Reads {
        self.transport.reads()
    }

    /// Tells every peer the host is going, and sends it.
    pub fn shut_down(&mut self) {
        self.transport.disconnect_all(&mut self.server);
    }
}

/// A peer's socket: carries a [`PeerSession`]'s messages to and from the host.
pub struct PeerTransport {
    client: RenetClient,
    transport: ClientLink,
    said_hello: bool,
    host: SocketAddr,
    /// Whether it presented a password or token (for what a refusal means).
    sealed: bool,
    /// The clock the session's frames are stamped with.
    clock: WallClock,
}

impl std::fmt::Debug for PeerTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerTransport").field("host", &self.host).finish_non_exhaustive()
    }
}

impl PeerTransport {
    /// A connection to the host at `host`, presenting `admission`.
    ///
    /// # Errors
    ///
    /// If no local socket can be bound, or netcode refuses the setup.
    pub fn connect(host: SocketAddr, admission: &Admission) -> Result<Self, NetError> {
        let socket = bind_towards(host)?;
        Self::connect_on(socket, host, admission)
    }

    /// A connection to the host at `host` on `socket`, bound already (the one a join code
    /// was dialled from, whose path through the routers is open), presenting `admission`.
    ///
    /// # Errors
    ///
    /// If netcode refuses the setup.
    pub fn connect_on(
        socket: UdpSocket,
        host: SocketAddr,
        admission: &Admission,
    ) -> Result<Self, NetError> {
        let now = epoch_time();
        let connect_token = admission.token(host, now)?;
        let authentication = ClientAuthentication::Secure { connect_token };
        let transport = ClientLink::new(now, authentication, socket)
            .map_err(|source| NetError::Client { host, source })?;
        let config = ConnectionConfig {
            available_bytes_per_tick: PEER_BYTES_PER_UPDATE,
            ..connection_config()
        };
        Ok(Self {
            client: RenetClient::new(config),
            transport,
            said_hello: false,
            host,
            sealed: admission.is_sealed(),
            clock: WallClock::new(),
        })
    }

    /// Whether the connection is up.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.client.is_connected()
    }

    /// Why the connection ended, if it did.
    #[must_use]
    pub fn disconnected(&self) -> Option<String> {
        if let Some(reason) = self.transport.disconnect_reason() {
            return Some(reason.to_string());
        }
        self.client.disconnect_reason().map(|r| r.to_string())
    }

    /// Receives what came in the last `elapsed` and hands it to `session`; says hello once the
    /// connection is up.
    ///
    /// # Errors
    ///
    /// If the socket fails or the connection is refused or lost.
    pub fn receive<D: GameData>(
        &mut self,
        elapsed: Duration,
        session: &mut PeerSession<D>,
    ) -> Result<(), NetError> {
        self.client.update(elapsed);
        session.set_time(self.clock.now_micros());
        let updated = self.transport.update(elapsed, &mut self.client);
        if let Some(refusal) = self.transport.refused() {
            return Err(NetError::Refused { host: self.host, refusal, sealed: self.sealed });
        }
        if self.said_hello || self.client.is_connected() {
            if !self.said_hello {
                session.connect();
                self.said_hello = true;
            }
            // What arrived with the host's disconnection too: its goodbye says why.
            for (channel, delivery) in
                [(RELIABLE, Delivery::Reliable), (UNRELIABLE, Delivery::Unreliable)]
            {
                while let Some(bytes) = self.client.receive_message(channel) {
                    if channel == RELIABLE {
                        self.transport.took_reliable();
                    }
                    session.receive(delivery, &bytes);
                }
            }
        }
        updated.map_err(|reason| self.ended(reason, session.goodbye()))?;
        if let Some(reason) = self.disconnected() {
            return Err(self.ended(reason, session.goodbye()));
        }
        Ok(())
    }

    /// Sends what `session` has to send (kept until the connection is up).
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn send<D: GameData>(&mut self, session: &mut PeerSession<D>) -> Result<(), NetError> {
        if self.client.is_connected() {
            for (delivery, bytes) in session.drain_outgoing() {
                self.client.send_message(channel_of(delivery), bytes);
            }
        }
        let sent = self.transport.send_packets(&mut self.client);
        sent.map_err(|reason| self.ended(reason, session.goodbye()))
    }

    /// The connection's end as an error: the host's disconnection, or its goodbye, is
    /// [`NetError::HostEnded`] (with the goodbye's reason), the rest [`NetError::Connect`]
    /// with `reason`, or with what netcode's timeout of a connection that was up means.
    fn ended(&self, reason: String, goodbye: Option<&Goodbye>) -> NetError {
        let why = self.transport.disconnect_reason();
        if why == Some(DisconnectReason::DisconnectedByServer) || goodbye.is_some() {
            return NetError::HostEnded { host: self.host, goodbye: goodbye.cloned() };
        }
        // netcode's own words, "connection timed out", read as if it never connected.
        let reason = if why == Some(DisconnectReason::ConnectionTimedOut) {
            format!(
                "the host stopped answering: nothing heard from it for \
                 {TOKEN_TIMEOUT_SECONDS} s (it ended without a goodbye, or the link to it is down)"
            )
        } else {
            reason
        };
        NetError::Connect { host: self.host, reason }
    }

    /// The link to the host, as this peer sees it.
    #[must_use]
    pub fn stats(&self) -> LinkStats {
        LinkStats { rtt_micros: rtt_micros(&self.client.network_info()), wire: self.wire() }
    }

    /// What crossed this peer's socket so far.
    #[must_use]
    pub fn wire(&self) -> WireCounts {
        self.transport.wire()
    }

    /// Datagrams from the host's address dropped before netcode read them
    /// ([`crate::netcode::well_formed`]), and payloads kept from renet
    /// ([`crate::renet_guard`]).
    #[must_use]
    pub const fn malformed_datagrams(&self) -> u64 {
        self.transport.malformed()
    }

    /// Says goodbye to the host.
    pub fn disconnect(&mut self) {
        self.transport.disconnect();
    }
}
