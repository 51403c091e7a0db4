//! Where the game's files are, and loading them: the level (every problem named with its
//! file, line and column) and the rig its clips come from.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use fixstep_game::level::{Level, load_level};
use serde::Deserialize;

use crate::present::skinning::Rig;

/// Where `assets/` is when no `--assets` is given: `./assets` if there is one, else the
/// workspace's own (for `cargo run` from anywhere in it).
#[must_use]
pub fn default_assets_root() -> PathBuf {
    let local = PathBuf::from("assets");
    if local.is_dir() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("assets")
}

/// The level played when none is given: the town, `levels/town.ron` under `assets`.
#[must_use]
pub fn default_level(assets: &Path) -> PathBuf {
    assets.join("levels").join("town.ron")
}

/// Loads a level file, with the file named in the error.
///
/// # Errors
///
/// Every problem of the level, one per line, each with file, line and column.
pub fn load(assets: &Path, level: &Path) -> Result<Level> {
    load_level(assets, level).map_err(|e| anyhow::anyhow!("{e}"))
}

/// What a game needs from the assets: the level, the rig its clips come from, and where the
/// assets are (for the font and the cutscenes' images).
#[derive(Clone, Debug)]
pub struct GameAssets {
    /// The level.
    pub level: Arc<Level>,
    /// The characters' skeleton and clips.
    pub rig: Arc<Rig>,
    /// The assets root.
    pub assets: PathBuf,
}

/// The one field of a level file the renderer needs beyond [`Level`]: its clip file.
#[derive(Deserialize)]
struct ClipsField {
    clips: String,
}

/// Loads the level `level_file` and the rig of its clip file.
///
/// # Errors
///
/// A level that does not load (every problem named), a rig that does not, or a rig whose
/// clips are not the level's.
pub fn load_game_assets(assets: &Path, level_file: &Path) -> Result<GameAssets> {
    let level = load(assets, level_file)?;
    let text = std::fs::read_to_string(level_file)
        .with_context(|| format!("cannot read the level {}", level_file.display()))?;
    let field: ClipsField = ron::Options::default()
        .from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", level_file.display()))?;
    let rig = Rig::load(&assets.join(&field.clips))?;
    if rig.clips.len() != level.clips.defs.len()
        || rig
            .clips
            .iter()
            .zip(&level.clips.defs)
            .any(|(r, l)| r.name != l.name || r.frames != l.frames)
    {
        bail!("{}: the rig's clips are not the level's clips", field.clips);
    }
    Ok(GameAssets { level: Arc::new(level), rig: Arc::new(rig), assets: assets.to_path_buf() })
}
