//! The town's files: its level (every problem named with its file, line and column) and the
//! rig its characters are posed with.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_present::skinning::{RIG_FILE, Rig, RigError};
use fixstep_runtime::file::{ContentReadError, ContentReader};
use fixstep_town::level::{Level, LevelError, STRESS_CLIP_FILE, StressScale, load_level};
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
    /// The level's own file, as its files name it, is no name of a file under the assets.
    #[error("the level's file: {0}")]
    LevelName(fixstep_runtime::file::ContentPathError),
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
/// The level file and the clip file are read from the files the level keeps
/// ([`Level::files`]) where it has them: a level loaded from a replay's files draws on a
/// machine without the assets, and any level is posed from the very clip file it was checked
/// against. Errors show them under `assets`. A level without files (one made in code) reads
/// `level_file` and its clip file under `assets` from disk. The generated stress level has no
/// level file: its clip file is the one it was made with.
///
/// # Errors
///
/// A level file that cannot be read or names no clip file, a rig that does not load, or a
/// rig whose clips are not the level's.
pub fn load_rig(assets: &Path, level_file: &Path, level: &Level) -> Result<Rig, RigLoadError> {
    let files = &level.files;
    // The generated stress level has no level file: its clip file is known, and kept.
    let generated = StressScale::from_name(&level.source).is_some();
    let own = if generated { STRESS_CLIP_FILE } else { files.main.as_str() };
    let reader = if files.get(own).is_some() {
        ContentReader::files(Arc::clone(files), assets)
    } else {
        ContentReader::folder(assets)
    };
    let (level_path, field) = if generated {
        (level_file.to_path_buf(), ClipsField { clips: STRESS_CLIP_FILE.to_owned() })
    } else {
        let (level_path, text) = reader
            .read_main(level_file, &level.source, fixstep_town::level::LEVEL_FILE)
            .map_err(|e| match e {
                ContentReadError::Read(e) => RigLoadError::Read(e),
                ContentReadError::Path(e) => RigLoadError::LevelName(e),
            })?;
        let field: ClipsField = ron::Options::default().from_str(&text).map_err(|e| {
            RigLoadError::ClipsField { path: level_path.clone(), source: Box::new(e) }
        })?;
        (level_path, field)
    };
    let (clips_path, clips) = reader.read_text(&field.clips, RIG_FILE).map_err(|e| match e {
        ContentReadError::Read(e) => RigLoadError::Rig(RigError::Io(e)),
        ContentReadError::Path(source) => RigLoadError::ClipsPath { path: level_path, source },
    })?;
    let rig = Rig::from_ron(&clips, &clips_path.display().to_string())?;
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

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    use fixstep_runtime::Rules as _;
    use fixstep_runtime::file::{ContentFiles, ContentReader};

    use super::{RigLoadError, default_level, load_level_file, load_rig};
    use crate::Town;

    fn assets() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
    }

    /// An empty folder of its own, for assets that are missing.
    fn empty_folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fixstep-town-view-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    /// A level read from the town's packed files on a machine without assets is posed with the
    /// same rig as the town loaded from them, read from its files.
    #[test]
    fn a_level_read_from_its_files_has_its_rig_without_the_assets() {
        let assets = assets();
        let file = default_level(&assets);
        let town = load_level_file(&assets, &file).expect("the town loads");
        let from_disk = load_rig(&assets, &file, &town).expect("the rig loads");

        let unpacked = ContentFiles::unpack(&Town::content_files(&town).pack().expect("packs"))
            .expect("unpacks");
        let empty = empty_folder("rig");
        let reader = ContentReader::files(Arc::new(unpacked), &empty);
        let carried = Town::read_content(&reader, &empty.join("levels/town.ron"));
        let carried = carried.expect("the town reads from its files");
        assert_eq!(Town::content_digest(&carried), Town::content_digest(&town));
        let rig = load_rig(&empty, &empty.join("levels/town.ron"), &carried);
        let _ = std::fs::remove_dir_all(&empty);
        assert_eq!(rig.expect("the rig loads from the level's files"), from_disk);
    }

    /// Files without the clip file give no rig, naming the file as the level's files show it.
    #[test]
    fn a_level_whose_files_lack_its_clip_file_has_no_rig() {
        let assets = assets();
        let file = default_level(&assets);
        let mut town = load_level_file(&assets, &file).expect("the town loads");
        let mut files = ContentFiles::new(town.files.main.clone());
        for name in town.files.names().filter(|&n| n != "animations/humanoid.ron") {
            files.insert(name.to_owned(), town.files.get(name).expect("listed").to_vec());
        }
        town.files = Arc::new(files);
        let empty = empty_folder("no-rig");
        let error = load_rig(&empty, &file, &town).expect_err("no clip file");
        let _ = std::fs::remove_dir_all(&empty);
        assert!(matches!(error, RigLoadError::Rig(_)), "{error:?}");
        let shown = empty.join("animations/humanoid.ron").display().to_string();
        assert!(error.to_string().contains(&shown), "{error}");
    }
}
