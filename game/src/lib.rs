//! # fixstep-game
//!
//! The rules of the town, built on `fixstep-runtime`: fixed-point only, deterministic, and
//! unaware that anything draws them.

#![deny(clippy::float_arithmetic, clippy::float_cmp)]

mod anim;
pub mod geom;
pub mod level;

pub use anim::{AnimState, advance_frame};

/// One line on what the rules of this build cover, for `fixstep` to print.
pub const SUMMARY: &str = "the town's rules (characters, taxis, objects) are not in this build yet";
