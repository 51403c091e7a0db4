//! One remote entity's recent measurements, sampled at any fractional tick.

use fixstep_runtime::clock::{INTERP_DELAY_TICKS, RENDER_DRIFT};
use glam::Vec3;

use super::TICK_SECONDS;
use super::correction::{Correction, Decision, NOTHING_TO_BLEND_M, NOTHING_TO_BLEND_RAD};
use super::gap_delay::{MAX_GAP_TICKS, UpdateGapDelay};
use super::kernel::{Pose, Stored, between, extrapolate, hold, short_delta, wrap_once};
use super::measurement::{Measurement, Motion};

/// Measurements a buffer keeps, newest last: six. An entity is drawn at most a little over two
/// ticks behind its newest measurement, plus its tier's delay (three ticks at tier 4, whose
/// measurements are four apart) or an update-gap delay: three measurements cover that, and
/// six leave room for a start and a stop among them. A burst after a stall replaces them with
/// its own newest six, which is where the render tick is; where it is not (the render tick
/// catching up after a change of host), a mover is drawn on from where it was drawn to the
/// oldest kept. A hundred thousand buffers are read every frame, so the history is as short
/// as is safe.
pub const REMOTE_HISTORY: usize = 6;

/// How far past its newest measurement a moving entity is carried on at its last velocity,
/// in ticks: three (300 ms). Enough to ride out a late snapshot or two without a stop; past
/// it the guess is more likely wrong than right, so the entity holds.
pub const MAX_EXTRAPOLATION_TICKS: u32 = 3;

/// The extra delay of a tier, in ticks: its period less one snapshot (0, 1 and 3 ticks for
/// tiers 1, 2 and 4), so an entity sent every Nth tick always has a measurement on either side
/// of the tick it is drawn at.
#[must_use]
pub fn tier_delay(tier: u8) -> f64 {
    f64::from(tier.max(1) - 1)
}

/// What a buffer draws of its entity at one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RemoteSample {
    /// The host tick it is drawn at: the render tick less its tier and update-gap delays.
    pub tick: f64,
    /// Position, world metres.
    pub pos: Vec3,
    /// Heading, radians in (−π, π].
    pub yaw: f32,
    /// The speed it is drawn moving at, metres per second, so a figure's feet and its body
    /// agree.
    pub speed: f32,
    /// Its jump counter at that tick.
    pub jumps: u32,
}

/// What the buffer drew last.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Drawn {
    tick: f64,
    pos: Vec3,
    yaw: f32,
    leg: u16,
}

impl Drawn {
    /// What was drawn, as a pose to compare with what is known now.
    const fn pose(&self) -> Pose {
        Pose { pos: self.pos, vel: Vec3::ZERO, yaw: self.yaw, leg: self.leg, jumps: 0 }
    }

    /// Whether `pose`, at `tick`, is what was drawn: the same tick and leg, and a place and
    /// heading that differ by less than the rounding a correction ignores.
    fn agrees_at(&self, tick: f64, pose: &Pose) -> bool {
        self.tick == tick
            && self.leg == pose.leg
            && self.pos.distance(pose.pos) < NOTHING_TO_BLEND_M
            && short_delta(self.yaw, pose.yaw).abs() < NOTHING_TO_BLEND_RAD
    }

    /// The pose at `tick` of the entity going on from what was drawn to measurement `to`,
    /// which it reaches at `to`'s tick: straight, at the pace that takes.
    fn toward(&self, to: &Stored, tick: f64) -> Pose {
        let ticks = f64::from(to.tick) - self.tick;
        let s = ((tick - self.tick) / ticks).clamp(0.0, 1.0) as f32;
        let d = to.pos - self.pos;
        Pose {
            pos: self.pos + d * s,
            vel: d / (ticks * TICK_SECONDS) as f32,
            yaw: wrap_once(self.yaw + short_delta(self.yaw, to.yaw) * s),
            leg: to.leg,
            jumps: to.jumps,
        }
    }
}

