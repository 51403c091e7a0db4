//! Every remote entity of a peer, with the network clock that paces them.

use fixstep_runtime::Tick;
use fixstep_runtime::clock::NetworkClock;
use glam::Vec3;
use xxhash_rust::xxh3::Xxh3DefaultBuilder;

use super::buffer::{RemoteBuffer, RemoteSample};
use super::measurement::{Measurement, Motion};
use crate::format::{DrawnEntity, DrawnFrame};

/// Microseconds in a second.
const MICROS_PER_SECOND: f64 = 1_000_000.0;

/// One remote entity as a frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RemoteDraw {
    /// The entity's id.
    pub id: u64,
    /// How it moves.
    pub motion: Motion,
    /// Its pose.
    pub sample: RemoteSample,
}

/// What one frame draws of the remote entities.
#[derive(Clone, Debug, Default)]
pub struct RemoteFrame {
    /// The fractional host tick the frame draws at (before each entity's own delay); negative
    /// infinity before the clock has observed anything.
    pub render_tick: f64,
    /// Every entity that has a pose at that tick, in the view's storage order (the same for
    /// the same arrivals).
    pub entities: Vec<RemoteDraw>,
}

impl RemoteFrame {
    /// Writes the frame into a drawn-log line: its render tick (0 before the first
    /// snapshot) and its entities in id order, each of the kind a trace names by how it
    /// moves ("vehicle", "walker"), at its own tick.
    pub fn record(&self, line: &mut DrawnFrame) {
        line.render_tick = if self.render_tick.is_finite() { self.render_tick } else { 0.0 };
        let first = line.entities.len();
        for e in &self.entities {
            let kind = match e.motion {
                Motion::Vehicle => "vehicle",
                Motion::Walker => "walker",
            };
            let entity = DrawnEntity::new(
                e.id,
                e.sample.tick,
                e.sample.pos.as_dvec3().to_array(),
                f64::from(e.sample.yaw),
                f64::from(e.sample.speed),
            );
            line.entities.push(entity.of_kind(kind));
        }
        line.entities[first..].sort_unstable_by_key(|e| e.id);
    }
}

/// The remote view of a peer: the network clock, and a [`RemoteBuffer`] per remote entity,
/// found from the entity's id through a hash map (ids that arrive over the network are sparse
/// and unbounded). The map is only ever looked up, never iterated, so its order is never seen.
///
/// Each frame: [`advance`](Self::advance) by the real time since the last event, hand over
/// what arrived ([`snapshot_arrived`](Self::snapshot_arrived), then
/// [`measure`](Self::measure) and [`gone`](Self::gone) for its contents), and
/// [`draw`](Self::draw). Nothing allocates once the entities are known.
#[derive(Debug)]
pub struct RemoteView {
    clock: NetworkClock,
    index: hashbrown::HashMap<u64, usize, Xxh3DefaultBuilder>,
    ids: Vec<u64>,
    buffers: Vec<RemoteBuffer>,
    /// Real time since the last draw, microseconds.
    since_draw_micros: u64,
    frame: RemoteFrame,
}

impl Default for RemoteView {
    fn default() -> Self {
        Self::new()
    }
}

impl RemoteView {
    /// A view with no entities, whose clock has observed nothing.
    #[must_use]
    pub fn new() -> Self {
        Self {
            clock: NetworkClock::new(),
            index: hashbrown::HashMap::with_hasher(Xxh3DefaultBuilder::new()),
            ids: Vec::new(),
            buffers: Vec::new(),
            since_draw_micros: 0,
            frame: RemoteFrame { render_tick: f64::NEG_INFINITY, entities: Vec::new() },
        }
    }

    /// The network clock.
    #[must_use]
    pub const fn clock(&self) -> &NetworkClock {
        &self.clock
    }

    /// The network clock, to report the inputs' margin to.
    pub const fn clock_mut(&mut self) -> &mut NetworkClock {
        &mut self.clock
    }

    /// Advances the clock by `elapsed_micros` of real time. Call it before handing over what
    /// arrived in that time, so each arrival is observed at the time it came.
    pub fn advance(&mut self, elapsed_micros: u64) {
        self.clock.advance(elapsed_micros);
        self.since_draw_micros = self.since_draw_micros.saturating_add(elapsed_micros);
    }

