//! Placed objects (a town's doors, lifts and signs) seen from afar.
//!
//! A game may send a spectator an object's transform only when it changes, reliably and in
//! order (the town does). So between two measurements at ticks
//! `a` and `b` the object was as at `a` until tick `b - 1`, and moved to `b`'s transform over
//! the last tick: exactly what the host's own ticks were. [`RemoteObjects`] draws that at the
//! render tick, the interpolation a local game draws, only later; an object is never guessed
//! ahead of its newest measurement (a door drawn swinging past where it stopped is worse
//! than one held a moment), and a jump is never blended.

use std::collections::VecDeque;

use crate::track::Sample;

/// Measurements kept of one object, beyond those already passed: a burst after a stall of
/// the host brings at most a few seconds of ticks, and an object moving all the while sends
/// one a tick. Older ones than this are dropped first (they would be drawn late anyway).
pub const OBJECT_HISTORY: usize = 64;

/// Every object of a remote view, each measured as a sample `S`; see the documentation of
/// its module.
#[derive(Clone, Debug)]
pub struct RemoteObjects<S> {
    /// By object index: its measurements in tick order, the first one at or before the
    /// latest drawn tick.
    tracks: Vec<VecDeque<(u32, S)>>,
    drawn: Vec<(usize, S)>,
}

impl<S> Default for RemoteObjects<S> {
    fn default() -> Self {
        Self { tracks: Vec::new(), drawn: Vec::new() }
    }
}

impl<S: Sample<Context = ()>> RemoteObjects<S> {
    /// No objects measured yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Object `index` as measured at `tick`. Measurements come in tick order; one older than
    /// the object's newest is ignored.
    pub fn measure(&mut self, index: usize, tick: u32, sample: S) {
        if self.tracks.len() <= index {
            self.tracks.resize_with(index + 1, || VecDeque::with_capacity(OBJECT_HISTORY));
        }
        let track = &mut self.tracks[index];
        if track.back().is_some_and(|(newest, _)| *newest >= tick) {
            return;
        }
        if track.len() >= OBJECT_HISTORY {
            track.pop_front();
        }
        track.push_back((tick, sample));
    }

    /// Every measured object at `render_tick`, by index (before its first measurement, as
    /// first measured: objects stand from the start of the game).
    pub fn draw(&mut self, render_tick: f64) -> &[(usize, S)] {
        self.drawn.clear();
        for (index, track) in self.tracks.iter_mut().enumerate() {
            // Drop what the render tick has passed: it only moves on.
            while track.len() >= 2
                && track.get(1).is_some_and(|(t, _)| f64::from(*t) <= render_tick)
            {
                track.pop_front();
            }
            let Some((_, from)) = track.front() else { continue };
            let mut drawn = from.clone();
            if let Some((to_tick, to)) = track.get(1)
                && to.key() == from.key()
            {
                // Still until the tick before the next measurement, then moving to it.
                let t = (render_tick - f64::from(*to_tick) + 1.0).clamp(0.0, 1.0) as f32;
                S::blend(from, to, t, &(), &mut drawn);
            }
            self.drawn.push((index, drawn));
        }
        &self.drawn
    }
}
