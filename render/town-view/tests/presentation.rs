//! The presentation-interpolation specification, a test per behaviour it states, plus the
//! drawing rules of smooth gameplay. Names follow the sentences they check.

use fixstep_town_view::Town;
use std::f32::consts::PI;
use std::sync::Arc;

use fixstep_present::interp::{angle_delta, lerp_angle, lerp_frame, lerp_rolling};
use fixstep_present::track::{MAX_SAMPLE_GAP_TICKS, Track};
use fixstep_runtime::tick::{FrameScheduler, TICK_MICROS};
use fixstep_runtime::{Player, Rules as _, Simulation, Tick};
use fixstep_town::level::{Level, load_level};
use fixstep_town::{AnimState, GameSnapshot, PlayerCommand};
use fixstep_town_view::present::samples::{CharacterSample, ClipLengths};
use fixstep_town_view::{DrawFrame, TownPresentation as LocalPresentation};
use glam::Vec3;

fn town() -> Arc<Level> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("the town loads"))
}

/// Every clip 24 frames long and looping.
fn clips() -> ClipLengths {
    ClipLengths::new(vec![(24.0, true); 8])
}

fn sample(x: f32, facing: f32, anim: AnimState, frame: f32, jumps: u32) -> CharacterSample {
    CharacterSample {
        pos: Vec3::new(x, 0.0, 0.0),
        facing,
        anim,
        clip: anim as u16,
        frame,
        enabled: true,
        jumps,
        health: 100.0,
    }
}

fn at(track: &Track<CharacterSample>, alpha: f32) -> CharacterSample {
    let mut out = *track.current();
    track.sample_into(alpha, &clips(), &mut out);
    out
}

/// A town with one player walking east, its presentation having seen every tick.
fn walking(ticks: u32) -> (Sim, LocalPresentation) {
    let level = town();
    let mut sim = Town::new_sim(&level, 1, 1);
    let mut present = LocalPresentation::new(level, Player(0));
    present.observe(sim.snapshot());
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    for _ in 0..ticks {
        let tick = sim.next_tick();
        sim.step(tick, &[walk]).expect("in order");
        present.observe(sim.snapshot());
    }
    (sim, present)
}

fn player(frame: &DrawFrame, snapshot: &GameSnapshot) -> CharacterSample {
    let id = snapshot.players[0];
    frame.characters.iter().find(|c| c.id == id).expect("the player is drawn").sample
}

#[test]
fn each_character_keeps_a_previous_and_a_current_sample() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Walk, 0.0, 0));
    track.observe(Tick(1), sample(1.0, 0.0, AnimState::Walk, 2.4, 0));
    track.observe(Tick(2), sample(2.0, 0.0, AnimState::Walk, 4.8, 0));
    assert_eq!(track.previous().pos.x, 1.0);
    assert_eq!(track.current().pos.x, 2.0);
    assert_eq!(track.current_tick(), Tick(2));
}

#[test]
fn alpha_is_the_real_time_since_the_latest_tick_clamped_to_the_tick_interval() {
    let mut clock = FrameScheduler::new();
    clock.advance(TICK_MICROS + 25_000);
    assert_eq!(clock.alpha_millionths(), 250_000);
    clock.advance(TICK_MICROS * 7);
    assert_eq!(clock.alpha_millionths(), 1_000_000, "never past the latest tick");
}

#[test]
fn rendering_the_previous_to_current_transition_adds_at_most_one_tick_of_latency() {
    let (sim, mut present) = walking(10);
    let snapshot = Arc::clone(sim.snapshot());
    let latest = snapshot.player_character(Player(0)).unwrap().pos;
    let at_one = player(present.draw(1.0, 0.0), &snapshot);
    assert!((at_one.pos.x - latest.x.to_num::<f32>()).abs() < 1e-4, "alpha 1 is the latest tick");
    let frame = present.draw(0.0, 0.0);
    assert_eq!(frame.render_tick, 9.0, "alpha 0 is the tick before: one tick behind");
}

