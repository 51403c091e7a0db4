//! The host of a network game: the simulation, the host session and its UDP transport.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_net::join_code::JoinCode;
use fixstep_net::lan::LanAnswer;
use fixstep_net::rendezvous::{Listing, ListingSecret};
use fixstep_net::{Access, HostTransport, Reads, WireCounts, peer_message_bytes, rejoin_secret};
use fixstep_runtime::net::{
    DropCounts, Dropped, HostConfig, HostEvent, HostSession, PeerId, SharedListing, Takeover,
};
use fixstep_runtime::replay::{RecordedBy, RosterChange};
use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::{HashRecord, Player, Simulation, StateHash, StateHasher, Tick, TickRecord};

use crate::delayed::DelayedMatch;
use crate::desync::{Kept, Side, write_report};
use crate::news::{HostNews, Leaver};
use crate::peer::identity_of;
use crate::reach::{Reach, ReachNews};
use crate::recording::{RecordError, Recording, keep_going};
use crate::resume::Resumed;
use crate::{NetPlayError, NetRules, RecentStates, RecentTicks, part_names};

/// What a host is set up with.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// Where to listen.
    pub bind: SocketAddr,
    /// Other addresses peers reach it at (a link conditioner's), which netcode must accept.
    pub also_reachable_at: Vec<SocketAddr>,
    /// The most players, the host's own included: playing, or away with their seats kept.
    pub max_players: usize,
    /// The most spectators.
    pub max_spectators: usize,
    /// How long a player who left keeps its seat, microseconds (see
    /// [`HostConfig::seat_grace_micros`]).
    pub seat_grace_micros: u64,
    /// Whether the host plays a character of its own (player 0).
    pub own_player: bool,
    /// Seed of the game's random numbers.
    pub seed: u64,
    /// The name of the host's own player, shown to everyone.
    pub name: String,
    /// Where desync reports go.
    pub reports: PathBuf,
    /// Who may join: anyone, or whoever holds the session's key.
    pub access: Access,
    /// Where to record the match as a replay, from its first tick (`None`: it is not).
    pub record: Option<PathBuf>,
    /// How far behind the match spectators watch, ticks (at most
    /// [`MAX_SPECTATOR_DELAY_S`](crate::MAX_SPECTATOR_DELAY_S) seconds): they are sent
    /// nothing newer.
    pub spectator_delay_ticks: u32,
    /// Whether the match may outlive the host: its players offer to host, and the first of
    /// them takes the match over when the host goes. Without, the match ends with the host.
    pub migration: bool,
    /// The rendezvous to list the match at, so that friends join by its code
    /// ([`fixstep_net::rendezvous`]); `None`: it is not listed.
    pub rendezvous: Option<SocketAddr>,
    /// Whether to ask the home router to forward the host's port (UPnP, NAT-PMP); never for
    /// a host on loopback.
    pub port_mapping: bool,
    /// The STUN servers (`HOST:PORT`) asked where the host is seen from the internet; none
    /// for a host on loopback.
    pub stun: Vec<String>,
    /// The TURN relay the host allocates an address on, for joiners nothing direct reaches
    /// (`None`: none).
    pub turn: Option<fixstep_net::relay::TurnServer>,
}

/// What the host's HUD and logs say of the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostStats {
    /// Peers connected (players and spectators).
    pub peers: usize,
    /// Inputs that were late (a held input stood in).
    pub late_inputs: u64,
    /// Desyncs found.
    pub desyncs: u64,
    /// The desync reports written.
    pub reports: Vec<PathBuf>,
    /// Resyncs sent to desynced peers.
    pub resyncs: u64,
    /// Messages the session refused: malformed, oversized or out of place, or too many
    /// commands.
    pub refused: u64,
    /// Inputs that came only for ticks already fixed: repeats a lossy link delivered late,
    /// or replays. A healthy game over a bad link has a few a second.
    pub stale: u64,
    /// Every datagram the socket read, by what became of it (see [`Reads`]).
    pub reads: Reads,
}

/// A desync waiting for the peer's state before its report is written.
struct PendingReport {
    player: Option<Player>,
    state: Vec<u8>,
    ours: HashRecord,
}

