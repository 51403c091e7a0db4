//! `fixstep desync-diff A B`: the differences of two state dumps (the RON of a desync report).

use std::path::Path;

use anyhow::{Context, Result};

use crate::net_game::desync::{MAX_LISTED_DIFFERENCES, differences};

/// Runs `fixstep desync-diff`: prints each difference as `PATH: A -> B`, and how many more
/// there are beyond the first [`MAX_LISTED_DIFFERENCES`]. Returns whether they differ.
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
    for d in all.iter().take(MAX_LISTED_DIFFERENCES) {
        println!("{}: {} -> {}", d.path, d.a, d.b);
    }
    if all.len() > MAX_LISTED_DIFFERENCES {
        println!("... and {} more", all.len() - MAX_LISTED_DIFFERENCES);
    }
    if all.is_empty() {
        println!("the states are equal");
    }
    Ok(!all.is_empty())
}
