//! `fixstep host`: hosts a network game, headless (for servers and tests) or playing in a
//! window.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use fixstep_net::WallClock;
use fixstep_netplay::resume::from_replay;
use fixstep_netplay::{
    HostMetrics, HostOptions, HostSchedule, MAX_SPECTATOR_DELAY_S, METRICS_PATH, MetricsServer,
    NetHost, ReachNews,
};
use fixstep_present::CommandOf;
use fixstep_runtime::net::DEFAULT_SEAT_GRACE_MICROS;
use fixstep_runtime::tick::TICKS_PER_SECOND;
use fixstep_runtime::{Bot, Player, Simulation, Tick};

use super::secret::PasswordArgs;
use super::{Logs, NetLogArgs, Paths, bad_input, held_at, read_input_script, sleep_until};
use crate::games::Playable;

pub use fixstep_net::lan::DEFAULT_PORT;

/// How long the host sleeps at most between looks at its socket, microseconds: 2 ms, so an
/// input that arrives just before a tick is fixed is not missed for want of a look.
const POLL_MICROS: u64 = 2_000;

/// How long a headless host goes on serving after its last tick, microseconds: two seconds,
/// so peers behind a slow, lossy link still get the last ticks (and their resends) before the
/// goodbye.
const FAREWELL_MICROS: u64 = 2_000_000;

/// How often a headless host under Agones reports its health, ticks: every 10 (a second),
/// from the tick loop, so a loop that stalls stops reporting.
#[cfg(feature = "agones")]
const HEALTH_EVERY_TICKS: u32 = 10;

/// The width of a [`Lateness`] bucket, microseconds: a tenth of a millisecond, finer than a
/// host's 2 ms looks at its socket.
const LATENESS_BUCKET_MICROS: u64 = 100;

/// The buckets of a [`Lateness`]: up to ten seconds late; later still counts in the last.
const LATENESS_BUCKETS: usize = 100_000;

/// How late each tick ran after it was due: what the peers feel of the host's schedule. A
/// histogram, so that a server up for weeks keeps its figures in the same 400 KB.
struct Lateness {
    counts: Vec<u32>,
    total: u64,
    most_micros: u64,
}

impl Lateness {
    fn new() -> Self {
        Self { counts: vec![0; LATENESS_BUCKETS], total: 0, most_micros: 0 }
    }

    fn record(&mut self, micros: u64) {
        let bucket = usize::try_from(micros / LATENESS_BUCKET_MICROS).unwrap_or(usize::MAX);
        if let Some(count) = self.counts.get_mut(bucket.min(LATENESS_BUCKETS - 1)) {
            *count = count.saturating_add(1);
        }
        self.total += 1;
        self.most_micros = self.most_micros.max(micros);
    }

    /// The lateness `percent` of the ticks ran within, milliseconds (to a bucket's width);
    /// `None` before any tick.
    fn percentile_ms(&self, percent: u64) -> Option<f64> {
        let rank = (self.total * percent).div_ceil(100).max(1);
        let mut seen = 0;
        let bucket = self.counts.iter().position(|&c| {
            seen += u64::from(c);
            seen >= rank
        })?;
        Some((bucket as u64 * LATENESS_BUCKET_MICROS) as f64 / 1e3)
    }
}

/// The longest `--seat-grace`, seconds: a day. A seat kept longer is a seat lost to a public
/// server; a private match that wants its players back after a night can still have them.
const MAX_SEAT_GRACE_SECONDS: u64 = 86_400;

