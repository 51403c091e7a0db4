//! A spectator of a network game: no simulation of its own, only what the host sends it of
//! each tick, handed to its game's [`Spectator`] to draw. One that records joins as a
//! recorder, and also runs the ticks it watches into a replay ([`WatchedMatch`]).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_net::{Admission, LinkStats, PeerLink};
use fixstep_present::CameraDraw;
use fixstep_runtime::Tick;
use fixstep_runtime::net::{PeerConfig, PeerEvent, PeerSession, Role};
use fixstep_runtime::tick::{TICK_MICROS, TICKS_PER_SECOND};
use glam::Vec3;

use fixstep_netplay::SERVE_MICROS;
use fixstep_netplay::{NetPlayError, WatchedMatch};
use fixstep_netplay::{identity_of, said_goodbye};

use crate::{NetGame, Spectator};

/// How often a spectator tells the host what it looks at, microseconds: every tick, as the
/// host chooses each tick what is near.
const VIEW_REPORT_MICROS: u64 = TICK_MICROS;

/// Says why a spectator's recording stopped: nothing is recorded from then on.
fn stop_recording<W>(error: &NetPlayError) -> Option<W> {
    tracing::warn!("{error}; watching on unrecorded");
    None
}

/// A spectator; see the documentation of its module.
pub struct NetSpectator<G: NetGame> {
    link: PeerLink<G>,
    spectator: G::Spectator,
    /// Where the camera looks, world metres.
    target: Vec3,
    since_view: u64,
    updates: u64,
    /// The host's goodbye, once it came.
    goodbye: Option<String>,
    /// The host's tick when it welcomed this spectator, and the microseconds since: the
    /// match's tick now, as far as a spectator can tell without being told.
    live: Option<(Tick, u64)>,
    /// Where to record the match, from the welcome on.
    record_to: Option<PathBuf>,
    /// The match as recorded, from the welcome on.
    watched: Option<WatchedMatch<G>>,
    content: Arc<G::Content>,
    /// What it presents to a host: to the next host too.
    admission: Admission,
}

impl<G: NetGame> std::fmt::Debug for NetSpectator<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetSpectator").field("link", &self.link).finish_non_exhaustive()
    }
}

