//! The previous and current sample of one entity, and when to reset instead of blend.

use fixstep_runtime::Tick;

/// Ticks without a sample after which an entity's next sample starts afresh: three ticks
/// (300 ms). An entity gone that long was out of sight or not simulated, and blending its old
/// place into its new one would draw a slide that never happened.
pub const MAX_SAMPLE_GAP_TICKS: u32 = 3;

/// What a sample must share with the one before it to be blended with it.
pub trait Sample: Clone {
    /// The key whose change is a discontinuity of the whole sample: a jump counter, the
    /// enabled flag. Samples with different keys are never blended.
    type Key: PartialEq + Copy;

    /// This sample's key.
    fn key(&self) -> Self::Key;

    /// The sample `t` of the way from `previous` to `current`, written into `out`.
    fn blend(previous: &Self, current: &Self, t: f32, out: &mut Self);
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
            reset: true,
        }
    }

    /// Takes the sample of a newly completed `tick`. The current sample becomes the previous
    /// one, unless the new one is discontinuous with it (another key) or comes after a gap of
    /// more than [`MAX_SAMPLE_GAP_TICKS`]: then both become the new sample, and the entity is
    /// drawn there for the whole next interval instead of sliding from the old place.
    pub fn observe(&mut self, tick: Tick, sample: S) {
        let gap = tick.since(self.current_tick);
        let continuous =
            sample.key() == self.current.key() && gap <= i64::from(MAX_SAMPLE_GAP_TICKS);
        if continuous {
            core::mem::swap(&mut self.previous, &mut self.current);
            self.current = sample;
            self.reset = false;
        } else {
            self.previous.clone_from(&sample);
            self.current = sample;
            self.reset = true;
        }
        self.current_tick = tick;
    }

    /// Whether the latest sample started afresh.
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
    /// written into `out`.
    pub fn sample_into(&self, alpha: f32, out: &mut S) {
        if self.reset {
            out.clone_from(&self.current);
        } else {
            S::blend(&self.previous, &self.current, alpha.clamp(0.0, 1.0), out);
        }
    }
}
