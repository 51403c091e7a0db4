//! Who hosts next, as every peer learns it in advance: the players that offered to host,
//! longest-connected first, told to every player and spectator whenever it changes, and to
//! each newcomer; offers from spectators or of too many addresses refused. And when a player
//! takes its host for gone: after a second of silence, never on a lossy link.

use std::net::SocketAddr;

use crate::common::DriftCommand;
use fixstep_runtime::net::{
    DEFAULT_SEAT_GRACE_MICROS, Delivery, Dropped, GameData, Goodbye, HOST_SILENCE_MICROS,
    HostConfig, HostEvent, HostSession, Identity, MAX_HOST_ADDRESSES, PROTOCOL_VERSION, PeerConfig,
    PeerEvent, PeerId, PeerSession, RejoinSecret, Role, SharedListing, Successor, ToHost,
};
use fixstep_runtime::{ContentDigest, Player, Tick};

/// A game whose spectators are sent nothing.
struct Plain;

impl GameData for Plain {
    type Command = DriftCommand;
    type SpectatorUpdate = ();
    type SpectatorView = ();
}

fn identity() -> Identity {
    Identity { protocol: PROTOCOL_VERSION, sim_version: 1, level: ContentDigest(5) }
}

/// A host and its peers, handing each other everything at once.
struct Table {
    host: HostSession<Plain>,
    peers: Vec<(PeerId, PeerSession<Plain>)>,
}

impl Table {
    fn new() -> Self {
        let config = HostConfig {
            identity: identity(),
            max_players: 8,
            max_spectators: 4,
            local_players: 1,
            seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
        };
        Self { host: HostSession::new(config, Tick(10)), peers: Vec::new() }
    }

    /// A peer named `name` of `role` joins, offering to host at `offer` (if any) before it is
    /// welcomed.
    fn join(&mut self, name: &str, role: Role, offer: Option<SocketAddr>) -> PeerId {
        let id = PeerId(self.peers.len() as u64 + 1);
        let config = PeerConfig { identity: identity(), name: name.into(), role, rejoin: None };
        let mut peer = PeerSession::new(config);
        if let Some(at) = offer {
            peer.offer_to_host(vec![at]);
        }
        self.host.connect(id, 0);
        peer.connect();
        self.peers.push((id, peer));
        self.settle();
        id
    }

    fn peer(&mut self, id: PeerId) -> &mut PeerSession<Plain> {
        &mut self.peers.iter_mut().find(|(p, _)| *p == id).expect("a peer").1
    }

    /// Hands every message over until none is left, welcoming whoever asks.
    fn settle(&mut self) {
        for _ in 0..4 {
            for (id, peer) in &mut self.peers {
                for (delivery, bytes) in peer.drain_outgoing() {
                    self.host.receive(*id, delivery, &bytes, 0);
                }
            }
            let wanted: Vec<PeerId> = self
                .host
                .drain_events()
                .filter_map(|e| match e {
                    HostEvent::StateWanted { peer } => Some(peer),
                    _ => None,
                })
                .collect();
            for peer in wanted {
                self.host.welcome(peer, &[], 0, RejoinSecret([peer.0 as u8; 16]));
            }
            for (to, delivery, bytes) in self.host.drain_outgoing().collect::<Vec<_>>() {
                if let Some((_, peer)) = self.peers.iter_mut().find(|(id, _)| *id == to) {
                    peer.receive(delivery, &bytes);
                }
            }
        }
    }
}

fn at(port: u16) -> SocketAddr {
    SocketAddr::from(([10, 0, 0, 2], port))
}

fn order(succession: &[Successor]) -> Vec<Player> {
    succession.iter().map(|s| s.player).collect()
}

/// The players that offered, longest-connected first (whenever they offered), are every
/// peer's succession, a spectator's too; one that leaves drops out of it everywhere, and a
/// newcomer is told it at its welcome.
#[test]
fn every_peer_learns_who_hosts_next_as_it_changes() {
    let mut table = Table::new();
    let ada = table.join("ada", Role::Player, None);
    let bob = table.join("bob", Role::Player, None);
    let cy = table.join("cy", Role::Player, Some(at(7002)));
    let eve = table.join("eve", Role::Spectator, None);
    assert_eq!(order(table.host.succession()), [Player(3)], "cy alone offered");
    // Ada offers after cy did, but came first: she is next.
    table.peer(ada).offer_to_host(vec![at(7001), SocketAddr::from(([203, 0, 113, 4], 7001))]);
    table.settle();
    let expected = vec![
        Successor {
            player: Player(1),
            at: vec![at(7001), SocketAddr::from(([203, 0, 113, 4], 7001))],
        },
        Successor { player: Player(3), at: vec![at(7002)] },
    ];
    for id in [ada, bob, cy, eve] {
        assert_eq!(table.peer(id).succession(), expected, "{id:?}");
    }
    let newcomer = table.join("dan", Role::Player, None);
    assert_eq!(table.peer(newcomer).succession(), expected, "told at its welcome");

    table.host.disconnect(ada);
    table.settle();
    for id in [bob, cy, eve, newcomer] {
        assert_eq!(order(table.peer(id).succession()), [Player(3)], "{id:?}: ada left");
    }
    let events: Vec<_> = table.peer(eve).drain_events().collect();
    assert!(
        events.iter().any(|e| matches!(e, PeerEvent::Succession(s) if order(s) == [Player(3)]))
    );
}

