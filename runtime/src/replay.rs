//! Replays: the commands of every tick of a game, and optionally its hashes.
//!
//! A replay is everything needed to run a game again bit for bit: the rules' version, the
//! level and the digest of its content, the seed, the number of players, then each tick's
//! commands and the players who joined or left before it. With per-tick hashes it is also a
//! determinism check: [`verify`] re-simulates and names the first tick that differs, and, from
//! the recorded partial hashes, the first subsystem.
//!
//! ## File format (version 4)
//!
//! ```text
//! signature   8 bytes  "FXREPLAY"
//! format      u16 LE   4
//! records     each:    length u32 LE | xxh3-64 of the payload u64 LE | payload (postcard)
//!             record 0 is the ReplayHeader, records 1.. are RecordedTicks in tick order
//! ```
//!
//! Version 1 had no content digest, joins or partial hashes, and version 2 did not name the
//! simulation (so a replay of one game read by another failed on its first command rather
//! than saying whose it was); both were recorded under rules this build no longer runs, so
//! they are refused with [`ReplayError::OlderReplayFormat`]. Version 3 counted the players who
//! joined before a tick, who always took new seats; version 4 records the seats freed and
//! taken ([`SeatChanges`](crate::SeatChanges)), and is refused by older builds by its number.
//!
//! The checksum per record lets a reader tell a damaged file from a truncated one and say
//! where; postcard keeps records small (a command of a player at rest is a few bytes).

use std::io::Write;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

#[cfg(doc)]
use crate::error::Error;
use crate::error::ReplayError;
use crate::hash::{ContentDigest, HashRecord, StateHash, StateHasher};
use crate::record::TickRecord;
use crate::sim::Simulation;
use crate::tick::Tick;

/// The bytes every replay starts with.
pub const REPLAY_SIGNATURE: [u8; 8] = *b"FXREPLAY";

/// The replay format this build writes and the only one it reads.
pub const REPLAY_FORMAT_VERSION: u16 = 4;

/// The largest record payload a reader accepts, in bytes: 16 MiB, far above any tick's
/// commands (a few bytes a player), so a damaged length cannot make the reader allocate
/// gigabytes before the checksum says it is damaged.
pub const MAX_RECORD_BYTES: u32 = 16 << 20;

/// The most seats a replay may have: as many as a player's number, a `u16`, can name.
const MAX_REPLAY_SEATS: usize = u16::MAX as usize;

/// The largest header record a reader accepts, in bytes: a header names its game, its level (a
/// path of at most [`crate::file::MAX_CONTENT_PATH_BYTES`]) and a few partial hashes, under
/// 200 bytes for the town. An empty name is one byte in the file and a whole `String` in
/// memory, so a header of 16 MiB could take 24 times that to decode.
pub const MAX_HEADER_BYTES: u32 = 64 << 10;

/// A replay file: a tick of 64 players with its hashes is about 420 bytes, so an hour of them
/// is 15 MB. Decoded, a record can take up to eight times its bytes (a partial hash of zero is
/// one byte in the file and eight in memory), so this keeps the worst replay far inside the
/// program's memory budget.
pub const REPLAY_FILE: crate::file::FileKind = crate::file::FileKind::new("replay", 16_000_000);

/// Bytes of a record's frame before its payload: the length and the checksum.
const RECORD_FRAME_BYTES: usize = 4 + 8;

/// What a replay was recorded with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayHeader {
    /// The [`Simulation::NAME`] of the rules that recorded it: a replay is played only by the
    /// same game.
    pub sim: String,
    /// [`Simulation::VERSION`] of the rules that recorded it.
    pub sim_version: u32,
    /// The level, as the game names it (a path under `assets/`, or a generated level's name).
    pub level: String,
    /// [`Simulation::content_digest`] of the level it was recorded on: a replay of a level that
    /// changed since is refused.
    pub level_digest: ContentDigest,
    /// The seed of the simulation's random numbers.
    pub seed: u64,
    /// Number of players at tick 0; players who join later are counted in their tick's record.
    pub players: u16,
    /// The names of the partial hashes a tick record holds, in order.
    pub hash_parts: Vec<String>,
}

