//! `fixstep sim`: the town without a window, from bots, command scripts or an input script,
//! writing hash logs, replays, drawn and truth logs. No GPU is involved.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use fixstep_game::bots::Bot;

use fixstep_game::predict::{InputAccumulator, OwnRules};
use fixstep_game::script::{CommandScript, InputScript};
use fixstep_game::{PlayerCommand, TownSim};
use fixstep_runtime::replay::{ReplayHeader, ReplayWriter, TickRecord};
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{Simulation, StateHash, StateHasher, Tick};

use crate::assets::load;
use crate::present::LocalPresentation;
use crate::record::{DrawnLog, HeldMark, TruthLog};

/// The level's name in a replay header: its path under `assets/` (with `/`), so the replay
/// verifies from any directory and on any machine with the same assets; a level from
/// elsewhere is named by its absolute path.
fn replay_level_name(source: &str, level_file: &Path, assets: &Path) -> String {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    let file = canonical(level_file);
    if file.is_some() && canonical(&assets.join(source)) == file {
        return source.to_owned();
    }
    file.map_or_else(|| level_file.display().to_string(), |f| f.display().to_string())
}

/// Where each player's commands come from.
pub enum Driver {
    /// A scripted bot.
    Bot(Box<Bot>),
    /// A line of a command script.
    Script,
    /// Held input integrated over each tick, as a window reads its keys: the local player of
    /// an input script.
    Held,
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
    /// A script of what the local player (player 0) holds at real times; the bots are then
    /// players 1 to `bots`.
    pub input_script: Option<&'a Path>,
    /// Draw the input script's player between ticks like everyone else instead of from the
    /// prediction (to compare the two).
    pub no_predict: bool,
    /// Seed of the simulation's random numbers.
    pub seed: u64,
    /// Where to write `TICK HASH` lines.
    pub hash_log: Option<&'a Path>,
    /// Where to record a replay.
    pub record: Option<&'a Path>,
    /// How render frames are paced, when recording what they draw.
    pub frames: FramePacing,
    /// Where to write the drawn log (one line per simulated render frame).
    pub drawn_log: Option<&'a Path>,
    /// Where to write the truth log (one line per tick).
    pub truth_log: Option<&'a Path>,
}

/// How simulated render frames are paced.
#[derive(Clone, Debug, PartialEq)]
pub enum FramePacing {
    /// Evenly, this many frames a second.
    Rate(f64),
    /// These frame intervals in milliseconds, repeated.
    Intervals(Vec<f64>),
}

impl FramePacing {
    /// Reads frame intervals, one number of milliseconds a line (`#` comments allowed).
    ///
    /// # Errors
    ///
    /// A line that is not a positive number, naming the file and line; an empty file.
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read frame times {}", path.display()))?;
        let mut intervals = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let content = line.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            match content.parse::<f64>() {
                Ok(ms) if ms.is_finite() && ms > 0.0 => intervals.push(ms),
                _ => bail!(
                    "{}:{}: `{content}` is not a frame time in milliseconds (a positive number)",
                    path.display(),
                    i + 1
                ),
            }
        }
        if intervals.is_empty() {
            bail!("{}: no frame times in the file", path.display());
        }
        Ok(Self::Intervals(intervals))
    }

    /// The interval of frame `n`, in whole microseconds.
    #[must_use]
    pub fn interval_micros(&self, n: usize) -> u64 {
        let ms = match self {
            Self::Rate(fps) => 1000.0 / fps.max(1e-3),
            Self::Intervals(list) => list[n % list.len()],
        };
        (ms * 1000.0).round().max(1.0) as u64
    }
}

