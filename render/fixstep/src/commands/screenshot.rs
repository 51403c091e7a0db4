//! `fixstep screenshot`: one frame of a tick drawn offscreen (no window) into a PNG, and, with
//! `--bench-frames`, the CPU time to prepare and submit frames of it.
//!
//! The simulation runs the content with one player, who stands idle where they spawned unless
//! a command script drives them; the camera follows that player. Frames are drawn at `alpha`
//! between the last two ticks, as the window would draw them.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args;

use super::{Paths, bad_input};
use crate::games::Playable;

/// Largest picture side, pixels: beyond every adapter's texture limit there is no picture.
pub const MAX_SIDE: u32 = 8192;

/// Minutes in a day, for a time of day given as HH:MM.
const MINUTES_PER_DAY: u32 = 24 * 60;

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
    Ok((h * 60 + m) as f32 / MINUTES_PER_DAY as f32)
}

/// `fixstep screenshot`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct ScreenshotArgs {
    /// The content file (default: the game's, such as the town's `levels/town.ron` under the
    /// assets).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Ticks to simulate (100 ms each) before drawing.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(super::bounds::MAX_TICKS)))]
    pub tick: u32,
    /// Where between the last two ticks to draw: 0 is the tick before, 1 the last tick.
    #[arg(long, default_value_t = 1.0)]
    pub alpha: f32,
    /// Picture size, WIDTHxHEIGHT pixels.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Draw at this time of day, HH:MM (the light only: the simulation is unchanged).
    #[arg(long, value_parser = parse_time)]
    pub time: Option<f32>,
    /// A command script for the player (`TICK 0 FIELDS`).
    #[arg(long)]
    pub commands: Option<PathBuf>,
    /// Seed of the simulation's random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pose the characters on the CPU instead of the GPU.
    #[arg(long)]
    pub cpu_skinning: bool,
    /// Draw the HUD (tick, frame rate, hash, time of day).
    #[arg(long)]
    pub hud: bool,
    /// The PNG to write.
    #[arg(long, required_unless_present = "bench_frames")]
    pub out: Option<PathBuf>,
    /// Instead of a picture, time this many frames and print the CPU time to prepare and
    /// submit one (percentiles).
    #[arg(long, value_parser = super::bounds::up_to(super::bounds::MAX_BENCH_FRAMES))]
    pub bench_frames: Option<usize>,
    /// Characters to add to the frame (a crowd around the player), for the benchmark.
    #[arg(long, default_value_t = 0,
          value_parser = super::bounds::up_to(super::bounds::MAX_EXTRA_CHARACTERS))]
    pub extra_characters: usize,
}

/// The `p`th percentile of sorted `values`.
#[cfg(feature = "window")]
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
/// Bad input (level, script, a time or crowd the game has not), no GPU, or a PNG that cannot
/// be written.
#[cfg(feature = "window")]
pub fn run<G: Playable>(args: &ScreenshotArgs, paths: &Paths) -> Result<String> {
    use fixstep_present::{CommandOf, LocalGame, Presentation};
    use fixstep_runtime::{Player, Tick};

    use super::read_command_script;

    if !(0.0..=1.0).contains(&args.alpha) {
        return Err(bad_input(anyhow!("--alpha must be from 0 to 1, not {}", args.alpha)));
    }
    let script = read_command_script::<G>(args.commands.as_deref())?;
    let level_file = paths.content_file::<G>(args.level.as_deref());
    let content = paths.load::<G>(&level_file)?;
    let mut game = LocalGame::<G>::new(&content, args.seed, 1, Player::FIRST);
    for t in 0..args.tick {
        let command = script
            .as_ref()
            .map_or_else(CommandOf::<G>::default, |s| s.command(Player::FIRST, Tick(t)));
        game.step(&[command])?;
    }
    let mut frame = game.presentation.draw(args.alpha, 0.0).clone();
    G::dress(&mut frame, args.time, args.extra_characters).map_err(bad_input)?;
    let render_tick = (f64::from(game.tick().0) - 1.0 + f64::from(args.alpha)).max(0.0);
    let setup = crate::games::drawn::RenderSetup {
        assets: paths.assets.clone(),
        content_file: level_file,
        cpu_skinning: args.cpu_skinning,
    };
    let picture = Picture {
        size: args.size,
        render_tick,
        hud: args.hud,
        tick: game.tick().0,
        hash: game.hash(),
    };
    let out = args.out.clone().unwrap_or_default();
    let said = draw_png::<G>(&content, &setup, &frame, &picture, args.bench_frames, &out)?;
    if args.bench_frames.is_some() {
        return Ok(said);
    }
    Ok(format!(
        "wrote {} ({}x{}, tick {} at alpha {}, {})\n",
        out.display(),
        args.size.0,
        args.size.1,
        game.tick().0,
        args.alpha,
        G::describe_frame(&frame),
    ))
}