/// `fixstep host`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct HostArgs {
    /// The content file (default: the game's, such as the town's `levels/town.ron` under
    /// the assets).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// The UDP port to listen on.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: std::net::IpAddr,
    /// The most players, the host's own included (at most 256).
    #[arg(long, default_value_t = 8, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub max_players: usize,
    /// The most spectators (at most 64).
    #[arg(long, default_value_t = 8, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=64))]
    pub max_spectators: usize,
    /// How long a player who left keeps its seat, seconds (at most a day): coming back under
    /// its name within them, it plays on with its character; after them the character leaves
    /// the world and the seat is anyone's. `--max-players` counts the seats kept.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_SEAT_GRACE_MICROS / 1_000_000, value_parser = clap::value_parser!(u64).range(0..=MAX_SEAT_GRACE_SECONDS))]
    pub seat_grace: u64,
    /// Another address peers reach this host at (a link conditioner's, a public address in
    /// front of a NAT); repeatable.
    #[arg(long)]
    pub also_reachable_at: Vec<SocketAddr>,
    /// Seed of the game's random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The host's own player's name, shown to everyone.
    #[arg(long, default_value = "host")]
    pub name: String,
    /// Where desync reports are written.
    #[arg(long, default_value = "desync-reports")]
    pub reports: PathBuf,
    /// End the match once no player has been connected for this many seconds, after the first
    /// one joined (headless): a game server that hands its slot back when its match is over.
    /// A player who drops out and comes back within them finds the game going on.
    #[arg(long, value_name = "SECONDS", requires = "headless")]
    pub end_when_empty: Option<u64>,
    /// End the match when the host ends, as it was before players could take it over: no
    /// player offers to host it, and when the host goes, its players stop.
    #[arg(long)]
    pub no_migration: bool,
    /// Ask no home router to forward the host's port (it is asked by UPnP and NAT-PMP
    /// otherwise, unless the host listens on loopback only).
    #[arg(long)]
    pub no_port_mapping: bool,
    /// List the match at a rendezvous (`--rendezvous`) under a join code that friends type to
    /// join from another network (`fixstep join CODE`); the code is printed and shown.
    #[arg(long)]
    pub code: bool,
    #[command(flatten)]
    pub rendezvous: super::rendezvous::RendezvousChoice,
    #[command(flatten)]
    pub stun: super::rendezvous::StunChoice,
    #[command(flatten)]
    pub turn: super::rendezvous::TurnChoice,
    /// Run as an Agones game server (headless): Ready once listening, Health from the tick
    /// loop, the players in the GameServer's `players` List, Shutdown when the match ends.
    /// The SDK sidecar is reached on `AGONES_SDK_HTTP_PORT` (which Agones sets).
    #[cfg(feature = "agones")]
    #[arg(long, requires = "headless")]
    pub agones: bool,
    /// Start the match only once Agones has allocated this server (with `--agones`).
    #[cfg(feature = "agones")]
    #[arg(long, requires = "agones")]
    pub wait_for_allocation: bool,
    /// Serve Prometheus metrics over HTTP at `http://ADDR/metrics` (headless; port 0 takes
    /// a free port, which the log names): players, spectators, ticks and their lateness, the
    /// wire each way, datagrams by what became of them, desyncs.
    #[arg(long, value_name = "ADDR", requires = "headless")]
    pub metrics: Option<SocketAddr>,
    /// Hold spectators this many seconds behind the match: the host sends them nothing
    /// newer, so a watcher cannot coach a player.
    #[arg(long, value_name = "SECONDS", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_SPECTATOR_DELAY_S)))]
    pub spectator_delay: u32,
    /// Play on from this replay: the match starts from its state at `--at` (its last tick
    /// unless told), on the content it carries; players who join under the names it recorded
    /// take their characters back. A crashed server started again on its own replay goes on
    /// where it stopped.
    #[arg(long, value_name = "FILE", conflicts_with = "level")]
    pub from_replay: Option<PathBuf>,
    /// The tick of `--from-replay` to play on from: the state after it, as a hash log's line
    /// for it says.
    #[arg(long, value_name = "TICK", requires = "from_replay")]
    pub at: Option<u32>,
    /// Record the match as a replay into this file, as it is played (see `fixstep replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The session's password.
    #[command(flatten)]
    pub password: PasswordArgs,
    /// What the headless runs do and log.
    #[command(flatten)]
    pub logs: NetLogArgs,
}

impl HostArgs {
    /// `--spectator-delay` in ticks.
    const fn spectator_delay_ticks(&self) -> u32 {
        self.spectator_delay * TICKS_PER_SECOND
    }

    /// `--seat-grace` in microseconds.
    const fn seat_grace_micros(&self) -> u64 {
        self.seat_grace.saturating_mul(1_000_000)
    }
}

