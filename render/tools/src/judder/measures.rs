//! The smoothness measures of the trace format, frame pair by frame pair, and the two that
//! local play adds (long-way turns and animation back-steps).
//!
//! Distances are measured in 3D (x, y and z): a figure that hops is as wrong as one that
//! slides.

use std::collections::{BTreeMap, HashMap};
use std::f64::consts::FRAC_PI_2;

use super::logs::{DrawnEntity, DrawnFrame, TraceEntities};
use super::truth::{Truth, wrap_angle};

/// Host time of one tick (ms): a drawn `tick` of `k` shows host time `100 k`.
pub const TICK_MS: f64 = 100.0;

/// Milliseconds in a second, to turn a step over a frame (m per ms) into m/s.
pub const MS_PER_S: f64 = 1000.0;

/// True speed (m/s) above which the pace and the direction of a step are judged. Below it a
/// step is a few millimetres a frame, and their ratio says more about rounding than about
/// the drawing; the trace format sets this line.
pub const MOVING_M_S: f64 = 0.5;

/// How far the pace ratio may be off 1 (a fraction, 5 %) before the frame is off pace: the
/// trace format's line, about the smallest change of speed an eye notices in a moving figure.
pub const OFF_PACE: f64 = 0.05;

/// How much further than the truth a drawn step may go (m) before it is a pop: the trace
/// format's line, well past what a small correction eases out, well short of a teleport.
pub const POP_M: f64 = 0.5;

/// The drawn step (m) that counts as moving while the truth stands still: 1 cm, the trace
/// format's line, above the rounding of positions through the drawing.
pub const SLIDE_M: f64 = 0.01;

/// How near a jump in host time (ms) a frame is judged for being drawn between the two
/// places: one second, the trace format's window, which covers a client's buffering delay.
pub const JUMP_WINDOW_MS: f64 = 1000.0;

/// How far from the truth (m) a frame near a jump may be before it is misplaced: the trace
/// format's line, far enough to ignore ordinary interpolation error, close enough to catch
/// a figure drawn between the two places.
pub const MISPLACED_M: f64 = 1.0;

/// How far (radians) the drawn yaw step may differ from the true one before it turned the
/// other way round: a quarter turn, which no lag or easing of a turn within one frame
/// explains, while a turn drawn the long way differs by nearly a half turn.
pub const LONG_WAY_RAD: f64 = FRAC_PI_2;

/// Counts and samples of the measures over some frames: of one entity, or of all the
/// entities of a kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Frame pairs measured: both frames draw the entity and the truth has it at both ends.
    pub frames: usize,
    /// Frame pairs where the entity truly moves faster than [`MOVING_M_S`] (and does not
    /// jump): those whose pace is judged.
    pub paced: usize,
    /// Paced frames whose pace ratio is off 1 by more than [`OFF_PACE`].
    pub off_pace: usize,
    /// Position error of each measured frame (m).
    pub position_errors_m: Vec<f64>,
    /// Delay of each measured frame (ms).
    pub delays_ms: Vec<f64>,
    /// Drawn steps over [`POP_M`] longer than the true step where the truth did not jump.
    pub pops: usize,
    /// Drawn steps against the true direction of motion.
    pub reversals: usize,
    /// Drawn steps over [`SLIDE_M`] while the truth stands still.
    pub slides: usize,
    /// Frames within [`JUMP_WINDOW_MS`] of a jump and more than [`MISPLACED_M`] from the truth.
    pub misplaced: usize,
    /// Drawn yaw steps that turn the other way round from the truth's.
    pub long_way_turns: usize,
    /// Animation frames that went backwards without a loop wrap.
    pub anim_backsteps: usize,
    /// Frames that draw the entity at a tick before the trace's first measurement of it (or
    /// after the trace said it was gone): drawn from nothing. Counted per frame, and only
    /// where a trace is given.
    pub early: usize,
    /// Frame pairs that draw the entity but could not be measured: the truth does not have
    /// it at one end of the interval.
    pub unmatched: usize,
}

