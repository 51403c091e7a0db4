//! A headless host's Agones lifecycle (`fixstep host --headless --agones`): Ready once it
//! listens, Health from its tick loop, its players in the GameServer's `players` List as they
//! join and leave, Allocated awaited when asked, and Shutdown when the match ends.
//!
//! It speaks to the Agones SDK sidecar through the sidecar's HTTP gateway (the SDK's own
//! REST interface, on `AGONES_SDK_HTTP_PORT`, which Agones sets), the same calls the gRPC
//! SDKs make: a few requests a second on loopback need no gRPC stack or async runtime, and
//! the host stays one small binary.
//!
//! The calls go from a thread of their own, in order, so that a slow or absent sidecar never
//! holds up a tick. A call that fails is logged and tried again, [`RETRY_MICROS`] later and
//! then less often, until it goes through or the host ends: the sidecar may start after the
//! host, and a match in progress must never stop for its orchestrator. Only health reports
//! are not retried: the next one is on its way within a second, and a stale one says nothing.
//!
//! An integration test (`tests/tests/agones.rs`) runs a host against a sidecar of its own on
//! loopback and checks the calls, their order and the players.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result};

/// The sidecar's HTTP port unless `AGONES_SDK_HTTP_PORT` says otherwise: Agones' default.
const DEFAULT_HTTP_PORT: u16 = 9358;

/// The first wait before a failed call is tried again, microseconds: 250 ms, quick enough
/// for a sidecar that is starting up beside the host.
pub const RETRY_MICROS: u64 = 250_000;

/// The longest wait between tries, microseconds: 5 s, within Agones' default health period
/// (5 s), so a sidecar that comes back hears from the host at once.
const MAX_RETRY_MICROS: u64 = 5_000_000;

/// How long the calls still queued when the match ends get to go through, microseconds: 5 s.
/// The sidecar answers in milliseconds; one away that long is not back before Kubernetes'
/// default grace of 30 s runs out, and the host must still exit.
const SHUTDOWN_GRACE_MICROS: u64 = 5_000_000;

/// How long one request may take, microseconds: 2 s. The sidecar is on loopback and answers
/// in milliseconds; one that does not is down, and the call is tried again.
const REQUEST_TIMEOUT_MICROS: u64 = 2_000_000;

/// How often the thread looks for a health report to pass on, and for the allocation while
/// waiting for it, microseconds: 250 ms, well within Agones' health period.
const POLL_MICROS: u64 = 250_000;

/// The name of the GameServer port players connect to, in the Fleet's template.
pub const GAME_PORT_NAME: &str = "game";

/// How long a host under Agones asks the sidecar where players reach it before it binds,
/// microseconds: 10 s, for a sidecar starting beside it. Without the answer, players who
/// connect to the node's address are refused (their connect tokens name it).
const ADDRESS_WAIT_MICROS: u64 = 10_000_000;

/// The GameServer List the players' names go in: declared in the Fleet's template, with the
/// match's seats as its capacity.
pub const PLAYERS_LIST: &str = "players";

/// What the host asks of the sidecar.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Call {
    /// The server listens and can be allocated.
    Ready,
    /// The tick loop is running (passed on from [`Agones::health`], not queued).
    Health,
    /// A player joined, by name.
    PlayerIn(String),
    /// A player left, by name.
    PlayerOut(String),
    /// The match is over: Agones may delete the server.
    Shutdown,
}

impl Call {
    /// The method, path and JSON body of the REST call.
    fn request(&self) -> (&'static str, String, String) {
        let value = |name: &str| serde_json::json!({ "value": name }).to_string();
        match self {
            Self::Ready => ("POST", "/ready".to_owned(), "{}".to_owned()),
            Self::Health => ("POST", "/health".to_owned(), "{}".to_owned()),
            Self::PlayerIn(name) => {
                ("POST", format!("/v1beta1/lists/{PLAYERS_LIST}:addValue"), value(name))
            }
            Self::PlayerOut(name) => {
                ("POST", format!("/v1beta1/lists/{PLAYERS_LIST}:removeValue"), value(name))
            }
            Self::Shutdown => ("POST", "/shutdown".to_owned(), "{}".to_owned()),
        }
    }
}

/// The sidecar's HTTP gateway.
struct Sidecar {
    agent: ureq::Agent,
    base: String,
}

