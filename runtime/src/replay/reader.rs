//! Reading a replay: checked once as a whole, then played from any keyframe.

use std::marker::PhantomData;

use super::entry::{Entry, Keyframe, MAX_ROSTER_NAME_BYTES, RosterChange, RosterEvent};
use super::frame::{Framed, Frames, MAX_RECORD_BYTES};
use super::header::ReplayHeader;
use crate::command::Command;
use crate::error::ReplayError;
use crate::file::{ContentFiles, MAX_CONTENT_FILES_BYTES};
use crate::record::TickRecord;
use crate::sim::Simulation;
use crate::tick::Tick;

/// The most seats a replay may have: as many as a player's number, a `u16`, can name.
const MAX_REPLAY_SEATS: usize = u16::MAX as usize;

/// The most bytes a keyframe's state may unpack to: the stress level's state (10,000
/// pedestrians, 1,000 taxis) is about 2 MB; 16 MiB is far above any world this program runs,
/// and keeps a crafted keyframe, unpacked and decoded beside the file, within the memory
/// budget.
pub const MAX_KEYFRAME_STATE_BYTES: usize = 16 << 20;

/// The number of the first record after the content: the header is 0, the content 1.
const FIRST_ENTRY_RECORD: usize = 2;

/// What a record after the content is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryKind {
    Tick,
    Keyframe,
    Roster,
}

/// Where a record lies.
#[derive(Clone, Copy, Debug)]
struct Spot {
    /// Where its frame starts.
    offset: u32,
    /// Its number in the file.
    record: u32,
    /// What it is.
    kind: EntryKind,
}

/// Where the records after the content lie, five bytes a record (a tick's record is ten
/// bytes at least, so the index of a file is at most half its size): their offsets, and what
/// each is. A record's number follows from its place.
#[derive(Debug, Default)]
struct Entries {
    offsets: Vec<u32>,
    kinds: Vec<EntryKind>,
}

impl Entries {
    fn push(&mut self, offset: u32, kind: EntryKind) {
        self.offsets.push(offset);
        self.kinds.push(kind);
    }

    fn len(&self) -> usize {
        self.offsets.len()
    }

    fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The `index`th record after the content.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a record number is below a file's length, and files are under 4 GiB"
    )]
    fn get(&self, index: usize) -> Option<Spot> {
        Some(Spot {
            offset: *self.offsets.get(index)?,
            record: (index + FIRST_ENTRY_RECORD) as u32,
            kind: *self.kinds.get(index)?,
        })
    }
}

/// A keyframe, as the index keeps it.
#[derive(Clone, Copy, Debug)]
struct KeyframeSpot {
    /// The state's next tick.
    tick: Tick,
    /// Its place among the entries.
    entry: usize,
}

/// A replay read and checked: its header, where its records lie, and its bytes; see the
/// [module documentation](super). Memory beyond the file is a few bytes a record.
#[derive(Debug)]
pub struct ReplayFile<C> {
    bytes: Vec<u8>,
    header: ReplayHeader,
    /// The content's record.
    content: Spot,
    /// Every record after the content, in file order: the start's keyframe first.
    entries: Entries,
    /// The keyframes, in file order.
    keyframes: Vec<KeyframeSpot>,
    /// The first tick: the start keyframe's.
    first_tick: Tick,
    /// The tick after the last one recorded.
    end_tick: Tick,
    /// Seats at the start.
    start_seats: usize,
    _command: PhantomData<fn() -> C>,
}

/// Where a reader is in a replay, and the commands of the last tick it ran.
#[derive(Clone, Debug)]
pub struct ReplayCursor<C> {
    /// The next entry to read.
    entry: usize,
    /// The last tick's commands.
    commands: Vec<C>,
}

/// A tick a cursor ran, with the hash the replay holds for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedTick<C> {
    /// The tick as recorded.
    pub record: TickRecord<C>,
    /// The total of the state's hash after it, as recorded.
    pub hash: u64,
}

