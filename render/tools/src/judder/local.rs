//! What `fixstep judder` measures of the local player's own character: how soon a change of
//! what the player holds shows on screen, and how steadily the camera follows the character.

use super::logs::{DrawnEntity, DrawnFrame};
use super::measures::Summary;

/// A frame's motion differs from the motion of the frame before (scaled to its length) by
/// more than this, metres: it shows a change of input. A millimetre is far below a walking
/// frame's 2.3 cm at 60 Hz and far above the rounding of a drawn log.
pub const VISIBLE_CHANGE_M: f64 = 1e-3;

/// A frame's turn differs from the turn of the frame before by more than this, radians (about
/// a tenth of a degree): it shows a change of the turn held.
pub const VISIBLE_TURN_RAD: f64 = 2e-3;

/// The own character's input latency and the camera's standoff.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalMeasures {
    /// The local character's id.
    pub id: Option<u64>,
    /// For each change of the held input that the drawing shows: the real time from the
    /// change to the first frame whose motion differs from the motion before it, ms.
    pub latencies_ms: Vec<f64>,
    /// Changes of the held input that changed nothing drawn (a run key while standing).
    pub unseen_changes: usize,
    /// For each pair of frames, how much the camera's distance to the local character changed
    /// (m): a camera that follows rigidly keeps it constant.
    pub standoff_changes_m: Vec<f64>,
}

impl LocalMeasures {
    /// The latencies' summary.
    #[must_use]
    pub fn latency(&self) -> Option<Summary> {
        Summary::of(&self.latencies_ms)
    }

    /// The standoff changes' summary.
    #[must_use]
    pub fn standoff(&self) -> Option<Summary> {
        Summary::of(&self.standoff_changes_m)
    }
}

/// A local entity's step from `before` to `now` as a velocity (m/ms) and a turn rate.
fn motion(before: &DrawnEntity, now: &DrawnEntity, dt_ms: f64) -> ([f64; 3], f64) {
    let v = [
        (now.pos[0] - before.pos[0]) / dt_ms,
        (now.pos[1] - before.pos[1]) / dt_ms,
        (now.pos[2] - before.pos[2]) / dt_ms,
    ];
    (v, super::truth::wrap_angle(now.yaw - before.yaw) / dt_ms)
}

fn local(frame: &DrawnFrame) -> Option<&DrawnEntity> {
    frame.entities.iter().find(|e| e.local)
}

/// Measures the local character of a drawn log (none: empty measures).
#[must_use]
pub fn measure_local(frames: &[DrawnFrame]) -> LocalMeasures {
    let mut out = LocalMeasures {
        id: frames.iter().find_map(local).map(|e| e.id),
        ..LocalMeasures::default()
    };
    // A change waiting to be seen: when it happened, and the motion before it (m/ms, rad/ms).
    let mut waiting: Option<(f64, [f64; 3], f64)> = None;
    let mut last_change: Option<f64> = None;
    let mut motion_before: Option<([f64; 3], f64)> = None;
    for pair in frames.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let (Some(ea), Some(eb)) = (local(a), local(b)) else {
            motion_before = None;
            continue;
        };
        let dt = b.at_ms - a.at_ms;
        if let (Some(ca), Some(cb)) = (a.camera, b.camera) {
            let distance = |c: [f64; 3], e: &DrawnEntity| {
                ((c[0] - e.pos[0]).powi(2) + (c[1] - e.pos[1]).powi(2) + (c[2] - e.pos[2]).powi(2))
                    .sqrt()
            };
            out.standoff_changes_m.push((distance(cb, eb) - distance(ca, ea)).abs());
        }
        let now = motion(ea, eb, dt);
        if let Some(changed) = b.input_ms
            && last_change != Some(changed)
        {
            if last_change.is_some()
                && let Some(before) = motion_before
            {
                if waiting.is_some() {
                    out.unseen_changes += 1;
                }
                waiting = Some((changed, before.0, before.1));
            }
            last_change = Some(changed);
        }
        if let Some((changed, v, turn)) = waiting {
            let differs = (0..3).any(|i| ((now.0[i] - v[i]) * dt).abs() > VISIBLE_CHANGE_M)
                || ((now.1 - turn) * dt).abs() > VISIBLE_TURN_RAD;
            if differs {
                out.latencies_ms.push(b.at_ms - changed);
                waiting = None;
            } else if eb.held == ea.held && b.at_ms - changed > 1000.0 {
                // A second on, nothing drawn has changed: this change shows nothing.
                out.unseen_changes += 1;
                waiting = None;
            }
        }
        motion_before = Some(now);
    }
    if waiting.is_some() {
        out.unseen_changes += 1;
    }
    out
}
