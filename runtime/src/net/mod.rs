//! # The lockstep protocol, without sockets
//!
//! Fixstep's network play is host-sequenced lockstep: every peer simulates every tick, from
//! the same commands, and the host says which commands those are. A peer sends its commands
//! for ticks a little ahead; the host runs a 100 ms schedule and, at each tick, fixes every
//! player's command (a player whose input has not come keeps its held input, and is told),
//! sends the tick to every peer and tells each how early its input arrived, so the peer's
//! clock can keep that margin (its queue at the host, in time) short but never run out. Peers report their state hash of
//! every tick and the host compares: a difference is a desync, reported with both states, after
//! which the host sends the peer its own state to go on from (a resync), as to a late joiner.
//! A player may offer where it would host the match if the host went; the host tells every
//! peer who would host next, in order ([`Successor`]), whenever that changes. When the host
//! goes, the first of them takes the match over from its own state ([`Takeover`]) and the
//! others claim their seats there with theirs ([`Resume`]).
//! A player's first welcome carries a [`RejoinSecret`]: a player that crashed and comes back
//! with it takes its seat over at once. Whenever the host refuses a peer or ends its
//! connection, it first says why ([`Goodbye`]).
//! Once a match runs, its traffic is one small unreliable frame a tick each way ([`frame`]):
//! the host's carries the ticks a peer has not confirmed, as the commands that changed; a
//! peer's carries its inputs and hash checks the host has not acknowledged, held inputs as
//! runs. Each repeats what the other end lacks, so a lost frame is made good by the next.
//! Spectators simulate nothing: they are sent what the game chooses of each tick (the poses of
//! what moves near their camera, say), and draw it. A spectator that keeps the match
//! ([`Role::Recorder`]) is also welcomed with the state it watches from and sent each tick it
//! watches whole, reliably and in order, to run and record.
//!
//! The sessions here are the protocol and nothing else, in the manner of quinn-proto or
//! str0m: a [`HostSession`] and a [`PeerSession`] take the bytes that arrived (with the
//! delivery they came by) and the time, and give back the bytes to send and events. They
//! never read a clock or touch a socket, so they run the same under a test's simulated link
//! (`runtime/tests/simulated_link`), a benchmark with a thousand peers, and the UDP transport of
//! `fixstep-net`. Every message is a serde type encoded with postcard ([`wire`]); a message
//! that does not decode, is too large for its delivery, or comes out of place is dropped and
//! counted, never a panic. The game's own data (its commands, what its spectators are sent
//! and say) are the game's serde types, named by a [`GameData`] the sessions are generic over.
//!
//! ```
//! use fixstep_runtime::net::{
//!     DEFAULT_SEAT_GRACE_MICROS, Delivery, GameData, HostConfig, HostSession, Identity,
//!     PeerConfig, PeerEvent, PeerId, PeerSession, PROTOCOL_VERSION, RejoinSecret, Role,
//! };
//! use fixstep_runtime::{Command, ContentDigest, Player, Tick};
//! use serde::{Deserialize, Serialize};
//!
//! /// A player's input: a step of some size.
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
//! struct Step(u8);
//!
//! impl Command for Step {
//!     fn held(&self) -> Self { *self }
//! }
//!
//! /// The game's data on the wire: its command; its spectators are sent nothing.
//! struct Stepping;
//!
//! impl GameData for Stepping {
//!     type Command = Step;
//!     type SpectatorUpdate = ();
//!     type SpectatorView = ();
//! }
//!
//! let identity = Identity { protocol: PROTOCOL_VERSION, sim_version: 1, level: ContentDigest(7) };
//! let mut host: HostSession<Stepping> =
//!     HostSession::new(HostConfig {
//!         identity, max_players: 4, max_spectators: 8, local_players: 0,
//!         seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
//!     }, Tick(0));
//! let mut peer: PeerSession<Stepping> =
//!     PeerSession::new(PeerConfig { identity, name: "ada".into(), role: Role::Player, rejoin: None });
//! // A transport would carry these; here they are handed over directly.
//! let me = PeerId(1);
//! host.connect(me, 0);
//! peer.connect();
//! let to_host: Vec<_> = peer.drain_outgoing().collect();
//! for (delivery, bytes) in to_host {
//!     host.receive(me, delivery, &bytes, 0);
//! }
//! // Asked for by HostEvent::StateWanted; the secret would be random bits from the system.
//! host.welcome(me, b"the state", 42, RejoinSecret([7; 16]));
//! for (_, delivery, bytes) in host.drain_outgoing().collect::<Vec<_>>() {
//!     peer.receive(delivery, &bytes);
//! }
//! // Welcomed, the peer sends its input for the first tick in a frame.
//! peer.submit_input(Tick(0), Step(5));
//! for (delivery, bytes) in peer.drain_outgoing().collect::<Vec<_>>() {
//!     host.receive(me, delivery, &bytes, 1_000);
//! }
//! let tick = host.fix_tick();
//! assert_eq!(tick.commands, vec![Step(5)]);
//! for (_, delivery, bytes) in host.drain_outgoing().collect::<Vec<_>>() {
//!     peer.receive(delivery, &bytes);
//! }
//! // The welcome, the roster of players' names, then the host's frame: the tick, and how the
//! // host found its inputs.
//! let events: Vec<_> = peer.drain_events().collect();
//! assert!(matches!(&events[0], PeerEvent::Welcomed(w) if w.player == Some(Player(0))));
//! assert!(matches!(&events[1], PeerEvent::Roster(names) if names == &["ada"]));
//! assert!(matches!(events[2], PeerEvent::Tick(ref t) if t.commands == vec![Step(5)]));
//! ```

pub mod frame;
mod host;
mod lead;
mod peer;
mod succession;
mod takeover;
pub mod wire;

pub use host::{
    DEFAULT_SEAT_GRACE_MICROS, DESYNC_WINDOW_MICROS, DropCounts, Dropped, FAULT_WINDOW_MICROS,
    HASH_MEMORY_TICKS, HostConfig, HostEvent, HostSession, MAX_DESYNCS, MAX_FAULTS, MAX_STALE,
    PEER_TIMEOUT_MICROS, TICK_MEMORY, UnservedClaim,
};
pub use lead::{InputTicks, LOSS_MARGIN_MICROS, MARGIN_FLOOR_MICROS};
pub use peer::{
    HOST_SILENCE_MICROS, INPUT_REPEAT_MICROS, MAX_WELCOME_TICK, PeerConfig, PeerEvent, PeerEventOf,
    PeerSession,
};
pub use succession::{MAX_CODE_BYTES, MAX_HOST_ADDRESSES, SharedListing, Successor, valid_offer};
pub use takeover::{TAKEOVER_GATHER_MICROS, Takeover};
pub use wire::{
    Delivery, DesyncNotice, GameData, Goodbye, Identity, PROTOCOL_VERSION, Refusal, RejoinSecret,
    Resume, Role, ToHost, ToPeer, Welcome,
};

/// How far ahead of the host's next tick a peer's inputs may be, ticks: three seconds. A peer
/// keeps its inputs a round trip and a short queue ahead; beyond this it is not playing the
/// same game, and its inputs are refused and counted.
pub const MAX_INPUT_LEAD_TICKS: u32 = 30;

/// A peer as the transport names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PeerId(pub u64);
