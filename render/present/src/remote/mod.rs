//! # Remote entities: state that arrives over the network
//!
//! A local game draws between two ticks it simulated itself. An entity whose state arrives as
//! snapshots over a network (a spectator's view of the town, a far peer's pose) is drawn from
//! what the host measured, which comes late, at uneven times, sometimes in bursts, and for far
//! entities only every second or fourth tick. Three pieces turn that into smooth motion:
//!
//! - the **network clock** ([`fixstep_runtime::clock::NetworkClock`]) estimates the host's
//!   tick from the arrivals and gives the **render tick**, two ticks behind it, so there is
//!   nearly always a measurement on either side of what is drawn;
//! - a **remote buffer** per entity ([`RemoteBuffer`]) keeps the entity's recent measurements
//!   and samples its pose at any fractional tick: vehicles on a cubic Hermite curve through
//!   both measured velocities, walkers on straight segments; held exactly at rest; extrapolated
//!   a little past the newest measurement and then held; corrections blended away instead of
//!   jumped; a jump never drawn in between. Far tiers are drawn further behind (their period
//!   less one snapshot) so they too are interpolated at every frame;
//! - the **update-gap delay** ([`UpdateGapDelay`]) measures how far apart an entity's states
//!   really arrive, for entities whose period no tier tells, and delays them just enough.
//!
//! Placed objects that a game sends only when they change (the town's doors, lifts and signs)
//! are drawn between those changes at the same render tick by [`RemoteObjects`].
//!
//! A [`RemoteView`] holds all three for every remote entity, found by id through a hash map,
//! and draws them each frame into a list it keeps, without allocating:
//!
//! ```
//! use fixstep_present::remote::{Measurement, Motion, RemoteView};
//! use fixstep_runtime::Tick;
//! use glam::Vec3;
//!
//! let mut view = RemoteView::new();
//! // 40 ms after the host measured tick 0, its snapshot arrives: a car at rest.
//! view.advance(40_000);
//! view.snapshot_arrived(Tick(0));
//! view.measure(7, Motion::Vehicle, &Measurement::at_rest(0, Vec3::ZERO, 0.0, 1));
//! // Frames draw it at the render tick, two ticks (and a slack) behind the host.
//! view.advance(16_667);
//! let drawn = view.draw();
//! assert!((-2.0..-1.5).contains(&drawn.render_tick), "{}", drawn.render_tick);
//! assert!(drawn.entities.is_empty(), "nothing is drawn before its first measurement");
//! for _ in 0..20 {
//!     view.advance(16_667);
//!     view.draw();
//! }
//! assert_eq!(view.draw().entities[0].sample.pos, Vec3::ZERO, "held exactly where it rests");
//! ```

mod buffer;
mod correction;
mod gap_delay;
mod kernel;
mod measurement;
mod objects;
mod view;

pub use buffer::{MAX_EXTRAPOLATION_TICKS, REMOTE_HISTORY, RemoteBuffer, RemoteSample, tier_delay};
pub use correction::{
    BLEND_MAX_TICKS, BLEND_PACE_SHARE, BLEND_TICKS, Correction, NOTHING_TO_BLEND_M,
};
pub use gap_delay::{GAP_SLEW_TICKS_PER_SECOND, MAX_GAP_TICKS, UpdateGapDelay};
pub use measurement::{Measurement, Motion};
pub use objects::{OBJECT_HISTORY, RemoteObjects};
pub use view::{RemoteDraw, RemoteFrame, RemoteView};

pub use crate::convert::TICK_SECONDS;