/// No tick: the entity is not gone.
const NOT_GONE: u32 = u32::MAX;

/// The measurements of one remote entity and how it is being drawn; see the
/// [module documentation](super). About 330 bytes: a hundred thousand of them are read every
/// frame, so every field is as small as its range allows.
#[derive(Clone, Debug)]
// In this order in memory, so a frame reads each buffer front to back, which the processor's
// prefetcher follows from one buffer to the next.
#[repr(C)]
pub struct RemoteBuffer {
    len: u8,
    motion: Motion,
    /// Measurements came since the last frame was drawn.
    fresh: bool,
    /// Held through a change of host, and the guess drawn then (past its newest measurement)
    /// not yet borne out or corrected to the end: the new host's measurements have not yet
    /// reached the tick it was drawn at.
    resumed: bool,
    /// The newest measurement's tier, so a frame knows its delay before reading the history.
    tier: u8,
    /// The current leg (see [`Stored::leg`]).
    leg: u16,
    /// The tier delay in use, ticks (fractional while it slews to a new tier's).
    tier_delay: f32,
    /// The tick of the first measurement: before it the entity is not drawn.
    first_tick: u32,
    /// The host tick from which the entity is gone, or [`NOT_GONE`].
    gone_at: u32,
    /// The newest measurement's tick when the last frame was drawn.
    newest_when_drawn: u32,
    gap: UpdateGapDelay,
    /// Extra delay after a change of host, ticks: the entity is drawn where its drawing
    /// stopped through the old host's silence while the render tick holds, and catches up
    /// after it at [`RENDER_DRIFT`].
    pause_delay: f32,
    last: Option<Drawn>,
    correction: Option<Correction>,
    /// The newest measurements, oldest first: `len` of them.
    history: [Stored; REMOTE_HISTORY],
}

impl RemoteBuffer {
    /// A buffer that has its entity's first measurement.
    #[must_use]
    pub fn new(motion: Motion, first: &Measurement) -> Self {
        let stored = Stored::of(first, 0);
        let mut gap = UpdateGapDelay::new();
        gap.observe(first.tick);
        Self {
            history: [stored; REMOTE_HISTORY],
            len: 1,
            motion,
            fresh: false,
            resumed: false,
            tier: first.tier,
            leg: 0,
            first_tick: first.tick,
            gone_at: NOT_GONE,
            newest_when_drawn: first.tick,
            tier_delay: tier_delay(first.tier) as f32,
            gap,
            pause_delay: 0.0,
            correction: None,
            last: None,
        }
    }

    /// How the entity moves between measurements.
    #[must_use]
    pub const fn motion(&self) -> Motion {
        self.motion
    }

    /// The newest measurement (its heading brought into (−π, π]).
    #[must_use]
    pub fn newest(&self) -> Measurement {
        self.newest_stored().measurement()
    }

    fn newest_stored(&self) -> &Stored {
        &self.history[usize::from(self.len) - 1]
    }

    /// The tick of the first measurement; the entity is not drawn before it.
    #[must_use]
    pub const fn first_tick(&self) -> u32 {
        self.first_tick
    }

    /// Adds a measurement. Every measurement newer than the newest is kept (a pose at the same
    /// place with another velocity is a measurement like any other); an older or repeated one
    /// is ignored, and `false` returned.
    pub fn push(&mut self, m: &Measurement) -> bool {
        let newest = *self.newest_stored();
        if m.tick <= newest.tick {
            return false;
        }
        let placed = newest.at_rest && m.at_rest && newest.pos != m.pos;
        if m.jumps != newest.jumps || placed {
            self.leg = self.leg.wrapping_add(1);
        }
        if m.tier != newest.tier {
            self.gap.restart(m.tick);
        } else if newest.at_rest {
            self.gap.resume(m.tick);
        } else {
            self.gap.observe(m.tick);
        }
        let len = usize::from(self.len);
        if len == REMOTE_HISTORY {
            self.history.copy_within(1.., 0);
            self.history[len - 1] = Stored::of(m, self.leg);
        } else {
            self.history[len] = Stored::of(m, self.leg);
            self.len += 1;
        }
        self.tier = m.tier;
        self.fresh = true;
        true
    }

