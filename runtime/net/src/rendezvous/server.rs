//! The rendezvous itself, sans-IO: who is listed under which code, and who is looking.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use crate::join_code::JoinCode;
use crate::limiter::RateLimiter;

use super::message::{Answer, Candidate, ListingSecret, MAX_CANDIDATES, PathKind, Request};

/// The most matches a rendezvous lists at once: 65,536, a few hundred bytes each, so a
/// rendezvous for a large community stays within tens of megabytes; with
/// [`crate::join_code::ALPHABET`]'s 887 million codes, a random guess finds one of them about
/// once in 13,500 tries.
pub const MAX_LISTINGS: usize = 65_536;

/// The most matches listed from one IP address: 64, enough for the players behind one
/// carrier-grade NAT, too few for one sender to fill the rendezvous.
pub const MAX_LISTINGS_PER_IP: usize = 64;

/// How long a listing lasts without being renewed: 20 seconds, four of a host's renewals
/// ([`super::LIST_EVERY`]) lost in a row. A host that stops without a word frees its code then.
pub const LISTING_TIMEOUT: Duration = Duration::from_secs(20);

/// Requests a second a rendezvous takes from one IP address: 20, with a burst of 40. A host
/// renews every 5 s, and a joiner looks up four times a second while it dials, so a household
/// of players fits; guessing codes at this rate finds a match about once a day at the
/// rendezvous's fullest.
pub const REQUESTS_PER_SECOND: u64 = 20;

/// The burst of [`REQUESTS_PER_SECOND`].
const REQUEST_BURST: u64 = 40;

/// How many fresh codes a rendezvous draws before it says it is full: a draw collides with a
/// listed code at most once in 13,500 times, so eight misses in a row mean something is wrong
/// with the random source.
const CODE_DRAWS: usize = 8;

/// One listed match.
#[derive(Clone, Debug)]
struct Listing {
    secret: ListingSecret,
    /// Where the rendezvous sees its host: where joiners' news goes.
    observed: SocketAddr,
    candidates: Vec<Candidate>,
    renewed: Duration,
}

/// A rendezvous: lists hosts under codes, gives a joiner its host's addresses and the host
/// the joiner's, and knows nothing of the game. Sans-IO: [`receive`](Self::receive) takes a
/// datagram and says what to send where; [`expire`](Self::expire) forgets hosts gone quiet.
pub struct RendezvousServer {
    listings: HashMap<JoinCode, Listing>,
    per_ip: HashMap<IpAddr, usize>,
    requests: RateLimiter<IpAddr>,
    draw: Box<dyn FnMut() -> JoinCode + Send>,
}

impl std::fmt::Debug for RendezvousServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RendezvousServer").field("listings", &self.listings.len()).finish()
    }
}

impl Default for RendezvousServer {
    fn default() -> Self {
        Self::new(JoinCode::random)
    }
}

impl RendezvousServer {
    /// A rendezvous drawing fresh codes from `draw` (the operating system's random source in
    /// [`Default`]; a test's sequence otherwise).
    #[must_use]
    pub fn new(draw: impl FnMut() -> JoinCode + Send + 'static) -> Self {
        Self {
            listings: HashMap::new(),
            per_ip: HashMap::new(),
            requests: RateLimiter::new(REQUESTS_PER_SECOND, REQUEST_BURST),
            draw: Box::new(draw),
        }
    }

    /// Matches listed now.
    #[must_use]
    pub fn listed(&self) -> usize {
        self.listings.len()
    }

    /// Takes `datagram` from `from` at `now` (any monotonic time) and says what to send where:
    /// nothing for what is no request, or comes too fast from its address.
    pub fn receive(
        &mut self,
        from: SocketAddr,
        datagram: &[u8],
        now: Duration,
    ) -> Vec<(SocketAddr, Vec<u8>)> {
        if !self.requests.allow(from.ip(), now) {
            return Vec::new();
        }
        let Some(request) = Request::read(datagram) else { return Vec::new() };
        match request {
            Request::List { code, secret, candidates } => {
                let answer = self.list(from, code, secret, candidates, now);
                vec![(from, answer.datagram())]
            }
            Request::Unlist { code, secret } => {
                if self.listings.get(&code).is_some_and(|l| l.secret == secret) {
                    self.remove(code);
                }
                Vec::new()
            }
            Request::Lookup { code, candidates } => self.lookup(from, code, candidates),
        }
    }

    /// Forgets the listings not renewed within [`LISTING_TIMEOUT`] of `now`.
    pub fn expire(&mut self, now: Duration) {
        let stale: Vec<JoinCode> = self
            .listings
            .iter()
            .filter(|(_, l)| now.saturating_sub(l.renewed) >= LISTING_TIMEOUT)
            .map(|(code, _)| *code)
            .collect();
        for code in stale {
            self.remove(code);
        }
    }

    fn list(
        &mut self,
        from: SocketAddr,
        code: Option<JoinCode>,
        secret: ListingSecret,
        candidates: Vec<Candidate>,
        now: Duration,
    ) -> Answer {
        let listing = Listing { secret, observed: from, candidates, renewed: now };
        // A renewal, maybe from a new public port.
        if let Some(code) = code
            && let Some(held) = self.listings.get(&code)
            && held.secret == secret
        {
            let moved_from = held.observed.ip();
            self.forget_ip(moved_from);
            *self.per_ip.entry(from.ip()).or_default() += 1;
            self.listings.insert(code, listing);
            return Answer::Listed { code, observed: from };
        }
        if self.listings.len() >= MAX_LISTINGS
            || self.per_ip.get(&from.ip()).copied().unwrap_or(0) >= MAX_LISTINGS_PER_IP
        {
            return Answer::Full;
        }
        // A host whose code lapsed (or whose rendezvous restarted) keeps it if it is free.
        let kept = code.filter(|c| !self.listings.contains_key(c));
        let Some(code) = kept.or_else(|| {
            (0..CODE_DRAWS).map(|_| (self.draw)()).find(|c| !self.listings.contains_key(c))
        }) else {
            return Answer::Full;
        };
        *self.per_ip.entry(from.ip()).or_default() += 1;
        self.listings.insert(code, listing);
        Answer::Listed { code, observed: from }
    }

    fn lookup(
        &self,
        from: SocketAddr,
        code: JoinCode,
        candidates: Vec<Candidate>,
    ) -> Vec<(SocketAddr, Vec<u8>)> {
        let Some(listing) = self.listings.get(&code) else {
            return vec![(from, Answer::Unknown { code }.datagram())];
        };
        let seen = |address, others: Vec<Candidate>| {
            let mut all = vec![Candidate { kind: PathKind::Public, address }];
            all.extend(others.into_iter().filter(|c| c.address != address));
            all.truncate(MAX_CANDIDATES);
            all
        };
        let host = seen(listing.observed, listing.candidates.clone());
        let joiner = seen(from, candidates);
        vec![
            (from, Answer::Found { code, host, observed: from }.datagram()),
            (listing.observed, Answer::Wanted { code, joiner }.datagram()),
        ]
    }

    fn remove(&mut self, code: JoinCode) {
        if let Some(listing) = self.listings.remove(&code) {
            self.forget_ip(listing.observed.ip());
        }
    }

    fn forget_ip(&mut self, ip: IpAddr) {
        if let Some(count) = self.per_ip.get_mut(&ip) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.per_ip.remove(&ip);
            }
        }
    }
}
