//! netcode connections on a UDP socket: renetcode's protocol (encrypted, replay-protected
//! packets), with every datagram checked before netcode reads it.
//!
//! renetcode 2.0 trusts a packet's shape: it reads the sequence number with a length taken
//! from the first byte without bounding it (more than eight bytes panics it), and it takes
//! the authentication tag from the end of whatever follows the sequence without checking
//! that a tag's worth is there (a short packet panics it). A stranger who writes a peer's
//! address on such a datagram would bring down the host (or, with the host's address, a
//! peer). [`well_formed`] turns those away, and this module owns the socket loop (what
//! renet_netcode's transports do, with that check) so that no datagram reaches netcode
//! unchecked.
//!
//! The host's loop also bounds what one sender can make it do: datagrams per address and
//! connection requests per IP address go through token buckets ([`DATAGRAMS_PER_SECOND`],
//! [`REQUESTS_PER_SECOND`]), and every connection request's token is opened before netcode
//! opens it ([`crate::access::check_request`]), so that a peer with the wrong password is told
//! so.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr, UdpSocket};

use std::time::Duration;

use renet::{ClientId, RenetClient, RenetServer};
use renetcode::{
    ClientAuthentication, DisconnectReason, NETCODE_MAX_PACKET_BYTES, NetcodeClient, NetcodeError,
    NetcodeServer, ServerConfig, ServerResult,
};

use crate::access::{Refusal, RequestCheck, SessionKey, check_request};
use crate::host_socket::HostSocket;
use crate::limiter::RateLimiter;
use crate::reads::{Reads, Reason};
use crate::relay::{RelayEvent, TurnServer};
use crate::rendezvous::{Listing, ListingEvent, PathKind, Probe};
use crate::renet_guard::{ACK, Kept, PayloadGuard};
use crate::stun::{StunQuery, is_stun};
use crate::wire::{CountedSocket, WireCounts};

/// How many datagrams a second the host reads from one address: 2,000, four times what a
/// peer sends (its socket is served every 2 ms), with a burst of as many, room for a desync
/// report's state in slices. More is a flood, and is dropped unread before it costs a
/// decryption.
pub const DATAGRAMS_PER_SECOND: u64 = 2_000;

/// How many connection requests a second the host reads from one IP address: 16, with a
/// burst of 32, so that a LAN party or a test's peers on one machine all connect at once
/// (netcode repeats a request four times a second until it is answered), while a flood of
/// requests costs the host nothing but counting them.
pub const REQUESTS_PER_SECOND: u64 = 16;

/// The burst of [`REQUESTS_PER_SECOND`].
const REQUEST_BURST: u64 = 32;

/// netcode's packet types are 0 (connection request) to 6 (disconnect), in a first byte's
/// low four bits.
const LAST_PACKET_TYPE: u8 = 6;

/// The connection request, the one packet that carries no sequence number.
const CONNECTION_REQUEST: u8 = 0;

/// A sequence number is at most eight bytes (a `u64`), its length in the first byte's high
/// four bits.
const MAX_SEQUENCE_BYTES: u8 = 8;

/// The highest sequence number a packet may carry: `u64::MAX` less netcode's replay window
/// (256 packets). renetcode 2.0's replay check adds the window to the sequence before it
/// opens the packet, which overflows above this, and overflow checks are on in every build
/// (determinism rule), so such a datagram from anyone would panic the reader. A real
/// connection counts up from 0 a packet at a time and never comes near it.
pub const MAX_SEQUENCE: u64 = u64::MAX - REPLAY_WINDOW_PACKETS;

/// netcode's replay window, packets: see [`MAX_SEQUENCE`].
const REPLAY_WINDOW_PACKETS: u64 = 256;

/// The authentication tag that ends every packet but the connection request, bytes
/// (ChaCha20-Poly1305's).
const MAC_BYTES: usize = 16;

/// How much of a sealed packet's body is kept to tell whether netcode opened it, bytes: 16.
/// netcode decrypts a packet in place, and only once its tag is verified, so a body that
/// changed was opened; 16 bytes are the same before and after one time in 2^128 (netcode's
/// keep-alive has 8, also enough, at one in 2^64).
const PROBE_BYTES: usize = 16;

/// The first bytes of a well-formed packet's sealed body (after the prefix and the sequence
/// number, before the tag), as it came: see [`PROBE_BYTES`].
#[derive(Clone, Copy)]
struct SealedProbe {
    bytes: [u8; PROBE_BYTES],
    len: usize,
}

