//! Payloads netcode decrypted, as a host's and a peer's renet read them through their
//! `PayloadGuard`s (what `fixstep_net::netcode` does with each): renet must never panic on
//! what a guard lets through, however the payloads interleave with time passing. Each payload
//! is a byte and a chunk: the byte's low bit picks the end that reads it (the host or the
//! peer), the rest how many milliseconds pass after it (127: a pause of four seconds, past
//! renet's timeouts of unfinished messages and unacknowledged packets).

#![no_main]

use std::time::Duration;

use fixstep_fuzz::Reader;
use fixstep_net::connection_config;
use fixstep_net::renet_guard::{Kept, PayloadGuard};
use libfuzzer_sys::fuzz_target;
use renet::{ClientId, RenetClient, RenetServer, SendType};

/// The peer's client id on the host.
const PEER: ClientId = 7;

/// The byte value after the low bit that stands for a long pause.
const PAUSE: u8 = 127;

/// The long pause: past renet's three seconds.
const PAUSE_TIME: Duration = Duration::from_secs(4);

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let config = connection_config();
    let host_channels: Vec<(u8, bool)> = config
        .client_channels_config
        .iter()
        .map(|c| (c.channel_id, !matches!(c.send_type, SendType::Unreliable)))
        .collect();
    let peer_channels: Vec<(u8, bool)> = config
        .server_channels_config
        .iter()
        .map(|c| (c.channel_id, !matches!(c.send_type, SendType::Unreliable)))
        .collect();
    let mut host = RenetServer::new(config.clone());
    host.add_connection(PEER);
    let mut peer = RenetClient::new(config);
    peer.set_connected();
    let (mut host_guard, mut peer_guard) = (PayloadGuard::new(), PayloadGuard::new());
    while let (Some(choice), Some(payload)) = (input.byte(), input.chunk()) {
        if choice & 1 == 0 {
            if host.is_connected(PEER)
                && host_guard.to_server(&mut host, PEER, payload) == Kept::CutOff
            {
                host.disconnect(PEER);
            }
            for &(channel, reliable) in &host_channels {
                while host.is_connected(PEER) && host.receive_message(PEER, channel).is_some() {
                    if reliable {
                        host_guard.took_reliable();
                    }
                }
            }
        } else {
            peer_guard.to_client(&mut peer, payload);
            for &(channel, reliable) in &peer_channels {
                while peer.receive_message(channel).is_some() {
                    if reliable {
                        peer_guard.took_reliable();
                    }
                }
            }
        }
        let elapsed = match choice >> 1 {
            PAUSE => PAUSE_TIME,
            ms => Duration::from_millis(u64::from(ms)),
        };
        host.update(elapsed);
        peer.update(elapsed);
        if host.is_connected(PEER) {
            let _ = host.get_packets_to_send(PEER);
        }
        let _ = peer.get_packets_to_send();
        while host.get_event().is_some() {}
    }
});
