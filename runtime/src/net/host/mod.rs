//! The host's side of the lockstep protocol, as a state machine without sockets or clocks.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;

use super::frame::{
    HashCheck, HostFrame, InputRuns, InputStatus, MAX_HASHES_PER_FRAME, MAX_TICKS_PER_FRAME,
    PeerFrame, TickPiece, TickRun,
};
use super::succession::{Candidate, SharedListing, Successor, succession, valid_offer};
use super::wire::{
    Delivery, DesyncNotice, GameData, Goodbye, HostMessage, Identity, MAX_INPUTS_PER_MESSAGE,
    MAX_NAME_BYTES, MAX_UNRELIABLE_BYTES, PeerMessage, Refusal, RejoinSecret, Resume, Role, ToHost,
    Welcome, decode, encode, valid_name,
};
use super::{MAX_INPUT_LEAD_TICKS, PeerId};
use crate::command::Command;
use crate::hash::HashRecord;
use crate::seats::SeatChanges;
use crate::tick::Tick;
use crate::{Player, TickRecord};

mod takeover;

/// Hashes the host keeps of its own recent ticks, to compare the peers' reports with: 64
/// ticks (6.4 s), longer than any report takes to come back on a link still worth playing on.
pub const HASH_MEMORY_TICKS: u32 = 64;

/// Fixed ticks the host keeps to send again, ticks: 64 (6.4 s). A peer that has not
/// confirmed a tick this old has been silent longer than [`PEER_TIMEOUT_MICROS`], or never
/// confirms at all: it is dropped.
pub const TICK_MEMORY: u32 = 64;

/// What one tick's piece of a frame may take, bytes: under a frame's limit with room for the
/// rest of the frame. A tick larger than this (hundreds of players changing their commands at
/// once) is sent whole and reliably instead.
const PIECE_BUDGET_BYTES: usize = MAX_UNRELIABLE_BYTES - 100;

/// The most frames the host sends one peer a tick: four. A peer that lacks many ticks (back
/// from a stall) catches up at up to [`MAX_TICKS_PER_FRAME`] ticks a frame, while a burst of
/// datagrams to one peer stays small.
const FRAMES_PER_TICK: usize = 4;

/// How long a peer may send nothing before the host drops it, microseconds: five seconds.
/// Inputs come ten times a second, so five silent seconds are a peer gone (crashed, cut
/// off), not a slow link; its character then idles and the game goes on without waiting.
pub const PEER_TIMEOUT_MICROS: u64 = 5_000_000;

/// The window over which a peer's faults and desyncs are counted for [`MAX_FAULTS`],
/// microseconds: one second.
pub const FAULT_WINDOW_MICROS: u64 = 1_000_000;

/// How many refused messages (malformed, out of place, too many commands) a peer may send in
/// [`FAULT_WINDOW_MICROS`] before the host drops it: 20. An honest peer sends none (netcode's
/// authentication drops a damaged datagram before the session sees it), so a score a second
/// is a broken build or a peer that means harm, and the host stops spending time on it.
pub const MAX_FAULTS: u32 = 20;

/// How many inputs for ticks already fixed a peer may send in [`FAULT_WINDOW_MICROS`] before
/// the host drops it: 100. A peer repeats its unacknowledged inputs 40 times a second, and on
/// a link that duplicates and reorders a few of those arrive after their ticks; far more are
/// a replay, not a link.
pub const MAX_STALE: u32 = 100;

/// How many desyncs within [`DESYNC_WINDOW_MICROS`] the host resyncs before it drops the
/// peer: the third is one too many. A desync is a bug in the peer's build or machine; a
/// resync or two hides a rare one from its player, but a peer that keeps diverging would
/// cost the host a state a few seconds for nothing.
pub const MAX_DESYNCS: u32 = 3;

/// The window [`MAX_DESYNCS`] counts in, microseconds: a minute.
pub const DESYNC_WINDOW_MICROS: u64 = 60_000_000;

/// How long a player who left keeps its seat by default, microseconds: a minute. A player
/// whose game crashed, or whose link dropped, is gone from the host after
/// [`PEER_TIMEOUT_MICROS`] and from its own game after netcode's 15 s; starting the game again
/// and joining takes most players well under a minute, so the seat (and its character, where
/// it stood) is still theirs. Longer, and departed players keep a public server's seats from
/// players who want them.
pub const DEFAULT_SEAT_GRACE_MICROS: u64 = 60_000_000;

/// What the host is set up with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostConfig {
    /// What every peer must share with it.
    pub identity: Identity,
    /// The most players, the host's own included: those playing and those away whose seats
    /// are kept for them.
    pub max_players: usize,
    /// The most spectators.
    pub max_spectators: usize,
    /// Players the game starts with (the host's own, a bot): numbered from 0, fed by
    /// [`HostSession::local_input`].
    pub local_players: usize,
    /// How long a player who left (or was dropped) keeps its seat, microseconds: coming back
    /// under its name within it, it plays on with its character. After it the seat is freed:
    /// the character leaves the world at the next tick, and the name and the seat are anyone's
    /// ([`DEFAULT_SEAT_GRACE_MICROS`] unless told).
    pub seat_grace_micros: u64,
}

/// Why a successor could not seat a player on the state it claimed with
/// ([`HostEvent::ClaimUnserved`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnservedClaim {
    /// No seat of that name waits for its player.
    #[error("no seat of that name waits for its player")]
    NoSeatWaiting,
    /// Another connection claimed the same seat first and is still being seated.
    #[error("another connection is already claiming that seat")]
    AlreadyClaimed,
    /// The ticks from the one claimed on are no longer kept, or are still to come.
    #[error("the ticks from {claimed} are not kept (kept from {oldest:?}, next {next})")]
    TicksNotKept {
        /// The tick the claim goes on from.
        claimed: Tick,
        /// The oldest tick kept to send again.
        oldest: Option<Tick>,
        /// The next tick this host fixes.
        next: Tick,
    },
    /// The player ran a tick that this host fixed anew after it took the match over
    /// (its predecessor's version, which this host never had), and the two differ, or the
    /// player did not send its version to compare.
    #[error("its tick {tick} is not the one this host fixed")]
    TicksDiffer {
        /// The first tick that differs, or that was not sent.
        tick: Tick,
    },
}

