//! The `fixstep` binary.

fn main() -> std::process::ExitCode {
    fixstep_render::cli::run(std::env::args_os())
}