/// A match listed under a join code shares its listing with every peer, its secret only with
/// the players that would host next: whoever takes the match over renews the listing, and the
/// others dial the code again to find it. A player that joins the succession later is told the
/// secret then; one that leaves it is not told it again.
#[test]
fn the_listing_is_shared_and_its_secret_only_with_the_succession() {
    let mut table = Table::new();
    let ada = table.join("ada", Role::Player, Some(at(7001)));
    let bob = table.join("bob", Role::Player, None);
    let eve = table.join("eve", Role::Spectator, None);
    let listing = SharedListing {
        rendezvous: SocketAddr::from(([203, 0, 113, 1], 7480)),
        code: "KQ7-4PX".to_owned(),
        secret: Some([9; 16]),
    };
    table.host.share_listing(Some(listing.clone()));
    table.settle();
    assert_eq!(table.peer(ada).listing(), Some(&listing), "ada hosts next: she holds the secret");
    for id in [bob, eve] {
        assert_eq!(table.peer(id).listing(), Some(&listing.without_secret()), "{id:?}");
    }
    let newcomer = table.join("dan", Role::Player, Some(at(7003)));
    assert_eq!(table.peer(newcomer).listing(), Some(&listing), "dan offered as he came");
    table.peer(bob).offer_to_host(vec![at(7002)]);
    table.settle();
    assert_eq!(table.peer(bob).listing(), Some(&listing), "bob offered later");
    table.host.share_listing(None);
    table.settle();
    for id in [ada, bob, eve, newcomer] {
        assert_eq!(table.peer(id).listing(), None, "{id:?}: the listing ended");
    }
}

/// A shared listing whose code is longer than any join code is a hostile host's: refused,
/// and the peer keeps what it held.
#[test]
fn a_listing_with_an_overlong_code_is_refused() {
    let mut table = Table::new();
    let ada = table.join("ada", Role::Player, Some(at(7001)));
    let listing = SharedListing {
        rendezvous: SocketAddr::from(([203, 0, 113, 1], 7480)),
        code: "K".repeat(fixstep_runtime::net::MAX_CODE_BYTES + 1),
        secret: None,
    };
    let message: fixstep_runtime::net::ToPeer<DriftCommand, ()> =
        fixstep_runtime::net::ToPeer::Succession {
            order: Vec::new(),
            host: None,
            listing: Some(listing),
        };
    let dropped_before = table.peer(ada).dropped();
    table.peer(ada).receive(Delivery::Reliable, &fixstep_runtime::net::wire::encode(&message));
    assert_eq!(table.peer(ada).dropped(), dropped_before + 1);
    assert_eq!(order(table.peer(ada).succession()), [Player(1)], "kept");
    assert_eq!(table.peer(ada).listing(), None);
}

/// A spectator may not offer to host, and an offer of more addresses than a player may make
/// is refused: the succession stays as it was.
#[test]
fn offers_from_spectators_or_of_too_many_addresses_are_refused() {
    let mut table = Table::new();
    let ada = table.join("ada", Role::Player, None);
    let eve = table.join("eve", Role::Spectator, None);
    let _ = table.host.drain_events();
    let offer = |n: usize| {
        let message: ToHost<DriftCommand, ()> = ToHost::HostsOn { at: vec![at(7001); n] };
        fixstep_runtime::net::wire::encode(&message)
    };
    table.host.receive(eve, Delivery::Reliable, &offer(1), 0);
    table.host.receive(ada, Delivery::Reliable, &offer(MAX_HOST_ADDRESSES + 1), 0);
    let dropped: Vec<Dropped> = table
        .host
        .drain_events()
        .filter_map(|e| match e {
            HostEvent::Dropped { why, .. } => Some(why),
            _ => None,
        })
        .collect();
    assert_eq!(dropped.len(), 2, "{dropped:?}");
    assert!(matches!(dropped[0], Dropped::OutOfPlace));
    assert!(table.host.succession().is_empty());
    table.host.receive(ada, Delivery::Reliable, &offer(MAX_HOST_ADDRESSES), 0);
    assert_eq!(order(table.host.succession()), [Player(1)], "four addresses may be offered");
}

