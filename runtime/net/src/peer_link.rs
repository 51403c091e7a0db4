//! A peer's session on its transport, served from a thread of its own when its frames are slow.
//!
//! A peer's window draws when the window system lets it: a software renderer draws a few
//! frames a second, a window being dragged or resized may block its thread for seconds. Were
//! its socket served only between frames, renet would acknowledge the host's packets a frame
//! late (the round trip it reports grows by a frame, and the host resends ticks the peer has
//! had for a while), and a long stall would let the connection time out. A [`PeerLink`] served
//! from a thread ([`PeerLink::serve_from_thread`]) receives and sends every few milliseconds
//! whatever the frames do; the session's events wait in it until the frame drains them, so
//! the game itself still moves on frames.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use fixstep_runtime::net::{GameData, PeerSession};

use crate::{Admission, LinkStats, NetError, PeerTransport, WallClock};

/// A session and its transport, and what the serving thread could not do.
struct Served<D: GameData> {
    session: PeerSession<D>,
    transport: PeerTransport,
    /// The thread's failure (a lost connection, the host's goodbye), for the next receive.
    failure: Option<NetError>,
}

/// A peer's session and transport; see the documentation of its module.
pub struct PeerLink<D: GameData> {
    served: Arc<Mutex<Served<D>>>,
    thread: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
    /// The host's goodbye, once it came: the game is over, not broken, and nothing more is
    /// received or sent.
    ended: Option<String>,
    host: std::net::SocketAddr,
    /// How often the serving thread serves, once there is one.
    every: Option<Duration>,
}

impl<D: GameData> std::fmt::Debug for PeerLink<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerLink").field("threaded", &self.thread.is_some()).finish_non_exhaustive()
    }
}

/// The session of a [`PeerLink`], held for as long as this guard lives (the serving thread
/// waits meanwhile: keep it short).
pub struct SessionGuard<'a, D: GameData>(MutexGuard<'a, Served<D>>);

impl<D: GameData> std::ops::Deref for SessionGuard<'_, D> {
    type Target = PeerSession<D>;
    fn deref(&self) -> &PeerSession<D> {
        &self.0.session
    }
}

impl<D: GameData> std::ops::DerefMut for SessionGuard<'_, D> {
    fn deref_mut(&mut self) -> &mut PeerSession<D> {
        &mut self.0.session
    }
}

impl<D: GameData> PeerLink<D> {
    /// `session` connecting to the host at `host` with `admission`, served by the caller's
    /// [`receive`](Self::receive) and [`send`](Self::send) until
    /// [`serve_from_thread`](Self::serve_from_thread).
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn connect(
        host: std::net::SocketAddr,
        admission: &Admission,
        session: PeerSession<D>,
    ) -> Result<Self, NetError> {
        Self::on_transport(PeerTransport::connect(host, admission)?, host, session)
    }

    /// `session` connecting to the host at `host` on `transport` (made on a socket whose
    /// path to the host is open already: see [`PeerTransport::connect_on`]); otherwise as
    /// [`connect`](Self::connect).
    ///
    /// # Errors
    ///
    /// None today; the same as [`connect`](Self::connect)'s for the future.
    pub fn on_transport(
        transport: PeerTransport,
        host: std::net::SocketAddr,
        session: PeerSession<D>,
    ) -> Result<Self, NetError> {
        let served = Served { session, transport, failure: None };
        let served = Arc::new(Mutex::new(served));
        Ok(Self { served, thread: None, ended: None, host, every: None })
    }

