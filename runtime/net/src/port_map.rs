//! Asking the home router to forward the host's port: UPnP IGD (igd-next), and NAT-PMP
//! (natpmp) where UPnP is off, as home routers offer them. A thread of its own asks, keeps the
//! mapping renewed while the host runs and removes it when the host stops, so the host's
//! loop never waits on a router.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use igd_next::{AddPortError, PortMappingProtocol, SearchOptions};

/// How long a mapping is asked for, seconds: an hour, renewed at half of it. A host that
/// dies without removing it leaves a port forwarded for at most that long.
const LEASE_SECONDS: u32 = 3_600;

/// How long the search for a UPnP router waits for its answer: two seconds, as long as home
/// routers take on a busy network; a router that answers at all does within a few hundred
/// milliseconds.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(2);

/// How long the NAT-PMP router is given to answer each request: a second; NAT-PMP's own
/// retries (RFC 6886) would wait a minute.
const NAT_PMP_TIMEOUT: Duration = Duration::from_secs(1);

/// How often the mapping thread looks whether it should stop or renew: a tenth of a second,
/// so a host that stops is not held up.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// How long a host that stops waits for the router to remove its mapping: two seconds; a
/// router that does not answer keeps it until its lease runs out.
const REMOVE_WAIT: Duration = Duration::from_secs(2);

/// What a host asked its router with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MappingProtocol {
    /// UPnP's Internet Gateway Device.
    UpnpIgd,
    /// NAT-PMP (RFC 6886).
    NatPmp,
}

impl std::fmt::Display for MappingProtocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::UpnpIgd => "UPnP",
            Self::NatPmp => "NAT-PMP",
        })
    }
}

/// A port the router forwards to the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortMapping {
    /// The router's public address, if it said one that is public (a router behind another
    /// NAT says its own private one, which nobody outside reaches).
    pub public_ip: Option<IpAddr>,
    /// The router's port that forwards to the host's.
    pub public_port: u16,
    /// How it was asked for.
    pub protocol: MappingProtocol,
}

impl PortMapping {
    /// The public address, with `fallback`'s IP (a rendezvous's or STUN server's view of the
    /// host) when the router said none.
    #[must_use]
    pub fn public_address(&self, fallback: Option<IpAddr>) -> Option<SocketAddr> {
        Some(SocketAddr::new(self.public_ip.or(fallback)?, self.public_port))
    }
}

/// Where the asking stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MappingState {
    /// Looking for the router, or asking it.
    Asking,
    /// The router forwards a port.
    Mapped(PortMapping),
    /// No router mapped the port, for this reason (in a line: the host goes on without).
    Unavailable(String),
}

/// A host's port mapping, kept on a thread of its own; removed when dropped.
#[derive(Debug)]
pub struct PortMapper {
    state: Arc<Mutex<MappingState>>,
    seen: MappingState,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl PortMapper {
    /// Asks the router for a mapping of `local` (this machine's address on its network, and
    /// the host's port), from now on.
    #[must_use]
    pub fn start(local: SocketAddr) -> Self {
        let state = Arc::new(Mutex::new(MappingState::Asking));
        let stop = Arc::new(AtomicBool::new(false));
        let (shared, stopping) = (Arc::clone(&state), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("port mapping".to_owned())
            .spawn(move || keep_mapped(local, &shared, &stopping))
            .ok();
        if thread.is_none() {
            *lock(&state) = MappingState::Unavailable("no thread to ask the router on".into());
        }
        Self { state, seen: MappingState::Asking, stop, thread }
    }

    /// Where it stands now.
    #[must_use]
    pub fn state(&self) -> MappingState {
        lock(&self.state).clone()
    }

    /// Where it stands, if that changed since the last call.
    pub fn changed(&mut self) -> Option<MappingState> {
        // Looked at on every pass of the host's loop: compared in place, cloned only when new.
        let now = lock(&self.state);
        if *now == self.seen {
            return None;
        }
        self.seen = now.clone();
        Some(self.seen.clone())
    }
}

impl Drop for PortMapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let Some(thread) = self.thread.take() else { return };
        let since = Instant::now();
        while !thread.is_finished() && since.elapsed() < REMOVE_WAIT + LOOK_EVERY {
            std::thread::sleep(LOOK_EVERY / 4);
        }
        if thread.is_finished() {
            let _ = thread.join();
        }
    }
}

fn lock(state: &Mutex<MappingState>) -> std::sync::MutexGuard<'_, MappingState> {
    // Only whole states are written: one left by a panic is as good as any.
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A router's mapping held open: how to renew it and remove it.
enum Held {
    Upnp { gateway: igd_next::Gateway, lease: u32 },
    NatPmp { gateway: std::net::Ipv4Addr },
}

/// The mapping thread: asks, renews at half the lease, removes at the end.
fn keep_mapped(local: SocketAddr, state: &Mutex<MappingState>, stop: &AtomicBool) {
    let mut held: Option<(Held, PortMapping)> = None;
    let mut renew_at = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        if Instant::now() >= renew_at {
            let asked = match held.take() {
                Some((Held::Upnp { gateway, lease }, mapping)) => {
                    upnp_add(&gateway, local, mapping.public_port, lease)
                        .map(|()| (Held::Upnp { gateway, lease }, mapping))
                        .or_else(|_| map(local))
                }
                Some((Held::NatPmp { .. }, _)) | None => map(local),
            };
            let next = match asked {
                Ok((how, mapping)) => {
                    *lock(state) = MappingState::Mapped(mapping);
                    held = Some((how, mapping));
                    Duration::from_secs(u64::from(LEASE_SECONDS / 2))
                }
                Err(why) => {
                    *lock(state) = MappingState::Unavailable(why);
                    // A router that said no is asked again later, not hammered.
                    Duration::from_secs(u64::from(LEASE_SECONDS / 4))
                }
            };
            renew_at = Instant::now() + next;
        }
        std::thread::sleep(LOOK_EVERY);
    }
    match held {
        Some((Held::Upnp { gateway, .. }, mapping)) => {
            let _ = gateway.remove_port(PortMappingProtocol::UDP, mapping.public_port);
        }
        Some((Held::NatPmp { gateway }, mapping)) => {
            let _ = nat_pmp_request(gateway, local.port(), mapping.public_port, 0);
        }
        None => {}
    }
}

