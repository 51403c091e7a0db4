//! A host holds its spectators back by its spectator delay: nothing it sends them is newer
//! than the match the delay ago, whenever they joined, and a spectator that records the match
//! keeps it from the delayed tick, hash for hash as the host ran it. Played in memory, the
//! host's game and a spectator's session handing each other bytes.

use std::sync::Arc;

use fixstep_arena::ArenaCommand;
use fixstep_arena_view::Arena;
use fixstep_netplay::WatchedMatch;
use fixstep_netplay::{Access, HostGame, HostOptions, identity_of};
use fixstep_netplay_view::ground::GroundPoint;
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, PeerConfig, PeerEvent, PeerEventOf, PeerId, PeerSession, Role,
};
use fixstep_runtime::replay::{CutRecord, LoadedReplay, RecordedBy, RosterChange};
use fixstep_runtime::{Rules, Simulation, Tick};

/// The delay under test, ticks: five seconds.
const DELAY_TICKS: u32 = 50;

/// Ticks the host runs before the late spectator comes.
const LATE_JOIN_TICK: u64 = 120;

/// Ticks the test runs.
const TICKS: u64 = 200;

fn host(delay_ticks: u32) -> (HostGame<Arena>, Arc<<Arena as Rules>::Content>) {
    let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
    let rink = Arena::load_content(assets, &Arena::default_content(assets)).expect("it loads");
    let rink = Arc::new(rink);
    let options = HostOptions {
        bind: ([127, 0, 0, 1], 0).into(),
        also_reachable_at: Vec::new(),
        max_players: 2,
        max_spectators: 8,
        seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
        own_player: true,
        seed: 7,
        name: "host".to_owned(),
        reports: std::env::temp_dir(),
        access: Access::Open,
        record: None,
        spectator_delay_ticks: delay_ticks,
        migration: true,
        rendezvous: None,
        port_mapping: false,
        stun: Vec::new(),
        turn: None,
    };
    (HostGame::<Arena>::new(&rink, &options), rink)
}

/// What the spectators were sent.
#[derive(Default)]
struct Watched {
    /// The tick of every update each spectator was sent, with the host's next tick then.
    updates: Vec<(PeerId, Tick, Tick)>,
    /// Every other event each spectator had, with the host's next tick then.
    events: Vec<(PeerId, PeerEventOf<Arena>, Tick)>,
    /// The host's state hash total after each tick, by tick.
    host_hashes: Vec<u64>,
    rink: Option<Arc<<Arena as Rules>::Content>>,
}

/// What the spectators were sent: one spectator from the start, one as `late` from
/// [`LATE_JOIN_TICK`].
fn watched(delay_ticks: u32) -> Vec<(PeerId, Tick, Tick)> {
    watch(delay_ticks, Role::Spectator).updates
}

fn watch(delay_ticks: u32, late: Role) -> Watched {
    let (mut host, rink) = host(delay_ticks);
    let spectator = |role| {
        let mut session = PeerSession::<Arena>::new(PeerConfig {
            identity: identity_of::<Arena>(&rink),
            name: "watcher".to_owned(),
            role,
            rejoin: None,
        });
        session.connect();
        session
    };
    let mut spectators = vec![(PeerId(1), spectator(Role::Spectator))];
    host.session_mut().connect(PeerId(1), 0);
    let mut seen = Watched::default();
    for tick in 1..=TICKS {
        let now = tick * 100_000;
        if tick == LATE_JOIN_TICK {
            spectators.push((PeerId(2), spectator(late)));
            host.session_mut().connect(PeerId(2), now);
        }
        for (id, session) in &mut spectators {
            // As a spectator does every tick: say what it looks at, which keeps it alive.
            if session.is_welcomed() {
                session.report_view(GroundPoint::default());
            }
            for (delivery, bytes) in session.drain_outgoing() {
                host.session_mut().receive(*id, delivery, &bytes, now);
            }
        }
        host.after_receive(now).expect("no report to write");
        // The host's player turns now and then, so the commands change.
        let x = if tick % 20 < 10 { 100 } else { -60 };
        host.run_tick(Some(ArenaCommand { x, y: 0, dash: tick % 7 == 0 })).expect("it runs");
        seen.host_hashes.push(host.sim().state_hash().total());
        let host_tick = host.sim().next_tick();
        for (to, delivery, bytes) in host.session_mut().drain_outgoing() {
            if let Some((_, session)) = spectators.iter_mut().find(|(id, _)| *id == to) {
                session.receive(delivery, &bytes);
            }
        }
        for (id, session) in &mut spectators {
            for event in session.drain_events() {
                match event {
                    PeerEvent::Update(update) => {
                        seen.updates.push((*id, update.ground.tick, host_tick));
                    }
                    other => seen.events.push((*id, other, host_tick)),
                }
            }
        }
    }
    seen.rink = Some(rink);
    seen
}

#[test]
fn spectators_are_sent_nothing_newer_than_the_delay_whenever_they_join() {
    let seen = watched(DELAY_TICKS);
    for peer in [PeerId(1), PeerId(2)] {
        let theirs: Vec<_> = seen.iter().filter(|(id, ..)| *id == peer).collect();
        assert!(theirs.len() > 50, "{peer:?} watched: {} updates", theirs.len());
        for (_, drawn, host) in &theirs {
            assert!(
                drawn.0 + DELAY_TICKS <= host.0,
                "{peer:?} was sent tick {drawn} when the host was at {host}"
            );
        }
        // The delay, not more: each update is the match exactly the delay ago.
        let (_, drawn, host) = theirs.last().expect("updates");
        assert_eq!(drawn.0 + DELAY_TICKS, host.0, "{peer:?}");
    }
    // The late spectator starts at the delayed tick, not before and not live.
    let first_late = seen.iter().find(|(id, ..)| *id == PeerId(2)).expect("the late one watched");
    let at_join = u32::try_from(LATE_JOIN_TICK).expect("small");
    assert!(first_late.1.0 + DELAY_TICKS >= at_join, "{first_late:?}");
    assert!(first_late.1.0 + DELAY_TICKS <= at_join + 5, "{first_late:?}");
}