/// What a cursor met on its way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayStep<C> {
    /// It ran a tick.
    Tick(PlayedTick<C>),
    /// It passed a keyframe: the state the ticks led to, by its recorded hash, with its parts.
    Keyframe {
        /// The state's next tick.
        tick: Tick,
        /// The hash recorded.
        hash: crate::hash::HashRecord,
    },
    /// It restored a state that replaced the one the ticks before led to.
    Replaced(Tick),
    /// Someone came or went.
    Roster(RosterEvent),
}

impl<C: Command> ReplayFile<C> {
    /// Reads and checks a replay's file bytes: every record's frame and checksum, that the
    /// ticks follow each other and their seats and commands fit, that keyframes are where the
    /// ticks are. The content and the keyframes' states are unpacked when asked for.
    ///
    /// # Errors
    ///
    /// [`ReplayError::NotAReplay`], [`ReplayError::NewerReplayFormat`],
    /// [`ReplayError::OlderReplayFormat`], [`ReplayError::ReplayTruncated`],
    /// [`ReplayError::ReplayCorrupted`] or [`ReplayError::ReplayMalformed`], each saying which
    /// record and at which byte; [`ReplayError::TooLarge`] for a file over 4 GiB.
    pub fn open(bytes: Vec<u8>) -> Result<Self, ReplayError> {
        if u32::try_from(bytes.len()).is_err() {
            return Err(ReplayError::TooLarge {
                what: "bytes in a replay file",
                size: bytes.len() as u64,
                limit: u64::from(u32::MAX),
            });
        }
        let mut frames = Frames::new(&bytes)?;
        let header = ReplayHeader::read(&mut frames)?;
        let content_offset = frames.offset;
        let content =
            frames.next_within(MAX_RECORD_BYTES)?.ok_or(ReplayError::ReplayTruncated {
                record: 1,
                offset: content_offset as u64,
                missing: 1,
            })?;
        let content = spot(&content, EntryKind::Roster);
        let index = Index::build::<C>(&mut frames, &header)?;
        Ok(Self {
            header,
            content,
            entries: index.entries,
            keyframes: index.keyframes,
            first_tick: index.first_tick,
            end_tick: index.end_tick,
            start_seats: index.start_seats,
            bytes,
            _command: PhantomData,
        })
    }

    /// Reads a replay whose writer may have died mid-record (a crash, a full disk): a last
    /// record cut short is left out, and the replay holds every tick before it. What was left
    /// out is said by the error returned beside the replay.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), for everything but a cut last record past the first keyframe.
    pub fn open_cut(bytes: Vec<u8>) -> Result<(Self, Option<ReplayError>), ReplayError> {
        match Self::open(bytes.clone()) {
            Ok(replay) => Ok((replay, None)),
            Err(cut @ ReplayError::ReplayTruncated { record, offset, .. })
                if record > FIRST_ENTRY_RECORD as u64 =>
            {
                let mut bytes = bytes;
                bytes.truncate(usize::try_from(offset).unwrap_or(usize::MAX));
                Ok((Self::open(bytes)?, Some(cut)))
            }
            Err(other) => Err(other),
        }
    }

    /// Reads a replay of simulation `S`, refusing another game's (or other rules') by its
    /// header before any of its commands is read as `S`'s.
    ///
    /// # Errors
    ///
    /// [`ReplayError::OtherSimulation`], [`ReplayError::SimVersionMismatch`], or as
    /// [`open`](Self::open).
    pub fn open_for<S: Simulation<Command = C>>(bytes: Vec<u8>) -> Result<Self, ReplayError> {
        ReplayHeader::from_bytes(&bytes)?.check_sim::<S>()?;
        Self::open(bytes)
    }

    /// What it was recorded with.
    #[must_use]
    pub const fn header(&self) -> &ReplayHeader {
        &self.header
    }

    /// The first tick it holds: the start's state is at this tick.
    #[must_use]
    pub const fn first_tick(&self) -> Tick {
        self.first_tick
    }

    /// The tick after the last it holds: a reader that ran every tick is here.
    #[must_use]
    pub const fn end_tick(&self) -> Tick {
        self.end_tick
    }

    /// The players' seats at the first tick.
    #[must_use]
    pub const fn start_seats(&self) -> usize {
        self.start_seats
    }

