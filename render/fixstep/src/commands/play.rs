//! `fixstep play` (and `fixstep` alone): a game in a window; and the window of `host`, `join`
//! and `spectate` when they are not headless.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use fixstep_net::Admission;
use fixstep_netplay::{HostOptions, PeerOptions};

use super::{Paths, bad_input};
use crate::games::Playable;

/// `fixstep play`'s arguments.
#[derive(Clone, Debug, Default, Args)]
pub struct PlayArgs {
    /// The content file (default: the game's, such as the town's `levels/town.ron` under the
    /// assets).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// The window's size, WIDTHxHEIGHT pixels.
    #[arg(long, default_value = "1280x720", value_parser = super::screenshot::parse_size)]
    pub size: (u32, u32),
    /// Quit after drawing this many frames.
    #[arg(long,
          value_parser = clap::value_parser!(u64).range(0..=super::bounds::MAX_PLAY_FRAMES))]
    pub frames: Option<u64>,
    /// With --frames: write the last frame drawn to this PNG.
    #[arg(long, requires = "frames")]
    pub screenshot: Option<PathBuf>,
    /// Seed of the simulation's random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bots that play alongside you (players 1 to N): company in the town, opponents and
    /// team mates in the arena.
    #[arg(long, default_value_t = 0,
          value_parser = super::bounds::up_to(u64::from(super::bounds::MAX_BOTS)))]
    pub bots: usize,
    /// Pose the characters on the CPU instead of the GPU.
    #[arg(long)]
    pub cpu_skinning: bool,
    /// Write what each frame of the window drew (JSON Lines, the drawn-log format, at the
    /// window's real times) to this file.
    #[arg(long)]
    pub drawn_log: Option<PathBuf>,
    /// Play alone at once, without the front screen (as --frames, --screenshot, --drawn-log
    /// and --bots do).
    #[arg(long)]
    pub alone: bool,
}

impl PlayArgs {
    #[cfg_attr(
        not(feature = "window"),
        expect(dead_code, reason = "a headless build has no front screen to skip")
    )]
    /// Whether the game starts at once: asked to, or asked to record or to bring bots, which
    /// the front screen has no say in.
    #[must_use]
    pub const fn skips_front_screen(&self) -> bool {
        self.alone
            || self.frames.is_some()
            || self.screenshot.is_some()
            || self.drawn_log.is_some()
            || self.bots > 0
    }
}

/// Which network game a window plays.
#[derive(Clone, Debug)]
#[cfg_attr(
    not(feature = "window"),
    expect(dead_code, reason = "a headless build has no window to hand what it plays to")
)]
pub enum Windowed {
    /// A game played alone.
    Local(PlayArgs),
    /// Host it, and play in it.
    Host(HostOptions),
    /// Host a match that plays on from a replay's tick (the state before `from`, or its end),
    /// and play the first seat.
    PlayOn {
        /// How to host it.
        options: HostOptions,
        /// The replay.
        replay: PathBuf,
        /// The tick to play on from.
        from: Option<fixstep_runtime::Tick>,
    },
    /// Join a game.
    Join(PeerOptions),
    /// Watch the game at `host`.
    Spectate {
        /// The host.
        host: SocketAddr,
        /// The spectator's name.
        name: String,
        /// What it presents to the host.
        admission: Admission,
        /// Where to record the match it watches as a replay, if anywhere.
        record: Option<PathBuf>,
    },
    /// Watch the replay in this file, on the content it carries.
    Replay(PathBuf),
    /// Join or watch (`then`: [`Join`](Self::Join) or [`Spectate`](Self::Spectate), whose
    /// host the dial gives) the match of a join code, dialled from the front screen's form.
    ByCode {
        /// The code.
        code: fixstep_net::join_code::JoinCode,
        /// The rendezvous to look it up at.
        rendezvous: SocketAddr,
        /// The STUN servers asked where the internet sees this player.
        stun: Vec<SocketAddr>,
        /// What to do once the host answered.
        then: Box<Windowed>,
    },
}

/// Runs `fixstep play`.
///
/// # Errors
///
/// A bad level, no display, no GPU, or a failure of the game.
pub fn run<G: Playable>(args: &PlayArgs, paths: &Paths) -> Result<()> {
    if args.bots >= G::MAX_PLAYERS {
        return Err(bad_input(anyhow::anyhow!(
            "--bots {}: the {} holds at most {} players, you among them",
            args.bots,
            G::NAME,
            G::MAX_PLAYERS
        )));
    }
    let level_file = paths.content_file::<G>(args.level.as_deref());
    let content = paths.load::<G>(&level_file)?;
    window::<G>(paths, &level_file, &content, &Windowed::Local(args.clone()))
}

