//! The town as the renderer draws it, compared with reference pictures: the plaza by day and
//! by night, a door opening, a teleport's stars ahead and the arrival, talking to the mayor,
//! and the fountain's cutscene, from a bot's game. `FIXSTEP_BLESS=1` rewrites the references;
//! a failure writes the actual and difference pictures under `target/` and names them.

mod common;

use common::{Moment, TEST_SIZE, bot_moments, check_reference, draw, gpu_or_skip, renderer, town};
use fixstep_runtime::Player;

#[test]
fn the_town_looks_as_it_should_by_day_and_by_night() {
    let Some(ctx) = gpu_or_skip("the_town_looks_as_it_should_by_day_and_by_night") else { return };
    let assets = town();
    let mut renderer = renderer(&ctx, &assets, TEST_SIZE);
    // Half past ten at night, as a fraction of a day.
    let night = (22.0 * 60.0 + 30.0) / (24.0 * 60.0);
    let mut failures = Vec::new();
    for (moment, frame) in bot_moments(&assets) {
        let name = format!("{moment:?}").to_lowercase();
        let mut pictures = vec![(format!("{name}_day"), frame.clone())];
        // By night too: the plaza's lamps, the stars over a teleport, a lamp-lit street.
        if matches!(moment, Moment::Start | Moment::TeleportAhead | Moment::DoorOpening) {
            let mut dark = frame.clone();
            dark.time_of_day = night;
            pictures.push((format!("{name}_night"), dark));
        }
        for (name, frame) in pictures {
            let picture = draw(&ctx, &mut renderer, &frame);
            if let Some(dir) = std::env::var_os("FIXSTEP_LOOK_DIR") {
                // Larger copies to look at, on request.
                let mut big = common::renderer(&ctx, &assets, (1280, 720));
                draw(&ctx, &mut big, &frame)
                    .save(std::path::Path::new(&dir).join(format!("{name}.png")))
                    .expect("a picture to look at");
            }
            if let Some(failure) = check_reference(&name, &picture) {
                failures.push(failure);
            }
        }
    }
    assert!(failures.is_empty(), "pictures differ from their references:\n{}", failures.join("\n"));
}

#[test]
fn the_hud_shows_the_numbers_and_the_frame_time_graph() {
    let Some(ctx) = gpu_or_skip("the_hud_shows_the_numbers_and_the_frame_time_graph") else {
        return;
    };
    let assets = town();
    let mut game =
        fixstep_present::LocalGame::<fixstep_town_view::Town>::new(&assets.level, 1, 1, Player(0));
    for _ in 0..20 {
        game.step(&[fixstep_town::PlayerCommand::default()]).expect("a tick");
    }
    let frame = game.presentation.draw(1.0, 0.0).clone();
    // Fixed numbers, so the picture is the same every time: a steady 60 fps with a few slow
    // frames in the graph.
    let hud = fixstep_gpu::Hud {
        visible: true,
        tick: frame.latest_tick,
        fps: 60.0,
        frame_ms: 16.7,
        hash: Some(0x1234_5678_9abc_def0),
        show_graph: true,
        frame_times: (0..240)
            .map(|i| if i % 60 == 59 { 41.0 } else { 14.0 + (i % 7) as f32 })
            .collect(),
        note: Some("F3: frame times".to_owned()),
        ..fixstep_gpu::Hud::default()
    };
    let mut renderer = renderer(&ctx, &assets, (640, 360));
    let picture = common::draw_with_hud(&ctx, &mut renderer, &frame, &hud);
    if let Some(dir) = std::env::var_os("FIXSTEP_LOOK_DIR") {
        picture.save(std::path::Path::new(&dir).join("hud_graph.png")).expect("written");
    }
    if let Some(failure) = check_reference("hud_graph", &picture) {
        panic!("{failure}");
    }
}

#[test]
fn a_missing_reference_fails_and_says_how_to_make_it() {
    let picture = image::RgbaImage::new(4, 4);
    if std::env::var("FIXSTEP_BLESS").as_deref() == Ok("1") {
        return;
    }
    let failure =
        check_reference("no_such_reference", &picture).expect("a missing reference fails");
    assert!(failure.contains("FIXSTEP_BLESS=1"), "{failure}");
    assert!(failure.contains("no_such_reference.actual.png"), "{failure}");
}

/// A camera 9 m behind a player west of the station, looking north-east across the station's
/// north-west corner (the line of sight cuts about 3 m of it), and a point just past the
/// corner on that line: someone standing there is behind the building, 25-odd metres from the
/// eye, near enough for a label.
fn behind_the_station(
    level: &fixstep_town::level::Level,
) -> (fixstep_present::CameraDraw, glam::Vec3) {
    use fixstep_present::camera::CameraRig;
    use fixstep_town_view::gpu::label_layout::{LABEL_MAX_DISTANCE, hidden_behind, occluders};
    let camera =
        CameraRig::default().behind(glam::Vec3::new(-25.0, 0.0, 47.0), std::f32::consts::FRAC_PI_4);
    let boxes = occluders(level);
    let ahead = (camera.target - camera.eye).with_y(0.0).normalize();
    let inside = |p: glam::Vec3| {
        boxes.iter().any(|b| p.x > b.min.x && p.x < b.max.x && p.z > b.min.z && p.z < b.max.z)
    };
    let mut walk = (1..400).map(|k| camera.eye.with_y(0.0) + ahead * (k as f32 * 0.25));
    let past = walk.by_ref().skip_while(|&p| !inside(p)).find(|&p| !inside(p));
    let spot = past.expect("the line of sight crosses the station") + ahead * 1.5;
    assert!(spot.distance(camera.eye) < LABEL_MAX_DISTANCE * 0.8, "near enough for a label");
    assert!(hidden_behind(camera.eye, spot + glam::Vec3::Y * 2.0, &boxes));
    (camera, spot)
}

#[test]
fn a_label_behind_a_building_is_hidden_with_its_character() {
    let Some(ctx) = gpu_or_skip("a_label_behind_a_building_is_hidden_with_its_character") else {
        return;
    };
    let assets = town();
    let (_, mut start) = bot_moments(&assets).into_iter().next().expect("the start");
    let (camera, spot) = behind_the_station(&assets.level);
    start.camera = camera;
    let mut renderer = renderer(&ctx, &assets, (1280, 720));
    // Someone standing behind the building, and the same picture without them: nothing of
    // them, not even their name, may show through the wall.
    let mut behind = start.clone();
    let mut hidden = *behind.characters.iter().find(|c| c.player().is_none()).expect("someone");
    hidden.sample.pos = spot;
    behind.characters.push(hidden);
    let mut without = start.clone();
    without.characters.retain(|c| c.id != hidden.id);
    behind.characters.retain(|c| c.id != hidden.id || c.sample.pos == spot);
    let a = draw(&ctx, &mut renderer, &behind);
    let b = draw(&ctx, &mut renderer, &without);
    if let Some(dir) = std::env::var_os("FIXSTEP_LOOK_DIR") {
        a.save(std::path::Path::new(&dir).join("label_behind_building.png")).expect("written");
    }
    let differing = a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count();
    assert_eq!(differing, 0, "{differing} pixels show the character behind the building");
    // In the open, the same character and its label do show.
    let mut open = start.clone();
    let mut seen = hidden;
    seen.sample.pos = start.camera.target.with_y(0.0);
    open.characters.retain(|c| c.id != hidden.id);
    open.characters.push(seen);
    let c = draw(&ctx, &mut renderer, &open);
    assert!(c.pixels().zip(b.pixels()).any(|(p, q)| p != q), "in the open it is drawn");
}
