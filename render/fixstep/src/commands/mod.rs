//! The `fixstep` commands, a module each, every one written once for any game (see
//! [`crate::games`]). What they share is here: loading a game's content and scripts, the logs
//! of a headless run, and the error that marks a bad input.

pub mod about;
#[cfg(feature = "agones")]
pub mod agones;
pub mod bounds;
pub mod desync_diff;
pub mod host;
pub mod join;
pub mod judder;
pub mod lan;
pub mod loadtest;
pub mod netem;
pub mod play;
pub mod rendezvous;
pub mod replay;
pub mod screenshot;
pub mod secret;
pub mod sim;
pub mod spectate;
pub mod sync_test;
mod timing;
pub mod trace;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use fixstep_net::WallClock;
use fixstep_present::record::{DrawnLog, HeldMark, TruthLog};
use fixstep_present::{CommandOf, Game, SnapshotOf};
use fixstep_runtime::file::read_text;
use fixstep_runtime::script::{COMMAND_SCRIPT_FILE, CommandScript, INPUT_SCRIPT_FILE, InputScript};
use fixstep_runtime::{StateHash, Tick};

/// A mistake in what the user gave (a flag's value, a file, an address): the program exits
/// with [`crate::cli::EXIT_USAGE`] instead of 1, which is for failures of the program or the
/// network.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct BadInput(#[from] pub anyhow::Error);

/// Marks an error as the user's input's.
pub fn bad_input(error: impl Into<anyhow::Error>) -> anyhow::Error {
    BadInput(error.into()).into()
}

/// Where a command's files are.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The assets root.
    pub assets: PathBuf,
}

impl Paths {
    /// The content file: `given`, or the game's default under the assets.
    #[must_use]
    pub fn content_file<G: Game>(&self, given: Option<&Path>) -> PathBuf {
        given.map_or_else(|| G::default_content(&self.assets), Path::to_path_buf)
    }

    /// Loads game `G`'s content from `file`; every problem is named with its file and line.
    ///
    /// # Errors
    ///
    /// A file that does not load, as a [`BadInput`].
    pub fn load<G: Game>(&self, file: &Path) -> Result<Arc<G::Content>> {
        G::load_content(&self.assets, file).map(Arc::new).map_err(bad_input)
    }
}

/// Reads a command script of game `G`, if one is named.
///
/// # Errors
///
/// An unreadable or malformed script, as a [`BadInput`] naming the file and line.
pub fn read_command_script<G: Game>(
    path: Option<&Path>,
) -> Result<Option<CommandScript<CommandOf<G>>>> {
    let Some(path) = path else { return Ok(None) };
    let text = read_text(path, COMMAND_SCRIPT_FILE).map_err(bad_input)?;
    let script = CommandScript::parse(&text)
        .with_context(|| format!("command script {}", path.display()))
        .map_err(bad_input)?;
    Ok(Some(script))
}

/// Reads an input script of game `G`, if one is named.
///
/// # Errors
///
/// An unreadable or malformed script, as a [`BadInput`] naming the file and line.
pub fn read_input_script<G: Game>(
    path: Option<&Path>,
) -> Result<Option<InputScript<CommandOf<G>>>> {
    let Some(path) = path else { return Ok(None) };
    let text = read_text(path, INPUT_SCRIPT_FILE).map_err(bad_input)?;
    let script = InputScript::parse(&text)
        .with_context(|| format!("input script {}", path.display()))
        .map_err(bad_input)?;
    Ok(Some(script))
}

/// What `script` holds over a frame of `elapsed_micros` ending at `now_micros`, a press
/// during it included (nothing without a script).
#[must_use]
pub fn held_at<C: fixstep_runtime::script::TextCommand>(
    script: Option<&InputScript<C>>,
    now_micros: u64,
    elapsed_micros: u64,
) -> C {
    let before_ms = now_micros.saturating_sub(elapsed_micros) / 1000;
    script.map_or_else(C::default, |s| s.frame(before_ms, now_micros / 1000))
}

/// The mark of a frame at `now_micros` holding `held` as `script` says, for a drawn log.
#[must_use]
pub fn held_mark<G: Game>(
    script: Option<&InputScript<CommandOf<G>>>,
    now_micros: u64,
    held: &CommandOf<G>,
) -> Option<HeldMark> {
    let since = script?.changed_at(now_micros / 1000)?;
    Some(HeldMark { since_ms: since as f64, held: G::held_numbers(held) })
}

/// Sleeps until `clock` reads `until_micros` (at once if it has).
pub fn sleep_until(clock: &WallClock, until_micros: u64) {
    let now = clock.now_micros();
    if until_micros > now {
        std::thread::sleep(std::time::Duration::from_micros(until_micros - now));
    }
}

/// What a headless network run does and logs (the formats of `fixstep sim`).
#[derive(Clone, Debug, Args)]
pub struct NetLogArgs {
    /// Run without a window. What follows is what a headless run does and logs; a window
    /// refuses it rather than ignore it.
    #[arg(long)]
    pub headless: bool,
    /// Stop once the game has run to this tick: the host after running this many, a peer
    /// once it has run the host's ticks up to it (counted from the match's start, as the hash
    /// logs count them, whenever the peer joined).
    #[arg(long, requires = "headless",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(bounds::MAX_TICKS)))]
    pub ticks: Option<u32>,
    /// Let the game's bot play this process's character. Without it a headless host plays no
    /// character of its own, and a headless peer's stands still unless `--input-script` moves
    /// it.
    #[arg(long, requires = "headless")]
    pub bot: bool,
    /// Hold keys as this script says (`MS 0 FIELDS`, the game's command fields; the town's
    /// are `FORWARD STRAFE TURN [run] [interact]`).
    #[arg(long, requires = "headless")]
    pub input_script: Option<PathBuf>,
    /// Write `TICK HASH` for every tick run.
    #[arg(long, requires = "headless")]
    pub hash_log: Option<PathBuf>,
    /// Write what every frame drew (JSON Lines).
    #[arg(long, requires = "headless")]
    pub drawn_log: Option<PathBuf>,
    /// Write where everything is at every tick (JSON Lines).
    #[arg(long, requires = "headless")]
    pub truth_log: Option<PathBuf>,
    /// Frames a second of a headless run that draws (with --drawn-log; at most 1000).
    #[arg(long, default_value_t = 60.0, value_parser = bounds::frames_per_second)]
    pub fps: f64,
}

