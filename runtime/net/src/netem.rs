//! A link conditioner: a UDP proxy that delays, jitters, drops, duplicates and reorders the
//! datagrams between clients and the address it forwards to, both ways, for tests and for
//! players who want to try a bad link on loopback.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use fixstep_runtime::rng::SimRng;

use crate::NetError;
use crate::wire::{IPV4_UDP_HEADER_BYTES, IPV6_UDP_HEADER_BYTES};

/// The random-number stream of the conditioner.
const NETEM_RNG_STREAM: u64 = 0x6e65_7465;

/// The largest datagram it carries, bytes: any UDP payload.
const MAX_DATAGRAM: usize = 65_536;

/// How long the conditioner sleeps when nothing is due, microseconds: 0.5 ms, far finer than
/// any delay it is asked for.
const IDLE_MICROS: u64 = 500;

/// A client silent this long is forgotten and its upstream socket closed, seconds: a peer
/// gone a minute has long been dropped by the host, and a proxy left running for days must not
/// keep a socket for every peer that ever came.
pub const CLIENT_IDLE_SECONDS: u64 = 60;

/// Percent in one.
const PERCENT: u32 = 100;

/// What the conditioner does to every datagram, each way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetemConfig {
    /// Delay, milliseconds.
    pub delay_ms: u32,
    /// Extra delay drawn evenly from 0 to this, milliseconds.
    pub jitter_ms: u32,
    /// Chance a datagram is lost, percent.
    pub loss_percent: u32,
    /// Chance a datagram is sent twice, percent.
    pub duplicate_percent: u32,
    /// Chance a datagram is held back a further delay, so later ones overtake it, percent.
    pub reorder_percent: u32,
    /// Seed of its chances.
    pub seed: u64,
}

/// Counts of what the conditioner did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetemCounts {
    /// Datagrams forwarded.
    pub forwarded: u64,
    /// Lost on purpose.
    pub lost: u64,
    /// Duplicated.
    pub duplicated: u64,
    /// Held back to be overtaken.
    pub reordered: u64,
    /// What arrived from the clients (peers), bound for the host.
    pub up: Traffic,
    /// What arrived from the host, bound for the clients.
    pub down: Traffic,
}

/// Datagrams and their bytes, with the IP and UDP headers they carried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Datagrams.
    pub datagrams: u64,
    /// Bytes, headers included.
    pub bytes: u64,
}

impl Traffic {
    fn count(&mut self, len: usize, from: &SocketAddr) {
        let headers = if from.is_ipv4() { IPV4_UDP_HEADER_BYTES } else { IPV6_UDP_HEADER_BYTES };
        self.datagrams += 1;
        self.bytes += len as u64 + headers;
    }
}

/// A client of the conditioner (keyed by its address): the socket it talks upstream through.
struct Client {
    upstream: UdpSocket,
    last_heard: Instant,
}

/// A datagram waiting to go out (the schedule keys it by when it is due, then by order).
struct Pending {
    bytes: Vec<u8>,
    /// Up to the forwarded address through the client's upstream socket, or back down to the
    /// client through the listening socket.
    to_upstream: bool,
    /// The client's address: a datagram whose client was forgotten meanwhile is lost.
    client: SocketAddr,
}

/// The datagrams on their way, and the chances that decide their fate.
struct Schedule {
    config: NetemConfig,
    pending: BTreeMap<(Instant, u64), Pending>,
    order: u64,
    rng: SimRng,
    counts: NetemCounts,
}

impl Schedule {
    fn chance(&mut self, percent: u32) -> bool {
        percent > 0 && self.rng.below(PERCENT) < percent
    }

    fn delay(&mut self) -> Duration {
        let jitter =
            if self.config.jitter_ms == 0 { 0 } else { self.rng.below(self.config.jitter_ms + 1) };
        Duration::from_millis(u64::from(self.config.delay_ms + jitter))
    }

    /// Schedules `bytes`, arrived at `now`, as the link would carry them: lost, or delayed
    /// (once, or twice if duplicated), and held back further if reordered.
    fn add(&mut self, now: Instant, bytes: &[u8], to_upstream: bool, client: SocketAddr) {
        if self.chance(self.config.loss_percent) {
            self.counts.lost += 1;
            return;
        }
        let copies = if self.chance(self.config.duplicate_percent) {
            self.counts.duplicated += 1;
            2
        } else {
            1
        };
        for _ in 0..copies {
            let mut due = now + self.delay();
            if self.chance(self.config.reorder_percent) {
                self.counts.reordered += 1;
                due += self.delay().max(Duration::from_millis(1));
            }
            self.order += 1;
            self.pending
                .insert((due, self.order), Pending { bytes: bytes.to_vec(), to_upstream, client });
        }
    }
}

/// The link conditioner; see the documentation of its module.
pub struct Netem {
    listen: UdpSocket,
    forward: SocketAddr,
    clients: BTreeMap<SocketAddr, Client>,
    schedule: Schedule,
    buffer: Vec<u8>,
}

