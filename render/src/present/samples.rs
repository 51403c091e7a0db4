//! What is sampled of each kind of entity at each tick, and how two samples blend.

use std::sync::Arc;

use fixstep_game::level::Level;
use fixstep_game::{AnimState, CharacterView, ObjectView, TaxiView};
use fixstep_runtime::tick::TICKS_PER_SECOND;
use glam::{Quat, Vec3};

use super::convert::{f, ground, radians, world, yaw_rotation};
use super::interp::{lerp, lerp_angle, lerp_frame, lerp_rolling, lerp_vec, slerp};
use super::track::Sample;

/// Ticks per second as a float, to turn metres per tick into metres per second.
const TICKS_PER_SECOND_F32: f32 = TICKS_PER_SECOND as f32;

/// A character's visual values at one tick.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterSample {
    /// Its name.
    pub name: Arc<str>,
    /// The player it belongs to.
    pub player: Option<u16>,
    /// Feet position, world metres.
    pub pos: Vec3,
    /// Facing, radians counter-clockwise from +x seen from above.
    pub facing: f32,
    /// Animation state.
    pub anim: AnimState,
    /// The clip it plays.
    pub clip: u16,
    /// Frames in that clip.
    pub frames: f32,
    /// Whether that clip loops.
    pub looping: bool,
    /// Fractional frame.
    pub frame: f32,
    /// Whether it is in the world.
    pub enabled: bool,
    /// Jump counter.
    pub jumps: u32,
    /// Health, 0 to 100.
    pub health: f32,
}

impl CharacterSample {
    /// The sample of a character's view.
    #[must_use]
    pub fn of(view: &CharacterView, level: &Level) -> Self {
        let clip = level.clips.defs.get(usize::from(view.clip));
        Self {
            name: level.character_name(view.role),
            player: view.player,
            pos: ground(view.pos, 0.0),
            facing: radians(view.facing),
            anim: view.anim,
            clip: view.clip,
            frames: clip.map_or(1.0, |c| c.frames as f32),
            looping: clip.is_some_and(|c| c.looping),
            frame: f(view.frame),
            enabled: view.enabled,
            jumps: view.jumps,
            health: view.health as f32,
        }
    }
}

impl Sample for CharacterSample {
    /// A jump or an enabled change resets the whole sample.
    type Key = (u32, bool);

    fn key(&self) -> Self::Key {
        (self.jumps, self.enabled)
    }

    /// Position and health in a straight line, facing the short way round. The animation
    /// blends only within one state's clip; across a change of state the new clip is drawn as
    /// sampled (its frame is never blended with another clip's), while the feet keep moving
    /// smoothly: a walker that starts running does not stop for a tick.
    fn blend(previous: &Self, current: &Self, t: f32, out: &mut Self) {
        out.clone_from(current);
        out.pos = lerp_vec(previous.pos, current.pos, t);
        out.facing = lerp_angle(previous.facing, current.facing, t);
        out.health = lerp(previous.health, current.health, t);
        if previous.anim == current.anim && previous.clip == current.clip {
            out.frame =
                lerp_frame(previous.frame, current.frame, t, current.frames, current.looping);
        }
    }
}

/// A taxi's visual values at one tick.
#[derive(Clone, Debug, PartialEq)]
pub struct TaxiSample {
    /// Body centre at ground level, world metres.
    pub pos: Vec3,
    /// Body yaw, radians.
    pub yaw: f32,
    /// Steering angle of the front wheels, radians, positive to the left.
    pub steer: f32,
    /// Wheel rotation about the axle, radians.
    pub wheel: f32,
    /// Speed, metres per second.
    pub speed: f32,
    /// Jump counter.
    pub jumps: u32,
}

impl TaxiSample {
    /// The sample of a taxi's view.
    #[must_use]
    pub fn of(view: &TaxiView) -> Self {
        Self {
            pos: ground(view.pos, 0.0),
            yaw: radians(view.yaw),
            steer: radians(view.steer),
            wheel: radians(view.wheel_rotation),
            speed: f(view.speed) * TICKS_PER_SECOND_F32,
            jumps: view.jumps,
        }
    }
}

impl Sample for TaxiSample {
    type Key = u32;

    fn key(&self) -> u32 {
        self.jumps
    }

    fn blend(previous: &Self, current: &Self, t: f32, out: &mut Self) {
        *out = Self {
            pos: lerp_vec(previous.pos, current.pos, t),
            yaw: lerp_angle(previous.yaw, current.yaw, t),
            steer: lerp_angle(previous.steer, current.steer, t),
            wheel: lerp_rolling(previous.wheel, current.wheel, t),
            speed: lerp(previous.speed, current.speed, t),
            jumps: current.jumps,
        };
    }
}

/// An interactive object's visual transform at one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectSample {
    /// Offset from its level position, world metres.
    pub offset: Vec3,
    /// Rotation about the vertical axis through its pivot.
    pub rotation: Quat,
    /// Uniform scale.
    pub scale: f32,
    /// Opacity, 0 to 1.
    pub opacity: f32,
    /// Jump counter.
    pub jumps: u32,
}

impl ObjectSample {
    /// The sample of an object's view.
    #[must_use]
    pub fn of(view: &ObjectView) -> Self {
        Self {
            offset: world(view.offset),
            rotation: yaw_rotation(radians(view.rotation)),
            scale: f(view.scale),
            opacity: f(view.opacity),
            jumps: view.jumps,
        }
    }
}

impl Sample for ObjectSample {
    type Key = u32;

    fn key(&self) -> u32 {
        self.jumps
    }

    fn blend(previous: &Self, current: &Self, t: f32, out: &mut Self) {
        *out = Self {
            offset: lerp_vec(previous.offset, current.offset, t),
            rotation: slerp(previous.rotation, current.rotation, t),
            scale: lerp(previous.scale, current.scale, t),
            opacity: lerp(previous.opacity, current.opacity, t),
            jumps: current.jumps,
        };
    }
}
