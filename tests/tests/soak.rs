//! Soak under churn: eight bot peers and a spectator play through the link conditioner
//! (`fixstep netem`: 80 ms one way, 20 ms of jitter, 5 % loss, 1 % duplicated, 1 % reordered)
//! for minutes while, every 20 seconds, one of them leaves cleanly, crashes (`kill -9`) and
//! is started again at once, or a new player joins.
//!
//! It protects what a game server must keep through the comings and goings of real players
//! over a real bad link, which the short network tests (`network.rs`) cannot show: nobody
//! desyncs; a player restarted after a crash takes its own seat back and computes the host's
//! every tick from then on; nothing panics; and the host's resident memory stops growing once
//! the game is under way, so a leak per join, per departure, per rejoin or per tick shows as
//! growth after the first minute.
//!
//! CI runs two minutes. Ten minutes run on demand and print their figures:
//! `cargo test -p fixstep-tests -- soak:: --ignored --nocapture`.
//!
//! The test holds [`shared_machine`] throughout: what it judges (hashes, reports, memory, and
//! deadlines of half a minute) does not depend on when a tick was computed, and its ten debug
//! processes take a third of one core, so it may run beside another test's game.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use fixstep_runtime::tick::TICK_MICROS;
use fixstep_tests::processes::{
    Hosting, Running, assert_agrees, hash_log, player_of, reports_in, shared_machine, strs,
};
use fixstep_tests::{Scratch, arg};

/// Two minutes of churn: what CI runs.
#[test]
fn eight_peers_and_a_spectator_under_churn_for_two_minutes_never_desync() {
    soak("two-minutes", 2);
}

/// Ten minutes of churn, on demand: long enough for a slow leak or a rare loss pattern that
/// two minutes miss.
#[test]
#[ignore = "ten minutes long: run on demand with `--ignored --nocapture`"]
fn eight_peers_and_a_spectator_under_churn_for_ten_minutes_never_desync() {
    soak("ten-minutes", 10);
}

/// Peers at the start: the eight (nine players with the host's own bot). Leaves and
/// new joins alternate in the churn, so about as many play throughout.
const PEERS: usize = 8;

/// The link of the soak: the lockstep tests' bad link (80 ms one way, up to 20 ms of jitter,
/// 5 % loss) with 1 % of datagrams duplicated and 1 % reordered besides, so the transport's
/// every repair runs all the time.
const SOAK_LINK: [&str; 10] =
    ["--delay", "80", "--jitter", "20", "--loss", "5", "--duplicate", "1", "--reorder", "1"];

/// The link conditioner's seed: a fixed one, so a failure's pattern of losses can be replayed.
const NETEM_SEED: u64 = 47;

/// Seconds between two churn events: the "every ~20 s". Three a minute, one of each
/// kind in turn.
const CHURN_EVERY_S: u64 = 20;

/// Ticks the host runs past the churn's minutes, 10 s of them, so that every peer ends the
/// way a player who leaves does, by its own `--ticks`, goodbye said, before the match ends
/// (see `Plan::play_ticks`). Ten seconds cover a peer's last ticks over the bad link with
/// this machine loaded.
const MARGIN_TICKS: u32 = 100;

/// How long a player may take to be seated (its process started, the town loaded, the
/// handshake and the state over the bad link), seconds. About a second on an idle machine;
/// ten debug processes sharing two cores slow every step, so well over that, yet far under a
/// churn period, so a join that never happens fails the test rather than hangs it.
const SEATED_WITHIN_S: u64 = 30;

/// How long after its last tick was due a peer that leaves cleanly may take to be gone from
/// the host, seconds: its last ticks over the bad link, its goodbye, under load.
const GONE_WITHIN_S: u64 = 30;

/// How often the host's resident memory is read, milliseconds: often enough that the
/// readings taken as the end of the first minute and as the churn's end are within a second
/// of those moments.
const RSS_EVERY_MS: u64 = 1_000;

/// When the host's memory is taken as settled, seconds after its start: the issue's "after
/// the first minute" (every peer joined, the first churn of each kind done).
const RSS_SETTLED_S: u64 = 60;

/// How much the host's resident memory may grow from its settled reading to its reading at
/// the churn's end, percent: the 5 %. A leak per tick, per message or per join grows
/// it by more.
const RSS_GROWTH_PERCENT: u64 = 5;

/// Ticks in a second of game time: turns the churn's seconds into the host's ticks (a
/// peer's `--ticks` counts those).
const TICKS_PER_SECOND: u32 = (1_000_000 / TICK_MICROS) as u32;

