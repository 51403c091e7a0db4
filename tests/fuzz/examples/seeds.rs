//! Writes the fuzz targets' seeds into `corpus/TARGET/`: real inputs, as the program reads
//! them. The files under `assets/` and `tests/`, and what the program writes: messages and
//! datagrams of sessions and connections played in memory, replays of both games, traces,
//! drawn logs and truth files, the default settings. `cargo fuzz cmin` then keeps the ones
//! that add coverage.
//!
//! `cargo run --manifest-path tests/fuzz/Cargo.toml --example seeds`

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use fixstep_arena::ArenaCommand;
use fixstep_arena_view::Arena;
use fixstep_fuzz::sessions::{HostDriver, PeerDriver, peer_id};
use fixstep_fuzz::settings::Settings;
use fixstep_fuzz::{HostOp, PeerOp, assets, delivery_byte, push_chunk};
use fixstep_net::access::Refusal;
use fixstep_net::lan::{LanAnswer, query};
use fixstep_net::{NETCODE_PROTOCOL_ID, SessionKey, connection_config};
use fixstep_present::{CommandOf, Game};
use fixstep_runtime::TickRecord;
use fixstep_runtime::net::{GameData, Role};
use fixstep_runtime::replay::{
    RecordedBy, ReplayHeader, ReplayRecorder, RosterChange, RosterEvent,
};
use fixstep_runtime::{Player, SeatChanges, Simulation, Tick};
use fixstep_town::PlayerCommand;
use fixstep_town_view::Town;
use renet::{RenetClient, RenetServer};
use renetcode::{
    ClientAuthentication, NetcodeClient, NetcodeServer, ServerAuthentication, ServerConfig,
    ServerResult,
};

/// The datagram target's clock and addresses (see `fuzz_targets/datagram.rs`).
const NOW: Duration = Duration::from_secs(1_700_000_000);
const KEY: [u8; 32] = [0x5e; 32];
const HOST: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 7465);
const CLIENT: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 40_000);

/// Ticks a session seed plays: enough for frames to carry deltas and acknowledgements.
const SESSION_TICKS: u32 = 24;

/// Ticks a replay seed records.
const REPLAY_TICKS: u32 = 30;

/// Ticks between a replay seed's keyframes: a few in the seed, so that seeks start from
/// several.
const REPLAY_KEYFRAME_EVERY: u32 = 10;

/// Lines of a generated trace or truth kept in a seed: a few seconds, a few kilobytes.
const TRACE_LINES: usize = 60;

fn main() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut seeds = Seeds { corpus };
    text_files(&mut seeds);
    sessions::<Town>(&mut seeds, 0);
    sessions::<Arena>(&mut seeds, 1);
    datagrams(&mut seeds);
    renet_payloads(&mut seeds);
    replays(&mut seeds);
    traces(&mut seeds);
    settings(&mut seeds);
    rendezvous(&mut seeds);
}

/// A host listed, a joiner looking its code up, and their probes, as the rendezvous target
/// reads them: each datagram after a byte that names its reader and sender (see the target).
fn rendezvous(seeds: &mut Seeds) {
    use fixstep_net::join_code::JoinCode;
    use fixstep_net::rendezvous::{Answer, Candidate, PathKind, Probe, Request};
    let code = JoinCode::from_random([1, 1, 2, 3, 4, 5]);
    let host: SocketAddr = "203.0.113.10:7465".parse().expect("an address");
    let joiner: SocketAddr = "203.0.113.20:50000".parse().expect("an address");
    let local = Candidate {
        kind: PathKind::Local,
        address: "192.168.1.2:7465".parse().expect("an address"),
    };
    // Reader (0: the rendezvous, 1: a host, 2: a joiner) and sender (0: the rendezvous, 1: a
    // host, 2: a joiner) in a head byte, with 10 ms between datagrams.
    let head = |reader: u8, sender: u8| reader | (1 << 2) | (sender << 6);
    let mut out = Vec::new();
    let list = Request::List { code: None, secret: [3; 16], candidates: vec![local] };
    datagram(&mut out, head(0, 1), &list.datagram());
    datagram(&mut out, head(1, 0), &Answer::Listed { code, observed: host }.datagram());
    let lookup = Request::Lookup { code, candidates: Vec::new() };
    datagram(&mut out, head(0, 2), &lookup.datagram());
    let found = Answer::Found {
        code,
        host: vec![Candidate { kind: PathKind::Public, address: host }, local],
        observed: joiner,
    };
    datagram(&mut out, head(2, 0), &found.datagram());
    let wanted = Answer::Wanted {
        code,
        joiner: vec![Candidate { kind: PathKind::Public, address: joiner }],
    };
    datagram(&mut out, head(1, 0), &wanted.datagram());
    let probe = Probe { answer: false, code, nonce: 1 };
    datagram(&mut out, head(1, 2), &probe.datagram());
    datagram(&mut out, head(2, 1), &probe.answered().datagram());
    datagram(&mut out, head(0, 1), &Request::Unlist { code, secret: [3; 16] }.datagram());
    datagram(&mut out, head(2, 0), &Answer::Unknown { code }.datagram());
    seeds.write("rendezvous", "list_lookup_punch", &out);
}

