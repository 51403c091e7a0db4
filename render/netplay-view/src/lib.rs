//! # fixstep-netplay-view
//!
//! What a window draws of network play, over the float-free drivers of `fixstep-netplay`:
//!
//! - a [`NetSpectator`] runs no simulation: it hands what it is sent to its game's
//!   [`Spectator`], which draws it (through the remote view of `fixstep-present`);
//! - [`PlayerFrames`] is a player's frame loop, headless or in a window, over a
//!   [`fixstep_netplay::NetPeer`];
//! - a [`HostThread`] serves a windowed host's socket from a thread of its own
//!   ([`host_thread`]), so a window that stops drawing does not stop the game.
//!
//! A game implements [`NetGame`] on the type that describes it: its rules' [`NetRules`], its
//! presentation's [`Game`], and how its spectators draw. Games on a ground plane can send
//! spectators the poses of what moves with [`ground`]; games drawn as shapes get the whole of
//! it from [`shapes`].

pub mod ground;
pub mod host_thread;
mod player_frames;
pub mod shapes;
mod spectator;

use std::sync::Arc;

use fixstep_netplay::NetRules;
use fixstep_present::format::DrawnFrame;
use fixstep_present::{CameraDraw, FrameOf, Game};

pub use host_thread::{CompletedTick, HostThread};
pub use player_frames::PlayerFrames;
pub use spectator::NetSpectator;

/// A game played over the network and drawn: its [`NetRules`] and its [`Game`], and how a
/// spectator draws what it is sent.
pub trait NetGame: NetRules + Game {
    /// How a spectator draws what it is sent: into the same frames as a player's, so that one
    /// renderer draws both.
    type Spectator: Spectator<Self, Frame = FrameOf<Self>>;
}

/// A spectator's presentation of what its game sends it: the remote view's drawing of the
/// host's measurements, at the network clock's render tick.
pub trait Spectator<G: NetGame>: Send + 'static {
    /// What a frame draws: the same frames as a player's, so one renderer draws both.
    type Frame: 'static;

    /// A spectator of a game of `content`, that has seen nothing yet.
    fn new(content: &Arc<G::Content>) -> Self;

    /// `elapsed_micros` of real time passed: call it before handing over what arrived in it.
    fn advance(&mut self, elapsed_micros: u64);

    /// What the host sent of a tick arrived now.
    fn update(&mut self, update: G::SpectatorUpdate);

    /// Another host took the match over after a silence, its ticks going on from where the
    /// old host's stopped: the drawing holds through the pause and goes on, never jumps.
    fn host_changed(&mut self);

    /// What to tell the host the spectator looks at, when its camera looks at `target`.
    fn view(&self, target: glam::Vec3) -> G::SpectatorView;

    /// Draws a frame through `camera`, `dt_seconds` after the last.
    fn draw(&mut self, camera: &CameraDraw, dt_seconds: f32) -> &Self::Frame;

    /// The frame drawn last.
    fn frame(&self) -> &Self::Frame;

    /// The tick the last frame drew (negative infinity before anything arrived).
    fn render_tick(&self) -> f64;

    /// How many entities it draws.
    fn entities(&self) -> usize;

    /// Names the players by player number, as the host last said.
    fn set_player_names(&mut self, names: &[String]);

    /// Writes what the frame drawn last shows into a drawn-log line.
    fn record(&self, line: &mut DrawnFrame);
}
