//! The runtime's behaviour tests, one module per topic; the golden and determinism tests stay
//! binaries of their own, which CI runs again in release.

mod common;
mod simulated_link;

mod angle_properties;
mod bounded_read;
mod entity_store;
mod fixed_mul;
mod frame_scheduler;
mod held_input;
mod length_fields;
mod math_accuracy;
mod net_hostile_host;
mod net_lockstep;
mod net_spectators;
mod net_succession;
mod network_clock;
mod replay;
mod state_hash;