impl SealedProbe {
    /// The probe of `datagram`, which [`well_formed`] passed and is no connection request.
    fn of(datagram: &[u8]) -> Self {
        let body = sealed_body(datagram);
        let len = body.len().min(PROBE_BYTES);
        let mut bytes = [0; PROBE_BYTES];
        bytes[..len].copy_from_slice(&body[..len]);
        Self { bytes, len }
    }

    /// Whether `datagram`, the same one after netcode had it, was opened (decrypted in place).
    /// An empty body tells nothing: the packets that have one (a goodbye) say so otherwise.
    fn opened(&self, datagram: &[u8]) -> bool {
        let body = sealed_body(datagram);
        self.len > 0 && body.get(..self.len) != Some(&self.bytes[..self.len])
    }
}

/// The sealed body of a well-formed packet that is no connection request.
fn sealed_body(datagram: &[u8]) -> &[u8] {
    let start = 1 + usize::from(datagram.first().map_or(0, |prefix| prefix >> 4));
    datagram.get(start..datagram.len().saturating_sub(MAC_BYTES)).unwrap_or_default()
}

/// What became of a connection request before netcode read it.
enum RequestAdmission {
    /// It goes on to netcode.
    Pass,
    /// It was turned away, for this reason.
    Turned(Reason),
}

/// Whether `datagram` is shaped as a netcode packet can be: a known packet type and, but for
/// a connection request, a sequence number no longer than a `u64` and no higher than
/// [`MAX_SEQUENCE`], followed by at least an authentication tag. Anything else is dropped
/// unread.
#[must_use]
pub fn well_formed(datagram: &[u8]) -> bool {
    let Some(&prefix) = datagram.first() else { return false };
    let (kind, sequence_bytes) = (prefix & 0x0F, prefix >> 4);
    if kind > LAST_PACKET_TYPE {
        return false;
    }
    if kind == CONNECTION_REQUEST {
        return true;
    }
    let sequence_end = 1 + usize::from(sequence_bytes);
    if sequence_bytes > MAX_SEQUENCE_BYTES || datagram.len() < sequence_end + MAC_BYTES {
        return false;
    }
    // Little-endian, as netcode writes it.
    let mut sequence = [0; 8];
    sequence[..usize::from(sequence_bytes)].copy_from_slice(&datagram[1..sequence_end]);
    u64::from_le_bytes(sequence) <= MAX_SEQUENCE
}

/// The host's end: netcode's server on a non-blocking socket, feeding a renet server.
#[derive(Debug)]
pub struct ServerLink {
    socket: HostSocket,
    netcode: NetcodeServer,
    buffer: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Every datagram read, by what became of it.
    reads: Reads,
    /// What the host keeps of its clients.
    clients: Clients,
    /// The key connect tokens are sealed with.
    key: SessionKey,
    /// netcode's time: since the Unix epoch, as its tokens are stamped.
    now: Duration,
    datagrams: RateLimiter<SocketAddr>,
    requests: RateLimiter<IpAddr>,
    /// What the host answers a LAN query with ([`crate::lan`]); `None`: nothing.
    lan_answer: Option<Vec<u8>>,
    /// The match's listing at a rendezvous ([`crate::rendezvous`]), if it has one.
    listing: Option<Listing>,
    /// What the listing learned since the host last asked.
    listing_events: Vec<ListingEvent>,
    /// Asking STUN servers for the host's public address, if it does.
    stun: Option<StunQuery>,
    /// What happened to the relay's allocation since the host last asked.
    relay_events: Vec<RelayEvent>,
}

impl ServerLink {
    /// netcode's server as `config` says, on `socket`, opening connect tokens with `key`
    /// (the one `config`'s authentication names).
    ///
    /// # Errors
    ///
    /// If the socket cannot be made non-blocking.
    pub fn new(config: ServerConfig, key: SessionKey, socket: UdpSocket) -> io::Result<Self> {
        Ok(Self {
            socket: HostSocket::new(socket)?,
            now: config.current_time,
            netcode: NetcodeServer::new(config),
            buffer: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            reads: Reads::default(),
            clients: Clients::default(),
            key,
            datagrams: RateLimiter::new(DATAGRAMS_PER_SECOND, DATAGRAMS_PER_SECOND),
            requests: RateLimiter::new(REQUESTS_PER_SECOND, REQUEST_BURST),
            lan_answer: None,
            listing: None,
            listing_events: Vec::new(),
            stun: None,
            relay_events: Vec::new(),
        })
    }

