//! The `fixstep` commands, a module each. Library code (the presentation, the renderer, the
//! desktop game) never imports these; they import it.

pub mod desync_diff;
pub mod host;
pub mod join;
pub mod netem;
pub mod replay;
pub mod sim;
pub mod spectate;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use fixstep_game::level::Level;
use fixstep_game::script::InputScript;
use fixstep_game::{GameSnapshot, PlayerCommand};
use fixstep_net::WallClock;
use fixstep_runtime::{StateHash, Tick};

use crate::present::DrawFrame;
use crate::record::{DrawnLog, HeldMark, TruthLog};

/// What a headless network run does and logs (the formats of `fixstep sim`).
#[derive(Clone, Debug, Args)]
pub struct NetLogArgs {
    /// Run without a window.
    #[arg(long)]
    pub headless: bool,
    /// Stop after this many ticks.
    #[arg(long)]
    pub ticks: Option<u32>,
    /// Play a scripted bot (a headless host plays no character of its own without one).
    #[arg(long)]
    pub bot: bool,
    /// Hold keys as this script says (`MS 0 FORWARD STRAFE TURN [run] [interact]`).
    #[arg(long)]
    pub input_script: Option<PathBuf>,
    /// Write `TICK HASH` for every tick run.
    #[arg(long)]
    pub hash_log: Option<PathBuf>,
    /// Write what every frame drew (JSON Lines).
    #[arg(long)]
    pub drawn_log: Option<PathBuf>,
    /// Write where everything is at every tick (JSON Lines).
    #[arg(long)]
    pub truth_log: Option<PathBuf>,
    /// Frames a second of a headless run that draws (with --drawn-log).
    #[arg(long, default_value_t = 60.0)]
    pub fps: f64,
}

/// Microseconds in a second.
const MICROS_PER_SECOND: f64 = 1_000_000.0;

impl NetLogArgs {
    /// A frame at `--fps`, microseconds.
    #[must_use]
    pub fn frame_micros(&self) -> u64 {
        (MICROS_PER_SECOND / self.fps.clamp(1.0, 1_000.0)).round() as u64
    }
}

fn create(path: &Path, what: &str) -> Result<BufWriter<File>> {
    Ok(BufWriter::new(
        File::create(path).with_context(|| format!("cannot create {what} {}", path.display()))?,
    ))
}

/// The logs of a network run.
pub struct Logs {
    level: std::sync::Arc<Level>,
    hashes: Option<BufWriter<File>>,
    truth: Option<TruthLog<BufWriter<File>>>,
    drawn: Option<DrawnLog<BufWriter<File>>>,
}

impl Logs {
    /// Opens the logs `args` ask for.
    ///
    /// # Errors
    ///
    /// If one cannot be created.
    pub fn open(args: &NetLogArgs, level: &std::sync::Arc<Level>) -> Result<Self> {
        let hashes = args.hash_log.as_deref().map(|p| create(p, "hash log")).transpose()?;
        let truth = args.truth_log.as_deref().map(|p| create(p, "truth log")).transpose()?;
        let drawn = args.drawn_log.as_deref().map(|p| create(p, "drawn log")).transpose()?;
        Ok(Self {
            level: std::sync::Arc::clone(level),
            hashes,
            truth: truth.map(TruthLog::new),
            drawn: drawn.map(DrawnLog::new),
        })
    }

    /// Whether frames are drawn and logged.
    #[must_use]
    pub const fn draws(&self) -> bool {
        self.drawn.is_some()
    }

    /// The truth of a snapshot (the first, before any tick).
    ///
    /// # Errors
    ///
    /// If the log cannot be written.
    pub fn truth(&mut self, snapshot: &GameSnapshot) -> Result<()> {
        if let Some(truth) = self.truth.as_mut() {
            truth.snapshot(snapshot, &self.level).context("cannot write the truth log")?;
        }
        Ok(())
    }

    /// A tick run: its hash, and the truth after it.
    ///
    /// # Errors
    ///
    /// If a log cannot be written.
    pub fn tick(&mut self, tick: Tick, hash: &StateHash, snapshot: &GameSnapshot) -> Result<()> {
        if let Some(log) = self.hashes.as_mut() {
            writeln!(log, "{} {hash}", tick.0).context("cannot write the hash log")?;
        }
        self.truth(snapshot)
    }

    /// A frame drawn at `at_ms`.
    ///
    /// # Errors
    ///
    /// If the log cannot be written.
    pub fn frame(&mut self, at_ms: f64, frame: &DrawFrame, held: Option<&HeldMark>) -> Result<()> {
        if let Some(drawn) = self.drawn.as_mut() {
            drawn.frame(at_ms, frame, &self.level, held).context("cannot write the drawn log")?;
        }
        Ok(())
    }

    /// Flushes every log.
    ///
    /// # Errors
    ///
    /// If one cannot be written.
    pub fn finish(self) -> Result<()> {
        if let Some(mut log) = self.hashes {
            log.flush().context("cannot write the hash log")?;
        }
        if let Some(truth) = self.truth {
            truth.finish().context("cannot write the truth log")?;
        }
        if let Some(drawn) = self.drawn {
            drawn.finish().context("cannot write the drawn log")?;
        }
        Ok(())
    }
}

/// Reads an input script, if one is named.
///
/// # Errors
///
/// An unreadable or malformed script.
pub fn open_input_script(path: Option<&Path>) -> Result<Option<InputScript>> {
    path.map(sim::read_input_script).transpose()
}

/// What `script` holds over a frame of `elapsed_micros` ending at `now_micros`, an interact
/// pressed during it included (nothing without a script).
#[must_use]
pub fn held_at(
    script: Option<&InputScript>,
    now_micros: u64,
    elapsed_micros: u64,
) -> PlayerCommand {
    let before_ms = now_micros.saturating_sub(elapsed_micros) / 1000;
    script.map_or_else(PlayerCommand::default, |s| s.frame(before_ms, now_micros / 1000))
}

/// The held input's latest change, for a drawn log.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeldFrame;

impl HeldFrame {
    /// The mark of a frame at `now_micros` holding `held` as `script` says.
    #[must_use]
    pub fn mark(
        self,
        script: Option<&InputScript>,
        now_micros: u64,
        held: PlayerCommand,
    ) -> Option<HeldMark> {
        let script = script?;
        let since = script.changed_at(now_micros / 1000)?;
        Some(HeldMark { since_ms: since as f64, held })
    }
}

/// Sleeps until `clock` reads `until_micros` (at once if it has).
pub fn sleep_until(clock: &WallClock, until_micros: u64) {
    let now = clock.now_micros();
    if until_micros > now {
        std::thread::sleep(std::time::Duration::from_micros(until_micros - now));
    }
}