impl Sidecar {
    fn new(port: u16) -> Self {
        let timeout = Some(Duration::from_micros(REQUEST_TIMEOUT_MICROS));
        let agent = ureq::Agent::config_builder().timeout_global(timeout).build().into();
        Self { agent, base: format!("http://127.0.0.1:{port}") }
    }

    /// Makes `call`; the error says which call and why.
    fn call(&self, call: &Call) -> Result<()> {
        let (method, path, body) = call.request();
        let url = format!("{}{path}", self.base);
        let sent = match method {
            "POST" => self.agent.post(&url).content_type("application/json").send(&body),
            _ => self.agent.get(&url).call(),
        };
        sent.map(drop).with_context(|| format!("Agones {method} {path}"))
    }

    /// The GameServer, as JSON.
    fn game_server(&self) -> Result<serde_json::Value> {
        let url = format!("{}/gameserver", self.base);
        let text = self
            .agent
            .get(&url)
            .call()
            .and_then(|mut r| r.body_mut().read_to_string())
            .context("Agones GET /gameserver")?;
        serde_json::from_str(&text).context("Agones GET /gameserver: not JSON")
    }

    /// The GameServer's state (`Ready`, `Allocated`, ...).
    fn state(&self) -> Result<String> {
        let server = self.game_server()?;
        Ok(server["status"]["state"].as_str().unwrap_or_default().to_owned())
    }
}

/// The host's link to Agones; see the [module documentation](self).
pub struct Agones {
    calls: Sender<Call>,
    /// Shared with the thread; see [`Shared`].
    shared: Arc<Shared>,
    /// The players last reported in, by name.
    players: Vec<String>,
    thread: Option<JoinHandle<()>>,
    /// The sidecar's HTTP port.
    port: u16,
}

/// What the host and the thread share.
#[derive(Debug, Default)]
struct Shared {
    /// The server has been allocated (set from the start unless waiting for it).
    allocated: AtomicBool,
    /// The tick loop reported in since the last health call: health reports are passed on
    /// at most every [`POLL_MICROS`], never queued behind a call being retried.
    healthy: AtomicBool,
    /// Calls that failed, tries counted.
    failures: AtomicU64,
}

impl std::fmt::Debug for Agones {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agones").field("players", &self.players).finish_non_exhaustive()
    }
}