/// Plays `content` of game `G` in a window as `mode` says. A missing display or GPU is a bad
/// input (of where the program runs), said in one line.
///
/// # Errors
///
/// No display, no GPU, or a failure of the game.
#[cfg(feature = "window")]
pub fn window<G: Playable>(
    paths: &Paths,
    level_file: &Path,
    content: &Arc<G::Content>,
    mode: &Windowed,
) -> Result<()> {
    use fixstep_window::dialling::{AfterDial, CodeDial};
    use fixstep_window::settings::{default_path, load_or_create};
    use fixstep_window::{DEFAULT_SIZE, Mode, PlayError, PlayOptions, run_with_sound};

    // Read once; what is wrong with the file is said once, and never stops the game.
    let settings_file = default_path();
    let settings = match settings_file.as_deref().map(load_or_create) {
        Some(loaded) => {
            if let Some(warning) = loaded.warning {
                tracing::warn!("{warning}");
            }
            loaded.settings
        }
        None => fixstep_window::settings::Settings::default(),
    };
    // The window's size: --size when given, else the settings'.
    let set_size = (settings.window.width, settings.window.height);
    let set = || PlayOptions {
        size: set_size,
        settings: settings.clone(),
        settings_file: settings_file.clone(),
        ..PlayOptions::default()
    };
    let (options, cpu_skinning, mode) = match mode {
        Windowed::Local(args) => (
            PlayOptions {
                size: if args.size == DEFAULT_SIZE { set_size } else { args.size },
                frames: args.frames,
                screenshot: args.screenshot.clone(),
                seed: args.seed,
                bots: args.bots,
                drawn_log: args.drawn_log.clone(),
                settings: settings.clone(),
                settings_file: settings_file.clone(),
            },
            args.cpu_skinning,
            if args.skips_front_screen() { Mode::Local } else { Mode::Front },
        ),
        Windowed::Host(options) => (set(), false, Mode::Host(options.clone())),
        Windowed::PlayOn { options, replay, from } => {
            let (options, replay, from) = (options.clone(), replay.clone(), *from);
            (set(), false, Mode::PlayOn { options, replay, from })
        }
        Windowed::Join(options) => (set(), false, Mode::Join(options.clone())),
        Windowed::Spectate { host, name, admission, record } => {
            let (host, name, admission) = (*host, name.clone(), admission.clone());
            (set(), false, Mode::Spectate { host, name, admission, record: record.clone() })
        }
        Windowed::Replay(path) => (set(), false, Mode::Replay(path.clone())),
        Windowed::ByCode { code, rendezvous, stun, then } => {
            let then = match then.as_ref() {
                Windowed::Join(options) => AfterDial::Join(options.clone()),
                Windowed::Spectate { name, admission, record, .. } => AfterDial::Spectate {
                    name: name.clone(),
                    admission: admission.clone(),
                    record: record.clone(),
                },
                other => anyhow::bail!("only a join or a watch dials a code, not {other:?}"),
            };
            let dial = CodeDial { code: *code, rendezvous: *rendezvous, stun: stun.clone(), then };
            (set(), false, Mode::Dial(dial))
        }
    };
    let setup = crate::games::drawn::RenderSetup {
        assets: paths.assets.clone(),
        content_file: level_file.to_path_buf(),
        cpu_skinning,
    };
    let sound = G::sound(content, &paths.assets);
    let result = run_with_sound::<G, G::Renderer>(
        &options,
        content,
        &mode,
        sound,
        |ctx, format, size, drawn| {
            G::renderer(ctx, format, size, drawn, &setup).map_err(|e| PlayError::Window(e.into()))
        },
    );
    match result {
        Ok(()) => Ok(()),
        Err(error @ (PlayError::NoDisplay(_) | PlayError::Gpu(_))) => Err(bad_input(error)),
        Err(error) => Err(error.into()),
    }
}

/// Without the window feature there is no window: says so.
///
/// # Errors
///
/// Always, as a bad input.
#[cfg(not(feature = "window"))]
pub fn window<G: Playable>(
    _paths: &Paths,
    _level_file: &Path,
    _content: &Arc<G::Content>,
    _mode: &Windowed,
) -> Result<()> {
    Err(bad_input(anyhow::anyhow!(
        "this fixstep is a headless build, without a window: run with --headless, or build it \
         with its default features"
    )))
}