    /// Another host took the match over after a silence: the drawing holds where it stopped
    /// and goes on once the new host's snapshots reach it (see
    /// [`NetworkClock::host_changed`]). A moving entity stops [`MAX_EXTRAPOLATION_TICKS`]
    /// past its newest measurement, drawn its own delay behind the render tick; the render
    /// tick holds where the last of them stopped, so that none is drawn back where it was.
    /// Those that stopped sooner catch up by the blend their next measurements start.
    ///
    /// [`MAX_EXTRAPOLATION_TICKS`]: super::MAX_EXTRAPOLATION_TICKS
    pub fn host_changed(&mut self) {
        let newest = self.clock.newest_observed().map_or(0, |t| t.0);
        let stopped =
            self.buffers.iter().map(|b| b.stopped_at(newest) + b.delay_ticks()).reduce(f64::max);
        let now = self.clock.render_tick().map(crate::convert::f64_of);
        let held = match (now, stopped) {
            (Some(now), Some(stopped)) => Some(now.min(stopped)),
            (now, stopped) => now.or(stopped),
        };
        self.clock.host_changed(held.map(fixstep_runtime::math::Fx::from_num));
        // Each entity is drawn where it stopped while the render tick holds.
        if let Some(held) = held {
            for buffer in &mut self.buffers {
                buffer.hold_at(held, newest);
            }
        }
    }

    /// A snapshot the host measured at `tick` arrived now: an observation for the clock.
    pub fn snapshot_arrived(&mut self, tick: Tick) {
        self.clock.observe(tick);
    }

    /// The host measured entity `id`. A new id gets a buffer, drawn from this measurement's
    /// tick on; an id that is gone and measured again is a new entity.
    pub fn measure(&mut self, id: u64, motion: Motion, measurement: &Measurement) {
        if let Some(&slot) = self.index.get(&id) {
            let buffer = &mut self.buffers[slot];
            if buffer.motion() == motion && !buffer.gone_by(f64::from(measurement.tick)) {
                buffer.push(measurement);
                return;
            }
            // Back after being gone, or another kind of thing under the same id: a new life.
            *buffer = RemoteBuffer::new(motion, measurement);
            return;
        }
        self.index.insert(id, self.buffers.len());
        self.ids.push(id);
        self.buffers.push(RemoteBuffer::new(motion, measurement));
    }

    /// Entity `id` is gone from host tick `tick` on (despawned, out of the area of interest):
    /// it is drawn up to that tick and then dropped.
    pub fn gone(&mut self, id: u64, tick: Tick) {
        if let Some(&slot) = self.index.get(&id) {
            self.buffers[slot].mark_gone(tick.0);
        }
    }

    /// The buffer of entity `id`, if it has one.
    #[must_use]
    pub fn buffer(&self, id: u64) -> Option<&RemoteBuffer> {
        self.index.get(&id).map(|&slot| &self.buffers[slot])
    }

    /// How many entities the view holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.buffers.len()
    }

    /// Whether the view holds no entity.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.buffers.is_empty()
    }

    /// Draws every entity at the clock's render tick (each less its own delays) and drops
    /// those gone by then. Before the clock has observed anything nothing is drawn.
    pub fn draw(&mut self) -> &RemoteFrame {
        let dt_seconds = self.since_draw_micros as f64 / MICROS_PER_SECOND;
        self.since_draw_micros = 0;
        self.frame.entities.clear();
        let Some(render_tick) = self.clock.render_tick() else {
            self.frame.render_tick = f64::NEG_INFINITY;
            return &self.frame;
        };
        let render_tick = crate::convert::f64_of(render_tick);
        // Every delay moves no faster than the render tick: at its rates (well under the
        // tick's pace) an entity then never goes backwards, even while the render tick holds
        // through a change of host or creeps as the hold ends, when a delay that grew by the
        // frame's real time (a new host's first word on a tier) would draw it back.
        let advanced_seconds =
            (render_tick - self.frame.render_tick).max(0.0) * crate::convert::TICK_SECONDS;
        let slew_seconds = dt_seconds.min(advanced_seconds);
        self.frame.render_tick = render_tick;
        let mut sample = RemoteSample::default();
        let mut slot = 0;
        while slot < self.buffers.len() {
            let buffer = &mut self.buffers[slot];
            buffer.ease_pause(slew_seconds);
            if buffer.draw(render_tick, slew_seconds, &mut sample) {
                self.frame.entities.push(RemoteDraw {
                    id: self.ids[slot],
                    motion: buffer.motion(),
                    sample,
                });
            } else if buffer.gone_by(render_tick - buffer.delay_ticks()) {
                self.drop_slot(slot);
                continue;
            }
            slot += 1;
        }
        &self.frame
    }

    /// The frame drawn last.
    #[must_use]
    pub const fn frame(&self) -> &RemoteFrame {
        &self.frame
    }

    /// Removes the buffer in `slot`, moving the last one into its place.
    fn drop_slot(&mut self, slot: usize) {
        let id = self.ids.swap_remove(slot);
        self.buffers.swap_remove(slot);
        self.index.remove(&id);
        if let Some(&moved) = self.ids.get(slot) {
            self.index.insert(moved, slot);
        }
    }

    /// Where entity `id` was drawn last, if it was.
    #[must_use]
    pub fn drawn(&self, id: u64) -> Option<Vec3> {
        self.frame.entities.iter().find(|e| e.id == id).map(|e| e.sample.pos)
    }
}
