//! How friends on other networks reach a host: the port its router forwards to it (UPnP,
//! NAT-PMP), and its listing under a join code at a rendezvous, kept in step: a mapping the
//! router gives is offered to joiners as a candidate, with the public address the rendezvous
//! sees when the router does not say its own.

use std::fmt;
use std::net::SocketAddr;
use std::sync::mpsc::Receiver;

use fixstep_net::HostTransport;
use fixstep_net::join_code::JoinCode;
use fixstep_net::port_map::{MappingState, PortMapper, PortMapping};
use fixstep_net::relay::RelayEvent;
use fixstep_net::rendezvous::{Candidate, ListingEvent, PathKind};

/// What changed in how friends reach the host: for its log and its HUD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReachNews {
    /// The router forwards a port to the host, reached at `public` when known.
    Mapped {
        /// The mapping.
        mapping: PortMapping,
        /// The public address and port friends reach it at.
        public: Option<SocketAddr>,
    },
    /// The router mapped no port.
    Unmapped {
        /// Why, in a line.
        why: String,
    },
    /// The match is listed under `code`; the rendezvous sees the host at `observed`.
    Listed {
        /// The code friends type.
        code: JoinCode,
        /// The host's public address as the rendezvous sees it.
        observed: SocketAddr,
    },
    /// A STUN server saw the host at `public`.
    Learned {
        /// The host's public address and port.
        public: SocketAddr,
        /// The server that said it.
        server: SocketAddr,
    },
    /// The TURN relay gave the host `address`, which joiners nothing direct reaches send to.
    Relayed {
        /// The relayed address.
        address: SocketAddr,
    },
    /// The TURN relay gave no address.
    RelayFailed {
        /// Why, in a line.
        why: String,
    },
    /// The rendezvous has no room for the match.
    ListingFull,
    /// A joiner dials the code: the host punches towards it.
    Wanted {
        /// Where the joiner may be reached.
        joiner: Vec<Candidate>,
    },
}

impl fmt::Display for ReachNews {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Mapped { mapping, public: Some(public) } => {
                write!(f, "the router forwards {public} to this host ({})", mapping.protocol)
            }
            Self::Mapped { mapping, public: None } => write!(
                f,
                "the router forwards its port {} to this host ({})",
                mapping.public_port, mapping.protocol
            ),
            Self::Unmapped { why } => write!(
                f,
                "the router forwards no port to this host: {why} (friends elsewhere join by \
                 code, or through a port forwarded by hand)"
            ),
            Self::Listed { code, observed } => write!(
                f,
                "join code {code}: friends join with `fixstep join {code}` (the rendezvous sees \
                 this host at {observed})"
            ),
            Self::Learned { public, server } => {
                write!(f, "the STUN server at {server} sees this host at {public}")
            }
            Self::Relayed { address } => write!(
                f,
                "the TURN relay gave this host {address}, for friends whose routers let nothing \
                 direct through"
            ),
            Self::RelayFailed { why } => write!(f, "no relay: {why}"),
            Self::ListingFull => {
                f.write_str("the rendezvous has no room for this match: no join code yet")
            }
            Self::Wanted { joiner } => {
                let at: Vec<String> =
                    joiner.iter().map(|c| format!("{} {}", c.kind, c.address)).collect();
                write!(f, "a joiner dials the code from {}: punching towards it", at.join(", "))
            }
        }
    }
}

/// A host's port mapping, STUN servers and listing.
#[derive(Debug, Default)]
pub struct Reach {
    mapper: Option<PortMapper>,
    mapping: Option<PortMapping>,
    /// The STUN servers' addresses, while they are being looked up.
    stun_lookup: Option<Receiver<Vec<SocketAddr>>>,
    learned: Option<SocketAddr>,
    news: Vec<ReachNews>,
}

