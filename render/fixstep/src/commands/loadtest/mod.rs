//! `fixstep loadtest`: many virtual players and spectators against a host, measured as its
//! players meet it (see [`generator`]).

mod generator;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use clap::Args;
use fixstep_net::{MAX_PLAYERS, MAX_SPECTATORS};
use generator::{LoadOptions, LoadReport, run_load};

use super::join::resolve;
use super::secret::PasswordArgs;
use super::{Paths, bad_input};
use crate::games::Playable;

/// `fixstep loadtest`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct LoadtestArgs {
    /// The host, `HOST:PORT` (a `fixstep netem` in front of it tries a bad link).
    pub host: String,
    /// Virtual players.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_PLAYERS as i64))]
    pub peers: u16,
    /// Virtual spectators.
    #[arg(long, default_value_t = 0,
          value_parser = clap::value_parser!(u16).range(0..=MAX_SPECTATORS as i64))]
    pub spectators: u16,
    /// How long to measure once all are welcomed, seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32)
          .range(1..=i64::from(super::bounds::MAX_LOADTEST_SECONDS)))]
    pub duration: u32,
    /// The share of the players that move, per cent (the game's bots drive them); the rest
    /// stand still.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub moving: u8,
    /// The content file (default: the game's); it must be the host's.
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Where desync reports are written.
    #[arg(long, default_value = "desync-reports")]
    pub reports: PathBuf,
    /// Also write the measures to this file, as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// The session's password.
    #[command(flatten)]
    pub password: PasswordArgs,
}

/// Runs `fixstep loadtest`: the report, and whether the run failed (a desync, or a virtual
/// peer refused or cut off).
///
/// # Errors
///
/// A bad host address, level or password; no socket; a host state that does not decode.
pub fn run<G: Playable>(args: &LoadtestArgs, paths: &Paths) -> Result<(String, bool)> {
    let host = resolve(&args.host)?;
    let level_file = paths.content_file::<G>(args.level.as_deref());
    let content = paths.load::<G>(&level_file)?;
    let options = LoadOptions {
        host,
        admission: args.password.admission()?,
        players: usize::from(args.peers),
        spectators: usize::from(args.spectators),
        duration_micros: u64::from(args.duration) * 1_000_000,
        moving_percent: args.moving,
        reports: args.reports.clone(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    ctrlc::set_handler(move || stopping.store(true, Ordering::Relaxed))
        .context("cannot take the termination signals")?;
    tracing::info!(
        "loadtest of {} players and {} spectators against {host}",
        options.players,
        options.spectators
    );
    let report = run_load::<G>(&content, &options, || stop.load(Ordering::Relaxed))?;
    if let Some(file) = &args.json {
        let json = serde_json::to_string_pretty(&report).context("the report as JSON")?;
        std::fs::write(file, json + "\n")
            .with_context(|| format!("cannot write {}", file.display()))
            .map_err(bad_input)?;
    }
    Ok((format!("{report}\n"), failed(&report)))
}

/// Whether a run failed: a desync, a virtual peer refused or cut off, or one never welcomed.
fn failed(report: &LoadReport) -> bool {
    report.desyncs() > 0
        || !report.failures.is_empty()
        || report.welcomed < report.players
        || report.spectators_welcomed < report.spectators
}
