//! `fixstep` processes for end-to-end tests of network play: hosts, peers, spectators and the
//! link conditioner, each a process of its own on loopback, killed if a test fails, and
//! readers of the hash logs and desync reports they leave.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::{Scratch, fixstep_binary, workspace_root};

/// The machine as the program's tests share it: read-held by games that may run beside
/// others, write-held by a game that needs it whole; see [`shared_machine`] and
/// [`whole_machine`].
static MACHINE: RwLock<()> = RwLock::new(());

/// A hold on the machine, shared or whole; while it lives, the thread that took it is known to
/// hold the machine, so that [`run_fixstep`](crate::run_fixstep) does not take it again.
pub struct MachineHold<G> {
    _guard: G,
}

impl<G> Drop for MachineHold<G> {
    fn drop(&mut self) {
        HOLDS.with(|holds| holds.set(holds.get() - 1));
    }
}

thread_local! {
    /// How many holds on [`MACHINE`] this thread has: a test's thread, as the harness runs
    /// each test on its own.
    static HOLDS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn hold<G>(guard: G) -> MachineHold<G> {
    HOLDS.with(|holds| holds.set(holds.get() + 1));
    MachineHold { _guard: guard }
}

/// Held by a test while its game runs beside other tests' games. Most games wait on the
/// network clock far more than they compute (a debug game of four processes takes a tenth of
/// a core), and what such a test judges (hashes, logs, counts, a generous deadline) does not
/// depend on when a tick was computed, so two of them share the machine.
pub fn shared_machine() -> MachineHold<RwLockReadGuard<'static, ()>> {
    hold(MACHINE.read().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// Held by a test while its game runs with no other test's game beside it: a test that judges
/// timing (frame pace, a pause, a lateness, an answer within a peer timeout), which another
/// game's processes competing for the cores would disturb, or that loads the machine itself
/// (a flood, dozens of players), which would disturb the others. A run of `fixstep` by a test
/// that holds nothing waits for it too ([`machine_for_a_run`]).
pub fn whole_machine() -> MachineHold<RwLockWriteGuard<'static, ()>> {
    hold(MACHINE.write().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// The machine shared for one run of `fixstep` by a test that holds none of it (a command's
/// refusal, a headless simulation of the stress level), or nothing if this thread already
/// holds it: such a run computes, and beside a test that needs the whole machine it would
/// take the cores that test's timing is judged on.
#[must_use]
pub fn machine_for_a_run() -> Option<MachineHold<RwLockReadGuard<'static, ()>>> {
    (HOLDS.with(std::cell::Cell::get) == 0).then(shared_machine)
}

/// The bad link's one-way delay, ms: a long way across a continent.
pub const BAD_LINK_DELAY_MS: u32 = 80;

/// The bad link's loss, percent: a poor Wi-Fi.
pub const BAD_LINK_LOSS_PERCENT: u32 = 5;

/// The bad link of the lockstep tests: 80 ms one way, up to 20 ms of jitter, 5 % loss.
pub const BAD_LINK: [&str; 6] = ["--delay", "80", "--jitter", "20", "--loss", "5"];

/// How long any one process of a test may run before it is taken as hung, seconds: well
/// over the longest game (1,200 ticks, two minutes), so only a hang reaches it.
pub const HANG_S: u64 = 300;

/// Starts `fixstep` with `args` and the environment variables `env`, in the workspace, its
/// standard output and error going to `NAME.out` and `NAME.err` in `dir`; returns the process
/// and those two files.
///
/// # Panics
///
/// If the files cannot be made or the binary cannot be started.
#[must_use]
pub fn spawn(
    dir: &Scratch,
    name: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Child, PathBuf, PathBuf) {
    spawn_program(&Program::native(), dir, name, args, env)
}

/// [`spawn`] with `program` instead of this build's binary.
///
/// # Panics
///
/// If the files cannot be made or the program cannot be started.
#[must_use]
pub fn spawn_program(
    program: &Program,
    dir: &Scratch,
    name: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Child, PathBuf, PathBuf) {
    let mut command = program.command();
    command.args(args).envs(env.iter().copied());
    spawn_command(dir, name, command)
}

/// Starts `command` with its output in files named after `name` in `dir`, and its data folder
/// there too: the process and those two files.
///
/// # Panics
///
/// If the files cannot be made or the command cannot be started.
#[must_use]
pub fn spawn_command(dir: &Scratch, name: &str, mut command: Command) -> (Child, PathBuf, PathBuf) {
    let stdout = dir.path(&format!("{name}.out"));
    let stderr = dir.path(&format!("{name}.err"));
    let child = command
        .current_dir(workspace_root())
        .stdin(Stdio::null())
        // Rejoin secrets are kept in the test's own folder, not the user's.
        .env("XDG_DATA_HOME", dir.dir())
        .stdout(File::create(&stdout).expect("a scratch file can be created"))
        .stderr(File::create(&stderr).expect("a scratch file can be created"))
        .spawn()
        .expect("the fixstep binary starts");
    (child, stdout, stderr)
}

/// A `fixstep` program: this build's binary, or one built for another architecture and the
/// emulator this machine runs it under.
#[derive(Clone, Debug)]
pub struct Program {
    /// The emulator, if the binary is not of this machine's architecture.
    runner: Option<PathBuf>,
    /// The binary.
    binary: PathBuf,
}

impl Program {
    /// This build's `fixstep` (see [`fixstep_binary`]).
    #[must_use]
    pub fn native() -> Self {
        Self { runner: None, binary: fixstep_binary().to_path_buf() }
    }

    /// `binary`, run under `runner` if there is one.
    #[must_use]
    pub const fn new(runner: Option<PathBuf>, binary: PathBuf) -> Self {
        Self { runner, binary }
    }

    /// A command that runs the program (its arguments still to add).
    #[must_use]
    pub fn command(&self) -> Command {
        match &self.runner {
            Some(runner) => {
                let mut command = Command::new(runner);
                command.arg(&self.binary);
                command
            }
            None => Command::new(&self.binary),
        }
    }
}

/// A `fixstep` process, killed when dropped (a failing test leaves nothing running); its
/// standard output and error go to files in the test's scratch directory.
pub struct Running {
    name: String,
    child: Child,
    stdout: PathBuf,
    stderr: PathBuf,
}

/// What a finished process printed.
pub struct Finished {
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

impl Running {
    /// Starts `fixstep` with `args`, named `name` in messages and its output files.
    #[must_use]
    pub fn start(dir: &Scratch, name: &str, args: &[&str]) -> Self {
        Self::start_with_env(dir, name, args, &[])
    }

    /// The same, with the environment variables `env` set (`AGONES_SDK_HTTP_PORT`, say).
    #[must_use]
    pub fn start_with_env(dir: &Scratch, name: &str, args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_program(&Program::native(), dir, name, args, env)
    }

    /// The same, running `program`.
    #[must_use]
    pub fn start_program(
        program: &Program,
        dir: &Scratch,
        name: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        let (child, stdout, stderr) = spawn_program(program, dir, name, args, env);
        Self { name: name.to_owned(), child, stdout, stderr }
    }

    /// Starts `command` (a `fixstep` run wrapped in another program, such as `ip netns exec`
    /// which becomes it), named `name` in messages and its output files in `dir`.
    ///
    /// # Panics
    ///
    /// If the files cannot be made or the command cannot be started.
    #[must_use]
    pub fn start_command(dir: &Scratch, name: &str, command: Command) -> Self {
        let (child, stdout, stderr) = spawn_command(dir, name, command);
        Self { name: name.to_owned(), child, stdout, stderr }
    }

    /// Its process id (to read its memory under `/proc`, say).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What it said on its standard error so far.
    #[must_use]
    pub fn stderr(&self) -> String {
        fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Waits until the process prints `text` on its standard error.
    pub fn wait_for(&self, text: &str, limit: Duration) {
        let start = Instant::now();
        while !self.stderr().contains(text) {
            assert!(
                start.elapsed() < limit,
                "{} did not say {text:?} in {limit:?}; it said:\n{}",
                self.name,
                self.stderr()
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the process to end on its own and to have succeeded.
    pub fn finish(mut self) -> Finished {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the process can be waited for") {
                break status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(HANG_S),
                "{} hung; it said:\n{}",
                self.name,
                self.stderr()
            );
            thread::sleep(Duration::from_millis(50));
        };
        let stdout = fs::read_to_string(&self.stdout).unwrap_or_default();
        let stderr = self.stderr();
        assert!(status.success(), "{} failed ({status}):\n{stdout}\n{stderr}", self.name);
        Finished { stdout, stderr }
    }

    /// Asks the process to stop, as an orchestrator stops a game server: SIGTERM.
    pub fn terminate(&self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "SIGTERM could not be sent to {}", self.name);
    }

    /// Kills the process, as a crash or a pulled cable would end it: no goodbye.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the link conditioner did, as its summary says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetemCounts {
    /// Datagrams passed on (duplicates included).
    pub forwarded: u64,
    /// Datagrams dropped.
    pub lost: u64,
    /// Datagrams sent twice.
    pub duplicated: u64,
    /// Datagrams held back to be overtaken.
    pub reordered: u64,
}

impl NetemCounts {
    /// The counts of a summary's `forwarded N lost N duplicated N reordered N` line.
    ///
    /// # Panics
    ///
    /// If the summary has no such line.
    #[must_use]
    pub fn read(summary: &str) -> Self {
        let count = |label: &str| {
            number_after(summary, label)
                .unwrap_or_else(|| panic!("the link conditioner counts {label:?}: {summary}"))
                as u64
        };
        Self {
            forwarded: count("forwarded"),
            lost: count("lost"),
            duplicated: count("duplicated"),
            reordered: count("reordered"),
        }
    }

    /// Asserts that it lost `percent` of the datagrams it was given, within five standard
    /// deviations of the chance (a seeded draw, so only a link that ignores `--loss` or
    /// applies another share fails), out of at least `min_given` datagrams.
    ///
    /// # Panics
    ///
    /// If it did not.
    pub fn assert_lost(&self, percent: u32, min_given: u64) {
        let given = self.forwarded.saturating_sub(self.duplicated) + self.lost;
        assert!(given >= min_given, "the link was given {given} datagrams: {self:?}");
        let p = f64::from(percent) / 100.0;
        let share = self.lost as f64 / given as f64;
        let spread = 5.0 * (p * (1.0 - p) / given as f64).sqrt();
        assert!(
            (share - p).abs() <= spread,
            "the link lost {:.2} % of {given} datagrams, not {percent} %: {self:?}",
            share * 100.0
        );
    }
}

/// Asserts that a peer's summary shows its inputs reaching the host's tick at least
/// `delay_ms` after they were sent: a link's one-way delay was applied.
///
/// # Panics
///
/// If the summary says otherwise, or nothing.
pub fn assert_delayed(summary: &str, delay_ms: u32) {
    let p50 = number_after(summary, "input to the host's tick p50")
        .unwrap_or_else(|| panic!("the peer measures its input's way: {summary}"));
    assert!(
        p50 >= f64::from(delay_ms),
        "inputs took {p50} ms to the host, under the link's {delay_ms} ms: {summary}"
    );
}

impl Running {
    /// Stops a link conditioner as Ctrl-C would (SIGTERM) and reads what it did from its
    /// summary.
    ///
    /// # Panics
    ///
    /// If it does not end cleanly with its counts.
    #[must_use]
    pub fn stop_netem(self) -> NetemCounts {
        self.terminate();
        NetemCounts::read(&self.finish().stdout)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The ports [`free_port`] has handed out in this process.
static HANDED_OUT: Mutex<Vec<u16>> = Mutex::new(Vec::new());

/// A UDP port on loopback that nothing listens on now, and that this process has not handed
/// out before (the host and the link conditioner need each other's ports before either
/// starts, so neither can be given port 0). The system may give a port it gave a moment ago
/// to the next bind of port 0 once it is free again; two tests running side by side would
/// then share it, so a port is never handed out twice.
#[must_use]
pub fn free_port() -> u16 {
    let mut handed_out = HANDED_OUT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    loop {
        let port = UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .expect("loopback binds")
            .port();
        if !handed_out.contains(&port) {
            handed_out.push(port);
            return port;
        }
    }
}

/// A host, and where its peers connect: straight to it, or to a link conditioner in front.
pub struct Hosting {
    /// The host's port on loopback.
    pub host_port: u16,
    /// Where peers connect.
    pub entry: String,
    /// `--game` and its game, for a game other than the default (the town).
    game: Vec<String>,
}

impl Hosting {
    /// A game whose peers connect straight to the host.
    #[must_use]
    pub fn direct() -> Self {
        let host_port = free_port();
        Self { host_port, entry: format!("127.0.0.1:{host_port}"), game: Vec::new() }
    }

    /// A game whose peers connect through a link conditioner.
    #[must_use]
    pub fn through_netem() -> (Self, u16) {
        let (host_port, netem_port) = (free_port(), free_port());
        let entry = format!("127.0.0.1:{netem_port}");
        (Self { host_port, entry, game: Vec::new() }, netem_port)
    }

    /// A game whose host listens on `host_port` and whose peers connect to `entry` (a relay
    /// of the test's own, say).
    #[must_use]
    pub const fn at(host_port: u16, entry: String) -> Self {
        Self { host_port, entry, game: Vec::new() }
    }

    /// The same, playing game `name` (`fixstep --game NAME`) instead of the town.
    #[must_use]
    pub fn playing(mut self, name: &str) -> Self {
        self.game = vec!["--game".to_owned(), name.to_owned()];
        self
    }

    /// The arguments that put a host on this game's port, reachable at its entry.
    #[must_use]
    pub fn host_args(&self) -> Vec<String> {
        let mut args = self.game.clone();
        args.extend(["host", "--headless", "--bind", "127.0.0.1", "--port"].map(str::to_owned));
        args.push(self.host_port.to_string());
        if self.entry != format!("127.0.0.1:{}", self.host_port) {
            args.extend(["--also-reachable-at".to_owned(), self.entry.clone()]);
        }
        args
    }

    /// Starts a headless peer played by a bot (`fixstep join ENTRY --headless --bot`), with
    /// `args` after, its output under `run` in `dir`.
    #[must_use]
    pub fn bot_peer(&self, dir: &Scratch, run: &str, args: &[&str]) -> Running {
        self.bot_peer_of(&Program::native(), dir, run, args)
    }

    /// The same, running `program`.
    #[must_use]
    pub fn bot_peer_of(
        &self,
        program: &Program,
        dir: &Scratch,
        run: &str,
        args: &[&str],
    ) -> Running {
        let mut all: Vec<&str> = self.game.iter().map(String::as_str).collect();
        all.extend(["join", self.entry.as_str(), "--headless", "--bot"]);
        all.extend_from_slice(args);
        Running::start_program(program, dir, run, &all, &[])
    }

    /// Starts the link conditioner in front of the host with `link`.
    #[must_use]
    pub fn netem(&self, dir: &Scratch, netem_port: u16, link: &[&str], seed: u64) -> Running {
        let listen = format!("127.0.0.1:{netem_port}");
        let forward = format!("127.0.0.1:{}", self.host_port);
        let seed = seed.to_string();
        let mut args = vec!["netem", "--listen", &listen, "--forward", &forward, "--seed", &seed];
        args.extend_from_slice(link);
        Running::start(dir, "netem", &args)
    }
}

/// `args` as the `&str`s [`Running::start`] takes.
#[must_use]
pub fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A hash log (`TICK HASH` lines) by tick.
///
/// # Panics
///
/// If the log cannot be read or a line is not `TICK HASH`.
#[must_use]
pub fn hash_log(path: &Path) -> BTreeMap<u32, String> {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read the hash log {}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let (tick, hash) = line.split_once(' ').expect("a hash log line is `TICK HASH`");
            (tick.parse().expect("a tick"), hash.to_owned())
        })
        .collect()
}

/// Asserts that `peer`'s log covers ticks `from..=to` without a gap and agrees with the
/// host's log on every one.
///
/// # Panics
///
/// If it does not.
pub fn assert_agrees(name: &str, peer: &BTreeMap<u32, String>, host: &BTreeMap<u32, String>) {
    let (Some(&first), Some(&last)) = (peer.keys().next(), peer.keys().next_back()) else {
        panic!("{name} ran no tick");
    };
    assert_eq!(
        peer.len() as u32,
        last - first + 1,
        "{name}'s ticks {first}..={last} have gaps: a peer completes ticks contiguously"
    );
    for (tick, hash) in peer {
        assert_eq!(host.get(tick), Some(hash), "{name} differs from the host at tick {tick}");
    }
}

/// The players' number in a `fixstep join` summary line (`player 1 tick ...`).
///
/// # Panics
///
/// If there is none.
#[must_use]
pub fn player_of(summary: &str) -> u32 {
    summary
        .lines()
        .find_map(|l| l.strip_prefix("player "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no player number in {summary:?}"))
}

/// The number after `label` in `text` (`22` after `p50 ` in `p50 22 ms`), if there is one.
#[must_use]
pub fn number_after(text: &str, label: &str) -> Option<f64> {
    text.split(label).nth(1)?.split_whitespace().next()?.parse().ok()
}

/// The number at `key` of a JSON report (`fixstep loadtest --json`'s, say).
///
/// # Panics
///
/// If the report has no number there, showing the report.
#[must_use]
pub fn report_number(report: &serde_json::Value, key: &str) -> f64 {
    report[key].as_f64().unwrap_or_else(|| panic!("no number {key} in {report:#}"))
}

/// The names of the desync reports under `dir`, sorted (none if it does not exist).
#[must_use]
pub fn reports_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|entries| {
            entries.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into()).collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// What a game with a perturbed peer left: see [`Hosting::perturbed_game`].
pub struct PerturbedRun {
    /// The perturbed peer's player number.
    pub player: u32,
    /// The host's report summary, then the peer's, with who wrote it.
    pub summaries: [(&'static str, String); 2],
}

impl Hosting {
    /// Plays `host_ticks` on a headless host with a bot, and a bot peer of `peer_ticks` that
    /// moves its own state off the host's after tick `perturbed_tick` (`--perturb-at`).
    /// Checks what every game's desync must give: the peer names the tick, within
    /// `within_ticks` after the perturbation; the host says so; both sides write exactly one
    /// report, `desync-tick-T-player-P`, with both states; the host resyncs the peer within
    /// a second (ten ticks) of the desync, and from then on the peer computes the host's every
    /// tick to the end. Returns the summaries for the game's own naming of the entity and
    /// field to be checked.
    ///
    /// # Panics
    ///
    /// If any of that does not hold.
    #[must_use]
    pub fn perturbed_game(
        &self,
        dir: &Scratch,
        (host_ticks, peer_ticks): (u32, u32),
        perturbed_tick: u32,
        within_ticks: u32,
    ) -> PerturbedRun {
        let (host_reports, peer_reports) = (dir.path("host-reports"), dir.path("peer-reports"));
        let (host_log, peer_log) = (dir.path("host.hashes"), dir.path("peer.hashes"));
        let mut host_args = self.host_args();
        let ticks = host_ticks.to_string();
        host_args.extend(
            ["--bot", "--ticks", &ticks, "--reports", crate::arg(&host_reports), "--hash-log"]
                .map(str::to_owned),
        );
        host_args.push(crate::arg(&host_log).to_owned());
        let host = Running::start(dir, "host", &strs(&host_args));
        let (tick, ticks) = (perturbed_tick.to_string(), peer_ticks.to_string());
        let peer_args = [
            "--ticks",
            &ticks,
            "--perturb-at",
            &tick,
            "--reports",
            crate::arg(&peer_reports),
            "--hash-log",
            crate::arg(&peer_log),
        ];
        let peer = self.bot_peer(dir, "peer", &peer_args).finish();
        let host = host.finish();
        let player = player_of(&peer.stdout);
        let reported = number_after(&peer.stdout, "desync ")
            .unwrap_or_else(|| panic!("the peer names the desync's tick: {}", peer.stdout))
            as u32;
        assert!(
            (perturbed_tick..=perturbed_tick + within_ticks).contains(&reported),
            "perturbed after tick {perturbed_tick}, reported at {reported}"
        );
        assert!(host.stderr.contains(&format!("desync at tick {reported}")), "{}", host.stderr);
        let resynced = number_after(&peer.stdout, "resynced ")
            .unwrap_or_else(|| panic!("the peer was resynced: {}", peer.stdout))
            as u32;
        assert!(
            resynced > reported && resynced <= reported + 10,
            "desync at tick {reported}, resynced at {resynced}: more than a second"
        );
        let (host_hashes, peer_hashes) = (hash_log(&host_log), hash_log(&peer_log));
        let after: BTreeMap<u32, String> =
            peer_hashes.into_iter().filter(|(t, _)| *t >= resynced).collect();
        assert!(after.len() > 20, "the peer played on after its resync: {} ticks", after.len());
        assert_agrees("the peer after its resync", &after, &host_hashes);
        let folder = format!("desync-tick-{reported}-player-{player}");
        let summaries = [("host", host_reports), ("peer", peer_reports)].map(|(side, reports)| {
            assert_eq!(reports_in(&reports), std::slice::from_ref(&folder), "the {side}'s reports");
            for state in ["host.ron", "peer.ron"] {
                assert!(reports.join(&folder).join(state).exists(), "the {side}'s {state}");
            }
            let summary = fs::read_to_string(reports.join(&folder).join("summary.txt"))
                .expect("a report has a summary");
            (side, summary)
        });
        PerturbedRun { player, summaries }
    }
}

/// The hash logs of a game of bots: see [`Hosting::bots_agree`].
pub struct BotGame {
    /// Each peer's name and hashes by tick (each agreeing with the host's).
    pub peers: Vec<(String, BTreeMap<u32, String>)>,
    /// Each peer's summary, in the same order.
    pub summaries: Vec<String>,
}

impl Hosting {
    /// Plays `ticks` on a headless host with a bot, and `peers` bot peers (`peer-1`, ...) of
    /// as many ticks, each logging its hashes. Checks what every game must give: the host ran
    /// every tick; nobody found a desync or wrote a report; each peer's ticks are contiguous
    /// and every one agrees with the host's; the peers are as many players. Returns the logs.
    ///
    /// # Panics
    ///
    /// If any of that does not hold.
    #[must_use]
    pub fn bots_agree(&self, dir: &Scratch, peers: usize, ticks: u32) -> BotGame {
        self.bots_agree_across(dir, &Program::native(), &vec![Program::native(); peers], ticks)
    }

    /// [`Hosting::bots_agree`] with the host run by `host` and a peer run by each of `peers`;
    /// each of them also records the match (`NAME.fxr` in `dir`: `host.fxr`, `peer-1.fxr`,
    /// ...).
    ///
    /// # Panics
    ///
    /// As [`Hosting::bots_agree`].
    #[must_use]
    pub fn bots_agree_across(
        &self,
        dir: &Scratch,
        host: &Program,
        peers: &[Program],
        ticks: u32,
    ) -> BotGame {
        let (host_log, reports) = (dir.path("host.hashes"), dir.path("reports"));
        let ticks_text = ticks.to_string();
        let mut host_args = self.host_args();
        let recording = dir.path("host.fxr");
        host_args.extend(
            ["--bot", "--ticks", &ticks_text, "--hash-log"].map(str::to_owned).into_iter().chain(
                [crate::arg(&host_log), "--reports", crate::arg(&reports)].map(str::to_owned),
            ),
        );
        host_args.extend(["--record".to_owned(), crate::arg(&recording).to_owned()]);
        let host = Running::start_program(host, dir, "host", &strs(&host_args), &[]);
        let running: Vec<(String, PathBuf, Running)> = peers
            .iter()
            .enumerate()
            .map(|(i, program)| {
                let name = format!("peer-{}", i + 1);
                let log = dir.path(&format!("{name}.hashes"));
                let recording = dir.path(&format!("{name}.fxr"));
                let args = ["--ticks", &ticks_text, "--name", &name, "--hash-log"];
                let args = [
                    &args[..],
                    &[crate::arg(&log), "--reports", crate::arg(&reports)],
                    &["--record", crate::arg(&recording)],
                ];
                let peer = self.bot_peer_of(program, dir, &name, &args.concat());
                (name, log, peer)
            })
            .collect();
        let finished: Vec<(String, PathBuf, Finished)> =
            running.into_iter().map(|(name, log, peer)| (name, log, peer.finish())).collect();
        let host_done = host.finish();
        assert!(
            host_done.stdout.contains("desyncs 0"),
            "the host found a desync: {}",
            host_done.stdout
        );
        let host_hashes = hash_log(&host_log);
        assert_eq!(host_hashes.len(), ticks as usize, "the host runs every tick");
        let players: std::collections::BTreeSet<u32> =
            finished.iter().map(|(_, _, done)| player_of(&done.stdout)).collect();
        assert_eq!(players.len(), peers.len(), "a player each: {players:?}");
        assert!(reports_in(&reports).is_empty(), "desync reports: {:?}", reports_in(&reports));
        let summaries = finished.iter().map(|(_, _, done)| done.stdout.clone()).collect();
        let peers = finished
            .into_iter()
            .map(|(name, log, done)| {
                assert!(done.stdout.contains("desync none"), "{name}: {}", done.stdout);
                let hashes = hash_log(&log);
                assert_agrees(&name, &hashes, &host_hashes);
                (name, hashes)
            })
            .collect();
        BotGame { peers, summaries }
    }
}
