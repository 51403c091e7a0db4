//! The town between its ticks: what each entity is sampled as ([`samples`]), what a frame
//! draws ([`frame`]), the presentation that keeps every entity's samples and draws them
//! ([`presentation`]), the own character's rules for the prediction ([`own`]), and what runs
//! on real time only: stars, the dialogue typewriter, cutscene timers ([`effects`]).

pub mod effects;
pub mod frame;
pub mod own;
pub mod presentation;
pub mod samples;
