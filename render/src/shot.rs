//! `fixstep screenshot`: one frame of a tick drawn offscreen (no window) into a PNG, and, with
//! `--bench-frames`, the CPU time to prepare and submit frames of it.
//!
//! The simulation runs the level with one player, who stands idle where they spawned unless a
//! command script drives them; the camera follows that player. Frames are drawn at `alpha`
//! between the last two ticks, as the window would draw them.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use fixstep_game::PlayerCommand;
use fixstep_game::script::CommandScript;
use fixstep_runtime::Tick;
use glam::Vec3;

use crate::gpu::{GpuContext, Hud, OffscreenTarget, Renderer, RendererSetup, SkinningPath};
use crate::local_game::{GameAssets, LocalGame, load_game_assets};
use crate::present::DrawFrame;
use crate::present::frame::CharacterDraw;

/// The default picture size, pixels.
pub const DEFAULT_SIZE: (u32, u32) = (1280, 720);

/// Largest picture side, pixels: beyond every adapter's texture limit there is no picture.
pub const MAX_SIDE: u32 = 8192;

/// Spacing of the benchmark's extra characters, metres: a crowd, not a pile.
const CROWD_SPACING: f32 = 1.6;

/// The shimmer clock of a picture of `render_tick`: the tick's own time, so a picture of a
/// tick is the same every time.
#[must_use]
pub fn effects_clock(render_tick: f64) -> f32 {
    (render_tick * crate::present::convert::TICK_SECONDS)
        .rem_euclid(f64::from(crate::gpu::EFFECTS_PERIOD_S)) as f32
}

/// Parses `WIDTHxHEIGHT`.
///
/// # Errors
///
/// Anything else, or a side of 0 or over [`MAX_SIDE`].
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size `{text}` is not WIDTHxHEIGHT (such as 1280x720)"))?;
    let side = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(v) if (1..=MAX_SIDE).contains(&v) => Ok(v),
            _ => {
                Err(format!("size `{text}`: each side must be a whole number from 1 to {MAX_SIDE}"))
            }
        }
    };
    Ok((side(w)?, side(h)?))
}

/// Parses a time of day `HH:MM` into a fraction of a day.
///
/// # Errors
///
/// Anything else, or hours over 23 or minutes over 59.
pub fn parse_time(text: &str) -> Result<f32, String> {
    let bad = || format!("time `{text}` is not HH:MM (such as 21:30)");
    let (h, m) = text.split_once(':').ok_or_else(bad)?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    let m: u32 = m.trim().parse().map_err(|_| bad())?;
    if h > 23 || m > 59 {
        return Err(bad());
    }
    Ok((h * 60 + m) as f32 / 1440.0)
}

/// What `fixstep screenshot` is asked to do.
#[derive(Clone, Debug)]
pub struct ScreenshotArgs {
    /// The level file.
    pub level: PathBuf,
    /// The assets root.
    pub assets: PathBuf,
    /// Ticks to simulate.
    pub tick: u32,
    /// Where between the last two ticks to draw.
    pub alpha: f32,
    /// Picture size.
    pub size: (u32, u32),
    /// The time of day drawn, overriding the simulation's (fraction of a day).
    pub time: Option<f32>,
    /// Commands of the player.
    pub commands: Option<PathBuf>,
    /// Seed of the simulation.
    pub seed: u64,
    /// Pose characters on the CPU instead of the GPU.
    pub cpu_skinning: bool,
    /// Draw the HUD.
    pub hud: bool,
    /// The PNG to write.
    pub out: PathBuf,
    /// Frames to time instead of one picture.
    pub bench_frames: Option<usize>,
    /// Characters added to the frame for the benchmark.
    pub extra_characters: usize,
}

/// Simulates `ticks` ticks of `assets`' level with one player driven by `script` (idle
/// without one) and draws the frame at `alpha`; `time` overrides the time of day drawn.
///
/// # Errors
///
/// If the simulation refuses a tick.
pub fn frame_at(
    assets: &GameAssets,
    ticks: u32,
    alpha: f32,
    script: Option<&CommandScript>,
    seed: u64,
    time: Option<f32>,
) -> Result<(DrawFrame, u64)> {
    let mut game = LocalGame::new(Arc::clone(&assets.level), seed, 1, 0);
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
        c.role = crate::present::frame::STRANGER;
        c.sample.pos = centre + offset;
        c.sample.facing = i as f32 * 0.7;
        c.sample.clip = (i % 3) as u16;
        c.sample.frame = (i % 17) as f32 * 0.73;
        frame.characters.push(c);
    }
}

