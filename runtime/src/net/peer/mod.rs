//! A peer's side of the lockstep protocol, as a state machine without sockets or clocks.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;

use super::frame::{
    HashCheck, HashRun, HostFrame, InputRuns, InputStatus, MAX_HASHES_PER_FRAME,
    MAX_TICKS_PER_FRAME, Near, PeerFrame, TickPiece,
};
use super::succession::{SharedListing, Successor, valid_offer};
use super::wire::{
    Delivery, DesyncNotice, GameData, Goodbye, HostMessage, Identity, MAX_INPUTS_PER_MESSAGE,
    MAX_ROSTER, PeerMessage, Refusal, RejoinSecret, Role, ToPeer, Welcome, decode, encode,
    valid_name,
};
use crate::hash::HashRecord;
use crate::tick::Tick;
use crate::{Player, TickRecord};

mod rehome;

/// How long after an input a peer on a lossy link sends it again if the host has not
/// acknowledged it, microseconds: 50 ms, half a tick. A lost input then reaches the host with
/// the repeat, half a tick later, instead of with the next frame a whole tick later; the
/// peer's inputs arrive that much earlier on such a link ([`super::LOSS_MARGIN_MICROS`]), so
/// the repeat is in time. On a link that loses nothing there is no repeat, and a frame a tick
/// each way is all.
pub const INPUT_REPEAT_MICROS: u64 = 50_000;

/// How far past the next tick to hand out a tick the host sends may be, ticks: the
/// [`TICK_MEMORY`](super::TICK_MEMORY) ticks a host keeps to send. An honest host sends only
/// ticks from the first one a peer lacks to the newest it fixed, never more than that apart
/// (a peer further behind is dropped), so a tick beyond this is from no honest host and is
/// refused rather than kept: a hostile one cannot make a peer hold ticks without end.
const MAX_TICKS_AHEAD: u32 = super::TICK_MEMORY;

/// Round trips the median is taken over: 15, a second and a half of frames, so that one
/// frame held up (a hiccup of either loop) moves it little.
const ROUND_TRIP_SAMPLES: usize = 15;

/// Every how many frames a peer's frame carries everything the host has not acknowledged:
/// three. The others carry only the inputs and hash checks never sent, so that on a slow link
/// (where the host's acknowledgement takes two or three frames to come) a frame does not carry
/// the same ones three times over; a lost one still goes again within three frames, and a lost
/// input goes again sooner with its repeat.
const FULL_FRAME_EVERY: u32 = 3;

/// The latest tick a welcome or a resync may be at: 2^31, six years of 100 ms ticks. A host
/// that says later is sending garbage, and the counts a peer keeps from a tick near the end of
/// the tick numbers (its next tick, its inputs' and hashes' ends) would overflow them.
pub const MAX_WELCOME_TICK: Tick = Tick(1 << 31);

/// How long a welcomed player hears nothing from its host before it takes the host for gone,
/// microseconds: a second. The host sends every player a frame each tick (100 ms), and every
/// spectator an update once it watches, so a second of silence is ten messages lost in a row: on a link that loses 5 % of its datagrams, 0.05^10,
/// about once in 300,000 years of play, while a host that crashed is noticed in a second
/// instead of the transport's 15 s. Jitter of tens of milliseconds moves it by nothing that
/// matters. A host frozen for longer (stopped, in a debugger) is taken for gone too: the
/// succession settles what happens then.
pub const HOST_SILENCE_MICROS: u64 = 1_000_000;

/// What a peer is set up with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerConfig {
    /// What it runs: the host must run the same.
    pub identity: Identity,
    /// Its player's name.
    pub name: String,
    /// Player or spectator.
    pub role: Role,
    /// The secret an earlier welcome gave this name by this host, if the peer kept it: it
    /// takes the seat over at once, even from a connection the host has not yet dropped.
    pub rejoin: Option<RejoinSecret>,
}

