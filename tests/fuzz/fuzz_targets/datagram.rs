//! Datagrams as a host's and a peer's sockets receive them from anyone, read as
//! `fixstep_net::netcode` reads them: a LAN query or answer, a host's refusal, and otherwise
//! dropped unless [`well_formed`], a connection request only if its sealed part opens
//! (`check_request`), and the rest to netcode. netcode must never panic on what the check
//! lets through. Each datagram is a byte and a chunk: the byte's low two bits pick the end
//! that reads it (an open host, a password host, a peer), the next four how many tens of
//! milliseconds pass first, the top two the sender's port.

#![no_main]

use std::net::SocketAddr;
use std::time::Duration;

use fixstep_fuzz::Reader;
use fixstep_net::access::{Refusal, RequestCheck, check_request};
use fixstep_net::lan::{LanAnswer, is_query};
use fixstep_net::netcode::well_formed;
use fixstep_net::{NETCODE_PROTOCOL_ID, SessionKey};
use libfuzzer_sys::fuzz_target;
use renetcode::{
    ClientAuthentication, NETCODE_MAX_PACKET_BYTES, NetcodeClient, NetcodeServer,
    ServerAuthentication, ServerConfig,
};

/// The hosts' clock, since the Unix epoch: fixed, so that the seeds' tokens (minted at it)
/// stay good and a run reproduces.
const NOW: Duration = Duration::from_secs(1_700_000_000);

/// A password host's key: any fixed one.
const KEY: [u8; 32] = [0x5e; 32];

/// Where the hosts listen.
const HOST: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 7465);

/// The first byte of a connection request.
const CONNECTION_REQUEST: u8 = 0;

/// The most peers a host target takes: a few, as every slot costs netcode a table entry.
const MAX_CLIENTS: usize = 4;

fn server(authentication: ServerAuthentication, addresses: Vec<SocketAddr>) -> NetcodeServer {
    NetcodeServer::new(ServerConfig {
        current_time: NOW,
        max_clients: MAX_CLIENTS,
        protocol_id: NETCODE_PROTOCOL_ID,
        public_addresses: addresses,
        authentication,
    })
}

/// What a host's socket loop does with `datagram` from `from` (`ServerLink::update`).
fn host_reads(
    netcode: &mut NetcodeServer,
    key: &SessionKey,
    now: Duration,
    from: SocketAddr,
    datagram: &[u8],
) {
    if is_query(datagram) || !well_formed(datagram) {
        return;
    }
    if datagram[0] == CONNECTION_REQUEST
        && check_request(datagram, key, now.as_secs()) != RequestCheck::Pass
    {
        return;
    }
    let mut buffer = datagram.to_vec();
    let _ = netcode.process_packet(from, &mut buffer);
}

/// What a peer's socket loop does with `datagram` from the host (`ClientLink::update`).
fn peer_reads(netcode: &mut NetcodeClient, datagram: &[u8]) {
    let _ = LanAnswer::read(datagram);
    if netcode.is_connecting() && Refusal::read(datagram).is_some() {
        return;
    }
    if !well_formed(datagram) {
        return;
    }
    let mut buffer = datagram.to_vec();
    let _ = netcode.process_packet(&mut buffer);
}

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let mut open = server(ServerAuthentication::Unsecure, vec![HOST]);
    let password = SessionKey::from_bytes(KEY);
    let any_host = SocketAddr::from(([0, 0, 0, 0], 0));
    let mut sealed =
        server(ServerAuthentication::Secure { private_key: KEY }, vec![HOST, any_host]);
    let Ok(token) = SessionKey::OPEN.mint(HOST, NOW) else { return };
    let Ok(mut client) =
        NetcodeClient::new(NOW, ClientAuthentication::Secure { connect_token: token })
    else {
        return;
    };
    let mut now = NOW;
    while let (Some(choice), Some(datagram)) = (input.byte(), input.chunk()) {
        if datagram.len() > NETCODE_MAX_PACKET_BYTES {
            // No socket buffer holds more: the loop reads into one of this size.
            continue;
        }
        let elapsed = Duration::from_millis(10 * u64::from((choice >> 2) & 0x0f));
        now += elapsed;
        let from = SocketAddr::from(([127, 0, 0, 1], 40_000 + u16::from(choice >> 6)));
        match choice & 3 {
            0 => host_reads(&mut open, &SessionKey::OPEN, now, from, datagram),
            1 => host_reads(&mut sealed, &password, now, from, datagram),
            _ => peer_reads(&mut client, datagram),
        }
        for host in [&mut open, &mut sealed] {
            host.update(elapsed);
            for id in host.clients_id() {
                let _ = host.update_client(id);
            }
        }
        let _ = client.update(elapsed);
    }
});