/// Microseconds in a second.
const MICROS_PER_SECOND: f64 = 1_000_000.0;

/// The slowest and fastest frame rates a headless run draws at, frames a second: a frame a
/// second still moves, and beyond a thousand a frame is shorter than a socket's look.
const FPS_RANGE: (f64, f64) = (1.0, 1_000.0);

impl NetLogArgs {
    /// A frame at `--fps`, microseconds.
    #[must_use]
    pub fn frame_micros(&self) -> u64 {
        frame_micros(self.fps)
    }
}

/// A frame at `fps` frames a second (clamped to [`FPS_RANGE`]), microseconds.
#[must_use]
pub fn frame_micros(fps: f64) -> u64 {
    (MICROS_PER_SECOND / fps.clamp(FPS_RANGE.0, FPS_RANGE.1)).round() as u64
}

/// A file created for writing, named in the error.
///
/// # Errors
///
/// If it cannot be created.
pub fn create(path: &Path, what: &str) -> Result<BufWriter<File>> {
    Ok(BufWriter::new(
        File::create(path).with_context(|| format!("cannot create {what} {}", path.display()))?,
    ))
}

/// The logs of a run: hashes, truth and what was drawn.
pub struct Logs<G: Game> {
    hashes: Option<BufWriter<File>>,
    truth: Option<TruthLog<G, BufWriter<File>>>,
    drawn: Option<DrawnLog<BufWriter<File>>>,
}

impl<G: Game> Logs<G> {
    /// Opens the logs asked for, of a game of `content`.
    ///
    /// # Errors
    ///
    /// If one cannot be created.
    pub fn open(
        hash_log: Option<&Path>,
        truth_log: Option<&Path>,
        drawn_log: Option<&Path>,
        content: &Arc<G::Content>,
    ) -> Result<Self> {
        let hashes = hash_log.map(|p| create(p, "hash log")).transpose()?;
        let truth = truth_log.map(|p| create(p, "truth log")).transpose()?;
        let drawn = drawn_log.map(|p| create(p, "drawn log")).transpose()?;
        Ok(Self {
            hashes,
            truth: truth.map(|t| TruthLog::new(t, Arc::clone(content))),
            drawn: drawn.map(DrawnLog::new),
        })
    }

    /// Opens the logs of a headless network run.
    ///
    /// # Errors
    ///
    /// If one cannot be created.
    pub fn of(args: &NetLogArgs, content: &Arc<G::Content>) -> Result<Self> {
        Self::open(
            args.hash_log.as_deref(),
            args.truth_log.as_deref(),
            args.drawn_log.as_deref(),
            content,
        )
    }

    /// Whether frames are drawn and logged.
    #[must_use]
    pub const fn draws(&self) -> bool {
        self.drawn.is_some()
    }

    /// The truth of a snapshot after `ticks` ticks (the first, before any tick, at 0).
    ///
    /// # Errors
    ///
    /// If the log cannot be written.
    pub fn truth(&mut self, ticks: Tick, snapshot: &Arc<SnapshotOf<G>>) -> Result<()> {
        if let Some(truth) = self.truth.as_mut() {
            truth.snapshot(ticks, snapshot).context("cannot write the truth log")?;
        }
        Ok(())
    }

    /// A tick run: its hash, and the truth after it. The hash line is written out at once (a
    /// write a tick): a process killed mid-game (a crash, `kill -9`) leaves every tick it ran,
    /// to compare with the others' logs, not only the last full buffer's.
    ///
    /// # Errors
    ///
    /// If a log cannot be written.
    pub fn tick(
        &mut self,
        tick: Tick,
        hash: &StateHash,
        snapshot: &Arc<SnapshotOf<G>>,
    ) -> Result<()> {
        if let Some(log) = self.hashes.as_mut() {
            writeln!(log, "{} {hash}", tick.0)
                .and_then(|()| log.flush())
                .context("cannot write the hash log")?;
        }
        self.truth(tick.next(), snapshot)
    }

    /// A frame drawn at `at_ms`, as `presentation` drew it.
    ///
    /// # Errors
    ///
    /// If the log cannot be written.
    pub fn frame(
        &mut self,
        at_ms: f64,
        presentation: &G::Presentation,
        held: Option<&HeldMark>,
    ) -> Result<()> {
        if let Some(drawn) = self.drawn.as_mut() {
            drawn.frame::<G>(at_ms, presentation, held).context("cannot write the drawn log")?;
        }
        Ok(())
    }

    /// A frame drawn at `at_ms` that `record` writes.
    ///
    /// # Errors
    ///
    /// If the log cannot be written.
    pub fn frame_with(
        &mut self,
        at_ms: f64,
        record: impl FnOnce(&mut fixstep_present::format::DrawnFrame),
    ) -> Result<()> {
        if let Some(drawn) = self.drawn.as_mut() {
            drawn.write(at_ms, None, record).context("cannot write the drawn log")?;
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
