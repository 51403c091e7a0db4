//! # fixstep-render
//!
//! The presentation side of Fixstep: the presentation layer ([`present`]), the wgpu renderer
//! ([`gpu`]), the desktop game ([`app`]), and the `fixstep` binary and its command line. The
//! simulation it drives lives in `fixstep-runtime` and `fixstep-game`; nothing here may change
//! simulation state, and this is the only crate where fixed-point numbers become floats.

pub mod app;
pub mod assets;
pub mod cli;
pub mod commands;
pub mod gpu;
pub mod judder;
pub mod local_game;
pub mod net_game;
pub mod present;
pub mod record;
pub mod shot;
pub mod trace;
