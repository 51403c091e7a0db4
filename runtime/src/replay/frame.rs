//! A replay's framing: the signature, the format version, and records each framed by their
//! length and a checksum, read and written one at a time.

use std::io::Write;

use serde::Serialize;
use serde::de::DeserializeOwned;
use xxhash_rust::xxh3::xxh3_64;

use crate::error::ReplayError;

/// The bytes every replay starts with.
pub const REPLAY_SIGNATURE: [u8; 8] = *b"FXREPLAY";

/// The replay format this build writes and the only one it reads.
pub const REPLAY_FORMAT_VERSION: u16 = 6;

/// Bytes before the first record: the signature and the format version.
pub(crate) const PREFIX_BYTES: usize = REPLAY_SIGNATURE.len() + 2;

/// The largest record payload a reader accepts, in bytes: 16 MiB, far above a tick (a few
/// bytes) and above the packed state of the heaviest world (a keyframe of the stress level),
/// so a damaged length cannot make the reader look past what a replay holds.
pub const MAX_RECORD_BYTES: u32 = 16 << 20;

/// Bytes of a record's checksum: the low 32 bits of its payload's xxh3-64. A tick record is
/// a dozen bytes, so a 64-bit checksum would be most of the file; 32 bits miss one damaged
/// record in four billion, and a miss is still caught by the payload's decoding or by the
/// hashes it records.
const CHECKSUM_BYTES: usize = 4;

/// The most bytes a record's length takes: a LEB128 `u32`.
const MAX_LENGTH_BYTES: usize = 5;

/// The checksum of a payload.
#[expect(clippy::cast_possible_truncation, reason = "the checksum is the hash's low 32 bits")]
fn checksum(payload: &[u8]) -> u32 {
    xxh3_64(payload) as u32
}

/// Writes the signature and the format version.
pub(crate) fn write_prefix(out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(&REPLAY_SIGNATURE)?;
    out.write_all(&REPLAY_FORMAT_VERSION.to_le_bytes())
}

/// Encodes `value` as one framed record appended to `out`; `scratch` is reused for its
/// payload.
pub(crate) fn encode_record<T: Serialize>(
    value: &T,
    scratch: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<(), ReplayError> {
    scratch.clear();
    let payload = postcard::to_extend(value, core::mem::take(scratch))
        .map_err(|source| ReplayError::Encode { what: "a replay record", source })?;
    let length =
        u32::try_from(payload.len()).ok().filter(|&n| n <= MAX_RECORD_BYTES).ok_or_else(|| {
            ReplayError::TooLarge {
                what: "bytes in a record",
                size: payload.len() as u64,
                limit: u64::from(MAX_RECORD_BYTES),
            }
        })?;
    let mut rest = length;
    loop {
        // Seven bits at a time, low first; the high bit says more follow.
        let low = (rest & 0x7f) as u8;
        rest >>= 7;
        if rest == 0 {
            out.push(low);
            break;
        }
        out.push(low | 0x80);
    }
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    *scratch = payload;
    Ok(())
}

/// The bytes of a replay, walked record by record, each checked against its frame.
#[derive(Clone, Debug)]
pub(crate) struct Frames<'a> {
    bytes: &'a [u8],
    /// Where the next record starts.
    pub(crate) offset: usize,
    /// Records read so far: the next one's number.
    pub(crate) records: u64,
}

/// A record's payload and where it lies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Framed<'a> {
    /// The record's number in the file (0 is the header).
    pub(crate) record: u64,
    /// Where its frame starts.
    pub(crate) offset: usize,
    /// Its payload, checked against its checksum.
    pub(crate) payload: &'a [u8],
}

impl Framed<'_> {
    /// Decodes the payload as `T`.
    pub(crate) fn decode<T: DeserializeOwned>(&self) -> Result<T, ReplayError> {
        postcard::from_bytes(self.payload).map_err(|e| self.malformed(e.to_string()))
    }

    /// The error of this record saying something impossible.
    pub(crate) fn malformed(&self, reason: String) -> ReplayError {
        ReplayError::ReplayMalformed { record: self.record, offset: self.offset as u64, reason }
    }
}

impl<'a> Frames<'a> {
    /// The records of `bytes`, after checking the signature and the format version.
    pub(crate) fn new(bytes: &'a [u8]) -> Result<Self, ReplayError> {
        let signature = REPLAY_SIGNATURE.len();
        if bytes.len() < signature || bytes[..signature] != REPLAY_SIGNATURE {
            return Err(ReplayError::NotAReplay);
        }
        let Some(version) = bytes.get(signature..PREFIX_BYTES) else {
            return Err(ReplayError::ReplayTruncated {
                record: 0,
                offset: signature as u64,
                missing: (PREFIX_BYTES - bytes.len()) as u64,
            });
        };
        let found = u16::from_le_bytes([version[0], version[1]]);
        let supported = REPLAY_FORMAT_VERSION;
        if found > supported {
            return Err(ReplayError::NewerReplayFormat { found, supported });
        }
        if found < supported {
            return Err(ReplayError::OlderReplayFormat { found, supported });
        }
        Ok(Self { bytes, offset: PREFIX_BYTES, records: 0 })
    }

    /// The frames starting at `offset`, record `record`: to read again from a record already
    /// checked.
    pub(crate) const fn at(bytes: &'a [u8], offset: usize, record: u64) -> Self {
        Self { bytes, offset, records: record }
    }

    /// The next record, of at most `max_bytes`, or `None` at a clean end of the file.
    pub(crate) fn next_within(
        &mut self,
        max_bytes: u32,
    ) -> Result<Option<Framed<'a>>, ReplayError> {
        let start = self.offset;
        let rest = self.bytes.get(start..).unwrap_or_default();
        if rest.is_empty() {
            return Ok(None);
        }
        let record = self.records;
        let truncated = |needed: usize| ReplayError::ReplayTruncated {
            record,
            offset: start as u64,
            missing: (needed - rest.len()) as u64,
        };
        let corrupted = || ReplayError::ReplayCorrupted { record, offset: start as u64 };
        let mut length: u64 = 0;
        let mut length_bytes = 0;
        loop {
            let Some(&byte) = rest.get(length_bytes) else {
                return Err(truncated(length_bytes + 1 + CHECKSUM_BYTES));
            };
            length |= u64::from(byte & 0x7f) << (7 * length_bytes);
            length_bytes += 1;
            if byte & 0x80 == 0 {
                break;
            }
            if length_bytes == MAX_LENGTH_BYTES {
                return Err(corrupted());
            }
        }
        if length > u64::from(max_bytes) {
            return Err(corrupted());
        }
        let header = length_bytes + CHECKSUM_BYTES;
        let Some(sum) = rest.get(length_bytes..header) else {
            return Err(truncated(header));
        };
        let sum = u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]);
        // At most MAX_RECORD_BYTES, which fits any usize this builds for.
        let end = header + usize::try_from(length).map_err(|_| corrupted())?;
        let Some(payload) = rest.get(header..end) else {
            return Err(truncated(end));
        };
        if checksum(payload) != sum {
            return Err(corrupted());
        }
        self.offset = start + end;
        self.records += 1;
        Ok(Some(Framed { record, offset: start, payload }))
    }
}
