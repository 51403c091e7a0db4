//! The lockstep protocol's sessions, end to end over simulated links: a host and peers that
//! each run the test simulation, as the network mode's programs do, but on a test's clock.
//! Every peer must compute every tick's hash as the host does, through delay, jitter and
//! loss; late joiners must catch up from the state they are sent; a peer whose state is
//! perturbed must be reported as a desync at once; and garbage must never stop the host.

use crate::common;
use crate::simulated_link;

use common::{Drift, DriftCommand, DriftData, scripted_commands};
use fixstep_runtime::clock::NetworkClock;
use fixstep_runtime::net::frame::HashCheck;
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, Delivery, DesyncNotice, Goodbye, HostConfig, HostEvent, HostSession,
    INPUT_REPEAT_MICROS, Identity, InputTicks, LOSS_MARGIN_MICROS, MARGIN_FLOOR_MICROS,
    PEER_TIMEOUT_MICROS, PROTOCOL_VERSION, PeerConfig, PeerEvent, PeerEventOf, PeerId, PeerSession,
    RejoinSecret, Role, Welcome,
};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::tick::{FrameScheduler, TICK_MICROS};
use fixstep_runtime::{ContentDigest, HashRecord, Player, SeatChanges, Simulation, Tick};
use simulated_link::{LinkConditions, SimulatedLink};

mod takeover;

/// The test's clock step, microseconds: 2 ms, finer than any delay or frame it simulates.
const STEP_MICROS: u64 = 2_000;

/// A peer's frames, microseconds: 60 Hz.
const FRAME_MICROS: u64 = 16_667;

/// 80 ms one way, 20 ms jitter, 5 % loss, resends after 100 ms: a bad but playable link.
const BAD_LINK: LinkConditions = LinkConditions {
    delay_micros: 80_000,
    jitter_micros: 20_000,
    loss_percent: 5,
    duplicate_percent: 2,
    resend_micros: 100_000,
};

fn identity() -> Identity {
    Identity { protocol: PROTOCOL_VERSION, sim_version: 8, level: ContentDigest(0xd1f7) }
}

/// A host session at tick 0 of `max_players` seats (room for 8 spectators), `local_players`
/// of them the host's own, keeping a departed player's seat `seat_grace_micros`.
fn new_host(
    max_players: usize,
    local_players: usize,
    seat_grace_micros: u64,
) -> HostSession<DriftData> {
    let config = HostConfig {
        identity: identity(),
        max_players,
        max_spectators: 8,
        local_players,
        seat_grace_micros,
    };
    HostSession::new(config, Tick::ZERO)
}

/// Runs a tick record on a simulation: the seats freed and taken, then the tick.
fn run(sim: &mut Drift, record: &fixstep_runtime::TickRecord<DriftCommand>) {
    record.seats.apply(sim).expect("room for a player, and a player to leave");
    sim.step(record.tick, &record.commands).expect("ticks in order, a command each");
}

struct Host {
    session: HostSession<DriftData>,
    sim: Drift,
    schedule: FrameScheduler,
    hashes: Vec<(Tick, u64)>,
    desyncs: Vec<(PeerId, Tick)>,
    /// The host's hash of each desync tick, until the peer's state and hash come.
    desynced_hashes: Vec<(PeerId, Tick, HashRecord)>,
    /// For each desync whose peer sent its hash: the hash parts that differ.
    desync_parts: Vec<(PeerId, Tick, Vec<usize>)>,
    late: u64,
    /// Who left, and what the host told them.
    left: Vec<(PeerId, Option<Goodbye>)>,
    /// Whether it resyncs a desynced peer (as the network mode's host does).
    resyncs: bool,
    /// The seats each tick freed and took, for the ticks that changed any.
    seat_changes: Vec<(Tick, SeatChanges)>,
    /// Who joined: name, player number, and whether it came back to its own seat.
    joined: Vec<(String, Player, bool)>,
    /// The names whose seats were freed, with the seat.
    freed: Vec<(String, Player)>,
    /// Who was refused, and why.
    refused: Vec<(String, Goodbye)>,
    /// Its own player, fed scripted inputs (a successor's seat).
    local: Option<Player>,
    /// Ticks resuming players sent it, run before its next.
    recovered: u32,
    /// The first tick it fixed.
    first_fixed: Option<Tick>,
}

impl Host {
    fn new() -> Self {
        Self::with_seats(8, DEFAULT_SEAT_GRACE_MICROS)
    }

    /// A host of at most `max_players`, keeping a departed player's seat for `grace_micros`.
    fn with_seats(max_players: usize, grace_micros: u64) -> Self {
        let config = HostConfig {
            identity: identity(),
            max_players,
            max_spectators: 8,
            local_players: 0,
            seat_grace_micros: grace_micros,
        };
        Self {
            session: HostSession::new(config, Tick::ZERO),
            sim: Drift::new(11, 0),
            schedule: FrameScheduler::new(),
            hashes: Vec::new(),
            desyncs: Vec::new(),
            desynced_hashes: Vec::new(),
            desync_parts: Vec::new(),
            late: 0,
            left: Vec::new(),
            resyncs: true,
            seat_changes: Vec::new(),
            joined: Vec::new(),
            freed: Vec::new(),
            refused: Vec::new(),
            local: None,
            recovered: 0,
            first_fixed: None,
        }
    }