impl Agones {
    /// The sidecar at `AGONES_SDK_HTTP_PORT` (9358 if unset), to be told of this server from a
    /// thread of its own; with `wait_for_allocation`, it also watches for the allocation once
    /// Ready. Nothing is said yet.
    ///
    /// # Errors
    ///
    /// If `AGONES_SDK_HTTP_PORT` is not a port.
    pub fn start(wait_for_allocation: bool) -> Result<Self> {
        let port = match std::env::var("AGONES_SDK_HTTP_PORT") {
            Ok(text) => text
                .trim()
                .parse()
                .with_context(|| format!("AGONES_SDK_HTTP_PORT={text:?} is not a port"))
                .map_err(super::bad_input)?,
            Err(_) => DEFAULT_HTTP_PORT,
        };
        let (calls, waiting) = channel();
        let shared = Arc::new(Shared::default());
        shared.allocated.store(!wait_for_allocation, Ordering::Relaxed);
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || serve(&Sidecar::new(port), &waiting, &shared))
        };
        Ok(Self { calls, shared, players: Vec::new(), thread: Some(thread), port })
    }

    /// Where players reach this server, as Agones says: the node's address
    /// (`status.address`) and the port it maps to the container's (the port named
    /// [`GAME_PORT_NAME`], else the first). Asked until the sidecar answers, for at most
    /// [`ADDRESS_WAIT_MICROS`]; `None` if it does not say.
    #[must_use]
    pub fn public_address(&self) -> Option<SocketAddr> {
        let sidecar = Sidecar::new(self.port);
        let start = std::time::Instant::now();
        let mut wait = RETRY_MICROS;
        let server = loop {
            match sidecar.game_server() {
                Ok(server) => break server,
                Err(error) if start.elapsed() < Duration::from_micros(ADDRESS_WAIT_MICROS) => {
                    self.shared.failures.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!("{error:#}; trying again");
                    std::thread::sleep(Duration::from_micros(wait));
                    wait = (wait * 2).min(MAX_RETRY_MICROS);
                }
                Err(error) => {
                    tracing::warn!("{error:#}; going on without the public address");
                    return None;
                }
            }
        };
        let status = &server["status"];
        let ip: IpAddr = status["address"].as_str()?.parse().ok()?;
        let ports = status["ports"].as_array()?;
        let game = ports.iter().find(|p| p["name"] == GAME_PORT_NAME).or_else(|| ports.first())?;
        let port = u16::try_from(game["port"].as_u64()?).ok()?;
        Some(SocketAddr::new(ip, port))
    }

    /// Says Ready: the server listens and can be allocated.
    pub fn ready(&self) {
        self.send(Call::Ready);
        tracing::info!("Agones: ready (the sidecar on port {})", self.port);
    }

    fn send(&self, call: Call) {
        // The thread ends only after Shutdown: nothing is lost before.
        let _ = self.calls.send(call);
    }

    /// Whether the server has been allocated (always, unless told to wait for it).
    #[must_use]
    pub fn allocated(&self) -> bool {
        self.shared.allocated.load(Ordering::Relaxed)
    }

    /// The tick loop is alive: call it from the loop itself, so a stalled loop stops it.
    pub fn health(&self) {
        self.shared.healthy.store(true, Ordering::Relaxed);
    }

    /// The players connected now, by name: those new are reported in, those gone out.
    pub fn players(&mut self, now: &[&str]) {
        for gone in self.players.iter().filter(|p| !now.contains(&p.as_str())) {
            self.send(Call::PlayerOut(gone.clone()));
        }
        for new in now.iter().filter(|n| !self.players.iter().any(|p| p == *n)) {
            self.send(Call::PlayerIn((*new).to_owned()));
        }
        self.players = now.iter().map(|&n| n.to_owned()).collect();
    }

    /// The match is over: reports the players out, asks for Shutdown, and waits up to
    /// [`SHUTDOWN_GRACE_MICROS`] for the calls still queued to go through. Returns how many
    /// tries failed.
    pub fn shutdown(mut self) -> u64 {
        self.players(&[]);
        self.send(Call::Shutdown);
        let grace = std::time::Instant::now() + Duration::from_micros(SHUTDOWN_GRACE_MICROS);
        if let Some(thread) = self.thread.take() {
            while !thread.is_finished() && std::time::Instant::now() < grace {
                std::thread::sleep(Duration::from_micros(POLL_MICROS / 10));
            }
            if thread.is_finished() {
                // A panicked thread has nothing left to send.
                let _ = thread.join();
            } else {
                tracing::warn!(
                    "Agones: gave up on the sidecar after {} s; exiting without its \
                     Shutdown",
                    SHUTDOWN_GRACE_MICROS / 1_000_000
                );
            }
        }
        self.shared.failures.load(Ordering::Relaxed)
    }
}

/// The thread that makes the calls, in order, until Shutdown went through.
fn serve(sidecar: &Sidecar, calls: &Receiver<Call>, shared: &Shared) {
    let failed = |error: &anyhow::Error| {
        shared.failures.fetch_add(1, Ordering::Relaxed);
        tracing::warn!("{error:#}; trying again");
    };
    let poll = Duration::from_micros(POLL_MICROS);
    let mut ready = false;
    loop {
        let call = match calls.recv_timeout(poll) {
            Ok(call) => Some(call),
            Err(RecvTimeoutError::Timeout) => None,
            // The host is gone without a Shutdown (it failed): nothing more to say.
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if ready && shared.healthy.swap(false, Ordering::Relaxed) {
            // Not retried: the next report is on its way.
            if let Err(error) = sidecar.call(&Call::Health) {
                failed(&error);
            }
        }
        if ready && !shared.allocated.load(Ordering::Relaxed) {
            match sidecar.state() {
                Ok(state) if state == "Allocated" => {
                    tracing::info!("Agones: allocated");
                    shared.allocated.store(true, Ordering::Relaxed);
                }
                Ok(_) => {}
                Err(error) => failed(&error),
            }
        }
        let Some(call) = call else { continue };
        let mut wait = RETRY_MICROS;
        while let Err(error) = sidecar.call(&call) {
            failed(&error);
            std::thread::sleep(Duration::from_micros(wait));
            wait = (wait * 2).min(MAX_RETRY_MICROS);
        }
        ready |= call == Call::Ready;
        if call == Call::Shutdown {
            tracing::info!("Agones: shut down");
            return;
        }
    }
}
