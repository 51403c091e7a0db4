//! A player's side of a network game: the simulation (run from the host's ticks), the peer
//! session, its transport, the network clock and the numbering of its inputs.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use fixstep_net::join_code::JoinCode;
use fixstep_net::{Admission, LinkStats, PeerLink, PeerTransport};
use fixstep_runtime::clock::NetworkClock;
use fixstep_runtime::math::Fx;
use fixstep_runtime::net::{
    DesyncNotice, Goodbye, INPUT_REPEAT_MICROS, Identity, InputTicks, PROTOCOL_VERSION, PeerConfig,
    PeerEvent, PeerEventOf, PeerSession, RejoinSecret, Role, Welcome,
};
use fixstep_runtime::replay::{RecordedBy, RosterChange};
use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::tick::TICK_MICROS;
use fixstep_runtime::{
    HashRecord, Player, Rules, Simulation, StateHash, StateHasher, Tick, TickRecord,
};

use crate::desync::{Kept, Side, write_report};
use crate::recording::{Recording, keep_going};
use crate::schedule::SERVE_MICROS;
use crate::shared_ticks::{SharedTicks, Verdict};
use crate::successor::{HostOffer, HostSocket, SuccessorHost};
use crate::{Access, HostOptions, NetHost};
use crate::{NetPlayError, NetRules, RECENT_STATES, RecentStates, RecentTicks, part_names};

/// What the peer's HUD says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeerStats {
    /// The host's latest tick the peer has heard of.
    pub host_tick: Option<Tick>,
    /// How many of the peer's inputs the host had waiting at the latest tick.
    pub queued: u32,
    /// The peer's inputs that came too late (its held input stood in).
    pub late_inputs: u64,
    /// The latest tick whose hash the peer reported.
    pub hashed: Option<(Tick, u64)>,
    /// Ticks whose hash the peer reported.
    pub hashes_reported: u64,
    /// The tick of a desync the host found, if it did.
    pub desync: Option<Tick>,
    /// The tick the host's latest resync brought this peer to, if one did.
    pub resynced: Option<Tick>,
    /// Resyncs so far.
    pub resyncs: u32,
    /// The desync report written.
    pub report: Option<PathBuf>,
    /// How long the peer's inputs took, from being sent to being run.
    pub latency: InputLatency,
    /// How long before their ticks its inputs reach the host, and how long they should,
    /// microseconds (see [`fixstep_runtime::net::InputTicks`]).
    pub margin_micros: Option<(u32, u32)>,
    /// The latest change of host this player saw, if the match has had one.
    pub host_moved: Option<HostMoved>,
}

/// The match's host went and another took it over, as a player saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostMoved {
    /// The old host's own player's name (empty for a host that played no character).
    pub left: String,
    /// The new host's player's name.
    pub hosts: String,
    /// When the old host's last tick came, on this player's network clock, microseconds: the
    /// pause's start.
    pub stopped_at_micros: u64,
    /// How long no tick came, from the old host's last to the new host's first, microseconds
    /// (`None` until the first came).
    pub pause_micros: Option<u64>,
}

/// The fewest players a successor's host seats: a default host's. A successor does not know
/// the limit its host had; the match's seats it keeps, and room for a full default game.
const SUCCESSOR_MIN_PLAYERS: usize = 8;

/// The spectators a successor's host takes: a default host's.
const SUCCESSOR_SPECTATORS: usize = 8;

/// The most latency samples kept: a quarter of an hour of inputs, enough for any summary.
const MAX_LATENCY_SAMPLES: usize = 9_000;

/// How long the peer's inputs take to be executed, microseconds, one sample per input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputLatency {
    /// From sending an input to the host running its tick: half the round trip on its way,
    /// then the margin the host says it waited.
    pub to_host: Vec<u64>,
    /// From sending an input to this peer running its tick (what a player would wait for
    /// without the own character's prediction).
    pub to_own_tick: Vec<u64>,
}

impl InputLatency {
    fn push(samples: &mut Vec<u64>, micros: u64) {
        if samples.len() < MAX_LATENCY_SAMPLES {
            samples.push(micros);
        }
    }

    /// The median of `samples`, milliseconds, if there are any.
    #[must_use]
    pub fn median_ms(samples: &[u64]) -> Option<f64> {
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).map(|&m| m as f64 / 1000.0)
    }
}

/// Where a player connects, and as whom.
#[derive(Clone, Debug)]
pub struct PeerOptions {
    /// The host's address.
    pub host: SocketAddr,
    /// The player's name: a player who comes back under it gets its character back.
    pub name: String,
    /// What it presents to the host: nothing, or a password's key or a token.
    pub admission: Admission,
    /// Where desync reports go.
    pub reports: PathBuf,
    /// The file that keeps this host's rejoin secret for this name across a crash (`None`:
    /// none is kept).
    pub rejoin_file: Option<PathBuf>,
    /// Where to record the match as a replay, from the state the host welcomes it with
    /// (`None`: it is not).
    pub record: Option<PathBuf>,
    /// Where it offers to host the match if the host goes.
    pub offer: HostOffer,
}

