//! Every datagram a host's socket gives it, counted under the one reason that settled what
//! became of it, so that the counts add up to the datagrams read ([`crate::WireCounts`]'s
//! `datagrams_received`) and an operator can tell a flood from a fuzzer from a peer on a bad
//! link.

/// What became of one datagram the host read: the first check it failed, or how it was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A payload renet read: a peer's messages, handed on to the session.
    Payload,
    /// One of netcode's own packets it took: a connection request it answered, a challenge's
    /// response, a keep-alive, a goodbye.
    Netcode,
    /// A query of the LAN list ([`crate::lan`]).
    LanQuery,
    /// A rendezvous's answer or news, a probe of a joiner dialling the match's code
    /// ([`crate::rendezvous`]), or a STUN server's answer ([`crate::stun`]).
    Rendezvous,
    /// Over its address's [`crate::netcode::DATAGRAMS_PER_SECOND`]: dropped unread.
    Flooded,
    /// Shaped as no netcode packet can be ([`crate::netcode::well_formed`]).
    NotNetcode,
    /// A payload the guard kept from renet ([`crate::renet_guard`]): no part of the protocol.
    GuardDropped,
    /// A payload the guard kept from renet that only harm sends: its peer is cut off.
    GuardCutOff,
    /// A connection request over its IP address's [`crate::netcode::REQUESTS_PER_SECOND`].
    RequestFlooded,
    /// A connection request whose token the host cannot open (another password, or none) or
    /// found expired: the peer is told why.
    RequestRefused,
    /// A connection request of another protocol or version, or of the wrong size: dropped
    /// unanswered.
    RequestIgnored,
    /// A connection request netcode itself turned down: its client already connected, too
    /// many handshakes under way, a token not for this host's addresses.
    RequestDeclined,
    /// Not a connection request, from an address with no connection (a stranger's, which
    /// netcode has no key for, or a handshake's whose response did not open).
    UnknownAddress,
    /// From a connected peer's address, but it did not open: forged, damaged, or a replay of
    /// a packet already read.
    Unopened,
}

impl Reason {
    /// Every reason, in the order summaries and metrics list them.
    pub const ALL: [Self; 14] = [
        Self::Payload,
        Self::Netcode,
        Self::LanQuery,
        Self::Rendezvous,
        Self::Flooded,
        Self::NotNetcode,
        Self::GuardDropped,
        Self::GuardCutOff,
        Self::RequestFlooded,
        Self::RequestRefused,
        Self::RequestIgnored,
        Self::RequestDeclined,
        Self::UnknownAddress,
        Self::Unopened,
    ];

    /// Its name in a summary and in the metrics' `reason` label.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Payload => "payload",
            Self::Netcode => "netcode",
            Self::LanQuery => "lan_query",
            Self::Rendezvous => "rendezvous",
            Self::Flooded => "flooded",
            Self::NotNetcode => "not_netcode",
            Self::GuardDropped => "guard_dropped",
            Self::GuardCutOff => "guard_cut_off",
            Self::RequestFlooded => "request_flooded",
            Self::RequestRefused => "request_refused",
            Self::RequestIgnored => "request_ignored",
            Self::RequestDeclined => "request_declined",
            Self::UnknownAddress => "unknown_address",
            Self::Unopened => "unopened",
        }
    }

    /// Its place in [`Self::ALL`].
    const fn index(self) -> usize {
        self as usize
    }
}

/// The datagrams a host read, by [`Reason`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    counts: [u64; Reason::ALL.len()],
}

impl Reads {
    /// Counts one datagram under `reason`.
    pub const fn count(&mut self, reason: Reason) {
        let count = &mut self.counts[reason.index()];
        *count = count.saturating_add(1);
    }

    /// The datagrams counted under `reason`.
    #[must_use]
    pub const fn of(&self, reason: Reason) -> u64 {
        self.counts[reason.index()]
    }

    /// Every reason with its count, in [`Reason::ALL`]'s order.
    pub fn by_reason(&self) -> impl Iterator<Item = (Reason, u64)> + '_ {
        Reason::ALL.into_iter().map(|reason| (reason, self.of(reason)))
    }

    /// Every datagram read.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.counts.iter().fold(0, |sum, &c| sum.saturating_add(c))
    }

    /// Datagrams that were no netcode packet, and payloads kept from renet: what summaries
    /// call "malformed datagrams".
    #[must_use]
    pub const fn malformed(&self) -> u64 {
        self.of(Reason::NotNetcode) + self.of(Reason::GuardDropped) + self.of(Reason::GuardCutOff)
    }

    /// Connection requests the host turned away before netcode read them (over their rate,
    /// refused, ignored): what summaries call "refused connection requests".
    #[must_use]
    pub const fn refused_requests(&self) -> u64 {
        self.of(Reason::RequestFlooded)
            + self.of(Reason::RequestRefused)
            + self.of(Reason::RequestIgnored)
    }
}

impl std::fmt::Display for Reads {
    /// `N = payload A + netcode B + ...`, every reason named, so that a reader sees the sum.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} =", self.total())?;
        for (i, (reason, count)) in self.by_reason().enumerate() {
            let plus = if i == 0 { "" } else { " +" };
            write!(f, "{plus} {} {count}", reason.name())?;
        }
        Ok(())
    }
}