#[test]
fn it_never_predicts_a_state_that_has_not_arrived() {
    let (sim, mut present) = walking(10);
    let snapshot = Arc::clone(sim.snapshot());
    let latest_x = snapshot.player_character(Player(0)).unwrap().pos.x.to_num::<f32>();
    for alpha in [0.0, 0.3, 0.9, 1.0, 1.7] {
        let x = player(present.draw(alpha, 0.0), &snapshot).pos.x;
        assert!(x <= latest_x + 1e-5, "alpha {alpha} drew {x}, past the latest {latest_x}");
    }
}

#[test]
fn position_uses_linear_interpolation() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Walk, 0.0, 0));
    track.observe(Tick(1), sample(2.0, 0.0, AnimState::Walk, 0.0, 0));
    for (alpha, x) in [(0.0, 0.0), (0.25, 0.5), (0.5, 1.0), (1.0, 2.0)] {
        assert_eq!(at(&track, alpha).pos.x, x);
    }
}

#[test]
fn facing_takes_the_shortest_path_across_the_wrap_at_plus_minus_pi() {
    let from = 170f32.to_radians();
    let to = -170f32.to_radians();
    let mid = lerp_angle(from, to, 0.5);
    assert!((mid.abs() - PI).abs() < 1e-5, "through 180°, not through 0°: {mid}");
    let quarter = lerp_angle(from, to, 0.25);
    assert!((quarter - 175f32.to_radians()).abs() < 1e-5);
    assert!(angle_delta(from, to) > 0.0 && angle_delta(from, to) < 0.35);
}

#[test]
fn the_animation_frame_stays_fractional_and_blends_within_one_state() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Walk, 3.0, 0));
    track.observe(Tick(1), sample(0.0, 0.0, AnimState::Walk, 5.4, 0));
    assert!((at(&track, 0.5).frame - 4.2).abs() < 1e-5);
}

#[test]
fn a_looping_clip_crosses_from_its_last_frame_to_its_first_as_a_cyclic_step() {
    assert!((lerp_frame(23.0, 1.0, 0.5, 24.0, true) - 0.0).abs() < 1e-5);
    assert!((lerp_frame(23.0, 1.0, 0.25, 24.0, true) - 23.5).abs() < 1e-5);
    // Never backwards through the clip: every point lies on the short forward step.
    for i in 0..=10 {
        let f = lerp_frame(22.5, 0.5, i as f32 / 10.0, 24.0, true);
        assert!(f >= 22.5 || f <= 0.5, "{f}");
    }
}

#[test]
fn a_one_shot_clip_is_clamped_to_its_final_frame() {
    assert_eq!(lerp_frame(4.0, 5.0, 1.0, 6.0, false), 5.0);
    assert_eq!(lerp_frame(5.0, 7.0, 0.9, 6.0, false), 5.0);
}

#[test]
fn the_camera_and_shadow_centre_follow_the_interpolated_player() {
    let (sim, mut present) = walking(10);
    let snapshot = Arc::clone(sim.snapshot());
    for alpha in [0.0, 0.4, 1.0] {
        let frame = present.draw(alpha, 0.0);
        let me = player(frame, &snapshot);
        assert_eq!(frame.camera.shadow_centre, me.pos);
        assert!((frame.camera.target - me.pos - Vec3::Y * 1.5).length() < 1e-5);
    }
}

#[test]
fn the_stars_advance_every_render_frame_on_real_time_without_a_tick() {
    let (_sim, mut present) = walking(2);
    let a = present.draw(0.5, 0.0).stars.clone();
    let b = present.draw(0.5, 0.0).stars.clone();
    assert_eq!(a, b, "no time passed, no motion");
    let c = present.draw(0.5, 0.016).stars.clone();
    assert!(!a.is_empty());
    assert_ne!(a, c, "a 16 ms frame moves them, with no tick in between");
}

#[test]
fn a_new_entity_is_not_drawn_before_the_tick_of_its_first_state() {
    // A town's snapshot, and the next tick's with one more character: someone who came into
    // the world on that tick.
    let (sim, _) = walking(1);
    let before = Arc::new(sim.snapshot().as_ref().clone());
    let mut after = before.as_ref().clone();
    after.tick = Tick(before.tick.0 + 1);
    let mut newcomer = after.characters[0].clone();
    newcomer.id = fixstep_runtime::EntityId { index: 900, generation: 0 };
    after.characters.push(newcomer);
    let after = Arc::new(after);

    let mut present = LocalPresentation::new(town(), Player(0));
    present.observe(&before);
    present.observe(&after);
    let drawn = |present: &mut LocalPresentation, alpha: f32| {
        present.draw(alpha, 0.0).characters.iter().any(|c| c.id.index == 900)
    };
    for alpha in [0.0, 0.5, 0.99] {
        assert!(!drawn(&mut present, alpha), "drawn at alpha {alpha}, before its first tick");
    }
    assert!(drawn(&mut present, 1.0), "drawn once the clock reaches its tick");
    let known = before.characters.len();
    assert_eq!(present.draw(0.5, 0.0).characters.len(), known, "everyone else is drawn");
}

