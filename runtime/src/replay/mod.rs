//! Replays: a match as it was played, to watch again, seek through, verify and play on from.
//!
//! A replay is everything needed to run a game again bit for bit, and to start anywhere in
//! it: the rules' name and version, the content it was played on (its files, packed, so it
//! plays where the assets differ or are missing), the seed, then in order every tick's
//! commands and seat changes with the state's hash after it, who came and went, and every
//! [`KEYFRAME_EVERY_TICKS`] ticks a keyframe: the whole state, packed. A reader starts at any
//! keyframe, so a seek runs at most that many ticks whatever the tick; [`verify`] runs every
//! tick from the start and compares every hash.
//!
//! A replay is written as the game runs ([`ReplayRecorder`]), record by record and flushed
//! after each tick, so a crash loses at most the tick under way; a file cut there still
//! reads up to its last whole record... and is refused, naming the record, by a reader that
//! wants it whole. A player's replay also records the states the host sent it after a desync:
//! a reader restores them where they came.
//!
//! ## File format (version 6)
//!
//! ```text
//! signature   8 bytes  "FXREPLAY"
//! format      u16 LE   5
//! records     each:    length (LEB128 u32) | low 32 bits of the payload's xxh3-64, LE | payload (postcard)
//!             record 0: the ReplayHeader
//!             record 1: the content's files, packed (postcard, deflate)
//!             record 2: a keyframe of the state at the first tick
//!             then:     ticks, keyframes and roster changes, in the order they happened
//! ```
//!
//! A tick lists only the commands that changed since the tick before (a keyframe lists them
//! all, as the base of the next), and the total of the state's hash after it; a keyframe holds
//! the state (postcard, deflate) and its hash with its partial hashes, so a mismatch found at
//! a keyframe names its subsystem. Formats 1 to 4 had no content, no keyframes and a record
//! per tick of every command; they are refused with [`ReplayError::OlderReplayFormat`].
//!
//! The checksum per record lets a reader tell a damaged file from a truncated one and say
//! where. Nothing in a replay sizes an allocation beyond the file: a reader keeps a few bytes
//! per record, the content and the keyframes unpack within limits, and lengths are checked
//! against what is left of the file before anything is read.

mod entry;
mod frame;
mod header;
mod load;
mod reader;
mod verify;
mod writer;

#[cfg(doc)]
use crate::error::ReplayError;
pub use entry::{MAX_ROSTER_NAME_BYTES, RosterChange, RosterEvent};
pub use frame::{MAX_RECORD_BYTES, REPLAY_FORMAT_VERSION, REPLAY_SIGNATURE};
pub use header::{DesyncNote, MAX_HEADER_BYTES, RecordedBy, ReplayHeader};
pub use load::{CutRecord, LoadedReplay, ReplayLoadError};
pub use reader::{MAX_KEYFRAME_STATE_BYTES, PlayedTick, ReplayCursor, ReplayFile, ReplayStep};
pub use verify::{HashMismatch, VerifyReport, verify};
pub use writer::{KEYFRAME_EVERY_TICKS, ReplayRecorder};

/// A replay file: an hour of the town with 8 players is about 1 MB, so this is days of it, or
/// hours of a heavy world's keyframes. A reader holds the whole file and its index (at most
/// half the file: five bytes a record of ten or more), so the largest replay stays within the
/// program's memory budget of 300 MB.
pub const REPLAY_FILE: crate::file::FileKind = crate::file::FileKind::new("replay", 128_000_000);