impl<G: NetGame> NetSpectator<G> {
    /// A spectator named `name` of the game of `content` hosted at `host`, presenting
    /// `admission`; recording the match it watches into `record`, if given.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn connect(
        content: &Arc<G::Content>,
        host: SocketAddr,
        name: &str,
        admission: &Admission,
        record: Option<PathBuf>,
    ) -> Result<Self, NetPlayError> {
        let socket = fixstep_net::bind_towards(host)?;
        Self::connect_on(content, socket, host, name, admission, record)
    }

    /// The same, on `socket`: the one a join code was dialled from
    /// ([`fixstep_net::rendezvous::dial`]), whose path through the routers to `host` the
    /// probes opened.
    ///
    /// # Errors
    ///
    /// If netcode refuses the setup.
    pub fn connect_on(
        content: &Arc<G::Content>,
        socket: std::net::UdpSocket,
        host: SocketAddr,
        name: &str,
        admission: &Admission,
        record: Option<PathBuf>,
    ) -> Result<Self, NetPlayError> {
        let transport = fixstep_net::PeerTransport::connect_on(socket, host, admission)?;
        let config = PeerConfig {
            identity: identity_of::<G>(content),
            name: name.to_owned(),
            role: if record.is_some() { Role::Recorder } else { Role::Spectator },
            rejoin: None,
        };
        Ok(Self {
            link: PeerLink::on_transport(transport, host, PeerSession::new(config))?,
            spectator: G::Spectator::new(content),
            target: Vec3::ZERO,
            since_view: 0,
            updates: 0,
            goodbye: None,
            live: None,
            record_to: record,
            watched: None,
            content: Arc::clone(content),
            admission: admission.clone(),
        })
    }

    /// The replay being recorded, if the match is.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.watched.as_ref().and_then(WatchedMatch::recording)
    }

    /// The game's spectator: what it draws.
    #[must_use]
    pub const fn spectator(&self) -> &G::Spectator {
        &self.spectator
    }

    /// Whether the host has welcomed it.
    #[must_use]
    pub fn is_welcomed(&self) -> bool {
        self.link.session().is_welcomed()
    }

    /// Updates received.
    #[must_use]
    pub const fn updates(&self) -> u64 {
        self.updates
    }

    /// The link to the host.
    #[must_use]
    pub fn link(&self) -> LinkStats {
        self.link.stats()
    }

    /// Serves the socket from a thread every [`SERVE_MICROS`] from now on, however slowly
    /// the frames come (see [`PeerLink`]).
    pub fn serve_from_thread(&mut self) {
        self.link.serve_from_thread(std::time::Duration::from_micros(SERVE_MICROS));
    }

    /// How far behind the match this spectator watches, seconds: the match's tick now (the
    /// host's tick at the welcome, and the time since) less the tick it draws. The host's
    /// spectator delay and the link's playout delay together; `None` before anything drew.
    #[must_use]
    pub fn behind_seconds(&self) -> Option<f64> {
        let (welcomed, since) = self.live?;
        let drawn = self.spectator.render_tick();
        let live = f64::from(welcomed.0) + since as f64 / TICK_MICROS as f64;
        drawn.is_finite().then(|| ((live - drawn) / f64::from(TICKS_PER_SECOND)).max(0.0))
    }

    /// Points the camera at `target` (world metres): the host sends what is near it sooner.
    pub const fn look_at(&mut self, target: Vec3) {
        self.target = target;
    }

    /// Advances the spectator's clock by a frame's `elapsed_micros`, then hands it what
    /// arrived.
    ///
    /// # Errors
    ///
    /// If the connection fails or the host refuses the spectator.
    pub fn receive(&mut self, elapsed_micros: u64) -> Result<(), NetPlayError> {
        self.spectator.advance(elapsed_micros);
        if let Some((_, since)) = self.live.as_mut() {
            *since += elapsed_micros;
        }
        self.follow_if_host_gone()?;
        if self.link.ended().is_some() {
            return Ok(());
        }
        self.link.receive(std::time::Duration::from_micros(elapsed_micros))?;
        let events: Vec<_> = self.link.session().drain_events().collect();
        for event in events {
            match event {
                // The goodbye of a host this spectator has turned from already.
                PeerEvent::Goodbye(_) if self.link.session().rehoming() => {}
                PeerEvent::Goodbye(goodbye) => {
                    let welcomed = self.link.session().is_welcomed();
                    let host = self.link.host();
                    self.goodbye = Some(said_goodbye(host, welcomed, &goodbye, Role::Spectator)?);
                }
                PeerEvent::Welcomed(welcome) => {
                    self.live = Some((welcome.tick, 0));
                    if let Some(watched) = self.watched.as_mut()
                        && let Err(error) = watched.welcomed_again(&self.content, &welcome)
                    {
                        self.watched = stop_recording(&error);
                    }
                    if let Some(path) = self.record_to.take() {
                        self.watched = WatchedMatch::start(&self.content, &welcome, &path)
                            .unwrap_or_else(|error| stop_recording(&error));
                    }
                }
                PeerEvent::Tick(record) => {
                    // Watching is what a spectator came for: a record that fails ends the
                    // recording, not the watching.
                    if let Some(watched) = self.watched.as_mut()
                        && let Err(error) = watched.tick(&record)
                    {
                        self.watched = stop_recording(&error);
                    }
                }
                PeerEvent::Update(update) => {
                    self.updates += 1;
                    self.spectator.update(update);
                }
                PeerEvent::Roster(names) => {
                    self.spectator.set_player_names(&names);
                    if let Some(watched) = self.watched.as_mut() {
                        watched.roster(&names);
                    }
                }
                _ => {}
            }
        }
        self.since_view += elapsed_micros;
        if self.since_view >= VIEW_REPORT_MICROS {
            let view = self.spectator.view(self.target);
            let mut session = self.link.session();
            if session.is_welcomed() {
                self.since_view = 0;
                session.report_view(view);
            }
        }
        Ok(())
    }

    /// Turns to the match's next host if its host went (silent for the host silence, or
    /// handing the match over), as its players do: it watches on from there.
    fn follow_if_host_gone(&mut self) -> Result<(), NetPlayError> {
        if !self.link.session().host_went() {
            return Ok(());
        }
        let Some(next) = self.link.session().follow_successor() else { return Ok(()) };
        let Some(&at) = next.at.first() else { return Ok(()) };
        tracing::info!(host = %at, "the host is gone: watching on from its successor at {at}");
        let listing = self.link.session().listing().cloned();
        self.link.turn_to(at, listing.as_ref(), &self.admission)?;
        self.spectator.host_changed();
        self.goodbye = None;
        Ok(())
    }

    /// Draws a frame through `camera`, `dt_seconds` after the last.
    pub fn draw(
        &mut self,
        camera: &CameraDraw,
        dt_seconds: f32,
    ) -> &<G::Spectator as Spectator<G>>::Frame {
        self.spectator.draw(camera, dt_seconds)
    }

    /// Sends what the session has to send.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn send(&mut self) -> Result<(), NetPlayError> {
        Ok(self.link.send()?)
    }

    /// Why the game is over for this spectator, if the host ended it.
    #[must_use]
    pub fn ended(&self) -> Option<&str> {
        self.goodbye.as_deref().or_else(|| self.link.ended())
    }

    /// Whether the host dropped this spectator (see `peer::dropped_by`) rather than
    /// ending the match.
    #[must_use]
    pub fn dropped(&self) -> bool {
        fixstep_netplay::dropped_by(self.link.session().goodbye())
    }

    /// Says goodbye.
    pub fn disconnect(&mut self) {
        self.link.disconnect();
    }
}