/// A player takes its host for gone after a second without a message from it, not before; on
/// a link that loses 5 % of the host's frames it never does in ten minutes of play. A
/// spectator, which a delaying host sends nothing for a while, has no such deadline until its
/// first update.
#[test]
fn a_player_takes_its_host_for_gone_after_a_second_of_silence_not_on_a_lossy_link() {
    let mut table = Table::new();
    let ada = table.join("ada", Role::Player, None);
    let eve = table.join("eve", Role::Spectator, None);
    let (mut now, mut state) = (0_u64, 0x9e37_79b9_7f4a_7c15_u64);
    let mut lost = 0;
    for tick in 0..6_000 {
        now += 100_000;
        table.peer(ada).set_time(now);
        // The player's frame says what reached it, so the host's next one carries only what
        // did not.
        table.peer(ada).send_frame();
        for (delivery, bytes) in table.peer(ada).drain_outgoing().collect::<Vec<_>>() {
            table.host.receive(ada, delivery, &bytes, now);
        }
        let _ = table.host.fix_tick();
        for (to, delivery, bytes) in table.host.drain_outgoing().collect::<Vec<_>>() {
            // xorshift64: a fixed sequence of losses, 5 % of the frames.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if delivery == Delivery::Unreliable && state % 100 < 5 {
                lost += 1;
                continue;
            }
            table.peer(to).receive(delivery, &bytes);
        }
        assert!(!table.peer(ada).host_gone(), "taken for gone at tick {tick}");
    }
    assert!(lost > 200, "the link lost {lost} frames");
    let deadline = table.peer(ada).host_gone_at().expect("a player has a deadline");
    assert!(deadline <= now + HOST_SILENCE_MICROS);
    table.peer(ada).set_time(deadline - 1);
    assert!(!table.peer(ada).host_gone(), "a microsecond early");
    table.peer(ada).set_time(deadline);
    assert!(table.peer(ada).host_gone(), "a second of silence");
    assert_eq!(table.peer(eve).host_gone_at(), None, "no update yet: a spectator waits");
    // Once it is sent updates, a spectator's silence counts as a player's does.
    table.peer(eve).set_time(now);
    table.host.send_update(eve, ());
    for (_, delivery, bytes) in table.host.drain_outgoing().collect::<Vec<_>>() {
        table.peer(eve).receive(delivery, &bytes);
    }
    assert_eq!(table.peer(eve).host_gone_at(), Some(now + HOST_SILENCE_MICROS));
}

/// A host that hands its match over tells every peer, players and spectators, that it went,
/// and leaves each the whole succession it was told: dropping them one by one must not tell
/// the last ones a succession without those dropped before (nobody left to turn to).
#[test]
fn a_host_that_hands_over_leaves_every_peer_the_succession_to_turn_to() {
    let mut table = Table::new();
    let eve = table.join("eve", Role::Spectator, None);
    let ada = table.join("ada", Role::Player, Some(at(7001)));
    let bob = table.join("bob", Role::Player, Some(at(7002)));
    assert!(table.host.hand_over(), "there is somebody to hand it to");
    table.settle();
    for id in [eve, ada, bob] {
        let peer = table.peer(id);
        assert_eq!(peer.goodbye(), Some(&Goodbye::HandedOver), "{id:?}");
        assert!(peer.host_gone(), "{id:?} turns to the successor at once");
        assert_eq!(order(peer.succession()), [Player(1), Player(2)], "{id:?}");
    }
    // With nobody to hand it to, the match ends.
    let mut alone = Table::new();
    let watcher = alone.join("eve", Role::Spectator, None);
    assert!(!alone.host.hand_over());
    alone.settle();
    assert_eq!(alone.peer(watcher).goodbye(), Some(&Goodbye::MatchEnded));
}

/// A player's input clock starts again on a new host's schedule, a little behind where it had
/// run on through the pause: the inputs for ticks before its new start still go to the new
/// host (they were typed for ticks it has yet to fix), and those from it on are replaced.
#[test]
fn inputs_for_ticks_not_yet_fixed_survive_an_input_clock_that_steps_back() {
    let mut table = Table::new();
    let ada = table.join("ada", Role::Player, Some(at(7001)));
    let peer = table.peer(ada);
    for tick in 12..18 {
        peer.submit_input(Tick(tick), DriftCommand::default());
    }
    assert_eq!(peer.unacknowledged(), 6);
    // The new host's first tick is 12; the clock starts again at 14.
    peer.submit_input(Tick(14), DriftCommand::default());
    assert_eq!(peer.unacknowledged(), 3, "12 and 13 kept, 14 replaced");
    // A clock that skips ahead makes the old ones moot.
    peer.submit_input(Tick(40), DriftCommand::default());
    assert_eq!(peer.unacknowledged(), 1);
}
