//! A host holds its spectators back by its spectator delay: nothing it sends them is newer
//! than the match the delay ago, whenever they joined. Played in memory, the host's game and
//! a spectator's session handing each other bytes.

use std::sync::Arc;

use fixstep_arena::ArenaCommand;
use fixstep_arena_view::Arena;
use fixstep_netplay::{Access, HostGame, HostOptions, identity_of};
use fixstep_netplay_view::ground::GroundPoint;
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, PeerConfig, PeerEvent, PeerId, PeerSession, Role,
};
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
    };
    (HostGame::<Arena>::new(&rink, &options), rink)
}

/// The tick of every update each spectator was sent, with the host's next tick when it was
/// sent: one spectator from the start, one from [`LATE_JOIN_TICK`].
fn watched(delay_ticks: u32) -> Vec<(PeerId, Tick, Tick)> {
    let (mut host, rink) = host(delay_ticks);
    let spectator = || {
        let mut session = PeerSession::<Arena>::new(PeerConfig {
            identity: identity_of::<Arena>(&rink),
            name: "watcher".to_owned(),
            role: Role::Spectator,
            rejoin: None,
        });
        session.connect();
        session
    };
    let mut spectators = vec![(PeerId(1), spectator())];
    host.session_mut().connect(PeerId(1), 0);
    let mut seen = Vec::new();
    for tick in 1..=TICKS {
        let now = tick * 100_000;
        if tick == LATE_JOIN_TICK {
            spectators.push((PeerId(2), spectator()));
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
        host.run_tick(Some(ArenaCommand { x: 100, y: 0, dash: false })).expect("it runs");
        let host_tick = host.sim().next_tick();
        for (to, delivery, bytes) in host.session_mut().drain_outgoing() {
            if let Some((_, session)) = spectators.iter_mut().find(|(id, _)| *id == to) {
                session.receive(delivery, &bytes);
            }
        }
        for (id, session) in &mut spectators {
            for event in session.drain_events() {
                if let PeerEvent::Update(update) = event {
                    seen.push((*id, update.ground.tick, host_tick));
                }
            }
        }
    }
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