    fn step(&mut self, dt: u64, now: u64) {
        self.session.check_timeouts(now);
        let recovered = self.session.take_recovered();
        self.recovered += recovered.len() as u32;
        for record in recovered {
            self.run_tick(&record);
        }
        if self.session.gathering() {
            // A successor fixes nothing until the survivors claimed their seats: its first
            // tick is due once they have.
            self.schedule = FrameScheduler::new();
            self.schedule.advance(TICK_MICROS);
        }
        let due = self.schedule.advance(dt);
        for _ in 0..due.run {
            if let Some(own) = self.local {
                let tick = self.session.next_tick();
                let command = scripted_commands(tick, own.index() + 1)[own.index()];
                self.session.local_input(own, tick, command);
            }
            let record = self.session.fix_tick();
            self.first_fixed.get_or_insert(record.tick);
            if !record.seats.is_empty() {
                self.seat_changes.push((record.tick, record.seats.clone()));
            }
            self.run_tick(&record);
        }
        let events: Vec<HostEvent> = self.session.drain_events().collect();
        for event in events {
            match event {
                HostEvent::ResumeWanted { peer } => {
                    self.session.resume(peer, RejoinSecret([8; 16]));
                }
                HostEvent::StateWanted { peer } => {
                    let state = postcard::to_allocvec(&self.sim.state).expect("a state encodes");
                    let hash = self.sim.state_hash().total();
                    self.session.welcome(peer, &state, hash, RejoinSecret([9; 16]));
                }
                HostEvent::Desync { peer, tick, ours, theirs } => {
                    assert_ne!(HashCheck::of(ours.total), theirs, "a desync is a difference");
                    self.desyncs.push((peer, tick));
                    self.session.send_desync(peer, tick, ours.clone(), Vec::new());
                    self.desynced_hashes.push((peer, tick, ours));
                    if self.resyncs {
                        let state = postcard::to_allocvec(&self.sim.state).expect("encodes");
                        self.session.resync(peer, &state, self.sim.state_hash().total());
                    }
                }
                HostEvent::DesyncState { peer, tick, hash, .. } => {
                    let at = self.desynced_hashes.iter().position(|d| d.0 == peer && d.1 == tick);
                    let (_, _, ours) = self.desynced_hashes.remove(at.expect("a state asked for"));
                    let parts = (0..ours.parts.len()).filter(|&i| ours.parts[i] != hash.parts[i]);
                    self.desync_parts.push((peer, tick, parts.collect()));
                }
                HostEvent::InputLate { .. } => self.late += 1,
                HostEvent::PeerLeft { peer, goodbye, .. } => self.left.push((peer, goodbye)),
                HostEvent::PlayerJoined { name, player, rejoined, .. } => {
                    self.joined.push((name, player, rejoined));
                }
                HostEvent::SeatFreed { player, name } => self.freed.push((name, player)),
                HostEvent::Refused { name, goodbye, .. } => self.refused.push((name, goodbye)),
                _ => {}
            }
        }
    }
}

impl Host {
    fn run_tick(&mut self, record: &fixstep_runtime::TickRecord<DriftCommand>) {
        run(&mut self.sim, record);
        let hash = self.sim.state_hash();
        self.hashes.push((record.tick, hash.total()));
        self.session.local_hash(record.tick, HashRecord::of(&hash));
    }
}

struct Peer {
    id: PeerId,
    /// Every seat's player's name, as the latest roster said.
    names: Vec<String>,
    /// The ticks its successors seated it at, with their epochs.
    resumed: Vec<(Tick, u32)>,
    session: PeerSession<DriftData>,
    sim: Option<Drift>,
    clock: NetworkClock,
    input_schedule: FrameScheduler,
    inputs: Option<InputTicks>,
    hello_at: u64,
    since_frame: u64,
    hashes: Vec<(Tick, u64)>,
    /// Its hash of each tick, whole.
    records: Vec<(Tick, HashRecord)>,
    queued: Vec<u32>,
    /// The margin its inputs arrived with and its target, microseconds, after each report.
    margins: Vec<(u32, u32)>,
    /// Microseconds since its last input was sent, and whether it was repeated since.
    since_inputs: u64,
    repeated: bool,
    late: u64,
    to_host: SimulatedLink<Vec<u8>>,
    from_host: SimulatedLink<Vec<u8>>,
    /// At these ticks, perturb the state after running it (the desync tests).
    perturb_at: Vec<Tick>,
    /// The ticks the host told it its state diverged at, in the order it was told.
    desyncs_told: Vec<Tick>,
    /// The ticks the host's resyncs brought it to.
    resynced: Vec<Tick>,
    /// The secret its welcome gave.
    rejoin: Option<RejoinSecret>,
    /// The host's goodbye, if it came.
    goodbye: Option<Goodbye>,
}

impl Peer {
    fn new(id: u64, name: &str, link: LinkConditions) -> Self {
        let config = PeerConfig {
            identity: identity(),
            name: name.into(),
            role: Role::Player,
            rejoin: None,
        };
        Self {
            id: PeerId(id),
            names: Vec::new(),
            resumed: Vec::new(),
            session: PeerSession::new(config),
            sim: None,
            clock: NetworkClock::new(),
            input_schedule: FrameScheduler::new(),
            inputs: None,
            hello_at: 0,
            since_frame: 0,
            hashes: Vec::new(),
            records: Vec::new(),
            queued: Vec::new(),
            margins: Vec::new(),
            since_inputs: 0,
            repeated: false,
            late: 0,
            to_host: SimulatedLink::new(link, id * 2),
            from_host: SimulatedLink::new(link, id * 2 + 1),
            perturb_at: Vec::new(),
            desyncs_told: Vec::new(),
            resynced: Vec::new(),
            rejoin: None,
            goodbye: None,
        }
    }

    fn connect(&mut self, host: &mut Host, now: u64) {
        host.session.connect(self.id, now);
        self.session.connect();
        self.hello_at = now;
    }

    /// One step of the test's clock: what arrived, then a frame if one is due.
    fn step(&mut self, now: u64) {
        self.since_frame += STEP_MICROS;
        let frame = self.since_frame >= FRAME_MICROS;
        if frame {
            self.clock.advance(self.since_frame);
        }
        self.session.set_time(now);
        for (delivery, bytes) in self.from_host.deliver(now) {
            self.session.receive(delivery, &bytes);
        }
        let events: Vec<PeerEventOf<DriftData>> = self.session.drain_events().collect();
        for event in events {
            self.event(event, now);
        }
        if frame {
            let nudged = self.clock.nudged_micros(self.since_frame);
            self.since_frame = 0;
            let due = self.input_schedule.advance(nudged);
            let player = self.session.player().unwrap_or(Player::FIRST).index();
            for _ in 0..due.run {
                if let Some(tick) = self.inputs.as_mut().and_then(InputTicks::take) {
                    let command = scripted_commands(tick, player + 1)[player];
                    self.session.submit_input(tick, command);
                    self.since_inputs = 0;
                    self.repeated = false;
                }
            }
        }
        self.since_inputs += STEP_MICROS;
        let lossy = self.inputs.as_ref().is_some_and(InputTicks::lossy);
        if lossy && !self.repeated && self.since_inputs >= INPUT_REPEAT_MICROS {
            self.session.repeat_inputs();
            self.repeated = true;
        }
        if self.since_inputs >= TICK_MICROS {
            self.session.send_frame();
            self.since_inputs = 0;
        }
        for (delivery, bytes) in self.session.drain_outgoing() {
            self.to_host.send(now, delivery, bytes);
        }
    }

