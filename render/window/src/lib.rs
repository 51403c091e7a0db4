//! # fixstep-window
//!
//! The desktop window for any game of Fixstep's: a winit window a game's renderer draws into,
//! the keyboard and mouse as what the player holds ([`input`]), and the frame loop. Each
//! frame hands its real time to the game ([`session`]): a game played alone runs the ticks
//! its frame scheduler owes and draws at the scheduler's alpha; a network game's host, player
//! or spectator runs what the network says and draws at the network clock's render tick. The
//! HUD shows the tick, the frame rate, the hash and the network's state; F3 a graph of frame
//! times.
//!
//! [`Mode::Front`] opens on the front screen ([`front`], drawn by [`menus`]): play alone, host,
//! join (with the games on the local network listed, [`lan_list`]), watch, settings. The game
//! it starts runs in the same window; Esc opens the [`pause`] menu over it (Resume, Settings,
//! Leave, Quit), and leaving, or a network error in words, comes back to the front screen.
//! The other modes start a game at once, as the command line asks. The player's [`settings`]
//! (window, view, keys, volumes, HUD) live in a file in the platform's config directory, and
//! the [`settings_screen`] changes them live. A game's sound hears every frame drawn
//! ([`FrameSound`]).
//!
//! Resizing reconfigures the surface; a minimised window (size zero) keeps simulating but
//! draws nothing; an outdated surface is reconfigured and a lost one recreated. Without a
//! display or a GPU, [`run`] returns an error that says so in one line.
//!
//! Playing the arena with three bots for a few frames, drawn by the shape renderer (without a
//! display or a GPU, `run` says so and the example stops there):
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_arena_view::Arena;
//! use fixstep_gpu::shapes::ShapeRenderer;
//! use fixstep_present::Game;
//! use fixstep_runtime::Rules;
//! use fixstep_present::shapes::{ShapeGame, scenery_of};
//! use fixstep_window::{Mode, PlayError, PlayOptions, run};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let rink = Arc::new(Arena::load_content(assets, &Arena::default_content(assets))?);
//! let options = PlayOptions { frames: Some(3), bots: 3, ..PlayOptions::default() };
//! let played = run::<Arena, _>(&options, &rink, &Mode::Local, |ctx, format, size, drawn| {
//!     let scenery = scenery_of::<Arena>(drawn);
//!     Ok(ShapeRenderer::new(ctx, format, size, assets, &scenery, Arena::kinds())?)
//! });
//! match played {
//!     Ok(()) | Err(PlayError::NoDisplay(_) | PlayError::Gpu(_)) => {}
//!     Err(other) => return Err(other.into()),
//! }
//! # Ok(())
//! # }
//! ```

pub mod dialling;
pub mod front;
pub mod input;
pub mod lan_list;
pub mod menus;
pub mod pause;
pub mod replay;
pub mod replays;
pub mod session;
pub mod settings;
pub mod settings_screen;

mod app;
mod playing;
mod shell;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use fixstep_gpu::{FrameRenderer, GpuContext, GpuError};
use fixstep_net::Admission;
use fixstep_netplay::{HostOptions, NetPlayError, PeerOptions};
use fixstep_netplay_view::NetGame;
use fixstep_present::FrameOf;

use settings::{Settings, Volumes};

/// The window's size unless told, pixels: 720p, which every display shows whole.
pub const DEFAULT_SIZE: (u32, u32) = (1280, 720);

/// What a window is asked to do beside playing.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The window's size, pixels.
    pub size: (u32, u32),
    /// Quit after this many frames of a game drawn.
    pub frames: Option<u64>,
    /// Write the last frame drawn to this PNG (with `frames`).
    pub screenshot: Option<PathBuf>,
    /// Seed of the simulation of a game played locally.
    pub seed: u64,
    /// Bots that play a local game alongside the player at the keys.
    pub bots: usize,
    /// Where to write what each frame drew.
    pub drawn_log: Option<PathBuf>,
    /// What the player set: the window's mode and vsync, the keys, the mouse, the HUD, the
    /// volumes (the window's size is `size`).
    pub settings: Settings,
    /// Where the settings screen saves what the player changes, and the front screen the name
    /// and address it remembers (`None`: nowhere).
    pub settings_file: Option<PathBuf>,
}

impl Default for PlayOptions {
    /// Playing alone at the default size until the window is closed, with nothing recorded.
    fn default() -> Self {
        Self {
            size: DEFAULT_SIZE,
            frames: None,
            screenshot: None,
            seed: 1,
            bots: 0,
            drawn_log: None,
            settings: Settings::default(),
            settings_file: None,
        }
    }
}

