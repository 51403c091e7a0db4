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
    /// For each change the drawing shows: which frame after the change first shows it (1: the
    /// first frame drawn after it). Unlike the latency, this does not depend on how evenly a
    /// busy machine spaces the frames.
    pub frames_to_show: Vec<usize>,
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
    // A change waiting to be seen: when it happened, the motion before it (m/ms, rad/ms), and
    // how many frames have been drawn since.
    let mut waiting: Option<(f64, [f64; 3], f64, usize)> = None;
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
                waiting = Some((changed, before.0, before.1, 0));
            }
            last_change = Some(changed);
        }
        if let Some((changed, v, turn, drawn)) = &mut waiting {
            let (changed, v, turn) = (*changed, *v, *turn);
            *drawn += 1;
            let differs = (0..3).any(|i| ((now.0[i] - v[i]) * dt).abs() > VISIBLE_CHANGE_M)
                || ((now.1 - turn) * dt).abs() > VISIBLE_TURN_RAD;
            if differs {
                out.latencies_ms.push(b.at_ms - changed);
                out.frames_to_show.push(*drawn);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A local character standing still until it starts east at `start_frame`, with the key
    /// pressed at 1 ms past frame 2; frames every 16 ms, the fourth one late (busy machine).
    fn walk(start_frame: usize) -> Vec<DrawnFrame> {
        let times = [0.0, 16.0, 32.0, 48.0, 75.0, 91.0, 107.0];
        let mut x = 0.0;
        times
            .iter()
            .enumerate()
            .map(|(i, &at_ms)| {
                if i >= start_frame {
                    x += 0.02;
                }
                let mut me = DrawnEntity::new(1, 0.0, [x, 0.0, 0.0], 0.0, 0.0);
                me.local = true;
                DrawnFrame {
                    at_ms,
                    input_ms: Some(if i >= 3 { 33.0 } else { 0.0 }),
                    entities: vec![me],
                    ..DrawnFrame::default()
                }
            })
            .collect()
    }

    #[test]
    fn a_change_shown_on_the_next_frame_counts_one_frame_however_late_it_is_drawn() {
        let measures = measure_local(&walk(3));
        assert_eq!(measures.frames_to_show, [1]);
        assert_eq!(measures.latencies_ms, [48.0 - 33.0]);
        let later = measure_local(&walk(5));
        assert_eq!(later.frames_to_show, [3]);
        assert_eq!(later.latencies_ms, [91.0 - 33.0]);
    }
}
