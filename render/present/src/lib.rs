//! # fixstep-present
//!
//! The presentation layer: drawing a deterministic simulation smoothly at any frame rate. No
//! GPU and no window; a renderer draws what it gives.
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
//! frames forward through a looping clip's wrap, rotations by slerp ([`interp`]). Some changes
//! must not be blended: an entity seen for the first time, one that was teleported or
//! respawned (its jump counter changed), one switched on or off, one not sampled for a while.
//! Those **reset** ([`track`]): the old sample is drawn unchanged until the clock reaches the
//! tick of the new one, and the new one from then on, so the cut shows when it happened and
//! nothing is drawn between the two places.
//!
//! Three things are drawn otherwise:
//!
//! - the player's **own character** answers its keys on the next frame: it is drawn from a
//!   prediction of the game's own movement rule, run ahead of the ticks on a copy ([`own`]);
//! - **remote entities**, whose state arrives over the network, are drawn at the network
//!   clock's render tick from per-entity buffers ([`remote`]);
//! - games whose entities are simple shapes get a whole presentation for free ([`shapes`]).
//!
//! A game says how it is drawn by implementing [`Game`] and [`Presentation`] ([`game`]); the
//! frame loops ([`local`], and network play and the window above this crate) are written
//! against those. What was drawn and what was true are written as the drawn log and the truth
//! ([`record`], in the files of [`format`](mod@format)), which `fixstep judder` measures. This crate is the
//! one place where fixed-point numbers become floats ([`convert`]); nothing here changes
//! simulation state. The camera that follows the player is a [`camera`] rig; skinned figures
//! are posed from their clips by [`skinning`].
//!
//! ```
//! use fixstep_present::track::{Sample, Track};
//! use fixstep_runtime::Tick;
//!
//! /// A door's swing, in radians; a jump counter tells when it was put somewhere new.
//! #[derive(Clone, Debug, PartialEq)]
//! struct Swing { angle: f32, jumps: u32 }
//!
//! impl Sample for Swing {
//!     type Key = u32;
//!     type Context = ();
//!     fn key(&self) -> u32 { self.jumps }
//!     fn blend(a: &Self, b: &Self, t: f32, (): &(), out: &mut Self) {
//!         out.angle = a.angle + (b.angle - a.angle) * t;
//!         out.jumps = b.jumps;
//!     }
//! }
//!
//! let mut door = Track::new(Tick(0), Swing { angle: 0.0, jumps: 0 });
//! door.observe(Tick(1), Swing { angle: 1.0, jumps: 0 });
//! let mut drawn = Swing { angle: 0.0, jumps: 0 };
//! door.sample_into(0.25, &(), &mut drawn);
//! assert_eq!(drawn.angle, 0.25, "a quarter of the way through the tick");
//! door.observe(Tick(2), Swing { angle: -1.0, jumps: 1 });
//! door.sample_into(0.5, &(), &mut drawn);
//! assert_eq!(drawn.angle, 1.0, "a jump is never blended: the old place until its tick");
//! ```

pub mod camera;
pub mod convert;
pub mod format;
pub mod game;
pub mod interp;
pub mod local;
pub mod own;
pub mod record;
pub mod remote;
pub mod shapes;
pub mod skinning;
pub mod track;

pub use camera::{CameraDraw, CameraRig, FreeLook};
pub use game::{
    CommandOf, ControlNames, Controls, FrameOf, Game, PartialOf, Presentation, SnapshotOf, StateOf,
};
pub use local::LocalGame;
pub use own::{OwnDraw, OwnPose, OwnPrediction, OwnRules};
pub use record::{DrawnLog, HeldMark, TruthLog};
pub use remote::{RemoteObjects, RemoteView};
pub use track::{Sample, Track};
