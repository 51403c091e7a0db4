//! The update-gap delay: extra render delay for an entity whose states arrive further apart
//! than the render delay covers.
//!
//! Some entities are updated every few ticks by a rule the peer is not told (a host that
//! simulates far entities less often, a relay that forwards every Nth tick). Drawn at the
//! usual delay, such an entity is past its newest state for most of every gap, extrapolated,
//! and snaps back when the next state comes. With this delay it is drawn far enough behind to
//! have a state on either side of the render tick. Entities whose states arrive within the
//! render delay get none, so one sent every tick is drawn exactly as late as before.
//!
//! The gap is measured, not configured: the larger of the last two gaps between states, so
//! staggered windows (an entity updated every 6 ticks, forwarded in 20-tick windows, arrives
//! 18 and 24 ticks apart) settle on the longer. A gap longer than [`MAX_GAP_TICKS`] is an
//! entity at rest (a resting entity is not sent) and is ignored. The delay moves toward its
//! target at [`GAP_SLEW_TICKS_PER_SECOND`], so the entity plays at between half and one and a
//! half times real speed while it changes, and never jumps.
//!
//! **With a told tier.** A [`RemoteBuffer`](super::RemoteBuffer) already draws a far tier its
//! period less one snapshot behind. It hands this delay the render delay *including* that tier
//! delay, so the gap delay adds only what the tier does not cover: nothing for an entity that
//! arrives at its tier's period, the difference for one that arrives slower still. The
//! buffer's own rule adds one thing the seed leaves to the caller: a state that ends a rest
//! (the first after a measurement at rest) is not a gap of the entity's rate, as a resting
//! entity is not sent ([`UpdateGapDelay::resume`]); and a change of tier starts the
//! measurement afresh ([`UpdateGapDelay::restart`]), since the gaps of the old tier are not
//! the new one's (an entity coming nearer, from tier 4 to tier 2, would otherwise be delayed
//! further for the four-tick gaps it no longer has).

use fixstep_runtime::tick::TICKS_PER_SECOND;

/// Gaps longer than this, in ticks (one second), are an entity at rest, not its rate. The
/// buffers keep well over the newest second of an entity that is updated this slowly.
pub const MAX_GAP_TICKS: u32 = TICKS_PER_SECOND;

/// How fast the delay moves toward its target, in ticks per second: half the tick rate, so
/// an entity whose delay changes plays at between half and one and a half times real speed,
/// and never jumps.
pub const GAP_SLEW_TICKS_PER_SECOND: f64 = TICKS_PER_SECOND as f64 * 0.5;

/// The update-gap delay of one remote entity; see the documentation of its module.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UpdateGapDelay {
    /// Tick of the newest state observed.
    last_tick: Option<u32>,
    /// The last two gaps within the limit (at most [`MAX_GAP_TICKS`]), older first; 0 where
    /// there is none yet. Small types: a remote view keeps one of these per entity.
    gaps: [u8; 2],
    /// The extra delay in use, ticks.
    delay: f32,
    /// The target `advance` last aimed for, ticks (at most [`MAX_GAP_TICKS`]).
    target: u8,
}

impl UpdateGapDelay {
    /// No gaps seen, no delay.
    #[must_use]
    pub const fn new() -> Self {
        Self { last_tick: None, gaps: [0, 0], delay: 0.0, target: 0 }
    }

    /// A state for `tick` arrived. A gap longer than [`MAX_GAP_TICKS`] is the entity resting
    /// and does not count; an older or repeated tick is ignored.
    pub fn observe(&mut self, tick: u32) {
        if let Some(last) = self.last_tick {
            if tick <= last {
                return;
            }
            let gap = tick - last;
            if gap <= MAX_GAP_TICKS {
                // At most MAX_GAP_TICKS, which is well under 256.
                self.gaps = [self.gaps[1], gap as u8];
            }
        }
        self.last_tick = Some(tick);
    }

    /// A state for `tick` arrived after a rest: gaps are measured from it on, and the rest
    /// before it is not one. An older or repeated tick is ignored.
    pub fn resume(&mut self, tick: u32) {
        if self.last_tick.is_none_or(|last| tick > last) {
            self.last_tick = Some(tick);
        }
    }

    /// The entity was told a new tier at `tick`: the gaps measured under the old one say
    /// nothing of the new one's rate, so they are forgotten and measured afresh from `tick`.
    /// The delay in use stays, and slews to the new target as ever. An older or repeated tick
    /// is ignored.
    pub fn restart(&mut self, tick: u32) {
        if self.last_tick.is_none_or(|last| tick > last) {
            self.gaps = [0, 0];
            self.last_tick = Some(tick);
        }
    }

    /// States stopped coming for a reason that is not the entity's (its host went silent):
    /// the next one arrives after no gap of its rate, and starts the measurement from its
    /// tick. The gaps already measured and the delay in use stay.
    pub fn pause(&mut self) {
        self.last_tick = None;
    }

    /// The larger of the last two gaps between states within the limit, in ticks; 0 until
    /// two states have arrived.
    #[must_use]
    pub fn gap_ticks(&self) -> u32 {
        u32::from(self.gaps[0].max(self.gaps[1]))
    }

    /// The extra delay in use, in ticks (fractional while it moves toward the target).
    #[must_use]
    pub fn delay_ticks(&self) -> f64 {
        f64::from(self.delay)
    }

    /// The delay [`advance`](Self::advance) last aimed for, in ticks.
    #[must_use]
    pub fn target_ticks(&self) -> u32 {
        u32::from(self.target)
    }

    /// The target for an entity drawn `render_delay_ticks` behind its newest state: one tick
    /// more than the part of the gap the render delay does not cover when the gap is longer
    /// than the render delay, and 0 otherwise; never more than `max_delay_ticks`.
    #[must_use]
    pub fn target_for(gap_ticks: u32, render_delay_ticks: u32, max_delay_ticks: u32) -> u32 {
        if gap_ticks > render_delay_ticks {
            (gap_ticks - render_delay_ticks + 1).min(max_delay_ticks)
        } else {
            0
        }
    }

    /// Moves the delay toward its target by at most [`GAP_SLEW_TICKS_PER_SECOND`] times
    /// `delta_seconds`, and returns it. A `max_delay_ticks` of 0 turns the delay off at once.
    pub fn advance(
        &mut self,
        render_delay_ticks: u32,
        max_delay_ticks: u32,
        delta_seconds: f64,
    ) -> f64 {
        if max_delay_ticks == 0 {
            self.target = 0;
            self.delay = 0.0;
            return 0.0;
        }
        let target = Self::target_for(self.gap_ticks(), render_delay_ticks, max_delay_ticks);
        // No more than the gap, which is at most MAX_GAP_TICKS.
        self.target = target as u8;
        if self.delay == f32::from(self.target) {
            return f64::from(self.delay);
        }
        let step = (GAP_SLEW_TICKS_PER_SECOND * delta_seconds.max(0.0)) as f32;
        let target = f32::from(self.target);
        self.delay = if self.delay < target {
            (self.delay + step).min(target)
        } else {
            (self.delay - step).max(target)
        };
        f64::from(self.delay)
    }

    /// Forgets every gap and the delay (an entity gone, its slot reused).
    pub fn reset(&mut self) {
        *self = Self::new();
    }
}
