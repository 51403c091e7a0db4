//! # The presentation layer
//!
//! The simulation advances in exact 100 ms ticks; the screen draws at its own rate, 60, 144
//! or whatever the display does. Drawing each entity where the latest tick left it would show
//! it standing still for several frames and then jumping: a judder. So the presentation keeps
//! two samples of every entity, the **previous** (the tick before the latest) and the
//! **current** (the latest), and each frame draws it `alpha` of the way between them, where
//! `alpha` is the real time since the latest tick completed, as a fraction of a tick. The
//! world is therefore drawn at most one tick late, but it is never guessed: everything drawn
//! is between two states the simulation really computed.
//!
//! Positions blend in straight lines, facings the short way round the circle, animation
//! frames forward through a looping clip's wrap, rotations by slerp. Some changes must not be
//! blended: an entity seen for the first time, one that was teleported or respawned (its
//! jump counter changed), one switched on or off, one not sampled for a while. Those **reset**:
//! the old sample is drawn unchanged until the clock reaches the tick of the new one, and the
//! new one from then on, so the cut shows when it happened and nothing is drawn between the
//! two places; a new entity is not drawn before its first tick. A change of animation state
//! resets the animation (a new clip is never blended with the old one) but not the feet.
//!
//! Things that only look (stars over teleport zones, the dialogue typewriter, cutscene
//! timers) run on real time every frame. Nothing here changes simulation state: gameplay,
//! collisions and events use the authoritative snapshot only. This module is the only place
//! where fixed-point numbers become floats ([`convert`]).

pub mod camera;
pub mod convert;
pub mod effects;
pub mod frame;
pub mod interp;
mod local;
pub mod own;
pub mod remote;
pub mod samples;
pub mod skinning;
pub mod track;

pub use frame::DrawFrame;
pub use local::LocalPresentation;