/// The players' drivers and the simulation for a run.
///
/// # Errors
///
/// A bad level, command script or input script, or a script line for a bot's player.
pub fn prepare(run: &SimRun<'_>) -> Result<(TownSim, Vec<Driver>, CommandScript)> {
    let level = Arc::new(load(run.assets, run.level)?);
    let script = match run.commands {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read command script {}", path.display()))?;
            CommandScript::parse(&text)
                .with_context(|| format!("command script {}", path.display()))?
        }
        None => CommandScript::default(),
    };
    // With an input script the local player 0 holds keys and the bots come after it.
    let first_bot = usize::from(run.input_script.is_some());
    let bots = first_bot..first_bot + run.bots;
    if let Some(player) = (0..bots.end).find(|&p| script.drives(p)) {
        bail!(
            "command script {}: player {player} is {} (bots are players {}..{}); number scripted players from {}",
            run.commands.map_or_else(String::new, |p| p.display().to_string()),
            if player < first_bot { "the input script's" } else { "a bot" },
            bots.start,
            bots.end,
            bots.end
        );
    }
    let players = bots.end.max(script.players());
    if players > fixstep_game::MAX_PLAYERS {
        bail!("{players} players: a town holds at most {}", fixstep_game::MAX_PLAYERS);
    }
    let drivers = (0..players)
        .map(|p| {
            if p < first_bot {
                Driver::Held
            } else if bots.contains(&p) {
                Driver::Bot(Box::new(Bot::new(p, &level)))
            } else {
                Driver::Script
            }
        })
        .collect();
    Ok((TownSim::new(level, run.seed, players), drivers, script))
}

/// Reads an input script.
///
/// # Errors
///
/// An unreadable file, or its first malformed line.
pub fn read_input_script(path: &Path) -> Result<InputScript> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read input script {}", path.display()))?;
    InputScript::parse(&text).with_context(|| format!("input script {}", path.display()))
}

/// This tick's commands of every player; `held` is the command of a player driven by held
/// input (no input without one).
pub fn commands_for(
    tick: Tick,
    sim: &TownSim,
    drivers: &mut [Driver],
    script: &CommandScript,
    held: Option<PlayerCommand>,
    out: &mut Vec<PlayerCommand>,
) {
    out.clear();
    let snapshot = sim.snapshot();
    for (player, driver) in drivers.iter_mut().enumerate() {
        out.push(match driver {
            Driver::Bot(bot) => bot.command(snapshot),
            Driver::Script => script.command(player, tick),
            Driver::Held => held.unwrap_or_default(),
        });
    }
}

/// Steps the simulation with every player's commands, and logs hashes and the replay.
struct Stepper {
    sim: TownSim,
    drivers: Vec<Driver>,
    script: CommandScript,
    hasher: StateHasher,
    commands: Vec<PlayerCommand>,
    hash: StateHash,
    hash_log: Option<BufWriter<File>>,
    recorder: Option<ReplayWriter<BufWriter<File>>>,
}

impl Stepper {
    fn new(run: &SimRun<'_>) -> Result<Self> {
        let (sim, drivers, script) = prepare(run)?;
        let hash_log = match run.hash_log {
            Some(path) => Some(BufWriter::new(
                File::create(path)
                    .with_context(|| format!("cannot create hash log {}", path.display()))?,
            )),
            None => None,
        };
        let recorder = match run.record {
            Some(path) => {
                let file = File::create(path)
                    .with_context(|| format!("cannot create replay {}", path.display()))?;
                let level = replay_level_name(&sim.level().source, run.level, run.assets);
                let header = ReplayHeader::of(&sim, level, run.seed)?;
                Some(ReplayWriter::new(BufWriter::new(file), &header)?)
            }
            None => None,
        };
        let hash = sim.state_hash();
        Ok(Self {
            sim,
            drivers,
            script,
            hasher: StateHasher::new(),
            commands: Vec::new(),
            hash,
            hash_log,
            recorder,
        })
    }

    fn step(&mut self, held: Option<PlayerCommand>) -> Result<()> {
        let tick = self.sim.next_tick();
        commands_for(tick, &self.sim, &mut self.drivers, &self.script, held, &mut self.commands);
        self.sim.step(tick, &self.commands)?;
        self.sim.hash_state(&mut self.hasher);
        self.hash = self.hasher.finish_reuse();
        if let Some(log) = self.hash_log.as_mut() {
            writeln!(log, "{} {}", tick.0, self.hash).context("cannot write the hash log")?;
        }
        if let Some(recorder) = self.recorder.as_mut() {
            let record = TickRecord::new(tick, self.commands.clone(), Some(&self.hash));
            recorder.record(&record)?;
        }
        Ok(())
    }

