//! The protocol's messages as they cross the wire: serde types encoded with postcard, each
//! with the delivery it needs from the transport.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::frame::{HostFrame, PeerFrame};
use super::succession::{SharedListing, Successor};
use crate::command::Command;
use crate::hash::{ContentDigest, HashRecord};
use crate::tick::Tick;
use crate::{Player, TickRecord};

/// The protocol's version: a peer and a host that differ in it cannot talk.
pub const PROTOCOL_VERSION: u32 = 13;

/// The largest message sent without reliability, bytes: under a UDP datagram's safe payload on
/// any path (1,200 bytes, as QUIC assumes), so a transport never fragments one.
pub const MAX_UNRELIABLE_BYTES: usize = 1_200;

/// The largest message sent reliably, bytes: 16 MiB, room for the full state of a crowded
/// level (the stress level's is about 2 MB), far below what would exhaust a host's memory.
pub const MAX_RELIABLE_BYTES: usize = 16 << 20;

/// The most commands one input message may carry: three seconds of ticks. A peer repeats the
/// inputs the host has not acknowledged, and a lead of more than this is no longer an input
/// delay but a fault; such a message is refused and counted.
pub const MAX_INPUTS_PER_MESSAGE: usize = 30;

/// The longest player name, bytes.
pub const MAX_NAME_BYTES: usize = 32;

/// Whether `name` may name a player or spectator: 1 to [`MAX_NAME_BYTES`] bytes of printable
/// text, so that it fits a label and a log line and cannot forge another line of either.
#[must_use]
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME_BYTES && !name.contains(char::is_control)
}

/// The most names a roster may list: more players than any host takes (a transport's
/// connections are far fewer), so a roster longer than this is garbage.
pub const MAX_ROSTER: usize = 1_024;

/// How a message must be delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Delivery {
    /// Every message, once, in the order sent (the handshake, states, rosters, goodbyes,
    /// spectators' updates). The transport resends what is lost.
    Reliable,
    /// Perhaps, perhaps more than once, in any order (the frames of a match's steady
    /// traffic, which repeat what the other end has not acknowledged).
    Unreliable,
}

/// What a peer and a host must share to play together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The simulation's `VERSION`: the rules' bits.
    pub sim_version: u32,
    /// The level's content digest: what the rules run on.
    pub level: ContentDigest,
}

impl Identity {
    /// What differs between `self` (the host's) and `theirs`, in words, or `None`.
    #[must_use]
    pub fn mismatch(&self, theirs: &Self) -> Option<String> {
        let mut differences = Vec::new();
        if self.protocol != theirs.protocol {
            differences.push(format!(
                "protocol version {} (the host speaks {})",
                theirs.protocol, self.protocol
            ));
        }
        if self.sim_version != theirs.sim_version {
            differences.push(format!(
                "simulation version {} (the host runs {})",
                theirs.sim_version, self.sim_version
            ));
        }
        if self.level != theirs.level {
            differences.push(format!(
                "level digest {} (the host's level is {})",
                theirs.level, self.level
            ));
        }
        (!differences.is_empty()).then(|| differences.join("; "))
    }
}

/// Whether a peer plays or only watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// It has a character, sends inputs and simulates every tick.
    Player,
    /// It receives pose snapshots and draws them; it simulates nothing.
    Spectator,
    /// A spectator that keeps the match: besides what a spectator is sent, its welcome brings
    /// the state it watches from and it is sent every tick it watches, whole and reliably,
    /// so it can run the match and record it. It counts as a spectator and sends no input.
    Recorder,
}

impl Role {
    /// Whether it only watches (a spectator or a recorder).
    #[must_use]
    pub const fn watches(self) -> bool {
        matches!(self, Self::Spectator | Self::Recorder)
    }
}

/// `player` or `spectator`, as a message to a person says it.
impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Player => "player",
            Self::Spectator | Self::Recorder => "spectator",
        })
    }
}

/// The game's data the protocol carries, in the game's own serde types: a player's command,
/// what a spectator is sent of each tick and what a spectator says of what it looks at. The
/// protocol moves them, checks that they decode, and never looks inside: what a spectator sees
/// (poses near its camera, a whole snapshot, changes only) is the game's choice.
///
/// A game implements it on a type of its own (usually a unit struct that describes the game),
/// which the sessions are generic over: `HostSession<MyGame>`.
pub trait GameData: 'static {
    /// One player's input for one tick.
    type Command: Command + Send;
    /// What a spectator is sent of a tick, reliably and in tick order.
    type SpectatorUpdate: Clone + core::fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send;
    /// What a spectator says of what it looks at (where its camera is), unreliably and every
    /// tick: the host sends it what it sees sooner than the rest.
    type SpectatorView: Clone
        + core::fmt::Debug
        + Default
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send;
}

/// What a peer sends, in the types of game `D`.
pub(super) type PeerMessage<D> = ToHost<<D as GameData>::Command, <D as GameData>::SpectatorView>;

/// What the host sends, in the types of game `D`.
pub(super) type HostMessage<D> = ToPeer<<D as GameData>::Command, <D as GameData>::SpectatorUpdate>;