/// A host's game without its socket: the simulation, the host session, the spectators' feeds
/// and the desync reports. It takes what arrived and the time, and gives what to send
/// (through its session), so it runs the same on a socket ([`NetHost`]) and in memory (the
/// benchmark of a host with many peers).
pub struct HostGame<G: NetRules> {
    sim: G::Sim,
    session: HostSession<G>,
    hasher: StateHasher,
    hash: StateHash,
    /// The state after each recent tick (postcard) and its hash, for desync reports.
    recent: RecentStates,
    /// The recent ticks as they were fixed, for the replays of desync reports.
    recent_ticks: RecentTicks<CommandOf<G>>,
    /// The content the match is played on.
    content: Arc<G::Content>,
    feeds: BTreeMap<PeerId, G::Feed>,
    /// What the feeds are cut from, gathered once a tick.
    source: G::Source,
    pending: BTreeMap<(PeerId, Tick), PendingReport>,
    reports: PathBuf,
    stats: HostStats,
    events: Vec<HostNews>,
    departed: Vec<PeerId>,
    /// The seed the game was started with, for its replay's header.
    seed: u64,
    /// The match's replay, while it is recorded.
    recording: Option<Recording<G>>,
    /// The match as spectators see it, when they watch it late.
    delayed: Option<DelayedMatch<G>>,
}

impl<G: NetRules> std::fmt::Debug for HostGame<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostGame").field("next_tick", &self.sim.next_tick()).finish_non_exhaustive()
    }
}

impl<G: NetRules> HostGame<G> {
    /// A host's game of `content` as `options` say (its addresses aside).
    #[must_use]
    pub fn new(content: &Arc<G::Content>, options: &HostOptions) -> Self {
        Self::starting(content, options, None)
    }

    /// A host's game of `content` as `options` say, playing on from `resumed` (a replay's
    /// state and seats: see [`crate::resume`]) or from the start.
    #[must_use]
    pub fn starting(
        content: &Arc<G::Content>,
        options: &HostOptions,
        resumed: Option<Resumed<G>>,
    ) -> Self {
        let local_players = usize::from(options.own_player);
        let (sim, names) = match resumed {
            Some(Resumed { sim, names }) => (sim, names),
            None => (G::new_sim(content, options.seed, local_players), Vec::new()),
        };
        let identity = identity_of::<G>(content);
        let config = HostConfig {
            identity,
            max_players: options.max_players,
            max_spectators: options.max_spectators,
            local_players,
            seat_grace_micros: options.seat_grace_micros,
        };
        let mut session = HostSession::new(config, sim.next_tick());
        if options.own_player {
            session.name_local(Player(0), &options.name);
        }
        let mut names = names;
        names.resize(sim.players(), None);
        session.hold_seats(&names, 0);
        Self::with_session(content, options, sim, session)
    }

    /// The host a player of a match of `content` becomes when it takes the match over (see
    /// [`HostSession::succeed`]), from `sim`, its game after the takeover's ticks, at 0 on the
    /// host's clock; otherwise as `options` say.
    #[must_use]
    pub fn succeeding(
        content: &Arc<G::Content>,
        options: &HostOptions,
        sim: G::Sim,
        takeover: Takeover<CommandOf<G>>,
    ) -> Self {
        let config = HostConfig {
            identity: identity_of::<G>(content),
            max_players: options.max_players,
            max_spectators: options.max_spectators,
            local_players: 0,
            seat_grace_micros: options.seat_grace_micros,
        };
        let session = HostSession::succeed(config, takeover, 0);
        Self::with_session(content, options, sim, session)
    }

    fn with_session(
        content: &Arc<G::Content>,
        options: &HostOptions,
        sim: G::Sim,
        mut session: HostSession<G>,
    ) -> Self {
        if !options.migration {
            session.forbid_takeovers();
        }
        let hash = sim.state_hash();
        Self {
            sim,
            session,
            hasher: StateHasher::new(),
            hash,
            recent: RecentStates::default(),
            recent_ticks: RecentTicks::default(),
            content: Arc::clone(content),
            feeds: BTreeMap::new(),
            source: G::Source::default(),
            pending: BTreeMap::new(),
            reports: options.reports.clone(),
            stats: HostStats::default(),
            events: Vec::new(),
            departed: Vec::new(),
            seed: options.seed,
            recording: None,
            delayed: None,
        }
        .with_spectator_delay(options.spectator_delay_ticks)
    }

