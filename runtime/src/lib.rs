//! # fixstep-runtime
//!
//! The deterministic core of Fixstep: everything a lockstep game needs so that every peer,
//! every run and every build computes the same bits. No floats, no wall clock, no graphics.
//!
//! ## A simulation in five steps
//!
//! 1. Keep every number of the game state in [`math::Fx`] (fixed-point) or an integer, every
//!    angle in a [`math::Angle`], and every collection of entities in a [`world::EntityStore`],
//!    which iterates in id order. Draw random numbers from a [`rng::SimRng`] kept in the state.
//! 2. Derive `Clone`, serde's `Serialize`/`Deserialize` and [`Canonical`] on the state, so it
//!    can be saved, sent, and hashed over canonical bytes.
//! 3. Implement [`Simulation`]: `advance` runs one tick from one command per player, `snapshot`
//!    returns what the presentation draws, `hash_state` hashes each subsystem as a named part,
//!    `seat_player` and `free_seat` let players join and leave ([`SeatChanges`]; a seat is a
//!    [`Player`] number),
//!    `content_digest` names what it was built from; and [`Command`] for its command, whose
//!    `held` input stands in for a missing one.
//! 4. Drive it with [`Simulation::step`], a tick at a time; for a local game a
//!    [`tick::FrameScheduler`] says how many ticks each render frame runs.
//! 5. Prove it deterministic: [`sync_test::sync_test`] checks rollback and serialization every
//!    tick, and a [`replay::ReplayFile`] with per-tick hashes is checked by [`replay::verify`].
//!
//! ## Modules
//!
//! - [`math`]: fixed-point scalars, vectors and binary angles, with sin, cos, atan2 and sqrt
//!   in integer code; [`world`]: id-ordered entity storage; [`rng`]: the seeded generator;
//! - [`tick`]: ticks and the frame scheduler of local play; [`clock`]: the network clock that
//!   paces a peer's ticks and a spectator's drawing;
//! - [`command`], [`input`] and [`script`]: players' commands, held keys becoming a tick's
//!   command, bots, and command and input scripts as text;
//! - [`hash`]: canonical bytes, state hashes with a part per subsystem, content digests;
//! - [`replay`], [`golden`] and [`sync_test`]: recorded games that verify, pinned hash
//!   streams, and the determinism self-test;
//! - [`rules`]: what a game's rules are to the layers above ([`Rules`]: its simulation,
//!   content, commands and bot);
//! - [`file`](mod@file): reading files within a limit for their kind, and the paths files may name;
//! - [`net`]: the lockstep protocol as sans-IO host and peer sessions.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_runtime::{
//!     Canonical, Command, ContentDigest, Error, Player, Simulation, StateError, StateHasher,
//!     Tick,
//! };
//! use fixstep_runtime::math::{Fx, fx};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Clone, Serialize, Deserialize, Canonical)]
//! struct Counter { next: Tick, total: Fx, players: u16 }
//!
//! /// A player's input: a number to add, held while the player sends nothing.
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
//! struct Add(i32);
//!
//! impl Command for Add {
//!     fn held(&self) -> Self { *self }
//! }
//!
//! struct Adder { state: Counter, snapshot: Arc<Fx> }
//!
//! impl Simulation for Adder {
//!     type Command = Add;
//!     type State = Counter;
//!     type Snapshot = Fx;
//!     const NAME: &'static str = "Adder";
//!     const VERSION: u32 = 1;
//!     fn next_tick(&self) -> Tick { self.state.next }
//!     fn players(&self) -> usize { usize::from(self.state.players) }
//!     fn seat_player(&mut self, seat: Player) -> Result<(), Error> {
//!         // Every seat counts alike here: a newcomer only ever adds one.
//!         let seats = usize::from(self.state.players);
//!         if seat.index() != seats { return Err(Error::SeatTaken { seat, seats }); }
//!         self.state.players += 1;
//!         Ok(())
//!     }
//!     fn free_seat(&mut self, seat: Player) -> Result<(), Error> {
//!         // A counter nobody ever leaves.
//!         Err(Error::SeatFree { seat, seats: usize::from(self.state.players) })
//!     }
//!     fn content_digest(&self) -> ContentDigest { ContentDigest::of("counting") }
//!     fn advance(&mut self, commands: &[Add]) {
//!         for c in commands { self.state.total += fx(c.0); }
//!         self.state.next = self.state.next.next();
//!         self.snapshot = Arc::new(self.state.total);
//!     }
//!     fn snapshot(&self) -> &Arc<Fx> { &self.snapshot }
//!     fn state(&self) -> &Counter { &self.state }
//!     fn check_state(&self, _state: &Counter) -> Result<(), StateError> {
//!         // Nothing in a tick indexes by the counter's fields or loops over them: any
//!         // counter runs. A game's rules check every index and reference here.
//!         Ok(())
//!     }
//!     fn restore(&mut self, state: &Counter) {
//!         self.state = state.clone();
//!         self.snapshot = Arc::new(state.total);
//!     }
//!     fn hash_state(&self, hasher: &mut StateHasher) { hasher.part("counter", &self.state); }
//! }
//!
//! let state = Counter { next: Tick(0), total: Fx::ZERO, players: 2 };
//! let mut sim = Adder { state, snapshot: Arc::new(Fx::ZERO) };
//! assert_eq!(**sim.step(Tick(0), &[Add(2), Add(3)]).unwrap(), fx(5));
//! assert!(sim.step(Tick(5), &[Add(0), Add(0)]).is_err()); // ticks run in order, or not at all
//! ```

#![deny(clippy::float_arithmetic, clippy::float_cmp)]
// Each narrowing or sign-dropping cast is proven safe: a silent wrap breaks determinism or bounds.
#![warn(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

// Lets `#[derive(Canonical)]`, which names `::fixstep_runtime`, work inside this crate too.
extern crate self as fixstep_runtime;

pub mod clock;
pub mod command;
mod error;
pub mod file;
pub mod golden;
pub mod hash;
pub mod input;
pub mod math;
pub mod net;
mod player;
mod record;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod script;
pub mod seats;
mod sim;
pub mod sync_test;
pub mod tick;
pub mod world;

pub use clock::NetworkClock;
pub use command::Command;
pub use error::{Desync, Error, ReplayError, StateError, SyncCheck, SyncTestError};
pub use fixstep_derive::Canonical;
pub use hash::{Canonical, ContentDigest, HashRecord, StateHash, StateHasher};
pub use input::{Bot, HeldInput};
pub use player::Player;
pub use record::TickRecord;
pub use rules::Rules;
pub use seats::SeatChanges;
pub use sim::Simulation;
pub use tick::Tick;
pub use world::{EntityId, EntityStore};