/// What happened, for the peer's game to act on, with the game's commands `C` and spectator
/// updates `U` ([`PeerEventOf`] names it for a game).
#[derive(Clone, Debug, PartialEq)]
pub enum PeerEvent<C, U> {
    /// The host let the peer in: a player restores the welcome's state (whose hash total
    /// must be its hash) as the game at its tick, and plays its player from there.
    Welcomed(Welcome),
    /// The host refused the peer (before a welcome), or is ending its connection, and said
    /// why: nothing more comes.
    Goodbye(Goodbye),
    /// The host found this player's state different from its own, and sent its state to go on
    /// from: restore it (its hash total must be its hash) as the game at its tick. Ticks
    /// before it that have not run yet are of the old state: skip them. Ticks from its on
    /// that came before it are given again after it, so a tick may come twice: run a tick
    /// only if it is the game's next.
    Resync(Welcome),
    /// The next tick to run, in order: ticks come out contiguous, whatever the link did
    /// (after a [`PeerEvent::Resync`], some again).
    Tick(TickRecord<C>),
    /// How the host found this peer's inputs when it fixed a tick (for the network clock's
    /// nudge, and the HUD).
    InputAck {
        /// The tick fixed.
        tick: Tick,
        /// How many of the peer's inputs were waiting there.
        queued: u32,
        /// How long before the tick was fixed the input arrived, microseconds. `None`: it
        /// was late (missing when the tick was fixed, so the held input stood in).
        early_micros: Option<u32>,
    },
    /// The host says the peer's state of a tick differs from its own, and sent its hash and
    /// state; send the peer's own with [`PeerSession::send_desync_state`].
    Desync(DesyncNotice),
    /// Every player's name, by player number (the host's latest word on it); a free seat's is
    /// empty.
    Roster(Vec<String>),
    /// What a spectator is sent of a tick.
    Update(U),
    /// Who would host the match next, in order (the host's latest word on it).
    Succession(Vec<Successor>),
    /// The successor of the host that went seated this player in its own seat: it plays on
    /// from its own state, and the ticks from `tick` on come from the new host.
    Resumed {
        /// The next tick it runs.
        tick: Tick,
        /// The new host's epoch.
        epoch: u32,
        /// The secret that proves it to the new host when it rejoins.
        rejoin: RejoinSecret,
    },
    /// A message was dropped: not a message, or a tick seen already.
    Dropped(Refusal),
}

/// A peer's events in the types of game `D`.
pub type PeerEventOf<D> = PeerEvent<<D as GameData>::Command, <D as GameData>::SpectatorUpdate>;

/// A tick that came before the one the peer hands out next.
#[derive(Clone, Debug)]
enum Early<C> {
    /// From a frame: decoded against the tick before when that one is handed out.
    Piece(TickPiece<C>),
    /// Whole, sent reliably.
    Record(TickRecord<C>),
}

/// A peer's side of the lockstep protocol, for the game whose data `D` describes; see the
/// [module documentation](super).
pub struct PeerSession<D: GameData> {
    config: PeerConfig,
    player: Option<Player>,
    /// The next tick to hand out.
    next_tick: Option<Tick>,
    /// The commands of the tick handed out last, which the next tick's delta changes (`None`
    /// before the first: a welcome's first tick comes whole).
    base: Option<Vec<D::Command>>,
    /// Ticks that came ahead of one missing (a lost frame, a reliable tick overtaken).
    early: BTreeMap<Tick, Early<D::Command>>,
    /// The latest ticks handed out: a resync may arrive after ticks it is before (frames
    /// overtake the reliable message), and those are handed out again after it.
    handed: VecDeque<TickRecord<D::Command>>,
    /// Inputs sent and not yet acknowledged, from `unacked_from` on.
    unacked: Vec<D::Command>,
    unacked_from: Tick,
    /// Inputs for ticks before this one were sent at least once.
    inputs_sent_to: Tick,
    /// Hash checks of ticks before this one were sent at least once.
    hashes_sent_to: Tick,
    /// Frames sent, for [`FULL_FRAME_EVERY`].
    frames: u32,
    /// Hash checks not yet acknowledged, from `hashes_from` on.
    hashes: VecDeque<HashCheck>,
    hashes_from: Tick,
    /// What a spectator looks at, as it last said: sent with the next frame while
    /// `view_unsent`, and said again in the hello to a successor so that its first updates
    /// are cut for where this spectator looks.
    view: Option<D::SpectatorView>,
    view_unsent: bool,
    round_trip_ms: u16,
    /// The transport's clock, microseconds, as it last said ([`set_time`](Self::set_time)).
    now_micros: u64,
    /// The latest round trips measured from the host's echoes, microseconds.
    round_trips: VecDeque<u64>,
    outgoing: Vec<(Delivery, Vec<u8>)>,
    events: Vec<PeerEventOf<D>>,
    dropped: u64,
    /// The host's goodbye, once it came.
    goodbye: Option<Goodbye>,
    /// Where this player offers to host the match if the host goes.
    hosts_on: Vec<SocketAddr>,
    /// Who would host next, in order, as the host last said.
    succession: Vec<Successor>,
    /// Where the match is listed under a join code, as the host last said.
    listing: Option<SharedListing>,
    /// When a message of the host's last arrived, on the transport's clock (microseconds).
    heard_micros: Option<u64>,
    /// A spectator has been sent a tick's update: from then on the host sends it one every
    /// tick, and its silence means something.
    watching: bool,
    /// Its host's epoch: 0 for the host that started the match, one more for each takeover.
    epoch: u32,
    /// The seat of its host's own player, as the host last said.
    host_seat: Option<Player>,
    /// Its host went and it is on its way to the successor, claiming this epoch: it sends no
    /// frame until the successor seats it.
    rehoming: Option<u32>,
}