/// Without a delay, a spectator is sent the tick the host just ran: the delay above is the
/// host's doing.
#[test]
fn without_a_delay_spectators_watch_the_match_as_it_is() {
    let seen = watched(0);
    let (_, drawn, host) = seen.last().expect("updates");
    assert_eq!(drawn, host);
}

/// A recorder that comes late to a delayed match is welcomed with the state at the delayed
/// tick and sent every tick from it, none newer than the delay allows; what it records is a
/// replay that opens on its own, verifies, names the players, and hashes after every tick as
/// the host's game did.
#[test]
fn a_recorder_keeps_the_delayed_match_hash_for_hash() {
    let seen = watch(DELAY_TICKS, Role::Recorder);
    let rink = seen.rink.clone().expect("the rink");
    let mut recorder = seen.events.iter().filter(|(id, ..)| *id == PeerId(2));
    let Some((_, PeerEvent::Welcomed(welcome), host_tick)) = recorder.next() else {
        panic!("the recorder is welcomed first");
    };
    assert!(!welcome.state.is_empty(), "a recorder's welcome brings the state");
    // The welcome went out before the host ran the tick after which it is seen here.
    let host_then = host_tick.0 - 1;
    assert_eq!(welcome.tick.0 + DELAY_TICKS, host_then, "the delayed tick, not the live one");
    let dir = std::env::temp_dir().join(format!("fixstep-recorder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join("watched.fxr");
    let mut watched = WatchedMatch::<Arena>::start(&rink, welcome, &path)
        .expect("it restores")
        .expect("it records");
    let mut ran = Vec::new();
    for (_, event, host_tick) in recorder {
        match event {
            PeerEvent::Tick(record) => {
                assert!(
                    record.tick.0 + DELAY_TICKS < host_tick.0,
                    "tick {} sent at {host_tick}",
                    record.tick
                );
                watched.tick(record).expect("it runs");
                let hash = watched.sim().state_hash().total();
                assert_eq!(hash, seen.host_hashes[record.tick.0 as usize], "tick {}", record.tick);
                ran.push(record.tick);
            }
            PeerEvent::Roster(names) => watched.roster(names),
            _ => {}
        }
    }
    let first = welcome.tick;
    let expected: Vec<Tick> =
        (first.0..first.0 + u32::try_from(ran.len()).expect("small")).map(Tick).collect();
    assert_eq!(ran, expected, "every tick from the welcome's, in order");
    assert!(ran.len() >= 20, "it watched {} ticks", ran.len());
    drop(watched);

    let loaded = LoadedReplay::<Arena>::load(&path, CutRecord::Refused).expect("a replay");
    assert_eq!(loaded.replay.header().recorded_by, RecordedBy::Spectator);
    assert_eq!(loaded.replay.first_tick(), first);
    let mut sim = loaded.start_sim().expect("its seats");
    let end = loaded.replay.end_tick();
    assert_eq!(end, Tick(first.0 + u32::try_from(ran.len()).expect("small")));
    loaded.replay.seek(&mut sim, end).expect("it plays to its end");
    assert_eq!(
        sim.state_hash().total(),
        seen.host_hashes[end.0 as usize - 1],
        "as the host ran it"
    );
    let roster = loaded.replay.roster().expect("a roster");
    assert!(
        roster.iter().any(|e| e.change == RosterChange::Joined { name: "host".to_owned() }),
        "the host's player by name: {roster:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A roster's names as they change are recorded as the seats' joins and frees, at the tick
/// the recording has reached: what a player's or a spectator's replay knows of who played.
#[test]
fn roster_names_are_recorded_as_joins_and_frees() {
    let (host, rink) = host(0);
    let dir = std::env::temp_dir().join(format!("fixstep-roster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join("names.fxr");
    let mut recording = fixstep_netplay::Recording::<Arena>::create(
        &path,
        &rink,
        host.sim(),
        None,
        RecordedBy::Spectator,
    )
    .expect("records");
    let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let tick = host.sim().next_tick();
    recording.roster_names(tick, &[], &names(&["ada", "bob"])).expect("writes");
    recording.roster_names(tick, &names(&["ada", "bob"]), &names(&["ada", ""])).expect("writes");
    recording.roster_names(tick, &names(&["ada", ""]), &names(&["eve", "", "cy"])).expect("writes");
    drop(recording);
    let loaded = LoadedReplay::<Arena>::load(&path, CutRecord::Refused).expect("a replay");
    let changes: Vec<(u16, RosterChange)> = loaded
        .replay
        .roster()
        .expect("a roster")
        .into_iter()
        .map(|e| (e.player.0, e.change))
        .collect();
    let joined = |name: &str| RosterChange::Joined { name: name.to_owned() };
    assert_eq!(
        changes,
        [
            (0, joined("ada")),
            (1, joined("bob")),
            (1, RosterChange::Freed),
            (0, RosterChange::Freed),
            (0, joined("eve")),
            (2, joined("cy")),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