/// What happened, for the host's game to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEvent {
    /// A peer asks to play or watch and is who it must be: send it the state with
    /// [`HostSession::welcome`] (before the next tick is fixed).
    StateWanted {
        /// The peer.
        peer: PeerId,
    },
    /// A player joined (or came back under its name, to the same player number).
    PlayerJoined {
        /// The peer.
        peer: PeerId,
        /// Its player number.
        player: Player,
        /// Its name.
        name: String,
        /// It had played before under this name.
        rejoined: bool,
    },
    /// A spectator joined.
    SpectatorJoined {
        /// The peer.
        peer: PeerId,
        /// Its name.
        name: String,
    },
    /// A peer left, or the host ended its connection; a player's character idles from the
    /// next tick on, its seat kept for [`HostConfig::seat_grace_micros`]. Its transport
    /// connection should be closed once what the session has to send (the goodbye) is sent.
    PeerLeft {
        /// The peer.
        peer: PeerId,
        /// Its name, as its hello gave it (empty if it never said hello).
        name: String,
        /// Its player number, for a player.
        player: Option<Player>,
        /// What the host told it, if the host ended the connection (`None`: the peer left, or
        /// its transport lost it).
        goodbye: Option<Goodbye>,
    },
    /// A player who left did not come back within [`HostConfig::seat_grace_micros`]: its seat
    /// is freed at the next tick, its character leaving the world, and its name and seat are
    /// anyone's.
    SeatFreed {
        /// The seat.
        player: Player,
        /// The name it had.
        name: String,
    },
    /// A peer was refused, and told why (a [`HostEvent::PeerLeft`] follows).
    Refused {
        /// The peer.
        peer: PeerId,
        /// The name it asked under (cut to [`MAX_NAME_BYTES`]).
        name: String,
        /// What it asked to be.
        role: Role,
        /// Why.
        goodbye: Goodbye,
    },
    /// A player's input for a tick had not arrived when the tick was fixed: its held input
    /// stood in.
    InputLate {
        /// The player.
        player: Player,
        /// The tick.
        tick: Tick,
    },
    /// A peer's hash for a tick differs from the host's: a desync. Send it the host's state
    /// of that tick with [`HostSession::send_desync`] (its own comes back as
    /// [`HostEvent::DesyncState`]), then the current state with [`HostSession::resync`]. Until
    /// then no later difference of the same peer is reported; a peer that desyncs
    /// [`MAX_DESYNCS`] times within [`DESYNC_WINDOW_MICROS`] is dropped instead.
    Desync {
        /// The peer.
        peer: PeerId,
        /// The tick.
        tick: Tick,
        /// The host's hash.
        ours: HashRecord,
        /// The peer's check of its hash (its whole hash comes with its state).
        theirs: HashCheck,
    },
    /// A peer's state of a desync tick arrived (postcard bytes).
    DesyncState {
        /// The peer.
        peer: PeerId,
        /// The tick.
        tick: Tick,
        /// Its hash of it, with every part.
        hash: HashRecord,
        /// Its state.
        state: Vec<u8>,
    },
    /// A player whose host went claims its seat of this successor, with the state it has:
    /// seat it with [`HostSession::resume`] (before the next tick is fixed).
    ResumeWanted {
        /// The peer.
        peer: PeerId,
    },
    /// A resuming player sent ticks it ran that this successor lacked: run them
    /// ([`HostSession::take_recovered`]) before the next tick is fixed.
    TicksRecovered {
        /// The peer that had them.
        peer: PeerId,
        /// The first of them.
        from: Tick,
        /// How many.
        count: u32,
    },
    /// This host was succeeded: a peer came to it as to the successor of a later epoch, or it
    /// fixed no tick for [`HOST_SILENCE_MICROS`](super::HOST_SILENCE_MICROS) while players
    /// offered to host (its players have taken the match over). It must fix no more ticks:
    /// it ends, or joins the match again as a player.
    Superseded {
        /// The epoch it hosted.
        epoch: u32,
    },
    /// A player whose host went claimed its seat of this successor, and the claim could not be
    /// served: it is sent the match's state as a newcomer would be (its replay and hash log
    /// then go on from that state's tick). Said so that an operator sees why.
    ClaimUnserved {
        /// The peer.
        peer: PeerId,
        /// The name it claimed under.
        name: String,
        /// Why.
        why: UnservedClaim,
    },
    /// A message was refused and counted (malformed, oversized, out of place, stale).
    Dropped {
        /// The peer.
        peer: PeerId,
        /// What was wrong.
        why: Dropped,
    },
}

/// What was wrong with a message the host dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// It was not a message, or too large for its delivery.
    Refused(Refusal),
    /// It came from a peer that had not said hello, or that may not send it (inputs from a
    /// spectator, a second hello).
    OutOfPlace,
    /// More commands than a message may carry, or for ticks too far ahead.
    TooManyCommands,
    /// Inputs only for ticks already fixed (a replayed or very late packet).
    Stale,
}

/// Counts of what the host refused from peers, over the session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropCounts {
    /// Malformed or oversized messages.
    pub refused: u64,
    /// Messages out of place.
    pub out_of_place: u64,
    /// Inputs with too many commands.
    pub too_many: u64,
    /// Inputs only for ticks already fixed.
    pub stale: u64,
}

/// A connected peer.
#[derive(Clone, Debug)]
struct Peer<V> {
    last_heard_micros: u64,
    /// The name its hello gave (empty before it).
    name: String,
    /// Its player number or spectating, once welcomed.
    joined: Option<Joined>,
    /// Hello accepted, state asked for, not yet welcomed.
    waiting: Option<Waiting>,
    /// What a spectator last said it looks at.
    view: Option<V>,
    /// Its refused messages in the current window.
    faults: Window,
    /// Its inputs for ticks already fixed in the current window.
    stale: Window,
    /// When its recent desyncs were found, microseconds.
    desyncs: VecDeque<u64>,
    /// A desync was found and the peer not yet resynced: later differences are its echo.
    desynced: bool,
    /// Hash reports for ticks before this one predate its latest resync.
    resynced_from: Tick,
    /// The desync tick whose state the host asked it for.
    state_wanted: Option<Tick>,
    /// Every tick before this one reached the peer, as its frames say.
    received: Tick,
    /// The first tick it was sent (its welcome's): it comes whole, as the peer has not the
    /// one before.
    welcomed_at: Tick,
    /// The first tick whose hash total the host still awaits from it.
    hashes_from: Tick,
    /// Ticks sent it reliably (too large for a frame) that it has not confirmed yet.
    sent_reliably: Vec<Tick>,
    /// Its round trip, as its frames say, milliseconds (0: not known).
    round_trip_ms: u16,
    /// The stamp of its latest frame, and when it arrived (microseconds), to echo.
    stamp: Option<(u16, u64)>,
    /// Where it would host the match if the host went (a player's offer; empty if none).
    hosts_on: Vec<SocketAddr>,
    /// When it was welcomed, as the host's count of welcomes: the longest-connected first in
    /// the succession.
    joined_order: u64,
}

impl<V> Peer<V> {
    const fn new(now_micros: u64) -> Self {
        Self {
            last_heard_micros: now_micros,
            name: String::new(),
            joined: None,
            waiting: None,
            view: None,
            faults: Window::EMPTY,
            stale: Window::EMPTY,
            desyncs: VecDeque::new(),
            desynced: false,
            resynced_from: Tick::ZERO,
            state_wanted: None,
            received: Tick::ZERO,
            welcomed_at: Tick::ZERO,
            hashes_from: Tick::ZERO,
            sent_reliably: Vec::new(),
            round_trip_ms: 0,
            stamp: None,
            hosts_on: Vec::new(),
            joined_order: 0,
        }
    }
}

/// Counts within a window of [`FAULT_WINDOW_MICROS`].
#[derive(Clone, Copy, Debug)]
struct Window {
    start_micros: u64,
    count: u32,
}

impl Window {
    const EMPTY: Self = Self { start_micros: 0, count: 0 };

    /// Counts one at `now_micros`; the count in the window so far.
    fn count(&mut self, now_micros: u64) -> u32 {
        if now_micros.saturating_sub(self.start_micros) >= FAULT_WINDOW_MICROS {
            *self = Self { start_micros: now_micros, count: 0 };
        }
        self.count = self.count.saturating_add(1);
        self.count
    }
}

/// A hello the host took, waiting for the state that welcomes it.
#[derive(Clone, Debug)]
struct Waiting {
    role: Role,
    name: String,
    /// The connection it takes the seat over from (a rejoin with the seat's secret).
    replaces: Option<PeerId>,
    /// A player whose host went, claiming its seat and the tick it would run next.
    resume: Option<Resume>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Joined {
    Player(Player),
    Spectator,
    /// A spectator that is sent every tick it watches ([`Role::Recorder`]).
    Recorder,
}

impl Joined {
    /// Whether it only watches.
    const fn watches(self) -> bool {
        matches!(self, Self::Spectator | Self::Recorder)
    }
}

/// Who holds a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    /// The host's own player or bot, fed by [`HostSession::local_input`].
    Local,
    /// A connected peer.
    Peer(PeerId),
    /// A player who left, or was dropped, at `since_micros`: the seat and its name wait for it
    /// until [`HostConfig::seat_grace_micros`] is over.
    Away {
        /// When it went, microseconds.
        since_micros: u64,
    },
    /// Nobody: the seat is the next newcomer's.
    Free,
}

/// A player slot: a seat of the game, whoever plays it.
#[derive(Clone, Debug)]
struct Slot<C> {
    /// Its player's name; empty while the seat is free.
    name: String,
    holder: Holder,
    /// Inputs for ticks not yet fixed, with the host's time each arrived (microseconds).
    inputs: BTreeMap<Tick, (C, u64)>,
    /// The command fixed last, whose held input stands in for a missing one.
    last: C,
    /// The first tick its current peer sent an input for. A tick before it is fixed without
    /// the peer's input as a matter of course (the peer had yet to start sending, a round
    /// trip after its welcome), and is no late input.
    inputs_from: Option<Tick>,
    /// What proves a returning player is this one (given in its first welcome).
    secret: Option<RejoinSecret>,
}