impl<D: GameData> core::fmt::Debug for PeerSession<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PeerSession")
            .field("name", &self.config.name)
            .field("player", &self.player)
            .field("next_tick", &self.next_tick)
            .finish_non_exhaustive()
    }
}

impl<D: GameData> PeerSession<D> {
    /// A peer that has not said hello yet.
    #[must_use]
    pub fn new(config: PeerConfig) -> Self {
        Self {
            config,
            player: None,
            next_tick: None,
            base: None,
            early: BTreeMap::new(),
            handed: VecDeque::new(),
            unacked: Vec::new(),
            unacked_from: Tick::ZERO,
            hashes: VecDeque::new(),
            inputs_sent_to: Tick::ZERO,
            hashes_sent_to: Tick::ZERO,
            frames: 0,
            hashes_from: Tick::ZERO,
            view: None,
            view_unsent: false,
            round_trip_ms: 0,
            now_micros: 0,
            round_trips: VecDeque::new(),
            outgoing: Vec::new(),
            events: Vec::new(),
            dropped: 0,
            goodbye: None,
            hosts_on: Vec::new(),
            succession: Vec::new(),
            listing: None,
            heard_micros: None,
            watching: false,
            epoch: 0,
            host_seat: None,
            rehoming: None,
        }
    }

    /// When this peer takes its host for gone if nothing more arrives: [`HOST_SILENCE_MICROS`]
    /// after the host's latest message, on the transport's clock (see
    /// [`set_time`](Self::set_time)). `None` before its welcome, and for a spectator until its
    /// first update: a host holding spectators back sends them nothing until the delay has
    /// passed, and one a tick from then on.
    #[must_use]
    pub fn host_gone_at(&self) -> Option<u64> {
        if self.player.is_none() && !self.watching {
            return None;
        }
        self.heard_micros.map(|heard| heard.saturating_add(HOST_SILENCE_MICROS))
    }

    /// Whether the host is gone: it said goodbye, or this peer has heard nothing from it for
    /// [`HOST_SILENCE_MICROS`] (see [`host_gone_at`](Self::host_gone_at)).
    #[must_use]
    pub fn host_gone(&self) -> bool {
        self.goodbye.is_some() || self.host_gone_at().is_some_and(|at| self.now_micros >= at)
    }

    /// Offers to host the match at `at` (one to [`MAX_HOST_ADDRESSES`](super::MAX_HOST_ADDRESSES) addresses, the first
    /// to try first) if the host goes: told the host once this player is welcomed, or at once
    /// if it is. An offer that is no valid one (see [`valid_offer`]) is not made.
    pub fn offer_to_host(&mut self, at: Vec<SocketAddr>) {
        if !valid_offer(&at) {
            return;
        }
        self.hosts_on = at;
        if self.player.is_some() {
            self.send_offer();
        }
    }

    fn send_offer(&mut self) {
        let offer = PeerMessage::<D>::HostsOn { at: self.hosts_on.clone() };
        self.send(Delivery::Reliable, &offer);
    }

    /// Who would host the match next, in order, as the host last said (less those this
    /// player has turned to since its host went).
    #[must_use]
    pub fn succession(&self) -> &[Successor] {
        &self.succession
    }

