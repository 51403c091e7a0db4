//! What an operator watches of a running host: its players, ticks, lateness, wire traffic and
//! what it refused, as Prometheus metrics served over HTTP at `/metrics`.
//!
//! The host's loop writes the metrics (atomic counters and gauges, and a histogram behind a
//! short lock) once a tick; a thread of the server's own reads and encodes them for each
//! scrape, so a scrape, however slow its client, never holds up a tick. The series and their
//! meaning are listed in `docs/FORMATS.md` ("Metrics").

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use fixstep_net::{Reads, Reason, WireCounts};
use fixstep_runtime::net::DropCounts;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use crate::{HostGame, NetHost, NetPlayError, NetRules};

/// The upper bounds of the tick lateness histogram's buckets, seconds: from a quarter of a
/// millisecond (a host that keeps time, looking at its socket every 2 ms, is mostly within
/// 2 ms) to ten seconds (a host stalled for a hundred ticks), about doubling, so that both a
/// healthy host's spread and a stall are told apart.
const LATENESS_BUCKETS_SECONDS: [f64; 15] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.003, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 10.0,
];

/// The `Content-Type` of a scrape's answer: the OpenMetrics text format that the
/// `prometheus-client` crate writes, which Prometheus reads.
pub const METRICS_CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The path the metrics are served at.
pub const METRICS_PATH: &str = "/metrics";

/// A counter that mirrors a total kept elsewhere: raised to it, never lowered.
fn raise_to(counter: &Counter, total: u64) {
    counter.inc_by(total.saturating_sub(counter.get()));
}

/// A gauge set to a count.
fn set_count(gauge: &Gauge, count: usize) {
    gauge.set(i64::try_from(count).unwrap_or(i64::MAX));
}

/// A host's metrics: cheap to clone (every clone writes the same series).
#[derive(Clone, Debug)]
pub struct HostMetrics {
    registry: Arc<Registry>,
    players: Gauge,
    spectators: Gauge,
    seats_in_grace: Gauge,
    ticks: Counter,
    tick_lateness: Histogram,
    late_inputs: Counter,
    desyncs: Counter,
    resyncs: Counter,
    /// Messages the session dropped, by [`DropCounts`]'s reasons in the order of
    /// [`DROP_REASONS`].
    session_drops: [Counter; 4],
    /// Datagrams read, by [`Reason`] in [`Reason::ALL`]'s order.
    datagrams_received: Vec<Counter>,
    datagrams_sent: Counter,
    bytes_received: Counter,
    bytes_sent: Counter,
}

/// The `reason` labels of the session's drops: what [`DropCounts`] counts.
const DROP_REASONS: [&str; 4] = ["refused", "out_of_place", "too_many_commands", "stale"];

impl Default for HostMetrics {
    fn default() -> Self {
        Self::new()
    }
}

