//! The games this program plays (`fixstep --game NAME`), and the little each needs beyond the
//! generic commands: how its frames are drawn in a window or a picture, and what a screenshot
//! may add to one. Everything else a command does is written once, against the game traits.

#[cfg(feature = "window")]
pub mod drawn;

use std::path::{Path, PathBuf};

use fixstep_netplay_view::NetGame;

/// Which game a command runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    /// The town: characters, taxis, doors, a lift, dialogue and cutscenes.
    #[default]
    Town,
    /// The arena: players push pucks into goals.
    Arena,
}

/// A game this program plays: any game network play runs, and, in a build with the window,
/// one it can draw ([`drawn::Drawn`]).
#[cfg(feature = "window")]
pub trait Playable: NetGame + drawn::Drawn {}

#[cfg(feature = "window")]
impl<G: NetGame + drawn::Drawn> Playable for G {}

/// A game this program plays: any game network play runs (this build draws nothing).
#[cfg(not(feature = "window"))]
pub trait Playable: NetGame {}

#[cfg(not(feature = "window"))]
impl<G: NetGame> Playable for G {}

/// The assets root when none is given: `./assets` if there is one, else the workspace's own
/// (for `cargo run` from anywhere in it).
#[must_use]
pub fn default_assets_root() -> PathBuf {
    let local = PathBuf::from("assets");
    if local.is_dir() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}