/// A rejoin secret file: 32 hex digits and a newline; a little more is allowed for a line end
/// an editor may have changed, and anything longer is no secret.
pub const REJOIN_SECRET_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("rejoin secret", 64);

/// The rejoin secret in `file`, if there is one there: 32 hex digits. A file that holds
/// anything else is ignored (and replaced by the next welcome), with a warning: a damaged
/// keepsake must not keep a player out of a game.
fn read_secret(file: &std::path::Path) -> Option<RejoinSecret> {
    let text = match fixstep_runtime::file::read_text(file, REJOIN_SECRET_FILE) {
        Ok(text) => text,
        Err(error) if error.is_not_found() => return None,
        Err(error) => {
            tracing::warn!("ignoring a rejoin secret: {error}");
            return None;
        }
    };
    let secret = parse_rejoin_secret(&text);
    if secret.is_none() {
        tracing::warn!("ignoring {}: not a rejoin secret (32 hex digits)", file.display());
    }
    secret
}

/// The rejoin secret a rejoin file's `text` holds: 32 hex digits, with white space around
/// them (the newline the file ends with); `None` for anything else.
#[must_use]
pub fn parse_rejoin_secret(text: &str) -> Option<RejoinSecret> {
    let text = text.trim();
    let mut bytes = [0u8; 16];
    // Digits only: `from_str_radix` takes a sign too, and read `+f` as 15.
    let parsed = text.len() == 32
        && text.bytes().all(|b| b.is_ascii_hexdigit())
        && bytes.iter_mut().enumerate().all(|(i, byte)| {
            let digits = text.get(2 * i..2 * i + 2);
            digits.and_then(|d| u8::from_str_radix(d, 16).ok()).map(|b| *byte = b).is_some()
        });
    parsed.then_some(RejoinSecret(bytes))
}

/// Keeps `secret` in `file` (only its owner may read it), warning if it cannot: the game goes
/// on, without an instant rejoin.
fn write_secret(file: &std::path::Path, secret: RejoinSecret) {
    let hex: String = secret.0.iter().map(|b| format!("{b:02x}")).collect();
    let written = file
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options.open(file)
        })
        .and_then(|mut f| std::io::Write::write_all(&mut f, format!("{hex}\n").as_bytes()));
    if let Err(e) = written {
        tracing::warn!("cannot keep the rejoin secret in {}: {e}", file.display());
    }
}

/// The state a welcome or resync brought for a game of `content`, checked against the rules
/// and content, and the hash and tick the host said.
pub(crate) fn restore_state<G: NetRules>(
    content: &Arc<G::Content>,
    state: &[u8],
    hash: u64,
    tick: Tick,
) -> Result<G::Sim, NetPlayError> {
    let state = postcard::from_bytes(state).map_err(NetPlayError::StateDecode)?;
    let mut sim = G::new_sim(content, 0, 0);
    // The hash below proves only that the state arrived as sent, not that it is one the rules
    // could reach: a hostile host's must not panic the ticks.
    sim.check_state(&state).map_err(NetPlayError::StateRefused)?;
    sim.restore(&state);
    let ours = sim.state_hash().total();
    if ours != hash || sim.next_tick() != tick {
        return Err(NetPlayError::StateDamaged {
            ours,
            our_tick: sim.next_tick().0,
            theirs: hash,
            their_tick: tick.0,
        });
    }
    Ok(sim)
}

/// A recording of a player's match into `path` (if one is asked for) from `sim`, the state
/// it was welcomed with; a file that cannot be created is said once, and the match goes on.
fn start_recording<G: NetRules>(
    path: Option<&std::path::Path>,
    content: &G::Content,
    sim: &G::Sim,
    player: Player,
) -> Option<Recording<G>> {
    let path = path?;
    Recording::create(path, content, sim, None, RecordedBy::Player(player))
        .map_err(|error| tracing::warn!("{error}; the match goes on unrecorded"))
        .ok()
}

/// What runs a peer's ticks.
enum Runner<S> {
    /// Its own simulation, from its welcome on.
    Own(Option<S>),
    /// A simulation it shares with other players of this process ([`SharedTicks`]): the
    /// welcome waits here until it is taken for it.
    Shared(Option<Welcome>),
}