impl<C: Default> Slot<C> {
    fn new(name: String, holder: Holder, secret: Option<RejoinSecret>) -> Self {
        Self {
            name,
            holder,
            inputs: BTreeMap::new(),
            last: C::default(),
            inputs_from: None,
            secret,
        }
    }

    /// The peer playing it, if one is connected.
    const fn peer(&self) -> Option<PeerId> {
        match self.holder {
            Holder::Peer(peer) => Some(peer),
            _ => None,
        }
    }
}

/// A tick the host fixed, kept to send again: the record, its piece as a change to the tick
/// before, and that piece's encoded size, bytes.
#[derive(Clone, Debug)]
struct FixedTick<C> {
    record: TickRecord<C>,
    piece: TickPiece<C>,
    size: usize,
}

/// The host's side of the lockstep protocol, for the game whose data `D` describes; see the
/// [module documentation](super).
pub struct HostSession<D: GameData> {
    config: HostConfig,
    peers: BTreeMap<PeerId, Peer<D::SpectatorView>>,
    slots: Vec<Slot<D::Command>>,
    next_tick: Tick,
    /// Seats to free and take before the next tick runs.
    pending: SeatChanges,
    hashes: VecDeque<(Tick, HashRecord)>,
    /// Peers' hash totals not yet compared (the host had not run the tick).
    reports: BTreeMap<(Tick, PeerId), HashCheck>,
    /// The latest [`TICK_MEMORY`] ticks fixed, with each one's piece as a change to the tick
    /// before, and that piece's encoded size.
    history: VecDeque<FixedTick<D::Command>>,
    outgoing: Vec<(PeerId, Delivery, Vec<u8>)>,
    events: Vec<HostEvent>,
    drops: DropCounts,
    /// The latest time the session was told (by [`connect`](Self::connect),
    /// [`receive`](Self::receive) or [`check_timeouts`](Self::check_timeouts)): when inputs
    /// arrive and ticks are fixed, for the peers' margins.
    now_micros: u64,
    /// Welcomes given, to order the succession by when each player came.
    welcomes: u64,
    /// The succession as the peers were last told it.
    succession: Vec<Successor>,
    /// Where the match is listed under a join code, with its secret, as the peers were last
    /// told it.
    listing: Option<SharedListing>,
    /// Its epoch: 0 for the host that started the match, one more for each takeover.
    epoch: u32,
    /// A successor waiting for the players of the succession to claim their seats.
    gather: Option<takeover::Gather>,
    /// Ticks a resuming player sent that this successor lacked, for its game to run.
    recovered: Vec<TickRecord<D::Command>>,
    /// It was succeeded, at the epoch it hosted: it fixes no more ticks.
    superseded: bool,
    /// The seats of the succession this successor took over from, in order: they keep their
    /// precedence as they come back.
    ranks: Vec<Player>,
    /// Whether the match may outlive this host: players' offers make a succession.
    takeovers: bool,
    /// It is closing every connection: the succession its peers were told stands.
    closing: bool,
    /// The seat of a successor's own player, which claims it from the same process: never a
    /// successor of this host.
    own_seat: Option<Player>,
    /// When it last sent its players a frame while gathering, microseconds.
    heartbeat_micros: u64,
    /// When it last fixed a tick (microseconds), and whether it had a succession then: a host
    /// that fixes no tick for the host silence with one was succeeded, whatever it learns of
    /// its players' departures once it looks again.
    fixed_micros: Option<u64>,
    fixed_with_successors: bool,
    /// The first tick it fixed itself, once it has: the ticks before it are its
    /// predecessors' (a successor's, what it took over or was brought), which every player
    /// that ran them ran alike; from it on, a player that ran ticks of the host before fixed
    /// them apart from this one.
    own_from: Option<Tick>,
}

impl<D: GameData> core::fmt::Debug for HostSession<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HostSession")
            .field("next_tick", &self.next_tick)
            .field("peers", &self.peers.len())
            .field("players", &self.slots.len())
            .finish_non_exhaustive()
    }
}

impl<D: GameData> HostSession<D> {
    /// A host whose game is at `next_tick`, with `config.local_players` players of its own.
    #[must_use]
    pub fn new(config: HostConfig, next_tick: Tick) -> Self {
        let slots = (0..config.local_players)
            .map(|p| Slot::new(format!("host {p}"), Holder::Local, None))
            .collect();
        Self {
            config,
            peers: BTreeMap::new(),
            slots,
            next_tick,
            pending: SeatChanges::NONE,
            hashes: VecDeque::new(),
            reports: BTreeMap::new(),
            history: VecDeque::new(),
            outgoing: Vec::new(),
            events: Vec::new(),
            drops: DropCounts::default(),
            now_micros: 0,
            welcomes: 0,
            succession: Vec::new(),
            listing: None,
            epoch: 0,
            gather: None,
            recovered: Vec::new(),
            superseded: false,
            ranks: Vec::new(),
            takeovers: true,
            closing: false,
            own_seat: None,
            heartbeat_micros: 0,
            fixed_micros: None,
            fixed_with_successors: false,
            own_from: None,
        }
    }

    /// Who would host the match next, in order, as the peers were last told.
    #[must_use]
    pub fn succession(&self) -> &[Successor] {
        &self.succession
    }

    /// Works the succession out again from the players connected now and tells every peer if
    /// it changed; whether it did.
    fn update_succession(&mut self) -> bool {
        let own = self.own_seat;
        let candidates = self.peers.values().filter_map(|p| match p.joined {
            // A successor's own player hosts here already: it dies with this host.
            Some(Joined::Player(player)) if Some(player) != own => {
                Some(Candidate { player, joined: p.joined_order, at: &p.hosts_on })
            }
            _ => None,
        });
        if self.closing {
            return false;
        }
        let order = if self.takeovers { succession(candidates) } else { Vec::new() };
        if order == self.succession {
            return false;
        }
        self.succession = order;
        let everyone = self.joined_peers(|_| true);
        for to in everyone {
            self.send_succession(to);
        }
        true
    }

    /// The welcomed peers `which` picks, by how they joined.
    fn joined_peers(&self, which: impl Fn(Joined) -> bool) -> Vec<PeerId> {
        let picked = |p: &Peer<D::SpectatorView>| p.joined.is_some_and(&which);
        self.peers.iter().filter(|(_, p)| picked(p)).map(|(&id, _)| id).collect()
    }

    /// Shares where the match is listed under a join code (`None`: nowhere), with its
    /// secret, and tells every peer if it changed: the players of the succession with the
    /// secret, so that whichever hosts next renews the listing, the others without it, so
    /// that they dial the code again.
    pub fn share_listing(&mut self, listing: Option<SharedListing>) {
        if listing == self.listing || self.closing {
            return;
        }
        self.listing = listing;
        for to in self.joined_peers(|_| true) {
            self.send_succession(to);
        }
    }

    fn send_succession(&mut self, peer: PeerId) {
        let order = self.succession.clone();
        let local = self.slots.iter().position(|s| s.holder == Holder::Local);
        let host = self.own_seat.or_else(|| local.and_then(Player::from_index));
        let seat = match self.peers.get(&peer).and_then(|p| p.joined) {
            Some(Joined::Player(player)) => Some(player),
            _ => None,
        };
        let successor = seat.is_some_and(|seat| order.iter().any(|s| s.player == seat));
        let listing =
            self.listing.as_ref().map(|l| if successor { l.clone() } else { l.without_secret() });
        let message = HostMessage::<D>::Succession { order, host, listing };
        self.send(peer, Delivery::Reliable, &message);
    }

