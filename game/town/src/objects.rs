//! Interactive objects: authoritative transform tasks (move, rotate, scale, fade) with easing,
//! and the cycles of doors, lifts and signs that start them.

use fixstep_runtime::Tick;
use fixstep_runtime::math::{Angle, Fx, Vec3, fx_ratio};

use crate::level::{ObjectDef, ObjectDefKind};
use crate::state::{ObjectPhase, ObjectState, Task, TaskEasing, TaskKind};

/// The sign's scale at the start of its fade-in: it grows to full size as it appears, so the
/// reappearance reads as the sign lighting up rather than a plain cross-fade.
const SIGN_FADE_IN_SCALE: Fx = fx_ratio(9, 10);

/// The state of an object as the level builds it.
#[must_use]
pub fn new_object(def: &ObjectDef) -> ObjectState {
    let phase = match def.kind {
        ObjectDefKind::Door(_) => ObjectPhase::Closed,
        ObjectDefKind::Lift(_) => ObjectPhase::AtBottom,
        ObjectDefKind::Sign(_) => ObjectPhase::Shown,
    };
    let phase_until = match &def.kind {
        ObjectDefKind::Door(_) => None,
        ObjectDefKind::Lift(lift) => Some(Tick(lift.wait_ticks)),
        ObjectDefKind::Sign(sign) => Some(Tick(sign.hold_ticks)),
    };
    ObjectState {
        offset: Vec3::ZERO,
        rotation: Angle::ZERO,
        scale: Fx::ONE,
        opacity: Fx::ONE,
        phase,
        phase_until,
        tasks: Vec::new(),
        jumps: 0,
    }
}

/// Progress `elapsed / duration` shaped by `easing`, from 0 to exactly 1.
#[must_use]
pub fn eased(easing: TaskEasing, elapsed: u32, duration: u32) -> Fx {
    if elapsed >= duration {
        return Fx::ONE;
    }
    let t = Fx::from_num(elapsed) / Fx::from_num(duration.max(1));
    match easing {
        TaskEasing::Linear => t,
        TaskEasing::InOut => t * t * (Fx::from_num(3) - t * 2),
    }
}

/// Applies the tasks of `object` for `tick`: each sets its value to where its progress says,
/// and a task whose last tick this is ends (its value is then exactly its target).
pub fn run_tasks(object: &mut ObjectState, tick: Tick) {
    let mut i = 0;
    while i < object.tasks.len() {
        let task = object.tasks[i];
        let elapsed = u32::try_from(tick.since(task.start) + 1).unwrap_or(0);
        let p = eased(task.easing, elapsed, task.duration);
        match task.kind {
            TaskKind::Move { from, to } => object.offset = from + (to - from) * p,
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a door swings at most 179°, under 2^31 units, and p is at most 1"
            )]
            TaskKind::Rotate { from, by } => {
                let turned = (Fx::from_num(by) * p).to_num::<i64>();
                object.rotation = from.rotated(turned as i32);
            }
            TaskKind::Scale { from, to } => object.scale = from + (to - from) * p,
            TaskKind::Fade { from, to } => object.opacity = from + (to - from) * p,
        }
        if elapsed >= task.duration {
            object.tasks.remove(i);
        } else {
            i += 1;
        }
    }
}

fn start(object: &mut ObjectState, kind: TaskKind, tick: Tick, duration: u32, easing: TaskEasing) {
    object.tasks.push(Task { kind, start: tick, duration, easing });
}

/// A character interacted with a door: a closed door starts opening, an open one closing.
/// A door already swinging ignores it. Returns whether the door reacted.
pub fn interact_door(object: &mut ObjectState, def: &ObjectDef, tick: Tick) -> bool {
    let ObjectDefKind::Door(door) = &def.kind else { return false };
    let easing = door.easing.into();
    let open_by = i64::from(door.open_angle.signed_units());
    let (from, by, phase) = match object.phase {
        ObjectPhase::Closed => (Angle::ZERO, open_by, ObjectPhase::Opening),
        ObjectPhase::Open => (door.open_angle, -open_by, ObjectPhase::Closing),
        _ => return false,
    };
    start(object, TaskKind::Rotate { from, by }, tick, door.swing_ticks, easing);
    object.phase = phase;
    object.phase_until = Some(Tick(tick.0 + door.swing_ticks));
    true
}