/// A player in a network game; see the documentation of its module.
pub struct NetPeer<G: NetRules> {
    link: PeerLink<G>,
    content: Arc<G::Content>,
    runner: Runner<G::Sim>,
    clock: NetworkClock,
    inputs: Option<InputTicks>,
    /// Our clock when the transport came up, for the round trip of the welcome.
    hello_micros: Option<u64>,
    /// Ticks arrived and not yet run (the playout buffer).
    playout: VecDeque<TickRecord<CommandOf<G>>>,
    /// The session's events being acted on: kept between frames so that taking them in
    /// allocates nothing once it has held a frame's worth.
    events: Vec<PeerEventOf<G>>,
    recent: RecentStates,
    /// The recent ticks as they were fixed, for the replays of desync reports.
    recent_ticks: RecentTicks<CommandOf<G>>,
    hasher: StateHasher,
    hash: Option<StateHash>,
    reports: PathBuf,
    stats: PeerStats,
    /// A tick after which the own character is moved (tests of desync reports).
    perturb_at: Option<Tick>,
    /// When each input not yet run was sent, on the clock's local time, in tick order.
    sent_at: VecDeque<(Tick, u64)>,
    /// Every player's name, by player number, as the host last said.
    names: Vec<String>,
    /// Microseconds since the last input was sent, and whether it was repeated since.
    since_inputs_micros: u64,
    repeated: bool,
    /// Where the rejoin secret is kept.
    rejoin_file: Option<PathBuf>,
    /// The host's goodbye, once it came.
    goodbye: Option<String>,
    /// Where to record the match, from the welcome on.
    record_to: Option<PathBuf>,
    /// The match's replay, while it is recorded.
    recording: Option<Recording<G>>,
    /// What it presents to a host: to its successors too.
    admission: Admission,
    /// Where it offers to host.
    offer: HostOffer,
    /// The socket it offered to host on, kept until it does.
    host_socket: Option<HostSocket>,
    /// When the latest tick arrived, on the clock's time, microseconds: a pause starts there.
    tick_micros: u64,
    /// The seat of the successor this player turned to last.
    following: Option<Player>,
    /// The match's host on this machine, once this player took the match over.
    successor: Option<SuccessorHost>,
}

impl<G: NetRules> std::fmt::Debug for NetPeer<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetPeer").field("link", &self.link).finish_non_exhaustive()
    }
}

/// Whether `goodbye` drops its peer from a game that goes on (for its silence, its traffic,
/// its desyncs, or the same player come back on another connection): for that peer the game
/// ended badly, where a host ending the match ends it well.
#[must_use]
pub fn dropped_by(goodbye: Option<&Goodbye>) -> bool {
    goodbye.is_some_and(|g| *g != Goodbye::MatchEnded)
}

/// What the host at `host` saying `goodbye` means for a peer in `role`:
/// before the welcome a refusal, an error; after it the end of the game, in words.
///
/// # Errors
///
/// [`NetPlayError::Refused`] before the welcome.
pub fn said_goodbye(
    host: SocketAddr,
    welcomed: bool,
    goodbye: &Goodbye,
    role: Role,
) -> Result<String, NetPlayError> {
    if !welcomed {
        return Err(NetPlayError::Refused { role, goodbye: goodbye.clone() });
    }
    Ok(fixstep_net::NetError::HostEnded { host, goodbye: Some(goodbye.clone()) }.to_string())
}

/// What a game of `G` on `content` must share with a host to play with it: the protocol,
/// the rules' version, the content's digest.
#[must_use]
pub fn identity_of<G: Rules>(content: &G::Content) -> Identity {
    Identity {
        protocol: PROTOCOL_VERSION,
        sim_version: <G::Sim as Simulation>::VERSION,
        level: G::content_digest(content),
    }
}

