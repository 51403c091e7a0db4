//! The `fixstep` command line: parsing, and the one-line errors and exit codes it promises.

use std::process::ExitCode;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::assets::{default_assets_root, default_level};
use crate::commands::replay::{Verified, verify_replay};
use crate::commands::sim::{FramePacing, SimRun, run_sim};

/// Exit code of a usage or input error (a bad flag, a malformed file): 2, as clap and most
/// Unix tools use, so scripts can tell it from a failure of the program itself (1).
pub const EXIT_USAGE: u8 = 2;

/// Fixstep: a deterministic lockstep town, drawn smoothly between its 100 ms ticks.
#[derive(Debug, Parser)]
#[command(name = "fixstep", version, about)]
pub struct Cli {
    /// What to do; without one, `fixstep` plays the town in a window (as `fixstep play`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The assets directory (default: `./assets`, else the workspace's).
    #[arg(long, global = true)]
    pub assets: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play in a window (the default): W/A/S/D move, Shift runs, Q/E or the mouse (with a
    /// button held) turn, F interacts, the wheel zooms, F3 shows frame times, Esc quits.
    Play {
        /// The level file (default: the town, `levels/town.ron` under the assets).
        #[arg(long)]
        level: Option<PathBuf>,
        /// The window's size, WIDTHxHEIGHT pixels.
        #[arg(long, default_value = "1280x720", value_parser = crate::shot::parse_size)]
        size: (u32, u32),
        /// Quit after drawing this many frames.
        #[arg(long)]
        frames: Option<u64>,
        /// With --frames: write the last frame drawn to this PNG.
        #[arg(long, requires = "frames")]
        screenshot: Option<PathBuf>,
        /// Seed of the simulation's random numbers.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Pose the characters on the CPU instead of the GPU.
        #[arg(long)]
        cpu_skinning: bool,
        /// Write what each frame of the window drew (JSON Lines, the drawn-log format, at the
        /// window's real times) to this file.
        #[arg(long)]
        drawn_log: Option<PathBuf>,
    },
    /// Print what this build holds: the crates, the simulation version and the commands.
    About,
    /// Run the simulation headless (no window, no GPU) and print the final tick and hash.
    Sim {
        /// The level file (default: the town, `levels/town.ron` under the assets).
        #[arg(long)]
        level: Option<PathBuf>,
        /// Ticks to run (100 ms each).
        #[arg(long)]
        ticks: u32,
        /// Scripted bot players (players 0..K) that walk, run, open doors, talk and teleport.
        #[arg(long, default_value_t = 0)]
        bots: usize,
        /// A command script for further players (`TICK PLAYER FORWARD STRAFE TURN [run] [interact]`).
        #[arg(long)]
        commands: Option<PathBuf>,
        /// What the local player (player 0) holds at real times, read at each frame as a
        /// window reads its keys (`MS 0 FORWARD STRAFE TURN [run] [interact]`, TURN per tick);
        /// the bots are then players 1 to K, and player 0 is drawn from the prediction.
        #[arg(long)]
        input_script: Option<PathBuf>,
        /// Draw the input script's player between ticks like everyone else, not from the
        /// prediction of its held input: the latency the prediction hides, for comparison.
        #[arg(long, requires = "input_script")]
        no_predict: bool,
        /// Seed of the simulation's random numbers.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write `TICK HASH` for every tick to this file.
        #[arg(long)]
        hash_log: Option<PathBuf>,
        /// Record a replay (commands and per-tick hashes) to this file.
        #[arg(long)]
        record: Option<PathBuf>,
        /// Simulated render frames per second, when recording what they draw.
        #[arg(long, default_value_t = 60.0)]
        fps: f64,
        /// Frame intervals in milliseconds, one a line, repeated (instead of --fps).
        #[arg(long)]
        frame_times: Option<PathBuf>,
        /// Write what each simulated render frame draws (JSON Lines) to this file.
        #[arg(long)]
        drawn_log: Option<PathBuf>,
        /// Write the authoritative positions of every tick (JSON Lines) to this file.
        #[arg(long)]
        truth_log: Option<PathBuf>,
    },
    /// Host a network game: play in a window, or run headless (`--headless`, for servers and
    /// tests) with a bot or no character of its own.
    Host(crate::commands::host::HostArgs),
    /// Join a network game at HOST:PORT and play.
    Join(crate::commands::join::JoinArgs),
    /// Watch a network game at HOST:PORT without simulating it.
    Spectate(crate::commands::spectate::SpectateArgs),
    /// A link conditioner: a UDP proxy that delays, jitters, drops, duplicates and reorders.
    Netem(crate::commands::netem::NetemArgs),
    /// Print the differences of two state dumps (the RON files of a desync report); exits 1
    /// if they differ.
    DesyncDiff {
        /// The first state.
        a: PathBuf,
        /// The second state.
        b: PathBuf,
    },
    /// Measure the smoothness of a drawn log against the truth: off-pace frames, position
    /// error, delay, pops, reversals, slides, frames misplaced around a jump, long-way turns
    /// and animation back-steps, per kind of entity.
    Judder {
        /// The drawn log (JSON Lines, one line per frame).
        drawn: PathBuf,
        /// The truth file (JSON Lines).
        #[arg(long, required_unless_present = "trace")]
        truth: Option<PathBuf>,
        /// A trace directory: its trace.jsonl names the kinds, and its truth.jsonl is the truth
        /// unless --truth is given.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Draw drawn and true speed over time for the worst entities into this PNG.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// How many of the worst entities to list and plot.
        #[arg(long, default_value_t = crate::judder::DEFAULT_WORST)]
        worst: usize,
    },
    /// Draw one frame offscreen (no window) into a PNG, after simulating the level for --tick
    /// ticks with one player, who stands idle where they spawned (unless --commands drives
    /// them); the camera follows that player.
    Screenshot {
        /// The level file (default: the town, `levels/town.ron` under the assets).
        #[arg(long)]
        level: Option<PathBuf>,
        /// Ticks to simulate (100 ms each) before drawing.
        #[arg(long)]
        tick: u32,
        /// Where between the last two ticks to draw: 0 is the tick before, 1 the last tick.
        #[arg(long, default_value_t = 1.0)]
        alpha: f32,
        /// Picture size, WIDTHxHEIGHT pixels.
        #[arg(long, default_value = "1280x720", value_parser = crate::shot::parse_size)]
        size: (u32, u32),
        /// Draw at this time of day, HH:MM (the light only: the simulation is unchanged).
        #[arg(long, value_parser = crate::shot::parse_time)]
        time: Option<f32>,
        /// A command script for the player (`TICK 0 FORWARD STRAFE TURN [run] [interact]`).
        #[arg(long)]
        commands: Option<PathBuf>,
        /// Seed of the simulation's random numbers.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Pose the characters on the CPU (the presentation's `Rig::pose`) instead of the GPU.
        #[arg(long)]
        cpu_skinning: bool,
        /// Draw the HUD (tick, frame rate, hash, time of day).
        #[arg(long)]
        hud: bool,
        /// The PNG to write.
        #[arg(long, required_unless_present = "bench_frames")]
        out: Option<PathBuf>,
        /// Instead of a picture, time this many frames and print the CPU time to prepare and
        /// submit one (percentiles).
        #[arg(long)]
        bench_frames: Option<usize>,
        /// Characters to add to the frame (a crowd around the player), for the benchmark.
        #[arg(long, default_value_t = 0)]
        extra_characters: usize,
    },
    /// Run the remote view (network clock, remote buffers, update-gap delay) over a trace of
    /// snapshot arrivals and frames, headless, and write what each frame drew.
    Trace {
        /// The trace (JSON Lines: a header, then snapshot and frame events).
        #[arg(long = "in", value_name = "TRACE")]
        input: PathBuf,
        /// The drawn log to write (JSON Lines, one line per frame).
        #[arg(long, value_name = "DRAWN")]
        out: PathBuf,
    },
    /// Read a replay; with --verify, re-simulate it and check every recorded hash.
    Replay {
        /// The replay file.
        file: PathBuf,
        /// Re-simulate and compare hashes.
        #[arg(long)]
        verify: bool,
    },
}

/// Parses `args` (the program name first) and runs the command. Usage errors print one line
/// to standard error and give [`EXIT_USAGE`]; `--help` and `--version` print and succeed.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version: clap's own text, to standard output.
            say(&error.to_string());
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("{}", one_line(&error.to_string()));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let assets = cli.assets.clone().unwrap_or_else(default_assets_root);
    match cli.command {
        None => play(&crate::app::PlayOptions::window(default_level(&assets), assets)),
        Some(Command::Play { level, size, frames, screenshot, seed, cpu_skinning, drawn_log }) => {
            play(&crate::app::PlayOptions {
                level: level.unwrap_or_else(|| default_level(&assets)),
                assets,
                size,
                frames,
                screenshot,
                seed,
                cpu_skinning,
                drawn_log,
            })
        }
        Some(Command::About) => {
            say(&about());
            ExitCode::SUCCESS
        }
        Some(Command::Sim {
            level,
            ticks,
            bots,
            commands,
            input_script,
            no_predict,
            seed,
            hash_log,
            record,
            fps,
            frame_times,
            drawn_log,
            truth_log,
        }) => {
            let frames = match frame_times.as_deref().map(FramePacing::from_file).transpose() {
                Ok(Some(pacing)) => pacing,
                Ok(None) if fps.is_finite() && fps > 0.0 => FramePacing::Rate(fps),
                Ok(None) => {
                    return input_error(&anyhow::anyhow!(
                        "--fps must be a positive number, not {fps}"
                    ));
                }
                Err(error) => return input_error(&error),
            };
            let level = level.unwrap_or_else(|| default_level(&assets));
            let run = SimRun {
                level: &level,
                assets: &assets,
                ticks,
                bots,
                commands: commands.as_deref(),
                input_script: input_script.as_deref(),
                no_predict,
                seed,
                hash_log: hash_log.as_deref(),
                record: record.as_deref(),
                frames,
                drawn_log: drawn_log.as_deref(),
                truth_log: truth_log.as_deref(),
            };
            match run_sim(&run) {
                Ok((tick, hash)) => {
                    say(&format!("tick {} hash {hash}\n", tick.0));
                    ExitCode::SUCCESS
                }
                Err(error) => input_error(&error),
            }
        }
        Some(Command::Replay { file, verify }) => replay(&file, verify, &assets),
        Some(Command::Trace { input, out }) => trace(&input, &out),
        Some(Command::Screenshot {
            level,
            tick,
            alpha,
            size,
            time,
            commands,
            seed,
            cpu_skinning,
            hud,
            out,
            bench_frames,
            extra_characters,
        }) => {
            let args = crate::shot::ScreenshotArgs {
                level: level.unwrap_or_else(|| default_level(&assets)),
                assets,
                tick,
                alpha,
                size,
                time,
                commands,
                seed,
                cpu_skinning,
                hud,
                out: out.unwrap_or_default(),
                bench_frames,
                extra_characters,
            };
            match crate::shot::run_screenshot(&args) {
                Ok(line) => {
                    say(&line);
                    ExitCode::SUCCESS
                }
                Err(error) => input_error(&error),
            }
        }
        Some(Command::Host(args)) => failed(crate::commands::host::run(&args, &assets)),
        Some(Command::Join(args)) => failed(crate::commands::join::run(&args, &assets)),
        Some(Command::Spectate(args)) => failed(crate::commands::spectate::run(&args, &assets)),
        Some(Command::Netem(args)) => failed(crate::commands::netem::run(&args)),
        Some(Command::DesyncDiff { a, b }) => match crate::commands::desync_diff::run(&a, &b) {
            Ok(false) => ExitCode::SUCCESS,
            Ok(true) => ExitCode::FAILURE,
            Err(error) => input_error(&error),
        },
        Some(Command::Judder { drawn, truth, trace, plot, worst }) => {
            match crate::judder::run_judder(&crate::judder::JudderArgs {
                drawn,
                truth,
                trace,
                plot,
                worst,
            }) {
                Ok(report) => {
                    say(&report.to_string());
                    ExitCode::SUCCESS
                }
                Err(error) => input_error(&error),
            }
        }
    }
}