    /// The host says the entity is gone from `tick` on: it is drawn up to that tick and not
    /// after.
    pub fn mark_gone(&mut self, tick: u32) {
        self.gone_at = self.gone_at.min(tick);
    }

    /// Whether the entity is gone by `tick`, so its buffer can be dropped.
    #[must_use]
    pub fn gone_by(&self, tick: f64) -> bool {
        self.gone_at != NOT_GONE && tick >= f64::from(self.gone_at)
    }

    /// The tier, update-gap and pause delays in use, ticks.
    #[must_use]
    pub fn delay_ticks(&self) -> f64 {
        f64::from(self.tier_delay) + self.gap.delay_ticks() + f64::from(self.pause_delay)
    }

    /// Where its drawing stopped through a host's silence, in its own ticks, the newest
    /// snapshot having been of `newest_snapshot`: at that snapshot if it rests (a resting
    /// entity is not sent, so every snapshot to the newest said it rested), or
    /// [`MAX_EXTRAPOLATION_TICKS`] past its newest measurement if it moves; or where it was last
    /// drawn if that is sooner. Drawn at any later tick, it looks the same until news of those
    /// ticks comes.
    #[must_use]
    pub fn stopped_at(&self, newest_snapshot: u32) -> f64 {
        let newest = self.newest_stored();
        let stop = if newest.at_rest {
            newest.tick.max(newest_snapshot)
        } else {
            newest.tick.saturating_add(MAX_EXTRAPOLATION_TICKS)
        };
        let stop = f64::from(stop);
        self.last.map_or(stop, |drawn| drawn.tick.min(stop))
    }

    /// The render tick holds at `held_render_tick` through a change of host: the entity is
    /// drawn where it stopped ([`stopped_at`](Self::stopped_at)) until the hold ends, so what
    /// the new host says of the ticks after that is drawn as those ticks come, not at once.
    /// The silence is no gap of the entity's rate: its update-gap delay measures afresh from
    /// the new host's first measurement, and does not grow (which would draw it backwards
    /// while the render tick holds).
    pub fn hold_at(&mut self, held_render_tick: f64, newest_snapshot: u32) {
        self.gap.pause();
        self.resumed = true;
        let pause = f64::from(self.pause_delay);
        let drawn_at = held_render_tick - (self.delay_ticks() - pause);
        // A few ticks: single precision holds them exactly enough.
        self.pause_delay = (drawn_at - self.stopped_at(newest_snapshot)).max(0.0) as f32;
    }

    /// Eases the pause delay away after the hold, `dt_seconds` of real time after the last
    /// frame: the entity plays [`RENDER_DRIFT`] faster than real time until it is drawn at the
    /// render tick again.
    ///
    /// Where it stands still, it looks the same at any tick of its stillness: that much of the
    /// pause goes at once, unseen (all of it for an entity resting at its newest news). Eased
    /// instead, a resting entity (held at the newest snapshot, behind the moving ones) would
    /// be drawn further behind its news than its history reaches once it moves again, a
    /// tick's step at a time.
    pub fn ease_pause(&mut self, dt_seconds: f64) {
        // Not while a correction is drawn away, nor before news just come is compared with
        // the picture (which may start one): a correction runs on the entity's ticks, and
        // skipping some would jump it. Even while the render tick holds: news of the entity
        // moving off may come before the hold ends, and a pause not gone by then would draw
        // it that much behind its news, further than its history reaches.
        if self.pause_delay > 0.0
            && !self.fresh
            && self.correction.is_none()
            && let Some(last) = self.last
        {
            let unseen = (self.still_until(&last) - last.tick).max(0.0);
            // At most the pause's few ticks: single precision holds them.
            self.pause_delay = (f64::from(self.pause_delay) - unseen).max(0.0) as f32;
        }
        if self.pause_delay > 0.0 {
            let rate = crate::convert::f64_of(RENDER_DRIFT);
            let step = (rate * dt_seconds.max(0.0) / TICK_SECONDS) as f32;
            self.pause_delay = (self.pause_delay - step).max(0.0);
        }
    }