    /// The file's bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The ticks of the keyframes, in file order.
    pub fn keyframe_ticks(&self) -> impl Iterator<Item = Tick> + '_ {
        self.keyframes.iter().map(|k| k.tick)
    }

    /// The content's files, unpacked.
    ///
    /// # Errors
    ///
    /// [`ReplayError::ReplayMalformed`] naming the content's record if they do not unpack.
    pub fn content_files(&self) -> Result<ContentFiles, ReplayError> {
        let framed = self.framed(self.content)?;
        let packed: serde_bytes::ByteBuf = framed.decode()?;
        ContentFiles::unpack(&packed)
            .map_err(|e| framed.malformed(format!("{e} (at most {MAX_CONTENT_FILES_BYTES} bytes)")))
    }

    /// Who came and went, in order.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), never for a file it opened.
    pub fn roster(&self) -> Result<Vec<RosterEvent>, ReplayError> {
        let mut roster = Vec::new();
        let spots = (0..self.entries.len()).filter_map(|i| self.entries.get(i));
        for spot in spots.filter(|s| s.kind == EntryKind::Roster) {
            if let Entry::Roster(event) = self.framed(spot)?.decode::<Entry<C>>()? {
                roster.push(event);
            }
        }
        Ok(roster)
    }

    /// The hash of the state at the first tick, with its partial hashes, as recorded.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), never for a file it opened.
    pub fn start_hash(&self) -> Result<crate::hash::HashRecord, ReplayError> {
        Ok(self.keyframe_at(0)?.hash)
    }

    /// A cursor at the start: `sim` must be the game at the first tick (a fresh one at tick
    /// 0, or one the first keyframe was restored into).
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), never for a file it opened.
    pub fn start(&self) -> Result<ReplayCursor<C>, ReplayError> {
        let keyframe = self.keyframe_at(0)?;
        Ok(ReplayCursor { entry: 1, commands: keyframe.commands })
    }

    /// Puts `sim` at `tick` (its next tick becomes `tick`): restores the last keyframe at or
    /// before it and runs the ticks from there. `sim` is any simulation of the replay's
    /// content; its state is replaced.
    ///
    /// # Errors
    ///
    /// [`ReplayError::NotRecorded`] for a tick before the first or past the end, a keyframe
    /// whose state does not unpack or does not hash as recorded
    /// ([`ReplayError::ReplayMalformed`]), or a tick that does not run ([`ReplayError::Tick`]).
    pub fn seek<S: Simulation<Command = C>>(
        &self,
        sim: &mut S,
        tick: Tick,
    ) -> Result<ReplayCursor<C>, ReplayError> {
        if tick < self.first_tick || tick > self.end_tick {
            return Err(ReplayError::NotRecorded {
                tick,
                first: self.first_tick,
                end: self.end_tick,
            });
        }
        let from =
            self.keyframes.iter().rposition(|k| k.tick <= tick).ok_or(
                ReplayError::NotRecorded { tick, first: self.first_tick, end: self.end_tick },
            )?;
        let mut cursor = self.restore(sim, from)?;
        while sim.next_tick() < tick {
            if self.step(&mut cursor, sim)?.is_none() {
                break;
            }
        }
        Ok(cursor)
    }

    /// Restores the `index`th keyframe into `sim`, checking its hash; a cursor just after it.
    fn restore<S: Simulation<Command = C>>(
        &self,
        sim: &mut S,
        index: usize,
    ) -> Result<ReplayCursor<C>, ReplayError> {
        let at = self.keyframes[index];
        let keyframe = self.keyframe_at(at.entry)?;
        restore_keyframe(sim, &keyframe, &self.framed(self.spot(at.entry)?)?)?;
        Ok(ReplayCursor { entry: at.entry + 1, commands: keyframe.commands })
    }

    /// Runs `cursor` on to its next tick in `sim`, restoring any replaced state on the way:
    /// what it met, or `None` at the end.
    ///
    /// # Errors
    ///
    /// As [`seek`](Self::seek).
    pub fn step<S: Simulation<Command = C>>(
        &self,
        cursor: &mut ReplayCursor<C>,
        sim: &mut S,
    ) -> Result<Option<ReplayStep<C>>, ReplayError> {
        let Some(spot) = self.entries.get(cursor.entry) else {
            return Ok(None);
        };
        cursor.entry += 1;
        let framed = self.framed(spot)?;
        Ok(Some(match framed.decode::<Entry<C>>()? {
            Entry::Tick(entry) => {
                let tick = sim.next_tick();
                let seats = entry
                    .seats
                    .seats_after(cursor.commands.len(), MAX_REPLAY_SEATS)
                    .ok_or_else(|| framed.malformed("its seats do not fit".to_owned()))?;
                entry
                    .apply(&mut cursor.commands, seats)
                    .ok_or_else(|| framed.malformed("a command for no seat".to_owned()))?;
                let record =
                    TickRecord { tick, seats: entry.seats, commands: cursor.commands.clone() };
                record.run(sim)?;
                ReplayStep::Tick(PlayedTick { record, hash: entry.hash })
            }
            Entry::Keyframe(keyframe) if keyframe.replaced => {
                restore_keyframe(sim, &keyframe, &framed)?;
                cursor.commands = keyframe.commands;
                ReplayStep::Replaced(keyframe.tick)
            }
            Entry::Keyframe(keyframe) => {
                ReplayStep::Keyframe { tick: keyframe.tick, hash: keyframe.hash }
            }
            Entry::Roster(event) => ReplayStep::Roster(event),
        }))
    }

    /// The keyframe that is entry `entry`.
    fn keyframe_at(&self, entry: usize) -> Result<Keyframe<C>, ReplayError> {
        let framed = self.framed(self.spot(entry)?)?;
        match framed.decode::<Entry<C>>()? {
            Entry::Keyframe(keyframe) => Ok(keyframe),
            _ => Err(framed.malformed("it is no keyframe".to_owned())),
        }
    }

    /// The `entry`th record after the content.
    fn spot(&self, entry: usize) -> Result<Spot, ReplayError> {
        self.entries.get(entry).ok_or(ReplayError::ReplayTruncated {
            record: (entry + FIRST_ENTRY_RECORD) as u64,
            offset: self.bytes.len() as u64,
            missing: 1,
        })
    }

    /// The record at `spot`, framed again.
    fn framed(&self, spot: Spot) -> Result<Framed<'_>, ReplayError> {
        let mut frames = Frames::at(&self.bytes, spot.offset as usize, u64::from(spot.record));
        frames.next_within(MAX_RECORD_BYTES)?.ok_or(ReplayError::ReplayTruncated {
            record: u64::from(spot.record),
            offset: u64::from(spot.offset),
            missing: 1,
        })
    }
}