/// Plays in a window; a missing display or GPU, or bad input, is one line and [`EXIT_USAGE`].
fn play(options: &crate::app::PlayOptions) -> ExitCode {
    match crate::app::run_play(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("fixstep: {}", format!("{:#}", error.into_anyhow()).replace('\n', " "));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn replay(file: &std::path::Path, verify: bool, assets: &std::path::Path) -> ExitCode {
    if !verify {
        return match std::fs::read(file).map_err(anyhow::Error::from).and_then(|bytes| {
            fixstep_runtime::replay::Replay::<fixstep_game::PlayerCommand>::from_bytes(&bytes)
                .map_err(anyhow::Error::from)
        }) {
            Ok(replay) => {
                let h = &replay.header;
                say(&format!(
                    "replay of {} (simulation version {}, seed {}, {} players): {} ticks\n",
                    h.level,
                    h.sim_version,
                    h.seed,
                    h.players,
                    replay.ticks.len(),
                ));
                ExitCode::SUCCESS
            }
            Err(error) => input_error(&error.context(format!("replay {}", file.display()))),
        };
    }
    match verify_replay(file, assets) {
        Ok(Verified::Ok { ticks, hashes, hash }) => {
            say(&format!("verified {ticks} ticks, {hashes} hashes match; final hash {hash}\n"));
            ExitCode::SUCCESS
        }
        Ok(Verified::Mismatch(message)) => {
            eprintln!("replay {} does not verify: {message}", file.display());
            ExitCode::FAILURE
        }
        Err(error) => input_error(&error),
    }
}

/// `fixstep trace`: one line saying what was drawn, or one naming the file and line at fault.
fn trace(input: &std::path::Path, out: &std::path::Path) -> ExitCode {
    use anyhow::Context as _;
    let result = std::fs::File::open(input)
        .with_context(|| format!("cannot read trace {}", input.display()))
        .and_then(|file| {
            let drawn = std::fs::File::create(out)
                .with_context(|| format!("cannot write drawn log {}", out.display()))?;
            crate::trace::run_trace(std::io::BufReader::new(file), drawn)
                .with_context(|| format!("trace {}", input.display()))
        });
    match result {
        Ok(summary) => {
            say(&format!(
                "drew {} frames from {} snapshots into {}\n",
                summary.frames,
                summary.snapshots,
                out.display()
            ));
            ExitCode::SUCCESS
        }
        Err(error) => input_error(&error),
    }
}

/// Writes `text` to standard output. A reader that stopped reading (`fixstep judder | head`)
/// is not an error of ours: the rest is dropped quietly instead of panicking.
fn say(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// A network command's outcome: a failure is one line, and [`EXIT_USAGE`] for a bad input (a
/// level, a script, an address) or 1 for a failure of the game (a connection lost, a refusal).
fn failed(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("fixstep: {error:#}");
            let input = error.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
            }) || format!("{error:#}").contains(" is not HOST:PORT");
            ExitCode::from(if input { EXIT_USAGE } else { 1 })
        }
    }
}

