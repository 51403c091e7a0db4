//! A headless host's tick with N players connected, in memory: how many players one host
//! carries at 100 ms ticks.
//!
//! `host_tick/N` times what the host does each tick for N players, the host's bot and N - 1
//! joined peers: take one input message from each peer (decode, check, queue), act on it,
//! fix the tick's commands, run the town with its N players, hash it, keep its state for desync
//! reports, send every peer the tick (encode), compare the N hash reports that come back, and
//! write its metrics (`HostMetrics`, as `fixstep host --metrics` does once a tick);
//! `metrics_write/256` times that last part alone.
//! The peers' own work (bots choosing commands, decoding what they are sent) is not timed:
//! it runs on their machines. The transport's share (renet's channels, netcode's encryption)
//! is not in it either; `fixstep host` on loopback gives that.
//!
//! After criterion's figures the bench prints, for each N, the messages' payload per peer
//! (bytes a second each way, before renet's and netcode's headers) and the share of a 100 ms
//! tick the host's work takes. Run with `cargo bench -p fixstep-town-view --bench host_session`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use fixstep_netplay::{HostGame, HostMetrics, HostOptions, identity_of};
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, Delivery, PeerConfig, PeerEvent, PeerId, PeerSession, Role,
};
use fixstep_runtime::{Bot as _, Player, Rules as _, Simulation, Tick};
use fixstep_town::bots::TownBot;
use fixstep_town_view::Town;

/// Player counts measured (the host's bot among them): two friends, a full room, a large
/// match, the old limit of 64 seats, and the seat limit now.
const PLAYERS: [usize; 5] = [2, 8, 32, 64, 256];

/// How far ahead the peers' inputs are, ticks: a round trip on a good link.
const LEAD_TICKS: u32 = 2;

/// A 100 ms tick, microseconds.
const TICK_MICROS: u64 = 100_000;

/// Ticks run before measuring, so every peer is welcomed and its input stream is steady.
const WARM_UP_TICKS: u32 = 20;

/// A host, its peers and what is on its way between them.
struct Room {
    host: HostGame<Town>,
    /// What an operator scrapes: written each tick, as a host with `--metrics` does.
    metrics: HostMetrics,
    peers: Vec<PeerSession<Town>>,
    bots: Vec<TownBot>,
    host_bot: TownBot,
    /// Messages on their way to the host, by peer.
    to_host: Vec<(PeerId, Delivery, Vec<u8>)>,
    /// Messages on their way to each peer.
    to_peers: Vec<Vec<(Delivery, Vec<u8>)>>,
    now_micros: u64,
    /// Payload bytes sent each way since the count was reset.
    bytes_up: usize,
    bytes_down: usize,
}

impl Room {
    fn new(peers: usize) -> Self {
        let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        let level = Town::load_content(&assets, &Town::default_content(&assets));
        let level = Arc::new(level.expect("the town loads"));
        let options = HostOptions {
            bind: ([127, 0, 0, 1], 0).into(),
            also_reachable_at: Vec::new(),
            max_players: peers + 1,
            max_spectators: 8,
            seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
            own_player: true,
            seed: 1,
            name: "host".to_owned(),
            reports: PathBuf::from("desync-reports"),
            access: fixstep_netplay::Access::Open,
            record: None,
            spectator_delay_ticks: 0,
            migration: true,
            rendezvous: None,
            port_mapping: false,
            stun: Vec::new(),
            turn: None,
        };
        let mut host = HostGame::new(&level, &options);
        let mut sessions = Vec::new();
        for i in 0..peers {
            let config = PeerConfig {
                identity: identity_of::<Town>(&level),
                name: format!("peer {i}"),
                role: Role::Player,
                rejoin: None,
            };
            let mut session = PeerSession::new(config);
            session.connect();
            host.session_mut().connect(PeerId(i as u64), 0);
            sessions.push(session);
        }
        let mut room = Self {
            host,
            metrics: HostMetrics::new(),
            peers: sessions,
            bots: Player::all(1 + peers).skip(1).map(|p| TownBot::new(p, &level)).collect(),
            host_bot: TownBot::new(Player(0), &level),
            to_host: Vec::new(),
            to_peers: vec![Vec::new(); peers],
            now_micros: 0,
            bytes_up: 0,
            bytes_down: 0,
        };
        for _ in 0..WARM_UP_TICKS {
            room.peers_play();
            room.host_tick();
        }
        assert_eq!(room.host.sim().players(), peers + 1, "every peer joined");
        room
    }

