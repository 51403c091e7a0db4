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

use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

use renet::{ClientId, RenetClient, RenetServer};
use renetcode::{
    ClientAuthentication, DisconnectReason, NETCODE_MAX_PACKET_BYTES, NetcodeClient, NetcodeError,
    NetcodeServer, ServerConfig, ServerResult,
};

use crate::renet_guard::PayloadGuard;

/// netcode's packet types are 0 (connection request) to 6 (disconnect), in a first byte's
/// low four bits.
const LAST_PACKET_TYPE: u8 = 6;

/// The connection request, the one packet that carries no sequence number.
const CONNECTION_REQUEST: u8 = 0;

/// A sequence number is at most eight bytes (a `u64`), its length in the first byte's high
/// four bits.
const MAX_SEQUENCE_BYTES: u8 = 8;

/// The authentication tag that ends every packet but the connection request, bytes
/// (ChaCha20-Poly1305's).
const MAC_BYTES: usize = 16;

/// Whether `datagram` is shaped as a netcode packet can be: a known packet type and, but for
/// a connection request, a sequence number no longer than a `u64` followed by at least an
/// authentication tag. Anything else is dropped unread.
#[must_use]
pub fn well_formed(datagram: &[u8]) -> bool {
    let Some(&prefix) = datagram.first() else { return false };
    let (kind, sequence_bytes) = (prefix & 0x0F, prefix >> 4);
    if kind > LAST_PACKET_TYPE {
        return false;
    }
    kind == CONNECTION_REQUEST
        || (sequence_bytes <= MAX_SEQUENCE_BYTES
            && datagram.len() >= 1 + usize::from(sequence_bytes) + MAC_BYTES)
}

/// The host's end: netcode's server on a non-blocking socket, feeding a renet server.
#[derive(Debug)]
pub struct ServerLink {
    socket: UdpSocket,
    netcode: NetcodeServer,
    buffer: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Datagrams and payloads dropped unread, and connections ended for what they sent.
    malformed: u64,
    /// Each connected client's checks of what renet reads.
    guards: HashMap<ClientId, PayloadGuard>,
}

impl ServerLink {
    /// netcode's server as `config` says, on `socket`.
    ///
    /// # Errors
    ///
    /// If the socket cannot be made non-blocking.
    pub fn new(config: ServerConfig, socket: UdpSocket) -> io::Result<Self> {
        socket.set_nonblocking(true)?;
        Ok(Self {
            socket,
            netcode: NetcodeServer::new(config),
            buffer: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            malformed: 0,
            guards: HashMap::new(),
        })
    }

    /// `client`'s reliable channel handed a message on.
    pub fn took_reliable(&mut self, client: ClientId) {
        if let Some(guard) = self.guards.get_mut(&client) {
            guard.took_reliable();
        }
    }

    /// The addresses peers may connect to.
    #[must_use]
    pub fn addresses(&self) -> Vec<SocketAddr> {
        self.netcode.addresses()
    }

    /// Datagrams dropped unread by [`well_formed`] so far, and payloads a
    /// [`PayloadGuard`] kept from renet.
    #[must_use]
    pub const fn malformed(&self) -> u64 {
        self.malformed
    }

    /// Advances netcode by `elapsed` and hands it everything the socket holds, then lets it
    /// time out silent clients and send the disconnections renet asked for.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn update(&mut self, elapsed: Duration, server: &mut RenetServer) -> io::Result<()> {
        self.netcode.update(elapsed);
        loop {
            match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((len, from)) => {
                    if well_formed(&self.buffer[..len]) {
                        let result = self.netcode.process_packet(from, &mut self.buffer[..len]);
                        handle(result, &self.socket, server, &mut self.guards, &mut self.malformed);
                    } else {
                        self.malformed += 1;
                    }
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
            handle(result, &self.socket, server, &mut self.guards, &mut self.malformed);
        }
        for client in server.disconnections_id() {
            let result = self.netcode.disconnect(client);
            handle(result, &self.socket, server, &mut self.guards, &mut self.malformed);
        }
        Ok(())
    }

    /// Sends what renet has for each client. A packet that cannot be sealed or sent waits for
    /// renet's resend; the rest of that client's packets go the same way.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        for client in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client) else { continue };
            for packet in packets {
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

    /// Disconnects every client at once, telling each.
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        for client in self.netcode.clients_id() {
            let result = self.netcode.disconnect(client);
            handle(result, &self.socket, server, &mut self.guards, &mut self.malformed);
        }
    }
}

/// Acts on what netcode made of a packet or an update, a payload only if its client's guard
/// lets renet read it; a payload kept from renet is counted in `malformed`. A reply that cannot
/// be sent is lost like any datagram; netcode and renet resend what matters.
fn handle(
    result: ServerResult<'_, '_>,
    socket: &UdpSocket,
    server: &mut RenetServer,
    guards: &mut HashMap<ClientId, PayloadGuard>,
    malformed: &mut u64,
) {
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => {
            let _ = socket.send_to(payload, addr);
        }
        ServerResult::Payload { client_id, payload } => {
            if guards.entry(client_id).or_default().to_server(server, client_id, payload) {
                *malformed += 1;
            }
        }
        ServerResult::ClientConnected { client_id, addr, payload, .. } => {
            // Its guard is made with its first payload.
            server.add_connection(client_id);
            let _ = socket.send_to(payload, addr);
        }
        ServerResult::ClientDisconnected { client_id, addr, payload } => {
            guards.remove(&client_id);
            server.remove_connection(client_id);
            if let Some(payload) = payload {
                let _ = socket.send_to(payload, addr);
            }
        }
    }
}

/// A peer's end: netcode's client on a non-blocking socket, feeding a renet client.
#[derive(Debug)]
pub struct ClientLink {
    socket: UdpSocket,
    netcode: NetcodeClient,
    buffer: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Datagrams and payloads dropped unread.
    malformed: u64,
    /// The checks of what renet reads from the host.
    guard: PayloadGuard,
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
        socket.set_nonblocking(true)?;
        Ok(Self {
            netcode: NetcodeClient::new(now, authentication)?,
            socket,
            buffer: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            malformed: 0,
            guard: PayloadGuard::new(),
        })
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
