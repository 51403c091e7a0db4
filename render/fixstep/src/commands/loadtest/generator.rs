//! A load generator: many virtual players and spectators of one game in one process, over
//! real UDP sockets, measured as a host's players meet it.
//!
//! Each virtual player is a [`NetPeer`] with its own socket, input clock and session, exactly
//! as `fixstep join` plays; only the simulation is shared ([`SharedTicks`]), so a 2-core
//! machine plays hundreds of them. A share of them (`moving_percent`) move as the game's bot
//! drives them; the others hold still, which the protocol implies by sending nothing.
//!
//! [`LoadReport`] is what it measured: how late the host's ticks arrive against the 100 ms
//! schedule, what each player sent and received on the wire (headers included), how long an
//! input took to be run, inputs late, and desyncs.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use fixstep_net::{Admission, WallClock, WireCounts};
use fixstep_present::CommandOf;
use fixstep_runtime::tick::TICK_MICROS;
use fixstep_runtime::{Bot, Simulation, Tick};

use fixstep_netplay::{NetPeer, NetPlayError, PeerOptions, SharedTicks};

use fixstep_netplay_view::{NetGame, NetSpectator};

/// How often the generator serves every socket and clock, microseconds: 2 ms, as often as a
/// headless peer looks at its own, so the generator's loop adds no more delay than a player's.
const LOOP_MICROS: u64 = 2_000;

/// How long a virtual peer may take from connecting to its welcome, microseconds: ten
/// seconds, as `fixstep join` waits.
const WELCOME_TIMEOUT_MICROS: u64 = 10_000_000;

/// Virtual peers between connecting and their welcome at once, at most: four. A host reads
/// [`REQUESTS_PER_SECOND`](fixstep_net::netcode::REQUESTS_PER_SECOND) connection requests a
/// second from one IP address, and a peer repeats its request four times a second until it
/// is answered: four at a time keep within that, where hundreds at once would keep each other
/// out until their connect tokens ran out. Players from many addresses join faster.
const JOINING_AT_ONCE: usize = 4;

/// What to run against which host.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The host's address.
    pub host: SocketAddr,
    /// What every virtual peer presents to the host.
    pub admission: Admission,
    /// Virtual players.
    pub players: usize,
    /// Virtual spectators.
    pub spectators: usize,
    /// How long to measure once all are welcomed, microseconds.
    pub duration_micros: u64,
    /// The share of the players that move (their bots drive them), per cent; the rest stand.
    pub moving_percent: u8,
    /// Where desync reports go.
    pub reports: PathBuf,
}

/// The 50th and 99th percentiles and the largest of some measures, microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Spread {
    /// The median.
    pub p50: u64,
    /// The 99th percentile.
    pub p99: u64,
    /// The largest.
    pub max: u64,
}

impl Spread {
    /// The spread of `samples` (sorted here), if there are any.
    #[must_use]
    pub fn of(samples: &mut [u64]) -> Option<Self> {
        samples.sort_unstable();
        let at = |percent: usize| samples[(samples.len() - 1) * percent / 100];
        let max = *samples.last()?;
        Some(Self { p50: at(50), p99: at(99), max })
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |micros: u64| micros as f64 / 1000.0;
        write!(
            f,
            "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            ms(self.p50),
            ms(self.p99),
            ms(self.max)
        )
    }
}

