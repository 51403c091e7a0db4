//! # fixstep-town
//!
//! The rules of the town, built on `fixstep-runtime`: characters, NPC taxis, interactive
//! objects, teleport zones, dialogue and cutscenes, simulated in exact 100 ms ticks of
//! fixed-point arithmetic. Nothing here knows that anything draws it: after each tick
//! [`TownSim`] publishes a [`GameSnapshot`], and the presentation pulls.
//!
//! Its modules: [`level`] loads and checks levels (and generates the stress level); [`state`]
//! is what a tick changes; [`bots`] play it headless; [`predict`] is the rules' half of the
//! own character's prediction; [`geom`] the fixed-point geometry of walls and zones; [`tuning`]
//! every constant of the rules, each with its unit and reason.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_town::{PlayerCommand, TownSim, level};
//! use fixstep_runtime::{Player, Simulation, Tick};
//!
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let town = level::load_level(assets, &assets.join("levels/town.ron")).expect("valid level");
//! let mut sim = TownSim::new(Arc::new(town), 42, 1);
//! let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
//! let snapshot = sim.step(Tick(0), &[walk]).expect("tick 0 comes first");
//! println!("player at {:?}", snapshot.player_character(Player::FIRST).map(|c| c.pos));
//! ```

#![deny(clippy::float_arithmetic, clippy::float_cmp)]
// Each narrowing or sign-dropping cast is proven safe: a silent wrap breaks determinism or bounds.
#![warn(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod anim;
pub mod bots;
mod characters;
mod check;
mod collision;
mod command;
mod dialogue;
pub mod geom;
mod grid;
pub mod level;
mod objects;
pub mod predict;
mod sim;
mod snapshot;
pub mod state;
mod taxis;
pub mod tuning;
mod zones;

pub use anim::{AnimState, advance_frame};
pub use collision::PairWork;
pub use command::{CommandError, PlayerCommand};
pub use objects::eased;
pub use sim::{MAX_PLAYERS, TownSim, time_of_day};
pub use snapshot::{CharacterView, GameSnapshot, ObjectView, TaxiView};
pub use taxis::TaxiWork;

/// One line on what the rules of this build cover, for `fixstep` to print.
pub const SUMMARY: &str = "the town's rules: characters, NPC taxis, doors, lifts, signs, \
                           teleports, dialogue, cutscenes and time of day";
