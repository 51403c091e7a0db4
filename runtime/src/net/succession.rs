//! Who hosts next: the order in which players would take a match over if its host went.
//!
//! Every peer holds the whole state of the match and every tick it ran, so a match can outlive
//! its host if the peers agree, without talking, on who hosts next and where to find it. The
//! host works the order out and tells every peer (players and spectators) whenever it changes:
//! each player that offered to host, with the addresses it offered, longest-connected first
//! (a player that has played longest has shown the steadiest link, and the order then changes
//! only at its end as players come and go). A player that offers nothing is never asked to
//! host.

use std::net::SocketAddr;

use serde::{Deserialize, Serialize};

use crate::Player;

/// The most addresses a player may offer to host on: a LAN address, a public one, and an IPv6
/// address of each. An offer of more is refused.
pub const MAX_HOST_ADDRESSES: usize = 4;

/// A player that would host the match if the host before it went, and where its peers reach
/// it then.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Successor {
    /// Its seat.
    pub player: Player,
    /// Where it would host, in the order to try.
    pub at: Vec<SocketAddr>,
}

/// The longest join code a shared listing may carry, bytes: a code is six symbols and a dash;
/// room for a longer alphabet's codes, and a bound on what a hostile host can make a peer
/// hold.
pub const MAX_CODE_BYTES: usize = 16;

/// Where a match is listed under a join code at a rendezvous, as its host shares it with its
/// players, so that they find the match's next host by the same code: a successor behind a
/// home router renews the listing from its own socket (the rendezvous then tells joiners its
/// addresses and it punches towards them), and the others dial the code again. Only the
/// players of the succession are told the secret that lets them renew it; the runtime reads
/// neither code nor secret, which are the transport's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedListing {
    /// The rendezvous's address.
    pub rendezvous: SocketAddr,
    /// The match's join code, as its rendezvous gave it.
    pub code: String,
    /// The listing's secret, to a player that would host next; `None` to the others.
    pub secret: Option<[u8; 16]>,
}

impl SharedListing {
    /// Whether a peer may take it: a code of at most [`MAX_CODE_BYTES`], at a rendezvous
    /// with a port and a machine.
    #[must_use]
    pub fn is_sane(&self) -> bool {
        self.code.len() <= MAX_CODE_BYTES
            && self.rendezvous.port() != 0
            && !self.rendezvous.ip().is_unspecified()
    }

    /// The listing without its secret: what a player that would not host next is told.
    #[must_use]
    pub fn without_secret(&self) -> Self {
        Self { secret: None, ..self.clone() }
    }
}

/// Whether `at` is an offer a player may make: one to [`MAX_HOST_ADDRESSES`] addresses, each
/// with a port and a host to reach (not the unspecified address, which names no machine).
#[must_use]
pub fn valid_offer(at: &[SocketAddr]) -> bool {
    !at.is_empty()
        && at.len() <= MAX_HOST_ADDRESSES
        && at.iter().all(|a| a.port() != 0 && !a.ip().is_unspecified())
}

/// A player the host could hand the match to: its seat, when it joined (the host's count of
/// welcomes, lowest first), and the addresses it offered.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate<'a> {
    pub(super) player: Player,
    pub(super) joined: u64,
    pub(super) at: &'a [SocketAddr],
}

/// The succession of `candidates`: those that offered an address, longest-connected first,
/// by seat where two joined at once.
pub(super) fn succession<'a>(candidates: impl Iterator<Item = Candidate<'a>>) -> Vec<Successor> {
    let mut offered: Vec<Candidate<'a>> = candidates.filter(|c| !c.at.is_empty()).collect();
    offered.sort_by_key(|c| (c.joined, c.player));
    offered.into_iter().map(|c| Successor { player: c.player, at: c.at.to_vec() }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(port: u16) -> SocketAddr {
        SocketAddr::from(([192, 168, 1, 9], port))
    }

    #[test]
    fn the_longest_connected_that_offered_comes_first() {
        let (a, b, c) = ([at(1)], [at(2)], [at(3)]);
        let candidates = [
            Candidate { player: Player(3), joined: 5, at: &a },
            Candidate { player: Player(1), joined: 2, at: &b },
            Candidate { player: Player(2), joined: 1, at: &[] },
            Candidate { player: Player(4), joined: 2, at: &c },
        ];
        let order: Vec<Player> =
            succession(candidates.into_iter()).into_iter().map(|s| s.player).collect();
        assert_eq!(order, [Player(1), Player(4), Player(3)]);
    }

    #[test]
    fn a_shared_listing_names_a_rendezvous_and_a_short_code() {
        let listing = SharedListing {
            rendezvous: at(7480),
            code: "KQ7-4PX".to_owned(),
            secret: Some([7; 16]),
        };
        assert!(listing.is_sane());
        assert_eq!(listing.without_secret().secret, None);
        assert!(
            !SharedListing { code: "K".repeat(MAX_CODE_BYTES + 1), ..listing.clone() }.is_sane()
        );
        assert!(!SharedListing { rendezvous: at(0), ..listing }.is_sane());
    }

    #[test]
    fn an_offer_names_reachable_addresses_and_not_too_many() {
        assert!(valid_offer(&[at(7465)]));
        assert!(!valid_offer(&[]));
        assert!(!valid_offer(&[at(0)]), "no port");
        assert!(!valid_offer(&[SocketAddr::from(([0, 0, 0, 0], 7465))]), "no machine");
        assert!(!valid_offer(&[at(1); MAX_HOST_ADDRESSES + 1]));
    }
}
