//! Re-simulating a replay and comparing every hash it holds.

use super::header::ReplayHeader;
use super::reader::{ReplayFile, ReplayStep};
use crate::error::ReplayError;
use crate::hash::{HashRecord, StateHash, StateHasher};
use crate::sim::Simulation;
use crate::tick::Tick;

/// A recorded hash that re-simulation did not reproduce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashMismatch {
    /// The first tick whose hash differs: the state after it (at a keyframe, the state at
    /// the keyframe, after the tick before it).
    pub tick: Tick,
    /// The hash the replay recorded for it.
    pub recorded: HashRecord,
    /// The hash re-simulation computed, with its partial hashes.
    pub computed: StateHash,
    /// The subsystems whose partial hashes differ, in hashing order: the first is where to
    /// look. A tick records its total only; its subsystems are then those that differ at the
    /// next keyframe, `subsystems_at`, which re-simulation runs on to. Empty when no keyframe
    /// follows.
    pub subsystems: Vec<String>,
    /// The tick the subsystems were compared at: this one's, or the next keyframe's (the
    /// state after the tick before it).
    pub subsystems_at: Tick,
}

impl core::fmt::Display for HashMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "tick {}: the replay recorded hash {:016x}, re-simulation computed {}",
            self.tick, self.recorded.total, self.computed
        )?;
        let when = if self.subsystems_at == self.tick {
            String::new()
        } else {
            format!(" by the keyframe after tick {}", self.subsystems_at)
        };
        match self.subsystems.split_first() {
            None => write!(f, " (no keyframe after it holds partial hashes to name a subsystem)"),
            Some((first, [])) => write!(f, "; the first subsystem that differs{when} is {first}"),
            Some((first, rest)) => write!(
                f,
                "; the first subsystem that differs{when} is {first} (then {})",
                rest.join(", ")
            ),
        }
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Ticks re-simulated.
    pub ticks: u32,
    /// Recorded hashes compared: a tick's total, and each keyframe's.
    pub hashes_checked: u32,
    /// States the host sent that replaced what the ticks led to, restored on the way.
    pub replaced: u32,
    /// The first hash that differs, if any; re-simulation stops there.
    pub first_mismatch: Option<HashMismatch>,
    /// The hash of the state after the last tick re-simulated.
    pub final_hash: StateHash,
}

/// Re-simulates `replay` and compares every hash it holds, stopping at the first that differs.
/// `sim` is a simulation of the replay's content: fresh (from the replay's seed and
/// [`ReplayFile::start_seats`]) for a replay that starts at tick 0 with a seed, which then
/// proves the start too; for one that starts later (a player who joined a running match) or
/// has no seed, the first keyframe is restored into it.
///
/// # Errors
///
/// [`ReplayError::OtherSimulation`] or [`ReplayError::SimVersionMismatch`] for a replay of
/// other rules, [`ReplayError::ContentMismatch`] for `sim` on other content,
/// [`ReplayError::ReplayPlayers`] for a fresh `sim` with other seats; and
/// [`ReplayError::Tick`] for a recorded tick that does not run.
pub fn verify<S: Simulation>(
    sim: &mut S,
    replay: &ReplayFile<S::Command>,
) -> Result<VerifyReport, ReplayError> {
    let header = replay.header();
    header.check_sim::<S>()?;
    let found = sim.content_digest();
    if header.content_digest != found {
        return Err(ReplayError::ContentMismatch { recorded: header.content_digest, found });
    }
    let mut hasher = StateHasher::new();
    let mut report = VerifyReport {
        ticks: 0,
        hashes_checked: 0,
        replaced: 0,
        first_mismatch: None,
        final_hash: sim.state_hash(),
    };
    let mut cursor = if replay.first_tick() == Tick::ZERO && header.seed.is_some() {
        if sim.players() != replay.start_seats() {
            return Err(ReplayError::ReplayPlayers {
                found: u16::try_from(replay.start_seats()).unwrap_or(u16::MAX),
                expected: sim.players(),
            });
        }
        // The first keyframe is the start the content and the seed make: check it.
        let recorded = replay.start_hash()?;
        report.hashes_checked += 1;
        if recorded.total != report.final_hash.total() {
            let subsystems = differing_subsystems(header, &recorded, &report.final_hash);
            let computed = report.final_hash.clone();
            report.first_mismatch = Some(HashMismatch {
                tick: Tick::ZERO,
                recorded,
                computed,
                subsystems,
                subsystems_at: Tick::ZERO,
            });
            return Ok(report);
        }
        replay.start()?
    } else {
        replay.seek(sim, replay.first_tick())?
    };
    while let Some(step) = replay.step(&mut cursor, sim)? {
        let (tick, recorded) = match step {
            ReplayStep::Tick(played) => {
                report.ticks += 1;
                (played.record.tick, HashRecord { total: played.hash, parts: Vec::new() })
            }
            ReplayStep::Keyframe { tick, hash } => (Tick(tick.0.saturating_sub(1)), hash),
            ReplayStep::Replaced(_) => {
                report.replaced += 1;
                continue;
            }
            ReplayStep::Roster(_) => continue,
        };
        sim.hash_state(&mut hasher);
        report.final_hash = hasher.finish_reuse();
        report.hashes_checked += 1;
        if recorded.total != report.final_hash.total() {
            let mut mismatch = HashMismatch {
                tick,
                subsystems: differing_subsystems(header, &recorded, &report.final_hash),
                recorded,
                computed: report.final_hash.clone(),
                subsystems_at: tick,
            };
            if mismatch.recorded.parts.is_empty() {
                name_at_next_keyframe(replay, &mut cursor, sim, &mut mismatch)?;
            }
            report.first_mismatch = Some(mismatch);
            return Ok(report);
        }
    }
    Ok(report)
}

/// Runs on from a tick whose total differed to the next keyframe that holds partial hashes,
/// and names the subsystems that differ there.
fn name_at_next_keyframe<S: Simulation>(
    replay: &ReplayFile<S::Command>,
    cursor: &mut super::ReplayCursor<S::Command>,
    sim: &mut S,
    mismatch: &mut HashMismatch,
) -> Result<(), ReplayError> {
    while let Some(step) = replay.step(cursor, sim)? {
        match step {
            ReplayStep::Keyframe { tick, hash } if !hash.parts.is_empty() => {
                let computed = sim.state_hash();
                mismatch.subsystems = differing_subsystems(replay.header(), &hash, &computed);
                mismatch.subsystems_at = Tick(tick.0.saturating_sub(1));
                return Ok(());
            }
            // A state the host sent: what differed before it is gone.
            ReplayStep::Replaced(_) => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}

/// The subsystems whose recorded partial hash differs from the computed one, in the header's
/// order; one the simulation no longer hashes counts as differing.
fn differing_subsystems(
    header: &ReplayHeader,
    recorded: &HashRecord,
    computed: &StateHash,
) -> Vec<String> {
    header
        .hash_parts
        .iter()
        .zip(&recorded.parts)
        .filter(|(name, hash)| computed.part(name) != Some(**hash))
        .map(|(name, _)| name.clone())
        .collect()
}