/// What a picture drawn offscreen is to be.
#[cfg(feature = "window")]
#[derive(Clone, Copy, Debug)]
pub struct Picture {
    /// Its size, pixels.
    pub size: (u32, u32),
    /// The tick it shows, with the fraction of the next drawn, for the effects' clock.
    pub render_tick: f64,
    /// Whether the HUD is drawn.
    pub hud: bool,
    /// The tick the HUD names.
    pub tick: u32,
    /// The hash the HUD shows.
    pub hash: u64,
}

/// Draws `frame` of `content` offscreen as `picture` says and writes it to `out` as a PNG; or,
/// with `bench_frames`, times that many frames and returns what it measured instead.
///
/// # Errors
///
/// No GPU, a renderer that cannot be made, or a PNG that cannot be written.
#[cfg(feature = "window")]
pub fn draw_png<G: Playable>(
    content: &std::sync::Arc<G::Content>,
    setup: &crate::games::drawn::RenderSetup,
    frame: &fixstep_present::FrameOf<G>,
    picture: &Picture,
    bench_frames: Option<usize>,
    out: &std::path::Path,
) -> Result<String> {
    use fixstep_gpu::offscreen::{OFFSCREEN_FORMAT, save_png};
    use fixstep_gpu::{FrameRenderer, GpuContext, Hud, OffscreenTarget, effects_clock_at};

    let ctx = GpuContext::headless().map_err(bad_input)?;
    let (width, height) = picture.size;
    let mut renderer = G::renderer(&ctx, OFFSCREEN_FORMAT, picture.size, content, setup)?;
    renderer.set_effects_clock(effects_clock_at(picture.render_tick));
    let target = OffscreenTarget::new(&ctx.device, width, height, OFFSCREEN_FORMAT);
    let hud = Hud {
        visible: picture.hud,
        tick: picture.tick,
        hash: Some(picture.hash),
        note: Some(format!("{} (offscreen)", ctx.describe())),
        ..Hud::default()
    };
    if let Some(frames) = bench_frames {
        return bench::<G>(&ctx, &mut renderer, &target, frame, &hud, frames);
    }
    renderer.render(&target.view, frame, &hud);
    let image = target.read_image(&ctx.device, &ctx.queue).map_err(|e| anyhow!(e))?;
    save_png(&image, out).map_err(|e| anyhow!("cannot write {}: {e}", out.display()))?;
    Ok(String::new())
}

/// Without the window feature there is no renderer: says so.
///
/// # Errors
///
/// Always, as a bad input.
#[cfg(not(feature = "window"))]
pub fn run<G: Playable>(_args: &ScreenshotArgs, _paths: &Paths) -> Result<String> {
    Err(bad_input(anyhow!(
        "this fixstep is a headless build, without a renderer: build it with its default \
         features to draw pictures"
    )))
}

/// Times `frames` frames: the CPU time of the renderer's `render` (prepare the frame's
/// buffers, encode the passes and submit), waiting for the GPU between frames outside the
/// timing.
#[cfg(feature = "window")]
fn bench<G: Playable>(
    ctx: &fixstep_gpu::GpuContext,
    renderer: &mut G::Renderer,
    target: &fixstep_gpu::OffscreenTarget,
    frame: &fixstep_present::FrameOf<G>,
    hud: &fixstep_gpu::Hud,
    frames: usize,
) -> Result<String> {
    use std::time::Instant;

    use fixstep_gpu::FrameRenderer;
    use fixstep_gpu::wgpu::PollType;

    let mut frame = frame.clone();
    // A few frames first, so buffers have grown and pipelines are warm.
    for _ in 0..3 {
        renderer.render(&target.view, &frame, hud);
        ctx.device.poll(PollType::wait_indefinitely()).map_err(|e| anyhow!("{e}"))?;
    }
    let mut times = Vec::with_capacity(frames);
    let mut whole = Vec::with_capacity(frames);
    for _ in 0..frames {
        // Every frame moves the animation on, as a real frame does.
        G::bench_step(&mut frame);
        let start = Instant::now();
        renderer.render(&target.view, &frame, hud);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        ctx.device.poll(PollType::wait_indefinitely()).map_err(|e| anyhow!("{e}"))?;
        whole.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    whole.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    Ok(format!(
        "{} frames of {} on {}: CPU time to prepare and submit a frame, ms: \
         mean {mean:.2}, p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}; with the GPU's work \
         ({}x{}): p50 {:.1}, p90 {:.1}\n",
        times.len(),
        G::describe_frame(&frame),
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

    #[cfg(feature = "window")]
    #[test]
    fn percentiles_pick_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 50.0), 3.0);
        assert_eq!(percentile(&v, 100.0), 5.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }
}
