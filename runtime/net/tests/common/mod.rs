//! What the transport's tests share: a game that sends nothing, and a host with a peer of the
//! test's own making connected to it.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime};

use fixstep_net::{Access, HostTransport};
use fixstep_runtime::net::{DEFAULT_SEAT_GRACE_MICROS, HostConfig, HostSession, Identity};
use fixstep_runtime::{ContentDigest, Tick};
use renetcode::{ClientAuthentication, NetcodeClient};
use serde::{Deserialize, Serialize};

/// A command for a session that never runs a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Nothing;

impl fixstep_runtime::Command for Nothing {
    fn held(&self) -> Self {
        Self
    }
}

/// The data of a game that sends nothing.
pub struct NothingData;

impl fixstep_runtime::net::GameData for NothingData {
    type Command = Nothing;
    type SpectatorUpdate = ();
    type SpectatorView = ();
}

/// How long the handshake may take on loopback before the test gives up.
pub const HANDSHAKE_LIMIT: Duration = Duration::from_secs(10);

/// The host, its session, and a peer of the test's own making (netcode's client on a socket
/// the test holds) connected to it; the peer's first connection request, as sent.
pub struct Connected {
    pub host: HostTransport,
    pub session: HostSession<NothingData>,
    pub peer: UdpSocket,
    pub client: NetcodeClient,
    pub host_addr: SocketAddr,
    pub request: Vec<u8>,
}

impl Connected {
    /// Binds a host on loopback and connects the test's peer to it.
    ///
    /// # Panics
    ///
    /// If loopback cannot be bound or the handshake does not end within [`HANDSHAKE_LIMIT`].
    #[must_use]
    pub fn new() -> Self {
        let mut host =
            HostTransport::bind(SocketAddr::from(([127, 0, 0, 1], 0)), &[], 4, &Access::Open)
                .expect("binds");
        let host_addr = host.local_addr().expect("an address");
        let identity = Identity { protocol: 0, sim_version: 0, level: ContentDigest(0) };
        let mut session = HostSession::new(
            HostConfig {
                identity,
                max_players: 4,
                max_spectators: 8,
                local_players: 0,
                seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
            },
            Tick(0),
        );
        let peer = UdpSocket::bind("127.0.0.1:0").expect("binds");
        peer.set_nonblocking(true).expect("non-blocking");
        let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).expect("after 1970");
        let authentication = ClientAuthentication::Unsecure {
            protocol_id: fixstep_net::NETCODE_PROTOCOL_ID,
            client_id: 7,
            server_addr: host_addr,
            user_data: None,
        };
        let mut client = NetcodeClient::new(now, authentication).expect("a client");
        let start = Instant::now();
        let (mut clock, mut request) = (0, None);
        let mut buffer = [0u8; 2048];
        while !client.is_connected() {
            assert!(start.elapsed() < HANDSHAKE_LIMIT, "no connection on loopback");
            let step = Duration::from_millis(5);
            if let Some((packet, to)) = client.update(step) {
                request.get_or_insert_with(|| packet.to_vec());
                peer.send_to(packet, to).expect("loopback sends");
            }
            clock += 5_000;
            host.receive(step, clock, &mut session).expect("the host's socket works");
            host.send(&mut session);
            while let Ok((len, _)) = peer.recv_from(&mut buffer) {
                let _ = client.process_packet(&mut buffer[..len]);
            }
            std::thread::sleep(step);
        }
        let request = request.expect("the peer asked to connect");
        Self { host, session, peer, client, host_addr, request }
    }
}
