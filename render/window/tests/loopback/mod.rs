//! What the tests of the window's network sessions share: the town, a host on a free
//! loopback port, and frames run across sessions.
#![allow(dead_code, reason = "each test binary uses part of the shared helpers")]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fixstep_gpu::Hud;
use fixstep_net::{Access, Admission};
use fixstep_netplay::{HostOptions, PeerOptions};
use fixstep_present::Controls;
use fixstep_runtime::Rules as _;
use fixstep_runtime::net::DEFAULT_SEAT_GRACE_MICROS;
use fixstep_town::level::Level;
use fixstep_town_view::Town;
use fixstep_window::session::{HostPlay, PlaySession};

/// A 60 Hz frame, microseconds.
pub const FRAME_MICROS: u64 = 16_667;

/// Where a host is bound: loopback, on port 0 for the system to pick a free one as it binds.
/// Picked by the bind itself, the port cannot be taken by another test between a look for a
/// free one and the bind, as a port found free by binding and letting go can be.
const ANY_LOOPBACK_PORT: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

/// The longest a test runs frames waiting for what it expects: far beyond a join on loopback.
const WAIT: Duration = Duration::from_secs(10);

/// A game hosted on loopback: the town, where the host listens, and where desync reports go
/// (removed when dropped).
pub struct Loopback {
    /// The town.
    pub level: Arc<Level>,
    /// Where the host listens and peers connect: port 0 until [`host`](Self::host) has bound
    /// one.
    addr: SocketAddr,
    /// The desync reports' folder.
    pub reports: PathBuf,
}

impl Loopback {
    /// A game to be hosted on loopback, its reports in a scratch folder named after `test`.
    pub fn new(test: &str) -> Self {
        let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        let level = Town::load_content(&assets, &Town::default_content(&assets)).expect("loads");
        let reports = std::env::temp_dir().join(format!("fixstep-{test}-{}", std::process::id()));
        Self { level: Arc::new(level), addr: ANY_LOOPBACK_PORT, reports }
    }

    /// Hosts the game, playing as "ada", on a port the system picks as the host binds, and
    /// keeps the port the host says it bound for peers to join at.
    pub fn host(&mut self) -> HostPlay<Town> {
        self.host_with(&self.host_options())
    }

    /// The same, listed under a join code at the rendezvous at `rendezvous`.
    pub fn host_listed(&mut self, rendezvous: SocketAddr) -> HostPlay<Town> {
        self.host_with(&HostOptions { rendezvous: Some(rendezvous), ..self.host_options() })
    }

    fn host_with(&mut self, options: &HostOptions) -> HostPlay<Town> {
        let host = HostPlay::<Town>::new(&self.level, options).expect("the host binds");
        // It says where friends join it: its address on the local network, and the port.
        let said = host.describe();
        let port = said.rsplit(':').next().and_then(|p| p.parse::<u16>().ok()).filter(|&p| p != 0);
        self.addr
            .set_port(port.unwrap_or_else(|| panic!("the host names the port it bound: {said}")));
        host
    }

    /// Where the host listens and peers connect.
    pub fn addr(&self) -> SocketAddr {
        assert_ne!(self.addr.port(), 0, "the game is hosted before anyone joins it");
        self.addr
    }

    /// The options of a host playing as "ada".
    fn host_options(&self) -> HostOptions {
        HostOptions {
            bind: ANY_LOOPBACK_PORT,
            also_reachable_at: Vec::new(),
            max_players: 4,
            max_spectators: 8,
            seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
            own_player: true,
            seed: 1,
            name: "ada".to_owned(),
            reports: self.reports.clone(),
            access: Access::Open,
            record: None,
            spectator_delay_ticks: 0,
            migration: true,
            rendezvous: None,
            port_mapping: false,
            stun: Vec::new(),
            turn: None,
        }
    }

    /// The options of a player named `name` joining it.
    pub fn peer_options(&self, name: &str) -> PeerOptions {
        PeerOptions {
            host: self.addr(),
            name: name.to_owned(),
            admission: Admission::Open,
            reports: self.reports.clone(),
            rejoin_file: None,
            record: None,
            offer: fixstep_netplay::HostOffer::default(),
        }
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.reports);
    }
}

/// Runs `sessions` a 60 Hz frame at a time, holding nothing, until `done` says so of their
/// HUDs or ten seconds pass; returns the last HUDs.
pub fn frames(
    sessions: &mut [&mut dyn PlaySession<Town>],
    mut done: impl FnMut(&[Hud]) -> bool,
) -> Vec<Hud> {
    let start = Instant::now();
    let held = Controls::default();
    loop {
        std::thread::sleep(Duration::from_micros(FRAME_MICROS));
        let mut huds = Vec::new();
        for session in sessions.iter_mut() {
            session.frame(FRAME_MICROS, &held, 0).expect("the session plays on");
            let mut hud = Hud::default();
            session.hud(&mut hud);
            huds.push(hud);
        }
        if done(&huds) || start.elapsed() > WAIT {
            return huds;
        }
    }
}
