//! Datagrams from anyone, read by the three ends of a rendezvous: the rendezvous itself
//! (`RendezvousServer`), a listed host (`Listing`) and a joiner dialling a code (`Dial`). None
//! may panic, answer with more than it read, or hold more than its bounds. Each datagram is a
//! byte and a chunk: the byte's low two bits pick the end that reads it, the next four how
//! many tens of milliseconds pass first, the top two the sender (one of four addresses,
//! the rendezvous's among them).

#![no_main]

use std::net::SocketAddr;
use std::time::Duration;

use fixstep_fuzz::Reader;
use fixstep_net::join_code::JoinCode;
use fixstep_net::rendezvous::{
    Dial, Listing, MAX_LISTINGS_PER_IP, REQUEST_BYTES, RendezvousServer,
};
use libfuzzer_sys::fuzz_target;

/// The senders a datagram may come from: the rendezvous, a host, a joiner, a stranger.
const SENDERS: [&str; 4] =
    ["203.0.113.1:7480", "203.0.113.10:7465", "203.0.113.20:50000", "198.51.100.7:9"];

fuzz_target!(|data: &[u8]| {
    let senders: Vec<SocketAddr> = SENDERS.iter().filter_map(|s| s.parse().ok()).collect();
    let rendezvous_at = senders[0];
    let mut draws = 0u8;
    let mut server = RendezvousServer::new(move || {
        draws = draws.wrapping_add(1);
        JoinCode::from_random([draws, 1, 2, 3, 4, 5])
    });
    let mut listing = Listing::new(rendezvous_at, Vec::new(), [3; 16]);
    let code = JoinCode::from_random([1, 1, 2, 3, 4, 5]);
    let mut dial = Dial::new(rendezvous_at, code, Vec::new());
    let mut reader = Reader::new(data);
    let mut now = Duration::ZERO;
    while let Some(head) = reader.byte() {
        let Some(datagram) = reader.chunk() else { break };
        now += Duration::from_millis(u64::from((head >> 2) & 0x0f) * 10);
        let from = senders[usize::from(head >> 6)];
        match head & 0b11 {
            0 | 3 => {
                for (_, answer) in server.receive(from, datagram, now) {
                    assert!(answer.len() <= REQUEST_BYTES, "an answer longer than a request");
                }
                server.expire(now);
            }
            1 => {
                let _ = listing.receive(from, datagram, now);
                if let Some(answer) = listing.answer_probe(datagram) {
                    assert_eq!(answer.len(), datagram.len(), "a probe's answer is as long");
                }
                let _ = listing.poll(now);
            }
            _ => {
                if let Some((_, answer)) = dial.receive(from, datagram, now) {
                    assert_eq!(answer.len(), datagram.len(), "a punch's answer is as long");
                }
                let _ = dial.poll(now);
            }
        }
    }
    assert!(server.listed() <= 4 * MAX_LISTINGS_PER_IP);
});
