//! `fixstep sync-test`: the determinism self-test of a game. Every tick the state is saved,
//! the tick run, the state restored and the tick run again, and every few ticks the state is
//! serialized into a fresh simulation that runs alongside: every hash must agree, or the
//! first tick, check and subsystem that differ are named.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args;
use fixstep_present::Game;
use fixstep_runtime::sync_test::{SyncTestConfig, sync_test};
use fixstep_runtime::{Simulation, Tick};

use super::Paths;
use super::sim::Drivers;

/// `fixstep sync-test`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct SyncTestArgs {
    /// The content file (default: the game's).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Ticks to test.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(0..=i64::from(super::bounds::MAX_TICKS)))]
    pub ticks: u32,
    /// Scripted bot players (players 0..K).
    #[arg(long, default_value_t = 2,
          value_parser = super::bounds::up_to(u64::from(super::bounds::MAX_BOTS)))]
    pub bots: usize,
    /// A command script for further players.
    #[arg(long)]
    pub commands: Option<PathBuf>,
    /// Every this many ticks a fresh simulation is made from the serialized state.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u32).range(1..))]
    pub roundtrip_every: u32,
    /// Seed of the simulation's random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `fixstep sync-test`; returns the line to print.
///
/// # Errors
///
/// Bad input, or the first check that failed: the simulation is not deterministic.
pub fn run<G: Game>(args: &SyncTestArgs, paths: &Paths) -> Result<String> {
    let file = paths.content_file::<G>(args.level.as_deref());
    let content = paths.load::<G>(&file)?;
    let mut drivers = Drivers::<G>::new(&content, args.commands.as_deref(), 0, args.bots)?;
    let players = drivers.players();
    let mut sim = G::new_sim(&content, args.seed, players);
    let mut shadow = G::new_sim(&content, args.seed, players);
    let config = SyncTestConfig { ticks: args.ticks, roundtrip_every: args.roundtrip_every };
    // The bots read the snapshot of the tick before, as they would in play: a shadow
    // simulation runs the same commands to give it to them.
    let mut commands = Vec::new();
    let report = sync_test(
        &mut sim,
        || G::new_sim(&content, args.seed, players),
        |tick: Tick| {
            drivers.commands(tick, &shadow, None, &mut commands);
            // The shadow runs in step; a refused tick shows in the test itself.
            let _ = shadow.step(tick, &commands);
            commands.clone()
        },
        config,
    )
    .map_err(|e| anyhow!("the {} is not deterministic: {e}", G::NAME))?;
    Ok(format!(
        "{} ticks of the {} pass the sync test; final hash {}\n",
        report.hashes.len(),
        G::NAME,
        report.final_hash
    ))
}
