//! The town's point lights: street lamps, the teleport pads' glow and the taxis' headlights,
//! lit as night falls.

use fixstep_gpu::lights::{PointLight, keep_nearest};
use fixstep_present::convert::{f, ground};
use fixstep_town::level::Level;
use glam::Vec3;

use crate::present::frame::TaxiDraw;

/// Reach of a street lamp's light, metres: a pool a little wider than the street.
pub const LAMP_RADIUS: f32 = 16.0;

/// Brightness of a street lamp (linear units at 1 m): a warm sodium pool that reads on the
/// street without washing out the scene.
pub const LAMP_INTENSITY: f32 = 6.0;

/// Colour of a street lamp: warm white.
pub const LAMP_COLOUR: Vec3 = Vec3::new(1.0, 0.72, 0.42);

/// Reach of a teleport pad's glow, metres.
pub const PAD_RADIUS: f32 = 9.0;

/// Brightness of a teleport pad's glow.
pub const PAD_INTENSITY: f32 = 3.0;

/// Colour of a teleport pad's glow: the pads' cyan.
pub const PAD_COLOUR: Vec3 = Vec3::new(0.2, 0.7, 1.0);

/// Reach of a headlight, metres: enough to light the road a few car lengths ahead.
pub const HEADLIGHT_RADIUS: f32 = 22.0;

/// Brightness of a headlight (linear units at 1 m).
pub const HEADLIGHT_INTENSITY: f32 = 9.0;

/// Cosine of a headlight's half-angle (about 40°).
pub const HEADLIGHT_CONE: f32 = 0.76;

/// Where a taxi's headlights are in its own frame (x forward, y up, z right), metres: at the
/// front corners of the body, a hand above the bumper.
pub const HEADLIGHT_OFFSET: Vec3 = Vec3::new(2.25, 0.75, 0.62);

/// The point lights of a frame: every lamp, every teleport pad's glow and both headlights of
/// every taxi, dimmed by `night` (none by day), the [`MAX_POINT_LIGHTS`](fixstep_gpu::lights::MAX_POINT_LIGHTS) nearest to `near` if
/// there are more.
pub fn point_lights(
    level: &Level,
    taxis: &[TaxiDraw],
    night: f32,
    near: Vec3,
    out: &mut Vec<PointLight>,
) {
    out.clear();
    if night <= 0.01 {
        return;
    }
    for lamp in &level.lamps {
        out.push(PointLight {
            position: ground(lamp.at, f(lamp.height) - 0.3),
            radius: LAMP_RADIUS,
            colour: LAMP_COLOUR * LAMP_INTENSITY * night,
            direction: Vec3::ZERO,
            cone: -2.0,
        });
    }
    for pair in &level.teleports {
        for end in &pair.ends {
            out.push(PointLight {
                position: ground(end.zone.centre, 1.0),
                radius: PAD_RADIUS,
                colour: PAD_COLOUR * PAD_INTENSITY * night,
                direction: Vec3::ZERO,
                cone: -2.0,
            });
        }
    }
    for taxi in taxis {
        let rotation = glam::Quat::from_rotation_y(taxi.sample.yaw);
        let forward = rotation * Vec3::X;
        // Aimed a little down, at the road ahead.
        let aim = (forward - Vec3::Y * 0.18).normalize();
        for side in [-1.0, 1.0] {
            let offset =
                Vec3::new(HEADLIGHT_OFFSET.x, HEADLIGHT_OFFSET.y, HEADLIGHT_OFFSET.z * side);
            out.push(PointLight {
                position: taxi.sample.pos + rotation * offset,
                radius: HEADLIGHT_RADIUS,
                colour: Vec3::new(1.0, 0.95, 0.82) * HEADLIGHT_INTENSITY * night,
                direction: aim,
                cone: HEADLIGHT_CONE,
            });
        }
    }
    keep_nearest(out, near);
}