    /// Holds spectators `delay_ticks` behind the match (none for 0), from where it is now.
    fn with_spectator_delay(mut self, delay_ticks: u32) -> Self {
        self.delayed = (delay_ticks > 0).then(|| {
            // The match as it is, run again the delay later.
            let mut start = G::new_sim(&self.content, 0, 0);
            start.restore(self.sim.state());
            DelayedMatch::new(start, delay_ticks)
        });
        self
    }

    /// The tick spectators are shown: the match's, or the delayed one.
    #[must_use]
    pub fn spectators_tick(&self) -> Tick {
        self.delayed.as_ref().map_or_else(|| self.sim.next_tick(), DelayedMatch::next_tick)
    }

    /// Records the match from now on into a replay at `path`: every tick as it is fixed,
    /// with its hash, and who came and went. A recording that fails later is said once and
    /// stops; the match goes on.
    ///
    /// # Errors
    ///
    /// A file that cannot be created or written.
    pub fn record_to(&mut self, path: &Path, content: &G::Content) -> Result<(), RecordError> {
        // A match from its start is its content and seed; one resumed is its first keyframe.
        let seed = (self.sim.next_tick() == Tick::ZERO).then_some(self.seed);
        let mut recording = Recording::create(path, content, &self.sim, seed, RecordedBy::Host)?;
        // Who holds each seat now, the host's own included: a match resumed from this replay
        // gives the seats back by these names.
        let tick = self.session.next_tick();
        for (seat, name) in self.session.names().enumerate().filter(|(_, n)| !n.is_empty()) {
            let player = Player::from_index(seat).unwrap_or(Player(u16::MAX));
            let joined = RosterChange::Joined { name: name.to_owned() };
            recording.roster(tick, player, joined)?;
        }
        self.recording = Some(recording);
        Ok(())
    }