    /// Allocates an address on the TURN relay `server` from now on, which the listing offers
    /// joiners once the relay gave it ([`crate::relay`]).
    ///
    /// # Errors
    ///
    /// If the socket has no address.
    pub fn relay_through(&mut self, server: &TurnServer) -> io::Result<()> {
        self.socket.relay_through(server)
    }

    /// The address the relay gave the host, once it did.
    #[must_use]
    pub fn relayed_address(&self) -> Option<SocketAddr> {
        self.socket.relayed_address()
    }

    /// Connected clients whose packets the relay carries.
    #[must_use]
    pub fn relayed_clients(&self) -> usize {
        self.clients.connected.keys().filter(|&&a| self.socket.carries(a)).count()
    }

    /// What happened to the relay's allocation since the last call.
    pub fn drain_relay_events(&mut self) -> std::vec::Drain<'_, RelayEvent> {
        self.relay_events.drain(..)
    }

    /// Asks `servers` for the host's public address from now on (see [`crate::stun`]).
    pub fn learn_public_address(&mut self, servers: Vec<SocketAddr>) {
        self.stun = Some(StunQuery::new(servers));
    }

    /// The host's public address as a STUN server saw it, and that server.
    #[must_use]
    pub fn stun_learned(&self) -> Option<(SocketAddr, SocketAddr)> {
        self.stun.as_ref().and_then(StunQuery::learned)
    }

    /// Lists the match at a rendezvous with `listing` from now on (`None`: ends the listing
    /// it had, telling the rendezvous).
    pub fn set_listing(&mut self, listing: Option<Listing>) {
        if let Some((to, unlist)) = self.listing.as_ref().and_then(Listing::unlist) {
            let _ = self.socket.send_to(&unlist, to);
        }
        self.listing = listing;
    }

    /// Stops renewing the match's listing without ending it: the match's next host renews
    /// it from its own socket, under the same code.
    pub fn leave_listing(&mut self) {
        self.listing = None;
    }

    /// The match's listing at a rendezvous, if it has one.
    #[must_use]
    pub const fn listing(&self) -> Option<&Listing> {
        self.listing.as_ref()
    }

    /// The match's listing, to change what it gives.
    pub const fn listing_mut(&mut self) -> Option<&mut Listing> {
        self.listing.as_mut()
    }

    /// What the listing learned since the last call.
    pub fn drain_listing_events(&mut self) -> std::vec::Drain<'_, ListingEvent> {
        self.listing_events.drain(..)
    }

    /// Answers LAN queries with `answer` from now on (`None`: not at all).
    pub fn set_lan_answer(&mut self, answer: Option<Vec<u8>>) {
        self.lan_answer = answer;
    }

    /// Clients whose payloads showed they mean harm since the last call: renet reads nothing
    /// more of theirs, and the session should drop them.
    pub fn drain_cut_off(&mut self) -> std::vec::Drain<'_, ClientId> {
        self.clients.cut_off.drain(..)
    }

    /// `client`'s reliable channel handed a message on.
    pub fn took_reliable(&mut self, client: ClientId) {
        if let Some(guard) = self.clients.guards.get_mut(&client) {
            guard.took_reliable();
        }
    }

    /// The addresses peers may connect to.
    #[must_use]
    pub fn addresses(&self) -> Vec<SocketAddr> {
        self.netcode.addresses()
    }

    /// Every datagram read so far, by what became of it.
    #[must_use]
    pub const fn reads(&self) -> Reads {
        self.reads
    }

    /// What crossed the socket so far.
    #[must_use]
    pub fn wire(&self) -> WireCounts {
        self.socket.counts()
    }

    /// Advances netcode by `elapsed` and hands it everything the socket holds, then lets it
    /// time out silent clients and send the disconnections renet asked for.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn update(&mut self, elapsed: Duration, server: &mut RenetServer) -> io::Result<()> {
        self.netcode.update(elapsed);
        self.now += elapsed;
        for event in self.socket.tick(self.now) {
            if let (RelayEvent::Allocated(address), Some(listing)) = (&event, &mut self.listing) {
                listing.set_candidate(PathKind::Relayed, Some(*address));
            }
            self.relay_events.push(event);
        }
        loop {
            match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((len, from)) => {
                    let reason = self.read(len, from, server);
                    self.reads.count(reason);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => break,
                // An earlier datagram's destination was unreachable: nothing to do here.
                Err(e) if e.kind() == io::ErrorKind::ConnectionReset => {}
                Err(e) => return Err(e),
            }
        }
        for client in self.netcode.clients_id() {
            let result = self.netcode.update_client(client);
            let _ = handle(result, &mut self.socket, server, &mut self.clients);
        }
        if let Some((to, request)) = self.stun.as_mut().and_then(|q| q.poll(self.now)) {
            let _ = self.socket.send_to(&request, to);
        }
        if let Some(listing) = &mut self.listing {
            for (to, datagram) in listing.poll(self.now) {
                // A joiner's address that cannot be sent to (another network's) is one less.
                let _ = self.socket.send_to(&datagram, to);
            }
        }
        for client in server.disconnections_id() {
            let result = self.netcode.disconnect(client);
            let _ = handle(result, &mut self.socket, server, &mut self.clients);
        }
        Ok(())
    }

    /// Acts on the datagram of `len` bytes in the buffer, from `from`, and says what became
    /// of it: each check in turn, then netcode, then (for a payload) the guard.
    fn read(&mut self, len: usize, from: SocketAddr, server: &mut RenetServer) -> Reason {
        // What the relay carried is read as from its peer, under that peer's limits.
        let (len, from) = match self.socket.unwrap_relayed(&mut self.buffer[..], len, from) {
            Some(Some(carried)) => carried,
            Some(None) => return Reason::Rendezvous,
            None => (len, from),
        };
        if !self.datagrams.allow(from, self.now) {
            return Reason::Flooded;
        }
        let datagram = &self.buffer[..len];
        if crate::lan::is_query(datagram) {
            // No longer than the query (see `lan`); a lost answer is asked again.
            if let Some(answer) = &self.lan_answer {
                let _ = self.socket.send_to(answer, from);
            }
            return Reason::LanQuery;
        }
        if let Some(query) = &mut self.stun
            && is_stun(datagram)
        {
            if query.receive(from, datagram)
                && let Some((learned, _)) = query.learned()
                && let Some(listing) = &mut self.listing
            {
                listing.set_candidate(PathKind::Public, Some(learned));
            }
            return Reason::Rendezvous;
        }
        if let Some(listing) = &mut self.listing
            && (crate::rendezvous::is_rendezvous(datagram) || Probe::read(datagram).is_some())
        {
            // A probe is answered with one as long; a rendezvous's news is taken.
            if let Some(answer) = listing.answer_probe(datagram) {
                let _ = self.socket.send_to(&answer, from);
            } else if let Some(event) = listing.receive(from, datagram, self.now) {
                // A joiner the relay may have to carry is let through it.
                if let ListingEvent::Wanted { joiner } = &event {
                    for candidate in joiner {
                        self.socket.permit(candidate.address.ip());
                    }
                }
                self.listing_events.push(event);
            }
            return Reason::Rendezvous;
        }
        if !well_formed(datagram) {
            return Reason::NotNetcode;
        }
        // The packet type is the first byte's low four bits, whatever the high four say.
        let request = datagram[0] & 0x0F == CONNECTION_REQUEST;
        if request && let RequestAdmission::Turned(reason) = self.admit(from, len) {
            return reason;
        }
        let probe = (!request).then(|| SealedProbe::of(&self.buffer[..len]));
        let connected = self.clients.connected.contains_key(&from);
        let result = self.netcode.process_packet(from, &mut self.buffer[..len]);
        let taken = handle(result, &mut self.socket, server, &mut self.clients);
        match (taken, probe) {
            (Some(reason), _) => reason,
            (None, None) => Reason::RequestDeclined,
            (None, Some(_)) if !connected => Reason::UnknownAddress,
            // A keep-alive, or a packet out of place for the connection's state.
            (None, Some(probe)) if probe.opened(&self.buffer[..len]) => Reason::Netcode,
            (None, Some(_)) => Reason::Unopened,
        }
    }

    /// Whether the connection request of `len` bytes in the buffer, from `from`, goes on to
    /// netcode: within its IP address's rate, and with a token the host can open and that is
    /// still good. A peer whose token is not is told why; a request turned away says why.
    fn admit(&mut self, from: SocketAddr, len: usize) -> RequestAdmission {
        if !self.requests.allow(from.ip(), self.now) {
            return RequestAdmission::Turned(Reason::RequestFlooded);
        }
        match check_request(&self.buffer[..len], &self.key, self.now.as_secs()) {
            RequestCheck::Pass => RequestAdmission::Pass,
            RequestCheck::Ignore => RequestAdmission::Turned(Reason::RequestIgnored),
            RequestCheck::Refuse(refusal) => {
                // Shorter than the request: no one can use the host to flood a third party.
                let _ = self.socket.send_to(&refusal.datagram(), from);
                RequestAdmission::Turned(Reason::RequestRefused)
            }
        }
    }

    /// Sends what renet has for each client: its messages, and its acknowledgements only when
    /// the client sent something reliable since the last ones went (see
    /// [`PayloadGuard::owes_ack`]). A packet that cannot be sealed or sent waits for renet's
    /// resend; the rest of that client's packets go the same way.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        for client in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client) else { continue };
            let guard = self.clients.guards.entry(client).or_default();
            for packet in packets {
                if packet.first() == Some(&ACK) && !guard.owes_ack() {
                    continue;
                }
                let Ok((to, payload)) = self.netcode.generate_payload_packet(client, &packet)
                else {
                    break;
                };
                if self.socket.send_to(payload, to).is_err() {
                    break;
                }
            }
        }
    }

    /// Disconnects every client at once, telling each, ends the match's listing and gives its
    /// relay's allocation back.
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        self.set_listing(None);
        self.socket.release_relay();
        for client in self.netcode.clients_id() {
            let result = self.netcode.disconnect(client);
            let _ = handle(result, &mut self.socket, server, &mut self.clients);
        }
    }
}

