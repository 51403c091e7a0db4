//! What crosses a rendezvous's socket, and the probes host and joiner punch with.
//!
//! Every datagram starts with a byte no netcode packet starts with (netcode's low four bits
//! name packet types 0 to 6), so a host's socket tells them from its peers' packets before
//! netcode reads them, as it tells a LAN query ([`crate::lan`]). What is sent to a rendezvous
//! is padded to [`REQUEST_BYTES`] and nothing it answers is longer, so nobody can use a
//! rendezvous to send a third party more than they sent it.

use std::net::SocketAddr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::join_code::JoinCode;

/// The first bytes of what is sent to a rendezvous: a first byte no netcode packet has, then
/// letters a person reading a capture recognises.
const REQUEST_PREFIX: &[u8] = b"\x0cFXRV";

/// The first bytes of what a rendezvous answers.
const ANSWER_PREFIX: &[u8] = b"\x0cFXRA";

/// The rendezvous protocol's version, after the prefix: a rendezvous reads no other.
const VERSION: u8 = 1;

/// The length of every datagram sent to a rendezvous, bytes: room for the most candidates
/// with IPv6 addresses, and the bound on anything a rendezvous sends.
pub const REQUEST_BYTES: usize = 256;

/// The most candidate addresses one side gives: its LAN address, its router's mapping, its
/// STUN-learned address and its relay, with room for a second network.
pub const MAX_CANDIDATES: usize = 8;

/// A listing's secret: whoever holds it renews or ends the listing, wherever it sends from
/// (a router that forgot its mapping moves the host to another public port).
pub type ListingSecret = [u8; 16];

/// How an address reaches a host or a joiner, which says how a session's path runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PathKind {
    /// Its address on its own network: a friend on the same network reaches it there.
    Local,
    /// A port its router maps to it on request (UPnP IGD, NAT-PMP or PCP).
    Mapped,
    /// Its public address as a rendezvous or a STUN server sees it: reached directly once
    /// both routers let the other side's datagrams in (hole punching).
    Public,
    /// A TURN relay's address, which forwards to it: when nothing direct gets through.
    Relayed,
}

impl std::fmt::Display for PathKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Local => "local",
            Self::Mapped => "mapped",
            Self::Public => "direct",
            Self::Relayed => "relayed",
        })
    }
}

/// An address a host or a joiner may be reached at, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Candidate {
    /// How it reaches.
    pub kind: PathKind,
    /// Where.
    pub address: SocketAddr,
}

/// What a host or a joiner asks of a rendezvous.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// A host lists its match, or keeps its listing: `code` is the one it was given, or
    /// `None` to be given one.
    List {
        /// The code held, if any.
        code: Option<JoinCode>,
        /// The listing's secret, chosen by the host.
        secret: ListingSecret,
        /// Where the host may be reached besides where the rendezvous sees it.
        candidates: Vec<Candidate>,
    },
    /// A host ends its listing: the code is free.
    Unlist {
        /// The code.
        code: JoinCode,
        /// The listing's secret.
        secret: ListingSecret,
    },
    /// A joiner looks a code up, and asks its host to punch towards it.
    Lookup {
        /// The code read out.
        code: JoinCode,
        /// Where the joiner may be reached besides where the rendezvous sees it.
        candidates: Vec<Candidate>,
    },
}

/// What a rendezvous answers, or tells a host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The listing holds `code`; the host was seen at `observed`.
    Listed {
        /// The match's code.
        code: JoinCode,
        /// The host's public address as the rendezvous sees it.
        observed: SocketAddr,
    },
    /// No room for another listing (or for another from this address): try later.
    Full,
    /// The code names a listed match, reached at these addresses (where the rendezvous sees
    /// its host first); the joiner was seen at `observed`.
    Found {
        /// The code looked up.
        code: JoinCode,
        /// The host's addresses.
        host: Vec<Candidate>,
        /// The joiner's public address as the rendezvous sees it.
        observed: SocketAddr,
    },
    /// No match holds the code (it ended, or was never listed).
    Unknown {
        /// The code looked up.
        code: JoinCode,
    },
    /// To a host: a joiner looked its code up and may be reached at these addresses (where
    /// the rendezvous sees it first); punch towards them.
    Wanted {
        /// The host's code.
        code: JoinCode,
        /// The joiner's addresses.
        joiner: Vec<Candidate>,
    },
}

impl Request {
    /// The datagram that says it, padded to [`REQUEST_BYTES`], with no more than
    /// [`MAX_CANDIDATES`] candidates.
    #[must_use]
    pub fn datagram(&self) -> Vec<u8> {
        let mut fitted = self.clone();
        if let Self::List { candidates, .. } | Self::Lookup { candidates, .. } = &mut fitted {
            candidates.truncate(MAX_CANDIDATES);
        }
        let mut bytes = REQUEST_PREFIX.to_vec();
        bytes.push(VERSION);
        // Serializing codes, bytes and addresses into a Vec cannot fail.
        bytes.extend(postcard::to_allocvec(&fitted).unwrap_or_default());
        bytes.resize(REQUEST_BYTES.max(bytes.len()), 0);
        bytes
    }