    /// Where the match is listed under a join code, as the host last said: with the
    /// listing's secret if this player would host next, so that it renews the listing when
    /// it takes the match over, and the others dial the code again to find it.
    #[must_use]
    pub const fn listing(&self) -> Option<&SharedListing> {
        self.listing.as_ref()
    }

    /// Its host's epoch: 0 for the host that started the match, one more for each host that
    /// took it over since.
    #[must_use]
    pub const fn epoch(&self) -> u32 {
        self.epoch
    }

    /// The seat of its host's own player, as the host last said (`None`: a host without one):
    /// who left when the host went.
    #[must_use]
    pub const fn host_seat(&self) -> Option<Player> {
        self.host_seat
    }

    /// Its player number, once welcomed as a player.
    #[must_use]
    pub const fn player(&self) -> Option<Player> {
        self.player
    }

    /// Whether the host has let it in.
    #[must_use]
    pub const fn is_welcomed(&self) -> bool {
        self.next_tick.is_some()
    }

    /// The host's goodbye, once it came: why it refused or is dropping this peer.
    #[must_use]
    pub const fn goodbye(&self) -> Option<&Goodbye> {
        self.goodbye.as_ref()
    }

    /// Messages dropped so far.
    #[must_use]
    pub const fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Inputs sent and not yet acknowledged.
    #[must_use]
    pub fn unacknowledged(&self) -> usize {
        self.unacked.len()
    }

    /// The transport connected: says hello.
    pub fn connect(&mut self) {
        let hello = PeerMessage::<D>::Hello {
            identity: self.config.identity,
            name: self.config.name.clone(),
            role: self.config.role,
            rejoin: self.config.rejoin,
            resume: self.resume_claim(),
            view: self.view.clone(),
        };
        self.send(Delivery::Reliable, &hello);
    }

    /// `bytes` arrived from the host with `delivery`.
    pub fn receive(&mut self, delivery: Delivery, bytes: &[u8]) {
        let message: HostMessage<D> = match decode(bytes, delivery) {
            Ok(m) => m,
            Err(refusal) => return self.drop_message(refusal),
        };
        // Only a message of the protocol shows the host is there: garbage could come from
        // anyone.
        self.heard_micros = Some(self.now_micros);
        match message {
            ToPeer::Welcome(welcome) => {
                if self.rehoming.is_some() && welcome.tick <= MAX_WELCOME_TICK {
                    // The successor could not seat it on its own state: it goes on from the
                    // successor's, as a newcomer does.
                    self.start_afresh();
                } else if self.is_welcomed() || welcome.tick > MAX_WELCOME_TICK {
                    return self.drop_message(Refusal::Malformed);
                }
                self.epoch = welcome.epoch;
                self.player = welcome.player;
                self.next_tick = Some(welcome.tick);
                self.unacked_from = welcome.tick;
                self.hashes_from = welcome.tick;
                self.events.push(PeerEvent::Welcomed(welcome));
                if self.player.is_some() && !self.hosts_on.is_empty() {
                    self.send_offer();
                }
            }
            ToPeer::Goodbye(goodbye) => {
                if self.goodbye.is_none() {
                    self.goodbye = Some(goodbye.clone());
                    self.events.push(PeerEvent::Goodbye(goodbye));
                }
            }
            ToPeer::Resync(state) => {
                if !self.is_welcomed()
                    || state.player != self.player
                    || state.tick > MAX_WELCOME_TICK
                {
                    return self.drop_message(Refusal::Malformed);
                }
                // Hashes of the state it replaces are moot.
                self.hashes.clear();
                self.hashes_from = state.tick;
                let from = state.tick;
                self.events.push(PeerEvent::Resync(state));
                // Ticks from the resync's on that were handed out before it came run again,
                // on its state.
                let again: Vec<PeerEventOf<D>> = self
                    .handed
                    .iter()
                    .filter(|r| r.tick >= from)
                    .map(|r| PeerEvent::Tick(r.clone()))
                    .collect();
                self.events.extend(again);
            }
            ToPeer::Frame(frame) => self.frame(frame),
            ToPeer::Tick(record) => {
                let ahead = |next: Tick| record.tick < next || !within_reach(next, record.tick);
                if self.rehoming.is_some() {
                    // From a successor that has not seated it yet: it sends the tick again.
                    return;
                }
                if self.next_tick.is_none_or(ahead) {
                    return self.drop_message(Refusal::Malformed);
                }
                self.early.insert(record.tick, Early::Record(record));
                self.hand_out();
            }
            ToPeer::Desync(notice) => self.events.push(PeerEvent::Desync(notice)),
            ToPeer::Update(update) => {
                self.watching |= self.is_welcomed();
                self.events.push(PeerEvent::Update(update));
            }
            ToPeer::Succession { order, host, listing } => {
                let sane = order.len() <= MAX_ROSTER
                    && order.iter().all(|s| valid_offer(&s.at))
                    && listing.as_ref().is_none_or(SharedListing::is_sane);
                if !sane {
                    return self.drop_message(Refusal::Malformed);
                }
                self.host_seat = host;
                self.listing = listing;
                self.succession.clone_from(&order);
                self.events.push(PeerEvent::Succession(order));
            }
            ToPeer::TicksWanted { from } => self.send_ticks_from(from),
            ToPeer::Resumed { player, tick, epoch, rejoin } => {
                self.resumed(player, tick, epoch, rejoin);
            }
            ToPeer::Roster { names } => {
                // A free seat's name is empty.
                let sane = names.len() <= MAX_ROSTER
                    && names.iter().all(|n| n.is_empty() || valid_name(n));
                if !sane {
                    return self.drop_message(Refusal::Malformed);
                }
                self.events.push(PeerEvent::Roster(names));
            }
        }
    }