/// What happens to a player at a churn event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Churn {
    /// It leaves cleanly (its `--ticks` end, its goodbye said) and does not come back.
    Leave,
    /// Its process is killed (`kill -9`) and started again at once under the same name.
    Crash,
    /// A player of a new name joins.
    Join,
}

/// The kinds of churn, in the order they take turns.
const CHURN_ORDER: [Churn; 3] = [Churn::Leave, Churn::Crash, Churn::Join];

/// One churn event: at `at_s` seconds after the host's start, `kind` happens to player
/// `who` (an index into [`Plan::names`]).
#[derive(Clone, Copy, Debug)]
struct Event {
    at_s: u64,
    kind: Churn,
    who: usize,
}

/// The whole soak, fixed before it starts: who plays, what happens when, and which host tick
/// each player who leaves cleanly leaves at (a peer's `--ticks` is given when it starts).
struct Plan {
    /// Every player's name: the first peers', then the new ones' in the order they join.
    names: Vec<String>,
    events: Vec<Event>,
    /// The host tick each player who leaves cleanly plays to, by index into `names`.
    leaves_at: BTreeMap<usize, u32>,
    /// The host tick the players still there at the end play to: the churn's end, not the
    /// host's last tick. Every process then ends as the soak chose (it leaves cleanly, or is
    /// killed), never by the match's end, whose last ticks over the bad link are the
    /// network tests' matter; and the host's memory at the churn's end is read with every
    /// player still playing.
    play_ticks: u32,
    /// Ticks the host runs.
    host_ticks: u32,
}

impl Plan {
    /// Churn every [`CHURN_EVERY_S`] for `minutes` (the last event a period before the end,
    /// so it has as long as the others to settle): the kinds in [`CHURN_ORDER`], each leave or
    /// crash picking the next player still playing in turn, never the one the event before
    /// picked.
    fn new(minutes: u32) -> Self {
        let mut names: Vec<String> = (1..=PEERS).map(|i| format!("peer-{i}")).collect();
        let mut playing: Vec<usize> = (0..PEERS).collect();
        let mut events = Vec::new();
        let mut leaves_at = BTreeMap::new();
        let (mut turn, mut joins, mut last) = (0, 0, None);
        let count = u64::from(minutes) * 60 / CHURN_EVERY_S - 1;
        for k in 1..=count {
            let at_s = k * CHURN_EVERY_S;
            let kind = CHURN_ORDER[((k - 1) % 3) as usize];
            let who = if kind == Churn::Join {
                joins += 1;
                names.push(format!("new-{joins}"));
                playing.push(names.len() - 1);
                names.len() - 1
            } else {
                let mut who = playing[turn % playing.len()];
                if Some(who) == last {
                    turn += 1;
                    who = playing[turn % playing.len()];
                }
                turn += 1;
                if kind == Churn::Leave {
                    playing.retain(|&p| p != who);
                    leaves_at.insert(who, at_s as u32 * TICKS_PER_SECOND);
                }
                who
            };
            last = Some(who);
            events.push(Event { at_s, kind, who });
        }
        let play_ticks = minutes * 60 * TICKS_PER_SECOND;
        let host_ticks = play_ticks + MARGIN_TICKS;
        Self { names, events, leaves_at, play_ticks, host_ticks }
    }

    /// The host tick player `who`'s every process plays to: its clean leave's, or the
    /// churn's end.
    fn ticks_of(&self, who: usize) -> u32 {
        self.leaves_at.get(&who).copied().unwrap_or(self.play_ticks)
    }
}

/// One process of a player: the first, or one started again after a crash.
struct Incarnation {
    /// Index into [`Plan::names`].
    who: usize,
    /// Its output files' stem.
    run: String,
    hash_log: PathBuf,
    /// Running until it ends or is killed.
    process: Option<Running>,
    /// What it printed on its standard output, once it ended on its own.
    summary: Option<String>,
    /// What it printed on its standard error (read when it ended or was killed).
    stderr: String,
    /// Whether it was killed (`kill -9`): no summary, its hash log perhaps cut.
    killed: bool,
}

/// The host: a [`Running`] process, with what the soak asks of its log.
struct Host(Running);

impl Host {
    /// Starts the host with `args`, its output in `dir`.
    fn start(dir: &Scratch, args: &[&str]) -> Self {
        Self(Running::start(dir, "host", args))
    }

    fn pid(&self) -> u32 {
        self.0.pid()
    }

    fn stderr(&self) -> String {
        self.0.stderr()
    }

