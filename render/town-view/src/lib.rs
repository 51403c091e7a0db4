//! # fixstep-town-view
//!
//! Everything the town is above its rules. The rules (`fixstep-town`) publish a snapshot after
//! every tick and know nothing of this; here the snapshots become a game the layers run,
//! pictures and sound:
//!
//! - [`town`]: [`Town`], the town as a game of the layers above: what the frame loops,
//!   network play, the window and the tools run;
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
//! - `gpu` (feature `gpu`): the town's wgpu renderer, one file per pipeline;
//! - `sound` (feature `sound`): the town's soundscape, from what each frame draws.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_runtime::Player;
//! use fixstep_town_view::{TownPresentation, assets};
//!
//! let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let level = assets::load_level_file(root, &assets::default_level(root)).expect("the town loads");
//! let presentation = TownPresentation::new(Arc::new(level), Player::FIRST);
//! assert!(presentation.latest().is_none(), "nothing observed yet");
//! ```

pub mod assets;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod present;
pub mod record;
pub mod shot;
#[cfg(feature = "sound")]
pub mod sound;
pub mod spectator;
pub mod town;
pub mod wire;

pub use present::frame::DrawFrame;
pub use present::presentation::TownPresentation;
pub use spectator::TownSpectator;
pub use town::{KEY_TURN_PER_TICK, Town};
pub use wire::{TownFeed, TownSource, TownUpdate};