/// What a host keeps of its clients besides netcode's own.
#[derive(Debug, Default)]
struct Clients {
    /// Each connected client's checks of what renet reads.
    guards: HashMap<ClientId, PayloadGuard>,
    /// Clients whose payloads showed they mean harm, for the session to drop.
    cut_off: Vec<ClientId>,
    /// The connected clients' addresses, to tell a packet that did not open from one no key
    /// could open.
    connected: HashMap<SocketAddr, ClientId>,
}

/// Acts on what netcode made of a packet or an update, a payload only if its client's guard
/// lets renet read it (a client that sent one meaning harm is cut off), and keeps the
/// connected addresses up to date. Returns what became of a packet that netcode took (`None` for one
/// it made nothing of). A reply that cannot be sent is lost like any datagram; netcode and
/// renet resend what matters.
fn handle(
    result: ServerResult<'_, '_>,
    socket: &mut HostSocket,
    server: &mut RenetServer,
    clients: &mut Clients,
) -> Option<Reason> {
    let Clients { guards, cut_off, connected } = clients;
    match result {
        ServerResult::None => None,
        ServerResult::PacketToSend { payload, addr } => {
            let _ = socket.send_to(payload, addr);
            Some(Reason::Netcode)
        }
        ServerResult::Payload { client_id, payload } => {
            Some(match guards.entry(client_id).or_default().to_server(server, client_id, payload) {
                Kept::Read => Reason::Payload,
                Kept::Dropped => Reason::GuardDropped,
                Kept::CutOff => {
                    cut_off.push(client_id);
                    Reason::GuardCutOff
                }
            })
        }
        ServerResult::ClientConnected { client_id, addr, payload, .. } => {
            // Its guard is made with its first payload.
            server.add_connection(client_id);
            connected.insert(addr, client_id);
            let _ = socket.send_to(payload, addr);
            Some(Reason::Netcode)
        }
        ServerResult::ClientDisconnected { client_id, addr, payload } => {
            guards.remove(&client_id);
            server.remove_connection(client_id);
            if connected.get(&addr) == Some(&client_id) {
                connected.remove(&addr);
            }
            if let Some(payload) = payload {
                let _ = socket.send_to(payload, addr);
            }
            Some(Reason::Netcode)
        }
    }
}

