//! The `fixstep` command line: parsing, choosing the game, and the one-line errors and exit
//! codes it promises.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands::desync_diff::DesyncDiffArgs;
use crate::commands::host::HostArgs;
use crate::commands::join::JoinArgs;
use crate::commands::judder::JudderArgs;
use crate::commands::lan::LanArgs;
use crate::commands::loadtest::LoadtestArgs;
use crate::commands::netem::NetemArgs;
use crate::commands::play::PlayArgs;
use crate::commands::rendezvous::RendezvousArgs;
use crate::commands::replay::{ReplayArgs, Replayed};
use crate::commands::screenshot::ScreenshotArgs;
use crate::commands::sim::SimArgs;
use crate::commands::spectate::SpectateArgs;
use crate::commands::sync_test::SyncTestArgs;
use crate::commands::trace::TraceArgs;
use crate::commands::{BadInput, Paths};
use crate::games::{GameName, Playable, default_assets_root};
use crate::logs::LogFormat;

/// Exit code of a usage or input error (a bad flag, a malformed file): 2, as clap and most
/// Unix tools use, so scripts can tell it from a failure of the program itself (1).
pub const EXIT_USAGE: u8 = 2;

/// Fixstep: deterministic lockstep games, drawn smoothly between their 100 ms ticks.
#[derive(Debug, Parser)]
#[command(name = "fixstep", version, about)]
pub struct Cli {
    /// What to do; without one, `fixstep` plays the game in a window (as `fixstep play`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The assets directory (default: `./assets`, else the workspace's).
    #[arg(long, global = true)]
    pub assets: Option<PathBuf>,
    /// The game: the town, or the arena.
    #[arg(long, global = true, value_enum, default_value_t = GameName::Town)]
    pub game: GameName,
    /// How log lines on standard error are written: `human` (`fixstep: ...`) or `json` (one
    /// object a line). `RUST_LOG` filters them (`warn`, `info,fixstep_netplay=debug`).
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Human)]
    pub log_format: LogFormat,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play in a window (the default), from the front screen: play alone, host, join, watch,
    /// settings. The town: W/A/S/D move, Shift runs, Q/E or the mouse turn, F interacts; the
    /// arena: W/A/S/D skate, F dashes. The wheel zooms, F3 shows frame times, Esc opens the
    /// menu.
    Play(PlayArgs),
    /// Print what this build holds: the crates, the games and the commands.
    About,
    /// Run the simulation headless (no window, no GPU) and print the final tick and hash.
    Sim(SimArgs),
    /// Run the determinism self-test: every tick run twice from a saved state, and the state
    /// serialized into a fresh simulation that runs alongside; print the final hash.
    SyncTest(SyncTestArgs),
    /// Host a network game: play in a window, or run headless (`--headless`, for servers and
    /// tests) with a bot or no character of its own.
    Host(HostArgs),
    /// Join a network game at HOST:PORT and play.
    Join(JoinArgs),
    /// Watch a network game at HOST:PORT without simulating it.
    Spectate(SpectateArgs),
    /// List the games hosted on the local network (hosts answer a broadcast query on their
    /// game port).
    Lan(LanArgs),
    /// Run many virtual players (and spectators) against a host at HOST:PORT, sharing one
    /// simulation, and report how late its ticks arrive, the bandwidth on the wire, input
    /// latency, late inputs and desyncs; exits 1 on a desync or a peer refused or cut off.
    Loadtest(LoadtestArgs),
    /// A link conditioner: a UDP proxy that delays, jitters, drops, duplicates and reorders.
    Netem(NetemArgs),
    /// Run a rendezvous: hosts list their matches under join codes, and joiners look them up
    /// and are put through to their host (`host --code`, `join CODE`).
    Rendezvous(RendezvousArgs),
    /// Print the differences of two state dumps (the RON files of a desync report); exits 1
    /// if they differ.
    DesyncDiff(DesyncDiffArgs),
    /// Measure the smoothness of a drawn log against the truth (`--truth FILE`, or a trace
    /// directory's with `--trace DIR`: one of them is needed): off-pace frames, position
    /// error, delay, pops, reversals, slides, frames misplaced around a jump, long-way turns
    /// and animation back-steps, per kind of entity.
    Judder(JudderArgs),
    /// Draw one frame offscreen (no window) into a PNG, after simulating the content for
    /// --tick ticks with one player, who stands idle where they spawned (unless --commands
    /// drives them); the camera follows that player.
    Screenshot(ScreenshotArgs),
    /// Run the remote view (network clock, remote buffers, update-gap delay) over a trace of
    /// snapshot arrivals and frames, headless, and write what each frame drew.
    Trace(TraceArgs),
    /// Read a replay; with --verify, re-simulate it and check every recorded hash.
    Replay(ReplayArgs),
}