    fn served(&self) -> MutexGuard<'_, Served<D>> {
        // A thread that panicked mid-serve left a session whose worst is a lost message:
        // the reliable channel resends, and the lockstep checks every tick's hash.
        self.served.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Serves the socket from a thread every `every` from now on: receives what arrived and
    /// sends what the session has. [`receive`](Self::receive) then only hands over the
    /// thread's failure, if any.
    pub fn serve_from_thread(&mut self, every: Duration) {
        if self.thread.is_some() {
            return;
        }
        self.every = Some(every);
        let stop = Arc::new(AtomicBool::new(false));
        let served = Arc::clone(&self.served);
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let clock = WallClock::new();
            let mut last = clock.now_micros();
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(every);
                let now = clock.now_micros();
                let elapsed = Duration::from_micros(now - last);
                last = now;
                let mut guard = served.lock().unwrap_or_else(PoisonError::into_inner);
                let Served { session, transport, failure } = &mut *guard;
                if let Err(error) =
                    transport.receive(elapsed, session).and_then(|()| transport.send(session))
                {
                    // Handed over at the next receive; a failed connection has nothing more
                    // to serve.
                    *failure = Some(error);
                    break;
                }
            }
        });
        self.thread = Some((stop, thread));
    }

    /// Receives what came in the last `elapsed` and hands it to the session; from a thread
    /// serving the socket, hands over what it failed with instead. The host's goodbye is no
    /// error: it is kept for [`ended`](Self::ended), and nothing is received after it.
    ///
    /// # Errors
    ///
    /// If the socket fails or the connection is refused or lost.
    pub fn receive(&mut self, elapsed: Duration) -> Result<(), NetError> {
        if self.ended.is_some() {
            return Ok(());
        }
        let result = {
            let mut served = self.served();
            match served.failure.take() {
                Some(failure) => Err(failure),
                None if self.thread.is_some() => Ok(()),
                None => {
                    let Served { session, transport, .. } = &mut *served;
                    transport.receive(elapsed, session)
                }
            }
        };
        self.keep_goodbye(result)
    }

    /// Sends what the session has to send now (a thread serving the socket would within a
    /// few milliseconds; a frame's inputs need not wait for it); nothing once the host has
    /// ended the game.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn send(&mut self) -> Result<(), NetError> {
        if self.ended.is_some() {
            return Ok(());
        }
        let result = {
            let mut served = self.served();
            let Served { session, transport, .. } = &mut *served;
            transport.send(session)
        };
        self.keep_goodbye(result)
    }

    /// Takes the host's goodbye ([`NetError::HostEnded`]) out of `result` into
    /// [`ended`](Self::ended); any other error stays one.
    fn keep_goodbye(&mut self, result: Result<(), NetError>) -> Result<(), NetError> {
        match result {
            Err(goodbye @ NetError::HostEnded { .. }) => {
                self.ended = Some(goodbye.to_string());
                Ok(())
            }
            other => other,
        }
    }

    /// The host's goodbye, if the host ended the game (it stopped, or its match is over).
    #[must_use]
    pub fn ended(&self) -> Option<&str> {
        self.ended.as_deref()
    }

    /// The host's address.
    #[must_use]
    pub const fn host(&self) -> std::net::SocketAddr {
        self.host
    }

    /// The session, locked while the guard lives.
    #[must_use]
    pub fn session(&self) -> SessionGuard<'_, D> {
        SessionGuard(self.served())
    }

    /// Whether the connection is up.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.served().transport.is_connected()
    }

    /// The link to the host.
    #[must_use]
    pub fn stats(&self) -> LinkStats {
        self.served().transport.stats()
    }

    /// Turns this session to another host, at `host` with `admission` (its host went, and
    /// `host` is the successor it turns to): the connection to the old host is closed, a new
    /// one made, and the session says hello there as it comes up, served as before (from a
    /// thread, if it was). What the old host said in ending is forgotten.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn redial(
        &mut self,
        host: std::net::SocketAddr,
        admission: &Admission,
    ) -> Result<(), NetError> {
        let threaded = self.thread.is_some();
        self.stop_thread();
        let transport = PeerTransport::connect(host, admission)?;
        {
            let mut served = self.served();
            served.transport.disconnect();
            served.transport = transport;
            served.failure = None;
        }
        self.ended = None;
        self.host = host;
        if let Some(every) = threaded.then_some(self.every).flatten() {
            self.serve_from_thread(every);
        }
        Ok(())
    }

    /// Stops the serving thread, if there is one, and says goodbye to the host.
    pub fn disconnect(&mut self) {
        self.stop_thread();
        self.served().transport.disconnect();
    }
}

impl<D: GameData> PeerLink<D> {
    fn stop_thread(&mut self) {
        if let Some((stop, thread)) = self.thread.take() {
            stop.store(true, Ordering::Relaxed);
            // A serving thread that panicked has nothing left to give back.
            let _ = thread.join();
        }
    }
}

impl<D: GameData> Drop for PeerLink<D> {
    fn drop(&mut self) {
        self.stop_thread();
    }
}