#[test]
fn a_jump_resets_instead_of_blending_even_when_two_ticks_arrive_in_one_frame() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Walk, 0.0, 0));
    track.observe(Tick(1), sample(0.1, 0.0, AnimState::Walk, 0.0, 0));
    // Tick 2 teleports it (jumps 1); tick 3 arrives before the next frame is drawn.
    track.observe(Tick(2), sample(50.0, 0.0, AnimState::Walk, 0.0, 1));
    assert!(track.was_reset());
    // Until the clock reaches tick 2 it is where it was at tick 1, then where tick 2 put it.
    assert_eq!(at(&track, 0.5).pos.x, 0.1);
    assert_eq!(at(&track, 1.0).pos.x, 50.0);
    track.observe(Tick(3), sample(50.1, 0.0, AnimState::Walk, 0.0, 1));
    for alpha in [0.0, 0.5, 1.0] {
        assert!(at(&track, alpha).pos.x >= 50.0, "never drawn between the two places");
    }
}

#[test]
fn an_enabled_change_resets_the_buffer() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Idle, 0.0, 0));
    let mut off = sample(3.0, 0.0, AnimState::Idle, 0.0, 0);
    off.enabled = false;
    track.observe(Tick(1), off);
    assert!(track.was_reset());
    assert!(at(&track, 0.5).enabled, "on until the clock reaches the tick it went off");
    assert_eq!(at(&track, 0.5).pos.x, 0.0, "and not moved toward where it went off");
    assert!(!at(&track, 1.0).enabled);
}

#[test]
fn an_animation_state_change_draws_the_new_clip_without_blending_frames() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Walk, 20.0, 0));
    track.observe(Tick(1), sample(0.2, 0.0, AnimState::Run, 0.0, 0));
    let mid = at(&track, 0.5);
    assert_eq!((mid.anim, mid.frame), (AnimState::Run, 0.0), "the new clip as sampled");
    assert!((mid.pos.x - 0.1).abs() < 1e-6, "the feet keep moving");
}

#[test]
fn a_long_gap_without_a_sample_resets_the_buffer() {
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Walk, 0.0, 0));
    track.observe(Tick(MAX_SAMPLE_GAP_TICKS), sample(1.0, 0.0, AnimState::Walk, 0.0, 0));
    assert!(!track.was_reset(), "a gap of the limit still blends");
    track.observe(Tick(2 * MAX_SAMPLE_GAP_TICKS + 1), sample(9.0, 0.0, AnimState::Walk, 0.0, 0));
    assert!(track.was_reset());
    assert_eq!(at(&track, 0.5).pos.x, 1.0, "no slide from the stale place");
    assert_eq!(at(&track, 1.0).pos.x, 9.0);
}

#[test]
fn taxi_wheels_roll_forward_even_past_half_a_turn_per_tick() {
    let from = 3.0f32;
    let to = from + 4.3 - std::f32::consts::TAU; // 4.3 rad forward, stored wrapped
    let mid = lerp_rolling(from, to, 0.5);
    let forward = (mid - from).rem_euclid(std::f32::consts::TAU);
    assert!((forward - 2.15).abs() < 1e-4, "{forward}");
}

/// A town whose player was put at `pos` (metres, ground plane) and stepped once with
/// `command`, its presentation having seen both ticks.
fn placed(x: i32, y: i32, command: PlayerCommand) -> (Sim, LocalPresentation) {
    use fixstep_runtime::math::{Vec2, fx};
    let level = town();
    let mut sim = Town::new_sim(&level, 1, 1);
    let mut state = sim.state().clone();
    let me = state.players[0];
    state.characters.get_mut(me).unwrap().pos = Vec2::new(fx(x), fx(y));
    sim.restore(&state);
    let mut present = LocalPresentation::new(level, Player(0));
    present.observe(sim.snapshot());
    for c in [command, PlayerCommand::default()] {
        let tick = sim.next_tick();
        sim.step(tick, &[c]).expect("in order");
        present.observe(sim.snapshot());
    }
    (sim, present)
}

