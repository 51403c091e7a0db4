//! `fixstep replay`: re-simulates a recording and checks its hashes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::StateHash;
use fixstep_runtime::replay::{Replay, verify};

use crate::assets::load;

/// The level file a replay header names: under `assets` unless it is an absolute path.
#[must_use]
pub fn replay_level_path(name: &str, assets: &Path) -> PathBuf {
    let path = Path::new(name);
    if path.is_absolute() { path.to_path_buf() } else { assets.join(path) }
}

/// The outcome of `fixstep replay --verify`.
#[derive(Debug)]
pub enum Verified {
    /// Every recorded hash was reproduced.
    Ok {
        /// Ticks re-simulated.
        ticks: u32,
        /// Hashes compared.
        hashes: u32,
        /// The final hash.
        hash: Box<StateHash>,
    },
    /// A hash differed.
    Mismatch(String),
}

/// Reads a replay, rebuilds its level and re-simulates it, comparing hashes.
///
/// # Errors
///
/// An unreadable, damaged or foreign replay, or a level that no longer loads.
pub fn verify_replay(path: &Path, assets: &Path) -> Result<Verified> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read replay {}", path.display()))?;
    let replay: Replay<PlayerCommand> =
        Replay::from_bytes(&bytes).with_context(|| format!("replay {}", path.display()))?;
    let level = Arc::new(load(assets, &replay_level_path(&replay.header.level, assets))?);
    let mut sim = TownSim::new(level, replay.header.seed, usize::from(replay.header.players));
    let report = verify(&mut sim, &replay).with_context(|| format!("replay {}", path.display()))?;
    Ok(match report.first_mismatch {
        None => Verified::Ok {
            ticks: report.ticks,
            hashes: report.hashes_checked,
            hash: Box::new(report.final_hash),
        },
        Some(mismatch) => {
            let parts = mismatch
                .computed
                .parts()
                .iter()
                .map(|p| format!("{} {:016x}", p.name, p.hash))
                .collect::<Vec<_>>()
                .join(", ");
            Verified::Mismatch(format!("{mismatch} (computed parts: {parts})"))
        }
    })
}
