//! # Network play
//!
//! The town played over the network, on the lockstep sessions of
//! [`fixstep_runtime::net`] and the UDP transport of `fixstep-net`:
//!
//! - a [`NetHost`] runs the town on its 100 ms schedule, fixes every tick's commands, runs
//!   them, compares the peers' hashes with its own, and feeds spectators their poses;
//! - a [`NetPeer`] is a player: it sends its inputs a round trip ahead, runs every tick the
//!   host fixed (when the drawn time reaches it, so a jittery link never judders the
//!   picture), and reports its hashes;
//! - a [`NetSpectator`] runs no town: it draws the poses it is sent through the remote view
//!   (network clock, remote buffers, update-gap delay).
//!
//! When a peer's hash of a tick differs from the host's, both write a desync report
//! ([`desync`]). The commands `fixstep host`, `join` and `spectate` drive these, headless or
//! in a window.

pub mod desync;
mod host;
pub mod host_thread;
mod peer;
mod player_frames;
pub mod poses;
mod spectator;

use anyhow::{Context, Result};
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::Tick;
use fixstep_runtime::net::TickRecord;
use fixstep_runtime::{HashRecord, Simulation, StateHash};

pub use host::{HostGame, HostOptions, HostStats, NetHost};
pub use host_thread::HostThread;
pub use peer::{InputLatency, NetPeer, PeerStats, identity_of};
pub use player_frames::PlayerFrames;
pub use spectator::NetSpectator;

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
    ) -> Result<()> {
        let mut buffer = if self.states.len() >= RECENT_STATES {
            self.states.pop_front().map(|(_, buffer, _)| buffer).unwrap_or_default()
        } else {
            Vec::new()
        };
        buffer.clear();
        let buffer = postcard::to_extend(state, buffer).context("the state does not encode")?;
        self.states.push_back((tick, buffer, hash));
        Ok(())
    }

    /// The state after `tick` and its hash, if it is still kept.
    #[must_use]
    pub fn get(&self, tick: Tick) -> Option<(&[u8], &HashRecord)> {
        self.states.iter().find(|(t, _, _)| *t == tick).map(|(_, state, hash)| (&state[..], hash))
    }
}

/// Runs a tick the host fixed: its joins, then the tick.
///
/// # Errors
///
/// If the tick is not the town's next, or has the wrong number of commands.
pub fn apply(sim: &mut TownSim, record: &TickRecord<PlayerCommand>) -> Result<()> {
    for _ in 0..record.joins {
        sim.add_player().context("a player joins")?;
    }
    sim.step(record.tick, &record.commands)
        .with_context(|| format!("tick {} does not run", record.tick.0))?;
    Ok(())
}

/// The names of a hash's parts, in order.
#[must_use]
pub fn part_names(hash: &StateHash) -> Vec<&'static str> {
    hash.parts().iter().map(|p| p.name).collect()
}