/// Asks by UPnP, then by NAT-PMP: the mapping, or why neither gave one.
fn map(local: SocketAddr) -> Result<(Held, PortMapping), String> {
    match map_upnp(local) {
        Ok(mapped) => Ok(mapped),
        Err(upnp) => map_nat_pmp(local).map_err(|pmp| format!("{upnp}; {pmp}")),
    }
}

fn map_upnp(local: SocketAddr) -> Result<(Held, PortMapping), String> {
    let mut options = SearchOptions::default();
    options.bind_addr = SocketAddr::new(local.ip(), 0);
    options.timeout = Some(SEARCH_TIMEOUT);
    options.single_search_timeout = Some(SEARCH_TIMEOUT);
    let gateway =
        igd_next::search_gateway(options).map_err(|e| format!("no UPnP router answered ({e})"))?;
    let mut lease = LEASE_SECONDS;
    let port = match upnp_add(&gateway, local, local.port(), lease) {
        Ok(()) => local.port(),
        Err(AddPortError::OnlyPermanentLeasesSupported) => {
            lease = 0;
            upnp_add(&gateway, local, local.port(), lease)
                .map(|()| local.port())
                .map_err(|e| format!("the UPnP router at {} refused: {e}", gateway.addr))?
        }
        Err(AddPortError::PortInUse | AddPortError::SamePortValuesRequired) => gateway
            .add_any_port(PortMappingProtocol::UDP, local, lease, DESCRIPTION)
            .map_err(|e| format!("the UPnP router at {} refused: {e}", gateway.addr))?,
        Err(e) => return Err(format!("the UPnP router at {} refused: {e}", gateway.addr)),
    };
    let public_ip = gateway.get_external_ip().ok().filter(|ip| is_public(*ip));
    let mapping = PortMapping { public_ip, public_port: port, protocol: MappingProtocol::UpnpIgd };
    Ok((Held::Upnp { gateway, lease }, mapping))
}

/// What the router's table says the mapping is for.
const DESCRIPTION: &str = "Fixstep host";

fn upnp_add(
    gateway: &igd_next::Gateway,
    local: SocketAddr,
    port: u16,
    lease: u32,
) -> Result<(), AddPortError> {
    gateway.add_port(PortMappingProtocol::UDP, port, local, lease, DESCRIPTION)
}

fn map_nat_pmp(local: SocketAddr) -> Result<(Held, PortMapping), String> {
    let gateway = natpmp::get_default_gateway()
        .map_err(|e| format!("no NAT-PMP router (no default gateway: {e:?})"))?;
    let port = nat_pmp_request(gateway, local.port(), local.port(), LEASE_SECONDS)?;
    let public_ip = nat_pmp_public_ip(gateway).filter(|ip| is_public(*ip));
    let mapping = PortMapping { public_ip, public_port: port, protocol: MappingProtocol::NatPmp };
    Ok((Held::NatPmp { gateway }, mapping))
}

/// One NAT-PMP mapping request (`lifetime` 0 removes it): the public port the router gave.
fn nat_pmp_request(
    gateway: std::net::Ipv4Addr,
    private: u16,
    public: u16,
    lifetime: u32,
) -> Result<u16, String> {
    let mut client = natpmp::Natpmp::new_with(gateway)
        .map_err(|e| format!("no NAT-PMP router at {gateway} ({e:?})"))?;
    client
        .send_port_mapping_request(natpmp::Protocol::UDP, private, public, lifetime)
        .map_err(|e| format!("no NAT-PMP router at {gateway} ({e:?})"))?;
    match nat_pmp_answer(&mut client) {
        Some(natpmp::Response::UDP(mapped)) => Ok(mapped.public_port()),
        Some(_) | None => Err(format!("no NAT-PMP router answered at {gateway}")),
    }
}

fn nat_pmp_public_ip(gateway: std::net::Ipv4Addr) -> Option<IpAddr> {
    let mut client = natpmp::Natpmp::new_with(gateway).ok()?;
    client.send_public_address_request().ok()?;
    match nat_pmp_answer(&mut client)? {
        natpmp::Response::Gateway(answer) => Some(IpAddr::V4(*answer.public_address())),
        _ => None,
    }
}

/// The router's answer, within [`NAT_PMP_TIMEOUT`].
fn nat_pmp_answer(client: &mut natpmp::Natpmp) -> Option<natpmp::Response> {
    let since = Instant::now();
    while since.elapsed() < NAT_PMP_TIMEOUT {
        match client.read_response_or_retry() {
            Ok(response) => return Some(response),
            Err(natpmp::Error::NATPMP_TRYAGAIN) => std::thread::sleep(LOOK_EVERY / 4),
            Err(_) => return None,
        }
    }
    None
}

/// Whether `ip` is reached from the internet: not private, loopback, link-local, shared
/// (carrier-grade NAT) or unspecified. A router behind another NAT says such an address.
#[must_use]
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let shared = v4.octets()[0] == 100 && (64..128).contains(&v4.octets()[1]);
            !(v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || shared)
        }
        IpAddr::V6(v6) => !(v6.is_loopback() || v6.is_unspecified()),
    }
}
