//! `fixstep sim`: a game without a window, from bots, command scripts or an input script,
//! writing hash logs, replays, drawn and truth logs. No GPU is involved.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use fixstep_netplay::Recording;
use fixstep_present::{CommandOf, Game, Presentation};
use fixstep_runtime::replay::RecordedBy;
use fixstep_runtime::script::{CommandScript, InputScript};
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{
    Bot, HeldInput, Player, Simulation, StateHash, StateHasher, Tick, TickRecord,
};

use super::timing::TickTimes;
use super::{Logs, Paths, bad_input, held_mark, read_command_script, read_input_script};

/// `fixstep sim`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct SimArgs {
    /// The content file (default: the game's, such as the town's `levels/town.ron` under the
    /// assets).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Ticks to run (100 ms each).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(super::bounds::MAX_TICKS)))]
    pub ticks: u32,
    /// Scripted bot players (players 0..K), up to the most players the game holds (the town's
    /// 65,535), which a larger count is refused naming.
    #[arg(long, default_value_t = 0)]
    pub bots: usize,
    /// A command script for further players (`TICK PLAYER FIELDS`, the game's command fields;
    /// the town's are `FORWARD STRAFE TURN [run] [interact]`).
    #[arg(long)]
    pub commands: Option<PathBuf>,
    /// What the local player (player 0) holds at real times, read at each frame as a window
    /// reads its keys (`MS 0 FIELDS`); the bots are then players 1 to K, and player 0 is
    /// drawn from the prediction.
    #[arg(long)]
    pub input_script: Option<PathBuf>,
    /// Draw the input script's player between ticks like everyone else, not from the
    /// prediction of its held input: the latency the prediction hides, for comparison.
    #[arg(long, requires = "input_script")]
    pub no_predict: bool,
    /// Seed of the simulation's random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write `TICK HASH` for every tick to this file.
    #[arg(long)]
    pub hash_log: Option<PathBuf>,
    /// Record a replay (commands and per-tick hashes) to this file.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Simulated render frames per second, when recording what they draw (at most 1000).
    #[arg(long, default_value_t = 60.0, value_parser = super::bounds::frames_per_second)]
    pub fps: f64,
    /// Frame intervals in milliseconds, one a line, repeated (instead of --fps).
    #[arg(long)]
    pub frame_times: Option<PathBuf>,
    /// Write what each simulated render frame draws (JSON Lines) to this file.
    #[arg(long)]
    pub drawn_log: Option<PathBuf>,
    /// Write the authoritative positions of every tick (JSON Lines) to this file.
    #[arg(long)]
    pub truth_log: Option<PathBuf>,
    /// Also print what the ticks and state hashes took on this machine (median, 99th
    /// percentile, longest), the size of the state a late joiner is sent, and the resident
    /// memory: the benchmarks' figures, for `--level stress:SCALE` say.
    #[arg(long, conflicts_with_all = ["drawn_log", "truth_log", "input_script"])]
    pub timing: bool,
}

/// A frame-times file: a number of milliseconds a line, repeated over the run; a few thousand
/// lines describe any pattern of frames, and this is a hundred thousand.
const FRAME_TIMES_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("frame times file", 1_000_000);

/// Where one player's commands come from.
enum Driver<G: Game> {
    /// A scripted bot.
    Bot(Box<G::Bot>),
    /// A line of a command script.
    Script,
    /// Held input over each tick, as a window reads its keys: the local player of an input
    /// script.
    Held,
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
    /// The pacing `args` ask for.
    ///
    /// # Errors
    ///
    /// A frame-times file that does not read, or a rate that is not a positive number.
    pub fn of(fps: f64, frame_times: Option<&Path>) -> Result<Self> {
        match frame_times {
            Some(path) => Self::from_file(path),
            None if fps.is_finite() && fps > 0.0 => Ok(Self::Rate(fps)),
            None => Err(bad_input(anyhow!("--fps must be a positive number, not {fps}"))),
        }
    }

