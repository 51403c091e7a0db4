//! The runtime's errors: a refused tick ([`Error`]), a replay that cannot be read or
//! verified ([`ReplayError`]), a state from outside that does not fit its rules
//! ([`StateError`]), a failed determinism self-test ([`SyncTestError`]).

use crate::Player;
use crate::hash::{ContentDigest, StateHash};
use crate::tick::Tick;

/// Why a tick or a change of seats was refused: a tick out of order or with the wrong number
/// of commands, a seat that cannot be taken or freed. Nothing in the runtime panics on bad
/// input; a caller that fed a simulation what it should not gets one of these, with where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `step` was called with a tick other than the one the simulation expects next.
    #[error("tick {got} is out of order: the simulation expects tick {expected} next")]
    TickOutOfOrder {
        /// The tick the simulation steps next.
        expected: Tick,
        /// The tick it was asked to step.
        got: Tick,
    },
    /// `step` was given commands for a number of players other than the simulation's.
    #[error("tick {tick} has commands for {got} players; the simulation has {expected}")]
    PlayerCount {
        /// The tick being stepped.
        tick: Tick,
        /// The simulation's number of players.
        expected: usize,
        /// How many commands came.
        got: usize,
    },
    /// A new player was given a seat that is taken, or beyond the next one after the last.
    #[error("seat {seat} cannot take a new player: it is not free, and the game has {seats} seats")]
    SeatTaken {
        /// The seat named.
        seat: Player,
        /// The seats there are.
        seats: usize,
    },
    /// A seat to free holds no player.
    #[error("seat {seat} has no player to leave: it is free, or the game has only {seats} seats")]
    SeatFree {
        /// The seat named.
        seat: Player,
        /// The seats there are.
        seats: usize,
    },
    /// A player could not join: the simulation holds no more.
    #[error("no more players can join: the simulation holds at most {max}")]
    PlayerLimit {
        /// The most players it holds.
        max: usize,
    },
}

/// Why a state from outside (a replay's keyframe, a host's welcome or resync) cannot be
/// restored: it decodes, but breaks a rule the ticks rely on for the content at hand (an index
/// past a list, lists of lengths that disagree, a reference to nothing, a value no tick could
/// have reached). Names the field, and what is wrong with it, so that a hostile or damaged
/// state is refused before a tick could panic, loop or allocate on it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct StateError {
    /// Where in the state, as a path (`taxis[2].target`).
    pub field: String,
    /// What is wrong there.
    pub problem: String,
}

impl StateError {
    /// A refusal of `field` for `problem`.
    #[must_use]
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Self { field: field.into(), problem: problem.into() }
    }
}

