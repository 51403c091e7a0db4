//! The `fixstep` program: play the town or the arena in a window, host, join and watch network
//! games, run them headless, replay them, test their determinism, and measure what was drawn.
//! Each command is a module of [`commands`], written once for any game; [`games`] wires in the
//! two games. Nothing imports this crate.

mod cli;
mod commands;
mod games;
mod logs;

fn main() -> std::process::ExitCode {
    cli::run(std::env::args_os())
}
