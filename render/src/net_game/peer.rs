//! A player's side of a network game: the town (simulated from the host's ticks), the peer
//! session, its transport, the network clock and the numbering of its inputs.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use fixstep_game::level::Level;
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_net::{LinkStats, PeerLink};
use fixstep_runtime::clock::NetworkClock;
use fixstep_runtime::math::Fx;
use fixstep_runtime::net::{
    DesyncNotice, INPUT_REPEAT_MICROS, Identity, InputTicks, PROTOCOL_VERSION, PeerConfig,
    PeerEvent, PeerSession, Role, TickRecord, Welcome,
};
use fixstep_runtime::{HashRecord, Simulation, StateHash, StateHasher, Tick};

use super::desync::{Side, write_report};
use super::host_thread::SERVE_MICROS;
use super::{RECENT_STATES, RecentStates, apply, part_names};

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
    /// The tick of a desync the host found, if it did.
    pub desync: Option<Tick>,
    /// The desync report written.
    pub report: Option<PathBuf>,
    /// How long the peer's inputs took, from being sent to being run.
    pub latency: InputLatency,
    /// How long before their ticks its inputs reach the host, and how long they should,
    /// microseconds (see [`fixstep_runtime::net::InputTicks`]).
    pub margin_micros: Option<(u32, u32)>,
}

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

/// A player in a network game; see the [module documentation](super).
pub struct NetPeer {
    link: PeerLink<PlayerCommand>,
    level: Arc<Level>,
    sim: Option<TownSim>,
    clock: NetworkClock,
    inputs: Option<InputTicks>,
    /// Our clock when the transport came up, for the round trip of the welcome.
    hello_micros: Option<u64>,
    /// Ticks arrived and not yet run (the playout buffer).
    playout: VecDeque<TickRecord<PlayerCommand>>,
    recent: RecentStates,
    hasher: StateHasher,
    hash: Option<StateHash>,
    reports: PathBuf,
    stats: PeerStats,
    /// A tick after which the own character's health is changed (tests of desync reports).
    perturb_at: Option<Tick>,
    /// When each input not yet run was sent, on the clock's local time, in tick order.
    sent_at: VecDeque<(Tick, u64)>,
    /// Every player's name, by player number, as the host last said.
    names: Vec<String>,
    /// Microseconds since the inputs were last sent, new or repeated.
    since_inputs_micros: u64,
}

impl std::fmt::Debug for NetPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetPeer").field("link", &self.link).finish_non_exhaustive()
    }
}

/// The identity of a town on `level`.
#[must_use]
pub fn identity_of(level: &Level) -> Identity {
    Identity { protocol: PROTOCOL_VERSION, sim_version: TownSim::VERSION, level: level.digest() }
}

/// Takes a point of health from `player`'s character (see [`NetPeer::perturb_at`]).
fn perturb(sim: &mut TownSim, player: Option<u16>) {
    let mut state = sim.state().clone();
    let id = player.and_then(|p| state.players.get(usize::from(p)).copied());
    if let Some(character) = id.and_then(|id| state.characters.get_mut(id)) {
        character.health -= 1;
        sim.restore(&state);
    }
}

