//! What the GPU tests share: an adapter or a reason to skip, the town's assets, a renderer
//! drawing offscreen, scenes of the town played by a bot, and comparing pictures with the
//! references in `tests/reference/`.
//!
//! Each test binary uses a different part of this module.
#![allow(dead_code, reason = "each test binary uses part of the shared helpers")]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_gpu::offscreen::OFFSCREEN_FORMAT;
use fixstep_gpu::{GpuContext, Hud, OffscreenTarget, effects_clock_at};
use fixstep_present::LocalGame;
use fixstep_present::skinning::Rig;
use fixstep_runtime::{Bot as _, Player, Simulation as _};
use fixstep_town::GameSnapshot;
use fixstep_town::bots::TownBot;
use fixstep_town::level::Level;
use fixstep_town_view::assets::{default_level, load_level_file, load_rig};
use fixstep_town_view::gpu::{RendererSetup, TownRenderer as Renderer};
use fixstep_town_view::{DrawFrame, Town};

/// The town's level and rig, and where the assets are.
#[derive(Clone, Debug)]
pub struct GameAssets {
    /// The level.
    pub level: Arc<Level>,
    /// Its characters' rig.
    pub rig: Arc<Rig>,
    /// The assets root.
    pub assets: PathBuf,
}

/// Size of the image tests' pictures: small, so a software rasteriser draws them quickly.
pub const TEST_SIZE: (u32, u32) = (320, 180);

pub use fixstep_gpu::testing::gpu_or_skip;

/// The workspace's assets.
pub fn assets_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("assets")
}

/// The town and its rig.
pub fn town() -> GameAssets {
    let root = assets_root();
    let file = default_level(&root);
    let level = load_level_file(&root, &file).expect("the town loads");
    let rig = load_rig(&root, &file, &level).expect("the rig loads");
    GameAssets { level: Arc::new(level), rig: Arc::new(rig), assets: root }
}

/// A renderer of `assets` drawing offscreen pictures of `size`.
pub fn renderer(ctx: &GpuContext, assets: &GameAssets, size: (u32, u32)) -> Renderer {
    Renderer::new(
        ctx,
        &RendererSetup {
            level: Arc::clone(&assets.level),
            rig: Arc::clone(&assets.rig),
            assets: assets.assets.clone(),
            format: OFFSCREEN_FORMAT,
            width: size.0,
            height: size.1,
        },
    )
    .expect("the renderer starts")
}

/// Draws `frame` (without the HUD, whose numbers vary) and reads the picture back.
pub fn draw(ctx: &GpuContext, renderer: &mut Renderer, frame: &DrawFrame) -> image::RgbaImage {
    draw_with_hud(ctx, renderer, frame, &Hud::default())
}

/// Draws `frame` with `hud` and reads the picture back.
pub fn draw_with_hud(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    frame: &DrawFrame,
    hud: &Hud,
) -> image::RgbaImage {
    let (w, h) = renderer.size();
    let target = OffscreenTarget::new(&ctx.device, w, h, OFFSCREEN_FORMAT);
    renderer.set_effects_clock(effects_clock_at(frame.render_tick));
    renderer.render(&target.view, frame, hud);
    target.read_image(&ctx.device, &ctx.queue).expect("the picture reads back")
}

/// Where failing tests write their pictures: under the build's target directory, never in
/// the repository.
pub fn output_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("image-tests");
    std::fs::create_dir_all(&dir).expect("the output directory");
    dir
}

/// Compares `actual` with `tests/reference/NAME.png` (see
/// [`fixstep_gpu::testing::check_reference`]).
pub fn check_reference(name: &str, actual: &image::RgbaImage) -> Option<String> {
    let references = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("reference");
    fixstep_gpu::testing::check_reference(&references, &output_dir(), name, actual)
}

/// A moment of a bot's game worth a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Just after the start, on the plaza.
    Start,
    /// A door swinging open in front of the player.
    DoorOpening,
    /// Running into a teleport zone, its stars ahead.
    TeleportAhead,
    /// Just arrived at the other end of a teleport.
    TeleportArrived,
    /// Talking with the mayor, the line half typed.
    Talking,
    /// Watching the fountain's cutscene, its image and subtitle showing.
    Cutscene,
}

/// Plays the town with one bot player (which opens a door, takes a teleport, talks to the
/// mayor and watches the cutscene, in that order) and returns the frame at each moment, drawn
/// half way between its last two ticks.
pub fn bot_moments(assets: &GameAssets) -> Vec<(Moment, DrawFrame)> {
    let level = Arc::clone(&assets.level);
    let mut game = LocalGame::<Town>::new(&level, 1, 1, Player(0));
    let mut bot = TownBot::new(Player(0), &level);
    let mut out = Vec::new();
    let step = |game: &mut LocalGame<Town>, bot: &mut TownBot| {
        let command = bot.command(game.sim.snapshot());
        game.step(&[command]).expect("a tick runs");
    };
    let frame = |game: &mut LocalGame<Town>| game.presentation.draw(0.5, 0.0).clone();
    for _ in 0..20 {
        step(&mut game, &mut bot);
    }
    out.push((Moment::Start, frame(&mut game)));
    let me = |s: &GameSnapshot| s.player_character(Player(0)).cloned().expect("the player");
    let mut wanted = vec![
        Moment::DoorOpening,
        Moment::TeleportAhead,
        Moment::TeleportArrived,
        Moment::Talking,
        Moment::Cutscene,
    ];
    let start_jumps = me(game.sim.snapshot()).jumps;
    let mut later: Option<(Moment, u32)> = None;
    for _ in 0..6000 {
        step(&mut game, &mut bot);
        if let Some((moment, left)) = later.as_mut() {
            *left -= 1;
            if *left == 0 {
                out.push((*moment, frame(&mut game)));
                later = None;
            }
            continue;
        }
        let Some(&next) = wanted.first() else { break };
        let s = game.sim.snapshot();
        let player = me(s);
        let reached = match next {
            Moment::DoorOpening => s.objects.iter().any(|o| o.rotation.0 != 0),
            Moment::TeleportAhead => {
                level.teleports.iter().flat_map(|t| t.ends.iter()).any(|end| {
                    let d = end.zone.centre - player.pos;
                    d.length() < fixstep_runtime::math::fx(7)
                })
            }
            Moment::TeleportArrived => player.jumps != start_jumps,
            Moment::Talking => !s.dialogues.is_empty(),
            Moment::Cutscene => !s.cutscenes.is_empty(),
            Moment::Start => true,
        };
        if reached {
            wanted.remove(0);
            // Some moments are worth a picture a little after they begin.
            let delay = match next {
                Moment::DoorOpening => 5,
                Moment::TeleportArrived => 3,
                Moment::Talking => 14,
                Moment::Cutscene => 45,
                _ => 0,
            };
            if delay == 0 {
                out.push((next, frame(&mut game)));
            } else {
                later = Some((next, delay));
            }
        }
    }
    assert!(wanted.is_empty() && later.is_none(), "the bot never reached {wanted:?} {later:?}");
    out
}