    fn event(&mut self, event: PeerEventOf<DriftData>, now: u64) {
        match event {
            PeerEvent::Welcomed(Welcome { tick, state, hash, rejoin, .. }) => {
                self.sim = Some(restored(&state, hash, tick));
                self.inputs = Some(InputTicks::new(tick, now - self.hello_at));
                self.rejoin = rejoin;
            }
            PeerEvent::Resync(Welcome { tick, state, hash, .. }) => {
                self.sim = Some(restored(&state, hash, tick));
                self.resynced.push(tick);
            }
            PeerEvent::Tick(record) => {
                self.clock.observe(record.tick);
                let sim = self.sim.as_mut().expect("ticks come after the welcome");
                if record.tick < sim.next_tick() {
                    // Of the state a resync replaced.
                    return;
                }
                run(sim, &record);
                if self.perturb_at.contains(&record.tick)
                    && let Some((_, mover)) = sim.state.movers.iter_mut().next()
                {
                    // A position lasts (a speed is worked out again each tick), as a bug's
                    // divergence would.
                    mover.pos.x += fixstep_runtime::math::Fx::from_bits(1);
                }
                let hash = sim.state_hash();
                self.hashes.push((record.tick, hash.total()));
                self.session.report_hash(record.tick, hash.total());
                self.records.push((record.tick, HashRecord::of(&hash)));
            }
            PeerEvent::InputAck { tick, queued, early_micros } => {
                if let Some(inputs) = self.inputs.as_mut() {
                    inputs.acknowledged(tick, early_micros);
                    if let Some(margin) = inputs.margin_micros() {
                        let target = inputs.margin_target_micros();
                        self.clock.report_margin(i64::from(margin), i64::from(target));
                        self.margins.push((margin, target));
                    }
                }
                self.queued.push(queued);
                let sent = self.inputs.as_ref().is_some_and(|i| tick >= i.first());
                self.late += u64::from(early_micros.is_none() && sent);
            }
            PeerEvent::Desync(DesyncNotice { tick, .. }) => {
                self.desyncs_told.push(tick);
                let (_, hash) = self.records.iter().find(|(t, _)| *t == tick).expect("ran it");
                self.session.send_desync_state(tick, Vec::new(), hash.clone());
            }
            PeerEvent::Goodbye(goodbye) => self.goodbye = Some(goodbye),
            PeerEvent::Resumed { tick, epoch, .. } => {
                // Its inputs start again a round trip ahead of the new host's first tick.
                let rtt = self.session.round_trip_micros().unwrap_or(0);
                self.inputs = Some(InputTicks::new(tick, rtt));
                self.resumed.push((tick, epoch));
            }
            PeerEvent::Roster(names) => self.names = names,
            PeerEvent::Update(()) | PeerEvent::Succession(_) => {}
            PeerEvent::Dropped(_) => {}
        }
    }
}

/// The state a welcome or resync brought, checked against its hash and tick.
fn restored(state: &[u8], hash: u64, tick: Tick) -> Drift {
    let mut sim = Drift::new(0, 0);
    sim.restore(&postcard::from_bytes(state).expect("the state decodes"));
    assert_eq!(sim.state_hash().total(), hash, "the state arrived whole");
    assert_eq!(sim.next_tick(), tick);
    sim
}

/// Moves everything the host sent into the peers' links, and the peers' into the host.
fn exchange(host: &mut Host, peers: &mut [Peer], now: u64) {
    for (to, delivery, bytes) in host.session.drain_outgoing() {
        if let Some(peer) = peers.iter_mut().find(|p| p.id == to) {
            peer.from_host.send(now, delivery, bytes);
        }
    }
    for peer in peers.iter_mut() {
        for (delivery, bytes) in peer.to_host.deliver(now) {
            host.session.receive(peer.id, delivery, &bytes, now);
        }
    }
}

/// Runs the host and `peers` for `seconds` of the test's clock, calling `each` every step.
fn play(
    host: &mut Host,
    peers: &mut Vec<Peer>,
    seconds: u64,
    mut each: impl FnMut(u64, &mut Host, &mut Vec<Peer>),
) {
    let end = seconds * 1_000_000;
    let mut now = 0;
    while now < end {
        now += STEP_MICROS;
        each(now, host, peers);
        host.step(STEP_MICROS, now);
        exchange(host, peers, now);
        for peer in peers.iter_mut() {
            peer.step(now);
        }
        exchange(host, peers, now);
    }
}

/// Every tick a peer ran, it ran to the host's hash.
fn assert_agrees(host: &Host, peer: &Peer) {
    assert!(peer.hashes.len() > 50, "peer {:?} ran only {} ticks", peer.id, peer.hashes.len());
    for (tick, hash) in &peer.hashes {
        let ours = host.hashes.iter().find(|(t, _)| t == tick).map(|(_, h)| *h);
        assert_eq!(ours, Some(*hash), "peer {:?} at tick {tick}", peer.id);
    }
}

/// A host and peers named `names` (numbered from 1) on [`BAD_LINK`]s, all saying hello at
/// the start.
fn connected_on_a_bad_link(names: &[&str]) -> (Host, Vec<Peer>) {
    let mut host = Host::new();
    let mut peers: Vec<Peer> =
        (1..).zip(names).map(|(id, name)| Peer::new(id, name, BAD_LINK)).collect();
    for peer in &mut peers {
        peer.connect(&mut host, 0);
    }
    (host, peers)
}

