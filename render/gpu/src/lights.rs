//! Light: the sun (or moon) and sky from the time of day, the point lights a game gives (a
//! town's lamps at night), and the uniform buffer that carries them and the camera to every
//! lit pipeline (`lighting.wgsl`, which each pipeline's shader is appended to).

use std::f32::consts::TAU;

use glam::{Mat4, Vec3};

/// The WGSL every lit pipeline starts with: the uniforms and the lighting functions.
pub const LIGHTING_WGSL: &str = include_str!("lighting.wgsl");

/// Point lights the shader takes at once: the town's 18 lamps, 4 pads and 4 taxis' 8
/// headlights fit, and a uniform array of this size stays under the 16 KiB every adapter
/// allows.
pub const MAX_POINT_LIGHTS: usize = 32;

/// Floats in one point light: position and radius, colour, spot direction and cone.
const LIGHT_FLOATS: usize = 12;

/// Floats in the uniform block before the lights: two matrices and nine vectors of four.
const HEADER_FLOATS: usize = 16 * 2 + 4 * 9;

/// Size of the uniform block, bytes.
pub const GLOBALS_BYTES: u64 = ((HEADER_FLOATS + MAX_POINT_LIGHTS * LIGHT_FLOATS) * 4) as u64;

/// How far the sun's path leans south of straight overhead, as the z of its direction at noon
/// (about 20°): shadows fall a little to the north, as in a northern town.
const SUN_TILT: f32 = 0.36;

/// One point light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointLight {
    /// Position, world metres.
    pub position: Vec3,
    /// Radius of influence, metres.
    pub radius: f32,
    /// Colour times intensity.
    pub colour: Vec3,
    /// Spot direction (unit), or zero for a light all round.
    pub direction: Vec3,
    /// Cosine of the spot's half-angle (ignored all round).
    pub cone: f32,
}

/// The light of one time of day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lighting {
    /// Direction towards the sun by day, the moon by night (unit).
    pub sun_direction: Vec3,
    /// Strength of that light.
    pub sun_strength: f32,
    /// Its colour.
    pub sun_colour: Vec3,
    /// 0 by day, 1 at night: lamps, headlights and windows light up with it.
    pub night: f32,
    /// Ambient light from the sky.
    pub sky: Vec3,
    /// Ambient light from the ground.
    pub ground: Vec3,
    /// Fog and background colour (linear).
    pub fog: Vec3,
    /// Fog density per metre.
    pub fog_density: f32,
    /// The phase's name: night, dawn, day or dusk.
    pub phase: &'static str,
}

/// A key of the day's lighting.
struct Phase {
    /// Hour of the day.
    hour: f32,
    sun_colour: Vec3,
    sun_strength: f32,
    sky: Vec3,
    ground: Vec3,
    fog: Vec3,
}

