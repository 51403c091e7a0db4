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
    fn an_offer_names_reachable_addresses_and_not_too_many() {
        assert!(valid_offer(&[at(7465)]));
        assert!(!valid_offer(&[]));
        assert!(!valid_offer(&[at(0)]), "no port");
        assert!(!valid_offer(&[SocketAddr::from(([0, 0, 0, 0], 7465))]), "no machine");
        assert!(!valid_offer(&[at(1); MAX_HOST_ADDRESSES + 1]));
    }
}