/// Where seeds go.
struct Seeds {
    corpus: PathBuf,
}

impl Seeds {
    fn write(&mut self, target: &str, name: &str, bytes: &[u8]) {
        let dir = self.corpus.join(target);
        fs::create_dir_all(&dir).expect("the corpus folder can be made");
        fs::write(dir.join(name), bytes).expect("a seed can be written");
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Levels, rinks, scripts and secrets as they are kept or written.
fn text_files(seeds: &mut Seeds) {
    let root = repo();
    for level in
        ["assets/levels/town.ron", "tests/levels/open_ground.ron", "tests/levels/two_lanes.ron"]
    {
        let name = Path::new(level).file_name().and_then(|n| n.to_str()).unwrap_or("level");
        seeds.write("level", name, &read(&root.join(level)));
    }
    seeds.write(
        "level",
        "small_level.ron",
        &read(&root.join("game/town/tests/fixtures/small_level.ron")),
    );
    seeds.write("rink", "arena.ron", &read(&root.join("assets/arena/arena.ron")));
    // The scripts of the CLI's tests, each for its game and kind (the first byte).
    let scripts: [(&str, u8, &str); 5] = [
        (
            "town_commands",
            0,
            "# a walk\n0 1 100 0 0\n40 1 100 0 2048 run\n41 1 100 0 0 run interact\n",
        ),
        ("town_input", 1, "0 0 100 0 0\n350 0 100 -50 -1024 run\n900 0 0 0 0 interact\n"),
        ("arena_commands", 2, "0 2 100 0\n10 2 0 -100 dash\n12 0 -30 45\n"),
        ("arena_input", 3, "0 0 100 0\n250 0 0 -100 dash\n"),
        ("comments", 0, "# nothing but a comment\n\n   \n0 0 0 0 0 # idle\n"),
    ];
    for (name, kind, text) in scripts {
        seeds.write("script", name, &[&[kind], text.as_bytes()].concat());
    }
    seeds.write("secrets", "rejoin", b"\x00a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5\n");
    seeds.write("secrets", "password", b"\x01correct horse battery staple\n");
    seeds.write("secrets", "password_crlf", b"\x01pass word\r\nsecond line\r\n");
}

/// Messages of sessions played in memory, for the wire, host and peer targets: a player who
/// joins and plays, a player and a spectator, a player who desyncs.
fn sessions<D: GameData>(seeds: &mut Seeds, game: u8) {
    let scenarios: [(&str, &[Role], Option<u32>); 3] = [
        ("player", &[Role::Player], None),
        ("player_spectator", &[Role::Player, Role::Spectator], None),
        ("desync", &[Role::Player], Some(5)),
    ];
    let mut messages = Vec::new();
    for (name, roles, wrong_hash_at) in scenarios {
        let mut host = HostDriver::<D>::default();
        let mut host_ops = vec![game];
        let mut peers: Vec<(PeerDriver<D>, Vec<u8>)> = roles
            .iter()
            .enumerate()
            .map(|(i, &role)| {
                let mut driver = PeerDriver::<D>::new(role, &format!("peer{i}"));
                driver.wrong_hash_at = wrong_hash_at.map(Tick);
                let role_bit = if role == Role::Spectator { 2 } else { 0 };
                (driver, vec![game | role_bit])
            })
            .collect();
        let host_do = |host: &mut HostDriver<D>, ops: &mut Vec<u8>, op: HostOp<'_>| {
            op.write(ops);
            host.apply(&op);
        };
        for (i, _) in peers.iter().enumerate() {
            host_do(&mut host, &mut host_ops, HostOp::Connect(i as u8 + 1));
        }
        for _ in 0..SESSION_TICKS {
            for (i, (peer, ops)) in peers.iter_mut().enumerate() {
                for op in [PeerOp::Input, PeerOp::SendFrame] {
                    op.write(ops);
                    peer.apply(&op);
                }
                for (delivery, bytes) in peer.outgoing() {
                    messages.push((game << 2 | delivery_byte(delivery), bytes.clone()));
                    let op = HostOp::Receive { peer: i as u8 + 1, delivery, bytes: &bytes };
                    host_do(&mut host, &mut host_ops, op);
                }
            }
            host_do(&mut host, &mut host_ops, HostOp::FixTick);
            for (to, delivery, bytes) in host.outgoing() {
                messages.push((game << 2 | 2 | delivery_byte(delivery), bytes.clone()));
                let Some((peer, ops)) = peers
                    .iter_mut()
                    .enumerate()
                    .find(|(i, _)| peer_id(*i as u8 + 1) == to)
                    .map(|(_, p)| p)
                else {
                    continue;
                };
                let op = PeerOp::Receive { delivery, bytes: &bytes };
                op.write(ops);
                peer.apply(&op);
            }
            host_do(&mut host, &mut host_ops, HostOp::Wait(100));
            for (peer, ops) in &mut peers {
                let op = PeerOp::Wait(100);
                op.write(ops);
                peer.apply(&op);
            }
        }
        host_do(&mut host, &mut host_ops, HostOp::EndMatch);
        let game_name = if game == 0 { "town" } else { "arena" };
        seeds.write("host_session", &format!("{game_name}_{name}"), &host_ops);
        for (i, (_, ops)) in peers.iter().enumerate() {
            seeds.write("peer_session", &format!("{game_name}_{name}_{i}"), ops);
        }
    }
    messages.sort();
    messages.dedup();
    for (i, (choice, bytes)) in messages.iter().enumerate() {
        let game_name = if game == 0 { "town" } else { "arena" };
        seeds.write("wire", &format!("{game_name}_{i:03}"), &[&[*choice][..], bytes].concat());
    }
}

/// A datagram seed's entry: the byte that says which end reads it (no time passing, from the
/// first port), and the datagram.
fn datagram(out: &mut Vec<u8>, end: u8, bytes: &[u8]) {
    out.push(end);
    push_chunk(out, bytes);
}

/// netcode's handshake and a payload each way, with an open host and a password host, as
/// their datagrams cross; LAN queries and answers, and a host's refusal.
fn datagrams(seeds: &mut Seeds) {
    for (name, end, key, authentication) in [
        ("open", 0, SessionKey::OPEN, ServerAuthentication::Unsecure),
        (
            "password",
            1,
            SessionKey::from_bytes(KEY),
            ServerAuthentication::Secure { private_key: KEY },
        ),
    ] {
        let mut server = NetcodeServer::new(ServerConfig {
            current_time: NOW,
            max_clients: 4,
            protocol_id: NETCODE_PROTOCOL_ID,
            public_addresses: vec![HOST],
            authentication,
        });
        let token = key.mint(HOST, NOW).expect("a token");
        let mut client =
            NetcodeClient::new(NOW, ClientAuthentication::Secure { connect_token: token })
                .expect("a client");
        let mut out = Vec::new();
        for _ in 0..8 {
            if let Some((packet, _)) = client.update(Duration::from_millis(0)) {
                let mut packet = packet.to_vec();
                datagram(&mut out, end, &packet);
                let reply = match server.process_packet(CLIENT, &mut packet) {
                    ServerResult::PacketToSend { payload, .. } => Some(payload.to_vec()),
                    ServerResult::ClientConnected { payload, .. } => Some(payload.to_vec()),
                    _ => None,
                };
                if let Some(mut reply) = reply {
                    datagram(&mut out, 2, &reply);
                    let _ = client.process_packet(&mut reply);
                }
            }
            client.update(Duration::from_millis(300));
            server.update(Duration::from_millis(300));
        }
        if let Ok((_, payload)) = client.generate_payload_packet(b"a renet packet") {
            datagram(&mut out, end, payload);
        }
        if let Some(id) = server.clients_id().first()
            && let Ok((_, payload)) = server.generate_payload_packet(*id, b"a renet packet")
        {
            datagram(&mut out, 2, payload);
        }
        seeds.write("datagram", &format!("handshake_{name}"), &out);
    }
    let mut lan = Vec::new();
    datagram(&mut lan, 0, &query());
    let answer = LanAnswer {
        game: "town".to_owned(),
        title: "The town".to_owned(),
        players: 2,
        max_players: 8,
        sealed: true,
    };
    datagram(&mut lan, 2, &answer.datagram());
    datagram(&mut lan, 2, &Refusal::Key.datagram());
    datagram(&mut lan, 2, &Refusal::Expired.datagram());
    seeds.write("datagram", "lan_and_refusals", &lan);
}

/// renet's packets between a host and a peer in memory: small reliable messages, a message
/// long enough to be sliced, unreliable ones, and the acknowledgements.
fn renet_payloads(seeds: &mut Seeds) {
    const PEER: u64 = 7;
    let config = connection_config();
    let mut host = RenetServer::new(config.clone());
    host.add_connection(PEER);
    let mut peer = RenetClient::new(config);
    peer.set_connected();
    let mut out = Vec::new();
    // One millisecond passes after each (the byte's upper bits), as the host reads often.
    let step = |out: &mut Vec<u8>, end: u8, bytes: &[u8]| {
        out.push(1 << 1 | end);
        push_chunk(out, bytes);
    };
    for round in 0..4u8 {
        peer.send_message(0, vec![round; 40]);
        peer.send_message(1, vec![round; 20]);
        host.send_message(PEER, 0, vec![round; 60]);
        host.send_message(PEER, 1, vec![round; 30]);
        if round == 1 {
            // Three slices, as a state is sent.
            host.send_message(PEER, 0, vec![0xa5; 3_000]);
            peer.send_message(0, vec![0x5a; 2_500]);
        }
        for packet in peer.get_packets_to_send() {
            step(&mut out, 0, &packet);
            let _ = host.process_packet_from(&packet, PEER);
        }
        for packet in host.get_packets_to_send(PEER).unwrap_or_default() {
            step(&mut out, 1, &packet);
            peer.process_packet(&packet);
        }
        host.update(Duration::from_millis(1));
        peer.update(Duration::from_millis(1));
        for channel in [0, 1] {
            while host.receive_message(PEER, channel).is_some() {}
            while peer.receive_message(channel).is_some() {}
        }
    }
    seeds.write("renet_payload", "traffic", &out);
}

/// A replay of game `G` as a host records a match: the content's files, two players, a third
/// joining at tick 10, the first going at tick 15 and its seat freed at 20 and taken by a
/// newcomer at 25, who they are, every tick's hash, and a keyframe every
/// [`REPLAY_KEYFRAME_EVERY`] ticks. With it, the state it ends at, as a keyframe holds it
/// inflated (postcard bytes).
fn replay<G: Game>(command: impl Fn(u32, usize) -> CommandOf<G>) -> (Vec<u8>, Vec<u8>) {
    let assets = assets();
    let file = G::default_content(&assets);
    let content = Arc::new(G::load_content(&assets, &file).expect("the content loads"));
    let seed = 7;
    let mut sim = G::new_sim(&content, seed, 2);
    let header =
        ReplayHeader::of(&sim, G::content_title(&content), Some(seed), RecordedBy::Host, 0);
    let mut recorder = ReplayRecorder::start(
        Vec::new(),
        &header,
        G::content_files(&content),
        &sim,
        REPLAY_KEYFRAME_EVERY,
    )
    .expect("a replay");
    let joined = |name: &str| RosterChange::Joined { name: name.to_owned() };
    let roster = [
        (0, Player(0), joined("peer0")),
        (0, Player(1), joined("peer1")),
        (10, Player(2), joined("peer2")),
        (15, Player::FIRST, RosterChange::Left),
        (20, Player::FIRST, RosterChange::Freed),
        (25, Player::FIRST, joined("peer3")),
    ];
    for tick in 0..REPLAY_TICKS {
        for (_, player, change) in roster.iter().filter(|(t, ..)| *t == tick) {
            let event = RosterEvent { tick: Tick(tick), player: *player, change: change.clone() };
            recorder.roster(&event).expect("recorded");
        }
        let seats = match tick {
            10 => SeatChanges::arrivals(2, 1),
            20 => SeatChanges { freed: vec![Player::FIRST], joined: vec![] },
            25 => SeatChanges { freed: vec![], joined: vec![Player::FIRST] },
            _ => SeatChanges::NONE,
        };
        seats.apply(&mut sim).expect("a third player joins, the first leaves, a newcomer comes");
        let commands: Vec<_> = (0..sim.players()).map(|p| command(tick, p)).collect();
        sim.step(Tick(tick), &commands).expect("the tick runs");
        let record = TickRecord { tick: Tick(tick), seats, commands };
        recorder.tick(&record, sim.state_hash().total(), &sim).expect("recorded");
    }
    let state = postcard::to_stdvec(sim.state()).expect("a state encodes");
    (recorder.finish().expect("written to memory"), state)
}

fn replays(seeds: &mut Seeds) {
    let (town, town_state) = replay::<Town>(|tick, player| PlayerCommand {
        forward: if player == 0 { 100 } else { -40 },
        strafe: 0,
        turn: if tick % 7 == 0 { 2_048 } else { 0 },
        run: tick > 15,
        interact: tick == 20,
    });
    // Bit 1: checksums written anew, so that mutations of the payloads are read.
    seeds.write("replay", "town", &[&[2], &town[..]].concat());
    let (arena, arena_state) = replay::<Arena>(|tick, player| ArenaCommand {
        x: if player % 2 == 0 { 100 } else { -60 },
        y: if tick % 5 == 0 { 30 } else { 0 },
        dash: tick % 9 == 0,
    });
    seeds.write("replay", "arena", &[&[3], &arena[..]].concat());
    // Bit 2: a keyframe's state alone, checked, restored and run.
    seeds.write("replay", "town-state", &[&[4], &town_state[..]].concat());
    seeds.write("replay", "arena-state", &[&[5], &arena_state[..]].concat());
}

/// The first `lines` lines of `bytes`.
fn head(bytes: &[u8], lines: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n').take(lines) {
        out.extend_from_slice(line);
    }
    out
}