impl Reach {
    /// Asks the router to forward `local` (this machine's address on its network and the
    /// host's port) if `map_port`, and the STUN servers named `stun` (`HOST:PORT`, looked up
    /// on a thread of their own) where they see the host; nothing for a host on loopback,
    /// which nobody else reaches.
    #[must_use]
    pub fn start(map_port: bool, local: Option<SocketAddr>, stun: &[String]) -> Self {
        let outside = local.filter(|l| !l.ip().is_loopback());
        let mapper = outside.filter(|_| map_port).map(PortMapper::start);
        let stun_lookup = (outside.is_some() && !stun.is_empty()).then(|| {
            let (found, lookup) = std::sync::mpsc::channel();
            let names = stun.to_vec();
            // A server whose name does not resolve is one less; a lookup that hangs keeps
            // only this thread.
            let _ = std::thread::Builder::new().name("stun lookup".to_owned()).spawn(move || {
                let _ = found.send(fixstep_net::stun::resolve(&names));
            });
            lookup
        });
        Self { mapper, mapping: None, stun_lookup, learned: None, news: Vec::new() }
    }

    /// Takes what the router and the rendezvous said since the last call, and offers the
    /// mapped port to joiners.
    pub fn update(&mut self, transport: &mut HostTransport) {
        let mut remap = false;
        if let Some(servers) = self.stun_lookup.as_ref().and_then(|l| l.try_recv().ok()) {
            self.stun_lookup = None;
            transport.learn_public_address(servers);
        }
        if self.learned.is_none()
            && let Some((public, server)) = transport.stun_learned()
        {
            self.learned = Some(public);
            remap = true;
            self.news.push(ReachNews::Learned { public, server });
        }
        if let Some(state) = self.mapper.as_mut().and_then(PortMapper::changed) {
            match state {
                MappingState::Asking => {}
                MappingState::Mapped(mapping) => {
                    self.mapping = Some(mapping);
                    remap = true;
                    let public = self.public_address(transport);
                    self.news.push(ReachNews::Mapped { mapping, public });
                }
                MappingState::Unavailable(why) => {
                    self.mapping = None;
                    remap = true;
                    self.news.push(ReachNews::Unmapped { why });
                }
            }
        }
        for event in transport.drain_relay_events().collect::<Vec<_>>() {
            self.news.push(match event {
                RelayEvent::Allocated(address) => ReachNews::Relayed { address },
                RelayEvent::Failed(why) => ReachNews::RelayFailed { why },
            });
        }
        for event in transport.drain_listing_events().collect::<Vec<_>>() {
            self.news.push(match event {
                ListingEvent::Listed { code, observed } => {
                    remap = true;
                    ReachNews::Listed { code, observed }
                }
                ListingEvent::Full => ReachNews::ListingFull,
                ListingEvent::Wanted { joiner } => ReachNews::Wanted { joiner },
            });
        }
        if remap {
            // The mapped port at the public address, and the relay, whichever came first.
            let mapped = self.mapping.and_then(|_| self.public_address(transport));
            let relayed = transport.relayed_address();
            if let Some(listing) = transport.listing_mut() {
                listing.set_candidate(PathKind::Mapped, mapped);
                listing.set_candidate(PathKind::Relayed, relayed);
            }
        }
    }

    /// The public address friends reach the host at: its router's mapping, else where the
    /// rendezvous sees it.
    #[must_use]
    pub fn public_address(&self, transport: &HostTransport) -> Option<SocketAddr> {
        let observed = transport.listing().and_then(fixstep_net::rendezvous::Listing::observed);
        self.mapping.and_then(|m| m.public_address(observed.map(|o| o.ip()))).or(observed)
    }

    /// The router's mapping, if it gave one.
    #[must_use]
    pub const fn mapping(&self) -> Option<PortMapping> {
        self.mapping
    }

    /// What changed since the last call.
    pub fn drain_news(&mut self) -> std::vec::Drain<'_, ReachNews> {
        self.news.drain(..)
    }
}
