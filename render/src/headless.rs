//! The headless commands: `fixstep sim` runs the town without a window, `fixstep replay`
//! checks a recording. No GPU and no floats are involved.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use fixstep_game::bots::Bot;
use fixstep_game::level::{Level, load_level};
use fixstep_game::script::CommandScript;
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::replay::{Replay, ReplayHeader, ReplayWriter, TickRecord, verify};
use fixstep_runtime::{Simulation, StateHash, StateHasher, Tick};

/// Where `assets/` is when no `--assets` is given: `./assets` if there is one, else the
/// workspace's own (for `cargo run` from anywhere in it).
#[must_use]
pub fn default_assets_root() -> PathBuf {
    let local = PathBuf::from("assets");
    if local.is_dir() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("assets")
}

/// Loads a level file, with the file named in the error.
///
/// # Errors
///
/// Every problem of the level, one per line, each with file, line and column.
pub fn load(assets: &Path, level: &Path) -> Result<Level> {
    load_level(assets, level).map_err(|e| anyhow::anyhow!("{e}"))
}

/// Where each player's commands come from.
pub enum Driver {
    /// A scripted bot.
    Bot(Box<Bot>),
    /// A line of a command script.
    Script,
}

/// What `fixstep sim` is asked to do.
#[derive(Debug)]
pub struct SimRun<'a> {
    /// The level file.
    pub level: &'a Path,
    /// The assets root.
    pub assets: &'a Path,
    /// Ticks to run.
    pub ticks: u32,
    /// Bot players (players 0..bots).
    pub bots: usize,
    /// A command script for further players.
    pub commands: Option<&'a Path>,
    /// Seed of the simulation's random numbers.
    pub seed: u64,
    /// Where to write `TICK HASH` lines.
    pub hash_log: Option<&'a Path>,
    /// Where to record a replay.
    pub record: Option<&'a Path>,
}

/// The players' drivers and the simulation for a run.
///
/// # Errors
///
/// A bad level or command script, or a script line for a bot's player.
pub fn prepare(run: &SimRun<'_>) -> Result<(TownSim, Vec<Driver>, CommandScript)> {
    let level = Arc::new(load(run.assets, run.level)?);
    let script = match run.commands {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read command script {}", path.display()))?;
            CommandScript::parse(&text).with_context(|| format!("command script {}", path.display()))?
        }
        None => CommandScript::default(),
    };
    if let Some(player) = (0..run.bots).find(|&p| script.drives(p)) {
        bail!(
            "command script {}: player {player} is a bot (bots are players 0..{}); number scripted players from {}",
            run.commands.map_or_else(String::new, |p| p.display().to_string()),
            run.bots,
            run.bots
        );
    }
    let players = run.bots.max(script.players());
    let drivers = (0..players)
        .map(|p| if p < run.bots { Driver::Bot(Box::new(Bot::new(p, &level))) } else { Driver::Script })
        .collect();
    Ok((TownSim::new(level, run.seed, players), drivers, script))
}

/// This tick's commands of every player.
pub fn commands_for(tick: Tick, sim: &TownSim, drivers: &mut [Driver], script: &CommandScript, out: &mut Vec<PlayerCommand>) {
    out.clear();
    let snapshot = sim.snapshot();
    for (player, driver) in drivers.iter_mut().enumerate() {
        out.push(match driver {
            Driver::Bot(bot) => bot.command(snapshot),
            Driver::Script => script.command(player, tick),
        });
    }
}

/// Runs `fixstep sim` and returns the final hash.
///
/// # Errors
///
/// A bad level or script, or a file that cannot be written.
pub fn run_sim(run: &SimRun<'_>) -> Result<(Tick, StateHash)> {
    let (mut sim, mut drivers, script) = prepare(run)?;
    let mut hash_log = match run.hash_log {
        Some(path) => Some(BufWriter::new(
            File::create(path).with_context(|| format!("cannot create hash log {}", path.display()))?,
        )),
        None => None,
    };
    let mut recorder = match run.record {
        Some(path) => {
            let file = File::create(path).with_context(|| format!("cannot create replay {}", path.display()))?;
            let header = ReplayHeader {
                sim_version: TownSim::VERSION,
                level: run.level.display().to_string(),
                seed: run.seed,
                players: u16::try_from(drivers.len()).context("more than 65,535 players")?,
            };
            Some(ReplayWriter::new(BufWriter::new(file), &header)?)
        }
        None => None,
    };
    let mut hasher = StateHasher::new();
    let mut commands = Vec::new();
    let mut hash = sim.state_hash();
    for _ in 0..run.ticks {
        let tick = sim.next_tick();
        commands_for(tick, &sim, &mut drivers, &script, &mut commands);
        sim.step(tick, &commands)?;
        sim.hash_state(&mut hasher);
        hash = hasher.finish_reuse();
        if let Some(log) = hash_log.as_mut() {
            writeln!(log, "{} {hash}", tick.0).context("cannot write the hash log")?;
        }
        if let Some(recorder) = recorder.as_mut() {
            recorder.record(&TickRecord { tick, commands: commands.clone(), hash: Some(hash.total()) })?;
        }
    }
    if let Some(mut log) = hash_log {
        log.flush().context("cannot write the hash log")?;
    }
    if let Some(mut recorder) = recorder {
        recorder.flush()?;
    }
    Ok((sim.next_tick(), hash))
}

/// The outcome of `fixstep replay --verify`.
#[derive(Debug)]
pub enum Verified {
    /// Every recorded hash was reproduced.
    Ok {
        /// Ticks re-simulated.
        ticks: u32,
        /// Hashes compared.
        hashes: u32,
        /// The final hash.
        hash: StateHash,
    },
    /// A hash differed.
    Mismatch(String),
}

/// Reads a replay, rebuilds its level and re-simulates it, comparing hashes.
///
/// # Errors
///
/// An unreadable, damaged or foreign replay, or a level that no longer loads.
pub fn verify_replay(path: &Path, assets: &Path) -> Result<Verified> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read replay {}", path.display()))?;
    let replay: Replay<PlayerCommand> =
        Replay::from_bytes(&bytes).with_context(|| format!("replay {}", path.display()))?;
    let level = Arc::new(load(assets, Path::new(&replay.header.level))?);
    let mut sim = TownSim::new(level, replay.header.seed, usize::from(replay.header.players));
    let report = verify(&mut sim, &replay).with_context(|| format!("replay {}", path.display()))?;
    Ok(match report.first_mismatch {
        None => Verified::Ok { ticks: report.ticks, hashes: report.hashes_checked, hash: report.final_hash },
        Some(mismatch) => {
            let parts = mismatch
                .computed
                .parts()
                .iter()
                .map(|p| format!("{} {:016x}", p.name, p.hash))
                .collect::<Vec<_>>()
                .join(", ");
            Verified::Mismatch(format!("{mismatch} (computed parts: {parts})"))
        }
    })
}
