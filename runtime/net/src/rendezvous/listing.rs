//! A host's listing at a rendezvous, sans-IO: keeping its code, and punching towards the
//! joiners the rendezvous announces.

use std::net::SocketAddr;
use std::time::Duration;

use crate::join_code::JoinCode;

use super::message::{Answer, Candidate, ListingSecret, PathKind, Probe, Probing, Request};
use super::{LIST_EVERY, PUNCH_FOR};

/// How soon a host asks again while the rendezvous has not answered its listing: half a
/// second, so a lost first datagram costs a player little time before a code shows.
const LIST_RETRY: Duration = Duration::from_millis(500);

/// The most joiners a host punches towards at once: 16, more than join in the same few
/// seconds, so a flood of lookups cannot make a host send without bound.
const MAX_PUNCHES: usize = 16;

/// What a host's listing learned from its rendezvous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListingEvent {
    /// The match is listed under `code` (the first time, or a new code after the old one
    /// lapsed); the rendezvous sees the host at `observed`.
    Listed {
        /// The code to read out.
        code: JoinCode,
        /// The host's public address as the rendezvous sees it.
        observed: SocketAddr,
    },
    /// The rendezvous has no room: the host goes on without a code, and asks again.
    Full,
    /// A joiner looked the code up; the host punches towards it. Said once a joiner: its
    /// lookups while it dials renew the punching without news.
    Wanted {
        /// The joiner's addresses.
        joiner: Vec<Candidate>,
    },
}

/// Punching towards one joiner: probes to each of its addresses until `until`.
#[derive(Clone, Debug)]
struct Punch {
    joiner: Vec<Candidate>,
    until: Duration,
}

/// A host's listing at a rendezvous. The host's socket sends what [`poll`](Self::poll) says
/// and hands it what comes from the rendezvous ([`receive`](Self::receive)).
#[derive(Debug)]
pub struct Listing {
    rendezvous: SocketAddr,
    secret: ListingSecret,
    code: Option<JoinCode>,
    observed: Option<SocketAddr>,
    candidates: Vec<Candidate>,
    next_list: Duration,
    punches: Vec<Punch>,
    probing: Probing,
}

impl Listing {
    /// A listing at `rendezvous`, giving `candidates` (where the host may be reached besides
    /// where the rendezvous sees it), sealed with `secret`; the first request goes at once.
    #[must_use]
    pub fn new(rendezvous: SocketAddr, candidates: Vec<Candidate>, secret: ListingSecret) -> Self {
        Self {
            rendezvous,
            secret,
            code: None,
            observed: None,
            candidates,
            next_list: Duration::ZERO,
            punches: Vec::new(),
            probing: Probing::new(),
        }
    }

    /// The listing `code` holds at `rendezvous`, sealed with `secret`, renewed from this
    /// host from now on: a player that took its match over keeps the code its friends know,
    /// and the rendezvous tells them this host's addresses. The first renewal goes at once.
    #[must_use]
    pub fn resume(
        rendezvous: SocketAddr,
        code: JoinCode,
        secret: ListingSecret,
        candidates: Vec<Candidate>,
    ) -> Self {
        Self { code: Some(code), ..Self::new(rendezvous, candidates, secret) }
    }

    /// The listing's secret: whoever holds it renews the listing.
    #[must_use]
    pub const fn secret(&self) -> ListingSecret {
        self.secret
    }

    /// The rendezvous's address.
    #[must_use]
    pub const fn rendezvous(&self) -> SocketAddr {
        self.rendezvous
    }

    /// The match's code, once the rendezvous gave one.
    #[must_use]
    pub const fn code(&self) -> Option<JoinCode> {
        self.code
    }

    /// The host's public address as the rendezvous last saw it.
    #[must_use]
    pub const fn observed(&self) -> Option<SocketAddr> {
        self.observed
    }

    /// Gives `candidates` from now on (a mapping or a relay came, or went), at the next
    /// renewal, which is now.
    pub fn set_candidates(&mut self, candidates: Vec<Candidate>) {
        if candidates != self.candidates {
            self.candidates = candidates;
            self.next_list = Duration::ZERO;
        }
    }

    /// Gives `address` as the host's candidate of `kind` from now on, in place of any it
    /// gave of that kind (`None`: none of that kind).
    pub fn set_candidate(&mut self, kind: PathKind, address: Option<SocketAddr>) {
        let mut candidates: Vec<Candidate> =
            self.candidates.iter().copied().filter(|c| c.kind != kind).collect();
        candidates.extend(address.map(|address| Candidate { kind, address }));
        self.set_candidates(candidates);
    }

    /// What to send at `now` (any monotonic time): the listing when it is due, and probes to
    /// the joiners being punched towards.
    pub fn poll(&mut self, now: Duration) -> Vec<(SocketAddr, Vec<u8>)> {
        let mut out = Vec::new();
        if now >= self.next_list {
            let request = Request::List {
                code: self.code,
                secret: self.secret,
                candidates: self.candidates.clone(),
            };
            out.push((self.rendezvous, request.datagram()));
            self.next_list = now + if self.code.is_some() { LIST_EVERY } else { LIST_RETRY };
        }
        self.punches.retain(|p| now < p.until);
        if let Some(code) = self.code.filter(|_| !self.punches.is_empty())
            && let Some(probe) = self.probing.due(code, now)
        {
            for punch in &self.punches {
                out.extend(punch.joiner.iter().map(|c| (c.address, probe.clone())));
            }
        }
        out
    }

    /// Takes `datagram` from `from` at `now`: what the rendezvous said, if it came from it.
    pub fn receive(
        &mut self,
        from: SocketAddr,
        datagram: &[u8],
        now: Duration,
    ) -> Option<ListingEvent> {
        if from != self.rendezvous {
            return None;
        }
        match Answer::read(datagram)? {
            Answer::Listed { code, observed } => {
                // A resumed listing's first answer is news too: the code holds here now.
                let new = self.code != Some(code) || self.observed.is_none();
                self.code = Some(code);
                self.observed = Some(observed);
                self.next_list = now + LIST_EVERY;
                new.then_some(ListingEvent::Listed { code, observed })
            }
            Answer::Full => Some(ListingEvent::Full),
            Answer::Wanted { code, joiner } if Some(code) == self.code => {
                let until = now + PUNCH_FOR;
                // Punch at once: the joiner is probing already.
                self.probing.now(now);
                if let Some(punch) = self.punches.iter_mut().find(|p| p.joiner == joiner) {
                    // The joiner looking up again: punched on for longer, and no news.
                    punch.until = until;
                    return None;
                }
                if self.punches.len() >= MAX_PUNCHES {
                    return None;
                }
                self.punches.push(Punch { joiner: joiner.clone(), until });
                Some(ListingEvent::Wanted { joiner })
            }
            Answer::Wanted { .. } | Answer::Found { .. } | Answer::Unknown { .. } => None,
        }
    }

    /// Whether a probe of `datagram` is one this host answers, and the answer: a probe of
    /// its own code.
    #[must_use]
    pub fn answer_probe(&self, datagram: &[u8]) -> Option<Vec<u8>> {
        let probe = Probe::read(datagram)?;
        (!probe.answer && Some(probe.code) == self.code).then(|| probe.answered().datagram())
    }

    /// The request that ends the listing, to send as the host stops (the code lapses
    /// anyway after [`super::LISTING_TIMEOUT`] if it is lost).
    #[must_use]
    pub fn unlist(&self) -> Option<(SocketAddr, Vec<u8>)> {
        let code = self.code?;
        Some((self.rendezvous, Request::Unlist { code, secret: self.secret }.datagram()))
    }
}