/// What a load run measured (written as JSON by `fixstep loadtest --json`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LoadReport {
    /// Virtual players asked for, and welcomed.
    pub players: usize,
    /// Players the host welcomed.
    pub welcomed: usize,
    /// Virtual spectators asked for, and welcomed.
    pub spectators: usize,
    /// Spectators the host welcomed.
    pub spectators_welcomed: usize,
    /// Of them, the players that moved.
    pub moving: usize,
    /// How long the measures ran, microseconds.
    pub micros: u64,
    /// Ticks that arrived in that time.
    pub ticks: u64,
    /// How late each tick first arrived at any player, against the host's 100 ms schedule
    /// (the earliest arrival taken as on time): what the players feel of the host's tick
    /// loop, with the link's jitter.
    pub tick_lateness: Option<Spread>,
    /// The same while the peers were joining, before the measures: whether sending a
    /// joiner the game's state holds up the others' ticks.
    pub tick_lateness_joining: Option<Spread>,
    /// Everything the players' sockets sent and received over the measures, summed.
    pub players_wire: WireCounts,
    /// Everything the spectators' sockets sent and received, summed.
    pub spectators_wire: WireCounts,
    /// Everything the players' sockets sent and received from their first connection request
    /// to their goodbyes, summed: what the host's own counters hold of them once they have
    /// gone, to hold those against without lining two processes' clocks up.
    pub players_wire_whole_run: WireCounts,
    /// From sending an input to the host running its tick (half the round trip on its way,
    /// then the margin the host says it waited), over every input of every player.
    pub input_to_host: Option<Spread>,
    /// From sending an input to its player receiving the tick that ran it.
    pub input_to_tick: Option<Spread>,
    /// Inputs sent.
    pub inputs: u64,
    /// Inputs that came too late for their tick (the held input stood in).
    pub late_inputs: u64,
    /// Players the host told of a desync.
    pub desynced_players: usize,
    /// Players' copies of a tick that differed from the others'.
    pub differing_ticks: u64,
    /// Ticks a player reported the hash of.
    pub hashes_reported: u64,
    /// Why virtual peers stopped before the end, by peer.
    pub failures: Vec<String>,
    /// How long the generator's own loop took over every socket, microseconds: a loop much
    /// longer than `LOOP_MICROS` makes every other figure worse than the host's doing.
    pub loop_time: Option<Spread>,
}

impl LoadReport {
    /// Wire bytes a second a player sent on average (headers included).
    #[must_use]
    pub fn up_bytes_per_player_second(&self) -> f64 {
        per_peer(self.players_wire.bytes_sent_per_second(), self.welcomed)
    }

    /// Wire bytes a second a player received on average.
    #[must_use]
    pub fn down_bytes_per_player_second(&self) -> f64 {
        per_peer(self.players_wire.bytes_received_per_second(), self.welcomed)
    }

    /// Datagrams a second a player sent on average.
    #[must_use]
    pub fn up_datagrams_per_player_second(&self) -> f64 {
        per_peer(self.players_wire.datagrams_sent_per_second(), self.welcomed)
    }

    /// Datagrams a second a player received on average.
    #[must_use]
    pub fn down_datagrams_per_player_second(&self) -> f64 {
        per_peer(self.players_wire.datagrams_received_per_second(), self.welcomed)
    }

    /// Desyncs of any kind: players told of one, and copies of a tick that differ.
    #[must_use]
    pub fn desyncs(&self) -> u64 {
        self.desynced_players as u64 + self.differing_ticks
    }
}

fn per_peer(total: f64, peers: usize) -> f64 {
    if peers == 0 { 0.0 } else { total / peers as f64 }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let or_none = |s: Option<Spread>| s.map_or_else(|| "none".to_owned(), |s| s.to_string());
        writeln!(
            f,
            "loadtest: {} of {} players welcomed ({} moving), {} of {} spectators, {:.1} s, {} ticks",
            self.welcomed,
            self.players,
            self.moving,
            self.spectators_welcomed,
            self.spectators,
            self.micros as f64 / 1e6,
            self.ticks,
        )?;
        writeln!(f, "tick lateness on arrival: {}", or_none(self.tick_lateness))?;
        writeln!(f, "tick lateness while joining: {}", or_none(self.tick_lateness_joining))?;
        writeln!(
            f,
            "per player: up {:.1} datagrams/s {:.0} B/s, down {:.1} datagrams/s {:.0} B/s",
            self.up_datagrams_per_player_second(),
            self.up_bytes_per_player_second(),
            self.down_datagrams_per_player_second(),
            self.down_bytes_per_player_second(),
        )?;
        writeln!(f, "players' wire: {}", self.players_wire)?;
        if self.spectators > 0 {
            writeln!(f, "spectators' wire: {}", self.spectators_wire)?;
        }
        writeln!(f, "input to host tick: {}", or_none(self.input_to_host))?;
        writeln!(f, "input to its tick's arrival: {}", or_none(self.input_to_tick))?;
        writeln!(
            f,
            "inputs {}, late {}; hashes reported {}; desyncs {} (players told {}, differing \
             ticks {})",
            self.inputs,
            self.late_inputs,
            self.hashes_reported,
            self.desyncs(),
            self.desynced_players,
            self.differing_ticks,
        )?;
        write!(f, "generator loop: {}", or_none(self.loop_time))?;
        for failure in &self.failures {
            write!(f, "\nfailed: {failure}")?;
        }
        Ok(())
    }
}

