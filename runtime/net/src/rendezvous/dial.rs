//! A joiner dialling a code, sans-IO: the lookup at the rendezvous, then probes to every
//! address of the host until one answers, while the host punches back.

use std::net::SocketAddr;
use std::time::Duration;

use crate::join_code::JoinCode;

use super::message::{Answer, Candidate, PathKind, Probe, Probing, Request};
use super::{DIAL_TIMEOUT, LOOKUP_EVERY, RELAY_GRACE};

/// Where a dialled code's host is reached, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialled {
    /// The host's address that answered, and how it reaches the host.
    pub host: Candidate,
    /// This joiner's public address as the rendezvous saw it.
    pub observed: Option<SocketAddr>,
    /// From the first lookup to the answer.
    pub took: Duration,
}

/// Why a code could not be dialled.
#[derive(Debug, thiserror::Error)]
pub enum DialError {
    /// The joiner's socket failed.
    #[error("the socket dialling from: {0}")]
    Socket(#[source] std::io::Error),
    /// The rendezvous never answered.
    #[error(
        "the rendezvous at {rendezvous} did not answer within {}s (is it running, and reachable from here?)",
        DIAL_TIMEOUT.as_secs()
    )]
    NoRendezvous {
        /// Its address.
        rendezvous: SocketAddr,
    },
    /// No match holds the code.
    #[error(
        "no match holds the code {code} at the rendezvous at {rendezvous}: it ended, or the code was misread"
    )]
    Unknown {
        /// The code.
        code: JoinCode,
        /// The rendezvous asked.
        rendezvous: SocketAddr,
    },
    /// The host was found, but none of its addresses answered.
    #[error("the host of {code} answered at none of its addresses ({}) within {}s: its router and this one let nothing through, and it offers no relay", list(.tried), DIAL_TIMEOUT.as_secs())]
    Unreachable {
        /// The code.
        code: JoinCode,
        /// The host's addresses probed.
        tried: Vec<Candidate>,
    },
}

fn list(candidates: &[Candidate]) -> String {
    let each: Vec<String> =
        candidates.iter().map(|c| format!("{} {}", c.kind, c.address)).collect();
    each.join(", ")
}

/// Dialling a code. The joiner's socket (the one its session then runs on, so that the
/// paths the probes opened are the session's) sends what [`poll`](Self::poll) says and
/// hands it everything it reads ([`receive`](Self::receive)) until
/// [`outcome`](Self::outcome) says.
#[derive(Debug)]
pub struct Dial {
    rendezvous: SocketAddr,
    code: JoinCode,
    candidates: Vec<Candidate>,
    started: Option<Duration>,
    next_lookup: Duration,
    host: Vec<Candidate>,
    observed: Option<SocketAddr>,
    probing_since: Option<Duration>,
    probing: Probing,
    /// Host addresses that answered a probe, in the order they did.
    answered: Vec<Candidate>,
    outcome: Option<Result<Dialled, DialError>>,
}

impl Dial {
    /// Dialling `code` at `rendezvous`, giving `candidates` (where this joiner may be reached
    /// besides where the rendezvous sees it).
    #[must_use]
    pub const fn new(rendezvous: SocketAddr, code: JoinCode, candidates: Vec<Candidate>) -> Self {
        Self {
            rendezvous,
            code,
            candidates,
            started: None,
            next_lookup: Duration::ZERO,
            host: Vec::new(),
            observed: None,
            probing_since: None,
            probing: Probing::new(),
            answered: Vec::new(),
            outcome: None,
        }
    }

    /// Gives `candidate` too from the next lookup on (a STUN server's view of this joiner).
    pub fn add_candidate(&mut self, candidate: Candidate) {
        if !self.candidates.contains(&candidate) {
            self.candidates.push(candidate);
            self.next_lookup = Duration::ZERO;
        }
    }

