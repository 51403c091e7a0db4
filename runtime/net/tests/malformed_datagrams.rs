//! Datagrams no netcode packet can be never reach netcode: renetcode 2.0 panics on a packet
//! whose first byte claims a sequence number longer than eight bytes, and UDP lets anyone
//! write a connected peer's address on a datagram.
//!
//! `fixstep_net::netcode` checks every datagram first. These tests protect that check; the
//! flood of the network tests (random and mutated packets from a connected peer's address)
//! found the first two panics, the over-long sequence and a packet too short for its tag, by
//! bringing down a running host; the datagram fuzz target found the third, a sequence number
//! so high that netcode's replay check overflows adding its window to it.

use std::time::Duration;

use crate::common::Connected;
use fixstep_net::netcode::{MAX_SEQUENCE, well_formed};
use fixstep_runtime::rng::SimRng;

/// netcode's packet types, 0 (connection request) to 6 (disconnect).
const PACKET_TYPES: std::ops::RangeInclusive<u8> = 0..=6;

/// ChaCha20-Poly1305's tag, which ends every packet but the connection request, bytes.
const MAC_BYTES: usize = 16;

/// Random datagrams the fuzz sends from the connected address.
const FUZZ_DATAGRAMS: u32 = 100_000;

/// Datagrams sent between two of the host's reads: well under what a socket buffer holds.
const FUZZ_BATCH: u32 = 200;

#[test]
fn a_sequence_longer_than_eight_bytes_or_an_unknown_type_is_not_a_netcode_packet() {
    for kind in PACKET_TYPES {
        for sequence_bytes in 0..=8u8 {
            // The prefix, the sequence and a tag: the shortest packet netcode can read.
            let mut datagram = vec![0; 1 + usize::from(sequence_bytes) + MAC_BYTES];
            datagram[0] = (sequence_bytes << 4) | kind;
            assert!(well_formed(&datagram), "type {kind}, {sequence_bytes}-byte sequence");
            // A byte short of its tag: only a connection request has none.
            datagram.pop();
            assert_eq!(well_formed(&datagram), kind == 0, "type {kind}, a byte short");
        }
        for sequence_bytes in 9..=15u8 {
            let mut datagram = vec![0; 64];
            datagram[0] = (sequence_bytes << 4) | kind;
            // A connection request carries no sequence: its high bits are never read.
            assert_eq!(well_formed(&datagram), kind == 0, "type {kind}, {sequence_bytes} bytes");
        }
    }
    for kind in 7..=15u8 {
        assert!(!well_formed(&[kind; 64]), "type {kind} is no netcode packet");
    }
    assert!(!well_formed(&[]), "an empty datagram");
}

/// A packet of type `kind` with an eight-byte `sequence` and a tag of zeros.
fn sequenced(kind: u8, sequence: u64) -> Vec<u8> {
    let mut datagram = vec![(8 << 4) | kind];
    datagram.extend_from_slice(&sequence.to_le_bytes());
    datagram.extend_from_slice(&[0; MAC_BYTES]);
    datagram
}

#[test]
fn a_sequence_number_netcodes_replay_check_would_overflow_on_is_not_a_netcode_packet() {
    for kind in PACKET_TYPES.skip(1) {
        assert!(well_formed(&sequenced(kind, 0)), "type {kind}, the first packet");
        assert!(well_formed(&sequenced(kind, MAX_SEQUENCE)), "type {kind}, the highest");
        for sequence in [MAX_SEQUENCE + 1, u64::MAX - 1, u64::MAX] {
            assert!(!well_formed(&sequenced(kind, sequence)), "type {kind}, sequence {sequence}");
        }
    }
    // A shorter sequence can never come near the limit.
    let mut short = vec![(2 << 4) | 2, 0xFF, 0xFF];
    short.extend_from_slice(&[0; MAC_BYTES]);
    assert!(well_formed(&short), "a two-byte sequence of all ones");
}

#[test]
fn a_running_host_drops_datagrams_that_would_panic_netcode_from_a_connected_peers_address() {
    // A peer of our own making: netcode's client on a socket this test holds, so that it can
    // send anything from the connected address.
    let Connected { mut host, mut session, peer: socket, host_addr, request, .. } =
        Connected::new();
    assert!(well_formed(&request), "the check lets a real connection request through");
    let mut clock = 0;

    // Every packet type with every over-long sequence length, and with too short a rest for
    // its tag, then random datagrams of every shape, all from the connected address.
    let mut crafted = Vec::new();
    for kind in PACKET_TYPES.skip(1) {
        for sequence_bytes in 9..=15u8 {
            let mut datagram = vec![0xA5u8; 64];
            datagram[0] = (sequence_bytes << 4) | kind;
            crafted.push(datagram);
        }
        for len in 2..1 + 8 + MAC_BYTES {
            let mut datagram = vec![0x5Au8; len];
            datagram[0] = (8 << 4) | kind;
            crafted.push(datagram);
        }
        crafted.push(sequenced(kind, u64::MAX));
    }
    let crafted_count = crafted.len() as u64;
    let mut rng = SimRng::new(0xBAD_DA7A, 0);
    let random = (0..FUZZ_DATAGRAMS).map(|_| {
        let len = rng.below(200) as usize;
        (0..len).map(|_| rng.below(256) as u8).collect::<Vec<u8>>()
    });
    let mut sent = 0;
    for (i, datagram) in crafted.into_iter().chain(random).enumerate() {
        socket.send_to(&datagram, host_addr).expect("loopback sends");
        sent += 1;
        if i as u32 % FUZZ_BATCH == FUZZ_BATCH - 1 {
            clock += 1_000;
            host.receive(Duration::from_millis(1), clock, &mut session).expect("the host goes on");
        }
    }
    std::thread::sleep(Duration::from_millis(20));
    host.receive(Duration::from_millis(20), clock + 20_000, &mut session)
        .expect("the host goes on");
    let malformed = host.reads().malformed();
    assert!(
        malformed >= crafted_count,
        "the crafted ones dropped unread and counted ({malformed})"
    );
    assert!(malformed < sent, "random bytes are sometimes well formed, and netcode drops those");
}
