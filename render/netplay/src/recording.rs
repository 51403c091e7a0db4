//! Recording a match to a replay file as it is played: by the host, by a player, or by a game
//! run on one machine.
//!
//! A [`Recording`] creates the file, writes the replay's header (with the wall-clock time it
//! began, for a list of replays), the content's files and the state it starts from, then a
//! record a tick, flushed as it is written: a host or a player that crashes leaves a replay
//! of every tick but the one under way. A match goes on when its recording fails (a full
//! disk): the driver says so once and stops recording.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use fixstep_runtime::replay::{
    KEYFRAME_EVERY_TICKS, RecordedBy, ReplayHeader, ReplayRecorder, RosterChange, RosterEvent,
};
use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::{Player, ReplayError, Rules, Tick, TickRecord};

/// Why a recording stopped or did not start.
#[derive(Debug, thiserror::Error)]
#[error("replay {}: {source}", path.display())]
pub struct RecordError {
    /// The replay file.
    pub path: PathBuf,
    /// What failed.
    #[source]
    pub source: ReplayError,
}

/// A match being recorded; see the [module documentation](self).
pub struct Recording<R: Rules> {
    path: PathBuf,
    recorder: ReplayRecorder<R::Sim, BufWriter<File>>,
}

impl<R: Rules> std::fmt::Debug for Recording<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording").field("path", &self.path).finish_non_exhaustive()
    }
}

/// Milliseconds since the Unix epoch now, or 0 if the clock is before it.
fn unix_ms_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl<R: Rules> Recording<R> {
    /// Starts recording `sim`, a game of `content` seeded with `seed` (if the recorder knows
    /// it), as it is now, into a
    /// new file at `path` (replacing one there).
    ///
    /// # Errors
    ///
    /// A file that cannot be created or written.
    pub fn create(
        path: &Path,
        content: &R::Content,
        sim: &R::Sim,
        seed: Option<u64>,
        recorded_by: RecordedBy,
    ) -> Result<Self, RecordError> {
        let failed = |source| RecordError { path: path.to_path_buf(), source };
        let file = File::create(path).map_err(|e| failed(ReplayError::Io(e)))?;
        let header =
            ReplayHeader::of(sim, R::content_title(content), seed, recorded_by, unix_ms_now());
        let recorder = ReplayRecorder::start(
            BufWriter::new(file),
            &header,
            R::content_files(content),
            sim,
            KEYFRAME_EVERY_TICKS,
        )
        .map_err(failed)?;
        Ok(Self { path: path.to_path_buf(), recorder })
    }

    /// The replay file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next tick it records.
    #[must_use]
    pub const fn next_tick(&self) -> Tick {
        self.recorder.next_tick()
    }

    /// Records a tick `sim` has just run, and the total of its state's hash after it.
    ///
    /// # Errors
    ///
    /// A tick out of order, or a file that cannot be written.
    pub fn tick(
        &mut self,
        record: &TickRecord<CommandOf<R>>,
        hash: u64,
        sim: &R::Sim,
    ) -> Result<(), RecordError> {
        self.recorder.tick(record, hash, sim).map_err(|source| self.failed(source))
    }

    /// Records that `player`'s seat changed as `change` says, from `tick` on.
    ///
    /// # Errors
    ///
    /// A file that cannot be written.
    pub fn roster(
        &mut self,
        tick: Tick,
        player: Player,
        change: RosterChange,
    ) -> Result<(), RecordError> {
        self.recorder
            .roster(&RosterEvent { tick, player, change })
            .map_err(|source| self.failed(source))
    }

    /// Records who sits where as a roster's names changed from `was` to `now` before `tick`
    /// (by seat, a free seat's name empty): a name where a seat was free joined, an empty name
    /// freed its seat, another name replaced the one before.
    ///
    /// # Errors
    ///
    /// If the file cannot be written.
    pub fn roster_names(
        &mut self,
        tick: Tick,
        was: &[String],
        now: &[String],
    ) -> Result<(), RecordError> {
        for (seat, player) in Player::all(was.len().max(now.len())).enumerate() {
            let before = was.get(seat).map_or("", String::as_str);
            let after = now.get(seat).map_or("", String::as_str);
            if before == after {
                continue;
            }
            if !before.is_empty() {
                self.roster(tick, player, RosterChange::Freed)?;
            }
            if !after.is_empty() {
                self.roster(tick, player, RosterChange::Joined { name: after.to_owned() })?;
            }
        }
        Ok(())
    }

    /// Records that `sim`'s state was replaced by the host's.
    ///
    /// # Errors
    ///
    /// A file that cannot be written.
    pub fn replaced(&mut self, sim: &R::Sim) -> Result<(), RecordError> {
        self.recorder.replaced(sim).map_err(|source| self.failed(source))
    }

    fn failed(&self, source: ReplayError) -> RecordError {
        RecordError { path: self.path.clone(), source }
    }
}

/// A recording a match keeps while it can: the first failure is said once, as a warning,
/// and ends the recording, never the match.
pub(crate) fn keep_going<R: Rules>(
    recording: &mut Option<Recording<R>>,
    write: impl FnOnce(&mut Recording<R>) -> Result<(), RecordError>,
) {
    if let Some(r) = recording.as_mut()
        && let Err(error) = write(r)
    {
        tracing::warn!("{error}; the match goes on unrecorded");
        *recording = None;
    }
}