impl<G: NetRules> NetPeer<G> {
    /// A player connecting as `options` say, to play on `content`; with the rejoin secret
    /// its file keeps, if it has one.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn connect(content: Arc<G::Content>, options: &PeerOptions) -> Result<Self, NetPlayError> {
        let transport = PeerTransport::connect(options.host, &options.admission)?;
        Self::on_transport(content, options, transport)
    }

    /// A player connecting as `options` say on `socket`, the one a join code was dialled
    /// from ([`fixstep_net::rendezvous::dial`]), whose path through the routers to
    /// `options.host` the probes opened.
    ///
    /// # Errors
    ///
    /// If netcode refuses the setup.
    pub fn connect_on(
        content: Arc<G::Content>,
        options: &PeerOptions,
        socket: std::net::UdpSocket,
    ) -> Result<Self, NetPlayError> {
        let transport = PeerTransport::connect_on(socket, options.host, &options.admission)?;
        Self::on_transport(content, options, transport)
    }

    fn on_transport(
        content: Arc<G::Content>,
        options: &PeerOptions,
        transport: PeerTransport,
    ) -> Result<Self, NetPlayError> {
        let config = PeerConfig {
            identity: identity_of::<G>(&content),
            name: options.name.clone(),
            role: Role::Player,
            rejoin: options.rejoin_file.as_deref().and_then(read_secret),
        };
        let session = PeerSession::new(config);
        Ok(Self {
            link: PeerLink::on_transport(transport, options.host, session)?,
            content,
            runner: Runner::Own(None),
            clock: NetworkClock::new(),
            inputs: None,
            hello_micros: None,
            playout: VecDeque::new(),
            events: Vec::new(),
            recent: RecentStates::default(),
            recent_ticks: RecentTicks::default(),
            hasher: StateHasher::new(),
            hash: None,
            reports: options.reports.clone(),
            stats: PeerStats::default(),
            perturb_at: None,
            sent_at: VecDeque::new(),
            names: Vec::new(),
            since_inputs_micros: 0,
            repeated: false,
            rejoin_file: options.rejoin_file.clone(),
            goodbye: None,
            record_to: options.record.clone(),
            recording: None,
            admission: options.admission.clone(),
            offer: options.offer.clone(),
            host_socket: None,
            tick_micros: 0,
            following: None,
            successor: None,
        })
    }

    /// A player connecting as `options` say, whose ticks a simulation shared with other
    /// players of this process runs ([`NetPeer::run_shared`]); a load generator's.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn connect_shared(
        content: Arc<G::Content>,
        options: &PeerOptions,
    ) -> Result<Self, NetPlayError> {
        let mut peer = Self::connect(content, options)?;
        peer.runner = Runner::Shared(None);
        Ok(peer)
    }

    /// The welcome, once, for the shared simulation of a player made by
    /// [`connect_shared`](Self::connect_shared).
    pub fn take_welcome(&mut self) -> Option<Welcome> {
        match &mut self.runner {
            Runner::Shared(welcome) => welcome.take(),
            Runner::Own(_) => None,
        }
    }

    /// Makes this peer differ from the host on purpose: after running `tick` it moves its own
    /// character ([`NetRules::perturb`]), as a bug in its copy of the rules would. Only tests
    /// of desync detection and reports want this.
    pub fn perturb_at(&mut self, tick: Tick) {
        self.perturb_at = Some(tick);
    }

    /// Records the match into a replay at `path`, from the state the host welcomes this
    /// player with (at once if it was welcomed already): every tick it runs, the hashes it
    /// computes, and the states the host sends it after a desync. A player whose ticks a
    /// shared simulation runs records nothing.
    pub fn record_to(&mut self, path: PathBuf) {
        if let Runner::Own(Some(sim)) = &self.runner
            && self.recording.is_none()
        {
            let player = self.link.session().player().unwrap_or(Player(0));
            self.recording = start_recording::<G>(Some(&path), &self.content, sim, player);
        }
        self.record_to = Some(path);
    }

    /// The replay being recorded, if the match is.
    #[must_use]
    pub fn recording(&self) -> Option<&std::path::Path> {
        self.recording.as_ref().map(Recording::path)
    }

    /// The simulation, once welcomed.
    #[must_use]
    pub const fn sim(&self) -> Option<&G::Sim> {
        match &self.runner {
            Runner::Own(sim) => sim.as_ref(),
            Runner::Shared(_) => None,
        }
    }

    /// The peer's player number, once welcomed.
    #[must_use]
    pub fn player(&self) -> Option<Player> {
        self.link.session().player()
    }

    /// Every player's name, by player number, as the host last said (empty before it has).
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The network clock.
    #[must_use]
    pub const fn clock(&self) -> &NetworkClock {
        &self.clock
    }

    /// The hash of the latest tick run.
    #[must_use]
    pub const fn hash(&self) -> Option<&StateHash> {
        self.hash.as_ref()
    }

    /// What the HUD says.
    #[must_use]
    pub const fn stats(&self) -> &PeerStats {
        &self.stats
    }

    /// How the path to the host runs if the match's join code found the host it turned to
    /// last (see [`PeerLink::code_path`]); `None` before its host first changed, and after a
    /// change to a successor found at the address it offered.
    #[must_use]
    pub const fn code_path(&self) -> Option<fixstep_net::rendezvous::PathKind> {
        self.link.code_path()
    }

    /// The link to the host: what crossed the socket, and the round trip the session measures
    /// from the host's echoes of its frames (renet's, from the handshake, before the first).
    #[must_use]
    pub fn link(&self) -> LinkStats {
        let stats = self.link.stats();
        let measured = self.link.session().round_trip_micros();
        LinkStats { rtt_micros: measured.unwrap_or(stats.rtt_micros), ..stats }
    }

    /// Serves the socket from a thread every [`SERVE_MICROS`] from now on, so the host hears
    /// from this peer within milliseconds however slowly its frames come (a window's; see
    /// [`PeerLink`]).
    pub fn serve_from_thread(&mut self) {
        self.link.serve_from_thread(std::time::Duration::from_micros(SERVE_MICROS));
    }

    /// Advances the network clock by a frame's `elapsed_micros` (real time since the last
    /// call), then receives what arrived and acts on it.
    ///
    /// # Errors
    ///
    /// If the connection fails or is refused, a state arrives damaged, or a tick does not run.
    pub fn receive(&mut self, elapsed_micros: u64) -> Result<(), NetPlayError> {
        self.clock.advance(elapsed_micros);
        // A host silent for the host silence by now, or one whose goodbye ended the link in
        // the last frame; a goodbye in this frame's messages is followed after them, below.
        self.follow_if_host_gone()?;
        if self.link.ended().is_some() {
            return Ok(());
        }
        let elapsed = std::time::Duration::from_micros(elapsed_micros);
        self.link.receive(elapsed)?;
        if self.hello_micros.is_none() && self.link.is_connected() {
            self.hello_micros = Some(self.clock.local_micros());
        }
        self.take_events()?;
        self.follow_if_host_gone()?;
        self.since_inputs_micros = self.since_inputs_micros.saturating_add(elapsed_micros);
        let lossy = self.inputs.as_ref().is_some_and(InputTicks::lossy);
        if lossy && !self.repeated && self.since_inputs_micros >= INPUT_REPEAT_MICROS {
            self.link.session().repeat_inputs();
            self.repeated = true;
        }
        if self.since_inputs_micros >= TICK_MICROS {
            // No input for a tick (the input ticks hold back): the host still hears what
            // arrived.
            self.link.session().send_frame();
            self.since_inputs_micros = 0;
        }
        Ok(())
    }

    /// Acts on what the session took in since it was last asked.
    fn take_events(&mut self) -> Result<(), NetPlayError> {
        let mut events = std::mem::take(&mut self.events);
        events.extend(self.link.session().drain_events());
        let acted = events.drain(..).try_for_each(|event| self.event(event));
        self.events = events;
        acted
    }

    fn event(&mut self, event: PeerEventOf<G>) -> Result<(), NetPlayError> {
        match event {
            PeerEvent::Welcomed(welcome) => {
                let Welcome { tick, rejoin, .. } = welcome;
                match &mut self.runner {
                    Runner::Shared(waiting) => *waiting = Some(welcome),
                    Runner::Own(sim) => {
                        let state =
                            restore_state::<G>(&self.content, &welcome.state, welcome.hash, tick)?;
                        self.recording = start_recording::<G>(
                            self.record_to.as_deref(),
                            &self.content,
                            &state,
                            welcome.player.unwrap_or(Player(0)),
                        );
                        *sim = Some(state);
                    }
                }
                let round_trip = self.clock.local_micros() - self.hello_micros.unwrap_or(0);
                self.inputs = Some(InputTicks::new(tick, round_trip));
                if let (Some(file), Some(secret)) = (&self.rejoin_file, rejoin) {
                    write_secret(file, secret);
                }
                self.offer_to_host();
            }
            PeerEvent::Resync(Welcome { tick, state, hash, .. }) => {
                // Ticks before it still waiting to run are of the old state: run_due skips them.
                // A shared simulation is the others' too, and stays as it is.
                if let Runner::Own(sim) = &mut self.runner {
                    let state = restore_state::<G>(&self.content, &state, hash, tick)?;
                    keep_going(&mut self.recording, |r| r.replaced(&state));
                    *sim = Some(state);
                }
                self.stats.resynced = Some(tick);
                self.stats.resyncs += 1;
            }
            // The goodbye of a host this player has turned from already.
            PeerEvent::Goodbye(_) if self.link.session().rehoming() => {}
            PeerEvent::Goodbye(goodbye) => {
                // Welcomed, it was given its first tick's schedule.
                let welcomed = self.inputs.is_some();
                self.goodbye =
                    Some(said_goodbye(self.link.host(), welcomed, &goodbye, Role::Player)?);
            }
            PeerEvent::Tick(record) => {
                let now = self.clock.local_micros();
                if let Some(moved) =
                    self.stats.host_moved.as_mut().filter(|m| m.pause_micros.is_none())
                {
                    let pause = now.saturating_sub(self.tick_micros);
                    moved.pause_micros = Some(pause);
                    tracing::info!(
                        "the match goes on under {}, after {} ms",
                        moved.hosts,
                        pause / 1000
                    );
                }
                self.tick_micros = now;
                self.clock.observe(record.tick);
                self.stats.host_tick = Some(record.tick);
                self.playout.push_back(record);
            }
            PeerEvent::InputAck { tick, queued, early_micros } => {
                if let Some(early) = early_micros
                    && self.sent_at.iter().any(|(t, _)| *t == tick)
                {
                    // On its way for half the round trip, then waiting its margin.
                    let half_trip = self.link().rtt_micros / 2;
                    InputLatency::push(
                        &mut self.stats.latency.to_host,
                        half_trip + u64::from(early),
                    );
                }
                if let Some(inputs) = self.inputs.as_mut() {
                    inputs.acknowledged(tick, early_micros);
                    if let Some(margin) = inputs.margin_micros() {
                        let target = inputs.margin_target_micros();
                        self.clock.report_margin(i64::from(margin), i64::from(target));
                        self.stats.margin_micros = Some((margin, target));
                    }
                }
                self.stats.queued = queued;
                let sent = self.inputs.as_ref().is_some_and(|i| tick >= i.first());
                self.stats.late_inputs += u64::from(early_micros.is_none() && sent);
            }
            PeerEvent::Desync(DesyncNotice { tick, hash, state }) => {
                self.stats.desync.get_or_insert(tick);
                if let Some((ours, our_hash)) = self.recent.get(tick) {
                    let (ours, our_hash) = (ours.to_vec(), our_hash.clone());
                    let names = self.hash.as_ref().map(part_names).unwrap_or_default();
                    let dir = write_report::<G>(
                        &self.reports,
                        tick,
                        self.player(),
                        (&state, &hash),
                        (&ours, &our_hash),
                        Side::Peer,
                        &Kept {
                            part_names: &names,
                            content: &self.content,
                            states: &self.recent,
                            ticks: &self.recent_ticks,
                        },
                    )?;
                    self.stats.report = Some(dir);
                    self.link.session().send_desync_state(tick, ours, our_hash);
                }
            }
            PeerEvent::Roster(names) => {
                // A replay names the players as this player learned them.
                if let Runner::Own(Some(sim)) = &self.runner {
                    let tick = sim.next_tick();
                    keep_going(&mut self.recording, |r| r.roster_names(tick, &self.names, &names));
                }
                self.names = names;
            }
            PeerEvent::Resumed { tick, epoch, rejoin } => {
                tracing::info!(epoch, tick = tick.0, "seated by the new host");
                // The replay says who hosts from the first tick the new host sends.
                if let Some(host) = self.following {
                    let change = RosterChange::Hosts { epoch };
                    keep_going(&mut self.recording, |r| r.roster(tick, host, change));
                }
                // Its inputs start again a round trip ahead of the new host's first tick.
                let round_trip = self.link().rtt_micros;
                self.inputs = Some(InputTicks::new(tick, round_trip));
                if let Some(file) = &self.rejoin_file {
                    write_secret(file, rejoin);
                }
            }
            // The succession stays in the session, which keeps the latest.
            PeerEvent::Update(_) | PeerEvent::Succession(_) | PeerEvent::Dropped(_) => {}
        }
        Ok(())
    }

    /// Offers to host the match if its host goes, on a socket kept for it: a player that
    /// runs its own game and reaches its host with nothing (or a password) a successor could
    /// not present too. A matchmaker's token is the matchmaker's: such a player offers nothing.
    fn offer_to_host(&mut self) {
        let can =
            matches!(self.runner, Runner::Own(_)) && !matches!(self.admission, Admission::Token(_));
        if !can {
            return;
        }
        if self.host_socket.is_none() {
            self.host_socket = HostSocket::reserve(self.link.host(), &self.offer);
        }
        if let Some(socket) = &self.host_socket {
            self.link.session().offer_to_host(vec![socket.at]);
        }
    }

    /// Turns to the next host of the succession if the host went (silent for the host
    /// silence, or handing the match over): takes the match over if this player is next, and
    /// connects to the next host. With nobody to turn to, the match ends as it did before
    /// players could take it over.
    fn follow_if_host_gone(&mut self) -> Result<(), NetPlayError> {
        if !self.link.session().host_went() {
            return Ok(());
        }
        // The serving thread may have taken in the old host's last ticks since the events
        // were last drained: they belong to its match, and a successor hosts from them.
        self.take_events()?;
        let left = self.link.session().host_seat().and_then(|s| self.names.get(s.index()).cloned());
        let Some(next) = self.link.session().follow_successor() else { return Ok(()) };
        self.following = Some(next.player);
        let name = self.names.get(next.player.index()).cloned().unwrap_or_default();
        // Turning to a successor that did not answer, the host that left is the same.
        let left = match &self.stats.host_moved {
            Some(moved) if moved.pause_micros.is_none() => moved.left.clone(),
            _ => left.unwrap_or_default(),
        };
        self.stats.host_moved = Some(HostMoved {
            left,
            hosts: name.clone(),
            stopped_at_micros: self.tick_micros,
            pause_micros: None,
        });
        if Some(next.player) == self.player() {
            self.take_over()?;
        }
        let Some(&at) = next.at.first() else { return Ok(()) };
        // Its own player reaches this player's host on this machine.
        let listing = self.link.session().listing().cloned();
        let listing = listing.filter(|_| Some(next.player) != self.player());
        let found = listing.as_ref().map_or(format!("at {at}"), |l| format!("found by {}", l.code));
        tracing::info!(host = %at, "the host is gone: {name} hosts now, {found}");
        self.link.turn_to(at, listing.as_ref(), &self.admission)?;
        // The ticks drawn hold through the pause, and go on at their pace after it: the
        // newest tick's state is drawn at the tick after it.
        let newest = self.clock.newest_observed();
        let stopped = newest.map(|t| fixstep_runtime::clock::ticks_of_tick(t.next()));
        self.clock.host_changed(stopped);
        self.goodbye = None;
        Ok(())
    }

    /// Hosts the match from this player's game (apart from its player, which claims its seat
    /// there as the others do), on the socket it offered.
    fn take_over(&mut self) -> Result<(), NetPlayError> {
        let Runner::Own(Some(sim)) = &self.runner else { return Ok(()) };
        let (Some(host_socket), Some(takeover)) =
            (self.host_socket.take(), self.link.session().takeover(self.names.clone()))
        else {
            return Ok(());
        };
        // The host's game is this player's, with the ticks it has and has not run yet.
        let mut game = G::new_sim(&self.content, 0, 0);
        game.restore(sim.state());
        for record in &self.playout {
            if record.tick >= game.next_tick() {
                record.run(&mut game)?;
            }
        }
        if game.next_tick() != takeover.next_tick() {
            tracing::warn!("cannot host the match: its ticks are not all here");
            return Ok(());
        }
        let access = match &self.admission {
            Admission::Key(key) => Access::Key(key.clone()),
            Admission::Open | Admission::Token(_) => Access::Open,
        };
        let seats = self.names.len();
        let options = HostOptions {
            bind: host_socket.at,
            also_reachable_at: vec![host_socket.at],
            max_players: seats.max(SUCCESSOR_MIN_PLAYERS),
            max_spectators: SUCCESSOR_SPECTATORS,
            seat_grace_micros: fixstep_runtime::net::DEFAULT_SEAT_GRACE_MICROS,
            own_player: false,
            seed: 0,
            name: String::new(),
            reports: self.reports.clone(),
            access,
            record: None,
            spectator_delay_ticks: 0,
            migration: true,
            rendezvous: None,
            port_mapping: self.offer.map_port && !host_socket.at.ip().is_loopback(),
            stun: Vec::new(),
            turn: self.offer.turn.clone(),
        };
        let takeover = takeover.hosted_apart();
        let socket = host_socket.socket;
        let mut host = NetHost::<G>::succeeding(&self.content, &options, socket, game, takeover)?;
        // A match listed under a code stays listed under it, at this host's addresses.
        let listing = self.link.session().listing().cloned();
        if let Some(listing) = listing
            && let (Some(secret), Ok(code)) = (listing.secret, listing.code.parse::<JoinCode>())
        {
            tracing::info!("the match keeps its code {code}");
            host.resume_listing(listing.rendezvous, code, secret);
        }
        tracing::info!(at = %host_socket.at, "hosting the match from here on");
        self.successor = Some(SuccessorHost::start(host));
        Ok(())
    }

    /// The tick the next input is for, if one is due now (the input clock may hold back);
    /// `None` before the welcome.
    pub fn next_input_tick(&mut self) -> Option<Tick> {
        self.inputs.as_mut().and_then(InputTicks::take)
    }

    /// Sends the peer's command for `tick`.
    pub fn submit(&mut self, tick: Tick, command: CommandOf<G>) {
        self.link.session().submit_input(tick, command);
        self.since_inputs_micros = 0;
        self.repeated = false;
        while self.sent_at.len() >= RECENT_STATES {
            self.sent_at.pop_front();
        }
        self.sent_at.push_back((tick, self.clock.local_micros()));
    }

    /// Runs the ticks that have arrived, in order, up to `render_tick` (all of them with
    /// `None`): a tick is run when the drawn time reaches it, so a burst of late ticks plays
    /// out at the pace of the clock instead of all at once. `on_tick` sees each tick run.
    ///
    /// # Errors
    ///
    /// If a tick does not run.
    pub fn run_due(
        &mut self,
        render_tick: Option<Fx>,
        mut on_tick: impl FnMut(&G::Sim, &StateHash),
    ) -> Result<u32, NetPlayError> {
        let Runner::Own(Some(sim)) = &mut self.runner else { return Ok(0) };
        let mut ran = 0;
        while let Some(record) = self.playout.front() {
            if record.tick < sim.next_tick() {
                // Ticks from before the state the welcome brought: already in it.
                self.playout.pop_front();
                continue;
            }
            if render_tick.is_some_and(|r| Fx::from_num(record.tick.0) > r) {
                break;
            }
            let Some(record) = self.playout.pop_front() else { break };
            Self::timed(&mut self.sent_at, &mut self.stats, &self.clock, record.tick);
            record.run(sim)?;
            if self.perturb_at == Some(record.tick)
                && let Some(player) = self.link.session().player()
            {
                G::perturb(sim, player);
            }
            sim.hash_state(&mut self.hasher);
            let hash = self.hasher.finish_reuse();
            self.link.session().report_hash(record.tick, hash.total());
            keep_going(&mut self.recording, |r| r.tick(&record, hash.total(), sim));
            let report = HashRecord::of(&hash);
            self.recent.push(record.tick, sim.state(), report)?;
            self.recent_ticks.push(&record);
            self.stats.hashed = Some((record.tick, hash.total()));
            self.stats.hashes_reported += 1;
            on_tick(sim, &hash);
            self.hash = Some(hash);
            ran += 1;
        }
        Ok(ran)
    }

    /// Runs the tick `tick`: the input sent for it, if any, took this long to run.
    fn timed(
        sent_at: &mut VecDeque<(Tick, u64)>,
        stats: &mut PeerStats,
        clock: &NetworkClock,
        tick: Tick,
    ) {
        while let Some(&(sent_for, sent)) = sent_at.front()
            && sent_for <= tick
        {
            sent_at.pop_front();
            if sent_for == tick {
                let waited = clock.local_micros().saturating_sub(sent);
                InputLatency::push(&mut stats.latency.to_own_tick, waited);
            }
        }
    }

    /// Hands the ticks that have arrived to the simulation `shared` with other players (see
    /// [`connect_shared`](Self::connect_shared)), and reports the hash of each it has run:
    /// its own hash when this player's copy is the tick it ran, one that cannot match the
    /// host's when the copy differs. Returns how many ticks it reported.
    pub fn run_shared(&mut self, shared: &mut SharedTicks<G>) -> u32 {
        let mut done = 0;
        let mut reported = 0;
        let mut waiting = false;
        for record in &self.playout {
            // Every copy is offered: this player may be the first to have a later tick.
            let verdict = shared.offer(record);
            if waiting {
                continue;
            }
            let hash = match verdict {
                Verdict::Waiting => {
                    waiting = true;
                    continue;
                }
                Verdict::Ran(hash) => Some(hash),
                Verdict::Differs(hash) => Some(!hash),
                Verdict::Forgotten => None,
            };
            done += 1;
            if let Some(hash) = hash {
                Self::timed(&mut self.sent_at, &mut self.stats, &self.clock, record.tick);
                self.link.session().report_hash(record.tick, hash);
                self.stats.hashed = Some((record.tick, hash));
                self.stats.hashes_reported += 1;
                reported += 1;
            }
        }
        self.playout.drain(..done);
        reported
    }

    /// Sends what the session has to send.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn send(&mut self) -> Result<(), NetPlayError> {
        Ok(self.link.send()?)
    }

    /// How many times the host resynced this peer: a frame loop that draws the game starts
    /// its presentation again when this changes (the state jumped).
    #[must_use]
    pub const fn resyncs(&self) -> u32 {
        self.stats.resyncs
    }

    /// Why the game is over for this peer, if the host ended it (the match is over, or it
    /// dropped this peer, and said why).
    #[must_use]
    pub fn ended(&self) -> Option<&str> {
        self.goodbye.as_deref().or_else(|| self.link.ended())
    }

    /// Whether the host dropped this peer (see `dropped_by`) rather than ending the match.
    #[must_use]
    pub fn dropped(&self) -> bool {
        dropped_by(self.link.session().goodbye())
    }

    /// Says goodbye.
    pub fn disconnect(&mut self) {
        self.link.disconnect();
    }
}

