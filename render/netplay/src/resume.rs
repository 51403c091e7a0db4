//! Playing on from a replay: a match started from the state a replay holds at a tick, its
//! seats waiting for their players under the names the replay recorded.
//!
//! This is how a crashed dedicated server recovers: started again on its own replay, the
//! match goes on where it stopped, with the same rules, content and hashes, and the tick
//! numbers going on from there. It is also "play on from here" for any moment of any replay.

use std::path::Path;
use std::sync::Arc;

use fixstep_runtime::file::{ContentReader, read_bytes};
use fixstep_runtime::replay::{REPLAY_FILE, ReplayFile, RosterChange};
use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::{ContentDigest, ReplayError, Tick};

use crate::NetRules;

/// A match to resume: the game at its tick, and every seat's player's name.
pub struct Resumed<G: NetRules> {
    /// The game at the tick to play on from.
    pub sim: G::Sim,
    /// Every seat's player's name, by player number (`None` for a seat that was free, or
    /// whose name the replay does not hold).
    pub names: Vec<Option<String>>,
}

/// Why a match cannot be resumed from a replay.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The file cannot be read.
    #[error(transparent)]
    Read(#[from] fixstep_runtime::file::ReadError),
    /// The replay is damaged, another game's, or does not hold the tick.
    #[error("replay {}: {source}", path.display())]
    Replay {
        /// The replay.
        path: std::path::PathBuf,
        /// What is wrong.
        source: ReplayError,
    },
    /// The content the replay carries does not load.
    #[error("replay {}: its content: {source}", path.display())]
    Content {
        /// The replay.
        path: std::path::PathBuf,
        /// Every problem of its files.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The replay starts with more seats than the game holds.
    #[error("replay {}: it starts with {seats} seats, and the game holds {max}", path.display())]
    Seats {
        /// The replay.
        path: std::path::PathBuf,
        /// Its seats at the start.
        seats: usize,
        /// The most the game holds.
        max: usize,
    },
    /// The content the replay carries is not what it recorded.
    #[error(
        "replay {}: the content it carries has digest {found}, where it recorded {recorded}",
        path.display()
    )]
    ContentDigest {
        /// The replay.
        path: std::path::PathBuf,
        /// What its header says.
        recorded: ContentDigest,
        /// What its files hash to.
        found: ContentDigest,
    },
}

/// The content the replay at `path` carries, and the match at `at` (its last tick when
/// `None`): the tick's state and the seats' names as the roster left them by then.
///
/// # Errors
///
/// A file that does not read as a replay of `G`, content that does not load or is not what
/// was recorded, or a tick the replay does not hold.
pub fn from_replay<G: NetRules>(
    path: &Path,
    at: Option<Tick>,
) -> Result<(Arc<G::Content>, Resumed<G>), ResumeError> {
    let failed = |source| ResumeError::Replay { path: path.to_path_buf(), source };
    let bytes = read_bytes(path, REPLAY_FILE)?;
    fixstep_runtime::replay::ReplayHeader::from_bytes(&bytes)
        .and_then(|h| h.check_sim::<G::Sim>())
        .map_err(failed)?;
    // A server that crashed may have been writing its last record.
    let (replay, cut) = ReplayFile::<CommandOf<G>>::open_cut(bytes).map_err(failed)?;
    if let Some(cut) = cut {
        tracing::warn!("replay {}: {cut}; playing on from the tick before it", path.display());
    }
    let files = replay.content_files().map_err(failed)?;
    let reader = ContentReader::files(Arc::new(files), path);
    let content = G::read_content(&reader, Path::new(""))
        .map_err(|e| ResumeError::Content { path: path.to_path_buf(), source: Box::new(e) })?;
    let (recorded, found) = (replay.header().content_digest, G::content_digest(&content));
    if recorded != found {
        return Err(ResumeError::ContentDigest { path: path.to_path_buf(), recorded, found });
    }
    let content = Arc::new(content);
    let seats = replay.start_seats();
    if seats > G::MAX_PLAYERS {
        return Err(ResumeError::Seats { path: path.to_path_buf(), seats, max: G::MAX_PLAYERS });
    }
    let mut sim = G::new_sim(&content, replay.header().seed.unwrap_or(0), seats);
    let at = at.unwrap_or_else(|| replay.end_tick());
    replay.seek(&mut sim, at).map_err(failed)?;
    let names = seat_names(&replay, at).map_err(failed)?;
    Ok((content, Resumed { sim, names }))
}

/// Every seat's player's name at `at`, by the roster recorded before it.
fn seat_names<C: fixstep_runtime::Command>(
    replay: &ReplayFile<C>,
    at: Tick,
) -> Result<Vec<Option<String>>, ReplayError> {
    let mut names: Vec<Option<String>> = Vec::new();
    for event in replay.roster()?.into_iter().filter(|e| e.tick <= at) {
        let seat = event.player.index();
        if names.len() <= seat {
            names.resize(seat + 1, None);
        }
        match event.change {
            RosterChange::Joined { name } => names[seat] = Some(name),
            RosterChange::Freed => names[seat] = None,
            RosterChange::Left | RosterChange::Rejoined | RosterChange::Resynced => {}
        }
    }
    Ok(names)
}