/// The day's lighting keys, from midnight to midnight; between them the light blends. Colours
/// are linear: night is a dim blue moonlight, dawn and dusk low and orange, day white and
/// strong under a blue sky.
const PHASES: [Phase; 8] = [
    Phase {
        hour: 0.0,
        sun_colour: Vec3::new(0.35, 0.42, 0.7),
        sun_strength: 0.28,
        sky: Vec3::new(0.025, 0.032, 0.07),
        ground: Vec3::new(0.015, 0.015, 0.02),
        fog: Vec3::new(0.012, 0.016, 0.035),
    },
    Phase {
        hour: 4.8,
        sun_colour: Vec3::new(0.35, 0.42, 0.7),
        sun_strength: 0.28,
        sky: Vec3::new(0.025, 0.032, 0.07),
        ground: Vec3::new(0.015, 0.015, 0.02),
        fog: Vec3::new(0.012, 0.016, 0.035),
    },
    Phase {
        hour: 6.5,
        sun_colour: Vec3::new(1.0, 0.5, 0.28),
        sun_strength: 1.6,
        sky: Vec3::new(0.2, 0.16, 0.2),
        ground: Vec3::new(0.08, 0.06, 0.05),
        fog: Vec3::new(0.55, 0.36, 0.3),
    },
    Phase {
        hour: 8.5,
        sun_colour: Vec3::new(1.0, 0.93, 0.82),
        sun_strength: 2.6,
        sky: Vec3::new(0.28, 0.34, 0.45),
        ground: Vec3::new(0.12, 0.11, 0.08),
        fog: Vec3::new(0.5, 0.66, 0.86),
    },
    Phase {
        hour: 16.0,
        sun_colour: Vec3::new(1.0, 0.93, 0.82),
        sun_strength: 2.6,
        sky: Vec3::new(0.28, 0.34, 0.45),
        ground: Vec3::new(0.12, 0.11, 0.08),
        fog: Vec3::new(0.5, 0.66, 0.86),
    },
    Phase {
        hour: 18.0,
        sun_colour: Vec3::new(1.0, 0.42, 0.18),
        sun_strength: 1.5,
        sky: Vec3::new(0.2, 0.13, 0.17),
        ground: Vec3::new(0.08, 0.05, 0.04),
        fog: Vec3::new(0.6, 0.3, 0.22),
    },
    Phase {
        hour: 19.6,
        sun_colour: Vec3::new(0.35, 0.42, 0.7),
        sun_strength: 0.28,
        sky: Vec3::new(0.025, 0.032, 0.07),
        ground: Vec3::new(0.015, 0.015, 0.02),
        fog: Vec3::new(0.012, 0.016, 0.035),
    },
    Phase {
        hour: 24.0,
        sun_colour: Vec3::new(0.35, 0.42, 0.7),
        sun_strength: 0.28,
        sky: Vec3::new(0.025, 0.032, 0.07),
        ground: Vec3::new(0.015, 0.015, 0.02),
        fog: Vec3::new(0.012, 0.016, 0.035),
    },
];

/// Fog density by day, per metre: the far edge of the 200 m town fades a little.
const FOG_DENSITY: f32 = 0.004;

/// The light at `time_of_day` (fraction of a day from midnight).
#[must_use]
pub fn lighting_at(time_of_day: f32) -> Lighting {
    let t = time_of_day.rem_euclid(1.0);
    let hour = t * 24.0;
    let next = PHASES.iter().position(|p| p.hour > hour).unwrap_or(PHASES.len() - 1).max(1);
    let (a, b) = (&PHASES[next - 1], &PHASES[next]);
    let k = ((hour - a.hour) / (b.hour - a.hour).max(1e-3)).clamp(0.0, 1.0);
    let k = k * k * (3.0 - 2.0 * k);
    // The sun rises in the east at 6:00, stands south-high at noon and sets in the west at
    // 18:00; the moon takes the opposite path.
    let angle = (t - 0.25) * TAU;
    let sun = Vec3::new(angle.cos(), angle.sin(), SUN_TILT).normalize();
    let elevation = sun.y;
    let (direction, above) = if elevation > -0.02 {
        (sun, smoothstep(-0.02, 0.12, elevation))
    } else {
        (Vec3::new(-sun.x, -sun.y, SUN_TILT).normalize(), smoothstep(0.02, 0.2, -elevation))
    };
    let night = 1.0 - smoothstep(-0.08, 0.1, elevation);
    let phase = if night > 0.5 {
        "night"
    } else if (6.0..=10.0).contains(&hour) && elevation < 0.5 {
        "dawn"
    } else if (15.0..=20.0).contains(&hour) && elevation < 0.5 {
        "dusk"
    } else {
        "day"
    };
    Lighting {
        sun_direction: direction,
        sun_strength: (a.sun_strength + (b.sun_strength - a.sun_strength) * k) * above,
        sun_colour: a.sun_colour.lerp(b.sun_colour, k),
        night,
        sky: a.sky.lerp(b.sky, k),
        ground: a.ground.lerp(b.ground, k),
        fog: a.fog.lerp(b.fog, k),
        fog_density: FOG_DENSITY * (1.0 + night),
        phase,
    }
}

fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Keeps the [`MAX_POINT_LIGHTS`] lights of `lights` nearest to `near`, in no particular order
/// (the shader sums them): a partition, which unlike a stable sort allocates nothing, every
/// frame of a scene with many lamps.
pub fn keep_nearest(lights: &mut Vec<PointLight>, near: Vec3) {
    if lights.len() > MAX_POINT_LIGHTS {
        lights.select_nth_unstable_by(MAX_POINT_LIGHTS - 1, |a, b| {
            a.position.distance_squared(near).total_cmp(&b.position.distance_squared(near))
        });
        lights.truncate(MAX_POINT_LIGHTS);
    }
}

/// What one pass's uniforms say: its camera and the frame's light.
#[derive(Clone, Copy, Debug)]
pub struct GlobalsData<'a> {
    /// World to clip space of the pass.
    pub view_proj: Mat4,
    /// World to the shadow map's clip space.
    pub light_view_proj: Mat4,
    /// Eye position.
    pub eye: Vec3,
    /// Camera right, world space.
    pub right: Vec3,
    /// Camera up, world space.
    pub up: Vec3,
    /// Seconds of real time, for shimmering effects.
    pub seconds: f32,
    /// The light.
    pub lighting: &'a Lighting,
    /// One shadow-map texel in uv.
    pub shadow_texel: f32,
    /// Point lights (at most `MAX_POINT_LIGHTS` are used).
    pub lights: &'a [PointLight],
    /// Whether these are the shadow pass's uniforms (vertex shaders then leave out what casts
    /// no shadow, such as a faded sign).
    pub shadow_pass: bool,
}

/// Writes the uniform block of `data` into `out` (cleared first), as the floats (and a count
/// in float bits) `lighting.wgsl`'s `Globals` reads.
pub fn write_globals(data: &GlobalsData<'_>, out: &mut Vec<f32>) {
    out.clear();
    out.extend_from_slice(&data.view_proj.to_cols_array());
    out.extend_from_slice(&data.light_view_proj.to_cols_array());
    let l = data.lighting;
    let push4 = |out: &mut Vec<f32>, v: Vec3, w: f32| out.extend_from_slice(&[v.x, v.y, v.z, w]);
    push4(out, data.eye, data.seconds);
    push4(out, data.right, 0.0);
    push4(out, data.up, 0.0);
    push4(out, l.sun_direction, l.sun_strength);
    push4(out, l.sun_colour, l.night);
    push4(out, l.sky, data.shadow_texel);
    push4(out, l.ground, 0.0);
    push4(out, l.fog, l.fog_density);
    let count = data.lights.len().min(MAX_POINT_LIGHTS) as u32;
    let shadow_pass = u32::from(data.shadow_pass);
    out.extend_from_slice(&[f32::from_bits(count), f32::from_bits(shadow_pass), 0.0, 0.0]);
    for i in 0..MAX_POINT_LIGHTS {
        match data.lights.get(i) {
            Some(light) => {
                push4(out, light.position, light.radius);
                push4(out, light.colour, 0.0);
                push4(out, light.direction, light.cone);
            }
            None => out.extend_from_slice(&[0.0; LIGHT_FLOATS]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noon_is_day_and_midnight_is_night() {
        let noon = lighting_at(0.5);
        assert_eq!(noon.phase, "day");
        assert!(noon.sun_direction.y > 0.8 && noon.night < 0.01);
        let midnight = lighting_at(0.0);
        assert_eq!(midnight.phase, "night");
        assert!(midnight.night > 0.99 && midnight.sun_direction.y > 0.0, "moonlight from above");
    }

    #[test]
    fn dawn_and_dusk_are_named() {
        assert_eq!(lighting_at(6.6 / 24.0).phase, "dawn");
        assert_eq!(lighting_at(17.6 / 24.0).phase, "dusk");
    }

    #[test]
    fn the_uniform_block_has_its_size() {
        let lighting = lighting_at(0.4);
        let mut out = Vec::new();
        write_globals(
            &GlobalsData {
                view_proj: Mat4::IDENTITY,
                light_view_proj: Mat4::IDENTITY,
                eye: Vec3::ZERO,
                right: Vec3::X,
                up: Vec3::Y,
                seconds: 0.0,
                lighting: &lighting,
                shadow_texel: 0.001,
                lights: &[],
                shadow_pass: false,
            },
            &mut out,
        );
        assert_eq!(out.len() as u64 * 4, GLOBALS_BYTES);
    }
}
