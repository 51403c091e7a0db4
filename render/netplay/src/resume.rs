//! Playing on from a replay: a match started from the state a replay holds at a tick, its
//! seats waiting for their players under the names the replay recorded.
//!
//! This is how a crashed dedicated server recovers: started again on its own replay, the
//! match goes on where it stopped, with the same rules, content and hashes, and the tick
//! numbers going on from there. It is also "play on from here" for any moment of any replay.

use std::path::Path;
use std::sync::Arc;

use fixstep_runtime::replay::{CutRecord, LoadedReplay, ReplayFile, ReplayLoadError, RosterChange};
use fixstep_runtime::{ReplayError, Tick};

use crate::NetRules;

/// A match to resume: the game at its tick, and every seat's player's name.
pub struct Resumed<G: NetRules> {
    /// The game at the tick to play on from.
    pub sim: G::Sim,
    /// Every seat's player's name, by player number (`None` for a seat that was free, or
    /// whose name the replay does not hold).
    pub names: Vec<Option<String>>,
}

/// The content the replay at `path` carries, and the match at `at` (its last tick when
/// `None`): the tick's state and the seats' names as the roster left them by then. A last
/// record cut short (a server that crashed while writing it) is left out, with a warning.
///
/// # Errors
///
/// A file that does not read as a replay of `G`, content that does not load or is not what
/// was recorded, more seats than the game holds, or a tick the replay does not hold.
pub fn from_replay<G: NetRules>(
    path: &Path,
    at: Option<Tick>,
) -> Result<(Arc<G::Content>, Resumed<G>), ReplayLoadError> {
    let loaded = LoadedReplay::<G>::load(path, CutRecord::LeftOut)?;
    if let Some(cut) = &loaded.cut {
        tracing::warn!("replay {}: {cut}; playing on from the tick before it", path.display());
    }
    let failed = |source| ReplayLoadError::Replay { path: path.to_path_buf(), source };
    let mut sim = loaded.start_sim()?;
    let at = at.unwrap_or_else(|| loaded.replay.end_tick());
    loaded.replay.seek(&mut sim, at).map_err(failed)?;
    let names = seat_names(&loaded.replay, at).map_err(failed)?;
    Ok((loaded.content, Resumed { sim, names }))
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
            RosterChange::Left
            | RosterChange::Rejoined
            | RosterChange::Resynced
            | RosterChange::Hosts { .. } => {}
        }
    }
    Ok(names)
}
