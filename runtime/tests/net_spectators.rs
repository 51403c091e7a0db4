//! A spectator's side of the protocol, with a game whose spectator data is its own: the view a
//! spectator reports reaches the host (the latest one), the updates the host sends arrive in
//! order as events, a spectator says its view again in its hello to the next host, a player
//! may not report a view, and spectators beyond the host's limit are refused.

use crate::common;

use common::DriftCommand;
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, Dropped, GameData, Goodbye, HostConfig, HostEvent, HostSession,
    Identity, PROTOCOL_VERSION, PeerConfig, PeerEvent, PeerId, PeerSession, RejoinSecret, Role,
};
use fixstep_runtime::{ContentDigest, Tick, TickRecord};

/// A game whose spectators say which grid cell they look at and are sent words.
struct Watched;

impl GameData for Watched {
    type Command = DriftCommand;
    type SpectatorUpdate = Vec<String>;
    type SpectatorView = (i32, i32);
}

fn identity() -> Identity {
    Identity { protocol: PROTOCOL_VERSION, sim_version: 1, level: ContentDigest(3) }
}

/// A host of four players and eight spectators.
fn host_config() -> HostConfig {
    HostConfig {
        identity: identity(),
        max_players: 4,
        max_spectators: 8,
        local_players: 0,
        seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
    }
}

/// Hands everything each side has to send to the other, once.
fn exchange(host: &mut HostSession<Watched>, peer: &mut PeerSession<Watched>, id: PeerId) {
    for (delivery, bytes) in peer.drain_outgoing() {
        host.receive(id, delivery, &bytes, 0);
    }
    for (to, delivery, bytes) in host.drain_outgoing() {
        if to == id {
            peer.receive(delivery, &bytes);
        }
    }
}

/// A host and a peer of `role` that said hello and was welcomed (with an empty state), and
/// the host's events of the join.
fn joined(role: Role, id: PeerId) -> (HostSession<Watched>, PeerSession<Watched>, Vec<HostEvent>) {
    let config = host_config();
    let mut host = HostSession::new(config, Tick::ZERO);
    let mut peer = PeerSession::new(PeerConfig {
        identity: identity(),
        name: "eve".into(),
        role,
        rejoin: None,
    });
    host.connect(id, 0);
    peer.connect();
    exchange(&mut host, &mut peer, id);
    let mut events: Vec<HostEvent> = host.drain_events().collect();
    if events.iter().any(|e| matches!(e, HostEvent::StateWanted { .. })) {
        host.welcome(id, &[], 0, RejoinSecret([0; 16]));
        events.extend(host.drain_events());
    }
    exchange(&mut host, &mut peer, id);
    (host, peer, events)
}

#[test]
fn a_spectators_view_reaches_the_host_and_its_updates_arrive_in_order() {
    let id = PeerId(9);
    let (mut host, mut peer, events) = joined(Role::Spectator, id);
    assert!(events.iter().any(|e| matches!(e, HostEvent::SpectatorJoined { .. })), "{events:?}");
    assert_eq!(host.spectator_view(id), None, "nothing said yet");
    peer.report_view((3, -4));
    peer.report_view((5, 6));
    exchange(&mut host, &mut peer, id);
    assert_eq!(host.spectator_view(id), Some(&(5, 6)), "the latest view");
    host.send_update(id, vec!["one".into()]);
    host.send_update(id, vec!["two".into(), "three".into()]);
    exchange(&mut host, &mut peer, id);
    let updates: Vec<Vec<String>> = peer
        .drain_events()
        .filter_map(|e| match e {
            PeerEvent::Update(u) => Some(u),
            _ => None,
        })
        .collect();
    assert_eq!(updates, [vec!["one".to_owned()], vec!["two".to_owned(), "three".to_owned()]]);
}

#[test]
fn a_spectator_says_its_view_in_its_hello_to_the_next_host() {
    let id = PeerId(9);
    let (_, mut peer, _) = joined(Role::Spectator, id);
    peer.report_view((7, -2));
    let _ = peer.drain_outgoing().count();
    // The host went; the spectator says hello to another, which knows at once what it looks
    // at, before any frame: its first updates are cut for it.
    let mut next = HostSession::<Watched>::new(host_config(), Tick::ZERO);
    let other = PeerId(4);
    next.connect(other, 0);
    peer.connect();
    for (delivery, bytes) in peer.drain_outgoing() {
        next.receive(other, delivery, &bytes, 0);
    }
    assert_eq!(next.spectator_view(other), Some(&(7, -2)));
}

#[test]
fn a_player_may_not_report_a_view() {
    let id = PeerId(2);
    let (mut host, mut peer, events) = joined(Role::Player, id);
    assert!(events.iter().any(|e| matches!(e, HostEvent::PlayerJoined { .. })), "{events:?}");
    peer.report_view((1, 1));
    exchange(&mut host, &mut peer, id);
    assert!(
        host.drain_events()
            .any(|e| matches!(e, HostEvent::Dropped { why: Dropped::OutOfPlace, .. })),
        "a player's view is out of place"
    );
    assert_eq!(host.spectator_view(id), None);
}

