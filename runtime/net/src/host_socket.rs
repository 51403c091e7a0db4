//! The host's socket, with the peers its TURN relay carries: what goes to such a peer is
//! wrapped for the relay, and what the relay brings is unwrapped and read as from that peer,
//! so netcode and renet never know a peer is relayed.

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

use crate::relay::{Relay, RelayEvent, TurnServer};
use crate::wire::{CountedSocket, WireCounts};

/// A host's socket, counted, with its relay if it has one.
#[derive(Debug)]
pub struct HostSocket {
    socket: CountedSocket,
    relay: Option<Relay>,
    /// Where the socket is bound, which the relay's messages are addressed to.
    local: Option<SocketAddr>,
    /// The host's time, for the relay's timers.
    now: Duration,
}

impl HostSocket {
    /// `socket`, made non-blocking.
    ///
    /// # Errors
    ///
    /// If it cannot be.
    pub fn new(socket: UdpSocket) -> io::Result<Self> {
        let local = socket.local_addr().ok();
        Ok(Self { socket: CountedSocket::new(socket)?, relay: None, local, now: Duration::ZERO })
    }

    /// Allocates on `server` from now on (replacing any relay it had).
    ///
    /// # Errors
    ///
    /// If the socket has no address.
    pub fn relay_through(&mut self, server: &TurnServer) -> io::Result<()> {
        let local = self.socket.local_addr()?;
        self.local = Some(local);
        self.relay = Some(Relay::allocate(server, local));
        Ok(())
    }

    /// The address the relay gave the host, once it did.
    #[must_use]
    pub fn relayed_address(&self) -> Option<SocketAddr> {
        self.relay.as_ref().and_then(Relay::allocated)
    }

    /// Sets the host's time and sends what the relay has to send: returns what happened to
    /// the allocation.
    pub fn tick(&mut self, now: Duration) -> Vec<RelayEvent> {
        self.now = now;
        let Some(relay) = &mut self.relay else { return Vec::new() };
        let server = relay.server();
        for datagram in relay.poll(now) {
            let _ = self.socket.send_to(&datagram, server);
        }
        relay.drain_events().collect()
    }

    /// Whether what goes to `to` goes through the relay.
    #[must_use]
    pub fn carries(&self, to: SocketAddr) -> bool {
        self.relay.as_ref().is_some_and(|r| r.carries(to))
    }

    /// Gives the relay's allocation back (the host stops).
    pub fn release_relay(&mut self) {
        if let Some(relay) = &mut self.relay {
            let server = relay.server();
            for datagram in relay.release(self.now) {
                let _ = self.socket.send_to(&datagram, server);
            }
        }
    }

    /// Lets a joiner's IP address through the relay.
    pub fn permit(&mut self, ip: std::net::IpAddr) {
        if let Some(relay) = &mut self.relay {
            relay.permit(ip, self.now);
            let server = relay.server();
            for datagram in relay.poll(self.now) {
                let _ = self.socket.send_to(&datagram, server);
            }
        }
    }

    /// Sends `datagram` to `to`, through the relay if `to` is a peer it carries (a datagram
    /// for a peer not yet permitted is lost, as on any link).
    ///
    /// # Errors
    ///
    /// The socket's.
    pub fn send_to(&mut self, datagram: &[u8], to: SocketAddr) -> io::Result<usize> {
        if let Some(relay) = &mut self.relay
            && relay.carries(to)
        {
            let server = relay.server();
            return match relay.wrap(to, datagram, self.now) {
                Some(wrapped) => self.socket.send_to(&wrapped, server),
                None => Ok(0),
            };
        }
        self.socket.send_to(datagram, to)
    }

    /// Receives a datagram into `buffer`.
    ///
    /// # Errors
    ///
    /// The socket's (`WouldBlock` when nothing waits).
    pub fn recv_from(&self, buffer: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.socket.recv_from(buffer)
    }

    /// If `from` is the relay: the peer's packet it carried in the first `len` bytes of
    /// `buffer`, moved to its start, as `(length, peer)`; `Some(None)` for the relay's own
    /// message. `None`: not from the relay.
    pub fn unwrap_relayed(
        &mut self,
        buffer: &mut [u8],
        len: usize,
        from: SocketAddr,
    ) -> Option<Option<(usize, SocketAddr)>> {
        let relay = self.relay.as_mut().filter(|r| r.server() == from)?;
        let local = self.local?;
        let Some((peer, data)) = relay.receive(local, buffer.get(..len)?, self.now) else {
            return Some(None);
        };
        let into = buffer.get_mut(..data.len())?;
        into.copy_from_slice(&data);
        Some(Some((data.len(), peer)))
    }

    /// What crossed the socket so far.
    #[must_use]
    pub fn counts(&self) -> WireCounts {
        self.socket.counts()
    }
}
