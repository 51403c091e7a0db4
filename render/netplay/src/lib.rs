//! # fixstep-netplay
//!
//! Network play for any game of Fixstep's, float-free: the drivers that run a game's rules over
//! the lockstep sessions of [`fixstep_runtime::net`] and the UDP transport of `fixstep-net`.
//! Nothing of how a game is drawn: a headless host links only this, its game's rules and the
//! core; `fixstep-netplay-view` adds what a window draws (a spectator's view, a player's
//! frames, a windowed host's serving thread).
//!
//! - a [`NetHost`] runs the game on its 100 ms schedule, fixes every tick's commands, runs
//!   them, compares the peers' hashes with its own, lets late joiners in with its state, and
//!   feeds spectators what its game chooses to send them; [`HostGame`] is the same without a
//!   socket (for a benchmark with many peers), all on one [`HostSchedule`];
//! - a [`NetPeer`] is a player: it sends its inputs a round trip ahead on a clock the host's
//!   reports nudge, runs every tick the host fixed when the drawn time reaches it, and
//!   reports its hashes; [`SharedTicks`] runs the ticks of many players of one process once
//!   (a load generator's);
//! - when a peer's hash of a tick differs from the host's, both write a desync report
//!   ([`desync`]), naming the first field that differs.
//!
//! A game implements [`NetRules`] on the type that describes it: what its spectators are sent,
//! how its state's fields are named in a report.
//!
//! A host and a peer of the arena (the second game in this repository), with the bytes
//! handed between them in memory where a UDP transport would carry them:
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_arena::ArenaCommand;
//! use fixstep_arena_view::Arena;
//! use fixstep_netplay::{HostGame, HostOptions, identity_of};
//! use fixstep_runtime::Rules;
//! use fixstep_runtime::net::{
//!     DEFAULT_SEAT_GRACE_MICROS, PeerConfig, PeerEvent, PeerId, PeerSession, Role,
//! };
//!
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let rink = Arena::load_content(assets, &Arena::default_content(assets)).expect("it loads");
//! let rink = Arc::new(rink);
//! let options = HostOptions {
//!     bind: ([127, 0, 0, 1], 0).into(),
//!     also_reachable_at: Vec::new(),
//!     max_players: 2,
//!     max_spectators: 8,
//!     seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
//!     own_player: true,
//!     seed: 7,
//!     name: "host".to_owned(),
//!     reports: std::env::temp_dir(),
//!     access: fixstep_netplay::Access::Open,
//!     record: None,
//!     spectator_delay_ticks: 0,
//!     migration: true,
//!     rendezvous: None,
//!     port_mapping: false,
//!     stun: Vec::new(),
//!     turn: None,
//! };
//! let mut host = HostGame::<Arena>::new(&rink, &options);
//! let identity = identity_of::<Arena>(&rink);
//! let mut peer = PeerSession::<Arena>::new(PeerConfig {
//!     identity,
//!     name: "guest".to_owned(),
//!     role: Role::Player,
//!     rejoin: None,
//! });
//! peer.connect();
//! host.session_mut().connect(PeerId(1), 0);
//! let mut welcomed = None;
//! for tick in 1..=5_u64 {
//!     let now = tick * 100_000;
//!     for (delivery, bytes) in peer.drain_outgoing() {
//!         host.session_mut().receive(PeerId(1), delivery, &bytes, now);
//!     }
//!     host.after_receive(now).expect("no report to write");
//!     host.run_tick(Some(ArenaCommand { x: 100, y: 0, dash: false })).expect("it runs");
//!     for (_, delivery, bytes) in host.session_mut().drain_outgoing() {
//!         peer.receive(delivery, &bytes);
//!     }
//!     for event in peer.drain_events() {
//!         if let PeerEvent::Welcomed(welcome) = event {
//!             welcomed = Some(welcome.player);
//!         }
//!     }
//! }
//! // The guest joined late, as player 1, with the host's state.
//! assert_eq!(welcomed, Some(Some(fixstep_runtime::Player(1))));
//! assert_eq!(fixstep_runtime::Simulation::players(host.sim()), 2);
//! ```

mod delayed;
pub mod desync;
mod error;
mod host;
mod metrics;
mod news;
mod peer;
mod reach;
pub mod recording;
pub mod resume;
mod schedule;
mod shared_ticks;
mod successor;
mod watched;

use fixstep_runtime::net::GameData;
use fixstep_runtime::rules::{CommandOf, StateOf};
use fixstep_runtime::{HashRecord, Player, Rules, StateHash, Tick, TickRecord};

pub use delayed::MAX_SPECTATOR_DELAY_S;
pub use error::NetPlayError;
pub use fixstep_net::{Access, Admission, SessionKey};
pub use host::{GOODBYE_GRACE_MICROS, HostGame, HostOptions, HostStats, NetHost};
pub use metrics::{HostMetrics, METRICS_CONTENT_TYPE, METRICS_PATH, MetricsServer};
pub use news::{HostNews, Leaver};
pub use peer::{
    HostMoved, InputLatency, NetPeer, PeerOptions, PeerStats, dropped_by, identity_of,
    parse_rejoin_secret, rejoin_file, said_goodbye,
};
pub use reach::{Reach, ReachNews};
pub use recording::{RecordError, Recording};
pub use schedule::{HostSchedule, SERVE_MICROS, STAND_IN_MICROS};
pub use shared_ticks::{SharedTicks, Verdict};
pub use successor::{HostOffer, SuccessorHost};
pub use watched::WatchedMatch;