impl ReplayHeader {
    /// The header of a replay of `sim`, which is at tick 0: its version, content digest,
    /// players and the names of its partial hashes.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Encode`] for more than 65,535 players.
    pub fn of<S: Simulation>(sim: &S, level: String, seed: u64) -> Result<Self, ReplayError> {
        Ok(Self {
            sim: S::NAME.to_owned(),
            sim_version: S::VERSION,
            level,
            level_digest: sim.content_digest(),
            seed,
            players: u16::try_from(sim.players()).map_err(|_| ReplayError::TooLarge {
                what: "players",
                size: sim.players() as u64,
                limit: u64::from(u16::MAX),
            })?,
            hash_parts: sim.state_hash().parts().iter().map(|p| p.name.to_owned()).collect(),
        })
    }
}

/// One tick of a replay: the tick as it was fixed, and the state hash it led to. Its bytes
/// are those of the record's fields followed by the hash's, as postcard writes a nested struct.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedTick<C> {
    /// Who left and joined before the tick, and every seat's command.
    pub fixed: TickRecord<C>,
    /// The state hash after this tick, if it was recorded.
    pub hash: Option<HashRecord>,
}

impl ReplayHeader {
    /// Reads only the header of a replay from its file bytes: whose it is, before its
    /// commands are decoded as some game's.
    ///
    /// # Errors
    ///
    /// As [`Replay::from_bytes`], for the header's record.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ReplayError> {
        Self::read(&mut RecordReader::new(bytes)?)
    }

    /// The header: the first record.
    fn read(reader: &mut RecordReader<'_>) -> Result<Self, ReplayError> {
        reader.next_record_within(MAX_HEADER_BYTES)?.ok_or(ReplayError::ReplayTruncated {
            record: 0,
            offset: reader.offset as u64,
            missing: RECORD_FRAME_BYTES as u64,
        })
    }

    /// Whether simulation `S` recorded it.
    ///
    /// # Errors
    ///
    /// [`ReplayError::OtherSimulation`] if another did.
    pub fn check_sim<S: Simulation>(&self) -> Result<(), ReplayError> {
        if self.sim == S::NAME {
            Ok(())
        } else {
            Err(ReplayError::OtherSimulation { recorded: self.sim.clone(), running: S::NAME })
        }
    }
}

impl<C> RecordedTick<C> {
    /// The tick `fixed`, with the hash of the state it led to.
    #[must_use]
    pub fn new(fixed: TickRecord<C>, hash: Option<&StateHash>) -> Self {
        Self { fixed, hash: hash.map(HashRecord::of) }
    }
}

/// A whole replay in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay<C> {
    /// What it was recorded with.
    pub header: ReplayHeader,
    /// Every tick from tick 0, in order.
    pub ticks: Vec<RecordedTick<C>>,
}

impl<C: Serialize + DeserializeOwned> Replay<C> {
    /// The replay's file bytes.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Encode`] if a command cannot be serialized.
    pub fn to_bytes(&self) -> Result<Vec<u8>, ReplayError> {
        let mut writer = ReplayWriter::new(Vec::new(), &self.header)?;
        for record in &self.ticks {
            writer.record(record)?;
        }
        Ok(writer.into_inner())
    }