/// The `p`th percentile of sorted `values`.
#[must_use]
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// Runs `fixstep screenshot`; returns the line to print.
///
/// # Errors
///
/// Bad input (level, script), no GPU, or a PNG that cannot be written.
pub fn run_screenshot(args: &ScreenshotArgs) -> Result<String> {
    if !(0.0..=1.0).contains(&args.alpha) {
        bail!("--alpha must be from 0 to 1, not {}", args.alpha);
    }
    let script = match &args.commands {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read command script {}", path.display()))?;
            Some(
                CommandScript::parse(&text)
                    .with_context(|| format!("command script {}", path.display()))?,
            )
        }
        None => None,
    };
    let assets = load_game_assets(&args.assets, &args.level)?;
    let (mut frame, hash) =
        frame_at(&assets, args.tick, args.alpha, script.as_ref(), args.seed, args.time)?;
    add_crowd(&mut frame, args.extra_characters);
    let ctx = GpuContext::headless()?;
    let (width, height) = args.size;
    let mut renderer = Renderer::new(
        &ctx,
        &RendererSetup {
            level: Arc::clone(&assets.level),
            rig: Arc::clone(&assets.rig),
            assets: assets.assets.clone(),
            format: crate::gpu::offscreen::OFFSCREEN_FORMAT,
            width,
            height,
        },
    )?;
    if args.cpu_skinning {
        renderer.skinning = SkinningPath::Cpu;
    }
    renderer.set_effects_clock(effects_clock(frame.render_tick));
    let target =
        OffscreenTarget::new(&ctx.device, width, height, crate::gpu::offscreen::OFFSCREEN_FORMAT);
    let hud = Hud {
        visible: args.hud,
        tick: frame.latest_tick,
        hash: Some(hash),
        note: Some(format!("{} (offscreen)", ctx.describe())),
        ..Hud::default()
    };
    if let Some(frames) = args.bench_frames {
        return bench(&ctx, &mut renderer, &target, &frame, &hud, frames);
    }
    renderer.render(&target.view, &frame, &hud);
    let image = target.read_image(&ctx.device, &ctx.queue).map_err(|e| anyhow!(e))?;
    save_png(&image, &args.out)?;
    Ok(format!(
        "wrote {} ({width}x{height}, tick {} at alpha {}, {} characters)\n",
        args.out.display(),
        frame.latest_tick,
        args.alpha,
        frame.characters.len()
    ))
}

/// Writes `image` as a PNG, naming the file in the error.
///
/// # Errors
///
/// If the file cannot be written.
pub fn save_png(image: &image::RgbaImage, path: &Path) -> Result<()> {
    image
        .save_with_format(path, image::ImageFormat::Png)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Times `frames` frames: the CPU time of `Renderer::render` (prepare the frame's buffers,
/// encode the passes and submit), waiting for the GPU between frames outside the timing.
fn bench(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    target: &OffscreenTarget,
    frame: &DrawFrame,
    hud: &Hud,
    frames: usize,
) -> Result<String> {
    let mut frame = frame.clone();
    // A few frames first, so buffers have grown and pipelines are warm.
    for _ in 0..3 {
        renderer.render(&target.view, &frame, hud);
        ctx.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| anyhow!("{e}"))?;
    }
    let mut times = Vec::with_capacity(frames);
    let mut whole = Vec::with_capacity(frames);
    for i in 0..frames {
        // Every frame moves the animation on, as a real frame does.
        for c in &mut frame.characters {
            c.sample.frame += 0.4;
        }
        frame.render_tick += 0.016 * f64::from(u32::try_from(i % 1000).unwrap_or(0));
        let start = Instant::now();
        renderer.render(&target.view, &frame, hud);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        ctx.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| anyhow!("{e}"))?;
        whole.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    whole.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    Ok(format!(
        "{} frames of {} characters on {}: CPU time to prepare and submit a frame, ms: \
         mean {mean:.2}, p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}; with the GPU's work \
         ({}x{}): p50 {:.1}, p90 {:.1}\n",
        times.len(),
        frame.characters.len(),
        ctx.describe(),
        percentile(&times, 50.0),
        percentile(&times, 90.0),
        percentile(&times, 99.0),
        percentile(&times, 100.0),
        target.width,
        target.height,
        percentile(&whole, 50.0),
        percentile(&whole, 90.0),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_bad_ones_say_why() {
        assert_eq!(parse_size("320x180"), Ok((320, 180)));
        assert!(parse_size("320").unwrap_err().contains("WIDTHxHEIGHT"));
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("99999x10").is_err());
    }

    #[test]
    fn times_parse() {
        assert_eq!(parse_time("12:00"), Ok(0.5));
        assert!(parse_time("24:00").is_err());
        assert!(parse_time("noon").is_err());
    }

    #[test]
    fn percentiles_pick_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 50.0), 3.0);
        assert_eq!(percentile(&v, 100.0), 5.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }
}