#[test]
fn three_peers_on_a_bad_link_compute_every_tick_as_the_host_does() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["peer 1", "peer 2", "peer 3"]);
    play(&mut host, &mut peers, 120, |_, _, _| {});
    assert!(host.hashes.len() >= 1_195, "{} ticks in two minutes", host.hashes.len());
    for peer in &peers {
        assert_agrees(&host, peer);
        assert!(peer.hashes.len() >= 1_150, "peer {:?} kept up: {}", peer.id, peer.hashes.len());
    }
    assert!(host.desyncs.is_empty(), "desyncs: {:?}", host.desyncs);
    for peer in &peers {
        // The link lost what it carried both ways: the agreement above held through losses.
        let lost = (peer.to_host.lost(), peer.from_host.lost());
        assert!(lost.0 > 0 && lost.1 > 0, "peer {:?}: lost (up, down) {lost:?}", peer.id);
        // 80 ms each way and up to 20 ms of jitter each way, measured from the host's echoes
        // of the peer's frames (the time the host held each taken out), to the millisecond.
        let rtt = peer.session.round_trip_micros().expect("measured");
        assert!((160_000..=201_000).contains(&rtt), "peer {:?}: round trip {rtt} µs", peer.id);
        // The host shows what the peer's latest frame said.
        let shown = host.session.round_trip_micros(peer.id).expect("told");
        assert!(shown.abs_diff(rtt) <= 10_000, "the host shows {shown} µs, the peer has {rtt}");
    }
    for peer in &peers {
        let steps = peer.inputs.as_ref().map_or(0, InputTicks::steps);
        println!(
            "peer {:?}: {} ticks, {} acks, {} late, queue at the end {:?}, {steps} steps",
            peer.id,
            peer.hashes.len(),
            peer.queued.len(),
            peer.late,
            &peer.queued[peer.queued.len() - 5..]
        );
    }
    // The margin of each peer's inputs settled on its target (within a few milliseconds: the
    // nudge closes what the jitter opens), short but never run out, and inputs were late
    // rarely: the loss of a packet that no repeat makes up for in time.
    for peer in &peers {
        let settled = &peer.margins[peer.margins.len() / 2..];
        let off: Vec<i64> =
            settled.iter().map(|&(m, target)| i64::from(m) - i64::from(target)).collect();
        let mean_off = off.iter().sum::<i64>() / off.len() as i64;
        assert!(
            mean_off.abs() < 15_000,
            "peer {:?}: margin off its target by {mean_off} µs",
            peer.id
        );
        let worst = off.iter().copied().max().unwrap_or(0);
        // At most the loss allowance over (the moment it lapses, before the nudge takes it
        // back) and the link's jitter twice over.
        assert!(
            worst < i64::from(LOSS_MARGIN_MICROS) + 50_000,
            "peer {:?}: a margin {worst} µs over its target",
            peer.id
        );
        let mut targets: Vec<u32> = settled.iter().map(|&(_, target)| target).collect();
        targets.sort_unstable();
        let target = targets[targets.len() / 2];
        // The floor, the spread of the link's arrivals (its jitter, and inputs that came
        // with a later message than their own), and a tick for its losses: under two ticks,
        // where a queue of two whole inputs held each for 200 to 300 ms.
        assert!(
            target <= MARGIN_FLOOR_MICROS + 60_000 + LOSS_MARGIN_MICROS,
            "peer {:?}: a target of {target} µs is input delay for nothing",
            peer.id
        );
        let late_permille = peer.late * 1000 / peer.queued.len() as u64;
        assert!(late_permille < 30, "peer {:?}: {late_permille} per mille late", peer.id);
    }
    // The host counts every input the peers were told came late (they are not told of all:
    // a frame lost takes its news with it).
    let told: u64 = peers.iter().map(|p| p.late).sum();
    assert!(host.late >= told, "the host counted {} late inputs, the peers {told}", host.late);
}

#[test]
fn a_peer_that_joins_late_runs_on_from_the_state_it_is_sent() {
    let mut host = Host::new();
    let mut peers = vec![Peer::new(1, "first", BAD_LINK)];
    peers[0].connect(&mut host, 0);
    play(&mut host, &mut peers, 30, |now, host, peers| {
        if now == 10_000_000 {
            let mut late = Peer::new(2, "second", BAD_LINK);
            late.connect(host, now);
            peers.push(late);
        }
    });
    assert_eq!(host.sim.players(), 2);
    for peer in &peers {
        assert_agrees(&host, peer);
    }
    let joined_at = peers[1].hashes[0].0;
    assert!(joined_at.0 >= 100, "the second peer started at tick {joined_at}");
}

/// The ticks the host fixes between a player's welcome and its first input are fixed
/// without it as a matter of course: on a steady link, players who join at the start and
/// later count no late input, at the host or at themselves. (Counted, every join added one
/// late input per tick of its lead, and a load test of 256 joins reported hundreds.)
#[test]
fn joining_costs_no_late_input_on_a_steady_link() {
    const STEADY: LinkConditions =
        LinkConditions { delay_micros: 30_000, ..LinkConditions::PERFECT };
    let mut host = Host::new();
    let mut peers = vec![Peer::new(1, "first", STEADY)];
    peers[0].connect(&mut host, 0);
    play(&mut host, &mut peers, 20, |now, host, peers| {
        if now == 7_000_000 {
            let mut late = Peer::new(2, "second", STEADY);
            late.connect(host, now);
            peers.push(late);
        }
    });
    for peer in &peers {
        assert_agrees(&host, peer);
        assert_eq!(peer.late, 0, "peer {:?} counted late inputs", peer.id);
    }
    assert_eq!(host.late, 0, "the host counted late inputs");
}

#[test]
fn a_player_back_under_its_name_gets_its_character_back() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["stays", "returns"]);
    play(&mut host, &mut peers, 20, |now, host, peers| {
        if now == 6_000_000 {
            host.session.disconnect(PeerId(2));
            peers.remove(1);
        }
        if now == 9_000_000 {
            let mut back = Peer::new(3, "returns", BAD_LINK);
            back.connect(host, now);
            peers.push(back);
        }
    });
    assert_eq!(host.sim.players(), 2, "no new player: the old one's character came back");
    assert_eq!(peers[1].session.player(), Some(Player(1)));
    for peer in &peers {
        assert_agrees(&host, peer);
    }
}

/// A peer that falls silent (a crash, a pulled cable: no goodbye) is dropped once it has
/// said nothing for [`PEER_TIMEOUT_MICROS`], not before, and the game goes on without it.
#[test]
fn a_silent_peer_is_dropped_after_the_timeout_and_the_game_goes_on() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["stays", "falls silent"]);
    let silent_from = 4_000_000;
    let mut connected = Vec::new();
    play(&mut host, &mut peers, 12, |now, host, peers| {
        if now == silent_from {
            peers.remove(1);
        }
        connected.push((now, host.session.peers().count()));
    });
    let connected_at =
        |at: u64| connected.iter().find(|(now, _)| *now >= at).map(|&(_, count)| count);
    // Its last messages were on their way for up to a link's delay before it fell silent.
    let margin = 500_000;
    assert_eq!(connected_at(silent_from + PEER_TIMEOUT_MICROS - margin), Some(2), "kept");
    assert_eq!(connected_at(silent_from + PEER_TIMEOUT_MICROS + margin), Some(1), "dropped");
    assert!(host.hashes.len() >= 110, "the game went on: {} ticks", host.hashes.len());
    assert_agrees(&host, &peers[0]);
}

