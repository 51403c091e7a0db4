//! `fixstep desync-diff A [B]`: the differences of two state dumps (the RON of a desync
//! report); or of the state a report's replay re-simulates to against the report's dumps.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use fixstep_netplay::desync::{MAX_LISTED_DIFFERENCES, differences, read_state_dump, state_ron};
use fixstep_netplay_view::NetGame;
use fixstep_runtime::Simulation;
use fixstep_runtime::replay::{REPLAY_FILE, REPLAY_SIGNATURE};
use fixstep_runtime::rules::StateOf;

use super::{bad_input, replay};

/// `fixstep desync-diff`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct DesyncDiffArgs {
    /// The first state (a report's `host.ron`), or a report's `replay.fxr`: the state it
    /// re-simulates to, on this machine.
    pub a: PathBuf,
    /// The second state (its `peer.ron`). Left out after a report's replay: the state it
    /// re-simulates to is compared with both of the report's.
    pub b: Option<PathBuf>,
}

/// Whether `path` starts as a replay does (its first bytes read, within a replay's limit).
fn is_replay(path: &Path) -> bool {
    fixstep_runtime::file::open(path, REPLAY_FILE).is_ok_and(|mut file| {
        let mut start = [0_u8; REPLAY_SIGNATURE.len()];
        std::io::Read::read_exact(&mut file, &mut start).is_ok() && start == REPLAY_SIGNATURE
    })
}

/// Runs `fixstep desync-diff`: the text to print (each difference as `PATH: A -> B`, and how
/// many more there are beyond the first [`MAX_LISTED_DIFFERENCES`], naming the entity of each),
/// and whether they differ. After a report's replay without a second state, the replay's
/// state is compared with the report's `host.ron` and `peer.ron` in turn, and they differ
/// when it equals neither.
///
/// # Errors
///
/// A file that cannot be read or is not a state of the game (named, with its line), or a
/// replay that does not re-simulate, as a bad input.
pub fn run<G: NetGame>(args: &DesyncDiffArgs) -> Result<(String, bool)> {
    let a_text = if is_replay(&args.a) { replayed::<G>(&args.a)? } else { dump::<G>(&args.a)? };
    if let Some(b) = &args.b {
        return compare::<G>(&a_text, &dump::<G>(b)?);
    }
    if !is_replay(&args.a) {
        return Err(bad_input(anyhow!(
            "desync-diff {}: name a second state to compare it with",
            args.a.display()
        )));
    }
    let folder = args.a.parent().unwrap_or_else(|| Path::new("."));
    let mut out = String::new();
    let mut equal_to_one = false;
    for side in ["host", "peer"] {
        let dump_path = folder.join(format!("{side}.ron"));
        let (text, differ) = compare::<G>(&a_text, &dump::<G>(&dump_path)?)?;
        equal_to_one |= !differ;
        let _ = writeln!(out, "re-simulated against the {side}'s state ({}):", dump_path.display());
        out.push_str(&text);
    }
    Ok((out, !equal_to_one))
}

/// The text of the state dump at `path`, checked to be a state of `G`.
fn dump<G: NetGame>(path: &Path) -> Result<String> {
    Ok(read_state_dump::<G>(path).map_err(bad_input)?.0)
}

/// The state the replay at `path` re-simulates to (its desync's tick, or its end), as a dump.
fn replayed<G: NetGame>(path: &Path) -> Result<String> {
    let (loaded, mut sim) = replay::load::<G>(path)?;
    let file = &loaded.replay;
    let to = file.header().desync.map_or(file.end_tick(), |note| note.tick.next());
    file.seek(&mut sim, to)
        .with_context(|| format!("replay {}", path.display()))
        .map_err(bad_input)?;
    state_ron(sim.state()).with_context(|| format!("replay {}: its state", path.display()))
}

/// The differences of two dumps of `G`'s state, named by entity where the game can.
fn compare<G: NetGame>(ta: &str, tb: &str) -> Result<(String, bool)> {
    let state: StateOf<G> = ron::from_str(ta).map_err(bad_input)?;
    // Both are states of the game: their RON compares.
    let all = differences(ta, tb, usize::MAX).map_err(bad_input)?;
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
