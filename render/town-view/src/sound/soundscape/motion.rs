//! When a drawn object (a door, the lift) starts moving and when it comes to rest, from its
//! drawn offset and rotation changing from one frame to the next.

use glam::{Quat, Vec3};

/// A drawn offset that changes by less than this between two frames is still, metres: far
/// below any motion a level makes in a frame (the slowest, the lift easing into its stop,
/// moves a millimetre a frame at 60 Hz), far above rounding.
pub const STILL_M: f32 = 1e-5;

/// A rotation that changes by less than this between two frames is still, as the length of
/// the quaternions' difference (about half the angle in radians): as [`STILL_M`], far below
/// a door's slowest swing, far above rounding of a spherical interpolation between equal
/// rotations.
pub const STILL_QUAT: f32 = 1e-5;

/// What an object's motion did this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// It moves, and did not the frame before.
    Started,
    /// It does not move, and did the frame before.
    Stopped,
}

/// How one object was drawn last.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Drawn {
    offset: Vec3,
    rotation: Quat,
    moving: bool,
}

/// Every object's last drawing, by index.
#[derive(Clone, Debug, Default)]
pub struct ObjectMotion {
    objects: Vec<Option<Drawn>>,
}

impl ObjectMotion {
    /// Object `index` is drawn at `offset` and `rotation`, `dt` seconds after the frame
    /// before. A frame that took no time shows nothing new and is passed over: a repeated
    /// frame is not a stop.
    pub fn drawn(&mut self, index: usize, offset: Vec3, rotation: Quat, dt: f32) -> Option<Motion> {
        if self.objects.len() <= index {
            self.objects.resize(index + 1, None);
        }
        let slot = &mut self.objects[index];
        let Some(last) = slot.as_mut() else {
            *slot = Some(Drawn { offset, rotation, moving: false });
            return None;
        };
        if dt.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        // q and -q are one rotation.
        let turned = (rotation - last.rotation).length().min((rotation + last.rotation).length());
        let moving = (offset - last.offset).length() > STILL_M || turned > STILL_QUAT;
        let change = match (last.moving, moving) {
            (false, true) => Some(Motion::Started),
            (true, false) => Some(Motion::Stopped),
            _ => None,
        };
        *last = Drawn { offset, rotation, moving };
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 1.0 / 60.0;

    #[test]
    fn a_swing_starts_and_stops_once() {
        let mut m = ObjectMotion::default();
        let yaw = |a: f32| Quat::from_rotation_y(a);
        let mut got = Vec::new();
        let angles = [0.0, 0.0, 0.01, 0.1, 0.5, 1.0, 1.5, 1.5, 1.5, 1.4, 1.4];
        for (frame, a) in angles.into_iter().enumerate() {
            if let Some(change) = m.drawn(3, Vec3::ZERO, yaw(a), DT) {
                got.push((frame, change));
            }
        }
        assert_eq!(
            got,
            [
                (2, Motion::Started),
                (7, Motion::Stopped),
                (9, Motion::Started),
                (10, Motion::Stopped)
            ]
        );
    }

    #[test]
    fn a_lift_rising_moves_and_a_repeated_frame_is_not_a_stop() {
        let mut m = ObjectMotion::default();
        assert_eq!(m.drawn(0, Vec3::ZERO, Quat::IDENTITY, DT), None);
        assert_eq!(m.drawn(0, Vec3::Y * 0.001, Quat::IDENTITY, DT), Some(Motion::Started));
        assert_eq!(m.drawn(0, Vec3::Y * 0.001, Quat::IDENTITY, 0.0), None);
        assert_eq!(m.drawn(0, Vec3::Y * 0.002, Quat::IDENTITY, DT), None);
        assert_eq!(m.drawn(0, Vec3::Y * 0.002, -Quat::IDENTITY, DT), Some(Motion::Stopped));
    }
}
