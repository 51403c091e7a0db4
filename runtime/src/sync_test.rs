//! The determinism self-test: run a simulation while checking that it depends on nothing
//! but its state and its commands.
//!
//! Every tick, [`sync_test`] saves the state, steps, restores the saved state and steps the
//! same tick again: the two hashes must agree, or the tick read or wrote something outside the
//! state (a cache, a static, an iteration order). Every few ticks it also serializes the state,
//! builds a fresh simulation from the copy and runs it alongside: its hash stream must match,
//! or serialization loses something. A mismatch names the tick, the check and the subsystems.

use crate::error::{Desync, SyncCheck, SyncTestError};
use crate::hash::{StateHash, StateHasher};
use crate::sim::Simulation;
use crate::tick::Tick;

/// How long and how thoroughly to test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncTestConfig {
    /// Ticks to run.
    pub ticks: u32,
    /// Every this many ticks, the serialized-copy simulation is rebuilt from the current state
    /// (so serialization is tested at many points of a game); it runs alongside in between.
    pub roundtrip_every: u32,
}

/// What a passing self-test ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncTestReport {
    /// The total hash after each tick, in order.
    pub hashes: Vec<u64>,
    /// The full hash after the last tick.
    pub final_hash: StateHash,
}

/// Runs the determinism self-test on `sim`, from its next tick, for `config.ticks` ticks.
/// `fresh` builds a new simulation like `sim` was built (same level), into which serialized
/// states are restored; `commands` gives every tick's commands, one per player.
///
/// # Errors
///
/// [`SyncTestError::Desync`] at the first check that fails, [`SyncTestError::Encode`] or [`SyncTestError::Decode`] if
/// the state does not survive serialization, and any error of
/// [`Simulation::step`].
pub fn sync_test<S, F, C>(
    sim: &mut S,
    mut fresh: F,
    mut commands: C,
    config: SyncTestConfig,
) -> Result<SyncTestReport, SyncTestError>
where
    S: Simulation,
    F: FnMut() -> S,
    C: FnMut(Tick) -> Vec<S::Command>,
{
    let every = config.roundtrip_every.max(1);
    let mut hasher = StateHasher::new();
    let mut hashes = Vec::with_capacity(config.ticks as usize);
    let mut copy: Option<S> = None;
    let mut final_hash = sim.state_hash();
    for step in 0..config.ticks {
        let tick = sim.next_tick();
        let tick_commands = commands(tick);
        if step % every == 0 {
            let mut rebuilt = fresh();
            rebuilt.restore(&roundtrip(sim.state())?);
            copy = Some(rebuilt);
        }
        let saved = sim.state().clone();

        sim.step(tick, &tick_commands)?;
        let first = hash_of(sim, &mut hasher);
        sim.restore(&saved);
        sim.step(tick, &tick_commands)?;
        let again = hash_of(sim, &mut hasher);
        compare(tick, SyncCheck::Rollback, &first, &again)?;

        if let Some(copy) = copy.as_mut() {
            copy.step(tick, &tick_commands)?;
            compare(tick, SyncCheck::Roundtrip, &first, &hash_of(copy, &mut hasher))?;
        }
        hashes.push(first.total());
        final_hash = first;
    }
    Ok(SyncTestReport { hashes, final_hash })
}

fn hash_of<S: Simulation>(sim: &S, hasher: &mut StateHasher) -> StateHash {
    sim.hash_state(hasher);
    hasher.finish_reuse()
}

fn compare(
    tick: Tick,
    check: SyncCheck,
    expected: &StateHash,
    found: &StateHash,
) -> Result<(), SyncTestError> {
    if expected == found {
        return Ok(());
    }
    Err(SyncTestError::Desync(Box::new(Desync {
        tick,
        check,
        expected: expected.clone(),
        found: found.clone(),
    })))
}

/// The state after a trip through its wire encoding (postcard, as replays and the network use).
fn roundtrip<T: serde::Serialize + serde::de::DeserializeOwned>(
    state: &T,
) -> Result<T, SyncTestError> {
    let bytes = postcard::to_stdvec(state)
        .map_err(|source| SyncTestError::Encode { what: "the simulation state", source })?;
    postcard::from_bytes(&bytes)
        .map_err(|source| SyncTestError::Decode { what: "the serialized simulation state", source })
}