/// Generated traces and their truth, the drawn logs `fixstep trace` makes of them, and the
/// start of the example traces the repository keeps.
fn traces(seeds: &mut Seeds) {
    for name in ["town-steady-60", "town-jitter-144"] {
        let trace = read(&repo().join("tests/traces").join(name).join("trace.jsonl"));
        seeds.write("trace", name, &head(&trace, TRACE_LINES));
    }
    for scenario in fixstep_tools::tracegen::scenarios().into_iter().take(4) {
        let generated = fixstep_tools::tracegen::generate(&scenario);
        let mut trace = Vec::new();
        generated.write_trace(&mut trace).expect("written to memory");
        let trace = head(&trace, TRACE_LINES);
        let mut truth = Vec::new();
        generated.write_truth(&mut truth).expect("written to memory");
        let truth = head(&truth, TRACE_LINES);
        let mut drawn = Vec::new();
        fixstep_tools::trace::run_trace(&trace[..], &mut drawn).expect("a generated trace runs");
        seeds.write("trace", scenario.name, &trace);
        let mut logs = Vec::new();
        for part in [&drawn, &truth, &trace] {
            push_chunk(&mut logs, part);
        }
        seeds.write("judder_logs", scenario.name, &logs);
    }
}

/// The settings file as the first start writes it, and one a player changed.
fn settings(seeds: &mut Seeds) {
    let defaults = Settings::default();
    seeds.write(
        "settings",
        "defaults.ron",
        defaults.to_ron().expect("the defaults save").as_bytes(),
    );
    let changed = "(version: 1, window: (mode: Borderless, width: 1920, height: 1080, vsync: false), \
                   view: (fov_degrees: 75.5, mouse_sensitivity: 2.25, invert_mouse: true), \
                   keys: { Interact: [KeyG], Forward: [KeyI, ArrowUp] }, \
                   volume: (master: 0, effects: 55, ambience: 100), hud: false, \
                   remembered: (name: \"ada\", address: \"10.0.0.7:7465\"))\n";
    seeds.write("settings", "changed.ron", changed.as_bytes());
}
