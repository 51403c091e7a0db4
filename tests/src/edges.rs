//! For the tests of a network game's edges (a host gone without a goodbye, a refusal, a
//! late joiner): `fixstep` processes expected to end on their own, well or badly, with how
//! long they took and what they said; the progress of a host read from its hash log; and a
//! relay whose link a test changes mid-game.

use std::collections::VecDeque;
use std::fs;
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::processes::{Hosting, Running, free_port, strs};
use crate::{Scratch, workspace_root};

/// A `fixstep` process whose end is what a test looks at (its status, its words, when it
/// came), killed when dropped; its standard output and error go to files in the test's
/// scratch directory.
pub struct Ending {
    name: String,
    child: Child,
    started: Instant,
    stdout: PathBuf,
    stderr: PathBuf,
}

/// How a process ended.
#[derive(Debug)]
pub struct Ended {
    /// Its exit status.
    pub status: ExitStatus,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// When its end was seen (to within the 20 ms between looks).
    pub at: Instant,
    /// How long it ran.
    pub took: Duration,
}

impl Ended {
    /// The lines it printed on its standard error, blank ones left out.
    #[must_use]
    pub fn error_lines(&self) -> Vec<&str> {
        self.stderr.lines().filter(|l| !l.trim().is_empty()).collect()
    }

    /// The one line of a game that ended badly: asserts that it exited 1 (`how` says why it
    /// should have) and said exactly one line on its standard error, and returns that line.
    ///
    /// # Panics
    ///
    /// If it exited otherwise, or said more or less.
    #[must_use]
    pub fn failed_in_one_line(&self, how: &str) -> &str {
        assert_eq!(self.status.code(), Some(1), "{how}:\n{self:?}");
        let lines = self.error_lines();
        assert_eq!(lines.len(), 1, "one line on its standard error:\n{}", self.stderr);
        lines[0]
    }
}

impl Ending {
    /// Starts `fixstep` with `args`, named `name` in messages and its output files (with its
    /// rejoin secrets kept in the test's own folder, as [`crate::processes::Running`] does).
    ///
    /// # Panics
    ///
    /// If the binary cannot be started.
    #[must_use]
    pub fn start(dir: &Scratch, name: &str, args: &[&str]) -> Self {
        let started = Instant::now();
        let (child, stdout, stderr) = crate::processes::spawn(dir, name, args, &[]);
        Self { name: name.to_owned(), child, started, stdout, stderr }
    }

    /// What it said on its standard error so far.
    #[must_use]
    pub fn stderr(&self) -> String {
        fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Its process id (to signal it).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the process to end on its own, for at most `limit` from now, and returns
    /// how it ended, whatever its status.
    ///
    /// # Panics
    ///
    /// If it is still running after `limit` (it is killed, and what it said is shown).
    pub fn end(mut self, limit: Duration) -> Ended {
        let waiting = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the process can be waited for") {
                break status;
            }
            assert!(
                waiting.elapsed() < limit,
                "{} was still running {limit:?} later; it said:\n{}",
                self.name,
                self.stderr()
            );
            thread::sleep(Duration::from_millis(20));
        };
        let at = Instant::now();
        Ended {
            status,
            stdout: fs::read_to_string(&self.stdout).unwrap_or_default(),
            stderr: self.stderr(),
            at,
            took: at - self.started,
        }
    }
}