    /// The replay being recorded, if the match is.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.recording.as_ref().map(Recording::path)
    }

    /// Records that `player`'s seat changed, before the next tick.
    fn roster(&mut self, player: Player, change: RosterChange) {
        let tick = self.session.next_tick();
        keep_going(&mut self.recording, |r| r.roster(tick, player, change));
    }

    /// The host session, for a transport to hand what arrives and take what to send.
    pub const fn session_mut(&mut self) -> &mut HostSession<G> {
        &mut self.session
    }

    /// The peers that left since the last call, whose connections a transport should close.
    pub fn drain_departed(&mut self) -> std::vec::Drain<'_, PeerId> {
        self.departed.drain(..)
    }

    /// The simulation.
    #[must_use]
    pub const fn sim(&self) -> &G::Sim {
        &self.sim
    }

    /// The hash of the latest tick.
    #[must_use]
    pub const fn hash(&self) -> &StateHash {
        &self.hash
    }

    /// When the session next needs a look whatever arrives, microseconds (see
    /// [`HostSession::poll_timeout`]).
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        self.session.poll_timeout()
    }

    /// What the HUD says (of the game; the socket's counts are [`NetHost::stats`]').
    #[must_use]
    pub fn stats(&self) -> HostStats {
        HostStats { peers: self.session.peers().count(), ..self.stats.clone() }
    }

    /// What happened since the last call (joins, departures, desyncs).
    pub fn drain_news(&mut self) -> std::vec::Drain<'_, HostNews> {
        self.events.drain(..)
    }

    /// What the game counts, without the peers (which [`stats`](Self::stats) counts) or a
    /// copy of the reports' list.
    pub(crate) const fn counts(&self) -> &HostStats {
        &self.stats
    }

    /// What the session dropped of its peers' messages, by reason.
    #[must_use]
    pub const fn drops(&self) -> DropCounts {
        self.session.drops()
    }

    /// Players connected now (not counting spectators or the host's own).
    #[must_use]
    pub fn connected_players(&self) -> usize {
        self.session.peers().filter(|(_, player)| player.is_some()).count()
    }

    /// Players playing now: those connected and the host's own.
    #[must_use]
    pub fn present_players(&self) -> usize {
        self.session.players() - self.session.seats_in_grace()
    }

    /// Players away whose seats are kept for them.
    #[must_use]
    pub fn seats_in_grace(&self) -> usize {
        self.session.seats_in_grace()
    }

    /// Spectators watching now.
    #[must_use]
    pub fn spectators(&self) -> usize {
        self.feeds.len()
    }

    /// Acts on what the session was handed (now `now_micros` on the host's clock):
    /// welcomes, departures (and peers silent too long), desyncs.
    ///
    /// # Errors
    ///
    /// If a report cannot be written.
    pub fn after_receive(&mut self, now_micros: u64) -> Result<(), NetPlayError> {
        self.session.check_timeouts(now_micros);
        let events: Vec<HostEvent> = self.session.drain_events().collect();
        for event in events {
            self.event(event)?;
        }
        Ok(())
    }

    fn event(&mut self, event: HostEvent) -> Result<(), NetPlayError> {
        match event {
            HostEvent::StateWanted { peer } if self.session.recorder_waiting(peer) => {
                // A recorder starts where spectators watch: the delayed match, if there is one.
                let watched = self.delayed.as_ref().map_or(&self.sim, DelayedMatch::sim);
                let state = postcard::to_allocvec(watched.state()).map_err(NetPlayError::Encode)?;
                let (tick, hash) = (watched.next_tick(), watched.state_hash().total());
                self.session.welcome_recorder(peer, tick, &state, hash);
            }
            HostEvent::StateWanted { peer } => {
                let state = self.encoded_state()?;
                self.session.welcome(peer, &state, self.hash.total(), rejoin_secret());
            }
            HostEvent::PlayerJoined { player, name, rejoined, .. } => {
                let change = if rejoined {
                    RosterChange::Rejoined
                } else {
                    RosterChange::Joined { name: name.clone() }
                };
                self.roster(player, change);
                self.events.push(HostNews::Joined { name, player, rejoined });
            }
            HostEvent::SpectatorJoined { peer, name } => {
                self.feeds.insert(peer, G::Feed::default());
                self.events.push(HostNews::Watching { name });
            }
            HostEvent::PeerLeft { peer, name, player, goodbye } => {
                let watching = self.feeds.remove(&peer).is_some();
                self.departed.push(peer);
                let who = match player {
                    Some(player) => {
                        self.roster(player, RosterChange::Left);
                        Leaver::Player { name, player }
                    }
                    None if watching => Leaver::Spectator { name },
                    // Refused, and said so; or gone before its hello.
                    None => return Ok(()),
                };
                self.events.push(HostNews::Left { who, goodbye });
            }
            HostEvent::SeatFreed { player, name } => {
                self.roster(player, RosterChange::Freed);
                self.events.push(HostNews::SeatFree { name, player });
            }
            HostEvent::Refused { name, role, goodbye, .. } => {
                self.events.push(HostNews::Refused { role, name, goodbye });
            }
            HostEvent::InputLate { .. } => self.stats.late_inputs += 1,
            HostEvent::Desync { peer, tick, ours, .. } => {
                self.stats.desyncs += 1;
                self.events.push(HostNews::Desync { tick });
                // Gone if it was one desync too many.
                let Some(player) = self.session.peers().find(|(id, _)| *id == peer).map(|p| p.1)
                else {
                    return Ok(());
                };
                if let Some((state, _)) = self.recent.get(tick) {
                    let state = state.to_vec();
                    self.session.send_desync(peer, tick, ours.clone(), state.clone());
                    self.pending.insert((peer, tick), PendingReport { player, state, ours });
                }
                // Then the state it goes on from, as a late joiner's.
                let now = self.encoded_state()?;
                self.session.resync(peer, &now, self.hash.total());
                self.stats.resyncs += 1;
                if let Some(player) = player {
                    self.roster(player, RosterChange::Resynced);
                }
                self.events.push(HostNews::Resynced { tick: self.session.next_tick() });
            }
            HostEvent::DesyncState { peer, tick, hash, state } => {
                if let Some(p) = self.pending.remove(&(peer, tick)) {
                    let dir = write_report::<G>(
                        &self.reports,
                        tick,
                        p.player,
                        (&p.state, &p.ours),
                        (&state, &hash),
                        Side::Host,
                        &Kept {
                            part_names: &part_names(&self.hash),
                            content: &self.content,
                            states: &self.recent,
                            ticks: &self.recent_ticks,
                        },
                    )?;
                    self.stats.reports.push(dir.clone());
                    self.events.push(HostNews::Report { dir });
                }
            }
            HostEvent::ResumeWanted { peer } => self.session.resume(peer, rejoin_secret()),
            HostEvent::TicksRecovered { .. } => self.run_recovered()?,
            HostEvent::ClaimUnserved { name, why, .. } => {
                tracing::warn!(
                    player = %name,
                    "{name}'s claim of its seat could not be served ({why}): it is sent the \
                     match's state"
                );
            }
            HostEvent::Superseded { epoch } => {
                tracing::warn!(epoch, "this host was succeeded: it fixes no more ticks");
            }
            HostEvent::Dropped { why: Dropped::Stale, .. } => self.stats.stale += 1,
            HostEvent::Dropped { .. } => self.stats.refused += 1,
        }
        Ok(())
    }

    /// The game's state now (postcard), for a welcome or a resync.
    fn encoded_state(&self) -> Result<Vec<u8>, NetPlayError> {
        postcard::to_allocvec(self.sim.state()).map_err(NetPlayError::Encode)
    }

    /// Fixes and runs the next tick, with `own` as the host's own player's command (if it has
    /// one); sends it, and the spectators their poses. Returns the tick run.
    ///
    /// # Errors
    ///
    /// If the tick does not run (a wrong number of commands: a bug).
    pub fn run_tick(
        &mut self,
        own: Option<CommandOf<G>>,
    ) -> Result<TickRecord<CommandOf<G>>, NetPlayError> {
        let tick = self.session.next_tick();
        if let Some(command) = own {
            self.session.local_input(Player(0), tick, command);
        }
        let record = self.session.fix_tick();
        self.ran(record)
    }

    /// Runs the ticks a resuming player sent that this successor lacked (see
    /// [`HostEvent::TicksRecovered`]), as if it had fixed them: before its next tick.
    ///
    /// # Errors
    ///
    /// If a tick does not run.
    fn run_recovered(&mut self) -> Result<(), NetPlayError> {
        for record in self.session.take_recovered() {
            self.ran(record)?;
        }
        Ok(())
    }

    /// Runs `record`, fixed by this host (or by the host before it), on the game: hashes it,
    /// keeps it for reports and the replay, and sends the spectators what they see of it.
    fn ran(
        &mut self,
        record: TickRecord<CommandOf<G>>,
    ) -> Result<TickRecord<CommandOf<G>>, NetPlayError> {
        record.run(&mut self.sim)?;
        self.sim.hash_state(&mut self.hasher);
        self.hash = self.hasher.finish_reuse();
        let report = HashRecord::of(&self.hash);
        self.session.local_hash(record.tick, report.clone());
        self.recent.push(record.tick, self.sim.state(), report)?;
        self.recent_ticks.push(&record);
        let (sim, total) = (&self.sim, self.hash.total());
        keep_going(&mut self.recording, |r| r.tick(&record, total, sim));
        let delayed_ran = match self.delayed.as_mut() {
            None => None,
            Some(delayed) => match delayed.host_ran(&record)? {
                // Nothing is old enough to show yet.
                None => return Ok(record),
                ran => ran,
            },
        };
        let shown = delayed_ran.as_ref().unwrap_or(&record);
        let recorders: Vec<PeerId> = self.session.recorders().collect();
        for peer in recorders {
            self.session.send_watched_tick(peer, shown);
        }
        let watched = self.delayed.as_ref().map_or(&self.sim, DelayedMatch::sim);
        if !self.feeds.is_empty() {
            G::spectator_source(watched, &mut self.source);
        }
        for (&peer, feed) in &mut self.feeds {
            let view = self.session.spectator_view(peer).cloned().unwrap_or_default();
            let update = G::spectator_update(&self.source, feed, &view);
            self.session.send_update(peer, update);
        }
        Ok(record)
    }
}

