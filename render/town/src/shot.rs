//! One picture of the town at a tick, as `fixstep screenshot` and the image tests draw it:
//! the level simulated with one player, who stands idle where they spawned unless a command
//! script drives them; the camera follows that player; the frame drawn at `alpha` between the
//! last two ticks, as the window would draw it.

use std::sync::Arc;

use fixstep_game::PlayerCommand;
use fixstep_game::level::Level;
use fixstep_present::LocalGame;
use fixstep_runtime::Tick;
use fixstep_runtime::script::CommandScript;
use glam::Vec3;

use crate::TownGame;
use crate::present::frame::{CharacterDraw, DrawFrame, STRANGER};

/// Spacing of the benchmark's extra characters, metres: a crowd, not a pile.
const CROWD_SPACING: f32 = 1.6;

/// Simulates `ticks` ticks of `level` in game `G` with one player driven by `script` (idle
/// without one) and draws the frame at `alpha`; `time` overrides the time of day drawn.
/// Returns the frame and the state hash after the last tick.
///
/// # Errors
///
/// If the simulation refuses a tick.
pub fn frame_at<G: TownGame>(
    level: &Arc<Level>,
    ticks: u32,
    alpha: f32,
    script: Option<&CommandScript<PlayerCommand>>,
    seed: u64,
    time: Option<f32>,
) -> Result<(DrawFrame, u64), fixstep_runtime::Error> {
    let mut game = LocalGame::<G>::new(level, seed, 1, 0);
    for t in 0..ticks {
        let command = script.map_or_else(PlayerCommand::default, |s| s.command(0, Tick(t)));
        game.step(&[command])?;
    }
    let mut frame = game.presentation.draw(alpha, 0.0).clone();
    if let Some(time) = time {
        frame.time_of_day = time;
    }
    Ok((frame, game.hash()))
}

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