    /// Reads a replay from its file bytes.
    ///
    /// # Errors
    ///
    /// [`ReplayError::NotAReplay`], [`ReplayError::NewerReplayFormat`], [`ReplayError::ReplayTruncated`],
    /// [`ReplayError::ReplayCorrupted`] or [`ReplayError::ReplayMalformed`], each saying which record and
    /// at which byte.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ReplayError> {
        let mut reader = RecordReader::new(bytes)?;
        let header = ReplayHeader::read(&mut reader)?;
        Self::read_ticks(reader, header)
    }

    /// Reads a replay of simulation `S` from its file bytes, refusing another game's by its
    /// header before any of its commands is read as `S`'s.
    ///
    /// # Errors
    ///
    /// [`ReplayError::OtherSimulation`], or as [`from_bytes`](Self::from_bytes).
    pub fn read_for<S: Simulation<Command = C>>(bytes: &[u8]) -> Result<Self, ReplayError> {
        let mut reader = RecordReader::new(bytes)?;
        let header = ReplayHeader::read(&mut reader)?;
        header.check_sim::<S>()?;
        Self::read_ticks(reader, header)
    }

    /// The tick records after `header`, checked as they are read.
    fn read_ticks(mut reader: RecordReader<'_>, header: ReplayHeader) -> Result<Self, ReplayError> {
        let mut ticks: Vec<RecordedTick<C>> = Vec::new();
        let mut players = usize::from(header.players);
        while let Some(recorded) = reader.next_record::<RecordedTick<C>>()? {
            let expected = Tick(u32::try_from(ticks.len()).unwrap_or(u32::MAX));
            let recorded_parts = recorded.hash.as_ref().map_or(0, |h| h.parts.len());
            let record = &recorded.fixed;
            let problem = if record.tick != expected {
                Some(format!("it is tick {}, where tick {expected} comes next", record.tick))
            } else if let Some(after) = record.seats.seats_after(players, MAX_REPLAY_SEATS) {
                let commands = record.commands.len();
                players = after;
                (commands != after)
                    .then(|| {
                        format!("tick {} has {commands} commands for {after} seats", record.tick)
                    })
                    .or_else(|| {
                        (recorded_parts != 0 && recorded_parts != header.hash_parts.len()).then(
                            || {
                                format!(
                                    "tick {} has {recorded_parts} partial hashes, where the \
                                     header names {}",
                                    record.tick,
                                    header.hash_parts.len()
                                )
                            },
                        )
                    })
            } else {
                Some(format!(
                    "tick {} frees or takes seats that {players} seats cannot have",
                    record.tick
                ))
            };
            if let Some(reason) = problem {
                return Err(ReplayError::ReplayMalformed {
                    record: reader.records - 1,
                    offset: reader.record_start as u64,
                    reason,
                });
            }
            ticks.push(recorded);
        }
        Ok(Self { header, ticks })
    }
}

/// Writes a replay record by record as a game runs, so a crash loses at most the last tick.
#[derive(Debug)]
pub struct ReplayWriter<W: Write> {
    out: W,
    payload: Vec<u8>,
}

impl<W: Write> ReplayWriter<W> {
    /// Starts a replay: writes the signature, the format version and the header.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Io`] if writing fails.
    pub fn new(mut out: W, header: &ReplayHeader) -> Result<Self, ReplayError> {
        out.write_all(&REPLAY_SIGNATURE)?;
        out.write_all(&REPLAY_FORMAT_VERSION.to_le_bytes())?;
        let mut writer = Self { out, payload: Vec::new() };
        writer.write_record(header)?;
        Ok(writer)
    }

    /// Appends one tick.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Encode`] if a command cannot be serialized, [`ReplayError::Io`] if writing fails.
    pub fn record<C: Serialize>(&mut self, record: &RecordedTick<C>) -> Result<(), ReplayError> {
        self.write_record(record)
    }

    fn write_record<T: Serialize>(&mut self, value: &T) -> Result<(), ReplayError> {
        self.payload.clear();
        let payload = postcard::to_extend(value, core::mem::take(&mut self.payload))
            .map_err(|source| ReplayError::Encode { what: "a replay record", source })?;
        let length = u32::try_from(payload.len())
            .ok()
            .filter(|&n| n <= MAX_RECORD_BYTES)
            .ok_or_else(|| ReplayError::TooLarge {
                what: "bytes in a record",
                size: payload.len() as u64,
                limit: u64::from(MAX_RECORD_BYTES),
            })?;
        self.out.write_all(&length.to_le_bytes())?;
        self.out.write_all(&xxh3_64(&payload).to_le_bytes())?;
        self.out.write_all(&payload)?;
        self.payload = payload;
        Ok(())
    }