/// How long the host keeps a departing peer's connection open for its goodbye to get
/// through, microseconds: a second, ten of the reliable channel's resends, so that even on a
/// lossy link the peer learns why before netcode's disconnection reaches it.
pub const GOODBYE_GRACE_MICROS: u64 = 1_000_000;

/// The host of a network game on a UDP socket; see the documentation of its module.
pub struct NetHost<G: NetRules> {
    game: HostGame<G>,
    transport: HostTransport,
    /// Connections to close, once their goodbye has had its time.
    closing: Vec<(PeerId, u64)>,
    /// The latest time the host was told, microseconds.
    now_micros: u64,
    /// What it tells the LAN of its game (the players counted each tick).
    lan: LanAnswer,
    /// Its port mapping and listing: how friends on other networks reach it.
    reach: Reach,
    /// The listing's code its peers were last told.
    shared_code: Option<JoinCode>,
}

impl<G: NetRules> std::fmt::Debug for NetHost<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetHost").field("transport", &self.transport).finish_non_exhaustive()
    }
}

impl<G: NetRules> NetHost<G> {
    /// A host of `content`, listening as `options` say, recording the match if they ask.
    ///
    /// # Errors
    ///
    /// If the socket cannot be bound, or the replay's file created.
    pub fn bind(content: &Arc<G::Content>, options: &HostOptions) -> Result<Self, NetPlayError> {
        Self::bind_starting(content, options, None)
    }

