//! `fixstep desync-diff A B`: the differences of two state dumps (the RON of a desync report).

use std::path::Path;

use anyhow::{Context, Result};

use fixstep_game::state::GameState;

use crate::net_game::desync::{MAX_LISTED_DIFFERENCES, differences, entity_at};

/// Runs `fixstep desync-diff`: prints each difference as `PATH: A -> B`, and how many more
/// there are beyond the first [`MAX_LISTED_DIFFERENCES`], naming the entity of each where the
/// first dump reads as a town's state. Returns whether they differ.
///
/// # Errors
///
/// A file that cannot be read or is not RON (named).
pub fn run(a: &Path, b: &Path) -> Result<bool> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).with_context(|| format!("cannot read the state {}", p.display()))
    };
    let (ta, tb) = (read(a)?, read(b)?);
    let all = differences(&ta, &tb, usize::MAX)
        .with_context(|| format!("{} and {}", a.display(), b.display()))?;
    let state: Option<GameState> = ron::from_str(&ta).ok();
    for d in all.iter().take(MAX_LISTED_DIFFERENCES) {
        match state.as_ref().and_then(|s| entity_at(&d.path, s)) {
            Some(entity) => println!("{}: {} -> {}  ({entity})", d.path, d.a, d.b),
            None => println!("{}: {} -> {}", d.path, d.a, d.b),
        }
    }
    if all.len() > MAX_LISTED_DIFFERENCES {
        println!("... and {} more", all.len() - MAX_LISTED_DIFFERENCES);
    }
    if all.is_empty() {
        println!("the states are equal");
    }
    Ok(!all.is_empty())
}
