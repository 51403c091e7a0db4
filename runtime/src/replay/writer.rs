//! Recording a game as it runs.

use std::io::Write;

use super::entry::{Entry, Keyframe, RosterEvent, TickEntry};
use super::frame::{encode_record, write_prefix};
use super::header::ReplayHeader;
use crate::error::ReplayError;
use crate::file::{ContentFiles, MAX_CONTENT_FILES_BYTES};
use crate::hash::HashRecord;
use crate::record::TickRecord;
use crate::sim::Simulation;
use crate::tick::Tick;

/// Ticks between two keyframes when a recording does not choose: 30 s of the match, chosen
/// from the size against seek trade-off measured (`render/town-view/benches/replay_seek.rs`):
/// in the town with 8 players a keyframe is about 1 kB (50 ticks' worth), so keyframes add a
/// sixth to an hour (0.87 MB against 0.75 MB without), and a seek runs at most this many ticks
/// (under 2 ms; 150 ms to the end of the hour without keyframes). On the stress level a
/// keyframe is 250 kB: an hour is 31 MB (90 MB every 10 s, 11 MB every 100 s) and the worst
/// seek 0.6 s, which a shorter interval would buy back only with a much larger file.
pub const KEYFRAME_EVERY_TICKS: u32 = 300;

/// The deflate level keyframes are packed with: fast, as the host packs one between two
/// ticks, and within a few percent of the best ratio on a game's state.
const KEYFRAME_PACK_LEVEL: u8 = 3;

/// Writes a replay as a game runs, record by record, flushing after each, so a crash loses at
/// most the tick under way; see the [module documentation](super).
#[derive(Debug)]
pub struct ReplayRecorder<S: Simulation, W: Write> {
    out: W,
    /// The bytes of the records not yet written.
    pending: Vec<u8>,
    /// A record's payload, reused.
    scratch: Vec<u8>,
    /// The last tick's commands: what the next tick's changes are against.
    commands: Vec<S::Command>,
    /// The next tick to record.
    next_tick: Tick,
    /// Ticks between keyframes.
    keyframe_every: u32,
    /// The tick of the latest keyframe.
    last_keyframe: Tick,
}

impl<S: Simulation, W: Write> ReplayRecorder<S, W> {
    /// Starts a replay of `sim` as it is now: writes the signature, `header`, the content's
    /// `files` packed, and a keyframe of the state. A keyframe follows every `keyframe_every`
    /// ticks (at least 1).
    ///
    /// # Errors
    ///
    /// [`ReplayError::TooLarge`] for content files over what a reader unpacks
    /// ([`MAX_CONTENT_FILES_BYTES`]), [`ReplayError::Encode`] for a state or content that does
    /// not encode, and [`ReplayError::Io`] if writing fails.
    pub fn start(
        mut out: W,
        header: &ReplayHeader,
        files: &ContentFiles,
        sim: &S,
        keyframe_every: u32,
    ) -> Result<Self, ReplayError> {
        if files.total_bytes() > MAX_CONTENT_FILES_BYTES {
            return Err(ReplayError::TooLarge {
                what: "bytes of content files",
                size: files.total_bytes() as u64,
                limit: MAX_CONTENT_FILES_BYTES as u64,
            });
        }
        write_prefix(&mut out)?;
        let packed = files
            .pack()
            .map_err(|source| ReplayError::Encode { what: "the content's files", source })?;
        let mut recorder = Self {
            out,
            pending: Vec::new(),
            scratch: Vec::new(),
            commands: vec![S::Command::default(); sim.players()],
            next_tick: sim.next_tick(),
            keyframe_every: keyframe_every.max(1),
            last_keyframe: sim.next_tick(),
        };
        encode_record(header, &mut recorder.scratch, &mut recorder.pending)?;
        encode_record(
            &serde_bytes::ByteBuf::from(packed),
            &mut recorder.scratch,
            &mut recorder.pending,
        )?;
        recorder.keyframe(sim, false)?;
        Ok(recorder)
    }

    /// Records a tick `sim` has just run as `record`, with the total of its state's hash
    /// after it; then a keyframe if one is due.
    ///
    /// # Errors
    ///
    /// [`ReplayError::ReplayMalformed`] for a tick that is not the next one recorded, as
    /// [`start`](Self::start) otherwise.
    pub fn tick(
        &mut self,
        record: &TickRecord<S::Command>,
        hash: u64,
        sim: &S,
    ) -> Result<(), ReplayError> {
        if record.tick != self.next_tick {
            return Err(ReplayError::OutOfOrder { recorded: self.next_tick, given: record.tick });
        }
        let entry =
            TickEntry::between(&self.commands, record.seats.clone(), &record.commands, hash);
        self.commands.clone_from(&record.commands);
        self.next_tick = record.tick.next();
        encode_record(&Entry::Tick(entry), &mut self.scratch, &mut self.pending)?;
        if self.next_tick.since(self.last_keyframe) >= i64::from(self.keyframe_every) {
            self.keyframe(sim, false)?;
        }
        self.flush()
    }

    /// Records that someone came or went.
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub fn roster(&mut self, event: &RosterEvent) -> Result<(), ReplayError> {
        let mut event = event.clone();
        if let super::RosterChange::Joined { name } = &mut event.change {
            truncate_name(name);
        }
        encode_record(&Entry::<S::Command>::Roster(event), &mut self.scratch, &mut self.pending)?;
        self.flush()
    }

    /// Records that `sim`'s state was replaced (by the host's, after a desync): a reader
    /// restores it here, where the ticks before would lead elsewhere.
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub fn replaced(&mut self, sim: &S) -> Result<(), ReplayError> {
        self.next_tick = sim.next_tick();
        self.keyframe(sim, true)?;
        self.flush()
    }

    /// The next tick it records.
    #[must_use]
    pub const fn next_tick(&self) -> Tick {
        self.next_tick
    }

    /// Writes what is pending and flushes the destination.
    fn flush(&mut self) -> Result<(), ReplayError> {
        self.out.write_all(&self.pending)?;
        self.pending.clear();
        Ok(self.out.flush()?)
    }

    /// Appends a keyframe of `sim`.
    fn keyframe(&mut self, sim: &S, replaced: bool) -> Result<(), ReplayError> {
        let state = postcard::to_stdvec(sim.state())
            .map_err(|source| ReplayError::Encode { what: "a keyframe's state", source })?;
        let packed = miniz_oxide::deflate::compress_to_vec(&state, KEYFRAME_PACK_LEVEL);
        self.commands.resize(sim.players(), S::Command::default());
        let keyframe = Keyframe {
            tick: sim.next_tick(),
            replaced,
            commands: self.commands.clone(),
            hash: HashRecord::of(&sim.state_hash()),
            state: serde_bytes::ByteBuf::from(packed),
        };
        self.last_keyframe = sim.next_tick();
        encode_record(&Entry::Keyframe(keyframe), &mut self.scratch, &mut self.pending)?;
        self.out.write_all(&self.pending)?;
        self.pending.clear();
        Ok(())
    }

    /// The destination, everything written.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Io`] if writing fails.
    pub fn finish(mut self) -> Result<W, ReplayError> {
        self.flush()?;
        Ok(self.out)
    }
}

/// Cuts `name` to at most [`super::MAX_ROSTER_NAME_BYTES`], on a character boundary.
fn truncate_name(name: &mut String) {
    let mut end = name.len().min(super::MAX_ROSTER_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name.truncate(end);
}