    /// A host of `content`, listening as `options` say, playing on from `resumed` (see
    /// [`HostGame::starting`]) or from the start.
    ///
    /// # Errors
    ///
    /// As [`bind`](Self::bind).
    pub fn bind_starting(
        content: &Arc<G::Content>,
        options: &HostOptions,
        resumed: Option<Resumed<G>>,
    ) -> Result<Self, NetPlayError> {
        let transport = HostTransport::bind(
            options.bind,
            &options.also_reachable_at,
            options.max_players + options.max_spectators,
            &options.access,
        )?;
        let mut game = HostGame::starting(content, options, resumed);
        if let Some(path) = &options.record {
            game.record_to(path, content.as_ref())?;
        }
        Self::on_transport(content, options, game, transport)
    }

    /// The host a player becomes when it takes its match over (see [`HostGame::succeeding`]),
    /// listening on `socket`, the one it offered to host on.
    ///
    /// # Errors
    ///
    /// If the socket cannot be set up.
    pub fn succeeding(
        content: &Arc<G::Content>,
        options: &HostOptions,
        socket: std::net::UdpSocket,
        sim: G::Sim,
        takeover: Takeover<CommandOf<G>>,
    ) -> Result<Self, NetPlayError> {
        let connections = options.max_players + options.max_spectators;
        let transport = HostTransport::on_socket(
            socket,
            &options.also_reachable_at,
            connections,
            &options.access,
        )?;
        let game = HostGame::succeeding(content, options, sim, takeover);
        Self::on_transport(content, options, game, transport)
    }

    fn on_transport(
        content: &Arc<G::Content>,
        options: &HostOptions,
        game: HostGame<G>,
        transport: HostTransport,
    ) -> Result<Self, NetPlayError> {
        let state_bytes = game.encoded_state()?.len();
        let mut transport = transport.with_peer_message_limit(peer_message_bytes(state_bytes));
        let lan = LanAnswer {
            game: G::NAME.to_owned(),
            title: G::content_title(content).to_owned(),
            players: u16::from(options.own_player),
            max_players: u16::try_from(options.max_players).unwrap_or(u16::MAX),
            sealed: options.access != Access::Open,
        };
        transport.set_lan_answer(&lan);
        if let Some(rendezvous) = options.rendezvous {
            transport.list_at(rendezvous);
        }
        if let Some(turn) = &options.turn {
            transport.relay_through(turn)?;
        }
        // A host on every interface is reached on this machine's network address.
        let local = transport.local_addr().map(|bound| match bound.ip().is_unspecified() {
            true => fixstep_net::lan::lan_address()
                .map_or(bound, |ip| SocketAddr::new(ip, bound.port())),
            false => bound,
        });
        let reach = Reach::start(options.port_mapping, local, &options.stun);
        Ok(Self {
            game,
            transport,
            closing: Vec::new(),
            now_micros: 0,
            lan,
            reach,
            shared_code: None,
        })
    }