/// A peer's end: netcode's client on a non-blocking socket, feeding a renet client.
#[derive(Debug)]
pub struct ClientLink {
    socket: CountedSocket,
    netcode: NetcodeClient,
    buffer: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Datagrams and payloads dropped unread.
    malformed: u64,
    /// The checks of what renet reads from the host.
    guard: PayloadGuard,
    /// The address the peer dialled (netcode moves on to a token's next one if it gets no
    /// answer).
    host: SocketAddr,
    /// The host's refusal of the connection request, if it said one.
    refused: Option<Refusal>,
}

impl ClientLink {
    /// A client connecting as `authentication` says, on `socket`, at `now` since the Unix
    /// epoch.
    ///
    /// # Errors
    ///
    /// If the socket cannot be made non-blocking or netcode refuses the authentication.
    pub fn new(
        now: Duration,
        authentication: ClientAuthentication,
        socket: UdpSocket,
    ) -> Result<Self, NetcodeError> {
        let socket = CountedSocket::new(socket)?;
        let netcode = NetcodeClient::new(now, authentication)?;
        Ok(Self {
            host: netcode.server_addr(),
            netcode,
            socket,
            buffer: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            malformed: 0,
            guard: PayloadGuard::new(),
            refused: None,
        })
    }

    /// The host's refusal of the connection request, if it said one.
    #[must_use]
    pub const fn refused(&self) -> Option<Refusal> {
        self.refused
    }