    /// Holds the seats of a match resumed from its replay: `names` are every seat's player's
    /// name by player number (`None` for a seat that was free). The host's own seats stay its
    /// own; every other named seat waits for its player as a seat whose player left at
    /// `now_micros` does (a player who joins under the name takes its character back, within
    /// the seat grace), and a seat without a name is free for the next newcomer.
    pub fn hold_seats(&mut self, names: &[Option<String>], now_micros: u64) {
        let away = Holder::Away { since_micros: now_micros };
        for (seat, name) in names.iter().enumerate().skip(self.slots.len()) {
            let taken = |n: &String| self.slots.iter().any(|s| &s.name == n);
            let slot = match name {
                Some(name) if valid_name(name) && !taken(name) => {
                    Slot::new(name.clone(), away, None)
                }
                _ => Slot::new(String::new(), Holder::Free, None),
            };
            debug_assert_eq!(self.slots.len(), seat);
            self.slots.push(slot);
        }
    }

    /// The next tick the host fixes.
    #[must_use]
    pub const fn next_tick(&self) -> Tick {
        self.next_tick
    }

    /// Every seat's player's name, by player number: the host's own are `host 0`, `host 1`...
    /// until [`name_local`](Self::name_local) names them; a free seat's is empty.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.slots.iter().map(|s| s.name.as_str())
    }

    /// Names the host's own player `player` (before anyone joins: peers learn names as they
    /// join). A name that is empty, too long or taken leaves it as it was.
    pub fn name_local(&mut self, player: Player, name: &str) {
        let fits = valid_name(name) && !self.slots.iter().any(|s| s.name == name);
        let local = |s: &&mut Slot<D::Command>| s.holder == Holder::Local;
        if let Some(slot) = self.slots.get_mut(player.index()).filter(local).filter(|_| fits) {
            slot.name = name.to_owned();
        }
    }

    fn send_roster(&mut self, peer: PeerId) {
        let names = self.slots.iter().map(|s| s.name.clone()).collect();
        self.send(peer, Delivery::Reliable, &HostMessage::<D>::Roster { names });
    }

    /// Players in the game: playing, or away with their seats kept for them (what
    /// [`HostConfig::max_players`] counts).
    #[must_use]
    pub fn players(&self) -> usize {
        self.slots.iter().filter(|s| s.holder != Holder::Free).count()
    }

    /// Players away whose seats are kept for them ([`HostConfig::seat_grace_micros`]).
    #[must_use]
    pub fn seats_in_grace(&self) -> usize {
        self.slots.iter().filter(|s| matches!(s.holder, Holder::Away { .. })).count()
    }

    /// The names of the players in the game (playing, or away with their seats kept), by
    /// player number: what an orchestrator's player list shows.
    pub fn seated_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.slots.iter().filter(|s| s.holder != Holder::Free).map(|s| s.name.as_str())
    }

    /// The seats the game has, taken or free: the commands a tick carries.
    #[must_use]
    pub fn seats(&self) -> usize {
        self.slots.len()
    }

    /// What was refused so far.
    #[must_use]
    pub const fn drops(&self) -> DropCounts {
        self.drops
    }

    /// The peers connected, with their player numbers (`None` for spectators and peers not
    /// yet welcomed).
    pub fn peers(&self) -> impl Iterator<Item = (PeerId, Option<Player>)> + '_ {
        self.peers.iter().map(|(&id, p)| {
            let player = match p.joined {
                Some(Joined::Player(n)) => Some(n),
                _ => None,
            };
            (id, player)
        })
    }

    /// The spectators welcomed (recorders among them).
    pub fn spectators(&self) -> impl Iterator<Item = PeerId> + '_ {
        let watching = |p: &Peer<D::SpectatorView>| p.joined.is_some_and(Joined::watches);
        self.peers.iter().filter(move |(_, p)| watching(p)).map(|(&id, _)| id)
    }

    /// The recorders welcomed: the spectators sent every tick they watch
    /// ([`send_watched_tick`](Self::send_watched_tick)).
    pub fn recorders(&self) -> impl Iterator<Item = PeerId> + '_ {
        self.peers.iter().filter(|(_, p)| p.joined == Some(Joined::Recorder)).map(|(&id, _)| id)
    }

    /// Whether `peer` waits to be welcomed as a recorder: its welcome brings the state it
    /// watches from ([`welcome_recorder`](Self::welcome_recorder)).
    #[must_use]
    pub fn recorder_waiting(&self, peer: PeerId) -> bool {
        let waiting = self.peers.get(&peer).and_then(|p| p.waiting.as_ref());
        waiting.is_some_and(|w| w.role == Role::Recorder)
    }

    /// The round trip to `peer` as its frames say, microseconds (`None`: not known yet). A
    /// peer measures it; the host shows it.
    #[must_use]
    pub fn round_trip_micros(&self, peer: PeerId) -> Option<u64> {
        let ms = self.peers.get(&peer)?.round_trip_ms;
        (ms > 0).then(|| u64::from(ms) * 1_000)
    }

    /// What spectator `peer` last said it looks at, if it said.
    #[must_use]
    pub fn spectator_view(&self, peer: PeerId) -> Option<&D::SpectatorView> {
        self.peers.get(&peer).and_then(|p| p.view.as_ref())
    }

    /// The transport connected `peer` at `now_micros`.
    pub fn connect(&mut self, peer: PeerId, now_micros: u64) {
        self.now_micros = self.now_micros.max(now_micros);
        self.peers.insert(peer, Peer::new(now_micros));
    }

    /// The transport lost `peer` (it left, or the transport gave up on it).
    pub fn disconnect(&mut self, peer: PeerId) {
        self.remove_peer(peer, None);
    }

    /// Ends `peer`'s connection for `goodbye`: tells it why (its last message), and forgets it;
    /// the [`HostEvent::PeerLeft`] that follows asks the transport to close the connection
    /// once the goodbye is sent.
    pub fn drop_peer(&mut self, peer: PeerId, goodbye: Goodbye) {
        if !self.peers.contains_key(&peer) {
            return;
        }
        self.send(peer, Delivery::Reliable, &HostMessage::<D>::Goodbye(goodbye.clone()));
        self.remove_peer(peer, Some(goodbye));
    }

    /// Ends the match for every peer: each is told, and forgotten. A player is first sent the
    /// ticks it has not confirmed, reliably, so that it plays to the last one: no frame comes
    /// after the goodbye to make up for one lost.
    pub fn end_match(&mut self) {
        self.close_all(&Goodbye::MatchEnded);
    }

    /// Sends every player the ticks it has not confirmed, reliably, then says `goodbye` to
    /// every peer and forgets it.
    fn close_all(&mut self, goodbye: &Goodbye) {
        // The peers keep the succession they were told: one without those dropped before
        // them would leave the last with nobody to turn to.
        self.closing = true;
        let everyone: Vec<PeerId> = self.peers.keys().copied().collect();
        for peer in everyone {
            let unconfirmed: Vec<TickRecord<D::Command>> = match self.peers.get(&peer) {
                Some(p) if matches!(p.joined, Some(Joined::Player(_))) => self
                    .history
                    .iter()
                    .filter(|f| f.record.tick >= p.received.max(p.welcomed_at))
                    .map(|f| f.record.clone())
                    .collect(),
                _ => Vec::new(),
            };
            for record in unconfirmed {
                self.send(peer, Delivery::Reliable, &HostMessage::<D>::Tick(record));
            }
            self.drop_peer(peer, goodbye.clone());
        }
    }

    fn remove_peer(&mut self, peer: PeerId, goodbye: Option<Goodbye>) {
        let Some(gone) = self.peers.remove(&peer) else { return };
        let now = self.now_micros;
        let player = match gone.joined {
            Some(Joined::Player(n)) => {
                if let Some(slot) = self.slots.get_mut(n.index())
                    && slot.holder == Holder::Peer(peer)
                {
                    slot.holder = Holder::Away { since_micros: now };
                    slot.inputs.clear();
                    // Its character idles: no held input goes on walking it into a wall.
                    slot.last = D::Command::default();
                }
                Some(n)
            }
            _ => None,
        };
        let name = gone.name;
        self.events.push(HostEvent::PeerLeft { peer, name, player, goodbye });
        self.update_succession();
    }

    /// When the session next needs [`check_timeouts`](Self::check_timeouts), microseconds:
    /// just after the quietest peer has been silent for [`PEER_TIMEOUT_MICROS`], or the
    /// earliest kept seat's grace is over. `None` with neither. A host that sleeps between
    /// looks at its socket need not look sooner for the session's sake.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        let quietest = self.peers.values().map(|p| p.last_heard_micros).min();
        let silent = quietest.map(|at| at.saturating_add(PEER_TIMEOUT_MICROS + 1));
        let grace = self.config.seat_grace_micros;
        let freed = self
            .slots
            .iter()
            .filter_map(|s| match s.holder {
                Holder::Away { since_micros } => Some(since_micros.saturating_add(grace)),
                _ => None,
            })
            .min();
        let gathered = self.gather.as_ref().map(|g| g.until_micros);
        silent.into_iter().chain(freed).chain(gathered).min()
    }

    /// Frees the seats whose players have been away for [`HostConfig::seat_grace_micros`] by
    /// now: each is freed before the next tick (or, taken by a newcomer who left again before
    /// that tick, never taken at all), its name forgotten, and every peer told the new roster.
    fn free_expired_seats(&mut self) {
        let (now, grace) = (self.now_micros, self.config.seat_grace_micros);
        let mut freed = false;
        for (number, slot) in self.slots.iter_mut().enumerate() {
            let Holder::Away { since_micros } = slot.holder else { continue };
            if now.saturating_sub(since_micros) < grace {
                continue;
            }
            // Seats number at most max_players, which every host sets far below 2^16.
            let seat = Player::from_index(number).unwrap_or(Player(u16::MAX));
            let name = core::mem::take(&mut slot.name);
            *slot = Slot::new(String::new(), Holder::Free, None);
            if let Some(at) = self.pending.joined.iter().position(|&s| s == seat) {
                self.pending.joined.remove(at);
            } else {
                self.pending.freed.push(seat);
            }
            self.events.push(HostEvent::SeatFreed { player: seat, name });
            freed = true;
        }
        if freed {
            let everyone = self.joined_peers(|_| true);
            for to in everyone {
                self.send_roster(to);
            }
        }
    }

    /// Drops peers that have been silent for [`PEER_TIMEOUT_MICROS`], and frees the seats of
    /// players away longer than [`HostConfig::seat_grace_micros`].
    pub fn check_timeouts(&mut self, now_micros: u64) {
        self.now_micros = self.now_micros.max(now_micros);
        self.notice_stop();
        self.heartbeat();
        self.free_expired_seats();
        let silent: Vec<PeerId> = self
            .peers
            .iter()
            .filter(|(_, p)| now_micros.saturating_sub(p.last_heard_micros) > PEER_TIMEOUT_MICROS)
            .map(|(&id, _)| id)
            .collect();
        for peer in silent {
            self.drop_peer(peer, Goodbye::TimedOut);
        }
    }

    /// Counts a refused message of `peer`'s, and drops a peer that sends them faster than an
    /// honest one could ([`MAX_FAULTS`], [`MAX_STALE`]).
    fn drop_message(&mut self, peer: PeerId, why: Dropped) {
        match why {
            Dropped::Refused(_) => self.drops.refused += 1,
            Dropped::OutOfPlace => self.drops.out_of_place += 1,
            Dropped::TooManyCommands => self.drops.too_many += 1,
            Dropped::Stale => self.drops.stale += 1,
        }
        self.events.push(HostEvent::Dropped { peer, why });
        let now = self.now_micros;
        let Some(p) = self.peers.get_mut(&peer) else { return };
        let over = match why {
            Dropped::Stale => p.stale.count(now) > MAX_STALE,
            _ => p.faults.count(now) > MAX_FAULTS,
        };
        if over {
            let goodbye = match why {
                Dropped::TooManyCommands | Dropped::Stale => Goodbye::TooManyCommands,
                Dropped::Refused(_) | Dropped::OutOfPlace => Goodbye::Malformed,
            };
            self.drop_peer(peer, goodbye);
        }
    }

    /// `bytes` arrived from `peer` with `delivery` at `now_micros`.
    pub fn receive(&mut self, peer: PeerId, delivery: Delivery, bytes: &[u8], now_micros: u64) {
        self.now_micros = self.now_micros.max(now_micros);
        let Some(known) = self.peers.get_mut(&peer) else { return };
        known.last_heard_micros = now_micros;
        let message: PeerMessage<D> = match decode(bytes, delivery) {
            Ok(m) => m,
            Err(refusal) => return self.drop_message(peer, Dropped::Refused(refusal)),
        };
        match message {
            ToHost::Hello { identity, name, role, rejoin, resume, view } => {
                self.hello(peer, &identity, name, role, rejoin, resume);
                if let Some(p) = self.peers.get_mut(&peer)
                    && role.watches()
                    && view.is_some()
                {
                    p.view = view;
                }
            }
            ToHost::Ticks { records } => self.recover_ticks(peer, records),
            ToHost::Frame(frame) => self.frame(peer, frame),
            ToHost::HostsOn { at } => {
                let playing = self
                    .peers
                    .get(&peer)
                    .is_some_and(|p| matches!(p.joined, Some(Joined::Player(_))));
                if !playing {
                    return self.drop_message(peer, Dropped::OutOfPlace);
                }
                if !valid_offer(&at) {
                    return self.drop_message(peer, Dropped::Refused(Refusal::Malformed));
                }
                if let Some(p) = self.peers.get_mut(&peer) {
                    p.hosts_on = at;
                }
                self.update_succession();
            }
            ToHost::DesyncState { tick, hash, state } => match self.peers.get_mut(&peer) {
                Some(p) if p.state_wanted == Some(tick) => {
                    p.state_wanted = None;
                    self.events.push(HostEvent::DesyncState { peer, tick, hash, state });
                }
                _ => self.drop_message(peer, Dropped::OutOfPlace),
            },
        }
    }

    fn refuse(&mut self, peer: PeerId, name: &str, role: Role, goodbye: Goodbye) {
        let mut name = name.to_owned();
        if name.len() > MAX_NAME_BYTES {
            let cut = (0..=MAX_NAME_BYTES).rev().find(|&i| name.is_char_boundary(i)).unwrap_or(0);
            name.truncate(cut);
        }
        self.events.push(HostEvent::Refused { peer, name, role, goodbye: goodbye.clone() });
        self.drop_peer(peer, goodbye);
    }

    fn hello(
        &mut self,
        peer: PeerId,
        identity: &Identity,
        name: String,
        role: Role,
        rejoin: Option<RejoinSecret>,
        resume: Option<Resume>,
    ) {
        let known = self.peers.get(&peer);
        if known.is_some_and(|p| p.joined.is_some() || p.waiting.is_some()) {
            return self.drop_message(peer, Dropped::OutOfPlace);
        }
        if let Some(what) = self.config.identity.mismatch(identity) {
            return self.refuse(peer, &name, role, Goodbye::Mismatch(what));
        }
        if !valid_name(&name) {
            return self.refuse(peer, &name, role, Goodbye::BadName);
        }
        if let Some(resume) = resume
            && self.claim(peer, &name, role, resume)
        {
            return;
        }
        let mut replaces = None;
        if role == Role::Player {
            let seat = self.slots.iter().find(|s| s.name == name);
            let asking_too = self.peers.iter().any(|(&id, p)| {
                id != peer
                    && p.waiting.as_ref().is_some_and(|w| w.role == Role::Player && w.name == name)
            });
            let proven = seat.is_some_and(|s| s.secret.is_some() && s.secret == rejoin);
            match seat.map(|s| s.holder) {
                Some(Holder::Local) => {
                    return self.refuse(peer, &name, role, Goodbye::NameInUse(name.clone()));
                }
                Some(Holder::Peer(_)) if !proven => {
                    return self.refuse(peer, &name, role, Goodbye::NameInUse(name.clone()));
                }
                Some(Holder::Peer(old)) => replaces = Some(old),
                Some(Holder::Away { .. } | Holder::Free) | None => {}
            }
            if asking_too {
                return self.refuse(peer, &name, role, Goodbye::NameInUse(name.clone()));
            }
            let returning = seat.is_some();
            // The players there are or whose seats wait for them (a welcomed one has its slot
            // already), and those asking to be, not yet welcomed, who are not coming back to a
            // slot of their own.
            let asking = self
                .peers
                .values()
                .filter_map(|p| match &p.waiting {
                    Some(Waiting { role: Role::Player, name: waiting, .. }) => Some(waiting),
                    _ => None,
                })
                .filter(|waiting| !self.slots.iter().any(|s| &s.name == *waiting))
                .count();
            let joined = self.players() + asking;
            if !returning && joined >= self.config.max_players {
                let (players, max) = (joined, self.config.max_players);
                // Seats are counted in thousands at most.
                let full = Goodbye::Full {
                    players: u32::try_from(players).unwrap_or(u32::MAX),
                    max: u32::try_from(max).unwrap_or(u32::MAX),
                };
                return self.refuse(peer, &name, role, full);
            }
        } else {
            let watching = self
                .peers
                .values()
                .filter(|p| {
                    p.joined.is_some_and(Joined::watches)
                        || p.waiting.as_ref().is_some_and(|w| w.role.watches())
                })
                .count();
            if watching >= self.config.max_spectators {
                // Counted in hundreds at most.
                let full = Goodbye::NoRoomToWatch {
                    spectators: u32::try_from(watching).unwrap_or(u32::MAX),
                    max: u32::try_from(self.config.max_spectators).unwrap_or(u32::MAX),
                };
                return self.refuse(peer, &name, role, full);
            }
        }
        if let Some(p) = self.peers.get_mut(&peer) {
            p.name.clone_from(&name);
            p.waiting = Some(Waiting { role, name, replaces, resume: None });
        }
        self.events.push(HostEvent::StateWanted { peer });
    }

    /// Welcomes `peer`, which asked with [`HostEvent::StateWanted`]: sends it the game's
    /// state at [`next_tick`](Self::next_tick) (postcard bytes and hash total; a spectator
    /// gets none) and, for a new player, adds its player before the next tick, giving it
    /// `fresh` as the secret that proves it when it rejoins (a returning player keeps its
    /// own). `fresh` must be unguessable: random bits from the operating system.
    ///
    /// A player who rejoined with its secret takes its seat over from its old connection,
    /// which is told [`Goodbye::Replaced`] and dropped.
    pub fn welcome(&mut self, peer: PeerId, state: &[u8], hash: u64, fresh: RejoinSecret) {
        self.admit(peer, self.next_tick, state, hash, fresh);
    }

    /// Welcomes recorder `peer` (see [`recorder_waiting`](Self::recorder_waiting)) with the
    /// state spectators watch from: at `tick`, the next tick it is sent
    /// ([`send_watched_tick`](Self::send_watched_tick)), which a host that holds spectators
    /// back runs a delay behind its own. Nothing happens to a peer that is not a waiting
    /// recorder: a player is welcomed with [`welcome`](Self::welcome) only.
    pub fn welcome_recorder(&mut self, peer: PeerId, tick: Tick, state: &[u8], hash: u64) {
        if !self.recorder_waiting(peer) {
            return;
        }
        // A recorder has no seat, so no secret to prove one.
        self.admit(peer, tick, state, hash, RejoinSecret([0; 16]));
    }

    /// Sends recorder `peer` a tick it watches, whole and reliably: each in order, from its
    /// welcome's tick on.
    pub fn send_watched_tick(&mut self, peer: PeerId, record: &TickRecord<D::Command>) {
        if self.peers.get(&peer).is_some_and(|p| p.joined == Some(Joined::Recorder)) {
            self.send(peer, Delivery::Reliable, &HostMessage::<D>::Tick(record.clone()));
        }
    }

    /// Lets `peer` in at `tick` with `state`; see [`welcome`](Self::welcome).
    fn admit(&mut self, peer: PeerId, tick: Tick, state: &[u8], hash: u64, fresh: RejoinSecret) {
        let Some(Waiting { role, name, replaces, .. }) =
            self.peers.get_mut(&peer).and_then(|p| p.waiting.take())
        else {
            return;
        };
        if let Some(old) = replaces {
            self.drop_peer(old, Goodbye::Replaced);
        }
        let (joined, player, rejoined) = match role {
            Role::Spectator => (Joined::Spectator, None, false),
            Role::Recorder => (Joined::Recorder, None, false),
            Role::Player => {
                let existing = self.slots.iter().position(|s| s.name == name);
                let (number, rejoined) = match existing.and_then(Player::from_index) {
                    Some(existing) => (existing, true),
                    None => {
                        // The lowest free seat, or a new one after the last.
                        let seat = self.slots.iter().position(|s| s.holder == Holder::Free);
                        let seat = seat.unwrap_or(self.slots.len());
                        let slot = Slot::new(name.clone(), Holder::Free, Some(fresh));
                        match self.slots.get_mut(seat) {
                            Some(free) => *free = slot,
                            None => self.slots.push(slot),
                        }
                        // At most max_players, which is far below u16::MAX.
                        let seat = Player::from_index(seat).unwrap_or(Player(u16::MAX));
                        self.pending.joined.push(seat);
                        (seat, false)
                    }
                };
                (Joined::Player(number), Some(number), rejoined)
            }
        };
        self.welcomes += 1;
        if let Some(p) = self.peers.get_mut(&peer) {
            p.joined = Some(joined);
            p.joined_order = self.welcomes;
            p.received = tick;
            p.welcomed_at = tick;
            p.hashes_from = tick;
        }
        let mut rejoin = None;
        if let Some(n) = player
            && let Some(slot) = self.slots.get_mut(n.index())
        {
            slot.holder = Holder::Peer(peer);
            slot.inputs_from = None;
            slot.inputs.clear();
            rejoin = Some(*slot.secret.get_or_insert(fresh));
        }
        let state = if joined == Joined::Spectator { Vec::new() } else { state.to_vec() };
        let epoch = self.epoch;
        let welcome =
            HostMessage::<D>::Welcome(Welcome { player, tick, state, hash, rejoin, epoch });
        self.send(peer, Delivery::Reliable, &welcome);
        self.announce(peer, player, name, rejoined);
    }

    /// Tells every peer of a player's arrival (its name in the roster), and the newcomer who
    /// hosts next; and the host's game, with an event.
    fn announce(&mut self, peer: PeerId, player: Option<Player>, name: String, rejoined: bool) {
        if let Some(player) = player {
            self.arrived(player);
            // Everyone learns the newcomer's name (a spectator only needs the roster once).
            let everyone = self.joined_peers(|_| true);
            for to in everyone {
                self.send_roster(to);
            }
        } else {
            self.send_roster(peer);
        }
        // A newcomer learns who hosts next (the others, only if that changed).
        if !self.update_succession() && !self.succession.is_empty() {
            self.send_succession(peer);
        }
        self.events.push(match player {
            Some(player) => HostEvent::PlayerJoined { peer, player, name, rejoined },
            None => HostEvent::SpectatorJoined { peer, name },
        });
    }

    /// A peer's frame: what it received, its inputs and hashes, or what it looks at.
    fn frame(&mut self, peer: PeerId, frame: PeerFrame<D::Command, D::SpectatorView>) {
        let next = self.next_tick;
        let Some(p) = self.peers.get_mut(&peer) else { return };
        let player = match p.joined {
            Some(Joined::Player(n)) => n,
            Some(Joined::Spectator | Joined::Recorder)
                if frame.inputs.is_none() && frame.hashes.is_none() =>
            {
                p.round_trip_ms = frame.round_trip_ms;
                if let Some(view) = frame.view {
                    p.view = Some(view);
                }
                return;
            }
            _ => return self.drop_message(peer, Dropped::OutOfPlace),
        };
        if frame.view.is_some() {
            // What it looks at is a spectator's to say.
            return self.drop_message(peer, Dropped::OutOfPlace);
        }
        let too_many = frame.hashes.as_ref().is_some_and(|h| h.checks.len() > MAX_HASHES_PER_FRAME);
        let hashes_first = frame.hashes.as_ref().map(|h| h.first.tick(frame.received));
        let inputs_first = frame.inputs.as_ref().map(|i| i.first.tick(frame.received));
        let beyond =
            hashes_first.is_some_and(|t| t.is_none()) || inputs_first.is_some_and(|t| t.is_none());
        if frame.received > next || too_many || beyond {
            return self.drop_message(peer, Dropped::Refused(Refusal::Malformed));
        }
        let Some(p) = self.peers.get_mut(&peer) else { return };
        p.stamp = Some((frame.stamp, self.now_micros));
        p.received = p.received.max(frame.received);
        p.sent_reliably.retain(|&t| t >= frame.received);
        if frame.round_trip_ms > 0 {
            p.round_trip_ms = frame.round_trip_ms;
        }
        if let (Some(hashes), Some(Some(first))) = (frame.hashes, hashes_first) {
            let from = p.hashes_from;
            #[expect(
                clippy::cast_possible_truncation,
                reason = "at most MAX_HASHES_PER_FRAME checks: a frame with more was refused above"
            )]
            let end = first.0.saturating_add(hashes.checks.len() as u32);
            if first <= p.hashes_from {
                // Contiguous with what came: acknowledged up to its end. (A frame with only
                // newer checks leaves a lost one unacknowledged, to come again.)
                p.hashes_from = p.hashes_from.max(Tick(end.min(next.0)));
            }
            for (offset, check) in hashes.checks.into_iter().enumerate() {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "at most MAX_HASHES_PER_FRAME checks: a frame with more was refused above"
                )]
                let tick = Tick(first.0.saturating_add(offset as u32));
                if tick >= from {
                    self.hash_report(peer, tick, check);
                }
            }
        }
        if let (Some(runs), Some(Some(first))) = (frame.inputs, inputs_first) {
            self.inputs(peer, player, first, &runs);
        }
    }

    fn inputs(&mut self, peer: PeerId, player: Player, first: Tick, runs: &InputRuns<D::Command>) {
        let Ok(commands) = runs.commands() else {
            return self.drop_message(peer, Dropped::TooManyCommands);
        };
        let last = u32::try_from(commands.len()).ok().and_then(|len| first.0.checked_add(len));
        let too_far = last.is_none_or(|end| end > self.next_tick.0 + MAX_INPUT_LEAD_TICKS);
        if commands.len() > MAX_INPUTS_PER_MESSAGE || too_far {
            return self.drop_message(peer, Dropped::TooManyCommands);
        }
        let next = self.next_tick;
        let welcomed_at = self.peers.get(&peer).map_or(next, |p| p.welcomed_at);
        let Some(slot) = self.slots.get_mut(player.index()) else { return };
        let counted_from = slot.inputs_from;
        let mut current = false;
        for (offset, command) in commands.into_iter().enumerate() {
            // Within MAX_INPUT_LEAD_TICKS of the next tick: no overflow.
            #[expect(
                clippy::cast_possible_truncation,
                reason = "at most MAX_INPUTS_PER_MESSAGE commands: a message with more was dropped above"
            )]
            let tick = Tick(first.0 + offset as u32);
            if tick >= next {
                slot.inputs_from = Some(slot.inputs_from.map_or(tick, |from| from.min(tick)));
                // The first copy of a repeated input is the one kept.
                slot.inputs.entry(tick).or_insert((command, self.now_micros));
                current = true;
            }
        }
        // An input for a tick already fixed, from before any input of this peer counted: the
        // peer had started sending, and its first inputs came late. The ticks fixed since
        // were fixed without them, uncounted, and are counted now (the latest TICK_MEMORY: a
        // peer further behind has been dropped).
        let earliest = first.max(welcomed_at).max(Tick(next.0.saturating_sub(TICK_MEMORY)));
        if earliest < next && counted_from.is_none_or(|from| earliest < from) {
            let until = counted_from.map_or(next, |from| from.min(next));
            slot.inputs_from = Some(slot.inputs_from.map_or(earliest, |f| f.min(earliest)));
            for tick in earliest.0..until.0 {
                self.events.push(HostEvent::InputLate { player, tick: Tick(tick) });
            }
        }
        if !current {
            self.drop_message(peer, Dropped::Stale);
        }
    }

    /// The host's own player `player` (see [`HostConfig::local_players`]) gives its command for
    /// `tick`.
    pub fn local_input(&mut self, player: Player, tick: Tick, command: D::Command) {
        if tick < self.next_tick {
            return;
        }
        let local = |s: &&mut Slot<D::Command>| s.holder == Holder::Local;
        if let Some(slot) = self.slots.get_mut(player.index()).filter(local) {
            slot.inputs.insert(tick, (command, self.now_micros));
        }
    }

    /// Fixes the next tick: every player's command (a missing one replaced by the player's
    /// held input, and the player told), the players who join and leave before it; sends it
    /// to every player and tells each how its inputs stand. Returns it for the host's game to
    /// run.
    pub fn fix_tick(&mut self) -> TickRecord<D::Command> {
        self.free_expired_seats();
        let tick = self.next_tick;
        self.own_from.get_or_insert(tick);
        self.fixed_micros = Some(self.now_micros);
        self.fixed_with_successors = !self.succession.is_empty();
        self.gather = None;
        let seats = core::mem::take(&mut self.pending);
        let mut commands = Vec::with_capacity(self.slots.len());
        let mut acks = Vec::new();
        for (number, slot) in self.slots.iter_mut().enumerate() {
            let fresh = slot.inputs.remove(&tick);
            let started = slot.inputs_from.is_some_and(|from| from <= tick);
            let late = fresh.is_none() && slot.peer().is_some() && started;
            // Microseconds well under an hour: a u32 holds them.
            let early_micros = fresh.as_ref().map(|(_, at)| {
                u32::try_from(self.now_micros.saturating_sub(*at)).unwrap_or(u32::MAX)
            });
            let command = match (fresh, slot.holder) {
                // A free seat's command is ignored by the rules: the default, the fewest bytes.
                (_, Holder::Free) => D::Command::default(),
                (Some((command, _)), _) => command,
                (None, _) => slot.last.held(),
            };
            slot.last = command.clone();
            commands.push(command);
            if let Some(peer) = slot.peer() {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "at most MAX_INPUT_LEAD_TICKS inputs are ever kept"
                )]
                let queued = slot.inputs.len() as u32;
                let mut missing = tick.next();
                while slot.inputs.contains_key(&missing) {
                    missing = missing.next();
                }
                acks.push((peer, number, queued, late, missing, early_micros));
            }
        }
        let record = TickRecord { tick, seats, commands };
        self.next_tick = tick.next();
        self.remember(&record);
        let statuses: BTreeMap<PeerId, InputStatus> = acks
            .iter()
            .map(|&(peer, _, queued, _, missing, early_micros)| {
                (peer, InputStatus { tick, missing, queued, early_micros })
            })
            .collect();
        for peer in self.joined_peers(|joined| matches!(joined, Joined::Player(_))) {
            self.send_frames(peer, statuses.get(&peer).copied());
        }
        for (_, number, _, late, _, _) in acks {
            if late {
                // At most max_players.
                let player = Player::from_index(number).unwrap_or(Player(u16::MAX));
                self.events.push(HostEvent::InputLate { player, tick });
            }
        }
        record
    }

    /// Keeps `record` (the tick just fixed) to send again, with its piece.
    fn remember(&mut self, record: &TickRecord<D::Command>) {
        while self.history.len() >= TICK_MEMORY as usize {
            self.history.pop_front();
        }
        let before = self.history.back().map(|f| f.record.commands.as_slice());
        let piece = TickPiece::of(before, &record.seats, &record.commands);
        let size = encode(&piece).len();
        self.history.push_back(FixedTick { record: record.clone(), piece, size });
    }

    /// The record of `tick` as this host fixed or took it, if it still keeps it (the ticks it
    /// keeps follow on from each other).
    fn kept(&self, tick: Tick) -> Option<&TickRecord<D::Command>> {
        let oldest = self.history.front()?.record.tick;
        let at = usize::try_from(tick.0.checked_sub(oldest.0)?).ok()?;
        self.history.get(at).map(|f| &f.record).filter(|r| r.tick == tick)
    }

    /// Sends `peer` the ticks it has not confirmed, in frames, the first with how its inputs
    /// stood (`status`). A tick too large for a frame goes reliably, once.
    fn send_frames(&mut self, peer: PeerId, status: Option<InputStatus>) {
        let Some(oldest) = self.history.front().map(|f| f.record.tick) else { return };
        let Some(p) = self.peers.get_mut(&peer) else { return };
        let from = p.received.max(p.welcomed_at);
        if from < oldest {
            // It has confirmed nothing for longer than the host remembers.
            return self.drop_peer(peer, Goodbye::TimedOut);
        }
        let mut frames: Vec<TickRun<D::Command>> = Vec::new();
        let mut reliable: Vec<TickRecord<D::Command>> = Vec::new();
        let mut bytes = 0;
        let skip = usize::try_from(from.since(oldest)).unwrap_or(usize::MAX);
        for FixedTick { record, piece: delta, size: delta_size } in self.history.iter().skip(skip) {
            let whole;
            let (mut piece, size) = if record.tick == p.welcomed_at {
                whole = TickPiece::of(None, &record.seats, &record.commands);
                let size = encode(&whole).len();
                (&whole, size)
            } else {
                (delta, *delta_size)
            };
            if size > PIECE_BUDGET_BYTES {
                if !p.sent_reliably.contains(&record.tick) {
                    p.sent_reliably.push(record.tick);
                    reliable.push(record.clone());
                }
                piece = &TickPiece::Reliable;
            }
            let full = frames.last().is_none_or(|run| {
                run.pieces.len() >= MAX_TICKS_PER_FRAME || bytes + size > PIECE_BUDGET_BYTES
            });
            if full {
                if frames.len() == FRAMES_PER_TICK {
                    break;
                }
                frames.push(TickRun { first: record.tick, pieces: Vec::new() });
                bytes = 0;
            }
            if let Some(run) = frames.last_mut() {
                run.pieces.push(piece.clone());
                bytes += size.min(PIECE_BUDGET_BYTES);
            }
        }
        let hashes_from = p.hashes_from;
        let now = self.now_micros;
        let echo = p.stamp.map(|(stamp, at)| {
            // Held a few milliseconds: a u16 holds them.
            (stamp, u16::try_from(now.saturating_sub(at) / 1_000).unwrap_or(u16::MAX))
        });
        for record in reliable {
            self.send(peer, Delivery::Reliable, &HostMessage::<D>::Tick(record));
        }
        if frames.is_empty() {
            frames.push(TickRun { first: from, pieces: Vec::new() });
        }
        for (i, run) in frames.into_iter().enumerate() {
            let ticks = (!run.pieces.is_empty()).then_some(run);
            let input = if i == 0 { status } else { None };
            let frame = HostFrame { ticks, input, hashes_from, echo };
            self.send(peer, Delivery::Unreliable, &HostMessage::<D>::Frame(frame));
        }
    }

    /// The host's own state hash after running `tick`: compared with the peers' reports.
    pub fn local_hash(&mut self, tick: Tick, hash: HashRecord) {
        while self.hashes.len() >= HASH_MEMORY_TICKS as usize {
            self.hashes.pop_front();
        }
        self.hashes.push_back((tick, hash));
        let waiting: Vec<(Tick, PeerId)> = self
            .reports
            .range((tick, PeerId(0))..=(tick, PeerId(u64::MAX)))
            .map(|(k, _)| *k)
            .collect();
        for key in waiting {
            if let Some(theirs) = self.reports.remove(&key) {
                self.compare(key.1, tick, theirs);
            }
        }
        // Reports for ticks that fell out of memory can never be compared.
        let oldest = self.hashes.front().map_or(tick, |(t, _)| *t);
        self.reports.retain(|(t, _), _| *t >= oldest);
    }

    fn hash_report(&mut self, peer: PeerId, tick: Tick, theirs: HashCheck) {
        let Some(p) = self.peers.get(&peer) else { return };
        if !matches!(p.joined, Some(Joined::Player(_))) {
            return self.drop_message(peer, Dropped::OutOfPlace);
        }
        if tick < p.resynced_from {
            // Of the state the latest resync replaced: its differences are known.
            return;
        }
        if self.hashes.iter().any(|(t, _)| *t == tick) {
            self.compare(peer, tick, theirs);
        } else if tick < self.next_tick
            && tick.0 >= self.next_tick.0.saturating_sub(HASH_MEMORY_TICKS)
        {
            // Fixed, but not run by the host's game yet.
            self.reports.insert((tick, peer), theirs);
        } else {
            // A tick never fixed, or long forgotten: nothing to compare it with.
            self.drop_message(peer, Dropped::Stale);
        }
    }

    fn compare(&mut self, peer: PeerId, tick: Tick, theirs: HashCheck) {
        let Some((_, ours)) = self.hashes.iter().find(|(t, _)| *t == tick) else { return };
        if HashCheck::of(ours.total) == theirs {
            return;
        }
        let ours = ours.clone();
        let now = self.now_micros;
        let Some(p) = self.peers.get_mut(&peer) else { return };
        if p.desynced || tick < p.resynced_from {
            return;
        }
        p.desynced = true;
        while p.desyncs.front().is_some_and(|&at| now.saturating_sub(at) >= DESYNC_WINDOW_MICROS) {
            p.desyncs.pop_front();
        }
        p.desyncs.push_back(now);
        #[expect(clippy::cast_possible_truncation, reason = "at most MAX_DESYNCS are kept")]
        let desyncs = p.desyncs.len() as u32;
        self.events.push(HostEvent::Desync { peer, tick, ours, theirs });
        if desyncs >= MAX_DESYNCS {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "the window is a minute: 60 seconds"
            )]
            let window_seconds = (DESYNC_WINDOW_MICROS / 1_000_000) as u32;
            self.drop_peer(peer, Goodbye::RepeatedDesyncs { desyncs, window_seconds });
        }
    }

    /// Sends player `peer`, whose state differed from the host's, the host's state at
    /// [`next_tick`](Self::next_tick) (postcard bytes and hash total): it goes on from there,
    /// and its reports of earlier ticks are no longer compared.
    pub fn resync(&mut self, peer: PeerId, state: &[u8], hash: u64) {
        let tick = self.next_tick;
        let Some(p) = self.peers.get_mut(&peer) else { return };
        let Some(Joined::Player(player)) = p.joined else { return };
        p.desynced = false;
        p.resynced_from = tick;
        // Its hashes start again from the resync's state.
        p.hashes_from = tick;
        self.reports.retain(|&(t, id), _| id != peer || t >= tick);
        let (state, epoch) = (state.to_vec(), self.epoch);
        let welcome = Welcome { player: Some(player), tick, state, hash, rejoin: None, epoch };
        self.send(peer, Delivery::Reliable, &HostMessage::<D>::Resync(welcome));
    }

    /// Tells `peer` that its hash of `tick` differs, sending the host's hash and state of it.
    pub fn send_desync(&mut self, peer: PeerId, tick: Tick, hash: HashRecord, state: Vec<u8>) {
        let Some(p) = self.peers.get_mut(&peer) else { return };
        p.state_wanted = Some(tick);
        self.send(
            peer,
            Delivery::Reliable,
            &HostMessage::<D>::Desync(DesyncNotice { tick, hash, state }),
        );
    }

    /// Sends spectator `peer` what it is sent of a tick.
    pub fn send_update(&mut self, peer: PeerId, update: D::SpectatorUpdate) {
        self.send(peer, Delivery::Reliable, &HostMessage::<D>::Update(update));
    }

    fn send(&mut self, peer: PeerId, delivery: Delivery, message: &HostMessage<D>) {
        self.outgoing.push((peer, delivery, encode(message)));
    }

    /// The messages to send, each to its peer with its delivery, since the last call.
    pub fn drain_outgoing(&mut self) -> std::vec::Drain<'_, (PeerId, Delivery, Vec<u8>)> {
        self.outgoing.drain(..)
    }

    /// What happened since the last call.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, HostEvent> {
        self.events.drain(..)
    }
}
