//! # fixstep-arena
//!
//! The rules of a second game on Fixstep, built on the runtime's public API alone and on
//! nothing of the town: a top-down arena where players steer pushers round a walled rink and
//! knock pucks into the other team's goal. Its rules are fixed point ([`rules`]), its rink a
//! data file under the assets ([`layout`]), its bot a few lines ([`bot`]). Nothing here knows
//! that anything draws it; `fixstep-arena-view` makes it a game of the layers above.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_arena::{ArenaCommand, ArenaSim, load_layout};
//! use fixstep_runtime::Simulation;
//!
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let rink = load_layout(assets, &assets.join("arena/arena.ron")).expect("the rink loads");
//! let mut sim = ArenaSim::new(Arc::new(rink), 1, 2);
//! let east = ArenaCommand { x: 100, y: 0, dash: false };
//! for _ in 0..10 {
//!     sim.step(sim.next_tick(), &[east, ArenaCommand::default()]).expect("a tick runs");
//! }
//! assert_eq!(sim.next_tick().0, 10);
//! ```

// Each narrowing or sign-dropping cast is proven safe: a silent wrap breaks determinism or bounds.
#![warn(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

pub mod bot;
pub mod layout;
pub mod rules;

pub use bot::ArenaBot;
pub use layout::{
    Layout, LayoutError, MAX_PUCKS, MAX_SPAWNS_PER_TEAM, RINK_FILE, layout_from_str, load_layout,
    read_layout,
};
pub use rules::{
    ArenaCommand, ArenaSim, ArenaState, MAX_PLAYERS, MM_PER_M, PUCK_MAX_SPEED, PUCK_RADIUS,
    PUCK_RADIUS_MM, PUSHER_RADIUS, PUSHER_RADIUS_MM, Pusher, drive,
};

/// One line on what this game is, for `fixstep about`.
pub const SUMMARY: &str = "two teams push pucks into each other's goal on a walled rink";
