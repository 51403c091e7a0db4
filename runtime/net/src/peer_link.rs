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

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use fixstep_runtime::net::{GameData, PeerSession, SharedListing};

use crate::join_code::JoinCode;
use crate::rendezvous::{DialError, Dialled, PathKind};
use crate::{Admission, LinkStats, NetError, PeerTransport, WallClock};

/// A session and its transport, and what the serving thread could not do.
struct Served<D: GameData> {
    session: PeerSession<D>,
    transport: PeerTransport,
    /// The thread's failure (a lost connection, the host's goodbye), for the next receive.
    failure: Option<NetError>,
}

/// A host's successor being found by the match's join code, on a thread of its own: the
/// socket the probes opened a path from, and where the host answered.
struct CodeRedial {
    code: JoinCode,
    /// The address the successor offered, connected to if the code does not find it.
    fallback: SocketAddr,
    admission: Admission,
    /// Whether the socket was served from a thread before: it is again once connected.
    threaded: bool,
    thread: JoinHandle<Result<(UdpSocket, Dialled), DialError>>,
}

/// A peer's session and transport; see the documentation of its module.
pub struct PeerLink<D: GameData> {
    served: Arc<Mutex<Served<D>>>,
    thread: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
    /// The host's goodbye, once it came: the game is over, not broken, and nothing more is
    /// received or sent.
    ended: Option<String>,
    host: SocketAddr,
    /// How often the serving thread serves, once there is one.
    every: Option<Duration>,
    /// The next host being dialled by code: nothing is received or sent until it answers.
    redialling: Option<CodeRedial>,
    /// How the path to the host runs, once a code found it.
    path: Option<PathKind>,
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
        host: SocketAddr,
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
        host: SocketAddr,
        session: PeerSession<D>,
    ) -> Result<Self, NetError> {
        let served = Served { session, transport, failure: None };
        let served = Arc::new(Mutex::new(served));
        Ok(Self {
            served,
            thread: None,
            ended: None,
            host,
            every: None,
            redialling: None,
            path: None,
        })
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
        if self.ended.is_some() || !self.redialled()? {
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
        if self.ended.is_some() || self.redialling.is_some() {
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
    pub const fn host(&self) -> SocketAddr {
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
    pub fn redial(&mut self, host: SocketAddr, admission: &Admission) -> Result<(), NetError> {
        let threaded = self.was_threaded();
        self.stop_thread();
        self.redialling = None;
        self.switch_to(PeerTransport::connect(host, admission)?, host, threaded, None);
        Ok(())
    }

    /// Whether the socket is served from a thread, or was before a dial now under way.
    fn was_threaded(&self) -> bool {
        self.redialling.as_ref().map_or(self.thread.is_some(), |r| r.threaded)
    }

    /// Turns this session to its host's successor, which offered to host at `at`: as
    /// [`redial`](Self::redial) does, or, for a match listed under a join code
    /// (`listing`), by its code: a successor behind a home router is found as its host was,
    /// or, if the code does not find it, at `at`. The dial runs on a thread of its own: until
    /// the successor answers nothing is received or sent, and [`receive`](Self::receive)
    /// connects there once it has.
    ///
    /// # Errors
    ///
    /// If no socket can be bound, or no thread started.
    pub fn turn_to(
        &mut self,
        at: SocketAddr,
        listing: Option<&SharedListing>,
        admission: &Admission,
    ) -> Result<(), NetError> {
        let listed = listing.and_then(|l| Some((l.rendezvous, l.code.parse::<JoinCode>().ok()?)));
        match listed {
            Some((rendezvous, code)) => self.redial_code(rendezvous, code, at, admission),
            None => self.redial(at, admission),
        }
    }

    /// Turns this session to its host's successor as [`redial`](Self::redial) does, finding
    /// it by the match's join `code` at `rendezvous` (the successor renews the listing, and
    /// the probes punch through both routers), or at `fallback`, the address it offered, if
    /// the code does not find it. The dial runs on a thread of its own: until the successor
    /// answers nothing is received or sent, and [`receive`](Self::receive) connects there
    /// once it has.
    ///
    /// # Errors
    ///
    /// If no thread can be started.
    fn redial_code(
        &mut self,
        rendezvous: SocketAddr,
        code: JoinCode,
        fallback: SocketAddr,
        admission: &Admission,
    ) -> Result<(), NetError> {
        let threaded = self.was_threaded();
        self.stop_thread();
        self.served().transport.disconnect();
        let thread = std::thread::Builder::new()
            .name("dialling the next host".to_owned())
            .spawn(move || crate::rendezvous::dial_anew(rendezvous, code, Vec::new()))
            .map_err(|source| NetError::Io { what: "a thread to dial the next host", source })?;
        let admission = admission.clone();
        self.redialling = Some(CodeRedial { code, fallback, admission, threaded, thread });
        Ok(())
    }

    /// Whether no code is being dialled any more: connects to the successor once it
    /// answered.
    fn redialled(&mut self) -> Result<bool, NetError> {
        let Some(redial) = self.redialling.take_if(|r| r.thread.is_finished()) else {
            return Ok(self.redialling.is_none());
        };
        let CodeRedial { code, fallback, admission, threaded, thread } = redial;
        let lost = || DialError::Socket(std::io::Error::other("the dialling thread panicked"));
        match thread.join().unwrap_or_else(|_| Err(lost())) {
            Ok((socket, dialled)) => {
                let host = dialled.host.address;
                let path = dialled.host.kind;
                tracing::info!(%code, %host, %path, "the next host of {code} answered at {host} ({path} path)");
                let transport = PeerTransport::connect_on(socket, host, &admission)?;
                self.switch_to(transport, host, threaded, Some(path));
            }
            // The rendezvous unreachable, or the successor never renewed the listing: the
            // address it offered may still reach it.
            Err(error) => {
                tracing::warn!(%code, "the match {code} was not found under its next host ({error}): trying {fallback}");
                let transport = PeerTransport::connect(fallback, &admission)?;
                self.switch_to(transport, fallback, threaded, None);
            }
        }
        Ok(true)
    }

    /// Carries the session on `transport` to `host` from now on (on a `path` a code found,
    /// if one did), served from a thread if `threaded`; what the old host said in ending is
    /// forgotten.
    fn switch_to(
        &mut self,
        transport: PeerTransport,
        host: SocketAddr,
        threaded: bool,
        path: Option<PathKind>,
    ) {
        self.path = path;
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
    }

    /// How the path to the host runs, if a join code found it when the host last changed
    /// (`None`: the host is reached at the address it was given).
    #[must_use]
    pub const fn code_path(&self) -> Option<PathKind> {
        self.path
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