/// Warns that a session without a password is open to anyone who reaches `port` (the port
/// bound, or, before binding with port 0, the one the system will give).
fn warn_open(port: Option<u16>) {
    let which = port.map_or_else(|| "the port it binds".to_owned(), |p| format!("port {p}"));
    tracing::warn!(
        port,
        "this session is open and unencrypted: anyone who reaches {which} can join, read and \
         forge its packets (fine on a LAN you trust; give --password otherwise)"
    );
}

/// Runs `fixstep host`; returns the summary to print.
///
/// # Errors
///
/// A bad level or script, a port that cannot be bound, a log that cannot be written.
pub fn run<G: Playable>(args: &HostArgs, paths: &Paths) -> Result<String> {
    let level_file = paths.content_file::<G>(args.level.as_deref());
    let (content, resumed) = match &args.from_replay {
        Some(replay) => {
            let at = args.at.map(|t| Tick(t).next());
            let (content, resumed) = from_replay::<G>(replay, at).map_err(bad_input)?;
            (content, Some(resumed))
        }
        None => (paths.load::<G>(&level_file)?, None),
    };
    let own_player = !args.logs.headless || args.logs.bot || args.logs.input_script.is_some();
    let options = HostOptions {
        bind: SocketAddr::new(args.bind, args.port),
        also_reachable_at: args.also_reachable_at.clone(),
        max_players: args.max_players,
        max_spectators: args.max_spectators,
        seat_grace_micros: args.seat_grace_micros(),
        own_player,
        seed: args.seed,
        name: args.name.clone(),
        reports: args.reports.clone(),
        access: args.password.access()?,
        record: args.record.clone(),
        spectator_delay_ticks: args.spectator_delay_ticks(),
        migration: !args.no_migration,
        rendezvous: args.code.then(|| args.rendezvous.address()).transpose()?,
        port_mapping: !args.no_port_mapping,
        stun: args.stun.servers(),
        turn: args.turn.server()?,
    };
    // Every file is read before anything is said or bound: a bad one is the only line.
    let script = read_input_script::<G>(args.logs.input_script.as_deref())?;
    let open = options.access == fixstep_net::Access::Open;
    if !args.logs.headless {
        if open {
            // The window binds the port itself; 0 is whichever the system gives it.
            warn_open((args.port != 0).then_some(args.port));
        }
        let mode = match &args.from_replay {
            // The window plays on from the replay's moment, as the first seat: "take
            // command".
            Some(replay) => super::play::Windowed::PlayOn {
                options,
                replay: replay.clone(),
                from: args.at.map(|t| Tick(t).next()),
            },
            None => super::play::Windowed::Host(options),
        };
        super::play::window::<G>(paths, &level_file, &content, &mode)?;
        return Ok(String::new());
    }
    #[cfg(feature = "agones")]
    let mut agones =
        args.agones.then(|| super::agones::Agones::start(args.wait_for_allocation)).transpose()?;
    #[cfg(feature = "agones")]
    let options = {
        let mut options = options;
        // Players connect to the node's address, which their connect tokens name.
        if let Some(public) = agones.as_ref().and_then(super::agones::Agones::public_address) {
            tracing::info!(address = %public, "Agones: players reach this server at {public}");
            options.also_reachable_at.push(public);
        }
        options
    };
    let resumed_at = resumed.as_ref().map(|r| r.sim.next_tick());
    let mut host = NetHost::<G>::bind_starting(&content, &options, resumed)?;
    if let Some(tick) = resumed_at {
        tracing::info!(
            tick = tick.0,
            "playing on from the replay's tick {}",
            tick.0.saturating_sub(1)
        );
    }
    let addr = host.local_addr().context("the host has no address")?;
    if open {
        warn_open(Some(addr.port()));
    }
    let title = G::content_title(&content);
    tracing::info!(address = %addr, title, "hosting {title} on {addr}");
    let metrics = args.metrics.map(serve_metrics).transpose()?;
    #[cfg(feature = "agones")]
    if let Some(agones) = &agones {
        agones.ready();
    }
    let mut bot = args.logs.bot.then(|| G::bot(&content, Player(0)));
    let mut logs = Logs::<G>::of(&args.logs, &content)?;
    logs.truth(host.sim().next_tick(), host.sim().snapshot())?;
    // SIGTERM (an orchestrator stopping the server), SIGINT or SIGHUP end the match as its
    // last tick would: peers told, logs written, the summary printed.
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    ctrlc::set_handler(move || stopping.store(true, Ordering::Relaxed))
        .context("cannot take the termination signals")?;
    let end_when_empty = args.end_when_empty.map(|s| s.saturating_mul(1_000_000));
    let mut empty_since: Option<u64> = None;
    let mut ever_joined = false;
    let clock = WallClock::new();
    #[cfg(feature = "agones")]
    if let Some(agones) = &agones {
        wait_for_allocation(agones, &stop, &clock);
    }
    let mut last = clock.now_micros();
    let mut schedule = HostSchedule::starting_at(last);
    let mut own = G::Input::default();
    let mut lateness = Lateness::new();
    loop {
        let now = clock.now_micros();
        let elapsed = now - last;
        last = now;
        host.receive(elapsed, now)?;
        for news in host.drain_reach_news() {
            match news {
                ReachNews::Unmapped { .. } | ReachNews::ListingFull => tracing::warn!("{news}"),
                _ => tracing::info!("{news}"),
            }
        }
        let mut seats_changed = false;
        for news in host.drain_news() {
            tracing::info!("{news}");
            seats_changed |= news.seats_changed();
        }
        // A join, a departure or a seat freed: the players are told to Agones again.
        #[cfg(feature = "agones")]
        if let Some(agones) = agones.as_mut().filter(|_| seats_changed) {
            agones.players(&host.seated_names().collect::<Vec<_>>());
        }
        // Without a fleet, nobody follows the seats.
        #[cfg(not(feature = "agones"))]
        let _ = seats_changed;
        if host.superseded() {
            // Stopped (or cut off) long enough for its players to take the match over: they
            // play on with their new host, and this one must fix nothing more.
            break;
        }
        let held = held_at(script.as_ref(), now, elapsed);
        let ticked_from = host.sim().next_tick();
        let mut done = false;
        let mut failure = None;
        let mut due_at = schedule.next_due_micros();
        schedule.run_due(now, &mut own, &held, |command, _| -> Result<()> {
            if done {
                return Ok(());
            }
            lateness.record(now.saturating_sub(due_at));
            if let Some((metrics, _)) = &metrics {
                metrics.tick_ran(now.saturating_sub(due_at));
            }
            due_at += fixstep_runtime::tick::TICK_MICROS;
            let command = match bot.as_mut() {
                Some(bot) => Some(bot.command(host.sim().snapshot())),
                None if own_player => Some(command),
                None => None::<CommandOf<G>>,
            };
            let record = host.run_tick(command)?;
            if let Err(e) = logs.tick(record.tick, host.hash(), host.sim().snapshot()) {
                failure = Some(e);
            }
            done = args.logs.ticks.is_some_and(|t| record.tick.0 + 1 >= t);
            Ok(())
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        #[cfg(feature = "agones")]
        if let Some(agones) = &agones
            && host.sim().next_tick().0 % HEALTH_EVERY_TICKS == 0
        {
            agones.health();
        }
        host.send();
        if let Some((metrics, _)) = &metrics
            && host.sim().next_tick() != ticked_from
        {
            metrics.observe(&host);
        }
        let players = host.connected_players();
        ever_joined |= players > 0;
        empty_since = if players == 0 && ever_joined { empty_since.or(Some(now)) } else { None };
        if let (Some(wait), Some(since)) = (end_when_empty, empty_since)
            && now - since >= wait
        {
            tracing::info!("no player for {} s: the match is over", wait / 1_000_000);
            break;
        }
        if stop.load(Ordering::Relaxed) {
            tracing::info!("told to stop: ending the match");
            break;
        }
        if done {
            break;
        }
        // Until the next look at the socket, or sooner when a tick or the session is due.
        let wake = [Some(now + POLL_MICROS), Some(schedule.next_due_micros()), host.poll_timeout()];
        sleep_until(&clock, wake.into_iter().flatten().min().unwrap_or(now));
    }
    let superseded = host.superseded();
    // The goodbye goes out with the last ticks, on the same ordered channel, and has the
    // farewell to get through (a host that was succeeded has nobody left to tell).
    if !superseded {
        host.end_match()?;
    }
    let farewell_until = if superseded { 0 } else { clock.now_micros() + FAREWELL_MICROS };
    while clock.now_micros() < farewell_until {
        let now = clock.now_micros();
        host.receive(now - last, now)?;
        last = now;
        host.send();
        std::thread::sleep(Duration::from_micros(POLL_MICROS));
    }
    host.shut_down();
    #[cfg(feature = "agones")]
    if let Some(agones) = agones.take() {
        let failed = agones.shutdown();
        if failed > 0 {
            tracing::warn!("Agones: {failed} calls failed and were tried again");
        }
    }
    logs.finish()?;
    if superseded {
        bail!(
            "this host was silent for over {} s and its players took the match over: it ends \
             at tick {}",
            fixstep_runtime::net::HOST_SILENCE_MICROS / 1_000_000,
            host.sim().next_tick().0
        );
    }
    if let Some((metrics, _)) = &metrics {
        // The last scrape sees what the summary says.
        metrics.observe(&host);
    }
    let stats = host.stats();
    let ms = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    tracing::info!(
        "ticks ran late by p50 {} ms, p99 {} ms, most {:.1} ms",
        ms(lateness.percentile_ms(50)),
        ms(lateness.percentile_ms(99)),
        lateness.most_micros as f64 / 1e3
    );
    Ok(format!(
        "tick {} hash {} late inputs {} desyncs {} resyncs {} refused messages {} stale inputs \
         {} malformed datagrams {} flooded datagrams {} refused connection requests {}\nwire {}\n\
         reads {}\n",
        host.sim().next_tick().0,
        host.hash(),
        stats.late_inputs,
        stats.desyncs,
        stats.resyncs,
        stats.refused,
        stats.stale,
        stats.reads.malformed(),
        stats.reads.of(fixstep_net::Reason::Flooded),
        stats.reads.refused_requests(),
        host.wire(),
        stats.reads,
    ))
}

/// The host's metrics, served on `at` from a thread of their own; the log says where.
///
/// # Errors
///
/// If `at` cannot be bound.
fn serve_metrics(at: SocketAddr) -> Result<(HostMetrics, MetricsServer)> {
    let metrics = HostMetrics::new();
    let server = metrics.serve(at)?;
    let served = server.local_addr();
    tracing::info!(address = %served, "metrics at http://{served}{METRICS_PATH}");
    Ok((metrics, server))
}

/// Waits until Agones allocates the server (at once unless `--wait-for-allocation`), saying
/// it is healthy meanwhile; a stop signal ends the wait (and then the match, unstarted).
#[cfg(feature = "agones")]
fn wait_for_allocation(agones: &super::agones::Agones, stop: &AtomicBool, clock: &WallClock) {
    if agones.allocated() {
        return;
    }
    tracing::info!("Agones: waiting to be allocated");
    let mut said_healthy = 0;
    while !agones.allocated() && !stop.load(Ordering::Relaxed) {
        let now = clock.now_micros();
        if now - said_healthy >= u64::from(HEALTH_EVERY_TICKS) * fixstep_runtime::tick::TICK_MICROS
        {
            agones.health();
            said_healthy = now;
        }
        sleep_until(clock, now + POLL_MICROS);
    }
}

#[cfg(test)]
mod tests {
    use super::Lateness;

    #[test]
    fn lateness_percentiles_come_from_the_histogram() {
        let mut lateness = Lateness::new();
        assert_eq!(lateness.percentile_ms(50), None, "no tick yet");
        for _ in 0..98 {
            lateness.record(150);
        }
        lateness.record(2_000);
        lateness.record(50_000_000);
        assert_eq!(lateness.percentile_ms(50), Some(0.1));
        assert_eq!(lateness.percentile_ms(99), Some(2.0));
        assert_eq!(lateness.percentile_ms(100), Some(9_999.9), "past ten seconds: the last");
        assert_eq!(lateness.most_micros, 50_000_000);
    }
}