/// A virtual player.
struct Player<G: NetGame> {
    peer: NetPeer<G>,
    /// Drives it, once welcomed, if it moves.
    bot: Option<G::Bot>,
    moves: bool,
    /// Nudged time not yet spent on an input tick, microseconds.
    due_micros: u64,
    inputs: u64,
    /// When it connected, on the generator's clock.
    connected_at: u64,
    /// Why it stopped, if it did.
    failed: Option<String>,
}

/// A virtual spectator.
struct Watcher<G: NetGame> {
    spectator: NetSpectator<G>,
    /// When it connected, on the generator's clock.
    connected_at: u64,
    /// Why it stopped, if it did.
    failed: Option<String>,
}

/// Sums `counts` over `links`.
fn summed(counts: impl Iterator<Item = WireCounts>) -> WireCounts {
    counts.fold(WireCounts::default(), |sum, c| WireCounts {
        datagrams_sent: sum.datagrams_sent + c.datagrams_sent,
        bytes_sent: sum.bytes_sent + c.bytes_sent,
        datagrams_received: sum.datagrams_received + c.datagrams_received,
        bytes_received: sum.bytes_received + c.bytes_received,
        micros: sum.micros.max(c.micros),
    })
}

/// `now` minus `before`, count by count, over `micros`.
fn since(now: WireCounts, before: WireCounts, micros: u64) -> WireCounts {
    WireCounts {
        datagrams_sent: now.datagrams_sent - before.datagrams_sent,
        bytes_sent: now.bytes_sent - before.bytes_sent,
        datagrams_received: now.datagrams_received - before.datagrams_received,
        bytes_received: now.bytes_received - before.bytes_received,
        micros,
    }
}

