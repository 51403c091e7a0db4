//! The `fixstep` program: play the town or the arena in a window, host, join and watch network
//! games, run them headless, replay them, test their determinism, and measure what was drawn.
//! Each command is a module of [`commands`], written once for any game; [`games`] wires in the
//! two games. Nothing imports this crate.

mod cli;
mod commands;
mod games;
mod logs;

fn main() -> std::process::ExitCode {
    quiet_vulkan_device_select();
    cli::run(std::env::args_os())
}

/// Mesa's implicit Vulkan layer that picks the default GPU connects to a Wayland display to
/// ask the compositor, and without a session's runtime directory (a virtual display, a
/// server) it printed "XDG_RUNTIME_DIR is invalid or not set" twice on every window's start.
/// With no session there is no compositor to ask: the layer is turned off (`NODEVICE_SELECT`),
/// and wgpu chooses the adapter as it always does. A session's environment is left alone.
#[expect(unsafe_code, reason = "setting an environment variable before any thread starts")]
fn quiet_vulkan_device_select() {
    let has_runtime_dir =
        std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|dir| std::path::Path::new(&dir).is_dir());
    if !has_runtime_dir && std::env::var_os("NODEVICE_SELECT").is_none() {
        // SAFETY: the first thing `main` does, while this is the process's only thread, so
        // no other thread reads the environment as it changes.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}
