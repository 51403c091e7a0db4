//! What a replay was recorded with: its first record.

use serde::{Deserialize, Serialize};

use crate::error::ReplayError;
use crate::hash::ContentDigest;
use crate::player::Player;
use crate::sim::Simulation;

/// The largest header record a reader accepts, in bytes: a header names its game, its
/// content's title and its partial hashes, under 200 bytes for the town. An empty name is one
/// byte in the file and a whole `String` in memory, so a header of 16 MiB could take 24 times
/// that to decode. The content itself is a record of its own.
pub const MAX_HEADER_BYTES: u32 = 64 << 10;

/// Who recorded a replay, and so whose view of the match it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordedBy {
    /// A game run on one machine (`sim`, local play).
    Local,
    /// The host of a network match: the ticks as it fixed them, the hashes it computed.
    Host,
    /// A player of a network match: the ticks it ran, the hashes it computed, and the states
    /// the host sent it when they differed.
    Player(Player),
    /// A spectator of a network match.
    Spectator,
}

/// What a replay was recorded with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayHeader {
    /// The [`Simulation::NAME`] of the rules that recorded it: a replay is played only by the
    /// same game.
    pub sim: String,
    /// [`Simulation::VERSION`] of the rules that recorded it.
    pub sim_version: u32,
    /// The content's title, for a list of replays.
    pub content_title: String,
    /// [`Simulation::content_digest`] of the content it was recorded on, which the replay
    /// carries: content that unpacks to another digest is refused.
    pub content_digest: ContentDigest,
    /// The seed of the simulation's random numbers, when the recorder started the game: a
    /// replay that starts at tick 0 with a seed proves its start too. A player's replay has
    /// none (the state the host welcomed it with holds the random numbers), and starts from
    /// its first keyframe.
    pub seed: Option<u64>,
    /// The names of the partial hashes a keyframe holds, in order.
    pub hash_parts: Vec<String>,
    /// Whose view of the match it is.
    pub recorded_by: RecordedBy,
    /// When the recording began, in milliseconds since the Unix epoch (0 if unknown): for a
    /// list of replays, never for the simulation.
    pub started_unix_ms: u64,
    /// For the replay of a desync report: the tick whose hashes differed, and both.
    pub desync: Option<DesyncNote>,
}

/// The desync a report's replay leads to: the host's and the peer's hash of the tick they
/// differed at. Re-simulated anywhere, the replay says which of the two that machine
/// computes, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesyncNote {
    /// The tick whose state differed (the state after it).
    pub tick: crate::tick::Tick,
    /// The host's hash of it.
    pub host: u64,
    /// The peer's.
    pub peer: u64,
}

impl ReplayHeader {
    /// The header of a replay of `sim`, titled `content_title`, seeded with `seed` (if the
    /// recorder knows it).
    #[must_use]
    pub fn of<S: Simulation>(
        sim: &S,
        content_title: &str,
        seed: Option<u64>,
        recorded_by: RecordedBy,
        started_unix_ms: u64,
    ) -> Self {
        Self {
            sim: S::NAME.to_owned(),
            sim_version: S::VERSION,
            content_title: content_title.to_owned(),
            content_digest: sim.content_digest(),
            seed,
            hash_parts: sim.state_hash().parts().iter().map(|p| p.name.to_owned()).collect(),
            recorded_by,
            started_unix_ms,
            desync: None,
        }
    }

    /// Reads only the header of a replay from its file bytes: whose it is, before its
    /// commands are decoded as some game's.
    ///
    /// # Errors
    ///
    /// As [`super::ReplayFile::open`], for the header's record.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ReplayError> {
        let mut frames = super::frame::Frames::new(bytes)?;
        Self::read(&mut frames)
    }

    /// The header: the first record.
    pub(crate) fn read(frames: &mut super::frame::Frames<'_>) -> Result<Self, ReplayError> {
        let offset = frames.offset;
        frames
            .next_within(MAX_HEADER_BYTES)?
            .ok_or(ReplayError::ReplayTruncated { record: 0, offset: offset as u64, missing: 1 })?
            .decode()
    }

    /// Whether simulation `S`, of this version, recorded it.
    ///
    /// # Errors
    ///
    /// [`ReplayError::OtherSimulation`] if another game did, and
    /// [`ReplayError::SimVersionMismatch`] if other rules of this game did.
    pub fn check_sim<S: Simulation>(&self) -> Result<(), ReplayError> {
        if self.sim != S::NAME {
            return Err(ReplayError::OtherSimulation {
                recorded: self.sim.clone(),
                running: S::NAME,
            });
        }
        if self.sim_version != S::VERSION {
            return Err(ReplayError::SimVersionMismatch {
                found: self.sim_version,
                expected: S::VERSION,
            });
        }
        Ok(())
    }
}