/// Runs `options.players` virtual players and `options.spectators` spectators of `content`
/// against the host, and says what they met; `stop` ends it early (Ctrl-C). The peers join
/// `JOINING_AT_ONCE` at a time; the measures start once all are welcomed.
///
/// # Errors
///
/// If no socket can be bound, or the shared simulation cannot start from the host's state.
/// A virtual peer refused or cut off is no error: the report names it.
pub fn run_load<G: NetGame>(
    content: &Arc<G::Content>,
    options: &LoadOptions,
    mut stop: impl FnMut() -> bool,
) -> Result<LoadReport, NetPlayError> {
    let moving = options.players * usize::from(options.moving_percent.min(100)) / 100;
    let mut players: Vec<Player<G>> = Vec::with_capacity(options.players);
    let mut watchers: Vec<Watcher<G>> = Vec::with_capacity(options.spectators);
    let mut shared = SharedTicks::<G>::new(Arc::clone(content));
    let clock = WallClock::new();
    let mut last = clock.now_micros();
    // When the measures started, and the counts then.
    let mut started: Option<(u64, WireCounts, WireCounts, Vec<u64>)> = None;
    let mut newest: Option<Tick> = None;
    let mut arrivals: Vec<(Tick, u64)> = Vec::new();
    let mut joining_arrivals: Vec<(Tick, u64)> = Vec::new();
    let mut loop_times = Vec::new();
    loop {
        let now = clock.now_micros();
        let elapsed = now - last;
        last = now;
        if stop() || started.as_ref().is_some_and(|(at, ..)| now - at >= options.duration_micros) {
            break;
        }
        if started.is_none() {
            join_more(content, options, moving, now, &mut players, &mut watchers)?;
        }
        for player in players.iter_mut().filter(|p| p.failed.is_none()) {
            if let Err(e) = player.peer.receive(elapsed) {
                player.failed = Some(e.to_string());
                continue;
            }
            if let Some(welcome) = player.peer.take_welcome() {
                shared.welcomed(&welcome)?;
                if let (true, Some(number)) = (player.moves, welcome.player) {
                    player.bot = Some(G::bot(content, number));
                }
            }
            if let Some(tick) = player.peer.stats().host_tick
                && newest.is_none_or(|n| tick > n)
            {
                newest = Some(tick);
                let during = if started.is_some() { &mut arrivals } else { &mut joining_arrivals };
                during.push((tick, now));
            }
            player.peer.run_shared(&mut shared);
        }
        shared.run()?;
        for player in players.iter_mut().filter(|p| p.failed.is_none()) {
            player.peer.run_shared(&mut shared);
            send_inputs(player, &shared, elapsed);
            if let Err(e) = player.peer.send() {
                player.failed = Some(e.to_string());
            }
        }
        for watcher in watchers.iter_mut().filter(|w| w.failed.is_none()) {
            let spectator = &mut watcher.spectator;
            if let Err(e) = spectator.receive(elapsed).and_then(|()| spectator.send()) {
                watcher.failed = Some(e.to_string());
            }
        }
        if started.is_none() {
            let all = players.len() == options.players && watchers.len() == options.spectators;
            if all && joining(now, &mut players, &mut watchers) == 0 {
                let players_wire = summed(players.iter().map(|p| p.peer.link().wire));
                let spectators_wire = summed(watchers.iter().map(|w| w.spectator.link().wire));
                let inputs = players.iter().map(|p| p.inputs).collect();
                started = Some((now, players_wire, spectators_wire, inputs));
                tracing::info!(
                    "all {} players and {} spectators in: measuring for {} s",
                    players.len(),
                    watchers.len(),
                    options.duration_micros / 1_000_000
                );
            }
        } else {
            loop_times.push(clock.now_micros() - now);
        }
        let next = now + LOOP_MICROS;
        let after = clock.now_micros();
        if after < next {
            std::thread::sleep(std::time::Duration::from_micros(next - after));
        }
    }
    let end = clock.now_micros();
    let (at, players_before, spectators_before, inputs_before) =
        started.unwrap_or((end, WireCounts::default(), WireCounts::default(), Vec::new()));
    let micros = end - at;
    let mut report = LoadReport {
        players: options.players,
        welcomed: players.iter().filter(|p| p.peer.player().is_some()).count(),
        spectators: options.spectators,
        spectators_welcomed: watchers.iter().filter(|w| w.spectator.is_welcomed()).count(),
        moving,
        micros,
        ticks: arrivals.len() as u64,
        tick_lateness: lateness(&arrivals),
        tick_lateness_joining: lateness(&joining_arrivals),
        players_wire: since(
            summed(players.iter().map(|p| p.peer.link().wire)),
            players_before,
            micros,
        ),
        spectators_wire: since(
            summed(watchers.iter().map(|w| w.spectator.link().wire)),
            spectators_before,
            micros,
        ),
        loop_time: Spread::of(&mut loop_times),
        differing_ticks: shared.differing(),
        ..LoadReport::default()
    };
    let (mut to_host, mut to_tick) = (Vec::new(), Vec::new());
    for (i, player) in players.iter_mut().enumerate() {
        let stats = player.peer.stats();
        to_host.extend_from_slice(&stats.latency.to_host);
        to_tick.extend_from_slice(&stats.latency.to_own_tick);
        report.inputs += player.inputs - inputs_before.get(i).copied().unwrap_or(0);
        report.late_inputs += stats.late_inputs;
        report.desynced_players += usize::from(stats.desync.is_some());
        report.hashes_reported += stats.hashes_reported;
        if let Some(failed) = player.failed.as_deref().or_else(|| player.peer.ended()) {
            report.failures.push(format!("player load-{i}: {failed}"));
        }
        player.peer.disconnect();
    }
    for (i, watcher) in watchers.iter_mut().enumerate() {
        if let Some(failed) = watcher.failed.as_deref().or_else(|| watcher.spectator.ended()) {
            report.failures.push(format!("spectator watch-{i}: {failed}"));
        }
        watcher.spectator.disconnect();
    }
    report.players_wire_whole_run = summed(players.iter().map(|p| p.peer.link().wire));
    report.input_to_host = Spread::of(&mut to_host);
    report.input_to_tick = Spread::of(&mut to_tick);
    Ok(report)
}