    /// The latest tick at which the entity is drawn as it was at `last`: the end of the
    /// stillness `last` lies in (forever, for one resting at its newest measurement), or
    /// `last`'s own tick if it was moving. Still means the same place, heading and leg from one
    /// measurement to the next; for a vehicle, at rest at both (its curve through the same
    /// place with a velocity at either end moves off it).
    fn still_until(&self, last: &Drawn) -> f64 {
        let kept = &self.history[..usize::from(self.len)];
        let Some(mut end) = kept.iter().rposition(|s| f64::from(s.tick) <= last.tick) else {
            return last.tick;
        };
        while let Some(next) = kept.get(end + 1) {
            let here = &kept[end];
            let turns = self.motion == Motion::Vehicle && !(here.at_rest && next.at_rest);
            if next.pos != here.pos || next.yaw != here.yaw || next.leg != here.leg || turns {
                break;
            }
            end += 1;
        }
        if end + 1 == kept.len() && kept[end].at_rest {
            return f64::INFINITY;
        }
        f64::from(kept[end].tick).max(last.tick)
    }

    /// The update-gap delay of this entity.
    #[must_use]
    pub const fn gap_delay(&self) -> &UpdateGapDelay {
        &self.gap
    }

    /// Draws the entity for a frame whose render tick is `render_tick`, `dt_seconds` of real
    /// time after the previous frame: slews its delays, samples its pose at the render tick
    /// less those delays, blends corrections, and writes the result into `out`. Returns
    /// `false`, leaving `out` as it was, when there is nothing to draw: before the first
    /// measurement's tick, or from the tick it is gone.
    pub fn draw(&mut self, render_tick: f64, dt_seconds: f64, out: &mut RemoteSample) -> bool {
        let tier = self.tier;
        let target = tier_delay(tier) as f32;
        if self.tier_delay != target {
            // RENDER_DRIFT is a small fraction, exact enough in single precision.
            let step =
                (crate::convert::f64_of(RENDER_DRIFT) * dt_seconds.max(0.0) / TICK_SECONDS) as f32;
            self.tier_delay = if self.tier_delay < target {
                (self.tier_delay + step).min(target)
            } else {
                (self.tier_delay - step).max(target)
            };
        }
        let render_delay = INTERP_DELAY_TICKS + u32::from(tier.max(1) - 1);
        let gap_delay = self.gap.advance(render_delay, MAX_GAP_TICKS, dt_seconds);
        let tick =
            render_tick - f64::from(self.tier_delay) - gap_delay - f64::from(self.pause_delay);
        if tick < f64::from(self.first_tick) || self.gone_by(tick) {
            return false;
        }
        let mut pose = self.pose_at(tick);
        if let Some(last) = self.last {
            let oldest = &self.history[0];
            let behind = tick < f64::from(oldest.tick) && last.tick < tick;
            if behind && !oldest.at_rest && last.leg == oldest.leg {
                // Drawn behind every measurement kept: news of a mover came faster than the
                // drawing went (after a change of host, whose first snapshots come ticks past
                // where the render tick held) and pushed out the one it was drawn from.
                // Holding the oldest would step a tick at a time; it goes on from where it was
                // drawn (a correction's offset and all, which it takes over) to the oldest,
                // reaching it at its tick.
                pose = last.toward(oldest, tick);
                self.correction = None;
            }
        }
        if self.fresh {
            self.fresh = false;
            self.correct();
        }
        self.newest_when_drawn = self.newest_stored().tick;
        if let Some(correction) = &self.correction
            && !correction.apply(tick, &mut pose)
        {
            self.correction = None;
        }
        if let Some(last) = self.last.filter(|last| last.agrees_at(tick, &pose)) {
            // Drawn at the same tick again (the render tick holds through a change of host)
            // and known there as drawn, to rounding: the same picture, bit for bit. A blend
            // starting here adds back the difference it takes away, and news that agrees to
            // rounding moves nothing; either would flicker by a rounding step, which a
            // held picture must not.
            pose.pos = last.pos;
            pose.yaw = last.yaw;
        }
        self.last = Some(Drawn { tick, pos: pose.pos, yaw: pose.yaw, leg: pose.leg });
        *out = RemoteSample {
            tick,
            pos: pose.pos,
            yaw: pose.yaw,
            speed: pose.vel.length(),
            jumps: pose.jumps,
        };
        true
    }