/// Why the game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// No display to open a window on.
    #[error(
        "no display to open a window on ({0}); run it in a desktop session, or under a virtual \
         display (`xvfb-run fixstep`), or try `fixstep sim` or `fixstep screenshot`, which need \
         no window"
    )]
    NoDisplay(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// No GPU, or it failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The network game could not go on.
    #[error(transparent)]
    Net(#[from] NetPlayError),
    /// The host's serving thread stopped.
    #[error("the host stopped: {0}")]
    HostStopped(NetPlayError),
    /// A replay cannot be watched.
    #[error(transparent)]
    ReplayOpen(#[from] fixstep_runtime::replay::ReplayLoadError),
    /// A replay's record did not run (a seek, a tick).
    #[error("replay {}: {source}", path.display())]
    Replay {
        /// The replay.
        path: PathBuf,
        /// What is wrong.
        source: fixstep_runtime::ReplayError,
    },
    /// A tick did not run.
    #[error("a tick does not run: {0}")]
    Tick(#[from] fixstep_runtime::Error),
    /// A file the window writes cannot be written.
    #[error("cannot write the {what} {path}: {source}")]
    Write {
        /// What it is.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The window system failed.
    #[error("the window system failed: {0}")]
    Window(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// What the window plays.
#[derive(Clone, Debug)]
pub enum Mode {
    /// The front screen: the player picks.
    Front,
    /// A game played alone.
    Local,
    /// Host a network game, and play in it.
    Host(HostOptions),
    /// Host a network game that plays on from a replay's moment, and play in it as the first
    /// seat; the window is given the content the replay carries.
    PlayOn {
        /// How to host it.
        options: HostOptions,
        /// The replay.
        replay: PathBuf,
        /// The tick to play on from (the state before it); the replay's end if `None`.
        from: Option<fixstep_runtime::Tick>,
    },
    /// Join a game and play in it.
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
    /// Dial a join code at its rendezvous, then join or watch the game found; the front
    /// screen shows meanwhile.
    Dial(dialling::CodeDial),
}

/// A game's sound, driven by what the window draws: it hears each frame right after it is
/// drawn, so a sound starts at the drawn time of what makes it, never at a tick's.
pub trait FrameSound<F> {
    /// A frame was drawn, `seconds` after the one before.
    fn frame(&mut self, frame: &F, seconds: f32);

    /// A button of a menu was pressed.
    fn click(&mut self) {}

    /// The player set the volumes.
    fn set_volumes(&mut self, _volumes: &Volumes) {}

    /// The game was left: what plays on (engines, the fountain) stops.
    fn stop(&mut self) {}
}

/// No sound at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl<F> FrameSound<F> for Silent {
    fn frame(&mut self, _frame: &F, _seconds: f32) {}
}

/// What builds a window's renderer of some content, given the GPU, the format it draws in,
/// the size and the content: once the window has a GPU, and again for a replay that carries
/// other content than the renderer draws.
pub trait MakeRenderer<G: NetGame, R>:
    FnMut(&GpuContext, wgpu::TextureFormat, (u32, u32), &Arc<G::Content>) -> Result<R, PlayError>
{
}

impl<G, R, F> MakeRenderer<G, R> for F
where
    G: NetGame,
    F: FnMut(
        &GpuContext,
        wgpu::TextureFormat,
        (u32, u32),
        &Arc<G::Content>,
    ) -> Result<R, PlayError>,
{
}

/// Plays game `G` of `content` in a window, as `mode` says, until it is closed, Quit is
/// chosen, or `options.frames` are drawn; `make_renderer` builds its renderer of some content
/// once the window has a GPU (given the GPU, the format it draws in, the size and the
/// content), and again for a replay that carries other content. Silent: see
/// [`run_with_sound`].
///
/// # Errors
///
/// [`PlayError::NoDisplay`] without a display, [`PlayError::Gpu`] without a GPU, and any
/// failure of a game the command line started or of the renderer otherwise (a game the front
/// screen started says what went wrong there).
pub fn run<G, R>(
    options: &PlayOptions,
    content: &Arc<G::Content>,
    mode: &Mode,
    make_renderer: impl MakeRenderer<G, R>,
) -> Result<(), PlayError>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
{
    run_with_sound::<G, R>(options, content, mode, Box::new(Silent), make_renderer)
}

/// As [`run`], with `sound` hearing every frame drawn and every menu click.
///
/// # Errors
///
/// As [`run`].
pub fn run_with_sound<G, R>(
    options: &PlayOptions,
    content: &Arc<G::Content>,
    mode: &Mode,
    sound: Box<dyn FrameSound<FrameOf<G>>>,
    make_renderer: impl MakeRenderer<G, R>,
) -> Result<(), PlayError>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
{
    if cfg!(all(unix, not(target_os = "macos"), not(target_os = "android")))
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(PlayError::NoDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set".into()));
    }
    app::play::<G, R, _>(options, content, mode, sound, make_renderer)
}