    /// How it ended, once it did (taken: `None` after).
    pub const fn outcome(&mut self) -> Option<Result<Dialled, DialError>> {
        self.outcome.take()
    }

    /// Whether it ended.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// What to send at `now` (any monotonic time): lookups until the rendezvous answers (and
    /// now and then after, so the host goes on punching), probes to the host's addresses.
    pub fn poll(&mut self, now: Duration) -> Vec<(SocketAddr, Vec<u8>)> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let started = *self.started.get_or_insert(now);
        self.choose(now);
        if self.outcome.is_some() {
            return Vec::new();
        }
        if now.saturating_sub(started) >= DIAL_TIMEOUT {
            self.outcome = Some(Err(if self.host.is_empty() {
                DialError::NoRendezvous { rendezvous: self.rendezvous }
            } else {
                DialError::Unreachable { code: self.code, tried: self.host.clone() }
            }));
            return Vec::new();
        }
        let mut out = Vec::new();
        if now >= self.next_lookup {
            let lookup = Request::Lookup { code: self.code, candidates: self.candidates.clone() };
            out.push((self.rendezvous, lookup.datagram()));
            // Until an address answers, as often as before: a match whose host changed is
            // found at its new host's addresses as soon as that renews the listing. Then now
            // and then, for a host that missed the first news of this joiner.
            let every = if self.answered.is_empty() { LOOKUP_EVERY } else { 4 * LOOKUP_EVERY };
            self.next_lookup = now + every;
        }
        if !self.host.is_empty()
            && let Some(probe) = self.probing.due(self.code, now)
        {
            out.extend(self.host.iter().map(|c| (c.address, probe.clone())));
        }
        out
    }

    /// Takes `datagram` from `from` at `now`, and says what to send back if anything (the
    /// answer to a host's punch).
    pub fn receive(
        &mut self,
        from: SocketAddr,
        datagram: &[u8],
        now: Duration,
    ) -> Option<(SocketAddr, Vec<u8>)> {
        if self.outcome.is_some() {
            return None;
        }
        if from == self.rendezvous {
            match Answer::read(datagram)? {
                Answer::Found { code, host, observed } if code == self.code => {
                    if self.host.is_empty() {
                        self.probing_since = Some(now);
                        self.probing.now(now);
                    }
                    self.host = host;
                    self.observed = Some(observed);
                }
                Answer::Unknown { code } if code == self.code && self.host.is_empty() => {
                    self.outcome =
                        Some(Err(DialError::Unknown { code, rendezvous: self.rendezvous }));
                }
                _ => {}
            }
            return None;
        }
        let probe = Probe::read(datagram)?;
        if probe.code != self.code {
            return None;
        }
        if !probe.answer {
            // The host punching: answered, which opens the way for its own probes' answers.
            return Some((from, probe.answered().datagram()));
        }
        if !self.probing.sent(probe.nonce) {
            return None;
        }
        // An address the host did not give answers when its router maps each destination
        // anew: reached directly all the same.
        let kind =
            self.host.iter().find(|c| c.address == from).map_or(PathKind::Public, |c| c.kind);
        if !self.answered.iter().any(|c| c.address == from) {
            self.answered.push(Candidate { kind, address: from });
        }
        self.choose(now);
        None
    }

    /// Settles on a path once one answered: the first direct one, or the relay when nothing
    /// direct answered within [`RELAY_GRACE`] of the first probe.
    fn choose(&mut self, now: Duration) {
        if self.outcome.is_some() {
            return;
        }
        let direct = self.answered.iter().find(|c| c.kind != PathKind::Relayed);
        let waited =
            self.probing_since.is_some_and(|since| now.saturating_sub(since) >= RELAY_GRACE);
        let chosen = direct.or_else(|| self.answered.first().filter(|_| waited));
        if let Some(&host) = chosen {
            let took = now.saturating_sub(self.started.unwrap_or(now));
            self.outcome = Some(Ok(Dialled { host, observed: self.observed, took }));
        }
    }
}
