//! `fixstep spectate`: watches a network game without simulating it, headless or in a window.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use fixstep_net::WallClock;
use glam::Vec3;

use super::join::resolve;
use super::sleep_until;
use crate::assets::{default_level, load};
use crate::net_game::NetSpectator;
use crate::trace::RemoteFrameWriter;

/// How long a spectator waits for its first snapshot before it gives up, microseconds.
const FIRST_SNAPSHOT_TIMEOUT_MICROS: u64 = 10_000_000;

/// `fixstep spectate`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct SpectateArgs {
    /// The host, `HOST:PORT`.
    pub host: String,
    /// The spectator's name.
    #[arg(long, default_value = "spectator")]
    pub name: String,
    /// The level file (default: the town, `levels/town.ron` under the assets).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Run without a window.
    #[arg(long)]
    pub headless: bool,
    /// Stop after watching this many ticks.
    #[arg(long)]
    pub ticks: Option<u32>,
    /// Write what every frame drew (the trace format's drawn log).
    #[arg(long)]
    pub drawn_log: Option<PathBuf>,
    /// Frames a second.
    #[arg(long, default_value_t = 60.0)]
    pub fps: f64,
}

/// Runs `fixstep spectate`.
///
/// # Errors
///
/// A bad host address or level; a connection refused, lost or never made.
pub fn run(args: &SpectateArgs, assets: &Path) -> Result<()> {
    let host = resolve(&args.host)?;
    let level_file = args.level.clone().unwrap_or_else(|| default_level(assets));
    if !args.headless {
        return crate::app::run_network_play(
            &crate::app::NetworkPlay::Spectate { host, name: args.name.clone(), level_file },
            assets,
        )
        .map_err(crate::app::PlayError::into_anyhow);
    }
    let level = load(assets, &level_file)?;
    let mut spectator = NetSpectator::connect(&level, host, &args.name)?;
    spectator.look_at(Vec3::ZERO);
    let mut log = match &args.drawn_log {
        Some(path) => Some(RemoteFrameWriter::new(BufWriter::new(
            File::create(path)
                .with_context(|| format!("cannot create drawn log {}", path.display()))?,
        ))),
        None => None,
    };
    let frame_micros = (1e6 / args.fps.clamp(1.0, 1_000.0)).round() as u64;
    let clock = WallClock::new();
    let mut last = clock.now_micros();
    let mut first_tick = None;
    loop {
        let now = clock.now_micros();
        let elapsed = now - last;
        last = now;
        spectator.receive(elapsed)?;
        if let Some(goodbye) = spectator.ended() {
            eprintln!("fixstep: {goodbye}");
            break;
        }
        if spectator.snapshots() == 0 && now > FIRST_SNAPSHOT_TIMEOUT_MICROS {
            bail!(
                "no snapshot from the host at {host} in {} s",
                FIRST_SNAPSHOT_TIMEOUT_MICROS / 1_000_000
            );
        }
        let (frame, objects, _) = spectator.draw();
        let render_tick = frame.render_tick;
        if let Some(log) = log.as_mut() {
            log.frame_with_objects(now as f64 / 1000.0, frame, objects, &level)
                .context("cannot write the drawn log")?;
        }
        spectator.send()?;
        if render_tick.is_finite() {
            let first = *first_tick.get_or_insert(render_tick);
            if args.ticks.is_some_and(|t| render_tick - first >= f64::from(t)) {
                break;
            }
        }
        sleep_until(&clock, now + frame_micros);
    }
    spectator.disconnect();
    if let Some(log) = log {
        log.finish().context("cannot write the drawn log")?;
    }
    println!("watched {} snapshots of {} entities", spectator.snapshots(), spectator.view().len());
    Ok(())
}
