//! A host session and a peer session driven by operations, doing with their events what a
//! game does ([`fixstep_netplay`]'s drivers): welcome who asks, resync who desyncs, report the
//! hash of every tick run. The targets drop what they send; the seed generator carries it
//! from one to the other, recording each side's operations as a seed.

use fixstep_runtime::net::{
    Delivery, GameData, HostConfig, HostEvent, HostSession, PeerConfig, PeerEvent, PeerId,
    PeerSession, RejoinSecret, Role,
};
use fixstep_runtime::{HashRecord, Player, Tick};

use crate::{HostOp, IDENTITY, PeerOp, Reader, tick_hash};

/// Peer ids the host target connects: a few, so that players, spectators and one connection
/// replacing another all meet.
pub const PEERS: u8 = 6;

/// The state the host sends in a welcome, a desync or a resync: the session never reads it.
const STATE: &[u8] = b"a game's state";

/// The host's configuration: four seats (one the host's own), two spectators.
/// A departed player's seat is kept for a second, so fuzzed sessions free seats too.
const HOST_CONFIG: HostConfig = HostConfig {
    identity: IDENTITY,
    max_players: 4,
    max_spectators: 2,
    local_players: 1,
    seat_grace_micros: 1_000_000,
};

/// The hash record of `tick` as the host and honest peers have it.
fn record_of(tick: Tick) -> HashRecord {
    HashRecord { total: tick_hash(tick.0), parts: Vec::new() }
}

/// The peer a byte names.
#[must_use]
pub fn peer_id(peer: u8) -> PeerId {
    PeerId(u64::from(peer % PEERS))
}

/// A host session of game `D` and what its game does with its events.
#[derive(Debug)]
pub struct HostDriver<D: GameData> {
    /// The session.
    pub session: HostSession<D>,
    now_micros: u64,
}

impl<D: GameData> Default for HostDriver<D> {
    fn default() -> Self {
        Self { session: HostSession::new(HOST_CONFIG, Tick::ZERO), now_micros: 0 }
    }
}

impl<D: GameData> HostDriver<D> {
    /// Does `op`, then what the game does with the events it brought.
    pub fn apply(&mut self, op: &HostOp<'_>) {
        let host = &mut self.session;
        match *op {
            HostOp::Connect(p) => host.connect(peer_id(p), self.now_micros),
            HostOp::Receive { peer, delivery, bytes } => {
                host.receive(peer_id(peer), delivery, bytes, self.now_micros);
            }
            HostOp::FixTick => {
                let tick = host.next_tick();
                host.local_input(Player::FIRST, tick, D::Command::default());
                let record = host.fix_tick();
                host.local_hash(record.tick, record_of(record.tick));
            }
            HostOp::Wait(ms) => {
                self.now_micros += u64::from(ms) * 1_000;
                host.check_timeouts(self.now_micros);
            }
            HostOp::Disconnect(p) => host.disconnect(peer_id(p)),
            HostOp::EndMatch => host.end_match(),
        }
        let events: Vec<HostEvent> = host.drain_events().collect();
        for event in events {
            match event {
                HostEvent::StateWanted { peer } => {
                    let hash = tick_hash(host.next_tick().0);
                    // A secret of the peer's own, as the system's random bits would be.
                    let mut secret = [0; 16];
                    secret[..8].copy_from_slice(&peer.0.to_le_bytes());
                    host.welcome(peer, STATE, hash, RejoinSecret(secret));
                }
                HostEvent::Desync { peer, tick, ours, .. } => {
                    host.send_desync(peer, tick, ours, STATE.to_vec());
                    host.resync(peer, STATE, tick_hash(host.next_tick().0));
                }
                _ => {}
            }
        }
    }

    /// What the session has to send, each to its peer.
    pub fn outgoing(&mut self) -> Vec<(PeerId, Delivery, Vec<u8>)> {
        self.session.drain_outgoing().collect()
    }
}

/// A peer session of game `D` and what its game does with its events.
#[derive(Debug)]
pub struct PeerDriver<D: GameData> {
    /// The session.
    pub session: PeerSession<D>,
    now_micros: u64,
    /// The next tick the player gives a command for, once welcomed.
    next_input: Option<Tick>,
    /// A tick whose hash this peer gets wrong, to desync on purpose (the seeds' only).
    pub wrong_hash_at: Option<Tick>,
}

impl<D: GameData> PeerDriver<D> {
    /// A peer that says hello, as a player or a spectator.
    #[must_use]
    pub fn new(role: Role, name: &str) -> Self {
        let config = PeerConfig { identity: IDENTITY, name: name.to_owned(), role, rejoin: None };
        let mut session = PeerSession::<D>::new(config);
        session.connect();
        Self { session, now_micros: 0, next_input: None, wrong_hash_at: None }
    }

    /// Does `op`, then what the game does with the events it brought.
    pub fn apply(&mut self, op: &PeerOp<'_>) {
        let peer = &mut self.session;
        match *op {
            PeerOp::Receive { delivery, bytes } => {
                peer.set_time(self.now_micros);
                peer.receive(delivery, bytes);
            }
            PeerOp::Input => {
                if let Some(tick) = self.next_input {
                    peer.submit_input(tick, D::Command::default());
                    self.next_input = tick.0.checked_add(1).map(Tick);
                }
            }
            PeerOp::SendFrame => peer.send_frame(),
            PeerOp::Wait(ms) => {
                self.now_micros += u64::from(ms) * 1_000;
                peer.set_time(self.now_micros);
            }
            PeerOp::Repeat => peer.repeat_inputs(),
        }
        let events: Vec<_> = peer.drain_events().collect();
        for event in events {
            match event {
                PeerEvent::Welcomed(welcome) => self.next_input = Some(welcome.tick),
                PeerEvent::Tick(record) => {
                    let wrong = self.wrong_hash_at == Some(record.tick);
                    let hash = tick_hash(record.tick.0) ^ u64::from(wrong);
                    peer.report_hash(record.tick, hash);
                }
                PeerEvent::Desync(notice) => {
                    peer.send_desync_state(notice.tick, STATE.to_vec(), record_of(notice.tick));
                }
                _ => {}
            }
        }
    }

    /// What the session has to send.
    pub fn outgoing(&mut self) -> Vec<(Delivery, Vec<u8>)> {
        self.session.drain_outgoing().collect()
    }
}

/// Runs a host session of game `D` over the operations of `input`.
pub fn run_host<D: GameData>(mut input: Reader<'_>) {
    let mut driver = HostDriver::<D>::default();
    while let Some(op) = HostOp::read(&mut input) {
        driver.apply(&op);
        driver.session.drain_outgoing().for_each(drop);
    }
}

/// Runs a peer session of game `D` over the operations of `input`, a player or a spectator
/// as `role` says.
pub fn run_peer<D: GameData>(role: Role, mut input: Reader<'_>) {
    let mut driver = PeerDriver::<D>::new(role, "fuzz");
    while let Some(op) = PeerOp::read(&mut input) {
        driver.apply(&op);
        driver.session.drain_outgoing().for_each(drop);
    }
}