impl Drop for Ending {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The ticks a hash log holds so far: its complete lines (a process writes each tick's line
/// out as it runs it, so a running host's log says how far it is).
#[must_use]
pub fn ticks_logged(log: &Path) -> u32 {
    let text = fs::read_to_string(log).unwrap_or_default();
    u32::try_from(text.matches('\n').count()).unwrap_or(u32::MAX)
}

/// Waits until the hash log `log` of `process` holds `ticks` ticks.
///
/// # Panics
///
/// If it does not within `limit` (with what the process said meanwhile).
pub fn wait_for_ticks(process: &Running, log: &Path, ticks: u32, limit: Duration) {
    let start = Instant::now();
    while ticks_logged(log) < ticks {
        assert!(
            start.elapsed() < limit,
            "{} holds {} ticks after {limit:?}, not {ticks}; its process said:\n{}",
            log.display(),
            ticks_logged(log),
            process.stderr()
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// How many times `text` says `what`.
#[must_use]
pub fn times_said(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

/// A relay on loopback between peers and a host, whose link the test changes while the game
/// runs: the way up (the peers' datagrams) can be held, what is sent meanwhile waiting and
/// then going on in order, as on a link whose delay jumped for a moment; the way down can drop
/// every datagram over a size (a reliable message's slices, resent or not). It notes when
/// each datagram came, each way, so a test can tell a stall of the machine from one of the
/// game.
pub struct Relay {
    entry: SocketAddr,
    hold_up: Arc<AtomicBool>,
    drop_down_over: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    /// When each datagram came up, and down.
    arrivals: Arc<Mutex<[Vec<Instant>; 2]>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Relay {
    /// A relay to the host on `host_port`, passing everything on for now.
    ///
    /// # Panics
    ///
    /// If loopback cannot be bound.
    #[must_use]
    pub fn start(host_port: u16) -> Self {
        let front = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
        let entry = front.local_addr().expect("an address");
        let back = UdpSocket::bind("127.0.0.1:0").expect("loopback binds");
        back.connect(("127.0.0.1", host_port)).expect("the host's address");
        let poll = Some(Duration::from_millis(1));
        front.set_read_timeout(poll).expect("a timeout");
        back.set_read_timeout(poll).expect("a timeout");
        let hold_up = Arc::new(AtomicBool::new(false));
        let drop_down_over = Arc::new(AtomicUsize::new(usize::MAX));
        let stop = Arc::new(AtomicBool::new(false));
        let arrivals = Arc::new(Mutex::new([Vec::new(), Vec::new()]));
        let (holding, dropping, done) =
            (Arc::clone(&hold_up), Arc::clone(&drop_down_over), Arc::clone(&stop));
        let noted = Arc::clone(&arrivals);
        let note = move |way: usize| {
            noted.lock().unwrap_or_else(PoisonError::into_inner)[way].push(Instant::now());
        };
        let thread = thread::spawn(move || {
            let mut buf = [0u8; 2048];
            let mut peer: Option<SocketAddr> = None;
            let mut held: VecDeque<Vec<u8>> = VecDeque::new();
            while !done.load(Ordering::Relaxed) {
                if let Ok((n, from)) = front.recv_from(&mut buf) {
                    note(0);
                    peer = Some(from);
                    held.push_back(buf[..n].to_vec());
                }
                if !holding.load(Ordering::Relaxed) {
                    for datagram in held.drain(..) {
                        let _ = back.send(&datagram);
                    }
                }
                if let (Ok(n), Some(peer)) = (back.recv(&mut buf), peer) {
                    note(1);
                    if n <= dropping.load(Ordering::Relaxed) {
                        let _ = front.send_to(&buf[..n], peer);
                    }
                }
            }
        });
        Self { entry, hold_up, drop_down_over, stop, arrivals, thread: Some(thread) }
    }

    /// The silences between two datagrams one way (up or down) since `since` that were longer
    /// than `over`: a stall of the machine (the peer's process, the host's, or the relay's
    /// own thread waiting for a core) shows as one, whichever end it held up.
    #[must_use]
    pub fn silences_since(&self, since: Instant, over: Duration) -> Vec<Duration> {
        let arrivals = self.arrivals.lock().unwrap_or_else(PoisonError::into_inner);
        arrivals
            .iter()
            .flat_map(|way| {
                let after: Vec<Instant> = way.iter().copied().filter(|&t| t >= since).collect();
                after.windows(2).map(|w| w[1] - w[0]).filter(|&gap| gap > over).collect::<Vec<_>>()
            })
            .collect()
    }

    /// Where peers connect.
    #[must_use]
    pub fn entry(&self) -> String {
        self.entry.to_string()
    }

    /// Holds the way up (`true`), or lets it go on with what it held (`false`).
    pub fn hold_up(&self, hold: bool) {
        self.hold_up.store(hold, Ordering::Relaxed);
    }

    /// Drops every datagram down longer than `bytes` from now on.
    pub fn drop_down_over(&self, bytes: usize) {
        self.drop_down_over.store(bytes, Ordering::Relaxed);
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The people in the crowd level: each is a character of the state, some fifty bytes
/// of it, so that the state is some thirty kilobytes, and the welcome some twenty-five slices
/// of the reliable channel's 1,200 bytes. At 5 % loss, seven welcomes in ten lose a slice,
/// which the host sends again.
pub const CROWD: usize = 600;

/// The test level of open ground with a crowd of [`CROWD`] people in rows north of the spawn
/// instead of its one mayor: as many talkers, standing, as a level may hold, and the rest
/// pedestrians pacing a metre to and fro.
///
/// # Panics
///
/// If the open ground level cannot be read, or has lost its mayor or its empty list of
/// pedestrians.
#[must_use]
pub fn crowd_level() -> String {
    let level = fs::read_to_string(workspace_root().join("tests/levels/open_ground.ron"))
        .expect("the open ground level reads");
    let mayor =
        r#"(name: "Mayor", at: (0, 1000), facing_deg: -90, dialogue: "dialogue/mayor.ron"),"#;
    let nobody = "pedestrians: [],";
    assert!(level.contains(mayor), "the open ground level has its mayor:\n{level}");
    assert!(level.contains(nobody), "the open ground level has no pedestrians:\n{level}");
    let (mut talkers, mut walkers) = (Vec::new(), Vec::new());
    for i in 0..CROWD as i64 {
        // 30 to a row, 3 m apart; the rows 1.5 m apart from 15 m north on, all on the ground's
        // 100 m square (centimetres).
        let (x, z) = (-4_500 + (i % 30) * 300, 1_500 + (i / 30) * 150);
        if usize::try_from(i).is_ok_and(|i| i < fixstep_town::level::MAX_TALKERS) {
            talkers.push(format!(
                "(name: \"Person {i}\", at: ({x}, {z}), facing_deg: -90, dialogue: \
                 \"dialogue/mayor.ron\"),"
            ));
        } else {
            let far = x + 100;
            walkers.push(format!(
                "(name: \"Person {i}\", route: [({x}, {z}), ({far}, {z})], stops: [], \
                 pause_ticks: 1, speed_cm_per_s: 50),"
            ));
        }
    }
    let pedestrians = format!("pedestrians: [\n        {}\n    ],", walkers.join("\n        "));
    level.replacen(mayor, &talkers.join("\n        "), 1).replacen(nobody, &pedestrians, 1)
}

/// The largest datagram down a [`CrowdBehindRelay`] lets through, bytes: more than a goodbye,
/// a keep-alive or any frame of ticks of a two-player game; less than a slice of a reliable
/// message (1,200 bytes, and netcode's own), which the crowd's state (a welcome, a snapshot)
/// comes in.
pub const CROWD_STATE_BLOCKED_OVER_BYTES: usize = 1_000;

/// How long a debug host may take to start on a busy machine, seconds.
pub const HOST_START_S: u64 = 60;

/// A host of the crowd game, with its bot, behind a relay that drops every datagram down
/// longer than [`CROWD_STATE_BLOCKED_OVER_BYTES`] once the host is up: a newcomer's
/// connection is made, and the host's small datagrams reach it, but the crowd's state never
/// does.
pub struct CrowdBehindRelay {
    /// The relay peers connect through.
    pub relay: Relay,
    /// The host.
    pub host: Running,
    /// The crowd level, which peers must load too.
    pub level: PathBuf,
}

impl CrowdBehindRelay {
    /// Starts the host in `dir`, with `args` after its own, and waits until it is hosting.
    ///
    /// # Panics
    ///
    /// If the host does not start hosting in time.
    #[must_use]
    pub fn start(dir: &Scratch, args: &[&str]) -> Self {
        let level = dir.write("crowd.ron", crowd_level());
        let host_port = free_port();
        let relay = Relay::start(host_port);
        let game = Hosting::at(host_port, relay.entry());
        let mut host_args = game.host_args();
        host_args.extend(["--level".to_owned(), level.display().to_string(), "--bot".to_owned()]);
        host_args.extend(args.iter().map(|a| (*a).to_owned()));
        let host = Running::start(dir, "host", &strs(&host_args));
        host.wait_for("hosting", Duration::from_secs(HOST_START_S));
        relay.drop_down_over(CROWD_STATE_BLOCKED_OVER_BYTES);
        Self { relay, host, level }
    }
}
