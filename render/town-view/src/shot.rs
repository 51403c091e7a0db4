//! What a screenshot of the town may add to a frame: a crowd of extra characters, for the
//! frame benchmark.

use glam::Vec3;

use crate::present::frame::{CharacterDraw, DrawFrame, STRANGER};

/// Spacing of the benchmark's extra characters, metres: a crowd, not a pile.
const CROWD_SPACING: f32 = 1.6;

/// Adds `count` characters to `frame`: copies of its first character in a crowd filling the
/// plaza and the streets around the camera's target, each at its own facing and frame, so
/// that they animate out of step.
pub fn add_crowd(frame: &mut DrawFrame, count: usize) {
    let Some(&template) = frame.characters.first() else { return };
    let side = (count as f32).sqrt().ceil() as usize;
    let centre = frame.camera.target.with_y(0.0);
    for i in 0..count {
        let (row, col) = (i / side.max(1), i % side.max(1));
        let offset = Vec3::new(
            (col as f32 - side as f32 / 2.0) * CROWD_SPACING,
            0.0,
            (row as f32 - side as f32 / 2.0) * CROWD_SPACING,
        );
        let mut c: CharacterDraw = template;
        c.id.index = 100_000 + i as u32;
        c.role = STRANGER;
        c.sample.pos = centre + offset;
        c.sample.facing = i as f32 * 0.7;
        c.sample.clip = (i % 3) as u16;
        c.sample.frame = (i % 17) as f32 * 0.73;
        frame.characters.push(c);
    }
}