    /// Where it listens.
    #[must_use]
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.transport.local_addr()
    }

    /// The match's join code, once its rendezvous gave one.
    #[must_use]
    pub fn join_code(&self) -> Option<JoinCode> {
        self.transport.listing().and_then(Listing::code)
    }

    /// What changed in how friends on other networks reach the host since the last call: its
    /// router's mapping, its code, the joiners it punches towards.
    pub fn drain_reach_news(&mut self) -> std::vec::Drain<'_, ReachNews> {
        self.reach.drain_news()
    }

    /// The public address friends reach the host at, once its router or its rendezvous said
    /// it.
    #[must_use]
    pub fn public_address(&self) -> Option<SocketAddr> {
        self.reach.public_address(&self.transport)
    }

    /// Renews the listing `code` holds at `rendezvous` under `secret` from this host from
    /// now on: a player that took its match over keeps the code its friends and players
    /// know, and the rendezvous tells them its addresses.
    pub fn resume_listing(
        &mut self,
        rendezvous: SocketAddr,
        code: JoinCode,
        secret: ListingSecret,
    ) {
        self.transport.resume_listing(rendezvous, code, secret);
    }

    /// Shares the match's listing with its peers (its secret with the players that would
    /// host next), or, once the match went on under another host, leaves the listing to it.
    fn keep_listing(&mut self) {
        if self.game.session.superseded() {
            self.transport.leave_listing();
            return;
        }
        // Looked at on every pass of the host's loop: the peers are told, and a listing
        // made for them, only when its code came or changed.
        let listing = self.transport.listing();
        let code = listing.and_then(Listing::code);
        if code == self.shared_code {
            return;
        }
        self.shared_code = code;
        let shared = listing.zip(code).map(|(listing, code)| SharedListing {
            rendezvous: listing.rendezvous(),
            code: code.to_string(),
            secret: Some(listing.secret()),
        });
        self.game.session.share_listing(shared);
    }

    /// Where friends on other networks reach the host, in words for a HUD
    /// (`198.51.100.4:7465 by UPnP`), once known: a public address, not one a rendezvous on
    /// this network or machine saw.
    #[must_use]
    pub fn public_words(&self) -> Option<String> {
        let public = self.public_address().filter(|a| fixstep_net::port_map::is_public(a.ip()))?;
        Some(match self.reach.mapping() {
            Some(mapping) => format!("{public} by {}", mapping.protocol),
            None => public.to_string(),
        })
    }

    /// Connected peers whose packets the host's TURN relay carries.
    #[must_use]
    pub fn relayed_peers(&self) -> usize {
        self.transport.relayed_peers()
    }

    /// The simulation.
    #[must_use]
    pub const fn sim(&self) -> &G::Sim {
        self.game.sim()
    }

    /// The hash of the latest tick.
    #[must_use]
    pub const fn hash(&self) -> &StateHash {
        self.game.hash()
    }

    /// What happened since the last call, in words (joins, departures, desyncs).
    pub fn drain_news(&mut self) -> std::vec::Drain<'_, HostNews> {
        self.game.drain_news()
    }

    /// Every player's name, by player number.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.game.session.names()
    }

    /// Fixes and runs the next tick; see [`HostGame::run_tick`].
    ///
    /// # Errors
    ///
    /// If the tick does not run (a bug).
    pub fn run_tick(
        &mut self,
        own: Option<CommandOf<G>>,
    ) -> Result<TickRecord<CommandOf<G>>, NetPlayError> {
        let record = self.game.run_tick(own)?;
        // Those away count until their seats are freed: a seat kept is not a seat to offer.
        let players = u16::try_from(self.seated_players()).unwrap_or(u16::MAX);
        if players != self.lan.players {
            self.lan.players = players;
            self.transport.set_lan_answer(&self.lan);
        }
        Ok(record)
    }

    /// What the HUD says, with the socket's counts.
    #[must_use]
    pub fn stats(&self) -> HostStats {
        HostStats { reads: self.transport.reads(), ..self.game.stats() }
    }

    /// When its game's session next needs a look whatever arrives, microseconds.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        self.game.poll_timeout()
    }

    /// Players in the game: playing (the host's own included), or away with their seats kept
    /// for them. What `max_players` counts, the LAN is told and an orchestrator's player list
    /// shows.
    #[must_use]
    pub fn seated_players(&self) -> usize {
        self.game.session.players()
    }

    /// The names of [`seated_players`](Self::seated_players), by player number.
    pub fn seated_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.game.session.seated_names()
    }

    /// Players away whose seats are kept for them.
    #[must_use]
    pub fn seats_in_grace(&self) -> usize {
        self.game.seats_in_grace()
    }

    /// Players connected now (not counting spectators or the host's own).
    #[must_use]
    pub fn connected_players(&self) -> usize {
        self.game.connected_players()
    }

    /// Its game without the socket.
    #[must_use]
    pub const fn game(&self) -> &HostGame<G> {
        &self.game
    }

    /// Records the match from now on into a replay at `path` (see [`HostGame::record_to`]).
    ///
    /// # Errors
    ///
    /// A file that cannot be created or written.
    pub fn record_to(&mut self, path: &Path, content: &G::Content) -> Result<(), RecordError> {
        self.game.record_to(path, content)
    }

    /// Every datagram its socket read, by what became of it.
    #[must_use]
    pub const fn reads(&self) -> Reads {
        self.transport.reads()
    }

    /// The names of the players connected now (not the host's own).
    #[must_use]
    pub fn connected_player_names(&self) -> Vec<&str> {
        let session = &self.game.session;
        let names: Vec<&str> = session.names().collect();
        session.peers().filter_map(|(_, player)| names.get((player?).index()).copied()).collect()
    }

    /// The round trip to each connected peer, microseconds: as a player measures it, or as
    /// the transport does for a spectator.
    pub fn links(&self) -> Vec<(PeerId, Option<Player>, Option<u64>)> {
        let session = &self.game.session;
        let rtt = |id| session.round_trip_micros(id).or_else(|| self.transport.rtt_micros(id));
        session.peers().map(|(id, player)| (id, player, rtt(id))).collect()
    }

    /// What crossed the host's socket so far.
    #[must_use]
    pub fn wire(&self) -> WireCounts {
        self.transport.wire()
    }

    /// Receives what arrived in the last `elapsed_micros` (now `now_micros` on the host's
    /// clock) and acts on it: welcomes, departures, desyncs.
    ///
    /// # Errors
    ///
    /// If the socket fails, or a report cannot be written.
    pub fn receive(&mut self, elapsed_micros: u64, now_micros: u64) -> Result<(), NetPlayError> {
        let elapsed = std::time::Duration::from_micros(elapsed_micros);
        self.now_micros = self.now_micros.max(now_micros);
        self.transport.receive(elapsed, now_micros, &mut self.game.session)?;
        self.reach.update(&mut self.transport);
        self.keep_listing();
        self.game.after_receive(now_micros)?;
        let close_at = self.now_micros + GOODBYE_GRACE_MICROS;
        self.closing.extend(self.game.drain_departed().map(|peer| (peer, close_at)));
        Ok(())
    }

    /// Sends what the session has to send, and closes the connections of the peers that left
    /// or were dropped [`GOODBYE_GRACE_MICROS`] ago (their goodbyes sent first).
    pub fn send(&mut self) {
        self.transport.send(&mut self.game.session);
        let now = self.now_micros;
        let transport = &mut self.transport;
        self.closing.retain(|&(peer, at)| {
            let due = at <= now;
            if due {
                transport.disconnect(peer);
            }
            !due
        });
    }

    /// Says goodbye to every peer: the match is over. Their connections close
    /// [`GOODBYE_GRACE_MICROS`] later, or at [`shut_down`](Self::shut_down).
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn end_match(&mut self) -> Result<(), NetPlayError> {
        self.game.session.end_match();
        self.receive(0, self.now_micros)?;
        self.send();
        Ok(())
    }

    /// Leaves the match to the next host of the succession (see [`HostSession::hand_over`]);
    /// with nobody to hand it to, ends it. Whether it handed it over.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn hand_over(&mut self) -> Result<bool, NetPlayError> {
        let handed = self.game.session.hand_over();
        self.receive(0, self.now_micros)?;
        self.send();
        Ok(handed)
    }

    /// Whether it is a successor still waiting for players to claim their seats: it fixes
    /// no tick meanwhile (see [`HostSession::gathering`]).
    #[must_use]
    pub fn gathering(&self) -> bool {
        self.game.session.gathering()
    }

    /// Whether it was succeeded: it must fix no more ticks (see
    /// [`HostSession::superseded`]).
    #[must_use]
    pub fn superseded(&self) -> bool {
        self.game.session.superseded()
    }

    /// Tells every peer still connected that the match is over, and closes every connection.
    pub fn shut_down(&mut self) {
        self.game.session.end_match();
        self.transport.send(&mut self.game.session);
        self.transport.shut_down();
    }
}
