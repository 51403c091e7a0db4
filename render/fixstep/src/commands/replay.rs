//! `fixstep replay`: reads a recording; with `--verify`, re-simulates it and checks its
//! hashes.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use fixstep_present::{CommandOf, Game};
use fixstep_runtime::ReplayError;
use fixstep_runtime::file::{content_path, read_bytes};
use fixstep_runtime::replay::{REPLAY_FILE, Replay, verify};

use super::{Paths, bad_input};

/// `fixstep replay`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct ReplayArgs {
    /// The replay file.
    pub file: PathBuf,
    /// Re-simulate and compare hashes.
    #[arg(long)]
    pub verify: bool,
}

/// The content file a replay header names: under `assets`, and nowhere else. The name is
/// checked before anything is opened: an absolute path, a `..` or a link out of the assets is
/// refused, naming the replay, its header record and the path.
///
/// # Errors
///
/// A name that leaves the assets, as a [`super::BadInput`].
pub fn replay_content_path(replay: &Path, name: &str, assets: &Path) -> Result<PathBuf> {
    content_path(assets, name).map_err(|e| {
        bad_input(anyhow!(
            "replay {}, record 0 (the header): its level path {e}; a replay names its level \
             under the assets",
            replay.display()
        ))
    })
}

/// What `fixstep replay` found.
#[derive(Debug)]
pub enum Replayed {
    /// What the replay holds, or that every recorded hash was reproduced: the line to print.
    Ok(String),
    /// A hash differed, as the message says.
    Mismatch(String),
}

/// Runs `fixstep replay`.
///
/// # Errors
///
/// An unreadable, damaged or foreign replay, or content that no longer loads.
pub fn run<G: Game>(args: &ReplayArgs, paths: &Paths) -> Result<Replayed> {
    let path = &args.file;
    let bytes = read_bytes(path, REPLAY_FILE).map_err(bad_input)?;
    // Another game's replay is refused by name, before its commands are read as this game's.
    let replay: Replay<CommandOf<G>> = match Replay::read_for::<G::Sim>(&bytes) {
        Err(ReplayError::OtherSimulation { recorded, running }) => {
            return Err(bad_input(anyhow!(
                "replay {} was recorded by {recorded}, and the {} runs {running}: choose its \
                 game with --game",
                path.display(),
                G::NAME
            )));
        }
        read => read.with_context(|| format!("replay {}", path.display())).map_err(bad_input)?,
    };
    let h = &replay.header;
    let level = replay_content_path(path, &h.level, &paths.assets)?;
    if !args.verify {
        return Ok(Replayed::Ok(format!(
            "replay of {} (simulation version {}, seed {}, {} players): {} ticks\n",
            h.level,
            h.sim_version,
            h.seed,
            h.players,
            replay.ticks.len(),
        )));
    }
    let content = paths.load::<G>(&level)?;
    let mut sim = G::new_sim(&content, h.seed, usize::from(h.players));
    let report = verify(&mut sim, &replay)
        .with_context(|| format!("replay {}", path.display()))
        .map_err(bad_input)?;
    Ok(match report.first_mismatch {
        None => Replayed::Ok(format!(
            "verified {} ticks, {} hashes match; final hash {}\n",
            report.ticks, report.hashes_checked, report.final_hash
        )),
        Some(mismatch) => {
            let parts = mismatch
                .computed
                .parts()
                .iter()
                .map(|p| format!("{} {:016x}", p.name, p.hash))
                .collect::<Vec<_>>()
                .join(", ");
            Replayed::Mismatch(format!(
                "replay {} does not verify: {mismatch} (computed parts: {parts})",
                path.display()
            ))
        }
    })
}