/// A peer whose state diverges is reported at the tick it did, and the host's resync brings
/// it back: it agrees with the host again within a second, and to the end.
#[test]
fn a_perturbed_peer_is_reported_as_a_desync_and_resynced_within_a_second() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["honest", "perturbed"]);
    peers[1].perturb_at = vec![Tick(150)];
    play(&mut host, &mut peers, 30, |_, _, _| {});
    assert_eq!(host.desyncs.len(), 1, "one desync, reported once: {:?}", host.desyncs);
    assert_eq!(host.desyncs[0], (PeerId(2), Tick(150)), "the perturbed peer, at its tick");
    assert_eq!(peers[1].desyncs_told, [Tick(150)], "the peer was told of it, once");
    assert!(peers[0].desyncs_told.is_empty(), "the honest peer was told nothing");
    let parts = &host.desync_parts;
    assert_eq!(parts.len(), 1, "the peer's hash came back: {parts:?}");
    assert_eq!(parts[0].2, vec![1], "the movers' part differs, and no other");
    let resynced = *peers[1].resynced.first().expect("the host resynced it");
    assert!(resynced.0 <= 160, "resynced at tick {resynced}, within a second of tick 150");
    let hosts: std::collections::BTreeMap<Tick, u64> = host.hashes.iter().copied().collect();
    let after: Vec<&(Tick, u64)> = peers[1].hashes.iter().filter(|(t, _)| *t >= resynced).collect();
    assert!(after.len() > 100, "it played on: {} ticks", after.len());
    for (tick, hash) in after {
        assert_eq!(hosts.get(tick), Some(hash), "tick {tick} after the resync");
    }
    assert_agrees(&host, &peers[0]);
    assert!(peers[1].goodbye.is_none(), "it stays in the game");
}

/// A game that does not resync hears of a diverged peer once, not at every tick after, and
/// tells that peer once.
#[test]
fn without_a_resync_a_diverged_peer_is_reported_once() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["honest", "diverged"]);
    host.resyncs = false;
    peers[1].perturb_at = vec![Tick(100)];
    play(&mut host, &mut peers, 20, |_, _, _| {});
    assert_eq!(host.desyncs.len(), 1, "{:?}", &host.desyncs[..host.desyncs.len().min(3)]);
    assert_eq!(host.desyncs[0], (PeerId(2), Tick(100)), "the diverged peer, at its tick");
    assert_eq!(peers[1].desyncs_told, [Tick(100)], "the diverged peer was told, once");
    assert!(peers[0].desyncs_told.is_empty(), "the honest peer was told nothing");
    assert!(peers[1].hashes.len() > 150, "it plays on, diverged");
}

/// A peer that keeps diverging is not resynced forever: its third desync within a minute
/// ends its connection, and it is told why.
#[test]
fn a_peer_that_desyncs_three_times_in_a_minute_is_dropped_with_that_reason() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["honest", "diverging"]);
    peers[1].perturb_at = vec![Tick(100), Tick(140), Tick(180)];
    play(&mut host, &mut peers, 25, |_, _, _| {});
    let reported: Vec<_> = host.desyncs.iter().map(|&(peer, tick)| (peer, tick.0)).collect();
    assert_eq!(reported, [(PeerId(2), 100), (PeerId(2), 140), (PeerId(2), 180)]);
    // The third is told as the goodbye below, the connection ending with it.
    assert_eq!(peers[1].desyncs_told, [Tick(100), Tick(140)], "told of the first two");
    assert_eq!(peers[1].resynced.len(), 2, "resynced twice, then dropped");
    assert!(
        matches!(peers[1].goodbye, Some(Goodbye::RepeatedDesyncs { desyncs: 3, .. })),
        "told why: {:?}",
        peers[1].goodbye
    );
    assert_eq!(host.session.peers().count(), 1, "only the honest peer is left");
    assert_agrees(&host, &peers[0]);
}