    fn finish(self) -> Result<(Tick, StateHash)> {
        if let Some(mut log) = self.hash_log {
            log.flush().context("cannot write the hash log")?;
        }
        if let Some(mut recorder) = self.recorder {
            recorder.flush()?;
        }
        Ok((self.sim.next_tick(), self.hash))
    }
}

/// Runs `fixstep sim` and returns the final tick and hash. With a drawn or truth log, or an
/// input script, it also runs the local frame loop on a simulated clock: frames paced by
/// `run.frames` hand their time to the frame scheduler, which runs the ticks they owe, and the
/// presentation draws each frame at its alpha; no GPU is involved. The input script's player
/// is held by the frame loop as a window holds its keys, and drawn from the prediction.
///
/// # Errors
///
/// A bad level or script, or a file that cannot be written.
pub fn run_sim(run: &SimRun<'_>) -> Result<(Tick, StateHash)> {
    let input = run.input_script.map(read_input_script).transpose()?;
    let mut stepper = Stepper::new(run)?;
    if run.drawn_log.is_none() && run.truth_log.is_none() && input.is_none() {
        for _ in 0..run.ticks {
            stepper.step(None)?;
        }
        return stepper.finish();
    }
    let create = |path: &Path, what: &str| -> Result<BufWriter<File>> {
        Ok(BufWriter::new(
            File::create(path)
                .with_context(|| format!("cannot create {what} {}", path.display()))?,
        ))
    };
    let mut drawn = run.drawn_log.map(|p| create(p, "drawn log")).transpose()?.map(DrawnLog::new);
    let mut truth = run.truth_log.map(|p| create(p, "truth log")).transpose()?.map(TruthLog::new);
    let level = Arc::clone(stepper.sim.level());
    let mut presentation = LocalPresentation::new(Arc::clone(&level), 0);
    let first = Arc::clone(stepper.sim.snapshot());
    presentation.observe(&first);
    if input.is_some() && run.no_predict {
        presentation.mark_local();
    } else if input.is_some() {
        presentation.predict_own();
        presentation.observe_own(OwnRules::body(&stepper.sim, 0));
    }
    if let Some(truth) = truth.as_mut() {
        truth.snapshot(&first, &level).context("cannot write the truth log")?;
    }
    let mut scheduler = FrameScheduler::new();
    let mut own_input = InputAccumulator::new();
    let mut now_micros: u64 = 0;
    let mut frame_index = 0;
    while stepper.sim.next_tick().0 < run.ticks {
        let dt = run.frames.interval_micros(frame_index);
        frame_index += 1;
        let before_ms = now_micros / 1000;
        now_micros += dt;
        let now_ms = now_micros / 1000;
        let held =
            input.as_ref().map_or_else(PlayerCommand::default, |i| i.frame(before_ms, now_ms));
        own_input.run_frame(&mut scheduler, dt, &held, |command, partial| -> Result<()> {
            if stepper.sim.next_tick().0 >= run.ticks {
                return Ok(());
            }
            let held = input.is_some().then_some(command);
            if held.is_some() {
                presentation.own_command(stepper.sim.next_tick(), command, partial);
            }
            stepper.step(held)?;
            let snapshot = Arc::clone(stepper.sim.snapshot());
            presentation.observe(&snapshot);
            if held.is_some() {
                presentation.observe_own(OwnRules::body(&stepper.sim, 0));
            }
            if let Some(truth) = truth.as_mut() {
                truth.snapshot(&snapshot, &level).context("cannot write the truth log")?;
            }
            Ok(())
        })?;
        presentation.own_input(&own_input.partial());
        let alpha = scheduler.alpha_millionths() as f32 / 1_000_000.0;
        let frame = presentation.draw(alpha, dt as f32 / 1_000_000.0);
        if let Some(drawn) = drawn.as_mut() {
            let mark = input.as_ref().and_then(|i| {
                i.changed_at(now_ms).map(|since| HeldMark { since_ms: since as f64, held })
            });
            drawn
                .frame(now_micros as f64 / 1000.0, frame, &level, mark.as_ref())
                .context("cannot write the drawn log")?;
        }
    }
    if let Some(drawn) = drawn {
        drawn.finish().context("cannot write the drawn log")?;
    }
    if let Some(truth) = truth {
        truth.finish().context("cannot write the truth log")?;
    }
    stepper.finish()
}