impl HostMetrics {
    /// Every series at zero.
    #[must_use]
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("fixstep");
        let players = Gauge::default();
        registry.register(
            "players",
            "Players in the match: connected peers playing, and the host's own",
            players.clone(),
        );
        let spectators = Gauge::default();
        registry.register("spectators", "Spectators connected", spectators.clone());
        let seats_in_grace = Gauge::default();
        registry.register(
            "seats_in_grace",
            "Seats of players who left, kept for them to come back to",
            seats_in_grace.clone(),
        );
        let ticks = Counter::default();
        registry.register("ticks", "Ticks run", ticks.clone());
        let tick_lateness = Histogram::new(LATENESS_BUCKETS_SECONDS);
        registry.register_with_unit(
            "tick_lateness",
            "How long after its time on the 100 ms schedule each tick ran",
            Unit::Seconds,
            tick_lateness.clone(),
        );
        let late_inputs = Counter::default();
        registry.register(
            "late_inputs",
            "Players' inputs that missed their tick (their held input stood in)",
            late_inputs.clone(),
        );
        let desyncs = Counter::default();
        registry.register("desyncs", "Peers' state hashes that differed", desyncs.clone());
        let resyncs = Counter::default();
        registry.register("resyncs", "States sent to desynced peers", resyncs.clone());
        let drops = Family::<[(&'static str, &'static str); 1], Counter>::default();
        registry.register(
            "session_drops",
            "Messages of connected peers the session dropped, by reason",
            drops.clone(),
        );
        let session_drops =
            DROP_REASONS.map(|reason| drops.get_or_create(&[("reason", reason)]).clone());
        let received = Family::<[(&'static str, &'static str); 1], Counter>::default();
        registry.register(
            "wire_received_datagrams",
            "Datagrams the host's socket read, each under the one reason that settled it",
            received.clone(),
        );
        let datagrams_received = Reason::ALL
            .iter()
            .map(|reason| received.get_or_create(&[("reason", reason.name())]).clone())
            .collect();
        let datagrams_sent = Counter::default();
        registry.register(
            "wire_sent_datagrams",
            "Datagrams the host's socket sent",
            datagrams_sent.clone(),
        );
        let bytes_received = Counter::default();
        registry.register_with_unit(
            "wire_received",
            "Bytes the host's socket read, IP and UDP headers included",
            Unit::Bytes,
            bytes_received.clone(),
        );
        let bytes_sent = Counter::default();
        registry.register_with_unit(
            "wire_sent",
            "Bytes the host's socket sent, IP and UDP headers included",
            Unit::Bytes,
            bytes_sent.clone(),
        );
        Self {
            registry: Arc::new(registry),
            players,
            spectators,
            seats_in_grace,
            ticks,
            tick_lateness,
            late_inputs,
            desyncs,
            resyncs,
            session_drops,
            datagrams_received,
            datagrams_sent,
            bytes_received,
            bytes_sent,
        }
    }

    /// A tick ran `lateness_micros` after its time.
    pub fn tick_ran(&self, lateness_micros: u64) {
        self.ticks.inc();
        self.tick_lateness.observe(lateness_micros as f64 / 1e6);
    }

    /// Takes the game's counts: its players present (the host's own included) and the seats
    /// kept for those away, spectators, late inputs, desyncs, resyncs and the session's drops.
    pub fn observe_game<G: NetRules>(&self, game: &HostGame<G>) {
        set_count(&self.players, game.present_players());
        set_count(&self.seats_in_grace, game.seats_in_grace());
        set_count(&self.spectators, game.spectators());
        let stats = game.counts();
        raise_to(&self.late_inputs, stats.late_inputs);
        raise_to(&self.desyncs, stats.desyncs);
        raise_to(&self.resyncs, stats.resyncs);
        let DropCounts { refused, out_of_place, too_many, stale } = game.drops();
        for (counter, total) in
            self.session_drops.iter().zip([refused, out_of_place, too_many, stale])
        {
            raise_to(counter, total);
        }
    }

    /// Takes the socket's counts: what it sent and read, and why each read went where it did.
    pub fn observe_socket(&self, wire: &WireCounts, reads: &Reads) {
        raise_to(&self.datagrams_sent, wire.datagrams_sent);
        raise_to(&self.bytes_sent, wire.bytes_sent);
        raise_to(&self.bytes_received, wire.bytes_received);
        for (counter, (_, total)) in self.datagrams_received.iter().zip(reads.by_reason()) {
            raise_to(counter, total);
        }
    }

    /// Takes everything `host` counts ([`observe_game`](Self::observe_game) and
    /// [`observe_socket`](Self::observe_socket)).
    pub fn observe<G: NetRules>(&self, host: &NetHost<G>) {
        self.observe_game(host.game());
        self.observe_socket(&host.wire(), &host.reads());
    }

    /// The metrics now, in the OpenMetrics text format.
    #[must_use]
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    /// Serves the metrics over HTTP on `addr` (port 0: any free one) at [`METRICS_PATH`], from
    /// a thread of the server's own, until the returned server is dropped.
    ///
    /// # Errors
    ///
    /// If `addr` cannot be bound.
    pub fn serve(&self, addr: SocketAddr) -> Result<MetricsServer, NetPlayError> {
        let server = tiny_http::Server::http(addr)
            .map_err(|source| NetPlayError::Metrics { addr, source })?;
        let local = server.server_addr().to_ip().unwrap_or(addr);
        let server = Arc::new(server);
        let serving = Arc::clone(&server);
        let metrics = self.clone();
        let thread = std::thread::Builder::new()
            .name("metrics".to_owned())
            .spawn(move || serve_scrapes(&serving, &metrics))
            .map_err(NetPlayError::Thread)?;
        Ok(MetricsServer { addr: local, server, thread: Some(thread) })
    }
}

/// Answers every request until the server is unblocked: the metrics at [`METRICS_PATH`], 404
/// elsewhere. A scraper that went away before its answer is nothing to act on.
fn serve_scrapes(server: &tiny_http::Server, metrics: &HostMetrics) {
    let content_type = tiny_http::Header::from_bytes("Content-Type", METRICS_CONTENT_TYPE)
        .expect("a constant, valid header");
    for request in server.incoming_requests() {
        let path = request.url().split('?').next().unwrap_or_default();
        let _ = if path == METRICS_PATH {
            let answer = tiny_http::Response::from_string(metrics.encode())
                .with_header(content_type.clone());
            request.respond(answer)
        } else {
            request.respond(tiny_http::Response::from_string("not found\n").with_status_code(404))
        };
    }
}

/// The metrics' HTTP server; dropping it stops it.
pub struct MetricsServer {
    addr: SocketAddr,
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for MetricsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricsServer").field("addr", &self.addr).finish_non_exhaustive()
    }
}

impl MetricsServer {
    /// Where it listens.
    #[must_use]
    pub const fn local_addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for MetricsServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
