//! `fixstep desync-diff A B`: the differences of two state dumps (the RON of a desync report).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use fixstep_netplay::desync::{MAX_LISTED_DIFFERENCES, differences, read_state_dump};
use fixstep_netplay_view::NetGame;

use super::bad_input;

/// `fixstep desync-diff`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct DesyncDiffArgs {
    /// The first state (a report's `host.ron`).
    pub a: PathBuf,
    /// The second state (its `peer.ron`).
    pub b: PathBuf,
}

/// Runs `fixstep desync-diff`: the text to print (each difference as `PATH: A -> B`, and how
/// many more there are beyond the first [`MAX_LISTED_DIFFERENCES`], naming the entity of each),
/// and whether they differ.
///
/// # Errors
///
/// A file that cannot be read or is not a state of the game (named, with its line), as a bad
/// input.
pub fn run<G: NetGame>(args: &DesyncDiffArgs) -> Result<(String, bool)> {
    let (ta, state) = read_state_dump::<G>(&args.a).map_err(bad_input)?;
    let (tb, _) = read_state_dump::<G>(&args.b).map_err(bad_input)?;
    // Both are states of the game: their RON compares.
    let all = differences(&ta, &tb, usize::MAX).map_err(bad_input)?;
    let mut out = String::new();
    for d in all.iter().take(MAX_LISTED_DIFFERENCES) {
        match G::entity_at(&state, &d.path) {
            Some(entity) => out.push_str(&format!("{}: {} -> {}  ({entity})\n", d.path, d.a, d.b)),
            None => out.push_str(&format!("{}: {} -> {}\n", d.path, d.a, d.b)),
        }
    }
    if all.len() > MAX_LISTED_DIFFERENCES {
        out.push_str(&format!("... and {} more\n", all.len() - MAX_LISTED_DIFFERENCES));
    }
    if all.is_empty() {
        out.push_str("the states are equal\n");
    }
    Ok((out, !all.is_empty()))
}
