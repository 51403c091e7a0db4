//! How what a player holds becomes each tick's command, and scripted players.
//!
//! A window looks at the keys every frame; the simulation takes one command a tick. Between
//! the two sits a [`HeldInput`]: each frame it is told what is held and for how long, and when
//! a tick is due it gives that tick's command. A game chooses how: [`SampledInput`] takes what
//! is held when the tick is due (and every press since the last tick), the simplest rule; the
//! town integrates the keys over the tick's 100 ms, so that a key pressed 70 ms into a tick
//! walks the last 30 % of it. Either way the same key timings give the same commands on every
//! machine: all integer arithmetic on times the caller passes in.
//!
//! ```
//! use fixstep_runtime::input::{HeldInput, SampledInput};
//! use fixstep_runtime::tick::FrameScheduler;
//! use fixstep_runtime::Command;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
//! struct Keys { right: bool, fire: bool }
//!
//! impl Command for Keys {
//!     fn held(&self) -> Self { Self { fire: false, ..*self } }
//!     fn merge_presses(&mut self, other: &Self) { self.fire |= other.fire; }
//! }
//!
//! let mut input = SampledInput::<Keys>::default();
//! let mut scheduler = FrameScheduler::new();
//! let mut commands = Vec::new();
//! // A frame of 60 ms with fire pressed, then one of 50 ms holding right: a tick is due.
//! let fire = Keys { right: false, fire: true };
//! input.run_frame(&mut scheduler, 60_000, &fire, |c, _| { commands.push(c); Ok::<_, ()>(()) });
//! let right = Keys { right: true, fire: false };
//! input.run_frame(&mut scheduler, 50_000, &right, |c, _| { commands.push(c); Ok::<_, ()>(()) });
//! assert_eq!(commands, [Keys { right: true, fire: true }], "the press is not lost");
//! ```

use crate::command::Command;
use crate::math::Fx;
use crate::sim::Simulation;
use crate::tick::{FrameScheduler, FrameTicks, TICK_MICROS};

/// What a player holds, made into one command a tick; see the [module documentation](self).
pub trait HeldInput: Clone + Default + core::fmt::Debug {
    /// The command it makes.
    type Command: Command;

    /// What has been held of the tick under way, for a presentation that draws the player's
    /// own character ahead of the ticks (`()` for a game that does not).
    type Partial: Copy + Default + core::fmt::Debug + PartialEq;

    /// `held` was held for `micros` more microseconds, as far as the current tick reaches
    /// (the caller takes the tick's command before holding into the next).
    fn hold(&mut self, held: &Self::Command, micros: u64);

    /// Microseconds of the current tick held so far, at most [`TICK_MICROS`].
    fn micros(&self) -> u64;

    /// What has been held of the current tick so far.
    fn partial(&self) -> Self::Partial;

    /// The command of the tick that is due; the next tick starts with nothing held.
    fn take(&mut self) -> Self::Command;

    /// Turns by `units` at once, as a mouse does (a game whose commands do not turn ignores
    /// it).
    fn turn_by(&mut self, units: i32) {
        let _ = units;
    }

    /// Holds `held` for the rest of the current tick.
    fn fill(&mut self, held: &Self::Command) {
        self.hold(held, TICK_MICROS.saturating_sub(self.micros()));
    }

    /// Holds `held` until `micros` of the current tick have passed (a frame ends there).
    fn hold_until(&mut self, held: &Self::Command, micros: u64) {
        self.hold(held, micros.saturating_sub(self.micros()));
    }

    /// Hands a frame of `elapsed_micros` to `scheduler` with `held` held over it: every tick
    /// the frame owes is filled with `held`, its command taken and given to `run_tick` with
    /// what was held of it; then the rest of the frame is held into the tick under way, so the
    /// held time always matches the scheduler's (up to a tick). A press of the frame goes into
    /// the first tick it completes, or the tick under way if it completes none: once, however
    /// many ticks the frame spans. Stops at the first error of `run_tick`.
    ///
    /// # Errors
    ///
    /// What `run_tick` returns.
    fn run_frame<E>(
        &mut self,
        scheduler: &mut FrameScheduler,
        elapsed_micros: u64,
        held: &Self::Command,
        mut run_tick: impl FnMut(Self::Command, &Self::Partial) -> Result<(), E>,
    ) -> Result<FrameTicks, E> {
        let due = scheduler.advance(elapsed_micros);
        // After the first tick the frame completes, its presses are spent.
        let pressed_once = held.held();
        let mut holding = held;
        for _ in 0..due.run {
            self.fill(holding);
            let partial = self.partial();
            let command = self.take();
            run_tick(command, &partial)?;
            holding = &pressed_once;
        }
        self.hold_until(holding, scheduler.owed_micros().min(TICK_MICROS));
        Ok(due)
    }
}

/// The simplest [`HeldInput`]: a tick's command is what is held when the tick is due, with
/// every press held since the tick before.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledInput<C> {
    /// What is held now, with the presses of the current tick.
    held: C,
    micros: u64,
}

impl<C: Command> Default for SampledInput<C> {
    fn default() -> Self {
        Self { held: C::default(), micros: 0 }
    }
}

/// What a [`SampledInput`] has held of the tick under way: the command the tick would take
/// if it were due now, and how far into the tick it is. A presentation that predicts the own
/// character draws that command's tick `share` of the way along.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SampledPartial<C> {
    /// What is held now, with the presses of the tick so far.
    pub held: C,
    /// The share of the tick held so far, 0 to 1 (exact to 2^-32).
    pub share: Fx,
}

impl<C: Command + Copy> HeldInput for SampledInput<C> {
    type Command = C;
    type Partial = SampledPartial<C>;

    fn hold(&mut self, held: &C, micros: u64) {
        let presses = core::mem::replace(&mut self.held, *held);
        self.held.merge_presses(&presses);
        self.micros = (self.micros + micros).min(TICK_MICROS);
    }

    fn micros(&self) -> u64 {
        self.micros
    }

    fn partial(&self) -> SampledPartial<C> {
        SampledPartial { held: self.held, share: share_of_tick(self.micros) }
    }

    fn take(&mut self) -> C {
        self.micros = 0;
        let command = self.held;
        self.held = command.held();
        command
    }
}

/// `micros` of a tick as a share of it, 0 to 1 (exact to 2^-32): the fraction that a
/// presentation draws a tick under way at.
#[must_use]
pub fn share_of_tick(micros: u64) -> Fx {
    let micros = micros.min(TICK_MICROS);
    // At most 2^32 × 10^5 before the division: far inside an i128, and the quotient is at
    // most 2^32, inside an i64.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the quotient is a share of at most one tick in Q32: at most 2^32"
    )]
    Fx::from_bits(((i128::from(micros) << Fx::FRAC_NBITS) / i128::from(TICK_MICROS)) as i64)
}

/// A scripted player: it reads each completed tick's snapshot and says its next command, as
/// a player reading the screen would.
pub trait Bot<S: Simulation> {
    /// The command for the next tick, having seen `snapshot`.
    fn command(&mut self, snapshot: &S::Snapshot) -> S::Command;
}