impl NetPeer {
    /// A player named `name` connecting to the host at `host`, to play on `level`.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn connect(
        level: Arc<Level>,
        host: SocketAddr,
        name: &str,
        reports: PathBuf,
    ) -> Result<Self> {
        let config =
            PeerConfig { identity: identity_of(&level), name: name.to_owned(), role: Role::Player };
        Ok(Self {
            link: PeerLink::connect(host, PeerSession::new(config))?,
            level,
            sim: None,
            clock: NetworkClock::new(),
            inputs: None,
            hello_micros: None,
            playout: VecDeque::new(),
            recent: RecentStates::default(),
            hasher: StateHasher::new(),
            hash: None,
            reports,
            stats: PeerStats::default(),
            perturb_at: None,
            sent_at: VecDeque::new(),
            names: Vec::new(),
            since_inputs_micros: 0,
        })
    }

    /// Makes this peer differ from the host on purpose: after running `tick` it takes a point
    /// of health from its own character, as a bug in its copy of the rules would. Only tests
    /// of desync detection and reports want this.
    pub fn perturb_at(&mut self, tick: Tick) {
        self.perturb_at = Some(tick);
    }

    /// The town, once welcomed.
    #[must_use]
    pub const fn sim(&self) -> Option<&TownSim> {
        self.sim.as_ref()
    }

    /// The peer's player number, once welcomed.
    #[must_use]
    pub fn player(&self) -> Option<u16> {
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

    /// The link to the host.
    #[must_use]
    pub fn link(&self) -> LinkStats {
        self.link.stats()
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
    pub fn receive(&mut self, elapsed_micros: u64) -> Result<()> {
        self.clock.advance(elapsed_micros);
        if self.link.ended().is_some() {
            return Ok(());
        }
        let elapsed = std::time::Duration::from_micros(elapsed_micros);
        self.link.receive(elapsed)?;
        if self.hello_micros.is_none() && self.link.is_connected() {
            self.hello_micros = Some(self.clock.local_micros());
        }
        let events: Vec<PeerEvent<PlayerCommand>> = self.link.session().drain_events().collect();
        for event in events {
            self.event(event)?;
        }
        self.since_inputs_micros = self.since_inputs_micros.saturating_add(elapsed_micros);
        if self.since_inputs_micros >= INPUT_REPEAT_MICROS {
            self.link.session().repeat_inputs();
            self.since_inputs_micros = 0;
        }
        Ok(())
    }

    fn event(&mut self, event: PeerEvent<PlayerCommand>) -> Result<()> {
        match event {
            PeerEvent::Welcomed(Welcome { tick, state, hash, .. }) => {
                let state =
                    postcard::from_bytes(&state).context("the host's state does not decode")?;
                let mut sim = TownSim::new(Arc::clone(&self.level), 0, 0);
                sim.restore(&state);
                let ours = sim.state_hash().total();
                if ours != hash || sim.next_tick() != tick {
                    bail!(
                        "the host's state arrived damaged: hash {ours:016x} at tick {} where the \
                         host said {hash:016x} at tick {}",
                        sim.next_tick().0,
                        tick.0
                    );
                }
                self.sim = Some(sim);
                let round_trip = self.clock.local_micros() - self.hello_micros.unwrap_or(0);
                self.inputs = Some(InputTicks::new(tick, round_trip));
            }
            PeerEvent::Refused { reason } => bail!("the host refused this player: {reason}"),
            PeerEvent::Tick(record) => {
                self.clock.observe(record.tick);
                self.stats.host_tick = Some(record.tick);
                self.playout.push_back(record);
            }
            PeerEvent::InputAck { tick, queued, early_micros } => {
                if let Some(early) = early_micros
                    && self.sent_at.iter().any(|(t, _)| *t == tick)
                {
                    // On its way for half the round trip, then waiting its margin.
                    let half_trip = self.link.stats().rtt_micros / 2;
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
                self.stats.late_inputs += u64::from(early_micros.is_none());
            }
            PeerEvent::Desync(DesyncNotice { tick, hash, state }) => {
                self.stats.desync.get_or_insert(tick);
                if let Some((ours, our_hash)) = self.recent.get(tick) {
                    let (ours, our_hash) = (ours.to_vec(), our_hash.clone());
                    let names = self.hash.as_ref().map(part_names).unwrap_or_default();
                    let dir = write_report(
                        &self.reports,
                        tick,
                        self.player(),
                        (&state, &hash),
                        (&ours, &our_hash),
                        &names,
                        Side::Peer,
                    )?;
                    self.stats.report = Some(dir);
                    self.link.session().send_desync_state(tick, ours);
                }
            }
            PeerEvent::Roster(names) => self.names = names,
            PeerEvent::Poses(_) | PeerEvent::Dropped(_) => {}
        }
        Ok(())
    }

    /// The tick the next input is for, if one is due now (the input clock may hold back);
    /// `None` before the welcome.
    pub fn next_input_tick(&mut self) -> Option<Tick> {
        self.inputs.as_mut().and_then(InputTicks::take)
    }

    /// Sends the peer's command for `tick`.
    pub fn submit(&mut self, tick: Tick, command: PlayerCommand) {
        self.link.session().submit_input(tick, command);
        self.since_inputs_micros = 0;
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
        mut on_tick: impl FnMut(&TownSim, &StateHash),
    ) -> Result<u32> {
        let Some(sim) = self.sim.as_mut() else { return Ok(0) };
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
            while let Some(&(tick, sent)) = self.sent_at.front()
                && tick <= record.tick
            {
                self.sent_at.pop_front();
                if tick == record.tick {
                    let waited = self.clock.local_micros().saturating_sub(sent);
                    InputLatency::push(&mut self.stats.latency.to_own_tick, waited);
                }
            }
            apply(sim, &record)?;
            if self.perturb_at == Some(record.tick) {
                perturb(sim, self.link.session().player());
            }
            sim.hash_state(&mut self.hasher);
            let hash = self.hasher.finish_reuse();
            self.link.session().report_hash(record.tick, &hash);
            let report = HashRecord::of(&hash);
            self.recent.push(record.tick, sim.state(), report)?;
            self.stats.hashed = Some((record.tick, hash.total()));
            on_tick(sim, &hash);
            self.hash = Some(hash);
            ran += 1;
        }
        Ok(ran)
    }

    /// Sends what the session has to send.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn send(&mut self) -> Result<()> {
        Ok(self.link.send()?)
    }

    /// The host's goodbye, if the host ended the game (it stopped, or its match is over).
    #[must_use]
    pub fn ended(&self) -> Option<&str> {
        self.link.ended()
    }

    /// Says goodbye.
    pub fn disconnect(&mut self) {
        self.link.disconnect();
    }
}
