//! A replay of a game read from its file with the content it carries: what the viewer, a
//! verification and a host that plays on from a replay all start from.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::reader::ReplayFile;
use crate::error::ReplayError;
use crate::file::{ContentReader, ReadError, read_bytes};
use crate::hash::ContentDigest;
use crate::rules::{CommandOf, Rules};

/// Why a replay of a game cannot be loaded with its content.
#[derive(Debug, thiserror::Error)]
pub enum ReplayLoadError {
    /// The file cannot be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file is no replay of the game, or is damaged.
    #[error("replay {}: {source}", path.display())]
    Replay {
        /// The replay.
        path: PathBuf,
        /// What is wrong.
        source: ReplayError,
    },
    /// The content it carries does not load.
    #[error("replay {}: its content: {source}", path.display())]
    Content {
        /// The replay.
        path: PathBuf,
        /// Every problem of its files, as the game names them.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The content it carries is not what it recorded.
    #[error(
        "replay {}: the content it carries has digest {found}, where it recorded {recorded}",
        path.display()
    )]
    ContentDigest {
        /// The replay.
        path: PathBuf,
        /// What its header says.
        recorded: ContentDigest,
        /// What its files hash to.
        found: ContentDigest,
    },
    /// It starts with more seats than the game holds.
    #[error("replay {}: it starts with {seats} seats, and the game holds {max}", path.display())]
    Seats {
        /// The replay.
        path: PathBuf,
        /// Its seats at the start.
        seats: usize,
        /// The most the game holds.
        max: usize,
    },
}

/// A replay of game `R` and the content it carries.
pub struct LoadedReplay<R: Rules> {
    /// The replay, read and checked.
    pub replay: ReplayFile<CommandOf<R>>,
    /// The content it carries, loaded through the same checks as content from disk.
    pub content: Arc<R::Content>,
    /// What was left out of a replay cut inside its last record, when that was allowed.
    pub cut: Option<ReplayError>,
    path: PathBuf,
}

impl<R: Rules> std::fmt::Debug for LoadedReplay<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedReplay").field("path", &self.path).finish_non_exhaustive()
    }
}

/// Whether a replay cut inside its last record is read without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutRecord {
    /// It is refused, as any damaged file: what is watched or verified is the whole match.
    Refused,
    /// It is left out: a server that crashed while writing it plays on from the tick before.
    LeftOut,
}

impl<R: Rules> LoadedReplay<R> {
    /// Reads the replay at `path` as game `R`'s (another game's is refused by its header,
    /// before any record is read as `R`'s), and loads the content it carries, checked against
    /// the digest it recorded.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is no replay of `R`, content that does not load or is not
    /// what was recorded.
    pub fn load(path: &Path, cut: CutRecord) -> Result<Self, ReplayLoadError> {
        let failed = |source| ReplayLoadError::Replay { path: path.to_path_buf(), source };
        let bytes = read_bytes(path, super::REPLAY_FILE)?;
        super::ReplayHeader::from_bytes(&bytes)
            .and_then(|h| h.check_sim::<R::Sim>())
            .map_err(failed)?;
        let (replay, left_out) = match cut {
            CutRecord::Refused => (ReplayFile::open(bytes).map_err(failed)?, None),
            CutRecord::LeftOut => ReplayFile::open_cut(bytes).map_err(failed)?,
        };
        let files = replay.content_files().map_err(failed)?;
        let reader = ContentReader::files(Arc::new(files), path);
        let content = R::read_content(&reader, Path::new("")).map_err(|e| {
            ReplayLoadError::Content { path: path.to_path_buf(), source: Box::new(e) }
        })?;
        let (recorded, found) = (replay.header().content_digest, R::content_digest(&content));
        if recorded != found {
            return Err(ReplayLoadError::ContentDigest {
                path: path.to_path_buf(),
                recorded,
                found,
            });
        }
        Ok(Self { replay, content: Arc::new(content), cut: left_out, path: path.to_path_buf() })
    }

    /// A simulation of the content as the replay starts: fresh from its seed and seats (a
    /// replay that starts later, or without a seed, restores its first keyframe into it).
    ///
    /// # Errors
    ///
    /// [`ReplayLoadError::Seats`] for a replay that starts with more seats than `R` holds.
    pub fn start_sim(&self) -> Result<R::Sim, ReplayLoadError> {
        let seats = self.replay.start_seats();
        if seats > R::MAX_PLAYERS {
            return Err(ReplayLoadError::Seats {
                path: self.path.clone(),
                seats,
                max: R::MAX_PLAYERS,
            });
        }
        Ok(R::new_sim(&self.content, self.replay.header().seed.unwrap_or(0), seats))
    }

    /// The replay's file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}
