//! What a host that means harm (or is broken) sends a peer, as fuzzing the peer session found
//! it (`tests/fuzz`, target `peer_session`): the peer drops it, counted, and never panics.

use crate::common;

use common::{DriftCommand, DriftData};
use fixstep_runtime::net::frame::{HostFrame, TickPiece, TickRun};
use fixstep_runtime::net::wire::encode;
use fixstep_runtime::net::{
    Delivery, MAX_WELCOME_TICK, PROTOCOL_VERSION, PeerConfig, PeerEvent, PeerSession, Refusal,
    Role, TICK_MEMORY, ToPeer, Welcome,
};
use fixstep_runtime::{ContentDigest, Player, Tick};

type HostMessage = ToPeer<DriftCommand, ()>;

fn peer() -> PeerSession<DriftData> {
    let identity = fixstep_runtime::net::Identity {
        protocol: PROTOCOL_VERSION,
        sim_version: 1,
        level: ContentDigest(7),
    };
    let config = PeerConfig { identity, name: "ada".to_owned(), role: Role::Player, rejoin: None };
    let mut peer = PeerSession::new(config);
    peer.connect();
    peer.drain_outgoing().for_each(drop);
    peer
}

fn welcome(tick: u32) -> Welcome {
    Welcome {
        player: Some(Player(0)),
        tick: Tick(tick),
        state: Vec::new(),
        hash: 0,
        rejoin: None,
        epoch: 0,
    }
}

fn receive(peer: &mut PeerSession<DriftData>, message: &HostMessage) {
    peer.receive(Delivery::Reliable, &encode(message));
}

/// The fuzzer's input, shortened: a welcome at the last tick number, then the player's input
/// for it. The peer's count of the inputs it sent (one past the last) overflowed, a panic in
/// every build; such a welcome is refused now.
#[test]
fn a_welcome_at_the_last_tick_number_is_refused_and_inputs_go_nowhere() {
    let mut peer = peer();
    receive(&mut peer, &ToPeer::Welcome(welcome(u32::MAX)));
    peer.submit_input(Tick(u32::MAX), DriftCommand::default());
    peer.send_frame();
    assert!(!peer.is_welcomed(), "not welcomed at tick {}", u32::MAX);
    let events: Vec<_> = peer.drain_events().collect();
    assert_eq!(events, vec![PeerEvent::Dropped(Refusal::Malformed)]);
    assert!(peer.drain_outgoing().next().is_none(), "no frame before a welcome");
}

/// A welcome at the latest tick one may be at is taken, and the game goes on from it.
#[test]
fn a_welcome_at_the_latest_tick_it_may_be_at_is_taken() {
    let mut peer = peer();
    receive(&mut peer, &ToPeer::Welcome(welcome(MAX_WELCOME_TICK.0)));
    peer.submit_input(MAX_WELCOME_TICK, DriftCommand::default());
    assert!(peer.is_welcomed());
    assert_eq!(peer.drain_outgoing().count(), 1, "the input's frame");
}

/// A resync beyond the latest tick is garbage too: dropped, and the game goes on as it was.
#[test]
fn a_resync_past_the_latest_tick_is_refused() {
    let mut peer = peer();
    receive(&mut peer, &ToPeer::Welcome(welcome(5)));
    peer.drain_events().for_each(drop);
    receive(&mut peer, &ToPeer::Resync(welcome(u32::MAX)));
    let events: Vec<_> = peer.drain_events().collect();
    assert_eq!(events, vec![PeerEvent::Dropped(Refusal::Malformed)]);
}

/// Ticks far past the next one, which no honest host sends (it keeps only `TICK_MEMORY` to
/// send), are refused, not kept until the ticks before them come: a host sending a tick
/// record or a frame for every tick ahead cannot make a peer hold them without end. The ticks
/// an honest host sends next are still handed out.
#[test]
fn ticks_far_ahead_are_refused_not_kept() {
    let mut peer = peer();
    receive(&mut peer, &ToPeer::Welcome(welcome(10)));
    peer.drain_events().for_each(drop);
    let record = |tick: u32| fixstep_runtime::TickRecord {
        tick: Tick(tick),
        seats: fixstep_runtime::SeatChanges::NONE,
        commands: vec![DriftCommand::default()],
    };
    let far = 10 + TICK_MEMORY;
    for tick in far..far + 1_000 {
        receive(&mut peer, &ToPeer::Tick(record(tick)));
    }
    let run = TickRun { first: Tick(far), pieces: vec![TickPiece::Reliable] };
    let frame = HostFrame { ticks: Some(run), input: None, hashes_from: Tick(10), echo: None };
    peer.receive(Delivery::Unreliable, &encode(&HostMessage::Frame(frame)));
    let events: Vec<_> = peer.drain_events().collect();
    assert_eq!(events.len(), 1_001, "one refusal each");
    assert!(events.iter().all(|e| *e == PeerEvent::Dropped(Refusal::Malformed)), "{events:?}");
    receive(&mut peer, &ToPeer::Tick(record(far - 1)));
    assert!(peer.drain_events().next().is_none(), "the last tick in reach waits for tick 10");
    receive(&mut peer, &ToPeer::Tick(record(10)));
    let handed: Vec<_> = peer.drain_events().collect();
    assert!(matches!(&handed[..], [PeerEvent::Tick(t)] if t.tick == Tick(10)), "{handed:?}");
}