/// How many virtual peers are between connecting and their welcome at `now`; one that has
/// waited longer than [`WELCOME_TIMEOUT_MICROS`] has failed instead.
fn joining<G: NetGame>(now: u64, players: &mut [Player<G>], watchers: &mut [Watcher<G>]) -> usize {
    let waiting = |failed: &mut Option<String>, welcomed: bool, connected_at: u64| {
        if failed.is_some() || welcomed {
            return 0;
        }
        if now - connected_at > WELCOME_TIMEOUT_MICROS {
            *failed = Some(format!("no welcome in {} s", WELCOME_TIMEOUT_MICROS / 1_000_000));
            return 0;
        }
        1
    };
    let players: usize = players
        .iter_mut()
        .map(|p| waiting(&mut p.failed, p.peer.player().is_some(), p.connected_at))
        .sum();
    let watchers: usize = watchers
        .iter_mut()
        .map(|w| waiting(&mut w.failed, w.spectator.is_welcomed(), w.connected_at))
        .sum();
    players + watchers
}

/// Connects more virtual peers, players first, while fewer than [`JOINING_AT_ONCE`] are
/// joining.
fn join_more<G: NetGame>(
    content: &Arc<G::Content>,
    options: &LoadOptions,
    moving: usize,
    now: u64,
    players: &mut Vec<Player<G>>,
    watchers: &mut Vec<Watcher<G>>,
) -> Result<(), NetPlayError> {
    let mut room = JOINING_AT_ONCE.saturating_sub(joining(now, players, watchers));
    while room > 0 && players.len() < options.players {
        let i = players.len();
        let peer_options = PeerOptions {
            host: options.host,
            name: format!("load-{i}"),
            admission: options.admission.clone(),
            reports: options.reports.clone(),
            rejoin_file: None,
            record: None,
            offer: fixstep_netplay::HostOffer::default(),
        };
        players.push(Player {
            peer: NetPeer::connect_shared(Arc::clone(content), &peer_options)?,
            bot: None,
            moves: i < moving,
            due_micros: 0,
            inputs: 0,
            connected_at: now,
            failed: None,
        });
        room -= 1;
    }
    while room > 0 && watchers.len() < options.spectators {
        let name = format!("watch-{}", watchers.len());
        let spectator =
            NetSpectator::connect(content, options.host, &name, &options.admission, None)?;
        watchers.push(Watcher { spectator, connected_at: now, failed: None });
        room -= 1;
    }
    Ok(())
}

/// Sends the inputs `player`'s nudged input clock owes over `elapsed_micros`: its bot's
/// command if it moves, the held (default) one if it stands.
fn send_inputs<G: NetGame>(player: &mut Player<G>, shared: &SharedTicks<G>, elapsed_micros: u64) {
    if player.peer.player().is_none() {
        return;
    }
    player.due_micros += player.peer.clock().nudged_micros(elapsed_micros);
    while player.due_micros >= TICK_MICROS {
        player.due_micros -= TICK_MICROS;
        let Some(tick) = player.peer.next_input_tick() else { continue };
        let command = match (player.bot.as_mut(), shared.sim()) {
            (Some(bot), Some(sim)) => bot.command(sim.snapshot()),
            _ => CommandOf::<G>::default(),
        };
        player.peer.submit(tick, command);
        player.inputs += 1;
    }
}

/// How late each tick arrived against the 100 ms schedule, the earliest taken as on time.
fn lateness(arrivals: &[(Tick, u64)]) -> Option<Spread> {
    let due =
        |&(tick, at): &(Tick, u64)| i128::from(at) - i128::from(tick.0) * i128::from(TICK_MICROS);
    let earliest = arrivals.iter().map(due).min()?;
    let mut late: Vec<u64> =
        arrivals.iter().map(|a| u64::try_from(due(a) - earliest).unwrap_or(u64::MAX)).collect();
    Spread::of(&mut late)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lateness_takes_the_earliest_arrival_as_on_time() {
        let arrivals = [(Tick(10), 1_000_000), (Tick(11), 1_103_000), (Tick(12), 1_199_000)];
        let spread = lateness(&arrivals).expect("arrivals");
        // Tick 12 came 1 ms early against tick 10's time: it is the on-time one.
        assert_eq!(spread.max, 4_000);
        assert_eq!(spread.p50, 1_000);
        assert_eq!(lateness(&[]), None);
    }

    #[test]
    fn a_spread_picks_ranks_of_the_sorted_samples() {
        let mut samples: Vec<u64> = (1..=200).rev().collect();
        let spread = Spread::of(&mut samples).expect("samples");
        assert_eq!((spread.p50, spread.p99, spread.max), (100, 198, 200));
    }
}
