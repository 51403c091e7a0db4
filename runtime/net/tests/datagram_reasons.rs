//! Every datagram a host reads is counted under exactly one reason (`fixstep_net::Reads`):
//! a known mix of real packets, replays, forgeries, strangers' packets, LAN queries, floods
//! and connection requests lands in the counts the mix says, and they add up to the datagrams
//! the socket read.

use crate::common;

use std::net::UdpSocket;
use std::time::Duration;

use common::Connected;
use fixstep_net::{Reads, Reason};

/// How long the test waits for what it sent to reach the host's socket on loopback.
const SETTLE: Duration = Duration::from_millis(50);

/// Payloads the connected peer sends that renet reads.
const PAYLOADS: u64 = 5;

/// Unreliable slices the peer sends: the guard drops them (the protocol sends none).
const UNRELIABLE_SLICES: u64 = 2;

/// Datagrams a stranger floods the host with, from one address: the bucket's 2,000 are read
/// (and found no netcode packet), the rest are over it.
const FLOOD: u64 = 2_100;

/// Datagrams sent between two of the host's reads: well under what a socket buffer holds.
const BATCH: u64 = 100;

/// Connection requests of the wrong size one IP address sends at once: its burst of 32 is
/// checked (and ignored), the rest are over its rate.
const REQUESTS: u64 = 40;

/// renet 2.0's packet type of a slice of an unreliable message.
const UNRELIABLE_SLICE: u8 = 3;

/// A well-formed netcode payload packet (type 5, a one-byte sequence) that no key opens.
fn forged_payload() -> Vec<u8> {
    let mut datagram = vec![0x15, 7];
    datagram.extend((0..40u8).map(|i| i.wrapping_mul(37)));
    datagram
}

impl Connected {
    /// The host reads what waits, without its clock moving (so no bucket refills).
    fn read(&mut self) {
        std::thread::sleep(SETTLE);
        self.host.receive(Duration::ZERO, 0, &mut self.session).expect("the host goes on");
    }

    /// Sends `datagram` to the host from `socket`.
    fn send(&self, socket: &UdpSocket, datagram: &[u8]) {
        socket.send_to(datagram, self.host_addr).expect("loopback sends");
    }

    /// A payload packet of the peer's, sealed by its client.
    fn sealed(&mut self, payload: &[u8]) -> Vec<u8> {
        let (_, packet) = self.client.generate_payload_packet(payload).expect("a packet");
        packet.to_vec()
    }
}

/// What was read since `before`, by reason.
fn since(before: &Reads, after: &Reads) -> Vec<(&'static str, u64)> {
    after
        .by_reason()
        .map(|(reason, count)| (reason.name(), count - before.of(reason)))
        .filter(|&(_, count)| count > 0)
        .collect()
}

#[test]
fn every_datagram_read_is_counted_under_the_one_reason_that_settled_it() {
    let mut game = Connected::new();
    let stranger = UdpSocket::bind("127.0.0.1:0").expect("binds");
    // Other addresses of the loopback, for buckets of their own.
    let flooder = UdpSocket::bind("127.0.0.2:0").expect("binds on the loopback range");
    let requester = UdpSocket::bind("127.0.0.3:0").expect("binds on the loopback range");
    let before = game.host.reads();
    let wire_before = game.host.wire();

    // The peer: payloads, two unreliable slices, a replay, a forgery, a keep-alive, its
    // connection request again.
    let mut first = None;
    for i in 0..PAYLOADS {
        let packet = game.sealed(&[9, u8::try_from(i).expect("small")]);
        first.get_or_insert_with(|| packet.clone());
        game.send(&game.peer, &packet);
    }
    for _ in 0..UNRELIABLE_SLICES {
        let packet = game.sealed(&[UNRELIABLE_SLICE, 0, 0, 0]);
        game.send(&game.peer, &packet);
    }
    game.send(&game.peer, &first.expect("a payload went"));
    game.send(&game.peer, &forged_payload());
    let (keep_alive, _) = game.client.update(Duration::from_secs(1)).expect("a keep-alive is due");
    let keep_alive = keep_alive.to_vec();
    game.send(&game.peer, &keep_alive);
    game.send(&game.peer, &game.request.clone());
    // A stranger: packets it has no connection for, bytes that are no netcode packet, LAN
    // queries.
    for _ in 0..3 {
        game.send(&stranger, &forged_payload());
    }
    for _ in 0..4 {
        game.send(&stranger, &[0x0F; 40]);
    }
    for _ in 0..2 {
        game.send(&stranger, &fixstep_net::lan::query());
    }
    game.read();

    // Connection requests of the wrong size, and a flood, each from an address of its own.
    let mut request = vec![0u8; 100];
    request[1..14].copy_from_slice(b"NETCODE 1.02\0");
    for _ in 0..REQUESTS {
        game.send(&requester, &request);
    }
    game.read();
    for _ in 0..FLOOD / BATCH {
        for _ in 0..BATCH {
            game.send(&flooder, &[0xFF; 30]);
        }
        game.read();
    }

    let after = game.host.reads();
    let read = game.host.wire().datagrams_received - wire_before.datagrams_received;
    assert_eq!(
        since(&before, &after),
        vec![
            (Reason::Payload.name(), PAYLOADS),
            (Reason::Netcode.name(), 1),
            (Reason::LanQuery.name(), 2),
            (Reason::Flooded.name(), FLOOD - 2_000),
            (Reason::NotNetcode.name(), 4 + 2_000),
            (Reason::GuardDropped.name(), UNRELIABLE_SLICES),
            (Reason::RequestFlooded.name(), REQUESTS - 32),
            (Reason::RequestIgnored.name(), 32),
            (Reason::RequestDeclined.name(), 1),
            (Reason::UnknownAddress.name(), 3),
            (Reason::Unopened.name(), 2),
        ],
        "what the mix says, reason by reason"
    );
    assert_eq!(after.total() - before.total(), read, "the counts add up to the datagrams read");
    assert_eq!(after.total(), game.host.wire().datagrams_received, "and did from the start");
}
