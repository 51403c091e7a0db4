//! Drawing between ticks: the same tick drawn at alpha 0 and at alpha 1 differs where a moving
//! character is, and nowhere that nothing moved.

mod common;

use common::{draw, gpu_or_skip, renderer, town};
use fixstep_gpu::CameraView;
use fixstep_gpu::lights::lighting_at;
use fixstep_present::LocalGame;
use fixstep_runtime::Player;
use fixstep_town::PlayerCommand;
use fixstep_town_view::{DrawFrame, Town};
use glam::Vec3;

/// The picture's size: big enough that a character 15 m away covers many pixels.
const SIZE: (u32, u32) = (480, 270);

/// A pixel has changed when a channel differs by more than this (of 255).
const CHANGED: u8 = 2;

/// Half the width of a character's box, metres, and its height with the label above it.
const CHARACTER_BOX: (f32, f32) = (0.7, 2.3);

/// Changed pixels the walking characters must show at least: a visible step, not noise.
const MIN_CHANGED: usize = 30;

/// Room around every projected box, pixels: label text and bars reach a little past it.
const MARGIN: f32 = 40.0;

/// A screen rectangle: left, top, right, bottom.
type Rect = (f32, f32, f32, f32);

/// The screen rectangle covering a world box and its shadow on the ground.
fn screen_box(
    camera: &CameraView,
    lo: Vec3,
    hi: Vec3,
    towards_sun: Vec3,
    margin: f32,
) -> Option<Rect> {
    let mut rect = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    let mut any = false;
    for i in 0..8 {
        let p = Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        );
        // Where its shadow falls: along the light down to the ground.
        let shadow = if towards_sun.y > 0.05 { p - towards_sun * (p.y / towards_sun.y) } else { p };
        for q in [p, shadow] {
            if let Some((x, y, _)) = camera.project(q) {
                any = true;
                rect = (rect.0.min(x), rect.1.min(y), rect.2.max(x), rect.3.max(y));
            }
        }
    }
    any.then_some((rect.0 - margin, rect.1 - margin, rect.2 + margin, rect.3 + margin))
}

fn inside(rects: &[Rect], x: f32, y: f32) -> bool {
    rects.iter().any(|r| x >= r.0 && x <= r.2 && y >= r.1 && y <= r.3)
}

#[test]
fn alpha_moves_the_moving_character_and_nothing_else() {
    let Some(ctx) = gpu_or_skip("alpha_moves_the_moving_character_and_nothing_else") else {
        return;
    };
    let assets = town();
    // The player turns to face the south side of the plaza, where Ada walks, then stands
    // still (so the camera stands still too) while the pedestrians walk and the taxis drive.
    let mut game = LocalGame::<Town>::new(&assets.level, 1, 1, Player(0));
    let turn = PlayerCommand { turn: -12_288, ..PlayerCommand::default() };
    for tick in 0..40 {
        let command = if tick < 2 { turn } else { PlayerCommand::default() };
        game.step(&[command]).expect("a tick");
    }
    let mut frames: Vec<DrawFrame> =
        [0.0, 1.0].iter().map(|&alpha| game.presentation.draw(alpha, 0.0).clone()).collect();
    // The sun moves too, a 14,400th of a day a tick; this test is about the things that move.
    let day = frames[1].time_of_day;
    for f in &mut frames {
        f.time_of_day = day;
    }
    assert_eq!(frames[0].camera, frames[1].camera, "the idle player's camera stands still");
    let mut renderer = renderer(&ctx, &assets, SIZE);
    let camera = renderer.camera(&frames[1]);
    // Both frames with the same shimmer clock: only what the presentation moved differs.
    let pictures: Vec<_> = frames
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f.render_tick = frames[1].render_tick;
            draw(&ctx, &mut renderer, &f)
        })
        .collect();
    let towards_sun = lighting_at(day).sun_direction;
    let (a, b) = (&frames[0], &frames[1]);
    let mut moved: Vec<Rect> = Vec::new();
    let mut moving_characters: Vec<Rect> = Vec::new();
    for (c0, c1) in a.characters.iter().zip(&b.characters) {
        assert_eq!(c0.id, c1.id);
        if c0.sample == c1.sample {
            continue;
        }
        let (r, h) = CHARACTER_BOX;
        let lo = c0.sample.pos.min(c1.sample.pos) - Vec3::new(r, 0.0, r);
        let hi = c0.sample.pos.max(c1.sample.pos) + Vec3::new(r, h, r);
        if let Some(rect) = screen_box(&camera, lo, hi, towards_sun, MARGIN) {
            moved.push(rect);
            if c0.sample.pos.distance(c1.sample.pos) > 0.05 {
                moving_characters
                    .push(screen_box(&camera, lo, hi, towards_sun, 0.0).unwrap_or(rect));
            }
        }
    }
    for (t0, t1) in a.taxis.iter().zip(&b.taxis) {
        if t0.sample == t1.sample {
            continue;
        }
        let lo = t0.sample.pos.min(t1.sample.pos) - Vec3::new(2.6, 0.0, 2.6);
        let hi = t0.sample.pos.max(t1.sample.pos) + Vec3::new(2.6, 2.0, 2.6);
        moved.extend(screen_box(&camera, lo, hi, towards_sun, MARGIN));
    }
    for (o0, o1) in a.objects.iter().zip(&b.objects) {
        if o0 == o1 {
            continue;
        }
        let p0 = fixstep_town_view::record::object_position(
            &assets.level,
            o0.index,
            o0.offset,
            o0.rotation,
        );
        let p1 = fixstep_town_view::record::object_position(
            &assets.level,
            o1.index,
            o1.offset,
            o1.rotation,
        );
        let reach = Vec3::new(3.0, 3.0, 3.0);
        moved.extend(screen_box(
            &camera,
            p0.min(p1) - reach,
            p0.max(p1) + reach,
            towards_sun,
            MARGIN,
        ));
    }
    assert!(!moving_characters.is_empty(), "a character walks in view at this tick");
    let (mut in_moving, mut outside) = (0usize, Vec::new());
    for (x, y, p0) in pictures[0].enumerate_pixels() {
        let p1 = pictures[1].get_pixel(x, y);
        if !(0..3).any(|c| p0[c].abs_diff(p1[c]) > CHANGED) {
            continue;
        }
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        if inside(&moving_characters, fx, fy) {
            in_moving += 1;
        }
        if !inside(&moved, fx, fy) {
            outside.push((x, y));
        }
    }
    if !outside.is_empty()
        || in_moving < MIN_CHANGED
        || std::env::var_os("FIXSTEP_LOOK_DIR").is_some()
    {
        let dir = common::output_dir();
        pictures[0].save(dir.join("alpha0.png")).expect("written");
        pictures[1].save(dir.join("alpha1.png")).expect("written");
        assert!(
            outside.is_empty() && in_moving >= MIN_CHANGED,
            "{in_moving} changed pixels on moving characters; {} changed where nothing moved (first {:?}); pictures in {}",
            outside.len(),
            outside.first(),
            dir.display()
        );
    }
    println!("{in_moving} pixels changed on moving characters, none elsewhere");
}
