//! The previous and current sample of one entity, and when to cut instead of blend.

use fixstep_runtime::Tick;

/// Ticks without a sample after which an entity's next sample is not blended with its last:
/// three ticks (300 ms). An entity gone that long was out of sight or not simulated, and
/// blending its old place into its new one would draw a slide that never happened.
pub const MAX_SAMPLE_GAP_TICKS: u32 = 3;

/// What a sample must share with the one before it to be blended with it.
pub trait Sample: Clone {
    /// The key whose change is a discontinuity of the whole sample: a jump counter, the
    /// enabled flag. Samples with different keys are never blended.
    type Key: PartialEq + Copy;

    /// What blending needs that does not change from tick to tick (a character's clip
    /// lengths, which the level holds), so that samples carry only what does.
    type Context: ?Sized;

    /// This sample's key.
    fn key(&self) -> Self::Key;

    /// The sample `t` of the way from `previous` to `current`, written into `out`.
    fn blend(previous: &Self, current: &Self, t: f32, context: &Self::Context, out: &mut Self);
}

/// An entity's previous and current samples.
#[derive(Clone, Debug)]
pub struct Track<S> {
    previous: S,
    current: S,
    current_tick: Tick,
    first_tick: Tick,
    reset: bool,
}

impl<S: Sample> Track<S> {
    /// A track that has seen one sample, at `tick`: it is drawn there, and not before.
    pub fn new(tick: Tick, sample: S) -> Self {
        Self {
            previous: sample.clone(),
            current: sample,
            current_tick: tick,
            first_tick: tick,
            reset: false,
        }
    }

    /// Takes the sample of a newly completed `tick`: the current sample becomes the previous
    /// one. When the new sample is discontinuous with it (another key: a jump, a switch on or
    /// off) or comes after a gap of more than [`MAX_SAMPLE_GAP_TICKS`], the two are never
    /// blended: the old one is drawn unchanged until the clock reaches the new one's tick, and
    /// the new one from then on, so the cut shows exactly when it happened and nothing is ever
    /// drawn between the two places.
    pub fn observe(&mut self, tick: Tick, sample: S) {
        let gap = tick.since(self.current_tick);
        self.reset = sample.key() != self.current.key() || gap > i64::from(MAX_SAMPLE_GAP_TICKS);
        core::mem::swap(&mut self.previous, &mut self.current);
        self.current = sample;
        self.current_tick = tick;
    }

    /// Whether the latest sample is discontinuous with the one before it.
    pub const fn was_reset(&self) -> bool {
        self.reset
    }

    /// The tick of the first sample: before it, the entity is not drawn.
    pub const fn first_tick(&self) -> Tick {
        self.first_tick
    }

    /// The tick of the latest sample.
    pub const fn current_tick(&self) -> Tick {
        self.current_tick
    }

    /// The previous sample.
    pub const fn previous(&self) -> &S {
        &self.previous
    }

    /// The latest sample.
    pub const fn current(&self) -> &S {
        &self.current
    }

    /// The sample at `alpha` of the interval from the previous tick to the current one,
    /// written into `out`. Across a discontinuity it is the previous sample, unchanged, until
    /// `alpha` reaches 1, and the current one from there.
    pub fn sample_into(&self, alpha: f32, context: &S::Context, out: &mut S) {
        if self.reset {
            out.clone_from(if alpha < 1.0 { &self.previous } else { &self.current });
        } else {
            S::blend(&self.previous, &self.current, alpha.clamp(0.0, 1.0), context, out);
        }
    }
}