    /// Flushes and returns the destination.
    #[must_use]
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Flushes the destination.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Io`] if flushing fails.
    pub fn flush(&mut self) -> Result<(), ReplayError> {
        Ok(self.out.flush()?)
    }
}

/// Walks the records of a replay's bytes, checking each frame.
struct RecordReader<'a> {
    bytes: &'a [u8],
    offset: usize,
    record_start: usize,
    records: u64,
}

impl<'a> RecordReader<'a> {
    fn new(bytes: &'a [u8]) -> Result<Self, ReplayError> {
        let prefix = REPLAY_SIGNATURE.len();
        if bytes.len() < prefix || bytes[..prefix] != REPLAY_SIGNATURE {
            return Err(ReplayError::NotAReplay);
        }
        let Some(version) = bytes.get(prefix..prefix + 2) else {
            return Err(ReplayError::ReplayTruncated {
                record: 0,
                offset: prefix as u64,
                missing: (prefix + 2 - bytes.len()) as u64,
            });
        };
        let version = u16::from_le_bytes([version[0], version[1]]);
        if version > REPLAY_FORMAT_VERSION {
            return Err(ReplayError::NewerReplayFormat {
                found: version,
                supported: REPLAY_FORMAT_VERSION,
            });
        }
        if version < REPLAY_FORMAT_VERSION {
            return Err(ReplayError::OlderReplayFormat {
                found: version,
                supported: REPLAY_FORMAT_VERSION,
            });
        }
        Ok(Self { bytes, offset: prefix + 2, record_start: prefix + 2, records: 0 })
    }

    /// The next record, or `None` at a clean end of the file.
    fn next_record<T: DeserializeOwned>(&mut self) -> Result<Option<T>, ReplayError> {
        self.next_record_within(MAX_RECORD_BYTES)
    }

    /// The next record, of at most `max_bytes`, or `None` at a clean end of the file.
    fn next_record_within<T: DeserializeOwned>(
        &mut self,
        max_bytes: u32,
    ) -> Result<Option<T>, ReplayError> {
        let start = self.offset;
        let rest = &self.bytes[start..];
        if rest.is_empty() {
            return Ok(None);
        }
        let record = self.records;
        let truncated = |needed: usize| ReplayError::ReplayTruncated {
            record,
            offset: start as u64,
            missing: (needed - rest.len()) as u64,
        };
        if rest.len() < RECORD_FRAME_BYTES {
            return Err(truncated(RECORD_FRAME_BYTES));
        }
        let length = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let checksum = u64::from_le_bytes(rest[4..12].try_into().unwrap_or_default());
        if length > max_bytes {
            return Err(ReplayError::ReplayCorrupted { record, offset: start as u64 });
        }
        let end = RECORD_FRAME_BYTES + length as usize;
        let Some(payload) = rest.get(RECORD_FRAME_BYTES..end) else {
            return Err(truncated(end));
        };
        if xxh3_64(payload) != checksum {
            return Err(ReplayError::ReplayCorrupted { record, offset: start as u64 });
        }
        let value = match postcard::from_bytes::<T>(payload) {
            Ok(value) => value,
            Err(e) => {
                return Err(ReplayError::ReplayMalformed {
                    record,
                    offset: start as u64,
                    reason: e.to_string(),
                });
            }
        };
        self.record_start = start;
        self.offset = start + end;
        self.records += 1;
        Ok(Some(value))
    }
}

/// A recorded hash that re-simulation did not reproduce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashMismatch {
    /// The first tick whose hash differs.
    pub tick: Tick,
    /// The hash the replay recorded for it.
    pub recorded: HashRecord,
    /// The hash re-simulation computed, with its partial hashes.
    pub computed: StateHash,
    /// The subsystems whose partial hashes differ, in hashing order: the first is where to
    /// look. Empty when the replay recorded totals only.
    pub subsystems: Vec<String>,
}

impl core::fmt::Display for HashMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "tick {}: the replay recorded hash {:016x}, re-simulation computed {}",
            self.tick, self.recorded.total, self.computed
        )?;
        match self.subsystems.split_first() {
            None => write!(f, " (the replay holds no partial hashes to name a subsystem)"),
            Some((first, [])) => write!(f, "; the first subsystem that differs is {first}"),
            Some((first, rest)) => write!(
                f,
                "; the first subsystem that differs is {first} (then {})",
                rest.join(", ")
            ),
        }
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Ticks re-simulated.
    pub ticks: u32,
    /// Recorded hashes compared.
    pub hashes_checked: u32,
    /// The first tick whose hash differs, if any; re-simulation stops there.
    pub first_mismatch: Option<HashMismatch>,
    /// The hash of the state after the last tick re-simulated.
    pub final_hash: StateHash,
}

/// Re-simulates `replay` on `sim` (freshly built from the replay's level and seed) and compares
/// every recorded hash, stopping at the first that differs.
///
/// # Errors
///
/// [`ReplayError::OtherSimulation`], [`ReplayError::SimVersionMismatch`],
/// [`ReplayError::ContentMismatch`] or [`ReplayError::ReplayPlayers`] when the replay was not
/// recorded by this game, with these rules, this level or this many players; and
/// [`ReplayError::Tick`] when `sim` does not start at the replay's first tick
/// ([`Error::TickOutOfOrder`]) or a recorded join or departure does not fit the game
/// ([`Error::PlayerLimit`], [`Error::SeatTaken`] or [`Error::SeatFree`]).
pub fn verify<S: Simulation>(
    sim: &mut S,
    replay: &Replay<S::Command>,
) -> Result<VerifyReport, ReplayError> {
    replay.header.check_sim::<S>()?;
    if replay.header.sim_version != S::VERSION {
        return Err(ReplayError::SimVersionMismatch {
            found: replay.header.sim_version,
            expected: S::VERSION,
        });
    }
    let found = sim.content_digest();
    if replay.header.level_digest != found {
        return Err(ReplayError::ContentMismatch { recorded: replay.header.level_digest, found });
    }
    if usize::from(replay.header.players) != sim.players() {
        return Err(ReplayError::ReplayPlayers {
            found: replay.header.players,
            expected: sim.players(),
        });
    }
    let mut hasher = StateHasher::new();
    let mut report = VerifyReport {
        ticks: 0,
        hashes_checked: 0,
        first_mismatch: None,
        final_hash: sim.state_hash(),
    };
    for RecordedTick { fixed: record, hash } in &replay.ticks {
        record.run(sim)?;
        report.ticks += 1;
        sim.hash_state(&mut hasher);
        report.final_hash = hasher.finish_reuse();
        let computed = &report.final_hash;
        if let Some(recorded) = hash {
            report.hashes_checked += 1;
            if recorded.total != computed.total() {
                let subsystems = differing_subsystems(&replay.header, recorded, computed);
                report.first_mismatch = Some(HashMismatch {
                    tick: record.tick,
                    recorded: recorded.clone(),
                    computed: computed.clone(),
                    subsystems,
                });
                return Ok(report);
            }
        }
    }
    Ok(report)
}

/// The subsystems whose recorded partial hash differs from the computed one, in the header's
/// order; one the simulation no longer hashes counts as differing.
fn differing_subsystems(
    header: &ReplayHeader,
    recorded: &HashRecord,
    computed: &StateHash,
) -> Vec<String> {
    header
        .hash_parts
        .iter()
        .zip(&recorded.parts)
        .filter(|(name, hash)| computed.part(name) != Some(**hash))
        .map(|(name, _)| name.clone())
        .collect()
}