    /// Datagrams dropped unread by [`well_formed`] so far, and payloads the guard kept from
    /// renet.
    #[must_use]
    pub const fn malformed(&self) -> u64 {
        self.malformed
    }

    /// The reliable channel handed a message on.
    pub fn took_reliable(&mut self) {
        self.guard.took_reliable();
    }

    /// What crossed the socket so far.
    #[must_use]
    pub fn wire(&self) -> WireCounts {
        self.socket.counts()
    }

    /// Why netcode ended the connection, if it did.
    #[must_use]
    pub fn disconnect_reason(&self) -> Option<DisconnectReason> {
        self.netcode.disconnect_reason()
    }

    /// Advances netcode by `elapsed` and hands it what the host sent (datagrams from anyone
    /// else are dropped), then sends what netcode has to say (a request, a keep-alive).
    ///
    /// # Errors
    ///
    /// If netcode ended the connection or the socket fails.
    pub fn update(&mut self, elapsed: Duration, client: &mut RenetClient) -> Result<(), String> {
        if let Some(reason) = self.netcode.disconnect_reason() {
            client.disconnect_due_to_transport();
            return Err(reason.to_string());
        }
        if let Some(reason) = client.disconnect_reason() {
            if let Ok((to, packet)) = self.netcode.disconnect() {
                let _ = self.socket.send_to(packet, to);
            }
            return Err(reason.to_string());
        }
        if self.netcode.server_addr() != self.host {
            // netcode gave up on the dialled address and would try a token's next one.
            client.disconnect_due_to_transport();
            return Err("no answer".to_owned());
        }
        if self.netcode.is_connected() {
            client.set_connected();
        } else if self.netcode.is_connecting() {
            client.set_connecting();
        }
        loop {
            match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((len, from)) => {
                    if from != self.netcode.server_addr() {
                        continue;
                    }
                    if self.netcode.is_connecting()
                        && let Some(refusal) = Refusal::read(&self.buffer[..len])
                    {
                        self.refused = Some(refusal);
                        continue;
                    }
                    if !well_formed(&self.buffer[..len]) {
                        self.malformed += 1;
                        continue;
                    }
                    if let Some(payload) = self.netcode.process_packet(&mut self.buffer[..len])
                        && self.guard.to_client(client, payload)
                    {
                        self.malformed += 1;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => break,
                Err(e) => return Err(e.to_string()),
            }
        }
        if let Some((packet, to)) = self.netcode.update(elapsed) {
            self.socket.send_to(packet, to).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Sends what renet has to send.
    ///
    /// # Errors
    ///
    /// If netcode ended the connection, or a packet cannot be sealed or sent.
    pub fn send_packets(&mut self, client: &mut RenetClient) -> Result<(), String> {
        if let Some(reason) = self.netcode.disconnect_reason() {
            return Err(reason.to_string());
        }
        for packet in client.get_packets_to_send() {
            if packet.first() == Some(&ACK) && !self.guard.owes_ack() {
                continue;
            }
            let (to, payload) =
                self.netcode.generate_payload_packet(&packet).map_err(|e| e.to_string())?;
            self.socket.send_to(payload, to).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Tells the host goodbye, once.
    pub fn disconnect(&mut self) {
        if self.netcode.is_disconnected() {
            return;
        }
        if let Ok((to, packet)) = self.netcode.disconnect() {
            let _ = self.socket.send_to(packet, to);
        }
    }
}
