//! The join and watch forms' list of games on the local network, asked again every few
//! seconds from a thread of its own, so that no frame waits for the answers.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fixstep_net::lan::{LAN_PORTS, LAN_TARGETS, LanHost, discover};

/// How often the list is asked again: a host started or gone shows within this.
const ASK_EVERY: Duration = Duration::from_secs(2);

/// How long each round waits for answers: a LAN answers in a few milliseconds, and a host's
/// thread that is busy with a tick in well under this.
const WAIT_FOR_ANSWERS: Duration = Duration::from_millis(400);

/// How long the thread sleeps between looks at whether it should stop: a closed form lets
/// it go at once, not after a whole round.
const STOP_LOOK: Duration = Duration::from_millis(50);

/// The games of one kind that answered the last round, asked by a thread until dropped.
#[derive(Debug)]
pub struct LanList {
    hosts: Arc<Mutex<Vec<LanHost>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LanList {
    /// Starts asking for the games named `game` on the default ports of this network and
    /// this machine.
    #[must_use]
    pub fn start(game: &'static str) -> Self {
        Self::asking(game, LAN_TARGETS.to_vec(), LAN_PORTS.collect())
    }

    /// Starts asking `targets` on `ports` for the games named `game`.
    #[must_use]
    pub fn asking(game: &'static str, targets: Vec<IpAddr>, ports: Vec<u16>) -> Self {
        let hosts = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (found, stopping) = (Arc::clone(&hosts), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("lan-list".to_owned())
            .spawn(move || {
                while !stopping.load(Ordering::Relaxed) {
                    let round = Instant::now();
                    // A network that cannot be asked (no interface yet) lists nothing, and is
                    // asked again next round.
                    let answered = discover(&targets, &ports, WAIT_FOR_ANSWERS).unwrap_or_default();
                    let same_game = answered.into_iter().filter(|h| h.answer.game == game);
                    *found.lock().unwrap_or_else(PoisonError::into_inner) = same_game.collect();
                    while round.elapsed() < ASK_EVERY && !stopping.load(Ordering::Relaxed) {
                        std::thread::sleep(STOP_LOOK);
                    }
                }
            })
            .ok();
        Self { hosts, stop, thread }
    }

    /// The games that answered the last round.
    #[must_use]
    pub fn hosts(&self) -> Vec<LanHost> {
        self.hosts.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl Drop for LanList {
    fn drop(&mut self) {
        // The thread ends within a round's wait; the window does not wait for it.
        self.stop.store(true, Ordering::Relaxed);
        drop(self.thread.take());
    }
}