impl<C> ReplayCursor<C> {
    /// The commands of the last tick run.
    #[must_use]
    pub fn commands(&self) -> &[C] {
        &self.commands
    }
}

/// Restores `keyframe`'s state into `sim`, refusing one that does not unpack, decode, fit the
/// rules and content ([`Simulation::check_state`]), or hash as recorded at its tick.
fn restore_keyframe<S: Simulation>(
    sim: &mut S,
    keyframe: &Keyframe<S::Command>,
    framed: &Framed<'_>,
) -> Result<(), ReplayError> {
    let state = miniz_oxide::inflate::decompress_to_vec_with_limit(
        &keyframe.state,
        MAX_KEYFRAME_STATE_BYTES,
    )
    .map_err(|e| {
        framed.malformed(format!("its state does not unpack: {}", crate::file::inflate_words(&e)))
    })?;
    let state: S::State = postcard::from_bytes(&state)
        .map_err(|e| framed.malformed(format!("its state does not decode: {e}")))?;
    // Before it is restored: a state whose recorded hash is its own may still break the rules'
    // invariants, and restoring it, or the ticks after, would panic.
    sim.check_state(&state)
        .map_err(|e| framed.malformed(format!("its state does not fit the rules: {e}")))?;
    sim.restore(&state);
    let hash = sim.state_hash().total();
    if hash != keyframe.hash.total || sim.next_tick() != keyframe.tick {
        return Err(framed.malformed(format!(
            "its state is at tick {} with hash {hash:016x}, where it says tick {} with hash {:016x}",
            sim.next_tick(),
            keyframe.tick,
            keyframe.hash.total
        )));
    }
    Ok(())
}

