//! The town's behaviour tests, one module per topic; the determinism tests stay binaries of their
//! own, which CI runs again in release (the late-join one runs itself as a child process).

mod common;

mod bots;
mod carried_content;
mod characters;
mod commands;
mod crowds;
mod dialogue;
mod level_loading;
mod objects;
mod predict;
mod script;
mod seats;
mod snapshots;
mod state_checks;
mod taxis;
mod zones;