impl std::fmt::Debug for Netem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Netem")
            .field("config", &self.schedule.config)
            .field("forward", &self.forward)
            .field("counts", &self.schedule.counts)
            .finish_non_exhaustive()
    }
}

/// A socket for a new client to talk to `forward` through.
fn upstream_socket(forward: SocketAddr) -> Result<UdpSocket, NetError> {
    let any: SocketAddr = if forward.is_ipv4() {
        SocketAddr::from(([0, 0, 0, 0], 0))
    } else {
        SocketAddr::from(([0u16; 8], 0))
    };
    let upstream = UdpSocket::bind(any).map_err(|e| NetError::Bind { addr: any, source: e })?;
    upstream.set_nonblocking(true).map_err(|e| NetError::Bind { addr: any, source: e })?;
    Ok(upstream)
}

impl Netem {
    /// A conditioner listening on `listen`, forwarding to `forward`.
    ///
    /// # Errors
    ///
    /// If the socket cannot be bound.
    pub fn bind(
        listen: SocketAddr,
        forward: SocketAddr,
        config: NetemConfig,
    ) -> Result<Self, NetError> {
        let socket =
            UdpSocket::bind(listen).map_err(|e| NetError::Bind { addr: listen, source: e })?;
        socket.set_nonblocking(true).map_err(|e| NetError::Bind { addr: listen, source: e })?;
        Ok(Self {
            listen: socket,
            forward,
            clients: BTreeMap::new(),
            schedule: Schedule {
                config,
                pending: BTreeMap::new(),
                order: 0,
                rng: SimRng::new(config.seed, NETEM_RNG_STREAM),
                counts: NetemCounts::default(),
            },
            buffer: vec![0; MAX_DATAGRAM],
        })
    }

    /// Where it listens.
    ///
    /// # Errors
    ///
    /// If the socket cannot say.
    pub fn local_addr(&self) -> Result<SocketAddr, NetError> {
        self.listen.local_addr().map_err(|e| NetError::Io { what: "netem's address", source: e })
    }

    /// What it did so far.
    #[must_use]
    pub const fn counts(&self) -> NetemCounts {
        self.schedule.counts
    }

    /// The clients it keeps an upstream socket for: those heard from in the last
    /// [`CLIENT_IDLE_SECONDS`].
    #[must_use]
    pub fn clients(&self) -> usize {
        self.clients.len()
    }

    /// Moves every datagram that arrived into the schedule, sends every one that is due,
    /// forgets the clients silent for [`CLIENT_IDLE_SECONDS`], and returns how long until the
    /// next datagram is due (at most a short idle).
    ///
    /// # Errors
    ///
    /// If a socket fails other than by having nothing to read, or a new client's upstream
    /// socket cannot be bound.
    pub fn poll(&mut self, now: Instant) -> Result<Duration, NetError> {
        loop {
            match self.listen.recv_from(&mut self.buffer) {
                Ok((len, from)) => {
                    match self.clients.entry(from) {
                        Entry::Occupied(client) => client.into_mut().last_heard = now,
                        Entry::Vacant(slot) => {
                            let upstream = upstream_socket(self.forward)?;
                            slot.insert(Client { upstream, last_heard: now });
                        }
                    }
                    self.schedule.counts.up.count(len, &from);
                    self.schedule.add(now, &self.buffer[..len], true, from);
                }
                Err(e) if would_block(&e) => break,
                Err(e) => return Err(NetError::Io { what: "netem's listening socket", source: e }),
            }
        }
        for (&addr, client) in &self.clients {
            loop {
                match client.upstream.recv_from(&mut self.buffer) {
                    Ok((len, from)) => {
                        self.schedule.counts.down.count(len, &from);
                        self.schedule.add(now, &self.buffer[..len], false, addr);
                    }
                    Err(e) if would_block(&e) => break,
                    Err(e) => {
                        return Err(NetError::Io { what: "netem's upstream socket", source: e });
                    }
                }
            }
        }
        while let Some(entry) = self.schedule.pending.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let datagram = entry.remove();
            let Some(client) = self.clients.get(&datagram.client) else { continue };
            // A datagram that cannot go out now is as lost as on a real link.
            let _ = if datagram.to_upstream {
                client.upstream.send_to(&datagram.bytes, self.forward)
            } else {
                self.listen.send_to(&datagram.bytes, datagram.client)
            };
            self.schedule.counts.forwarded += 1;
        }
        let idle = Duration::from_secs(CLIENT_IDLE_SECONDS);
        self.clients.retain(|_, c| now.saturating_duration_since(c.last_heard) < idle);
        let next =
            self.schedule.pending.keys().next().map(|(due, _)| due.saturating_duration_since(now));
        Ok(next.unwrap_or(Duration::MAX).min(Duration::from_micros(IDLE_MICROS)))
    }

    /// Runs until `stop` says so, sleeping between datagrams.
    ///
    /// # Errors
    ///
    /// If a socket fails.
    pub fn run(&mut self, mut stop: impl FnMut() -> bool) -> Result<(), NetError> {
        while !stop() {
            let wait = self.poll(Instant::now())?;
            std::thread::sleep(wait);
        }
        Ok(())
    }
}

fn would_block(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
}