#[test]
fn the_dialogue_typewriter_reveals_text_every_render_frame_within_a_tick() {
    let level = town();
    let mayor = &level.talkers[0];
    let (x, y) = (mayor.at.x.to_num::<i32>() + 1, mayor.at.y.to_num::<i32>());
    let interact = PlayerCommand { interact: true, ..PlayerCommand::default() };
    let (sim, mut present) = placed(x, y, interact);
    assert_eq!(sim.snapshot().dialogues.len(), 1, "the player talks to the mayor");
    let shown: Vec<usize> = [0.1, 0.4, 0.7, 1.0]
        .iter()
        .map(|&a| present.draw(a, 0.03).dialogue.as_ref().unwrap().shown_chars)
        .collect();
    assert!(shown.windows(2).all(|w| w[1] > w[0]), "more text each frame of one tick: {shown:?}");
}

#[test]
fn cutscene_timers_and_fades_advance_every_render_frame_within_a_tick() {
    let level = town();
    let zone = level.cutscene_triggers[0].zone.centre;
    let (sim, mut present) = placed(zone.x.to_num(), zone.y.to_num(), PlayerCommand::default());
    assert_eq!(sim.snapshot().cutscenes.len(), 1, "the trigger started the cutscene");
    let a = present.draw(0.2, 0.02).cutscene.clone().unwrap();
    let b = present.draw(0.6, 0.04).cutscene.clone().unwrap();
    assert!(b.elapsed > a.elapsed);
    assert!(b.fade < a.fade, "fading in from black, smoothly");
}

#[test]
fn object_transforms_are_sampled_at_ticks_and_interpolated_only_while_drawing() {
    use fixstep_town_view::present::samples::ObjectSample;
    use glam::Quat;
    let closed = ObjectSample {
        offset: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: 1.0,
        opacity: 1.0,
        jumps: 0,
    };
    let swung = ObjectSample {
        offset: Vec3::new(0.0, 2.0, 0.0),
        rotation: Quat::from_rotation_y(-PI / 2.0),
        scale: 0.5,
        opacity: 0.0,
        jumps: 0,
    };
    let mut track = Track::new(Tick(0), closed);
    track.observe(Tick(1), swung);
    let mut mid = closed;
    track.sample_into(0.5, &(), &mut mid);
    // A whole rotation, slerped: half of the 90° swing, never an Euler angle alone.
    assert!(mid.rotation.abs_diff_eq(Quat::from_rotation_y(-PI / 4.0), 1e-6));
    assert_eq!((mid.offset.y, mid.scale, mid.opacity), (1.0, 0.75, 0.5));
}

#[test]
fn taxi_position_body_rotation_and_steering_are_interpolated_for_drawing() {
    use fixstep_town_view::present::samples::TaxiSample;
    let a = TaxiSample { pos: Vec3::ZERO, yaw: 3.0, steer: 0.2, wheel: 0.0, speed: 10.0, jumps: 0 };
    let b = TaxiSample {
        pos: Vec3::new(1.0, 0.0, 0.0),
        yaw: -3.0,
        steer: 0.4,
        wheel: 1.0,
        speed: 12.0,
        jumps: 0,
    };
    let mut track = Track::new(Tick(0), a);
    track.observe(Tick(1), b);
    let mut mid = a;
    track.sample_into(0.5, &(), &mut mid);
    assert_eq!(mid.pos.x, 0.5);
    assert!(
        (mid.yaw.abs() - PI).abs() < 1e-4,
        "the body turns the short way through π: {}",
        mid.yaw
    );
    assert!((mid.steer - 0.3).abs() < 1e-6 && (mid.wheel - 0.5).abs() < 1e-6 && mid.speed == 11.0);
}