/// A game's rules played over the network: what the host sends its spectators, and how a
/// desync report names the entity a field lies in. Float-free: the host, a peer's session and
/// its simulation, desync reports and the load generator's shared ticks need nothing more of a
/// game, nothing of how it is drawn.
pub trait NetRules: Rules + GameData<Command = CommandOf<Self>> {
    /// What the host keeps for each spectator, to send it only what is due (the poses last
    /// sent, say).
    type Feed: Default + Send + 'static;
    /// What every spectator's update is cut from: gathered once a tick, whoever watches, and
    /// kept to be filled again.
    type Source: Default + Send + 'static;

    /// Gathers into `source` what the spectators are sent of the tick `sim` just ran.
    fn spectator_source(sim: &Self::Sim, source: &mut Self::Source);

    /// What spectator `feed` is sent of the tick gathered in `source`, given what it looks at.
    fn spectator_update(
        source: &Self::Source,
        feed: &mut Self::Feed,
        view: &Self::SpectatorView,
    ) -> Self::SpectatorUpdate;

    /// The entity a difference between two states lies in, named as a reader of a desync
    /// report looks for it (`character 12v0 (player 1)`), from the path of the field in the
    /// state's RON (`characters.values[12].pos.x`); `None` for state outside any entity.
    fn entity_at(state: &StateOf<Self>, path: &str) -> Option<String> {
        let _ = (state, path);
        None
    }

    /// Makes `sim` differ from the host's on purpose in player `player`'s own character, as a
    /// bug in its copy of the rules would, in a way that lasts (a metre's move, not a point of
    /// health that heals by the next tick): only tests of desyncs and resyncs want this.
    fn perturb(sim: &mut Self::Sim, player: Player);
}

/// States kept of the latest ticks, for desync reports: 64 (6.4 s), as long as the host keeps
/// its own hashes to compare, so every desync it can find has both states to report.
pub const RECENT_STATES: usize = fixstep_runtime::net::HASH_MEMORY_TICKS as usize;

/// The states after the latest [`RECENT_STATES`] ticks (postcard) with their hashes, for
/// desync reports. The oldest state's buffer takes the newest, so once full, keeping them
/// allocates nothing a tick.
#[derive(Debug, Default)]
pub struct RecentStates {
    states: std::collections::VecDeque<(Tick, Vec<u8>, HashRecord)>,
}

impl RecentStates {
    /// Keeps `state` after `tick`, with its hash, forgetting the oldest beyond
    /// [`RECENT_STATES`].
    ///
    /// # Errors
    ///
    /// If the state does not encode (a bug).
    pub fn push(
        &mut self,
        tick: Tick,
        state: &impl serde::Serialize,
        hash: HashRecord,
    ) -> Result<(), NetPlayError> {
        let mut buffer = if self.states.len() >= RECENT_STATES {
            self.states.pop_front().map(|(_, buffer, _)| buffer).unwrap_or_default()
        } else {
            Vec::new()
        };
        buffer.clear();
        let buffer = postcard::to_extend(state, buffer).map_err(NetPlayError::Encode)?;
        self.states.push_back((tick, buffer, hash));
        Ok(())
    }

    /// The oldest state kept, with its tick and hash.
    #[must_use]
    pub fn oldest(&self) -> Option<(Tick, &[u8], &HashRecord)> {
        self.states.front().map(|(tick, state, hash)| (*tick, &state[..], hash))
    }

    /// The state after `tick` and its hash, if it is still kept.
    #[must_use]
    pub fn get(&self, tick: Tick) -> Option<(&[u8], &HashRecord)> {
        self.states.iter().find(|(t, _, _)| *t == tick).map(|(_, state, hash)| (&state[..], hash))
    }
}

/// The latest [`RECENT_STATES`] ticks as they were fixed, beside [`RecentStates`]: a desync
/// report's replay runs them from the oldest state kept to the tick that differed.
#[derive(Debug)]
pub struct RecentTicks<C> {
    ticks: std::collections::VecDeque<TickRecord<C>>,
}

impl<C> Default for RecentTicks<C> {
    fn default() -> Self {
        Self { ticks: std::collections::VecDeque::new() }
    }
}

impl<C: Clone> RecentTicks<C> {
    /// Keeps `record`, forgetting the oldest beyond [`RECENT_STATES`].
    pub fn push(&mut self, record: &TickRecord<C>) {
        if self.ticks.len() >= RECENT_STATES {
            self.ticks.pop_front();
        }
        self.ticks.push_back(record.clone());
    }

    /// The ticks kept after `after` up to `to`, in order, if every one of them is kept.
    #[must_use]
    pub fn between(&self, after: Tick, to: Tick) -> Option<Vec<&TickRecord<C>>> {
        let wanted: Vec<_> = self.ticks.iter().filter(|r| r.tick > after && r.tick <= to).collect();
        let count = to.since(after);
        (usize::try_from(count).ok() == Some(wanted.len())).then_some(wanted)
    }
}

/// The names of a hash's parts, in order.
#[must_use]
pub fn part_names(hash: &StateHash) -> Vec<&'static str> {
    hash.parts().iter().map(|p| p.name).collect()
}