    fn drop_message(&mut self, why: Refusal) {
        self.dropped += 1;
        self.events.push(PeerEvent::Dropped(why));
    }

    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "done is clamped to the unacknowledged hashes' count, at most HASH_MEMORY_TICKS"
    )]
    fn frame(&mut self, frame: HostFrame<D::Command>) {
        let Some(next) = self.next_tick.filter(|_| self.rehoming.is_none()) else {
            // Overtook the welcome (or a successor's word that seats it): the next frame
            // repeats it.
            return;
        };
        if frame.ticks.as_ref().is_some_and(|run| run.pieces.len() > MAX_TICKS_PER_FRAME) {
            return self.drop_message(Refusal::Malformed);
        }
        if let Some(run) = frame.ticks {
            for (offset, piece) in run.pieces.into_iter().enumerate() {
                let Some(tick) =
                    u32::try_from(offset).ok().and_then(|o| run.first.0.checked_add(o)).map(Tick)
                else {
                    break;
                };
                if !within_reach(next, tick) {
                    return self.drop_message(Refusal::Malformed);
                }
                if tick >= next && !self.early.contains_key(&tick) {
                    self.early.insert(tick, Early::Piece(piece));
                }
            }
            self.hand_out();
        }
        if let Some((stamp, held_ms)) = frame.echo {
            let since = self.stamp().wrapping_sub(stamp).saturating_sub(held_ms);
            if self.round_trips.len() >= ROUND_TRIP_SAMPLES {
                self.round_trips.pop_front();
            }
            self.round_trips.push_back(u64::from(since) * 1_000);
            self.round_trip_ms =
                u16::try_from(self.round_trip_micros().unwrap_or(0) / 1_000).unwrap_or(u16::MAX);
        }
        if let Some(InputStatus { tick, missing, queued, early_micros }) = frame.input {
            self.acknowledged(missing);
            self.events.push(PeerEvent::InputAck { tick, queued, early_micros });
        }
        let done = frame.hashes_from.since(self.hashes_from).clamp(0, self.hashes.len() as i64);
        self.hashes.drain(..done as usize);
        self.hashes_from = Tick(self.hashes_from.0 + done as u32);
    }

    /// Hands out the ticks that are next, in order, while the one before is known.
    fn hand_out(&mut self) {
        let Some(mut next) = self.next_tick else { return };
        while let Some(early) = self.early.remove(&next) {
            let record = match early {
                Early::Record(record) => Some(record),
                Early::Piece(piece) => match piece.commands(self.base.as_deref()) {
                    Ok(decoded) => {
                        decoded.map(|(seats, commands)| TickRecord { tick: next, seats, commands })
                    }
                    Err(refusal) => {
                        self.drop_message(refusal);
                        None
                    }
                },
            };
            let Some(record) = record else {
                // Needs what has not come (the whole tick, sent reliably): a later frame or the
                // reliable tick brings it.
                break;
            };
            self.base = Some(record.commands.clone());
            if self.handed.len() >= super::TICK_MEMORY as usize {
                self.handed.pop_front();
            }
            self.handed.push_back(record.clone());
            self.events.push(PeerEvent::Tick(record));
            next = next.next();
        }
        self.next_tick = Some(next);
        // Pieces from before a stretch that a reliable tick filled are moot.
        self.early.retain(|&t, _| t >= next);
    }

    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "done is clamped to the unacknowledged inputs' count, at most MAX_INPUTS_PER_MESSAGE"
    )]
    fn acknowledged(&mut self, missing: Tick) {
        let done = missing.since(self.unacked_from).clamp(0, self.unacked.len() as i64);
        self.unacked.drain(..done as usize);
        self.unacked_from = Tick(self.unacked_from.0 + done as u32);
    }

    /// The peer's command for `tick` (the next after the last one given, or the first): sent
    /// at once, in a frame with every input and hash the host has not acknowledged.
    pub fn submit_input(&mut self, tick: Tick, command: D::Command) {
        if self.unacked.is_empty() {
            self.unacked_from = tick;
        }
        #[expect(
            clippy::cast_possible_truncation,
            reason = "at most MAX_INPUTS_PER_MESSAGE inputs wait to be acknowledged"
        )]
        let expected = Tick(self.unacked_from.0 + self.unacked.len() as u32);
        if tick < expected && tick >= self.unacked_from {
            // The input clock stepped back (it started again on a new host's schedule): the
            // inputs before this tick go to the host still; this one and those after it are
            // replaced.
            let kept = usize::try_from(tick.since(self.unacked_from)).unwrap_or(0);
            self.unacked.truncate(kept);
            self.inputs_sent_to = self.inputs_sent_to.min(tick);
        } else if tick != expected {
            // A skipped stretch (the input clock stepped): the old inputs are moot.
            self.unacked.clear();
            self.unacked_from = tick;
        }
        if self.unacked.len() >= MAX_INPUTS_PER_MESSAGE {
            // The host has not acknowledged for three seconds: the oldest are moot.
            self.unacked.remove(0);
            self.unacked_from = self.unacked_from.next();
        }
        self.unacked.push(command);
        self.send_frame();
    }

    /// Sends the newest input again if the host has not acknowledged it, in a frame of its
    /// own: call it [`INPUT_REPEAT_MICROS`] after an input on a link that loses inputs.
    pub fn repeat_inputs(&mut self) {
        if let Some(received) = self.next_tick
            && self.rehoming.is_none()
            && !self.unacked.is_empty()
        {
            // The newest input alone: the older ones went at least twice already, and the
            // hashes and what arrived can wait for the next frame.
            let newest = self.unacked.len() - 1;
            #[expect(
                clippy::cast_possible_truncation,
                reason = "fewer than MAX_INPUTS_PER_MESSAGE inputs wait to be acknowledged"
            )]
            let tick = Tick(self.unacked_from.0 + newest as u32);
            let frame = PeerFrame {
                received,
                inputs: Some(InputRuns::of(received, tick, &self.unacked[newest..])),
                hashes: None,
                round_trip_ms: 0,
                stamp: self.stamp(),
                view: None,
            };
            self.send(Delivery::Unreliable, &PeerMessage::<D>::Frame(frame));
        }
    }

    /// The transport's clock, microseconds: frames are stamped with it, and the host's echoes
    /// of the stamps measured against it. Call it before handing the session what arrived, so
    /// that a peer whose frames are slow (a window drawing a few a second) measures the link,
    /// not its frames.
    pub fn set_time(&mut self, now_micros: u64) {
        self.now_micros = now_micros;
    }

    /// The peer's clock for a stamp, milliseconds, wrapping.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the milliseconds mod 2^16, wrapping on purpose: stamps are compared by difference"
    )]
    const fn stamp(&self) -> u16 {
        (self.now_micros / 1_000) as u16
    }

    /// The round trip to the host: the median of the latest `ROUND_TRIP_SAMPLES` echoes,
    /// microseconds (`None` before the first). It is told to the host in each frame.
    #[must_use]
    pub fn round_trip_micros(&self) -> Option<u64> {
        let mut sorted: Vec<u64> = self.round_trips.iter().copied().collect();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied()
    }

    /// Sends a frame: what ticks arrived, and every input and hash total the host has not
    /// acknowledged (nothing before the welcome). [`submit_input`](Self::submit_input) and
    /// [`report_view`](Self::report_view) send one; call it when a tick passed without either
    /// (a player whose input ticks hold back), so that the host hears what arrived.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "tick offsets count unacknowledged inputs and hashes, at most MAX_INPUTS_PER_MESSAGE and HASH_MEMORY_TICKS"
    )]
    pub fn send_frame(&mut self) {
        let Some(received) = self.next_tick.filter(|_| self.rehoming.is_none()) else { return };
        let full = self.frames.is_multiple_of(FULL_FRAME_EVERY);
        self.frames = self.frames.wrapping_add(1);
        // The first of each that goes: the oldest unacknowledged, or the oldest never sent.
        let skip = |from: Tick, sent_to: Tick, len: usize| {
            if full { 0 } else { usize::try_from(sent_to.since(from)).unwrap_or(0).min(len) }
        };
        let skip_inputs = skip(self.unacked_from, self.inputs_sent_to, self.unacked.len());
        let inputs = (skip_inputs < self.unacked.len()).then(|| {
            let first = Tick(self.unacked_from.0 + skip_inputs as u32);
            InputRuns::of(received, first, &self.unacked[skip_inputs..])
        });
        self.inputs_sent_to = Tick(self.unacked_from.0 + self.unacked.len() as u32);
        let skip_hashes = skip(self.hashes_from, self.hashes_sent_to, self.hashes.len());
        let hashes = (skip_hashes < self.hashes.len()).then(|| HashRun {
            first: Near::of(Tick(self.hashes_from.0 + skip_hashes as u32), received),
            checks: self
                .hashes
                .iter()
                .skip(skip_hashes)
                .take(MAX_HASHES_PER_FRAME)
                .copied()
                .collect(),
        });
        let sent = self.hashes.len().min(skip_hashes + MAX_HASHES_PER_FRAME);
        self.hashes_sent_to = Tick(self.hashes_from.0 + sent as u32);
        let frame = PeerFrame {
            received,
            inputs,
            hashes,
            round_trip_ms: self.round_trip_ms,
            stamp: self.stamp(),
            view: if std::mem::take(&mut self.view_unsent) { self.view.clone() } else { None },
        };
        self.send(Delivery::Unreliable, &PeerMessage::<D>::Frame(frame));
    }

    /// The peer ran `tick` and its state hash total is `total`: it goes with the next frame,
    /// until the host acknowledges it.
    pub fn report_hash(&mut self, tick: Tick, total: u64) {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "at most HASH_MEMORY_TICKS hashes wait to be acknowledged"
        )]
        let expected = Tick(self.hashes_from.0 + self.hashes.len() as u32);
        if tick != expected {
            // Ticks skipped (the state a resync brought): the reports before them are moot.
            self.hashes.clear();
            self.hashes_from = tick;
        }
        if self.hashes.len() >= super::HASH_MEMORY_TICKS as usize {
            // The host could no longer compare the oldest.
            self.hashes.pop_front();
            self.hashes_from = self.hashes_from.next();
        }
        self.hashes.push_back(HashCheck::of(total));
    }

    /// Tells the host what this spectator looks at (where its camera is), in a frame sent at
    /// once.
    pub fn report_view(&mut self, view: D::SpectatorView) {
        self.view = Some(view);
        self.view_unsent = true;
        self.send_frame();
    }

    /// The peer's state of a desync tick (postcard bytes) and its hash, for the host's report.
    pub fn send_desync_state(&mut self, tick: Tick, state: Vec<u8>, hash: HashRecord) {
        self.send(Delivery::Reliable, &PeerMessage::<D>::DesyncState { tick, hash, state });
    }

    fn send(&mut self, delivery: Delivery, message: &PeerMessage<D>) {
        self.outgoing.push((delivery, encode(message)));
    }

    /// The messages to send since the last call, each with its delivery.
    pub fn drain_outgoing(&mut self) -> std::vec::Drain<'_, (Delivery, Vec<u8>)> {
        self.outgoing.drain(..)
    }

    /// What happened since the last call.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, PeerEventOf<D>> {
        self.events.drain(..)
    }
}

/// Whether `tick` is one an honest host may send a peer whose next tick is `next`: not more
/// than [`MAX_TICKS_AHEAD`] past it.
fn within_reach(next: Tick, tick: Tick) -> bool {
    tick.0 < next.0.saturating_add(MAX_TICKS_AHEAD)
}