/// A player that crashed and came back at once, before the host noticed the old connection
/// was gone: with the secret its welcome gave it, it takes its seat over from that
/// connection (told why), plays its own character and agrees with the host from its first
/// tick. Without the secret, the same name is refused while the seat is held.
/// Players leave and come back under a host of three seats that keeps a departed player's
/// seat for two seconds: while bob's seat is kept, a newcomer is refused as if bob were there;
/// once the grace is over the seat is freed at a tick (bob's mover leaves the field), and the
/// newcomer takes that very seat. A player back within its grace gets its own seat again, one
/// back after it is a newcomer in whatever seat is free. The game never has more than three
/// seats, and every peer computes every tick as the host does, the ticks that free and take
/// seats included.
#[test]
fn a_departed_players_seat_is_kept_for_its_grace_then_freed_for_a_newcomer() {
    let mut host = Host::with_seats(3, 2_000_000);
    let mut peers = vec![Peer::new(1, "ada", BAD_LINK)];
    peers[0].connect(&mut host, 0);
    let player_of = |peers: &[Peer], id: u64| {
        peers.iter().find(|p| p.id == PeerId(id)).and_then(|p| p.session.player())
    };
    let mut joins = Vec::new();
    play(&mut host, &mut peers, 24, |now, host, peers| {
        let at = |seconds: u64, id: u64, name: &str, host: &mut Host, peers: &mut Vec<Peer>| {
            if now == seconds * 1_000_000 {
                let mut peer = Peer::new(id, name, BAD_LINK);
                peer.connect(host, now);
                peers.push(peer);
            }
        };
        let leave = |seconds: u64, id: u64, host: &mut Host, peers: &mut Vec<Peer>| {
            if now == seconds * 1_000_000 {
                host.session.disconnect(PeerId(id));
                peers.retain(|p| p.id != PeerId(id));
            }
        };
        // A second apart, so that they are seated in this order whatever the link does.
        at(1, 2, "bob", host, peers);
        at(2, 3, "cy", host, peers);
        leave(5, 2, host, peers);
        at(6, 4, "dan", host, peers);
        at(9, 5, "dan", host, peers);
        leave(11, 3, host, peers);
        at(12, 6, "cy", host, peers);
        leave(14, 1, host, peers);
        at(17, 7, "bob", host, peers);
        joins.push((now, host.session.players(), host.session.seats_in_grace()));
    });
    let dan_told = &host.refused;
    assert!(
        matches!(&dan_told[..], [(name, Goodbye::Full { players: 3, max: 3 })] if name == "dan"),
        "the first dan is refused while bob's seat is kept: {dan_told:?}"
    );
    assert_eq!(
        host.freed,
        [("bob".to_owned(), Player(1)), ("ada".to_owned(), Player(0))],
        "cy came back in time"
    );
    let joined: Vec<(&str, u16, bool)> =
        host.joined.iter().map(|(n, p, r)| (n.as_str(), p.0, *r)).collect();
    assert_eq!(
        joined,
        [
            ("ada", 0, false),
            ("bob", 1, false),
            ("cy", 2, false),
            ("dan", 1, false),
            ("cy", 2, true),
            ("bob", 0, false)
        ],
        "dan takes bob's freed seat, cy its own, bob ada's"
    );
    let freed_at = |seat: u16| {
        host.seat_changes.iter().find(|(_, s)| s.freed.contains(&Player(seat))).map(|(t, _)| t.0)
    };
    // Tick k is fixed at (k + 1) × 100 ms: the first fixed two seconds after bob left at 5 s is
    // tick 69, and after ada left at 14 s tick 159.
    let bob_freed = freed_at(1).expect("bob's seat was freed at a tick");
    assert!((69..=70).contains(&bob_freed), "two seconds after bob left: tick {bob_freed}");
    let ada_freed = freed_at(0).expect("ada's seat was freed at a tick");
    assert!((159..=160).contains(&ada_freed), "two seconds after ada left: tick {ada_freed}");
    assert_eq!(host.sim.players(), 3, "never a fourth seat");
    assert!(joins.iter().all(|&(_, players, _)| players <= 3), "at most three seated");
    assert!(joins.iter().any(|&(_, _, grace)| grace == 1), "a seat was kept at some time");
    let (refused, playing): (Vec<&Peer>, Vec<&Peer>) =
        peers.iter().partition(|p| p.goodbye.is_some());
    assert_eq!(refused.iter().map(|p| p.id).collect::<Vec<_>>(), [PeerId(4)], "the first dan");
    for peer in playing {
        assert_agrees(&host, peer);
    }
    assert_eq!(player_of(&peers, 5), Some(Player(1)), "dan plays seat 1");
    assert_eq!(player_of(&peers, 7), Some(Player(0)), "bob came back as a newcomer in seat 0");
    assert!(host.desyncs.is_empty(), "{:?}", host.desyncs);
}

/// A player named `name` said hello to `host` as peer `id` at `now_micros`, and was welcomed
/// there and then (without its session seeing the welcome).
fn welcomed(host: &mut HostSession<DriftData>, id: u64, name: &str, now_micros: u64) {
    let mut peer = PeerSession::<DriftData>::new(PeerConfig {
        identity: identity(),
        name: name.into(),
        role: Role::Player,
        rejoin: None,
    });
    host.connect(PeerId(id), now_micros);
    peer.connect();
    for (delivery, bytes) in peer.drain_outgoing() {
        host.receive(PeerId(id), delivery, &bytes, now_micros);
    }
    host.welcome(PeerId(id), b"state", 1, RejoinSecret([9; 16]));
}

/// A newcomer welcomed and gone again before the tick it was to join at, with no grace, never
/// takes its seat: the tick seats nobody and frees nothing, and the seat is free for the next.
#[test]
fn a_newcomer_gone_before_its_first_tick_takes_no_seat() {
    let mut host = new_host(4, 1, 0);
    welcomed(&mut host, 1, "brief", 0);
    host.disconnect(PeerId(1));
    let record = host.fix_tick();
    assert_eq!(record.seats, SeatChanges::NONE, "never seated, never freed");
    assert_eq!(record.commands.len(), 2, "the host's own, and the seat made for brief");
    welcomed(&mut host, 2, "next", 0);
    let record = host.fix_tick();
    assert_eq!(
        record.seats,
        SeatChanges { freed: vec![], joined: vec![Player(1)] },
        "the same seat"
    );
    assert_eq!(host.names().collect::<Vec<_>>(), ["host 0", "next"]);
}

/// A host that sleeps until `poll_timeout` wakes when a kept seat's grace is over, so the seat
/// is freed on time on a host nobody talks to.
#[test]
fn poll_timeout_names_the_end_of_a_kept_seats_grace() {
    let mut host = new_host(4, 0, 3_000_000);
    welcomed(&mut host, 1, "ada", 1_000);
    host.check_timeouts(2_000_000);
    host.disconnect(PeerId(1));
    assert_eq!(host.poll_timeout(), Some(5_000_000), "left at 2 s, kept for 3 s");
    host.check_timeouts(4_999_999);
    assert_eq!(host.seats_in_grace(), 1, "kept until then");
    host.check_timeouts(5_000_000);
    assert_eq!((host.seats_in_grace(), host.players()), (0, 0), "freed then");
    assert_eq!(host.poll_timeout(), None, "nothing left to wait for");
}

#[test]
fn a_player_with_its_rejoin_secret_takes_its_seat_over_at_once() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["stays", "crashes"]);
    let mut impostor_told = None;
    play(&mut host, &mut peers, 16, |now, host, peers| {
        if now == 5_000_000 {
            // Someone else asks for the seat by name alone.
            let mut impostor = Peer::new(7, "crashes", BAD_LINK);
            impostor.connect(host, now);
            peers.push(impostor);
        }
        if now == 7_000_000 {
            impostor_told = peers.pop().and_then(|p| p.goodbye);
            // The player's process dies without a word; a new one starts with the secret
            // it kept.
            let secret = peers[1].rejoin.expect("the welcome gave a secret");
            let mut crashed = peers.remove(1);
            crashed.from_host = SimulatedLink::new(LinkConditions::PERFECT, 1);
            let mut back = Peer::new(3, "crashes", BAD_LINK);
            back.session = PeerSession::new(PeerConfig {
                identity: identity(),
                name: "crashes".into(),
                role: Role::Player,
                rejoin: Some(secret),
            });
            back.connect(host, now);
            peers.push(back);
            peers.push(crashed);
        }
    });
    assert!(
        matches!(&impostor_told, Some(Goodbye::NameInUse(name)) if name == "crashes"),
        "the impostor is refused: {impostor_told:?}"
    );
    let (back, crashed) = (&peers[1], &peers[2]);
    assert_eq!(back.session.player(), Some(Player(1)), "its own character");
    assert_eq!(host.sim.players(), 2, "no new player");
    let rejoined_at = back.hashes.first().expect("it played").0;
    assert!(rejoined_at.0 <= 75, "back within half a second: tick {rejoined_at}");
    assert_agrees(&host, back);
    assert!(
        host.left.iter().any(|(id, g)| *id == crashed.id && *g == Some(Goodbye::Replaced)),
        "the old connection was told it was replaced: {:?}",
        host.left
    );
}

