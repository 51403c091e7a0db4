//! A peer's side of the lockstep protocol, as a state machine without sockets or clocks.

use std::collections::BTreeMap;

use super::wire::{
    Delivery, DesyncNotice, GameData, Goodbye, HostMessage, Identity, MAX_INPUTS_PER_MESSAGE,
    MAX_ROSTER, PeerMessage, Refusal, RejoinSecret, Role, TickRecord, ToPeer, Welcome, decode,
    encode, valid_name,
};
use crate::hash::HashRecord;
use crate::hash::StateHash;
use crate::tick::Tick;

/// How often a peer sends the inputs the host has not acknowledged again between new ones,
/// microseconds: 25 ms. A lost input then reaches the host with the next repeat, a quarter
/// tick later, instead of with the next input a whole tick later; three more small messages a
/// tick cost a few hundred bytes a second of payload.
pub const INPUT_REPEAT_MICROS: u64 = 25_000;

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
    /// before it that have not run yet are of the old state: skip them.
    Resync(Welcome),
    /// The next tick to run, in order: ticks come out contiguous, whatever the link did.
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
    /// Every player's name, by player number (the host's latest word on it).
    Roster(Vec<String>),
    /// What a spectator is sent of a tick.
    Update(U),
    /// A message was dropped: not a message, or a tick seen already.
    Dropped(Refusal),
}

/// A peer's events in the types of game `D`.
pub type PeerEventOf<D> = PeerEvent<<D as GameData>::Command, <D as GameData>::SpectatorUpdate>;

/// A peer's side of the lockstep protocol, for the game whose data `D` describes; see the
/// [module documentation](super).
pub struct PeerSession<D: GameData> {
    config: PeerConfig,
    player: Option<u16>,
    /// The next tick to hand out.
    next_tick: Option<Tick>,
    /// Ticks that came ahead of one missing (a transport that reorders).
    early: BTreeMap<Tick, TickRecord<D::Command>>,
    /// Inputs sent and not yet acknowledged, from `unacked_from` on.
    unacked: Vec<D::Command>,
    unacked_from: Tick,
    outgoing: Vec<(Delivery, Vec<u8>)>,
    events: Vec<PeerEventOf<D>>,
    dropped: u64,
    /// The host's goodbye, once it came.
    goodbye: Option<Goodbye>,
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
            early: BTreeMap::new(),
            unacked: Vec::new(),
            unacked_from: Tick::ZERO,
            outgoing: Vec::new(),
            events: Vec::new(),
            dropped: 0,
            goodbye: None,
        }
    }

    /// Its player number, once welcomed as a player.
    #[must_use]
    pub const fn player(&self) -> Option<u16> {
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
        };
        self.send(Delivery::Reliable, &hello);
    }

    /// `bytes` arrived from the host with `delivery`.
    pub fn receive(&mut self, delivery: Delivery, bytes: &[u8]) {
        let message: HostMessage<D> = match decode(bytes, delivery) {
            Ok(m) => m,
            Err(refusal) => return self.drop_message(refusal),
        };
        match message {
            ToPeer::Welcome(welcome) => {
                if self.is_welcomed() {
                    return self.drop_message(Refusal::Malformed);
                }
                self.player = welcome.player;
                self.next_tick = Some(welcome.tick);
                self.unacked_from = welcome.tick;
                self.events.push(PeerEvent::Welcomed(welcome));
            }
            ToPeer::Goodbye(goodbye) => {
                if self.goodbye.is_none() {
                    self.goodbye = Some(goodbye.clone());
                    self.events.push(PeerEvent::Goodbye(goodbye));
                }
            }
            ToPeer::Resync(state) => {
                if !self.is_welcomed() || state.player != self.player {
                    return self.drop_message(Refusal::Malformed);
                }
                self.events.push(PeerEvent::Resync(state));
            }
            ToPeer::Tick(record) => self.tick(record),
            ToPeer::InputAck { tick, missing, queued, early_micros } => {
                self.acknowledged(missing);
                self.events.push(PeerEvent::InputAck { tick, queued, early_micros });
            }
            ToPeer::Desync(notice) => self.events.push(PeerEvent::Desync(notice)),
            ToPeer::Update(update) => self.events.push(PeerEvent::Update(update)),
            ToPeer::Roster { names } => {
                let sane = names.len() <= MAX_ROSTER && names.iter().all(|n| valid_name(n));
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

    fn tick(&mut self, record: TickRecord<D::Command>) {
        let Some(next) = self.next_tick else {
            return self.drop_message(Refusal::Malformed);
        };
        if record.tick < next || self.early.contains_key(&record.tick) {
            return self.drop_message(Refusal::Malformed);
        }
        self.early.insert(record.tick, record);
        let mut next = next;
        while let Some(ready) = self.early.remove(&next) {
            self.events.push(PeerEvent::Tick(ready));
            next = next.next();
        }
        self.next_tick = Some(next);
    }

    fn acknowledged(&mut self, missing: Tick) {
        let done = missing.since(self.unacked_from).clamp(0, self.unacked.len() as i64);
        // Within the unacknowledged inputs' count.
        self.unacked.drain(..done as usize);
        self.unacked_from = Tick(self.unacked_from.0 + done as u32);
    }

    /// The peer's command for `tick` (the next after the last one given, or the first): sent
    /// with every input the host has not acknowledged.
    pub fn submit_input(&mut self, tick: Tick, command: D::Command) {
        if self.unacked.is_empty() {
            self.unacked_from = tick;
        }
        let expected = Tick(self.unacked_from.0 + self.unacked.len() as u32);
        if tick != expected {
            // A skipped stretch (the input clock stepped): the old inputs are moot.
            self.unacked.clear();
            self.unacked_from = tick;
        }
        self.unacked.push(command);
        self.send_unacknowledged();
    }

    /// Sends the inputs the host has not acknowledged again, if there are any: call it every
    /// [`INPUT_REPEAT_MICROS`] between new inputs, so that a lost one reaches the host with
    /// the next repeat instead of the next input, a tick later.
    pub fn repeat_inputs(&mut self) {
        if !self.unacked.is_empty() {
            self.send_unacknowledged();
        }
    }

    fn send_unacknowledged(&mut self) {
        // The newest only, if the host has fallen that far behind acknowledging.
        let keep = self.unacked.len().min(MAX_INPUTS_PER_MESSAGE);
        let skip = self.unacked.len() - keep;
        let first = Tick(self.unacked_from.0 + skip as u32);
        let inputs = PeerMessage::<D>::Inputs { first, commands: self.unacked[skip..].to_vec() };
        self.send(Delivery::Unreliable, &inputs);
    }

    /// The peer ran `tick` and its state hash is `hash`.
    pub fn report_hash(&mut self, tick: Tick, hash: &StateHash) {
        self.send(Delivery::Reliable, &PeerMessage::<D>::Hash { tick, hash: HashRecord::of(hash) });
    }

    /// Tells the host what this spectator looks at (where its camera is).
    pub fn report_view(&mut self, view: D::SpectatorView) {
        self.send(Delivery::Unreliable, &PeerMessage::<D>::View(view));
    }

    /// The peer's state of a desync tick (postcard bytes), for the host's report.
    pub fn send_desync_state(&mut self, tick: Tick, state: Vec<u8>) {
        self.send(Delivery::Reliable, &PeerMessage::<D>::DesyncState { tick, state });
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
