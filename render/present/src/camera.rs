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

/// How fast a free camera moves with the movement keys, metres a second: a street crossed in
/// about a second.
pub const FREE_CAMERA_PAN_M_S: f32 = 12.0;

/// How fast a free camera turns with the turn keys, radians a second: a full turn in about
/// four seconds.
pub const FREE_CAMERA_TURN_RAD_S: f32 = 1.5;

/// The player's zoom choice, and a free camera if the viewer moves one by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraRig {
    /// Distance from the target, metres.
    pub distance: f32,
    /// A camera moved by hand (a spectator's, or a replay viewer's after it lets go of the
    /// player it followed): it looks at its own point instead of following a character.
    pub free: Option<FreeLook>,
}

impl Default for CameraRig {
    fn default() -> Self {
        Self { distance: CAMERA_START_DISTANCE, free: None }
    }
}

/// Where a free camera looks: a point on the ground and a heading, moved by the keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FreeLook {
    /// The point looked at, world metres, at ground height.
    pub target: Vec3,
    /// The heading, radians counter-clockwise from +x seen from above.
    pub facing: f32,
}

impl FreeLook {
    /// The free camera that takes over from `drawn` without a jump in where it looks: the
    /// same point (less the height the rig adds), seen from the same side.
    #[must_use]
    pub fn from_drawn(drawn: &CameraDraw) -> Self {
        let forward = drawn.target - drawn.eye;
        // Looking straight down leaves no heading; any will do.
        let facing =
            if forward.x == 0.0 && forward.z == 0.0 { 0.0 } else { (-forward.z).atan2(forward.x) };
        Self { target: drawn.target - Vec3::Y * CAMERA_TARGET_HEIGHT, facing }
    }

    /// Moves it for `dt_seconds` of held keys: `forward` and `strafe` from -1 to 1 along and
    /// across the heading, `turn` from -1 to 1 (left positive), and `turned_rad` more that the
    /// mouse turned.
    pub fn steer(
        &mut self,
        forward: f32,
        strafe: f32,
        turn: f32,
        turned_rad: f32,
        dt_seconds: f32,
    ) {
        self.facing += turn * FREE_CAMERA_TURN_RAD_S * dt_seconds + turned_rad;
        let ahead = Vec3::new(self.facing.cos(), 0.0, -self.facing.sin());
        let right = Vec3::new(-ahead.z, 0.0, ahead.x);
        self.target += (ahead * forward + right * strafe) * FREE_CAMERA_PAN_M_S * dt_seconds;
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

    /// The free camera, if one is moved by hand.
    #[must_use]
    pub fn free_draw(&self) -> Option<CameraDraw> {
        self.free.map(|look| self.behind(look.target, look.facing))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_camera_takes_over_looking_where_the_followed_one_looked() {
        let rig = CameraRig::default();
        let followed = rig.behind(Vec3::new(4.0, 0.0, -7.0), 1.0);
        let free = CameraRig { free: Some(FreeLook::from_drawn(&followed)), ..rig };
        let drawn = free.free_draw().expect("free");
        assert!((drawn.eye - followed.eye).length() < 1e-4, "{drawn:?} against {followed:?}");
        assert!((drawn.target - followed.target).length() < 1e-4);
    }

    #[test]
    fn a_free_camera_moves_along_its_heading() {
        let mut look = FreeLook { target: Vec3::ZERO, facing: 0.0 };
        look.steer(1.0, 0.0, 0.0, 0.0, 1.0);
        assert!((look.target - Vec3::X * FREE_CAMERA_PAN_M_S).length() < 1e-4, "{look:?}");
        look.steer(0.0, 1.0, 0.0, std::f32::consts::FRAC_PI_2, 0.5);
        // Turned to face north (-z), its right is +x.
        assert!((look.target.x - FREE_CAMERA_PAN_M_S * 1.5).abs() < 1e-3, "{look:?}");
    }
}