/// The spot of a framed record.
#[expect(
    clippy::cast_possible_truncation,
    reason = "a file is opened only under 4 GiB, so its offsets and record numbers are u32s"
)]
fn spot(framed: &Framed<'_>, kind: EntryKind) -> Spot {
    Spot { offset: framed.offset as u32, record: framed.record as u32, kind }
}

/// What a pass over the records finds.
struct Index {
    entries: Entries,
    keyframes: Vec<KeyframeSpot>,
    first_tick: Tick,
    end_tick: Tick,
    start_seats: usize,
}

impl Index {
    /// Reads every record after the content, checking each as it goes.
    fn build<C: Command>(
        frames: &mut Frames<'_>,
        header: &ReplayHeader,
    ) -> Result<Self, ReplayError> {
        let mut index = Self {
            entries: Entries::default(),
            keyframes: Vec::new(),
            first_tick: Tick::ZERO,
            end_tick: Tick::ZERO,
            start_seats: 0,
        };
        let mut commands: Vec<C> = Vec::new();
        let mut next = Tick::ZERO;
        while let Some(framed) = frames.next_within(MAX_RECORD_BYTES)? {
            let entry: Entry<C> = framed.decode()?;
            let first = index.entries.is_empty();
            let kind = match entry {
                Entry::Keyframe(keyframe) => {
                    let parts = keyframe.hash.parts.len();
                    if parts != 0 && parts != header.hash_parts.len() {
                        return Err(framed.malformed(format!(
                            "it has {parts} partial hashes, where the header names {}",
                            header.hash_parts.len()
                        )));
                    }
                    if keyframe.commands.len() > MAX_REPLAY_SEATS {
                        return Err(
                            framed.malformed("it has more seats than a replay holds".to_owned())
                        );
                    }
                    if first {
                        index.first_tick = keyframe.tick;
                        index.start_seats = keyframe.commands.len();
                    } else if !keyframe.replaced
                        && (keyframe.tick != next || keyframe.commands.len() != commands.len())
                    {
                        return Err(framed.malformed(format!(
                            "a keyframe at tick {} with {} seats, where tick {next} with {} \
                             seats comes next",
                            keyframe.tick,
                            keyframe.commands.len(),
                            commands.len()
                        )));
                    }
                    next = keyframe.tick;
                    commands = keyframe.commands;
                    index.keyframes.push(KeyframeSpot { tick: next, entry: index.entries.len() });
                    EntryKind::Keyframe
                }
                _ if first => {
                    return Err(framed.malformed(
                        "the first record after the content is no keyframe".to_owned(),
                    ));
                }
                Entry::Tick(tick) => {
                    let seats = tick
                        .seats
                        .seats_after(commands.len(), MAX_REPLAY_SEATS)
                        .ok_or_else(|| {
                            framed.malformed(format!(
                                "tick {next} frees or takes seats that {} seats cannot have",
                                commands.len()
                            ))
                        })?;
                    tick.apply(&mut commands, seats).ok_or_else(|| {
                        framed.malformed(format!("tick {next} has a command for no seat"))
                    })?;
                    next = next.next();
                    EntryKind::Tick
                }
                Entry::Roster(event) => {
                    if let RosterChange::Joined { name } = &event.change
                        && name.len() > MAX_ROSTER_NAME_BYTES
                    {
                        return Err(framed.malformed(format!(
                            "a name of {} bytes, over the {MAX_ROSTER_NAME_BYTES} a name may be",
                            name.len()
                        )));
                    }
                    EntryKind::Roster
                }
            };
            index.entries.push(spot(&framed, kind).offset, kind);
        }
        index.end_tick = next;
        if index.entries.is_empty() {
            return Err(ReplayError::ReplayTruncated {
                record: frames.records,
                offset: frames.offset as u64,
                missing: 1,
            });
        }
        Ok(index)
    }
}