impl Tally {
    /// Adds another tally's counts and samples to this one.
    pub fn merge(&mut self, other: &Self) {
        self.frames += other.frames;
        self.paced += other.paced;
        self.off_pace += other.off_pace;
        self.position_errors_m.extend_from_slice(&other.position_errors_m);
        self.delays_ms.extend_from_slice(&other.delays_ms);
        self.pops += other.pops;
        self.reversals += other.reversals;
        self.slides += other.slides;
        self.misplaced += other.misplaced;
        self.long_way_turns += other.long_way_turns;
        self.anim_backsteps += other.anim_backsteps;
        self.early += other.early;
        self.unmatched += other.unmatched;
    }

    /// Off-pace frames as a percentage of the paced ones; `None` when none is paced.
    #[must_use]
    pub fn off_pace_percent(&self) -> Option<f64> {
        (self.paced > 0).then(|| 100.0 * self.off_pace as f64 / self.paced as f64)
    }

    /// The worst-first ranking score: off-pace frames plus ten times the pops, reversals,
    /// misplaced and early frames, as one of those is seen where a slightly wrong pace is not.
    #[must_use]
    pub fn score(&self) -> usize {
        self.off_pace + 10 * (self.pops + self.reversals + self.misplaced + self.early)
    }
}

/// Mean, median, 95th and 99th percentiles, least and greatest of some samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// The mean.
    pub mean: f64,
    /// The median (50th percentile).
    pub p50: f64,
    /// The 95th percentile.
    pub p95: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The least sample.
    pub min: f64,
    /// The greatest sample.
    pub max: f64,
}

impl Summary {
    /// The summary of `samples`; `None` when there are none. Percentiles are by nearest
    /// rank: the least sample that at least that share of the samples are at or below.
    #[must_use]
    pub fn of(samples: &[f64]) -> Option<Self> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        let rank = |share: f64| {
            // A rank between 1 and the sample count, so the cast is exact.
            let rank = (share * n).ceil().max(1.0) as usize;
            sorted[rank.min(sorted.len()) - 1]
        };
        Some(Self {
            mean: sorted.iter().sum::<f64>() / n,
            p50: rank(0.50),
            p95: rank(0.95),
            p99: rank(0.99),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        })
    }
}

/// Drawn and true speed over one measured frame pair, for the plots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedPoint {
    /// The later frame's real time (ms).
    pub at_ms: f64,
    /// Drawn speed over the pair, `d / dt` (m/s).
    pub drawn_m_s: f64,
    /// True speed over the same interval, `e / dt` (m/s).
    pub true_m_s: f64,
    /// The truth jumped in the interval, so neither speed is a speed.
    pub jumped: bool,
}

/// The measures of one entity.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityStats {
    /// The entity's id.
    pub id: u64,
    /// Its kind: from the trace, else the drawn log's `kind`, else `"entity"`.
    pub kind: String,
    /// Its counts and samples.
    pub tally: Tally,
    /// Drawn and true speed of each measured frame pair, in frame order.
    pub speeds: Vec<SpeedPoint>,
}

/// The kind of an entity that neither a trace nor the drawn log names.
pub const UNKNOWN_KIND: &str = "entity";