/// What a command came to, when it did not fail.
enum Done {
    /// It printed this and succeeded.
    Said(String),
    /// It found what it was asked to check for (a replay that does not verify): exit code 1,
    /// with the message on standard error.
    Found(String),
    /// It printed what it was asked for, which shows a failure (the differences of two
    /// states, as `diff` does; a load test's desyncs): exit code 1, the text on standard
    /// output.
    Differ(String),
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
            #[expect(clippy::print_stderr, reason = "the one-line usage error, before any log")]
            {
                eprintln!("{}", one_line(&error.to_string()));
            }
            return ExitCode::from(EXIT_USAGE);
        }
    };
    crate::logs::install(cli.log_format);
    let paths = Paths { assets: cli.assets.clone().unwrap_or_else(default_assets_root) };
    let command = cli.command.unwrap_or_else(|| Command::Play(PlayArgs::default_window()));
    // A replay names the game that recorded it.
    let game = match &command {
        Command::Replay(args) => crate::commands::replay::recorded_game(&args.file),
        _ => None,
    };
    let result = match game.unwrap_or(cli.game) {
        GameName::Town => run_game::<fixstep_town_view::Town>(command, &paths),
        GameName::Arena => run_game::<fixstep_arena_view::Arena>(command, &paths),
    };
    match result {
        Ok(Done::Said(text)) => {
            say(&text);
            ExitCode::SUCCESS
        }
        Ok(Done::Found(text)) => {
            #[expect(clippy::print_stderr, reason = "what a check found, for the user to read")]
            {
                eprintln!("{text}");
            }
            ExitCode::FAILURE
        }
        Ok(Done::Differ(text)) => {
            say(&text);
            ExitCode::FAILURE
        }
        Err((error, always_usage)) => {
            say_error(cli.log_format, &error);
            let input = always_usage || is_bad_input(&error);
            ExitCode::from(if input { EXIT_USAGE } else { 1 })
        }
    }
}

/// Runs `command` of game `G`. An error comes with whether every error of this command is
/// the user's (a window that cannot open, a file the command was given), whatever it is.
fn run_game<G: Playable>(command: Command, paths: &Paths) -> Result<Done, (anyhow::Error, bool)> {
    use crate::commands::{
        about, desync_diff, host, join, judder, lan, loadtest, netem, play, rendezvous, replay,
        screenshot, sim, spectate, sync_test, trace,
    };
    let said = |result: anyhow::Result<String>| result.map(Done::Said);
    // A summary that may show a failure (a peer dropped, a desync, states that differ).
    let judged = |result: anyhow::Result<(String, bool)>| {
        result.map(|(text, failed)| if failed { Done::Differ(text) } else { Done::Said(text) })
    };
    let usage = |result: anyhow::Result<Done>| result.map_err(|e| (e, true));
    let failure = |result: anyhow::Result<Done>| result.map_err(|e| (e, false));
    match command {
        Command::Play(args) => {
            usage(play::run::<G>(&args, paths).map(|()| Done::Said(String::new())))
        }
        Command::About => Ok(Done::Said(about::about())),
        Command::Sim(args) => usage(said(sim::run::<G>(&args, paths))),
        Command::SyncTest(args) => failure(said(sync_test::run::<G>(&args, paths))),
        Command::Host(args) => failure(said(host::run::<G>(&args, paths))),
        Command::Join(args) => failure(judged(join::run::<G>(&args, paths))),
        Command::Spectate(args) => failure(judged(spectate::run::<G>(&args, paths))),
        Command::Loadtest(args) => failure(judged(loadtest::run::<G>(&args, paths))),
        Command::Netem(args) => failure(said(netem::run(&args))),
        Command::Rendezvous(args) => failure(said(rendezvous::run(&args))),
        Command::Lan(args) => failure(said(lan::run(&args))),
        Command::DesyncDiff(args) => usage(judged(desync_diff::run::<G>(&args))),
        Command::Judder(args) => usage(said(judder::run(&args, paths))),
        Command::Screenshot(args) => usage(said(screenshot::run::<G>(&args, paths))),
        Command::Trace(args) => usage(said(trace::run(&args))),
        Command::Replay(args) => usage(replay::run::<G>(&args, paths).map(|r| match r {
            Replayed::Ok(text) => Done::Said(text),
            Replayed::Mismatch(text) => Done::Found(text),
        })),
    }
}

/// Whether `error` is a mistake in the user's input: marked [`BadInput`], or a file that is
/// not there.
fn is_bad_input(error: &anyhow::Error) -> bool {
    error.chain().any(|e| {
        e.is::<BadInput>()
            || e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
    })
}

impl PlayArgs {
    /// Playing the default content in a window at the default size until it is closed, with
    /// nothing recorded: what `fixstep` with no command does.
    fn default_window() -> Self {
        Self { size: (1280, 720), seed: 1, ..Self::default() }
    }
}

/// Writes `text` to standard output. A reader that stopped reading (`fixstep judder | head`)
/// is not an error of ours: the rest is dropped quietly instead of panicking.
fn say(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// The one line of a command that failed: `fixstep: why` as it always was, or an error event
/// among the JSON lines, so that every line of a JSON log is JSON.
fn say_error(format: LogFormat, error: &anyhow::Error) {
    let line = error_line(error);
    match format {
        #[expect(clippy::print_stderr, reason = "the one-line error the user reads")]
        LogFormat::Human => eprintln!("fixstep: {line}"),
        LogFormat::Json => tracing::error!("{line}"),
    }
}

/// `error` and its causes in one line, outermost first, each after a colon; a cause whose
/// words the line already holds (a message that quoted its source) is not said again, so a
/// missing file reads "cannot read the level file x.ron: No such file or directory (os error
/// 2)" once.
fn error_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if text.is_empty() || line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
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

#[cfg(test)]
mod tests {
    use super::error_line;

    #[test]
    fn a_cause_already_said_is_not_said_again() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let error = anyhow::Error::new(io).context("cannot read x.ron: No such file");
        assert_eq!(error_line(&error), "cannot read x.ron: No such file");
        let error = anyhow::anyhow!("out of memory").context("out of memory");
        assert_eq!(error_line(&error), "out of memory");
        let error = anyhow::anyhow!("the port is taken").context("cannot host");
        assert_eq!(error_line(&error), "cannot host: the port is taken");
    }
}