/// Reports a bad input (file, level, script) and gives [`EXIT_USAGE`].
fn input_error(error: &anyhow::Error) -> ExitCode {
    eprintln!("fixstep: {error:#}");
    ExitCode::from(EXIT_USAGE)
}

/// The first line of clap's message, which names the problem, with a pointer to `--help`
/// instead of the usage block that follows it.
fn one_line(message: &str) -> String {
    // clap names the problem first and may list what it concerns on the next lines (missing
    // arguments); the usage block after a blank line or "Usage:" is left out.
    let problem: Vec<&str> = message
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .collect();
    let problem =
        if problem.is_empty() { "invalid arguments".to_owned() } else { problem.join(" ") };
    format!("{problem} (see `fixstep --help`)")
}

/// What `fixstep about` prints.
#[must_use]
pub fn about() -> String {
    format!(
        "fixstep {version}: a deterministic lockstep game runtime, 100 ms ticks in fixed point.\n\
         \n\
         This build holds:\n\
         - fixstep-runtime: fixed-point math, ticks and the frame scheduler, entity storage,\n\
         \x20 state hashes, replays and the determinism self-test\n\
         - fixstep-game: {game}\n\
         - fixstep-render: the presentation layer, the wgpu renderer and the desktop game\n\
         \n\
         `fixstep` alone (or `fixstep play`) opens the game in a window; run `fixstep --help`\n\
         for the other commands.\n",
        version = env!("CARGO_PKG_VERSION"),
        game = fixstep_game::SUMMARY,
    )
}