/// The file that keeps a player's rejoin secret for the host it dialled as `host` and the
/// name `name`, under the user's data directory (`~/.local/share/fixstep/rejoin/` on Linux);
/// `None` where the platform has none.
#[must_use]
pub fn rejoin_file(host: &str, name: &str) -> Option<PathBuf> {
    let host: String =
        host.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect();
    // Hex keeps any name a file name, and two names two files.
    let name: String = name.bytes().map(|b| format!("{b:02x}")).collect();
    Some(dirs::data_dir()?.join("fixstep").join("rejoin").join(format!("{host}-{name}")))
}

#[cfg(test)]
mod tests {
    use super::{
        Goodbye, NetPlayError, RejoinSecret, Role, SocketAddr, read_secret, said_goodbye,
        write_secret,
    };

    #[test]
    fn a_rejoin_secret_is_kept_for_its_owner_and_a_damaged_file_is_ignored() {
        let dir = std::env::temp_dir().join(format!("fixstep-rejoin-{}", std::process::id()));
        let file = dir.join("nested").join("127.0.0.1_7465-616461");
        assert_eq!(read_secret(&file), None, "none kept yet");
        let secret = RejoinSecret([0xA5; 16]);
        write_secret(&file, secret);
        assert_eq!(read_secret(&file), Some(secret), "kept, in a folder made for it");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).expect("written").permissions().mode();
            assert_eq!(mode & 0o077, 0, "no one else may read it: {mode:o}");
        }
        std::fs::write(&file, "not a secret\n").expect("writable");
        assert_eq!(read_secret(&file), None, "a damaged file is ignored");
        std::fs::write(&file, "zz".repeat(16)).expect("writable");
        assert_eq!(read_secret(&file), None, "32 characters that are not hex");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_refusal_keeps_the_hosts_goodbye_typed_and_says_it_in_words() {
        let host = SocketAddr::from(([127, 0, 0, 1], 7465));
        let refused = said_goodbye(host, false, &Goodbye::TimedOut, Role::Spectator);
        let Err(error) = refused else { panic!("a goodbye before the welcome is a refusal") };
        assert_eq!(
            error.to_string(),
            "the host refused this spectator: the host heard nothing from this peer for too long \
             (timed out)"
        );
        assert!(matches!(
            error,
            NetPlayError::Refused { role: Role::Spectator, goodbye: Goodbye::TimedOut }
        ));
        let ended = said_goodbye(host, true, &Goodbye::MatchEnded, Role::Player);
        assert!(ended.is_ok(), "after the welcome, a goodbye ends the game");
    }
}