#[test]
fn a_peer_from_another_build_or_level_is_refused_naming_what_differs() {
    let mut host = new_host(2, 1, DEFAULT_SEAT_GRACE_MICROS);
    for (id, theirs, expected) in [
        (1, Identity { sim_version: 9, ..identity() }, "simulation version 9"),
        (2, Identity { level: ContentDigest(5), ..identity() }, "level digest"),
        (3, Identity { protocol: 99, ..identity() }, "protocol version 99"),
    ] {
        let mut peer: PeerSession<DriftData> = PeerSession::new(PeerConfig {
            identity: theirs,
            name: format!("p{id}"),
            role: Role::Player,
            rejoin: None,
        });
        host.connect(PeerId(id), 0);
        peer.connect();
        for (delivery, bytes) in peer.drain_outgoing() {
            host.receive(PeerId(id), delivery, &bytes, 0);
        }
        for (_, delivery, bytes) in host.drain_outgoing() {
            peer.receive(delivery, &bytes);
        }
        let refused = peer.drain_events().find_map(|e| match e {
            PeerEvent::Goodbye(goodbye) => Some(goodbye.to_string()),
            _ => None,
        });
        let reason = refused.expect("refused");
        assert!(reason.contains(expected), "{reason}");
    }
    // A full host says so.
    let mut fits: PeerSession<DriftData> = PeerSession::new(PeerConfig {
        identity: identity(),
        name: "fits".into(),
        role: Role::Player,
        rejoin: None,
    });
    let mut full: PeerSession<DriftData> = PeerSession::new(PeerConfig {
        identity: identity(),
        name: "full".into(),
        role: Role::Player,
        rejoin: None,
    });
    for (id, peer) in [(10, &mut fits), (11, &mut full)] {
        host.connect(PeerId(id), 0);
        peer.connect();
        for (delivery, bytes) in peer.drain_outgoing() {
            host.receive(PeerId(id), delivery, &bytes, 0);
        }
        if id == 10 {
            host.welcome(PeerId(10), b"state", 1, RejoinSecret([9; 16]));
        }
    }
    for (to, delivery, bytes) in host.drain_outgoing() {
        if to == PeerId(11) {
            full.receive(delivery, &bytes);
        }
    }
    let reason = full.drain_events().find_map(|e| match e {
        PeerEvent::Goodbye(goodbye) => Some(goodbye.to_string()),
        _ => None,
    });
    assert!(reason.is_some_and(|r| r.contains("full")), "the second player is refused");
}

#[test]
fn garbage_never_stops_the_host_and_the_peers_still_agree() {
    let (mut host, mut peers) = connected_on_a_bad_link(&["a", "b"]);
    let attacker = PeerId(666);
    host.session.connect(attacker, 0);
    let mut rng = SimRng::new(99, 3);
    // Genuine messages to mutate: a hello and some inputs.
    let mut sample: PeerSession<DriftData> = PeerSession::new(PeerConfig {
        identity: identity(),
        name: "x".into(),
        role: Role::Player,
        rejoin: None,
    });
    sample.connect();
    sample.submit_input(Tick(3), DriftCommand { thrust: 3, turn: 1, spawn: true });
    let genuine: Vec<Vec<u8>> = sample.drain_outgoing().map(|(_, b)| b).collect();
    let mut sent = 0u64;
    play(&mut host, &mut peers, 20, |now, host, peers| {
        // 100,000 datagrams over 20 s: about ten a step, half random, half mutated genuine
        // ones, some sent as if from the players themselves.
        for _ in 0..10 {
            let mut bytes = if rng.chance(1, 2) {
                let len = rng.below(1_400) as usize;
                (0..len).map(|_| rng.next_u32() as u8).collect::<Vec<u8>>()
            } else {
                let mut b = genuine[rng.below(genuine.len() as u32) as usize].clone();
                for _ in 0..=rng.below(4) {
                    if b.is_empty() {
                        break;
                    }
                    let at = rng.below(b.len() as u32) as usize;
                    b[at] = rng.next_u32() as u8;
                }
                b
            };
            if rng.chance(1, 10) {
                bytes.truncate(rng.below(bytes.len() as u32 + 1) as usize);
            }
            // A transport authenticates its connections, so garbage "from" a player is a
            // player's own bug; it starts once the player is in, and comes rarely enough
            // (five a second) that the host bears it.
            let from = if now > 2_000_000 && rng.chance(1, 1_000) { peers[0].id } else { attacker };
            if host.session.peers().all(|(id, _)| id != attacker) {
                // Dropped for its garbage: it connects again, as a transport lets it.
                host.session.connect(attacker, now);
            }
            let delivery = if rng.chance(1, 2) { Delivery::Reliable } else { Delivery::Unreliable };
            host.session.receive(from, delivery, &bytes, now);
            sent += 1;
        }
    });
    assert!(host.hashes.len() >= 195, "the host kept ticking: {}", host.hashes.len());
    for peer in &peers {
        assert_agrees(&host, peer);
    }
    let drops = host.session.drops();
    assert!(drops.refused > sent / 10, "of {sent}, garbage is refused as such: {drops:?}");
    let cut_off = host.left.iter().filter(|(id, _)| *id == attacker).count();
    assert!(cut_off > 100, "the attacker was dropped again and again: {cut_off}");
    assert!(
        host.left.iter().all(|(id, goodbye)| *id == attacker && goodbye.is_some()),
        "only the attacker, each time told why: {:?}",
        &host.left[..host.left.len().min(5)]
    );
    let malformed = host.left.iter().filter(|(_, g)| *g == Some(Goodbye::Malformed)).count();
    assert!(malformed > 100, "mostly for its malformed messages: {malformed}");
}