    /// Waits until the host has printed `line` (a line's start, after `fixstep: `) more
    /// than `seen` times; returns the last such line.
    fn wait_for_nth(&self, line: &str, seen: usize, limit: Duration) -> String {
        let start = Instant::now();
        loop {
            let said = self.stderr();
            let found = said.lines().filter_map(|l| l.strip_prefix("fixstep: "));
            if let Some(last) = found.filter(|l| l.starts_with(line)).nth(seen) {
                return last.to_owned();
            }
            assert!(
                start.elapsed() < limit,
                "the host did not say {line:?} (a time more than {seen}) in {limit:?}; it \
                 said:\n{said}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// How many lines the host has printed that start with `line` (after `fixstep: `).
    fn said(&self, line: &str) -> usize {
        let said = self.stderr();
        said.lines()
            .filter_map(|l| l.strip_prefix("fixstep: "))
            .filter(|l| l.starts_with(line))
            .count()
    }

    /// Waits for the host to end on its own and to have succeeded; returns its standard
    /// output.
    fn finish(self) -> String {
        self.0.finish().stdout
    }
}

/// The resident memory of process `pid`, kB (`VmRSS` in `/proc/PID/status`); `None` once it
/// has exited (a zombie has none).
fn resident_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
}

/// Reads the host's resident memory every [`RSS_EVERY_MS`] on a thread of its own, until
/// told to stop; the readings are seconds since `start` and kB.
struct MemorySampler {
    stop: Arc<AtomicBool>,
    thread: thread::JoinHandle<Vec<(f64, u64)>>,
}

impl MemorySampler {
    fn start(pid: u32, start: Instant) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let thread = thread::spawn(move || {
            let mut samples = Vec::new();
            while !stopping.load(Ordering::Relaxed) {
                if let Some(kb) = resident_kb(pid) {
                    samples.push((start.elapsed().as_secs_f64(), kb));
                }
                thread::sleep(Duration::from_millis(RSS_EVERY_MS));
            }
            samples
        });
        Self { stop, thread }
    }

    fn stop(self) -> Vec<(f64, u64)> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the memory sampler does not panic")
    }
}

/// The hash log of a process that was killed: its whole lines (a killed process's buffered
/// writer may have stopped mid-line, and a cut hash is no hash), by tick.
fn whole_lines_of(path: &Path) -> BTreeMap<u32, String> {
    let text = fs::read_to_string(path).unwrap_or_default();
    let whole = text.rfind('\n').map_or("", |end| &text[..=end]);
    whole
        .lines()
        .filter_map(|line| {
            let (tick, hash) = line.split_once(' ')?;
            Some((tick.parse().ok()?, hash.to_owned()))
        })
        .collect()
}

/// The player number in a host's `NAME joined as player N` (or `came back as`) line.
fn number_in(line: &str) -> u32 {
    line.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line:?}"))
}

/// The figures of a soak, printed at its end.
#[derive(Default)]
struct Figures {
    leaves: usize,
    rejoins: Vec<(String, Duration)>,
    joins: Vec<(String, Duration)>,
}