    /// New measurements came: compares what the last frame drew (if it was a guess, past the
    /// newest measurement of then) with what is known now of its tick, and starts blending
    /// the difference away, takes it at once, or leaves the running blend as it is.
    fn correct(&mut self) {
        let Some(last) = self.last else { return };
        // The guess of a change of host is settled once the measurements reach the tick it
        // was drawn at: until then each of the new host's words may correct it further (one
        // bears a run out, the next says it stopped), and each correction is of that guess.
        let resumed = self.resumed;
        if f64::from(self.newest_stored().tick) >= last.tick {
            self.resumed = false;
        }
        if last.tick < f64::from(self.newest_when_drawn) {
            // Drawn between two measurements: new ones beyond cannot change it.
            return;
        }
        let mut known = self.pose_at(last.tick);
        let raw = known;
        if let Some(correction) = &self.correction {
            correction.apply(last.tick, &mut known);
        }
        let mut speed = raw.vel.length().max(self.newest_stored().vel.length());
        if resumed {
            // The new host's words on the guess drawn through a change of host: the pace of the
            // guess too. An entity guessed on at a run past where it stopped (its host falling
            // silent before saying so) goes back at a share of that run's pace, not cut back at
            // once as a slow walker's would be. Only then: a picture held for seconds hides
            // where a blend starts, where at any other time a cut is the lesser sight.
            let kept = &self.history[..usize::from(self.len)];
            let guessed_from = kept.iter().rev().find(|s| s.tick <= self.newest_when_drawn);
            speed = speed.max(guessed_from.map_or(0.0, |s| s.vel.length()));
        }
        match Correction::decide(&last.pose(), &known, last.tick, speed) {
            Decision::Nothing => {}
            Decision::TakeAtOnce => self.correction = None,
            Decision::Blend(_) => {
                // The blend starts from what was drawn, against the raw pose, replacing any
                // blend still running (its remainder is part of the difference).
                self.correction = match Correction::decide(&last.pose(), &raw, last.tick, speed) {
                    Decision::Blend(c) => Some(c),
                    Decision::Nothing | Decision::TakeAtOnce => None,
                };
            }
        }
    }

    /// The entity's pose at `tick` from the measurements alone (no correction).
    #[must_use]
    pub fn pose_at(&self, tick: f64) -> Pose {
        let kept = &self.history[..usize::from(self.len)];
        // Front to back, as the buffer lies in memory: the first measurement after `tick`.
        let after = kept.iter().position(|s| f64::from(s.tick) > tick).unwrap_or(kept.len());
        match after.checked_sub(1) {
            Some(i) => match kept.get(i + 1) {
                Some(next) => between(&kept[i], next, self.motion, tick),
                None => extrapolate(&kept[i], tick),
            },
            // Before everything kept (older measurements were pushed out by a burst): the
            // oldest.
            None => hold(&kept[0]),
        }
    }

    /// Samples the entity's pose at `tick` from the measurements alone into `out`, without
    /// delays, corrections or any change to the buffer; `false` before the first measurement.
    pub fn sample(&self, tick: f64, out: &mut RemoteSample) -> bool {
        if tick < f64::from(self.first_tick) {
            return false;
        }
        let pose = self.pose_at(tick);
        *out = RemoteSample {
            tick,
            pos: pose.pos,
            yaw: pose.yaw,
            speed: pose.vel.length(),
            jumps: pose.jumps,
        };
        true
    }
}