/// What a peer sends the host, with the game's commands `C` and spectator views `V`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToHost<C, V> {
    /// The first message: who the peer is and what it runs. Reliable.
    Hello {
        /// Protocol, simulation and level.
        identity: Identity,
        /// The player's name: a player who comes back under the same name gets its
        /// character back (once its old connection is gone, or at once with `rejoin`).
        name: String,
        /// Player or spectator.
        role: Role,
        /// The secret the host's welcome gave this name, kept across a crash: it takes the
        /// seat over at once, even from a connection the host has not yet timed out.
        rejoin: Option<RejoinSecret>,
        /// A player whose host went, coming to its successor: it plays on from its own state,
        /// and asks for its seat back and the ticks it lacks, not for a state.
        resume: Option<Resume>,
        /// What a spectator looks at, if it said so to a host before: a spectator following
        /// the match to a successor says it at once, so the successor's first updates are
        /// cut for it. Ignored from a player.
        view: Option<V>,
    },
    /// The peer's frame: its inputs, hashes and what it received ([`PeerFrame`]).
    /// Unreliable.
    Frame(PeerFrame<C, V>),
    /// Where this player would host the match if the host went (one to
    /// [`super::MAX_HOST_ADDRESSES`] addresses, in the order to try). Reliable, from a
    /// welcomed player only.
    HostsOn {
        /// The addresses.
        at: Vec<std::net::SocketAddr>,
    },
    /// The ticks a successor asked for ([`ToPeer::TicksWanted`]), whole and in order, from
    /// the first it asked for to the newest this player ran. Reliable.
    Ticks {
        /// The ticks.
        records: Vec<TickRecord<C>>,
    },
    /// The peer's state after the tick of a desync the host told it of (postcard bytes),
    /// and its hash with every part, for the reports. Reliable.
    DesyncState {
        /// The tick.
        tick: Tick,
        /// The peer's hash of it (frames carry only the totals).
        hash: HashRecord,
        /// The state.
        #[serde(with = "serde_bytes")]
        state: Vec<u8>,
    },
}

/// A player's claim, coming to the successor of a host that went: the epoch it expects the
/// successor to host (one past its old host's) and the next tick it would run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    /// The successor's epoch: one past the epoch of the host that went.
    pub epoch: u32,
    /// The next tick this player would run: every tick before it, it ran.
    pub next_tick: Tick,
}

/// What proves a returning player is the one who held its seat: 128 random bits the host's
/// first welcome gives, which the player keeps (across a crash, in a file) and presents in
/// its next hello. Only the host and that player know it.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejoinSecret(pub [u8; 16]);

impl core::fmt::Debug for RejoinSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // A secret is never written to a log.
        f.write_str("RejoinSecret(..)")
    }
}

/// The host's welcome: the peer may play (or watch) from `tick` on. The same message, as
/// [`ToPeer::Resync`], brings a desynced player the host's state to go on from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    /// Its player number, for a player (`None` for a spectator).
    pub player: Option<Player>,
    /// The tick the state is at: the next tick to run.
    pub tick: Tick,
    /// The full state there (postcard bytes), for a player or a recorder; empty for a
    /// spectator.
    #[serde(with = "serde_bytes")]
    pub state: Vec<u8>,
    /// The state's hash total, checked on arrival.
    pub hash: u64,
    /// The player's rejoin secret (`None` for a spectator, and in a resync).
    pub rejoin: Option<RejoinSecret>,
    /// The host's epoch: 0 for the host that started the match, one more for each host that
    /// took it over since.
    pub epoch: u32,
}

/// Why the host refuses a peer or ends its connection: said in a goodbye before the
/// transport closes it, so the peer can tell its player what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Goodbye {
    /// The match is over: the host stopped, or its game ended.
    #[error("the host ended the match")]
    MatchEnded,
    /// The host heard nothing from the peer for too long.
    #[error("the host heard nothing from this peer for too long (timed out)")]
    TimedOut,
    /// The peer sent what the protocol does not allow, too often to be a damaged datagram.
    #[error("this peer sent malformed traffic")]
    Malformed,
    /// The peer sent more commands than a player can, or for ticks far ahead.
    #[error("this peer sent too many commands")]
    TooManyCommands,
    /// The peer's state differed from the host's too often to go on resyncing it.
    #[error("this peer desynced {desyncs} times within {window_seconds} s")]
    RepeatedDesyncs {
        /// Desyncs counted.
        desyncs: u32,
        /// Within this many seconds.
        window_seconds: u32,
    },
    /// Every seat is taken.
    #[error("the game is full: {players} players of {max}")]
    Full {
        /// Players in the game and asking to be.
        players: u32,
        /// The most the host takes.
        max: u32,
    },
    /// Every spectator's place is taken.
    #[error("no room to watch: {spectators} spectators of {max}")]
    NoRoomToWatch {
        /// Spectators watching and asking to.
        spectators: u32,
        /// The most the host takes.
        max: u32,
    },
    /// The peer runs another protocol, rules or level than the host: what differs.
    #[error("this peer differs from the host: {0}")]
    Mismatch(String),
    /// The name is not one a player may have.
    #[error("a name must be 1 to {MAX_NAME_BYTES} bytes of printable text")]
    BadName,
    /// A player of that name is playing, and the hello did not bring its rejoin secret.
    #[error("a player named {0:?} is playing already")]
    NameInUse(String),
    /// The same player came back from another connection with its rejoin secret.
    #[error("this player rejoined from another connection")]
    Replaced,
    /// The host left and handed the match to the next in its succession: go on with it.
    #[error("the host left and handed the match over")]
    HandedOver,
    /// This host is not the match's host any more (or not yet the one asked for): a peer asked
    /// it to be the host of a later epoch, or it found it had been silent long enough for its
    /// players to take the match over.
    #[error("this host was succeeded (it hosts epoch {ours}; epoch {theirs} was asked for)")]
    Superseded {
        /// The epoch it hosts.
        ours: u32,
        /// The epoch the peer asked for.
        theirs: u32,
    },
}