/// Why a replay cannot be read, written or verified, with the record and byte where it went
/// wrong; or a tick of it that does not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The bytes do not start with the replay signature: not a replay at all.
    #[error("not a Fixstep replay: the file does not start with the replay signature")]
    NotAReplay,
    /// The replay was written by a newer build, in a format this one cannot read.
    #[error("replay format version {found} is newer than this build reads (up to {supported})")]
    NewerReplayFormat {
        /// The file's format version.
        found: u16,
        /// The newest version this build reads.
        supported: u16,
    },
    /// The replay was written by an older build, in a format this one no longer reads.
    #[error(
        "replay format version {found} is older than this build reads (version {supported}): \
         record it again"
    )]
    OlderReplayFormat {
        /// The file's format version.
        found: u16,
        /// The version this build reads.
        supported: u16,
    },
    /// The replay was recorded by another game's simulation.
    #[error("replay was recorded by {recorded}, not by {running}: play it with its own game")]
    OtherSimulation {
        /// The simulation that recorded it.
        recorded: String,
        /// The simulation asked to play it.
        running: &'static str,
    },
    /// The replay was recorded on other content (a changed level): its commands would not
    /// reproduce its hashes.
    #[error(
        "replay was recorded on level content with digest {recorded}; the level loaded now has \
         digest {found}: the level changed since the replay was recorded"
    )]
    ContentMismatch {
        /// The digest the replay recorded.
        recorded: ContentDigest,
        /// The digest of the content loaded now.
        found: ContentDigest,
    },
    /// The replay was recorded with other rules: its commands would not reproduce its hashes.
    #[error(
        "replay was recorded by simulation version {found}; this build runs version {expected}"
    )]
    SimVersionMismatch {
        /// The replay's simulation version.
        found: u32,
        /// This build's.
        expected: u32,
    },
    /// The replay is for a different number of players than the simulation it is played into.
    #[error("replay has {found} players; the simulation was made for {expected}")]
    ReplayPlayers {
        /// Players in the replay header.
        found: u16,
        /// Players the simulation has.
        expected: usize,
    },
    /// The replay ends in the middle of a record.
    #[error(
        "replay is truncated: record {record} at byte {offset} is {missing} byte{} short",
        if *.missing == 1 { "" } else { "s" }
    )]
    ReplayTruncated {
        /// Index of the incomplete record (0 is the header, tick records follow).
        record: u64,
        /// Byte offset of the record's start in the file.
        offset: u64,
        /// Bytes missing from the end of the file.
        missing: u64,
    },
    /// A record's bytes do not match its checksum.
    #[error("replay is corrupted: record {record} at byte {offset} fails its checksum")]
    ReplayCorrupted {
        /// Index of the damaged record.
        record: u64,
        /// Byte offset of the record's start.
        offset: u64,
    },
    /// A record passed its checksum but does not decode, or says something impossible.
    #[error("replay record {record} at byte {offset} is malformed: {reason}")]
    ReplayMalformed {
        /// Index of the record.
        record: u64,
        /// Byte offset of the record's start.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// Encoding a replay record failed.
    #[error("cannot encode {what}: {source}")]
    Encode {
        /// What was being encoded.
        what: &'static str,
        /// The encoder's error.
        source: postcard::Error,
    },
    /// What is to be recorded is more than a replay holds.
    #[error("cannot record {size} {what}: a replay holds at most {limit}")]
    TooLarge {
        /// What there are too many of: "players", "bytes in a record".
        what: &'static str,
        /// How many there are.
        size: u64,
        /// The most a replay holds of it.
        limit: u64,
    },
    /// A tick given to a recording is not the next one it records.
    #[error("cannot record tick {given}: the recording's next tick is {recorded}")]
    OutOfOrder {
        /// The next tick the recording holds.
        recorded: Tick,
        /// The tick given.
        given: Tick,
    },
    /// A tick asked of a replay is not in it.
    #[error("tick {tick} is not in the replay, which holds ticks {first} to {end}")]
    NotRecorded {
        /// The tick asked for.
        tick: Tick,
        /// The first tick the replay holds.
        first: Tick,
        /// The tick after its last.
        end: Tick,
    },
    /// Reading or writing bytes failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// A tick of the replay does not run in the simulation it is played into.
    #[error("a tick of the replay does not run: {0}")]
    Tick(#[from] Error),
}

/// Why the determinism self-test failed: two runs that should agree and do not, a state that
/// does not survive serialization, or a tick that does not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SyncTestError {
    /// The determinism self-test found two runs that should agree and do not.
    #[error("{0}")]
    Desync(Box<Desync>),
    /// Encoding a state failed.
    #[error("cannot encode {what}: {source}")]
    Encode {
        /// What was being encoded.
        what: &'static str,
        /// The encoder's error.
        source: postcard::Error,
    },
    /// Decoding a state failed.
    #[error("cannot decode {what}: {source}")]
    Decode {
        /// What was being decoded.
        what: &'static str,
        /// The decoder's error.
        source: postcard::Error,
    },
    /// A tick of the test does not run.
    #[error("a tick does not run: {0}")]
    Tick(#[from] Error),
}

/// Which check of the determinism self-test failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncCheck {
    /// Restoring the state saved before a tick and stepping the tick again gave another hash:
    /// something the tick reads or writes is not in the saved state.
    Rollback,
    /// A fresh simulation restored from the serialized state and stepped alongside gave
    /// another hash: something is lost or changed by serialization.
    Roundtrip,
}

impl core::fmt::Display for SyncCheck {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Rollback => "restoring the saved state and stepping again",
            Self::Roundtrip => "continuing from a serialized copy of the state",
        })
    }
}

/// Two runs that must agree, and where they stopped agreeing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The first tick whose hashes differ.
    pub tick: Tick,
    /// The check that found it.
    pub check: SyncCheck,
    /// The hash of the run taken as reference.
    pub expected: StateHash,
    /// The hash of the run checked against it.
    pub found: StateHash,
}

impl Desync {
    /// The subsystems whose partial hashes differ: where to look first.
    #[must_use]
    pub fn subsystems(&self) -> Vec<&'static str> {
        self.expected.differing_parts(&self.found)
    }
}

impl core::fmt::Display for Desync {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "desync at tick {} ({}): hash {} instead of {}; subsystems that differ: {}",
            self.tick,
            self.check,
            self.found,
            self.expected,
            self.subsystems().join(", ")
        )
    }
}
