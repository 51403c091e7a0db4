//! The `fixstep` command line: parsing, and the one-line errors and exit codes it promises.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code of a usage or input error (a bad flag, a malformed file): 2, as clap and most
/// Unix tools use, so scripts can tell it from a failure of the program itself (1).
pub const EXIT_USAGE: u8 = 2;

/// Fixstep: a deterministic lockstep town, drawn smoothly between its 100 ms ticks.
#[derive(Debug, Parser)]
#[command(name = "fixstep", version, about)]
pub struct Cli {
    /// What to do; without one, `fixstep` says what this build holds.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what this build holds: the crates, the simulation version and the commands.
    About,
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
            print!("{error}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("{}", one_line(&error.to_string()));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match cli.command {
        None | Some(Command::About) => {
            print!("{}", about());
            ExitCode::SUCCESS
        }
    }
}

/// The first line of clap's message, which names the problem, with a pointer to `--help`
/// instead of the usage block that follows it.
fn one_line(message: &str) -> String {
    let first = message.lines().find(|l| !l.trim().is_empty()).unwrap_or("invalid arguments");
    format!("{} (see `fixstep --help`)", first.trim())
}

/// What `fixstep` prints without a command.
#[must_use]
pub fn about() -> String {
    format!(
        "fixstep {version}: a deterministic lockstep game runtime, 100 ms ticks in fixed point.\n\
         \n\
         This build holds:\n\
         - fixstep-runtime: fixed-point math, ticks and the frame scheduler, entity storage,\n\
         \x20 state hashes, replays and the determinism self-test\n\
         - fixstep-game: {game}\n\
         \n\
         Run `fixstep --help` for the commands.\n",
        version = env!("CARGO_PKG_VERSION"),
        game = fixstep_game::SUMMARY,
    )
}