/// Plays `minutes` of churn (see the file's doc) in scratch directory `test`, checks it and
/// prints its figures.
fn soak(test: &str, minutes: u32) {
    let _machine = shared_machine();
    let began = Instant::now();
    let dir = Scratch::new("soak", test);
    let plan = Plan::new(minutes);
    let (host_log, reports) = (dir.path("host.hashes"), dir.path("reports"));
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &SOAK_LINK, NETEM_SEED);
    let host_ticks = plan.host_ticks.to_string();
    // Every player ever seated keeps its seat (a player who left may come back to it), the
    // host's bot one of them.
    let max_players = (plan.names.len() + 1).to_string();
    let mut host_args = game.host_args();
    host_args.extend(
        [
            "--bot",
            "--max-players",
            &max_players,
            "--ticks",
            &host_ticks,
            "--hash-log",
            arg(&host_log),
            "--reports",
            arg(&reports),
        ]
        .map(str::to_owned),
    );
    let host = Host::start(&dir, &strs(&host_args));
    let started = Instant::now();
    let memory = MemorySampler::start(host.pid(), started);
    let seated_within = Duration::from_secs(SEATED_WITHIN_S);
    let watch_ticks = plan.play_ticks.to_string();
    let spectator = Running::start(
        &dir,
        "spectator",
        &["spectate", &game.entry, "--headless", "--ticks", &watch_ticks],
    );
    let start_peer = |who: usize, run: &str| -> Incarnation {
        let name = &plan.names[who];
        let log = dir.path(&format!("{run}.hashes"));
        let ticks = plan.ticks_of(who).to_string();
        let args = [
            "--name",
            name,
            "--ticks",
            &ticks,
            "--hash-log",
            arg(&log),
            "--reports",
            arg(&reports),
        ];
        Incarnation {
            who,
            run: run.to_owned(),
            hash_log: log.clone(),
            process: Some(game.bot_peer(&dir, run, &args)),
            summary: None,
            stderr: String::new(),
            killed: false,
        }
    };
    // The first peers one after another, so none waits for its welcome while the rest load.
    let mut incarnations: Vec<Incarnation> = Vec::new();
    let mut numbers: BTreeMap<usize, u32> = BTreeMap::new();
    for who in 0..PEERS {
        let name = &plan.names[who];
        incarnations.push(start_peer(who, name));
        let line = host.wait_for_nth(&format!("{name} joined as player "), 0, seated_within);
        numbers.insert(who, number_in(&line));
    }
    host.wait_for_nth("spectator is watching", 0, seated_within);
    // The host's memory with everyone seated, for the figures (the sampler's first reading
    // may come before the host has even loaded the town).
    let seated = (started.elapsed().as_secs_f64(), resident_kb(host.pid()).unwrap_or(0));
    println!(
        "soak: {PEERS} peers and a spectator seated {:.1?} after the host's start",
        started.elapsed()
    );

    let mut figures = Figures::default();
    for event in &plan.events {
        let due = started + Duration::from_secs(event.at_s);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
        let name = &plan.names[event.who];
        let current = incarnations
            .iter()
            .rposition(|i| i.who == event.who && i.process.is_some())
            .filter(|_| event.kind != Churn::Join);
        match event.kind {
            Churn::Leave => {
                // Each crash of this player's left a `left` line of its own: its old
                // connection replaced (or timed out).
                let number = numbers[&event.who];
                let crashes =
                    incarnations.iter().filter(|i| i.who == event.who && i.killed).count();
                host.wait_for_nth(
                    &format!("{name} (player {number}) left"),
                    crashes,
                    Duration::from_secs(GONE_WITHIN_S),
                );
                let leaving = &mut incarnations[current.expect("a player leaves while playing")];
                let done = leaving.process.take().expect("running").finish();
                leaving.summary = Some(done.stdout);
                leaving.stderr = done.stderr;
                figures.leaves += 1;
            }
            Churn::Crash => {
                let crashing = &mut incarnations[current.expect("a player crashes while playing")];
                crashing.process.take().expect("running").kill();
                crashing.killed = true;
                crashing.stderr = fs::read_to_string(dir.path(&format!("{}.err", crashing.run)))
                    .unwrap_or_default();
                let back = format!("{name} came back as player ");
                let before = host.said(&back);
                let restarted = Instant::now();
                let run = format!("{name}-again-{}", before + 1);
                incarnations.push(start_peer(event.who, &run));
                let line = host.wait_for_nth(&back, before, seated_within);
                let took = restarted.elapsed();
                assert_eq!(
                    number_in(&line),
                    numbers[&event.who],
                    "{name} came back to another seat:\n{}",
                    host.stderr()
                );
                figures.rejoins.push((name.clone(), took));
            }
            Churn::Join => {
                let joining = Instant::now();
                incarnations.push(start_peer(event.who, name));
                let line =
                    host.wait_for_nth(&format!("{name} joined as player "), 0, seated_within);
                let number = number_in(&line);
                assert!(
                    !numbers.values().any(|&n| n == number),
                    "{name} was given player {number}, someone else's seat:\n{}",
                    host.stderr()
                );
                numbers.insert(event.who, number);
                figures.joins.push((name.clone(), joining.elapsed()));
            }
        }
    }

    // The rest play to the churn's end and leave cleanly, before the host's margin is over.
    for incarnation in &mut incarnations {
        if let Some(process) = incarnation.process.take() {
            let done = process.finish();
            incarnation.summary = Some(done.stdout);
            incarnation.stderr = done.stderr;
        }
    }
    let spectator = spectator.finish();
    let host_summary = host.finish();
    let host_stderr = fs::read_to_string(dir.path("host.err")).unwrap_or_default();
    let samples = memory.stop();
    drop(netem);
    let netem_stderr = fs::read_to_string(dir.path("netem.err")).unwrap_or_default();

    // Nothing panicked, anywhere.
    let mut said: Vec<(String, &str)> = vec![
        ("the host".to_owned(), host_stderr.as_str()),
        ("the link conditioner".to_owned(), netem_stderr.as_str()),
        ("the spectator".to_owned(), spectator.stderr.as_str()),
    ];
    said.extend(incarnations.iter().map(|i| (i.run.clone(), i.stderr.as_str())));
    for (who, stderr) in &said {
        assert!(!stderr.contains("panicked"), "{who} panicked:\n{stderr}");
    }

    // No desync: the host found none, no peer did, nobody wrote a report.
    assert!(host_summary.starts_with("tick "), "the host's summary: {host_summary}");
    assert!(host_summary.contains(" desyncs 0 "), "the host found a desync: {host_summary}");
    assert!(!host_stderr.contains("desync at tick"), "a desync:\n{host_stderr}");
    assert!(reports_in(&reports).is_empty(), "desync reports: {:?}", reports_in(&reports));
    let host_hashes = hash_log(&host_log);
    assert_eq!(host_hashes.len(), plan.host_ticks as usize, "the host ran every tick");

    // Every process of every player computed the host's every tick it ran, without a gap,
    // from its seat to its end; a killed one up to its last whole line.
    for incarnation in &incarnations {
        let name = &plan.names[incarnation.who];
        let number = numbers[&incarnation.who];
        if incarnation.killed {
            let hashes = whole_lines_of(&incarnation.hash_log);
            if !hashes.is_empty() {
                assert_agrees(&incarnation.run, &hashes, &host_hashes);
            }
            continue;
        }
        let summary = incarnation.summary.as_deref().expect("a process that ended on its own");
        assert_eq!(
            player_of(summary),
            number,
            "{} played another seat: {summary}",
            incarnation.run
        );
        assert!(summary.contains("desync none"), "{}: {summary}", incarnation.run);
        assert!(
            !incarnation.stderr.contains("ended the match"),
            "{} was still playing when the match ended: the margin is too short:\n{}",
            incarnation.run,
            incarnation.stderr
        );
        let hashes = hash_log(&incarnation.hash_log);
        assert_agrees(&incarnation.run, &hashes, &host_hashes);
        // `--ticks` is a floor: ticks that arrive together run together, so a peer that
        // leaves may run a tick or two past its own (never past the host's last).
        let until = plan.ticks_of(incarnation.who) - 1;
        let last = hashes.keys().next_back().copied().unwrap_or(0);
        assert!(last >= until, "{} ({name}) played to tick {last}, not {until}", incarnation.run);
    }

    // The host's memory stopped growing after the first minute. Its end is the last reading
    // while the players still played (the host's tick of the churn's end comes no sooner
    // than that many seconds after its start), not one from the margin after they left.
    let settled = samples.iter().find(|(s, _)| *s >= RSS_SETTLED_S as f64).copied();
    let churn_ends_s = f64::from(plan.play_ticks) / f64::from(TICKS_PER_SECOND);
    let end = samples.iter().rev().find(|(s, _)| *s <= churn_ends_s).copied();
    let (Some(settled), Some(end), Some(last)) = (settled, end, samples.last()) else {
        panic!("too few readings of the host's memory: {samples:?}");
    };
    let peak = samples.iter().map(|(_, kb)| *kb).max().unwrap_or(0);

    println!("soak: {minutes} minutes of churn, {:.1?} in all", began.elapsed());
    println!("soak: host: {}", host_summary.trim_end());
    println!(
        "soak: leaves {}, crashes and rejoins {}, new joins {}; players ever seated {}",
        figures.leaves,
        figures.rejoins.len(),
        figures.joins.len(),
        numbers.len() + 1
    );
    for (name, took) in &figures.rejoins {
        println!("soak: {name} was back in its seat {took:.2?} after its restart");
    }
    for (name, took) in &figures.joins {
        println!("soak: {name} was seated {took:.2?} after its start");
    }
    println!(
        "soak: host resident memory: {} kB at {:.0} s (everyone seated), {} kB at {:.0} s, \
         {} kB at {:.0} s (the churn's end), {} kB at {:.0} s (its last reading, the players \
         gone), peak {peak} kB; {:+.2} % from the first minute to the churn's end",
        seated.1,
        seated.0,
        settled.1,
        settled.0,
        end.1,
        end.0,
        last.1,
        last.0,
        (end.1 as f64 / settled.1 as f64 - 1.0) * 100.0
    );
    for incarnation in incarnations.iter().filter(|i| !i.killed) {
        let summary = incarnation.summary.as_deref().unwrap_or_default();
        for line in summary.lines() {
            println!("soak: {}: {line}", incarnation.run);
        }
    }
    println!("soak: spectator: {}", spectator.stdout.trim_end());

    assert!(
        end.1 * 100 <= settled.1 * (100 + RSS_GROWTH_PERCENT),
        "the host's resident memory grew from {} kB at {:.0} s to {} kB at {:.0} s: over \
         {RSS_GROWTH_PERCENT} %; readings (s, kB): {samples:?}",
        settled.1,
        settled.0,
        end.1,
        end.0
    );
}