/// Caught a host that counted a welcomed player twice (its slot and its pending join) and
/// refused a burst of joiners while seats were free, and let two askers past the check for
/// one seat.
#[test]
fn a_burst_of_joiners_fills_every_seat_and_no_more() {
    let mut host = new_host(4, 1, DEFAULT_SEAT_GRACE_MICROS);
    let mut peers: Vec<PeerSession<DriftData>> = (0..6)
        .map(|i| {
            PeerSession::new(PeerConfig {
                identity: identity(),
                name: format!("p{i}"),
                role: Role::Player,
                rejoin: None,
            })
        })
        .collect();
    // All six say hello before the host welcomes anyone, then it welcomes whom it may.
    for (i, peer) in peers.iter_mut().enumerate() {
        host.connect(PeerId(i as u64), 0);
        peer.connect();
        for (delivery, bytes) in peer.drain_outgoing() {
            host.receive(PeerId(i as u64), delivery, &bytes, 0);
        }
    }
    let wanted: Vec<PeerId> = host
        .drain_events()
        .filter_map(|e| match e {
            HostEvent::StateWanted { peer } => Some(peer),
            _ => None,
        })
        .collect();
    for peer in &wanted {
        host.welcome(*peer, b"state", 1, RejoinSecret([9; 16]));
    }
    for (to, delivery, bytes) in host.drain_outgoing() {
        peers[to.0 as usize].receive(delivery, &bytes);
    }
    let mut welcomed = 0;
    let mut refused = Vec::new();
    for peer in &mut peers {
        for event in peer.drain_events() {
            match event {
                PeerEvent::Welcomed(_) => welcomed += 1,
                PeerEvent::Goodbye(goodbye) => refused.push(goodbye.to_string()),
                _ => {}
            }
        }
    }
    assert_eq!(welcomed, 3, "three seats beside the host's own");
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(refused.iter().all(|r| r.contains("full: 4 players of 4")), "{refused:?}");
}

#[test]
fn every_peer_learns_every_players_name_as_they_join() {
    let mut host = new_host(4, 1, DEFAULT_SEAT_GRACE_MICROS);
    host.name_local(Player(0), "ada");
    let mut peers: Vec<PeerSession<DriftData>> = ["bob", "cy"]
        .into_iter()
        .map(|name| {
            PeerSession::new(PeerConfig {
                identity: identity(),
                name: name.into(),
                role: Role::Player,
                rejoin: None,
            })
        })
        .collect();
    let mut rosters: Vec<Vec<Vec<String>>> = vec![Vec::new(); peers.len()];
    for i in 0..peers.len() {
        host.connect(PeerId(i as u64), 0);
        peers[i].connect();
        for (delivery, bytes) in peers[i].drain_outgoing() {
            host.receive(PeerId(i as u64), delivery, &bytes, 0);
        }
        host.welcome(PeerId(i as u64), b"state", 1, RejoinSecret([9; 16]));
        for (to, delivery, bytes) in host.drain_outgoing() {
            peers[to.0 as usize].receive(delivery, &bytes);
        }
        for (peer, seen) in peers.iter_mut().zip(&mut rosters) {
            seen.extend(peer.drain_events().filter_map(|e| match e {
                PeerEvent::Roster(names) => Some(names),
                _ => None,
            }));
        }
    }
    let names = |list: &[&str]| list.iter().map(|n| (*n).to_owned()).collect::<Vec<String>>();
    assert_eq!(rosters[0], [names(&["ada", "bob"]), names(&["ada", "bob", "cy"])], "bob");
    assert_eq!(rosters[1], [names(&["ada", "bob", "cy"])], "cy, told on its welcome");
    assert_eq!(host.names().collect::<Vec<_>>(), ["ada", "bob", "cy"]);
}

/// A host that looks at its session only when `poll_timeout` says drops a silent peer at
/// the moment its timeout runs out, no sooner and no later, and hearing from a peer moves its
/// deadline on.
#[test]
fn poll_timeout_names_the_moment_a_silent_peer_is_dropped() {
    let mut session = new_host(8, 0, DEFAULT_SEAT_GRACE_MICROS);
    assert_eq!(session.poll_timeout(), None, "no peer, no deadline");
    session.connect(PeerId(1), 0);
    session.connect(PeerId(2), 1_000_000);
    let first = session.poll_timeout().expect("a deadline");
    assert_eq!(first, PEER_TIMEOUT_MICROS + 1);
    session.check_timeouts(first - 1);
    assert_eq!(session.peers().count(), 2, "not before the deadline");
    // Anything heard counts, even a message the session refuses.
    session.receive(PeerId(2), Delivery::Reliable, b"not a message", 3_000_000);
    session.check_timeouts(first);
    let left: Vec<PeerId> = session.peers().map(|(id, _)| id).collect();
    assert_eq!(left, [PeerId(2)], "the quiet one is dropped at its deadline");
    assert_eq!(session.poll_timeout(), Some(3_000_000 + PEER_TIMEOUT_MICROS + 1));
    session.check_timeouts(3_000_000 + PEER_TIMEOUT_MICROS + 1);
    assert_eq!(session.poll_timeout(), None);
}

/// A match resumed from its replay holds its seats for the names the replay recorded: a
/// player who joins under one takes that seat back (no new seat, no seat change at the tick),
/// a newcomer takes a seat the replay left free before any new one, and a seat nobody claims
/// is freed once its grace is over.
#[test]
fn a_resumed_matchs_seats_wait_for_their_recorded_names() {
    let mut host = new_host(8, 1, 3_000_000);
    let names = [Some("host".to_owned()), Some("ada".to_owned()), None, Some("bob".to_owned())];
    host.hold_seats(&names, 0);
    assert_eq!(host.names().collect::<Vec<_>>(), ["host 0", "ada", "", "bob"]);
    assert_eq!(host.seats_in_grace(), 2, "ada's and bob's");
    welcomed(&mut host, 1, "ada", 1_000);
    welcomed(&mut host, 2, "cy", 1_000);
    let record = host.fix_tick();
    assert_eq!(
        record.seats,
        SeatChanges { freed: vec![], joined: vec![Player(2)] },
        "ada is back in her seat; cy takes the free one"
    );
    assert_eq!(record.commands.len(), 4, "no new seat");
    host.check_timeouts(3_000_000);
    let record = host.fix_tick();
    assert_eq!(record.seats.freed, [Player(3)], "bob never came: his seat is freed");
    assert_eq!(host.names().collect::<Vec<_>>(), ["host 0", "ada", "cy", ""]);
}
