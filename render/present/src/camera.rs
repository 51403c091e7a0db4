//! The third-person camera, rigidly following the interpolated player.
//!
//! The camera has no smoothing of its own: it is placed from the player as drawn this frame,
//! so it moves exactly as smoothly as the player does, and when the player jumps (a teleport,
//! a respawn) it cuts with it instead of swooping across the town.

use glam::Vec3;

/// Where a frame's camera is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraDraw {
    /// Eye position, world metres.
    pub eye: Vec3,
    /// The point looked at.
    pub target: Vec3,
    /// Centre of the shadow map: the interpolated player, so shadows around it never lag it.
    pub shadow_centre: Vec3,
}

impl Default for CameraDraw {
    fn default() -> Self {
        Self { eye: Vec3::new(0.0, 10.0, 10.0), target: Vec3::ZERO, shadow_centre: Vec3::ZERO }
    }
}

/// Height of the point the camera looks at above the player's feet, metres: about the
/// shoulders, so the player sits in the lower third of the screen.
pub const CAMERA_TARGET_HEIGHT: f32 = 1.5;

/// How far above the horizontal the camera looks down at the player, radians (20°).
pub const CAMERA_PITCH: f32 = 0.35;

/// Closest zoom, metres from the target.
pub const CAMERA_MIN_DISTANCE: f32 = 3.0;

/// Farthest zoom, metres from the target.
pub const CAMERA_MAX_DISTANCE: f32 = 40.0;

/// Starting zoom, metres: close enough to see the character, far enough to see the street.
pub const CAMERA_START_DISTANCE: f32 = 9.0;

/// The player's zoom choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraRig {
    /// Distance from the target, metres.
    pub distance: f32,
}

impl Default for CameraRig {
    fn default() -> Self {
        Self { distance: CAMERA_START_DISTANCE }
    }
}

impl CameraRig {
    /// Zooms by `steps` (positive in): each step moves 10 % of the distance.
    pub fn zoom(&mut self, steps: f32) {
        self.distance =
            (self.distance * 0.9_f32.powf(steps)).clamp(CAMERA_MIN_DISTANCE, CAMERA_MAX_DISTANCE);
    }

    /// The camera behind a player drawn at `feet` facing `facing` (radians, counter-clockwise
    /// from +x seen from above).
    #[must_use]
    pub fn behind(&self, feet: Vec3, facing: f32) -> CameraDraw {
        let target = feet + Vec3::Y * CAMERA_TARGET_HEIGHT;
        // Facing φ looks along (cos φ, 0, -sin φ) in world coordinates (north is -z).
        let forward = Vec3::new(facing.cos(), 0.0, -facing.sin());
        let back = -forward * self.distance * CAMERA_PITCH.cos();
        let up = Vec3::Y * self.distance * CAMERA_PITCH.sin();
        CameraDraw { eye: target + back + up, target, shadow_centre: feet }
    }
}