/// Measures every entity of a drawn log against the truth. The kinds of a trace win over
/// the drawn log's own `kind` fields, and its lives tell frames drawn before a measurement.
/// Entities come out in id order.
#[must_use]
pub fn measure(frames: &[DrawnFrame], truth: &Truth, trace: &TraceEntities) -> Vec<EntityStats> {
    let kinds = &trace.kinds;
    let mut stats: BTreeMap<u64, EntityStats> = BTreeMap::new();
    let mut previous: HashMap<u64, &DrawnEntity> = HashMap::new();
    let mut previous_at: Option<f64> = None;
    for frame in frames {
        let mut current = HashMap::with_capacity(frame.entities.len());
        for entity in &frame.entities {
            let entry = stats.entry(entity.id).or_insert_with(|| EntityStats {
                id: entity.id,
                kind: kinds
                    .get(&entity.id)
                    .map(String::as_str)
                    .or(entity.kind.as_deref())
                    .unwrap_or(UNKNOWN_KIND)
                    .to_owned(),
                tally: Tally::default(),
                speeds: Vec::new(),
            });
            if !trace.known_at(entity.id, entity.tick) {
                entry.tally.early += 1;
            }
            if let (Some(before), Some(at_before)) = (previous.get(&entity.id), previous_at) {
                measure_pair(entry, before, entity, frame.at_ms - at_before, frame.at_ms, truth);
            }
            current.insert(entity.id, entity);
        }
        previous = current;
        previous_at = Some(frame.at_ms);
    }
    stats.into_values().collect()
}

/// Measures the step from `before` to `now`, drawn `dt_ms` apart, the later at `at_ms`.
fn measure_pair(
    stats: &mut EntityStats,
    before: &DrawnEntity,
    now: &DrawnEntity,
    dt_ms: f64,
    at_ms: f64,
    truth: &Truth,
) {
    let tally = &mut stats.tally;
    if anim_backstep(before, now) {
        tally.anim_backsteps += 1;
    }
    let t = TICK_MS * now.tick;
    let t0 = t - dt_ms;
    let (Some(x0), Some(x1)) = (truth.at(now.id, t0), truth.at(now.id, t)) else {
        tally.unmatched += 1;
        return;
    };
    tally.frames += 1;
    let drawn_step = sub(now.pos, before.pos);
    let true_step = sub(x1.pos, x0.pos);
    let d = norm(drawn_step);
    let e = norm(true_step);
    let true_m_s = e / dt_ms * MS_PER_S;
    let jumped = truth.jumped_between(now.id, t0, t);
    let error = norm(sub(now.pos, x1.pos));
    tally.position_errors_m.push(error);
    tally.delays_ms.push(at_ms - t);
    stats.speeds.push(SpeedPoint { at_ms, drawn_m_s: d / dt_ms * MS_PER_S, true_m_s, jumped });

    if error > MISPLACED_M && truth.near_jump(now.id, t, JUMP_WINDOW_MS) {
        tally.misplaced += 1;
    }
    // Across a jump the true "step" is the teleport itself: pace, direction, pops, slides and
    // turns mean nothing there, and the frames around it are judged as misplaced instead.
    if jumped {
        return;
    }
    if true_m_s > MOVING_M_S {
        tally.paced += 1;
        if (d / e - 1.0).abs() > OFF_PACE {
            tally.off_pace += 1;
        }
        if dot(drawn_step, true_step) < 0.0 {
            tally.reversals += 1;
        }
    }
    if d > e + POP_M {
        tally.pops += 1;
    }
    if d > SLIDE_M && (e == 0.0 || truth.still_between(now.id, t0, t)) {
        tally.slides += 1;
    }
    let drawn_turn = wrap_angle(now.yaw - before.yaw);
    let true_turn = wrap_angle(x1.yaw - x0.yaw);
    if wrap_angle(drawn_turn - true_turn).abs() > LONG_WAY_RAD {
        tally.long_way_turns += 1;
    }
}

/// Whether the animation frame went backwards from `before` to `now` in the same animation,
/// other than by a loop wrapping round: the later frame's clip loops and the frame moved
/// forward round the loop by less than half the clip.
fn anim_backstep(before: &DrawnEntity, now: &DrawnEntity) -> bool {
    let (Some(anim_before), Some(anim_now)) = (&before.anim, &now.anim) else { return false };
    let (Some(frame_before), Some(frame_now)) = (before.frame, now.frame) else { return false };
    if anim_before != anim_now || frame_now >= frame_before {
        return false;
    }
    let wrapped = match (now.looping, now.frames) {
        (Some(true), Some(frames)) => (frame_now - frame_before).rem_euclid(frames) < frames / 2.0,
        _ => false,
    };
    !wrapped
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}
