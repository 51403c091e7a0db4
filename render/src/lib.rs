//! # fixstep-render
//!
//! The presentation side of Fixstep: the `fixstep` binary and its command line. The
//! simulation it drives lives in `fixstep-runtime` and `fixstep-game`; nothing here may change
//! simulation state, and this is the only crate where fixed-point numbers become floats.

pub mod cli;
pub mod headless;
pub mod judder;
pub mod present;
pub mod record;