/// The host found a peer's hash of `tick` different from its own: the host's hash and state
/// after it (postcard bytes), for the desync reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesyncNotice {
    /// The tick.
    pub tick: Tick,
    /// The host's hash.
    pub hash: HashRecord,
    /// The host's state.
    #[serde(with = "serde_bytes")]
    pub state: Vec<u8>,
}

/// What the host sends a peer, with the game's commands `C` and spectator updates `U`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToPeer<C, U> {
    /// The peer may play (or watch). Reliable.
    Welcome(Welcome),
    /// The host refuses the peer, or is about to close its connection, and says why.
    /// Reliable, and the last message the host sends it.
    Goodbye(Goodbye),
    /// The host's state, for a player whose state differed from it (a desync): the player
    /// goes on from it, as a late joiner does. Reliable, before the tick it is at.
    Resync(Welcome),
    /// The host's frame: the ticks the peer has not confirmed, how its inputs stood
    /// ([`HostFrame`]). Unreliable.
    Frame(HostFrame<C>),
    /// A tick too large for a frame ([`super::frame::TickPiece::Reliable`]), whole; and
    /// every tick a recorder watches, in order. Reliable.
    Tick(TickRecord<C>),
    /// The peer's hash of a tick differs from the host's. Reliable.
    Desync(DesyncNotice),
    /// What a spectator is sent of a tick (the game's [`GameData::SpectatorUpdate`]).
    /// Reliable, in tick order.
    Update(U),
    /// Every player's name, by player number: sent to every peer when a player joins, comes
    /// back or its seat is freed, so each can show who is who. Reliable.
    Roster {
        /// The names; a free seat's is empty.
        names: Vec<String>,
    },
    /// Who would host the match next, in order ([`Successor`]), and where it is listed:
    /// sent to every peer when either changes, and to each as it is welcomed. Reliable.
    Succession {
        /// The successors, first the next host.
        order: Vec<Successor>,
        /// The seat of the host's own player, if it has one: who left when the host goes.
        host: Option<Player>,
        /// Where the match is listed under a join code, if it is: with its secret to a
        /// player of the succession.
        listing: Option<SharedListing>,
    },
    /// A successor asks a resuming player for the ticks it ran that the successor lacks:
    /// from `from` to the newest ([`ToHost::Ticks`]). Reliable.
    TicksWanted {
        /// The first tick wanted: the successor's next.
        from: Tick,
    },
    /// A successor seats a resuming player in its own seat: it plays on from its own state,
    /// and is sent the ticks from `tick` on. Reliable.
    Resumed {
        /// Its seat.
        player: Player,
        /// The next tick it is sent: the one it said it would run next.
        tick: Tick,
        /// The successor's epoch.
        epoch: u32,
        /// The secret that proves it to this host when it rejoins.
        rejoin: RejoinSecret,
    },
}

/// Why a message was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Larger than its delivery allows.
    #[error("{size} bytes: more than the {limit} its delivery allows")]
    Oversized {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Not a message of this protocol (garbled, truncated, of another version or kind).
    #[error("not a message of this protocol")]
    Malformed,
}

/// The limit of a delivery, bytes.
#[must_use]
pub const fn limit_of(delivery: Delivery) -> usize {
    match delivery {
        Delivery::Reliable => MAX_RELIABLE_BYTES,
        Delivery::Unreliable => MAX_UNRELIABLE_BYTES,
    }
}

/// Encodes a message.
#[must_use]
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Every message type serializes: postcard fails only on a type it cannot represent.
    postcard::to_allocvec(message).unwrap_or_default()
}

/// Decodes a message that came with `delivery`, refusing one that is too large for it or
/// that is not a message at all.
///
/// # Errors
///
/// [`Refusal`] says which.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], delivery: Delivery) -> Result<T, Refusal> {
    let limit = limit_of(delivery);
    if bytes.len() > limit {
        return Err(Refusal::Oversized { size: bytes.len(), limit });
    }
    // Whole messages only: trailing bytes (something glued on) are refused too.
    match postcard::take_from_bytes(bytes) {
        Ok((message, [])) => Ok(message),
        _ => Err(Refusal::Malformed),
    }
}