#[test]
fn names_and_health_bars_use_the_interpolated_values() {
    let mut hurt = sample(0.0, 0.0, AnimState::Idle, 0.0, 0);
    hurt.health = 40.0;
    let mut track = Track::new(Tick(0), sample(0.0, 0.0, AnimState::Idle, 0.0, 0));
    track.observe(Tick(1), hurt);
    let mid = at(&track, 0.5);
    assert_eq!(mid.health, 70.0);
}

#[test]
fn a_cutscene_fade_reaches_black_before_the_picture_comes_back() {
    let level = town();
    let zone = level.cutscene_triggers[0].zone.centre;
    let (mut sim, mut present) = placed(zone.x.to_num(), zone.y.to_num(), PlayerCommand::default());
    assert_eq!(sim.snapshot().cutscenes.len(), 1, "the trigger started the cutscene");
    let mut darkest = 0.0_f32;
    let mut last_drawn = None;
    for _ in 0..level.cutscenes[0].duration_ticks + 5 {
        let tick = sim.next_tick();
        sim.step(tick, &[PlayerCommand::default()]).expect("in order");
        present.observe(sim.snapshot());
        for alpha in [0.25, 0.5, 0.75, 0.95, 1.0] {
            let fade = present.draw(alpha, 0.025).cutscene.as_ref().map(|c| c.fade);
            if let Some(fade) = fade {
                darkest = darkest.max(fade);
                last_drawn = Some(fade);
            }
        }
    }
    assert!(present.draw(1.0, 0.0).cutscene.is_none(), "the cutscene ended");
    // Drawn at the drawn time, the fade runs to its end: the last frame that shows the
    // cutscene is all but black, so the picture comes back from black, not from a grey.
    assert!(darkest >= 0.99, "the fade reached only {darkest}");
    assert!(last_drawn.is_some_and(|f| f >= 0.99), "the last frame of it: {last_drawn:?}");
}

#[test]
fn a_dialogue_line_changes_when_the_drawn_clock_reaches_its_tick() {
    let level = town();
    let mayor = &level.talkers[0];
    let (x, y) = (mayor.at.x.to_num::<i32>() + 1, mayor.at.y.to_num::<i32>());
    let interact = PlayerCommand { interact: true, ..PlayerCommand::default() };
    let (mut sim, mut present) = placed(x, y, interact);
    let first = present.draw(1.0, 0.0).dialogue.clone().expect("talking");
    // Interact again: the next line starts at the tick that runs it.
    let tick = sim.next_tick();
    sim.step(tick, &[interact]).expect("in order");
    present.observe(sim.snapshot());
    let line = &sim.snapshot().dialogues[0];
    assert_eq!(line.line, 1, "the mayor says the next line");
    // The tick that ran the interact started it; the state has it from the next tick on.
    assert_eq!(line.line_started.next(), sim.snapshot().tick);
    for alpha in [0.0, 0.5, 0.99] {
        let shown = present.draw(alpha, 0.01).dialogue.clone().expect("talking");
        assert_eq!(shown.text, first.text, "at alpha {alpha}, before the line's tick");
    }
    let next = present.draw(1.0, 0.01).dialogue.clone().expect("talking");
    assert_ne!(next.text, first.text, "the new line once the drawn clock reaches its tick");
    assert_eq!(next.shown_chars, 0, "its typewriter starts as it first shows");
}

#[test]
fn a_tick_at_or_before_the_latest_resets_every_track_instead_of_blending_backwards() {
    let (mut sim, mut present) = walking(10);
    let earlier = sim.state().clone();
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    for _ in 0..10 {
        let tick = sim.next_tick();
        sim.step(tick, &[walk]).expect("in order");
        present.observe(sim.snapshot());
    }
    // Seek back: the state of ten ticks ago, as a replay seek or a reconnect brings it.
    sim.restore(&earlier);
    let back = Arc::clone(sim.snapshot());
    present.observe(&back);
    for alpha in [0.0, 0.5, 1.0] {
        let frame = present.draw(alpha, 0.01);
        let me = player(frame, &back);
        let truth = back.player_character(Player(0)).expect("the player").pos;
        let at = Vec3::new(truth.x.to_num(), 0.0, -truth.y.to_num::<f32>());
        assert!((me.pos - at).length() < 1e-4, "drawn where the restored state has it");
        for (drawn, view) in frame.taxis.iter().zip(&back.taxis) {
            let at = Vec3::new(view.pos.x.to_num(), 0.0, -view.pos.y.to_num::<f32>());
            assert!((drawn.sample.pos - at).length() < 1e-4, "taxi {} blended", drawn.index);
        }
    }
}