    /// Reads frame intervals, one number of milliseconds a line (`#` comments allowed).
    ///
    /// # Errors
    ///
    /// A line that is not a positive number, naming the file and line; an empty file.
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = fixstep_runtime::file::read_text(path, FRAME_TIMES_FILE).map_err(bad_input)?;
        let mut intervals = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let content = line.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            match content.parse::<f64>() {
                Ok(ms) if ms.is_finite() && ms > 0.0 => intervals.push(ms),
                _ => {
                    return Err(bad_input(anyhow!(
                        "{}:{}: `{content}` is not a frame time in milliseconds (a positive number)",
                        path.display(),
                        i + 1
                    )));
                }
            }
        }
        if intervals.is_empty() {
            return Err(bad_input(anyhow!("{}: no frame times in the file", path.display())));
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

/// Where every player's commands come from in a run.
pub(super) struct Drivers<G: Game> {
    /// One a player.
    each: Vec<Driver<G>>,
    /// The scripted players' commands.
    script: CommandScript<CommandOf<G>>,
}

impl<G: Game> Drivers<G> {
    /// The drivers of a run of `content`: the first `held` players hold keys, the next `bots`
    /// are bots, and the command script at `commands` (if any) drives the rest.
    ///
    /// # Errors
    ///
    /// A bad command script, a script line for a bot's or a held player, or more players
    /// than the game holds.
    pub(super) fn new(
        content: &Arc<G::Content>,
        commands: Option<&Path>,
        held: usize,
        bots: usize,
    ) -> Result<Self> {
        // The bots alone first, before any sum: a count over the cap is refused naming it, and
        // none overflows.
        if bots > G::MAX_PLAYERS.saturating_sub(held) {
            return Err(bad_input(anyhow!(
                "--bots {bots}: the {} holds at most {} players{}",
                G::NAME,
                G::MAX_PLAYERS,
                if held > 0 { ", the input script's among them" } else { "" }
            )));
        }
        let script = read_command_script::<G>(commands)?.unwrap_or_default();
        let bots = held..held + bots;
        if let Some(player) = Player::all(bots.end).find(|&p| script.drives(p)) {
            return Err(bad_input(anyhow!(
                "command script {}: player {player} is {} (bots are players {}..{}); number \
                 scripted players from {}",
                commands.map_or_else(String::new, |p| p.display().to_string()),
                if player.index() < held { "the input script's" } else { "a bot" },
                bots.start,
                bots.end,
                bots.end
            )));
        }
        let players = bots.end.max(script.players());
        if players > G::MAX_PLAYERS {
            return Err(bad_input(anyhow!(
                "{players} players: the {} holds at most {}",
                G::NAME,
                G::MAX_PLAYERS
            )));
        }
        // At most MAX_PLAYERS, every one with a number.
        let each = Player::all(players)
            .map(|p| {
                if p.index() < held {
                    Driver::Held
                } else if bots.contains(&p.index()) {
                    Driver::Bot(Box::new(G::bot(content, p)))
                } else {
                    Driver::Script
                }
            })
            .collect();
        Ok(Self { each, script })
    }

    /// Players driven.
    pub(super) fn players(&self) -> usize {
        self.each.len()
    }

    /// This tick's commands of every player into `out`; `held` is the command of a player
    /// driven by held input (no input without one).
    pub(super) fn commands(
        &mut self,
        tick: Tick,
        sim: &G::Sim,
        held: Option<&CommandOf<G>>,
        out: &mut Vec<CommandOf<G>>,
    ) {
        out.clear();
        let snapshot = sim.snapshot();
        for (player, driver) in Player::all(self.each.len()).zip(&mut self.each) {
            out.push(match driver {
                Driver::Bot(bot) => bot.command(snapshot),
                Driver::Script => self.script.command(player, tick),
                Driver::Held => held.cloned().unwrap_or_default(),
            });
        }
    }
}

/// Steps the simulation with every player's commands, and logs hashes and the replay.
struct Stepper<G: Game> {
    sim: G::Sim,
    drivers: Drivers<G>,
    hasher: StateHasher,
    commands: Vec<CommandOf<G>>,
    hash: StateHash,
    hash_log: Option<BufWriter<File>>,
    recording: Option<Recording<G>>,
    /// What each tick and hash took, with `--timing`.
    times: Option<TickTimes>,
}

impl<G: Game> Stepper<G> {
    fn new(args: &SimArgs, paths: &Paths) -> Result<(Self, Arc<G::Content>)> {
        let content = paths.load::<G>(&paths.content_file::<G>(args.level.as_deref()))?;
        // With an input script the local player 0 holds keys and the bots come after it.
        let held = usize::from(args.input_script.is_some());
        let drivers = Drivers::<G>::new(&content, args.commands.as_deref(), held, args.bots)?;
        let sim = G::new_sim(&content, args.seed, drivers.players());
        let hash_log =
            args.hash_log.as_deref().map(|p| super::create(p, "hash log")).transpose()?;
        let recording = args
            .record
            .as_deref()
            .map(|path| {
                Recording::<G>::create(path, &content, &sim, Some(args.seed), RecordedBy::Local)
            })
            .transpose()?;
        let hash = sim.state_hash();
        let stepper = Self {
            sim,
            drivers,
            hasher: StateHasher::new(),
            commands: Vec::new(),
            hash,
            hash_log,
            recording,
            times: args.timing.then(|| TickTimes::with_capacity(args.ticks as usize)),
        };
        Ok((stepper, content))
    }

    fn step(&mut self, held: Option<&CommandOf<G>>) -> Result<()> {
        let tick = self.sim.next_tick();
        self.drivers.commands(tick, &self.sim, held, &mut self.commands);
        let started = Instant::now();
        self.sim.step(tick, &self.commands)?;
        let stepped = Instant::now();
        self.sim.hash_state(&mut self.hasher);
        self.hash = self.hasher.finish_reuse();
        if let Some(times) = self.times.as_mut() {
            times.record(stepped - started, stepped.elapsed());
        }
        if let Some(log) = self.hash_log.as_mut() {
            writeln!(log, "{} {}", tick.0, self.hash).context("cannot write the hash log")?;
        }
        if let Some(recording) = self.recording.as_mut() {
            let record = TickRecord::new(tick, self.commands.clone());
            recording.tick(&record, self.hash.total(), &self.sim)?;
        }
        Ok(())
    }

    fn finish(self) -> Result<(Tick, StateHash)> {
        if let Some(mut log) = self.hash_log {
            log.flush().context("cannot write the hash log")?;
        }
        Ok((self.sim.next_tick(), self.hash))
    }

    /// The `--timing` line, if asked for: what the ticks took, and the state a late joiner
    /// would be sent now (postcard, as a welcome carries it).
    fn timing(&self) -> Result<Option<String>> {
        let Some(times) = &self.times else { return Ok(None) };
        let state = postcard::to_allocvec(self.sim.state()).context("the state encodes")?;
        Ok(Some(times.report(state.len())))
    }
}

/// Runs `fixstep sim` and returns the line it prints: the final tick and hash. With a drawn or
/// truth log, or an input script, it also runs the local frame loop on a simulated clock:
/// frames paced as asked hand their time to the frame scheduler, which runs the ticks they
/// owe, and the presentation draws each frame at its alpha; no GPU is involved. The input
/// script's player is held by the frame loop as a window holds its keys, and drawn from the
/// prediction.
///
/// # Errors
///
/// A bad level or script, or a file that cannot be written.
pub fn run<G: Game>(args: &SimArgs, paths: &Paths) -> Result<String> {
    let frames = FramePacing::of(args.fps, args.frame_times.as_deref())?;
    let input = read_input_script::<G>(args.input_script.as_deref())?;
    let (mut stepper, content) = Stepper::<G>::new(args, paths)?;
    let mut timing = None;
    let (tick, hash) = if args.drawn_log.is_none() && args.truth_log.is_none() && input.is_none() {
        for _ in 0..args.ticks {
            stepper.step(None)?;
        }
        timing = stepper.timing()?;
        stepper.finish()?
    } else {
        frame_loop(args, &frames, input.as_ref(), stepper, &content)?
    };
    Ok(format!("tick {} hash {hash}\n{}", tick.0, timing.unwrap_or_default()))
}

/// The local frame loop on a simulated clock; see [`run`].
fn frame_loop<G: Game>(
    args: &SimArgs,
    frames: &FramePacing,
    input: Option<&InputScript<CommandOf<G>>>,
    mut stepper: Stepper<G>,
    content: &Arc<G::Content>,
) -> Result<(Tick, StateHash)> {
    let mut logs =
        Logs::<G>::open(None, args.truth_log.as_deref(), args.drawn_log.as_deref(), content)?;
    let mut presentation = G::presentation(content, Player(0));
    if input.is_some() && args.no_predict {
        presentation.mark_local();
    } else if input.is_some() {
        presentation.predict_own();
    }
    let first = Arc::clone(stepper.sim.snapshot());
    presentation.observe(&first, G::own(&stepper.sim, Player(0)));
    logs.truth(stepper.sim.next_tick(), &first)?;
    let mut scheduler = FrameScheduler::new();
    let mut own_input = G::Input::default();
    let mut now_micros: u64 = 0;
    let mut frame_index = 0;
    while stepper.sim.next_tick().0 < args.ticks {
        let dt = frames.interval_micros(frame_index);
        frame_index += 1;
        let before_ms = now_micros / 1000;
        now_micros += dt;
        let now_ms = now_micros / 1000;
        let held = input.map_or_else(CommandOf::<G>::default, |i| i.frame(before_ms, now_ms));
        own_input.run_frame(&mut scheduler, dt, &held, |command, partial| -> Result<()> {
            if stepper.sim.next_tick().0 >= args.ticks {
                return Ok(());
            }
            let held = input.is_some().then_some(&command);
            if held.is_some() {
                presentation.own_command(stepper.sim.next_tick(), &command, partial);
            }
            stepper.step(held)?;
            let snapshot = Arc::clone(stepper.sim.snapshot());
            let own = if held.is_some() { G::own(&stepper.sim, Player(0)) } else { None };
            presentation.observe(&snapshot, own);
            logs.truth(stepper.sim.next_tick(), &snapshot)?;
            Ok(())
        })?;
        presentation.own_input(&own_input.partial());
        let alpha = scheduler.alpha_millionths() as f32 / 1_000_000.0;
        presentation.draw(alpha, dt as f32 / 1_000_000.0);
        let mark = held_mark::<G>(input, now_micros, &held);
        logs.frame(now_micros as f64 / 1000.0, &presentation, mark.as_ref())?;
    }
    logs.finish()?;
    stepper.finish()
}