    /// The host's part of a tick: everything it receives, the tick, everything it sends.
    fn host_tick(&mut self) {
        self.now_micros += TICK_MICROS;
        for (peer, delivery, bytes) in self.to_host.drain(..) {
            self.host.session_mut().receive(peer, delivery, &bytes, self.now_micros);
        }
        self.host.after_receive(self.now_micros).expect("no reports to write");
        let command = self.host_bot.command(self.host.sim().snapshot());
        self.host.run_tick(Some(command)).expect("the tick runs");
        for (peer, delivery, bytes) in self.host.session_mut().drain_outgoing() {
            self.bytes_down += bytes.len();
            self.to_peers[peer.0 as usize].push((delivery, bytes));
        }
        self.write_metrics();
    }

    /// What a host with `--metrics` writes of its counts once a tick.
    fn write_metrics(&self) {
        self.metrics.tick_ran(0);
        self.metrics.observe_game(&self.host);
        let socket = (fixstep_net::WireCounts::default(), fixstep_net::Reads::default());
        self.metrics.observe_socket(&socket.0, &socket.1);
    }

    /// The peers' part: what they were sent, their hash reports (the host's own hash: they
    /// would compute the same) and their next inputs.
    fn peers_play(&mut self) {
        let hash = self.host.hash().clone();
        let tick = Tick(self.host.sim().next_tick().0.saturating_sub(1));
        let snapshot = Arc::clone(self.host.sim().snapshot());
        for (i, peer) in self.peers.iter_mut().enumerate() {
            for (delivery, bytes) in self.to_peers[i].drain(..) {
                peer.receive(delivery, &bytes);
            }
            let mut welcomed = peer.player().is_some();
            for event in peer.drain_events() {
                welcomed |= matches!(event, PeerEvent::Welcomed(_));
            }
            if welcomed {
                peer.report_hash(tick, hash.total());
                let input_tick = Tick(tick.0 + 1 + LEAD_TICKS);
                peer.submit_input(input_tick, self.bots[i].command(&snapshot));
            }
            for (delivery, bytes) in peer.drain_outgoing() {
                self.bytes_up += bytes.len();
                self.to_host.push((PeerId(i as u64), delivery, bytes));
            }
        }
    }
}

fn host_tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("host_tick");
    let mut notes = Vec::new();
    for players in PLAYERS {
        let peers = players - 1;
        let mut room = Room::new(peers);
        let mut host_time = Duration::ZERO;
        let mut ticks = 0u32;
        (room.bytes_up, room.bytes_down) = (0, 0);
        group.bench_with_input(BenchmarkId::from_parameter(players), &players, |b, _| {
            b.iter_custom(|iters| {
                let mut timed = Duration::ZERO;
                for _ in 0..iters {
                    room.peers_play();
                    let start = Instant::now();
                    room.host_tick();
                    timed += start.elapsed();
                }
                host_time += timed;
                ticks += iters as u32;
                timed
            });
        });
        let seconds = f64::from(ticks) * TICK_MICROS as f64 / 1e6;
        let per_peer = |bytes: usize| bytes as f64 / seconds / peers as f64;
        let share = host_time.as_secs_f64() / f64::from(ticks) / (TICK_MICROS as f64 / 1e6);
        notes.push(format!(
            "{players:>3} players: payload per peer {:.0} B/s up, {:.0} B/s down; host work {:.2} % of each tick",
            per_peer(room.bytes_up),
            per_peer(room.bytes_down),
            share * 100.0,
        ));
    }
    group.finish();
    for note in notes {
        println!("{note}");
    }
}

/// The metrics' share of `host_tick/256` alone: what the host writes of them once a tick,
/// with 256 players, too small to tell from the tick's own spread on a busy machine.
fn metrics_write(c: &mut Criterion) {
    let room = Room::new(255);
    c.bench_function("metrics_write/256", |b| b.iter(|| room.write_metrics()));
}

criterion_group!(benches, host_tick, metrics_write);
criterion_main!(benches);