#[test]
fn taxis_and_objects_are_not_drawn_before_the_tick_of_their_first_state() {
    let (sim, _) = walking(1);
    let before = Arc::new(sim.snapshot().as_ref().clone());
    let mut after = before.as_ref().clone();
    after.tick = Tick(before.tick.0 + 1);
    after.taxis.push(after.taxis[0]);
    after.objects.push(after.objects[0]);
    let after = Arc::new(after);
    let mut present = LocalPresentation::new(town(), Player(0));
    present.observe(&before);
    present.observe(&after);
    let (taxis, objects) = (before.taxis.len(), before.objects.len());
    for alpha in [0.0, 0.5, 0.99] {
        let frame = present.draw(alpha, 0.0);
        assert_eq!(frame.taxis.len(), taxis, "a new taxi is drawn at alpha {alpha}");
        assert_eq!(frame.objects.len(), objects, "a new object is drawn at alpha {alpha}");
    }
    let frame = present.draw(1.0, 0.0);
    assert_eq!((frame.taxis.len(), frame.objects.len()), (taxis + 1, objects + 1));
}

#[test]
fn the_camera_follows_the_players_place_while_the_player_is_not_drawn() {
    let (mut sim, mut present) = walking(10);
    let mut state = sim.state().clone();
    let me = state.players[0];
    let character = state.characters.get_mut(me).expect("the player");
    character.enabled = false;
    character.down = 1_000;
    let walk = PlayerCommand { forward: 100, ..PlayerCommand::default() };
    let tick = sim.next_tick();
    sim.step(tick, &[walk]).expect("in order");
    present.observe(sim.snapshot());
    sim.restore(&state);
    let tick = sim.next_tick();
    sim.step(tick, &[walk]).expect("in order");
    present.observe(sim.snapshot());
    let snapshot = Arc::clone(sim.snapshot());
    let view = snapshot.player_character(Player(0)).expect("the player");
    assert!(!view.enabled, "the player is down");
    let frame = present.draw(1.0, 0.0);
    assert!(frame.characters.iter().all(|c| c.id != view.id), "and not drawn");
    let at = Vec3::new(view.pos.x.to_num(), 0.0, -view.pos.y.to_num::<f32>());
    assert!(
        (frame.camera.shadow_centre - at).length() < 1e-4,
        "the camera is on the player's place: {:?} against {at:?}",
        frame.camera.shadow_centre
    );
}

#[test]
fn a_day_of_frames_never_freezes_the_effects_clock() {
    use fixstep_present::interp::wrapped_clock;
    let dt = 1.0 / 60.0;
    let period = fixstep_gpu::EFFECTS_PERIOD_S;
    let (mut wrapped, mut grown) = (0.0_f32, 0.0_f32);
    // Sixty frames a second for a day.
    for _ in 0..60 * 60 * 60 * 24 {
        wrapped = wrapped_clock(wrapped, dt, period);
        grown += dt;
    }
    let step = |clock: f32| {
        let next = wrapped_clock(clock, dt, period);
        if next < clock { next + period - clock } else { next - clock }
    };
    assert!((step(wrapped) - dt).abs() < 1e-4, "a frame still moves the clock by a frame");
    assert!(wrapped < period);
    // Grown without end, a day's clock cannot even tell one frame from the next well.
    let grown_step = (grown + dt) - grown;
    assert!((grown_step - dt).abs() > 1e-4, "a clock left to grow steps {grown_step} at {grown}");
}

#[test]
fn the_stars_wrap_where_their_spin_and_rise_both_come_round() {
    use fixstep_town_view::present::effects::{STAR_HEIGHT, STAR_PERIOD_S, STAR_RISE, STAR_SPIN};
    assert!((STAR_PERIOD_S * STAR_SPIN - std::f32::consts::TAU).abs() < 1e-5, "a whole turn");
    assert!((STAR_PERIOD_S * STAR_RISE - STAR_HEIGHT).abs() < 1e-5, "a whole rise");
}

/// The town's simulation, as its game names it.
type Sim = <Town as fixstep_runtime::Rules>::Sim;
