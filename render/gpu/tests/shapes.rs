//! The shape renderer, drawn offscreen and compared with a reference picture: the arena after
//! five seconds of four bots, half way between two ticks (the rink, its boards and goals, the
//! pushers in their teams' colours with their players' names, the pucks, the shadows, the
//! score line).

use std::path::Path;
use std::sync::Arc;

use fixstep_arena_view::Arena;
use fixstep_gpu::offscreen::OFFSCREEN_FORMAT;
use fixstep_gpu::shapes::ShapeRenderer;
use fixstep_gpu::testing::{check_reference, gpu_or_skip};
use fixstep_gpu::{FrameRenderer, Hud, OffscreenTarget};
use fixstep_present::shapes::{ShapeGame, scenery_of};
use fixstep_present::{LocalGame, Presentation};
use fixstep_runtime::{Bot as _, Player, Rules as _, Simulation as _};

/// The pictures' size: small, so a software rasteriser draws them quickly.
const SIZE: (u32, u32) = (320, 180);

/// Ticks played before the picture: long enough for the bots to have scattered the pucks.
const TICKS: u32 = 50;

#[test]
fn the_arena_is_drawn_as_its_reference() {
    let Some(ctx) = gpu_or_skip("the_arena_is_drawn_as_its_reference") else { return };
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let rink =
        Arc::new(Arena::load_content(&assets, &Arena::default_content(&assets)).expect("it loads"));
    let mut game = LocalGame::<Arena>::new(&rink, 1, 4, Player(0));
    let mut bots: Vec<_> = (0..4).map(|p| Arena::bot(&rink, Player(p))).collect();
    for _ in 0..TICKS {
        let commands: Vec<_> = bots.iter_mut().map(|b| b.command(game.sim.snapshot())).collect();
        game.step(&commands).expect("a tick runs");
    }
    let names = ["ada", "bob", "cy", "dee"].map(str::to_owned);
    game.presentation.set_player_names(&names);
    let frame = game.presentation.draw(0.5, 0.0).clone();
    assert_eq!(frame.shapes.len(), 4 + rink.pucks.len(), "every pusher and puck drawn");

    let mut renderer = ShapeRenderer::new(
        &ctx,
        OFFSCREEN_FORMAT,
        SIZE,
        &assets,
        &scenery_of::<Arena>(&rink),
        Arena::kinds(),
    )
    .expect("the renderer starts");
    renderer.set_local_player(Some(Player(0)));
    let target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1, OFFSCREEN_FORMAT);
    renderer.render(&target.view, &frame, &Hud::default());
    let picture = target.read_image(&ctx.device, &ctx.queue).expect("the picture reads back");
    let references = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("image-tests");
    if let Some(failure) = check_reference(&references, &out, "arena", &picture) {
        panic!("{failure}");
    }
}