    /// The request `datagram` holds, if it is a well-formed one of this version.
    #[must_use]
    pub fn read(datagram: &[u8]) -> Option<Self> {
        if datagram.len() != REQUEST_BYTES {
            return None;
        }
        let body = datagram.strip_prefix(REQUEST_PREFIX)?.strip_prefix(&[VERSION])?;
        let (request, _padding) = postcard::take_from_bytes::<Self>(body).ok()?;
        let codes_valid = match &request {
            Self::List { code, .. } => code.is_none_or(|c| c.is_valid()),
            Self::Unlist { code, .. } | Self::Lookup { code, .. } => code.is_valid(),
        };
        let few = match &request {
            Self::List { candidates, .. } | Self::Lookup { candidates, .. } => {
                candidates.len() <= MAX_CANDIDATES
            }
            Self::Unlist { .. } => true,
        };
        (codes_valid && few).then_some(request)
    }
}

impl Answer {
    /// The datagram that says it, with no more than [`MAX_CANDIDATES`] addresses: never
    /// longer than [`REQUEST_BYTES`].
    #[must_use]
    pub fn datagram(&self) -> Vec<u8> {
        let mut fitted = self.clone();
        if let Self::Found { host: addresses, .. } | Self::Wanted { joiner: addresses, .. } =
            &mut fitted
        {
            addresses.truncate(MAX_CANDIDATES);
        }
        let mut bytes = ANSWER_PREFIX.to_vec();
        bytes.push(VERSION);
        bytes.extend(postcard::to_allocvec(&fitted).unwrap_or_default());
        bytes
    }

    /// The answer `datagram` holds, if it is a well-formed one of this version.
    #[must_use]
    pub fn read(datagram: &[u8]) -> Option<Self> {
        if datagram.len() > REQUEST_BYTES {
            return None;
        }
        let body = datagram.strip_prefix(ANSWER_PREFIX)?.strip_prefix(&[VERSION])?;
        let answer = postcard::from_bytes::<Self>(body).ok()?;
        let valid = match &answer {
            Self::Full => true,
            Self::Listed { code, .. } | Self::Unknown { code } => code.is_valid(),
            Self::Found { code, host: addresses, .. }
            | Self::Wanted { code, joiner: addresses } => {
                code.is_valid() && addresses.len() <= MAX_CANDIDATES
            }
        };
        valid.then_some(answer)
    }
}

/// Whether `datagram` is for or from a rendezvous (well-formed or not): a host's socket hands
/// it to its listing rather than to netcode.
#[must_use]
pub fn is_rendezvous(datagram: &[u8]) -> bool {
    datagram.starts_with(REQUEST_PREFIX) || datagram.starts_with(ANSWER_PREFIX)
}

/// The first bytes of a probe: host and joiner send them to each other's candidates to open
/// their routers' paths, and answer each other's.
const PROBE_PREFIX: &[u8] = b"\x0bFXPR";

/// The first bytes of a probe's answer, as long as the probe.
const PROBE_ANSWER_PREFIX: &[u8] = b"\x0bFXPA";

/// A probe or its answer. Each names the match's code, so that a joiner whose probe of a
/// local address reaches another game's host on its own network is not answered by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Whether it answers a probe ("I heard you") or asks ("can you hear me?").
    pub answer: bool,
    /// The match's code.
    pub code: JoinCode,
    /// Ties an answer to its probe.
    pub nonce: u64,
}

/// When the next round of probes of a code goes, and the nonce of the last: what host and
/// joiner both keep while they probe each other.
#[derive(Clone, Copy, Debug)]
pub struct Probing {
    nonce: u64,
    next: Duration,
}

impl Probing {
    /// No probe sent yet; the first round goes at once.
    #[must_use]
    pub const fn new() -> Self {
        Self { nonce: 0, next: Duration::ZERO }
    }

    /// The probe of `code` to send to every address at `now`, if a round is due (the next one
    /// then [`super::PROBE_EVERY`] later).
    pub fn due(&mut self, code: JoinCode, now: Duration) -> Option<Vec<u8>> {
        if now < self.next {
            return None;
        }
        self.nonce = self.nonce.wrapping_add(1);
        self.next = now + super::PROBE_EVERY;
        Some(Probe { answer: false, code, nonce: self.nonce }.datagram())
    }

    /// The next round goes at once (the other side is probing already).
    pub const fn now(&mut self, now: Duration) {
        self.next = now;
    }

    /// Whether `nonce` is one of the probes sent: the answers that count.
    #[must_use]
    pub const fn sent(&self, nonce: u64) -> bool {
        nonce != 0 && nonce <= self.nonce
    }
}

/// A probe's length, bytes: prefix, code and nonce, the same both ways.
const PROBE_BYTES: usize = 5 + 6 + 8;

impl Probe {
    /// Its datagram: the prefix, the code and the nonce, the same length both ways.
    #[must_use]
    pub fn datagram(self) -> Vec<u8> {
        let prefix = if self.answer { PROBE_ANSWER_PREFIX } else { PROBE_PREFIX };
        let mut bytes = prefix.to_vec();
        bytes.extend(self.code.symbols());
        bytes.extend(self.nonce.to_le_bytes());
        bytes
    }

    /// The answer to this probe.
    #[must_use]
    pub const fn answered(self) -> Self {
        Self { answer: true, ..self }
    }

    /// The probe `datagram` is, if it is one.
    #[must_use]
    pub fn read(datagram: &[u8]) -> Option<Self> {
        if datagram.len() != PROBE_BYTES {
            return None;
        }
        let (answer, rest) = match datagram.strip_prefix(PROBE_PREFIX) {
            Some(rest) => (false, rest),
            None => (true, datagram.strip_prefix(PROBE_ANSWER_PREFIX)?),
        };
        let (symbols, nonce) = rest.split_at(6);
        let code = JoinCode::from_symbols(symbols.try_into().ok()?)?;
        Some(Self { answer, code, nonce: u64::from_le_bytes(nonce.try_into().ok()?) })
    }
}