/// Moves an object's cycle on when its phase's time is up: a door open long enough closes by
/// itself, a lift travels and waits by turns, a sign fades out and in by turns.
pub fn run_cycle(object: &mut ObjectState, def: &ObjectDef, tick: Tick) {
    let Some(until) = object.phase_until else { return };
    if tick < until {
        return;
    }
    let (phase, next_until) = match (&def.kind, object.phase) {
        (ObjectDefKind::Door(_), ObjectPhase::Opening) => {
            let ObjectDefKind::Door(door) = &def.kind else { return };
            (ObjectPhase::Open, Some(Tick(tick.0 + door.stay_open_ticks)))
        }
        (ObjectDefKind::Door(_), ObjectPhase::Open) => {
            interact_door(object, def, tick);
            return;
        }
        (ObjectDefKind::Door(_), ObjectPhase::Closing) => (ObjectPhase::Closed, None),
        (ObjectDefKind::Lift(lift), phase) => {
            let easing = lift.easing.into();
            let height = |h: Fx| Vec3::new(Fx::ZERO, h - lift.bottom, Fx::ZERO);
            match phase {
                ObjectPhase::AtBottom => {
                    start(
                        object,
                        TaskKind::Move { from: height(lift.bottom), to: height(lift.top) },
                        tick,
                        lift.travel_ticks,
                        easing,
                    );
                    (ObjectPhase::Rising, Some(Tick(tick.0 + lift.travel_ticks)))
                }
                ObjectPhase::Rising => (ObjectPhase::AtTop, Some(Tick(tick.0 + lift.wait_ticks))),
                ObjectPhase::AtTop => {
                    start(
                        object,
                        TaskKind::Move { from: height(lift.top), to: height(lift.bottom) },
                        tick,
                        lift.travel_ticks,
                        easing,
                    );
                    (ObjectPhase::Falling, Some(Tick(tick.0 + lift.travel_ticks)))
                }
                _ => (ObjectPhase::AtBottom, Some(Tick(tick.0 + lift.wait_ticks))),
            }
        }
        (ObjectDefKind::Sign(sign), phase) => {
            let easing = sign.easing.into();
            match phase {
                ObjectPhase::Shown => {
                    start(
                        object,
                        TaskKind::Fade { from: Fx::ONE, to: Fx::ZERO },
                        tick,
                        sign.fade_ticks,
                        easing,
                    );
                    (ObjectPhase::FadingOut, Some(Tick(tick.0 + sign.fade_ticks)))
                }
                ObjectPhase::FadingOut => {
                    (ObjectPhase::Hidden, Some(Tick(tick.0 + sign.hold_ticks)))
                }
                ObjectPhase::Hidden => {
                    start(
                        object,
                        TaskKind::Fade { from: Fx::ZERO, to: Fx::ONE },
                        tick,
                        sign.fade_ticks,
                        easing,
                    );
                    start(
                        object,
                        TaskKind::Scale { from: SIGN_FADE_IN_SCALE, to: Fx::ONE },
                        tick,
                        sign.fade_ticks,
                        easing,
                    );
                    (ObjectPhase::FadingIn, Some(Tick(tick.0 + sign.fade_ticks)))
                }
                _ => (ObjectPhase::Shown, Some(Tick(tick.0 + sign.hold_ticks))),
            }
        }
        (ObjectDefKind::Door(_), _) => (ObjectPhase::Closed, None),
    };
    object.phase = phase;
    object.phase_until = next_until;
}
