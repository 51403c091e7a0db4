//! Learning one's public address from STUN servers (RFC 8489's binding request), on the
//! socket the session runs on, so that the address learned is the one its router maps for it.
//! Messages are written and read with stun-types; what is asked and when is sans-IO
//! ([`StunQuery`]).

use std::net::SocketAddr;
use std::time::Duration;

use stun_types::attribute::XorMappedAddress;
use stun_types::message::{BINDING, Message, MessageWrite, MessageWriteVec, TransactionId};

/// The STUN servers asked unless the player names others: public ones that answer binding
/// requests for anyone (Google's and Cloudflare's), so that a player needs no server of its
/// own to learn its public address.
pub const DEFAULT_STUN_SERVERS: [&str; 2] = ["stun.l.google.com:19302", "stun.cloudflare.com:3478"];

/// STUN's magic cookie, bytes 4 to 8 of every message since RFC 5389: how a socket tells a
/// STUN answer from its other datagrams.
const MAGIC_COOKIE: [u8; 4] = [0x21, 0x12, 0xA4, 0x42];

/// A STUN message's header, bytes.
const HEADER_BYTES: usize = 20;

/// How often a server that did not answer is asked again: half a second (RFC 8489 starts at
/// its estimate of the round trip, 500 ms).
const RETRY_EVERY: Duration = Duration::from_millis(500);

/// How many times each server is asked before it is given up on: six, three seconds.
const TRIES: u32 = 6;

/// The IPv4 addresses of the STUN servers `names` (`HOST:PORT` each): the family a game's
/// sockets bind. A name that does not resolve is one server less. Blocks on the lookups.
#[must_use]
pub fn resolve(names: &[String]) -> Vec<SocketAddr> {
    names
        .iter()
        .filter_map(|name| {
            std::net::ToSocketAddrs::to_socket_addrs(name.as_str()).ok()?.find(SocketAddr::is_ipv4)
        })
        .collect()
}

/// Whether `datagram` looks like a STUN message: a header's length, the first two bits clear
/// and the magic cookie in its place (a netcode packet has it there one time in 4 billion,
/// and is then lost as a lost packet is).
#[must_use]
pub fn is_stun(datagram: &[u8]) -> bool {
    datagram.len() >= HEADER_BYTES
        && datagram[0] & 0xC0 == 0
        && datagram.get(4..8) == Some(&MAGIC_COOKIE[..])
}

/// A binding request, and its transaction.
#[must_use]
pub fn binding_request() -> (TransactionId, Vec<u8>) {
    let request = Message::builder_request(BINDING, MessageWriteVec::new()).finish();
    let transaction = Message::from_bytes(&request)
        .map_or_else(|_| TransactionId::generate(), |m| m.transaction_id());
    (transaction, request)
}

/// The address a binding response to `transaction` says the server saw, if `datagram` is
/// one.
#[must_use]
pub fn mapped_address(datagram: &[u8], transaction: TransactionId) -> Option<SocketAddr> {
    let message = Message::from_bytes(datagram).ok()?;
    if !message.is_response()
        || message.transaction_id() != transaction
        || !message.has_method(BINDING)
    {
        return None;
    }
    let mapped = message.attribute::<XorMappedAddress>().ok()?;
    Some(mapped.addr(transaction))
}

/// Asking STUN servers for one's public address: each in turn until one answers.
#[derive(Debug)]
pub struct StunQuery {
    servers: Vec<SocketAddr>,
    pending: Option<(usize, TransactionId)>,
    tries: u32,
    next_at: Duration,
    learned: Option<(SocketAddr, SocketAddr)>,
}

impl StunQuery {
    /// Asking `servers`, the first at once.
    #[must_use]
    pub const fn new(servers: Vec<SocketAddr>) -> Self {
        Self { servers, pending: None, tries: 0, next_at: Duration::ZERO, learned: None }
    }

    /// The public address learned, and the server that said it.
    #[must_use]
    pub const fn learned(&self) -> Option<(SocketAddr, SocketAddr)> {
        self.learned
    }

    /// Whether it is over: an address learned, or every server asked in vain.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.learned.is_some() || self.servers.is_empty()
    }

    /// What to send at `now` (any monotonic time).
    pub fn poll(&mut self, now: Duration) -> Option<(SocketAddr, Vec<u8>)> {
        if self.is_over() || now < self.next_at {
            return None;
        }
        let at = match self.pending {
            Some((at, _)) if self.tries >= TRIES => {
                // This one is silent: the next, or none.
                self.servers.remove(at);
                self.tries = 0;
                if self.servers.is_empty() {
                    return None;
                }
                at % self.servers.len()
            }
            Some((at, _)) => at,
            None => 0,
        };
        let (transaction, request) = binding_request();
        self.pending = Some((at, transaction));
        self.tries += 1;
        self.next_at = now + RETRY_EVERY;
        Some((self.servers[at], request))
    }

    /// Takes `datagram` from `from`: whether it was the answer awaited (the address is then
    /// [`learned`](Self::learned)).
    pub fn receive(&mut self, from: SocketAddr, datagram: &[u8]) -> bool {
        let Some((at, transaction)) = self.pending else { return false };
        if self.servers.get(at) != Some(&from) || self.learned.is_some() {
            return false;
        }
        let Some(mapped) = mapped_address(datagram, transaction) else { return false };
        self.learned = Some((mapped, from));
        true
    }
}