/// A host that takes one spectator refuses the second, saying why, and still takes players.
#[test]
fn a_spectator_past_the_hosts_limit_is_refused_with_that_reason() {
    let config = HostConfig {
        identity: identity(),
        max_players: 4,
        max_spectators: 1,
        local_players: 0,
        seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
    };
    let mut host = HostSession::<Watched>::new(config, Tick::ZERO);
    let mut goodbyes = Vec::new();
    for (id, role) in [(1, Role::Spectator), (2, Role::Spectator), (3, Role::Player)] {
        let id = PeerId(id);
        let name = format!("peer{}", id.0);
        let mut peer =
            PeerSession::new(PeerConfig { identity: identity(), name, role, rejoin: None });
        host.connect(id, 0);
        peer.connect();
        exchange(&mut host, &mut peer, id);
        let wanted: Vec<HostEvent> = host.drain_events().collect();
        if wanted.iter().any(|e| matches!(e, HostEvent::StateWanted { .. })) {
            host.welcome(id, &[], 0, RejoinSecret([0; 16]));
        }
        exchange(&mut host, &mut peer, id);
        goodbyes.push(peer.goodbye().cloned());
    }
    assert_eq!(
        goodbyes,
        [None, Some(Goodbye::NoRoomToWatch { spectators: 1, max: 1 }), None],
        "the first spectator and the player are in, the second spectator is told why not"
    );
    assert_eq!(host.spectators().count(), 1);
    assert_eq!(host.players(), 1);
}

/// A recorder is welcomed with the state and tick the host gives it (the delayed match's, on
/// a host that holds spectators back) and sent every tick it is given, in order, as events; a
/// spectator gets neither the state nor the ticks, and a player is never welcomed as a
/// recorder.
#[test]
fn a_recorder_gets_the_state_it_watches_from_and_every_tick() {
    let (id, other) = (PeerId(4), PeerId(5));
    let config = host_config();
    let mut host = HostSession::<Watched>::new(config, Tick(40));
    let peer_of = |role, name: &str| {
        let mut peer = PeerSession::<Watched>::new(PeerConfig {
            identity: identity(),
            name: name.into(),
            role,
            rejoin: None,
        });
        peer.connect();
        peer
    };
    let (mut recorder, mut player) = (peer_of(Role::Recorder, "rec"), peer_of(Role::Player, "pat"));
    host.connect(id, 0);
    host.connect(other, 0);
    exchange(&mut host, &mut recorder, id);
    exchange(&mut host, &mut player, other);
    assert!(host.recorder_waiting(id));
    assert!(!host.recorder_waiting(other), "a player is not a recorder");
    host.welcome_recorder(other, Tick(30), b"old", 1);
    host.welcome_recorder(id, Tick(30), b"the state at 30", 77);
    exchange(&mut host, &mut recorder, id);
    exchange(&mut host, &mut player, other);
    assert!(!player.is_welcomed(), "welcome_recorder does not let a player in");
    assert_eq!(host.recorders().collect::<Vec<_>>(), [id]);
    assert_eq!(host.spectators().collect::<Vec<_>>(), [id], "a recorder counts as a spectator");
    let events: Vec<_> = recorder.drain_events().collect();
    let welcome = events.iter().find_map(|e| match e {
        PeerEvent::Welcomed(w) => Some(w.clone()),
        _ => None,
    });
    let welcome = welcome.expect("welcomed");
    assert_eq!(
        (welcome.tick, welcome.state.as_slice(), welcome.hash),
        (Tick(30), &b"the state at 30"[..], 77)
    );
    assert_eq!(welcome.player, None, "no seat");
    for t in 30..33 {
        host.send_watched_tick(id, &TickRecord::new(Tick(t), vec![DriftCommand::default(); 2]));
        // A player is sent no watched tick.
        host.send_watched_tick(other, &TickRecord::new(Tick(t), Vec::new()));
    }
    exchange(&mut host, &mut recorder, id);
    let ticks: Vec<Tick> = recorder
        .drain_events()
        .filter_map(|e| match e {
            PeerEvent::Tick(record) => Some(record.tick),
            _ => None,
        })
        .collect();
    assert_eq!(ticks, [Tick(30), Tick(31), Tick(32)]);

    // A plain spectator's welcome carries no state, whatever the host passed.
    let (_, mut spectator, _) = joined(Role::Spectator, PeerId(6));
    let events: Vec<_> = spectator.drain_events().collect();
    assert!(events.iter().any(|e| matches!(e, PeerEvent::Welcomed(w) if w.state.is_empty())));
}
