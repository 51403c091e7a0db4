//! # fixstep-tools
//!
//! Measuring how smoothly a game is drawn, headless:
//!
//! - [`trace`] runs the remote view (network clock, remote buffers, update-gap delay) over a
//!   recorded network trace, as a client would, and writes what each frame drew;
//! - [`judder`] measures a drawn log against the truth, frame by frame: frames drawn at the
//!   wrong pace, position error and delay, pops, reversals, slides, frames misplaced around a
//!   jump, turns the long way round, animation back-steps, the own character's input
//!   latency; and plots the worst entities' speeds;
//! - [`tracegen`] generates scenario traces with their truth (stalls, loss bursts, clock
//!   drift, tier changes, uneven frames, teleports), the same bytes on every run.
//!
//! The files are those of `fixstep_present::format`.
//!
//! ```
//! use fixstep_tools::trace::run_trace;
//!
//! let trace = concat!(
//!     r#"{"header":{"format":1,"tick_ms":100}}"#, "\n",
//!     r#"{"at_ms":40,"snapshot":{"tick":0,"entities":[{"id":1,"kind":"walker","pos":[0,0,0],"vel":[0,0,0],"yaw":0,"at_rest":true,"tier":1,"jumps":0}],"gone":[]}}"#, "\n",
//!     r#"{"at_ms":50,"frame":{}}"#, "\n",
//! );
//! let mut drawn = Vec::new();
//! let summary = run_trace(trace.as_bytes(), &mut drawn).expect("a good trace runs");
//! assert_eq!((summary.snapshots, summary.frames), (1, 1));
//! assert_eq!(String::from_utf8(drawn).unwrap().lines().count(), 1, "a line per frame");
//! ```

mod error;
pub mod judder;
pub mod trace;
pub mod tracegen;

pub use error::ToolError;
