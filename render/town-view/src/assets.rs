//! The town's files: its level (every problem named with its file, line and column) and the
//! rig its characters are posed with.

use std::path::{Path, PathBuf};

use fixstep_present::skinning::{Rig, RigError};
use fixstep_town::level::{Level, LevelError, load_level};
use serde::Deserialize;

/// The level played when none is given: the town, `levels/town.ron` under `assets`.
#[must_use]
pub fn default_level(assets: &Path) -> PathBuf {
    assets.join("levels").join("town.ron")
}

/// Loads a level file.
///
/// # Errors
///
/// Every problem of the level, each with file, line and column.
pub fn load_level_file(assets: &Path, level: &Path) -> Result<Level, LevelError> {
    load_level(assets, level)
}

/// Why the rig of a level cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RigLoadError {
    /// The level file cannot be read again for its clip file.
    #[error(transparent)]
    Read(#[from] fixstep_runtime::file::ReadError),
    /// The level file does not name its clip file in a field that reads.
    #[error("{path}: {source}")]
    ClipsField {
        /// The level file.
        path: PathBuf,
        /// What the RON reader found (boxed: it is large, and the error is rare).
        source: Box<ron::error::SpannedError>,
    },
    /// The clip file the level names is no path within the assets.
    #[error("{path}: clips: {source}")]
    ClipsPath {
        /// The level file.
        path: PathBuf,
        /// What is wrong with the path.
        source: fixstep_runtime::file::ContentPathError,
    },
    /// The rig file is not a rig.
    #[error(transparent)]
    Rig(#[from] RigError),
    /// The rig's clips are not the level's.
    #[error("{0}: the rig's clips are not the level's clips")]
    Mismatch(String),
}

/// The one field of a level file the renderer needs beyond [`Level`]: its clip file.
#[derive(Deserialize)]
struct ClipsField {
    clips: String,
}

/// Loads the rig of the clip file `level_file` names, and checks its clips are `level`'s.
///
/// # Errors
///
/// A level file that cannot be read or names no clip file, a rig that does not load, or a
/// rig whose clips are not the level's.
pub fn load_rig(assets: &Path, level_file: &Path, level: &Level) -> Result<Rig, RigLoadError> {
    let text = fixstep_runtime::file::read_text(level_file, fixstep_town::level::LEVEL_FILE)?;
    let field: ClipsField = ron::Options::default().from_str(&text).map_err(|e| {
        RigLoadError::ClipsField { path: level_file.to_path_buf(), source: Box::new(e) }
    })?;
    let clips = fixstep_runtime::file::content_path(assets, &field.clips)
        .map_err(|source| RigLoadError::ClipsPath { path: level_file.to_path_buf(), source })?;
    let rig = Rig::load(&clips)?;
    let same = rig.clips.len() == level.clips.defs.len()
        && rig
            .clips
            .iter()
            .zip(&level.clips.defs)
            .all(|(r, l)| r.name == l.name && r.frames == l.frames);
    if !same {
        return Err(RigLoadError::Mismatch(field.clips));
    }
    Ok(rig)
}
