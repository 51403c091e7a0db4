//! # fixstep-town-view
//!
//! How the town is drawn. The town's rules (`fixstep-game`) publish a snapshot after every
//! tick and know nothing of this; here the snapshots become pictures:
//!
//! - [`present`]: the town's presentation between ticks ([`TownPresentation`]): characters
//!   with their animation clips, taxis with steering and rolling wheels, doors, the lift and
//!   the sign with their transforms, all reset rather than blended at a jump; the player's own
//!   character from the prediction of its held keys; the stars, the dialogue typewriter and
//!   cutscenes on real time;
//! - [`spectator`]: what a spectator draws of the town from the poses it is sent
//!   ([`TownSpectator`]), into the same frames;
//! - [`wire`]: what a spectator of the town is sent;
//! - [`record`]: the town in the drawn log and the truth that `fixstep judder` measures;
//! - [`assets`]: the level and the rig its characters are posed with;
//! - `gpu` (feature `gpu`): the town's wgpu renderer, one file per pipeline.
//!
//! It presents any game whose simulation is the town's ([`TownGame`]): `fixstep-town`'s
//! `Town` is that game.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_town_view::{TownPresentation, assets};
//!
//! let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let level = assets::load_level_file(root, &assets::default_level(root)).expect("the town loads");
//! let presentation = TownPresentation::new(Arc::new(level), 0);
//! assert!(presentation.latest().is_none(), "nothing observed yet");
//! ```

pub mod assets;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod present;
pub mod record;
pub mod shot;
pub mod spectator;
pub mod wire;

use fixstep_game::level::Level;
use fixstep_game::predict::{InputAccumulator, OwnBody};
use fixstep_game::{GameSnapshot, PlayerCommand};
use fixstep_netplay::NetGame;
use fixstep_netplay::ground::GroundPoint;
use fixstep_present::Game;
use fixstep_runtime::Simulation;

pub use present::frame::DrawFrame;
pub use present::presentation::TownPresentation;
pub use spectator::TownSpectator;
pub use wire::{TownFeed, TownSource, TownUpdate};

/// A game whose simulation is the town's: its snapshots, commands, held input and own
/// character are the town's, and its content a level. What this crate presents.
pub trait TownGame:
    Game<
        Content = Level,
        Own = OwnBody,
        Input = InputAccumulator,
        Presentation = TownPresentation,
        Sim: Simulation<Snapshot = GameSnapshot, Command = PlayerCommand>,
    >
{
}

/// The town played over the network, its spectators sent [`TownUpdate`]s.
pub trait TownNetGame:
    TownGame + NetGame<SpectatorUpdate = TownUpdate, SpectatorView = GroundPoint>
{
}
