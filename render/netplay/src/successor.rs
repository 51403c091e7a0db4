//! A player that takes its match over when its host goes: it hosts apart from its own
//! player, on a thread of the player's process, and its player turns to it as every other does.
//!
//! A player offers to host on a socket it binds as it is welcomed and keeps unread until then
//! ([`HostSocket`]), so the address it offered is its own whenever the day comes, and the
//! others' hellos wait in the socket's buffer until its host reads them. The host is a
//! headless host of the takeover ([`NetHost::succeeding`]) served from a thread
//! ([`SuccessorHost`]); its own player claims its seat over the loopback like the others, so
//! a player's loop is the same whether it hosts next or not.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use fixstep_net::WallClock;
use fixstep_net::lan::LAN_PORTS;
use fixstep_net::relay::TurnServer;
use fixstep_runtime::tick::TICK_MICROS;

use crate::host::GOODBYE_GRACE_MICROS;
use crate::schedule::{HostSchedule, SERVE_MICROS};
use crate::{NetHost, NetPlayError, NetRules};

/// Where a player offers to host its match if the host goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostOffer {
    /// The UDP port to host on (`None`: one the system gives).
    pub port: Option<u16>,
    /// The address the others are told to reach it at (`None`: this machine's address
    /// towards the host, with the port): a public address, a port forwarded on a router, a
    /// link conditioner in front of it.
    pub at: Option<SocketAddr>,
    /// Whether to ask this machine's router to forward the port (UPnP IGD, NAT-PMP) once it
    /// hosts, so that friends on other networks reach it there: for a match joined across
    /// routers. Never for a socket offered on the loopback.
    pub map_port: bool,
    /// The TURN relay it allocates an address on once it hosts, for the players whose
    /// routers let nothing direct through to it: its player's own relay, offered with the
    /// match's code (a host's credentials stay its own).
    pub turn: Option<TurnServer>,
}

/// The socket a player would host on, bound and kept, and the address it offers for it.
#[derive(Debug)]
pub(crate) struct HostSocket {
    pub(crate) socket: UdpSocket,
    pub(crate) at: SocketAddr,
}

impl HostSocket {
    /// A socket on every address of the family of `host`, on the port `offer` names (or the
    /// first free one the LAN list asks on, so that the match is found there under its new
    /// host, or else one the system gives), offered at the address `offer` names or the one
    /// this machine reaches `host` from (its LAN address for a host on the LAN, the loopback
    /// for one on the loopback). `None` if there is none, or the port named is taken (said in
    /// the log).
    pub(crate) fn reserve(host: SocketAddr, offer: &HostOffer) -> Option<Self> {
        let any: IpAddr = if host.is_ipv4() {
            Ipv4Addr::UNSPECIFIED.into()
        } else {
            Ipv6Addr::UNSPECIFIED.into()
        };
        // Connecting a datagram socket sends nothing: it only picks the route.
        let probe = UdpSocket::bind((any, 0)).ok()?;
        probe.connect(host).ok()?;
        let route = probe.local_addr().ok()?.ip();
        if route.is_unspecified() {
            return None;
        }
        let socket = match offer.port {
            Some(port) => UdpSocket::bind((any, port))
                .map_err(|error| {
                    tracing::warn!(
                        "cannot keep port {port} to host the match if its host goes: {error}"
                    );
                })
                .ok()?,
            None => LAN_PORTS
                .map(|port| UdpSocket::bind((any, port)))
                .find_map(Result::ok)
                .or_else(|| UdpSocket::bind((any, 0)).ok())?,
        };
        let port = socket.local_addr().ok()?.port();
        Some(Self { socket, at: offer.at.unwrap_or(SocketAddr::new(route, port)) })
    }
}

/// A successor's host, served from a thread of its own until it is dropped (its player
/// leaving): then it hands the match over to the next successor, or ends it.
pub struct SuccessorHost {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for SuccessorHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SuccessorHost").finish_non_exhaustive()
    }
}

impl SuccessorHost {
    /// Serves `host` from a thread, its clock at 0 now (the takeover's time).
    pub(crate) fn start<G: NetRules>(host: NetHost<G>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("successor host".into())
            .spawn(move || {
                if let Err(error) = serve(host, &stopping) {
                    tracing::warn!("the match's host on this machine stopped: {error}");
                }
            })
            .map_err(|error| tracing::warn!("cannot host the match: {error}"))
            .ok();
        Self { stop, thread }
    }
}

impl Drop for SuccessorHost {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            // A thread that panicked has said so on its way out.
            let _ = thread.join();
        }
    }
}

/// A headless host's loop, without a player of its own: what arrived, then the ticks due
/// (none while it gathers the players' claims), then what to send, until it is told to stop
/// (it hands the match over) or finds it was succeeded.
fn serve<G: NetRules>(mut host: NetHost<G>, stop: &AtomicBool) -> Result<(), NetPlayError> {
    let clock = WallClock::new();
    let mut last = clock.now_micros();
    let mut schedule: Option<HostSchedule> = None;
    loop {
        let now = clock.now_micros();
        host.receive(now - last, now)?;
        last = now;
        for news in host.drain_news() {
            tracing::info!("{news}");
        }
        if host.superseded() {
            return Ok(());
        }
        if !host.gathering() {
            // The first tick at once: the players have waited out the silence already.
            let schedule = schedule
                .get_or_insert_with(|| HostSchedule::starting_at(now.saturating_sub(TICK_MICROS)));
            while schedule.take_due(now) {
                host.run_tick(None)?;
            }
        }
        host.send();
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let due = schedule.as_ref().map(HostSchedule::next_due_micros);
        let wake = [Some(now + SERVE_MICROS), due, host.poll_timeout()];
        let until = wake.into_iter().flatten().min().unwrap_or(now);
        std::thread::sleep(std::time::Duration::from_micros(until.saturating_sub(now)));
    }
    // Its player left: the others go on with the next host, told at once.
    host.hand_over()?;
    let farewell_until = clock.now_micros() + GOODBYE_GRACE_MICROS;
    while clock.now_micros() < farewell_until {
        let now = clock.now_micros();
        host.receive(now - last, now)?;
        last = now;
        host.send();
        std::thread::sleep(std::time::Duration::from_micros(SERVE_MICROS));
    }
    host.shut_down();
    Ok(())
}
