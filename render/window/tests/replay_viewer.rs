//! The replay viewer, driven by frame times as the window drives it: it plays the recorded
//! match tick for tick at the speed asked, stops when paused, seeks as a discontinuity, and
//! the front screen's Replays page lists what was recorded.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_netplay::Recording;
use fixstep_present::format::{DrawnFrame, TruthEntity};
use fixstep_present::{Controls, Game, Presentation};
use fixstep_runtime::replay::RecordedBy;
use fixstep_runtime::replay::{CutRecord, LoadedReplay};
use fixstep_runtime::{Bot as _, Player, Rules as _, Simulation as _, Tick, TickRecord};
use fixstep_town::level::Level;
use fixstep_town_view::Town;
use fixstep_window::replay::ReplayPlay;
use fixstep_window::replays::list_replays;
use fixstep_window::session::PlaySession;
use winit::keyboard::KeyCode;

/// Ticks recorded: a minute and ten seconds, three keyframes' worth.
const RECORDED_TICKS: u32 = 700;

/// Players in the recorded match, all bots.
const PLAYERS: usize = 4;

/// A 60 Hz frame, microseconds.
const FRAME_MICROS: u64 = 16_667;

/// A recorded match of the town, in a scratch folder removed when dropped.
struct Recorded {
    dir: PathBuf,
    path: PathBuf,
    /// The total of the state's hash after each tick, by tick.
    hashes: Vec<u64>,
}

impl Drop for Recorded {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn town() -> Arc<Level> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    Arc::new(Town::load_content(&assets, &Town::default_content(&assets)).expect("loads"))
}

/// Four bots walking the town for [`RECORDED_TICKS`], recorded as `fixstep sim --record`
/// records.
fn record(test: &str) -> Recorded {
    let dir = std::env::temp_dir().join(format!("fixstep-viewer-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join("match.fxr");
    let content = town();
    let mut sim = Town::new_sim(&content, 7, PLAYERS);
    let mut bots: Vec<_> = Player::all(PLAYERS).map(|p| Town::bot(&content, p)).collect();
    let mut recording =
        Recording::<Town>::create(&path, &content, &sim, Some(7), RecordedBy::Local)
            .expect("records");
    let mut hashes = Vec::new();
    for t in 0..RECORDED_TICKS {
        let commands: Vec<_> = bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        sim.step(Tick(t), &commands).expect("a tick runs");
        let hash = sim.state_hash().total();
        recording.tick(&TickRecord::new(Tick(t), commands), hash, &sim).expect("writes");
        hashes.push(hash);
    }
    drop(recording);
    Recorded { dir, path, hashes }
}

fn viewer(recorded: &Recorded) -> ReplayPlay<Town> {
    let loaded = LoadedReplay::<Town>::load(&recorded.path, CutRecord::Refused).expect("a replay");
    ReplayPlay::new(loaded).expect("starts")
}

fn frame(viewer: &mut ReplayPlay<Town>, micros: u64) {
    viewer.frame(micros, &Controls::default(), 0).expect("a frame");
}

/// Played by 60 Hz frames for 45 s, the viewer is at the tick 45 s of frames owe, and its
/// state hashes as the match's did after the tick before it (what `--at` prints).
#[test]
fn frames_play_the_match_tick_for_tick_to_its_recorded_hash() {
    let recorded = record("play");
    let mut viewer = viewer(&recorded);
    let frames = 45 * 60;
    for _ in 0..frames {
        frame(&mut viewer, FRAME_MICROS);
    }
    let tick = viewer.tick();
    let owed = frames * FRAME_MICROS / 100_000;
    assert_eq!(u64::from(tick.0), owed, "every tick the frames owe, no more");
    assert_eq!(viewer.hash(), recorded.hashes[tick.0 as usize - 1], "as recorded");
    // What `fixstep replay --at` computes: a fresh game sought to the same tick.
    let loaded = LoadedReplay::<Town>::load(&recorded.path, CutRecord::Refused).expect("a replay");
    let mut sim = loaded.start_sim().expect("seats");
    loaded.replay.seek(&mut sim, tick).expect("seeks");
    assert_eq!(viewer.hash(), sim.state_hash().total(), "as a seek to the tick computes");
}

/// Paused, frames run no tick; 16x runs 16 ticks in 100 ms; 1/4x one in 400 ms.
#[test]
fn pause_stops_the_ticks_and_the_speed_scales_them() {
    let recorded = record("speed");
    let mut viewer = viewer(&recorded);
    frame(&mut viewer, 1_000_000);
    let at = viewer.tick();
    viewer.set_paused(true);
    for _ in 0..120 {
        frame(&mut viewer, FRAME_MICROS);
    }
    assert_eq!(viewer.tick(), at, "paused");
    viewer.set_paused(false);
    viewer.set_speed_shift(4);
    frame(&mut viewer, 100_000);
    assert_eq!(viewer.tick().since(at), 16, "16x: 16 ticks in 100 ms");
    viewer.set_speed_shift(-2);
    let at = viewer.tick();
    frame(&mut viewer, 300_000);
    assert_eq!(viewer.tick(), at, "a quarter: 300 ms is not yet a tick");
    frame(&mut viewer, 100_000);
    assert_eq!(viewer.tick().since(at), 1, "a quarter: a tick in 400 ms");
    viewer.set_speed_shift(9);
    assert_eq!(viewer.speed_shift(), 4, "no faster than 16x");
}

/// At 16x a 60 Hz frame runs one or two ticks and draws between them: what a frame costs the
/// CPU (ticks, presentation, frame), measured and printed for the record.
#[test]
fn sixteen_times_runs_every_tick_frame_by_frame() {
    let recorded = record("sixteen");
    let mut viewer = viewer(&recorded);
    viewer.set_speed_shift(4);
    let frames = 240;
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let start = std::time::Instant::now();
        frame(&mut viewer, FRAME_MICROS);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    // 240 frames of 16.667 ms at 16x: 64.0 s of the match.
    assert_eq!(viewer.tick(), Tick(640));
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "16x: a frame's CPU time {mean:.2} ms mean, {:.2} ms at the 95th percentile, {:.2} ms most",
        times[times.len() * 95 / 100],
        times[times.len() - 1]
    );
}

/// What the viewer drew last, by entity.
fn drawn(viewer: &ReplayPlay<Town>) -> Vec<(u64, [f64; 3])> {
    let mut line = DrawnFrame::default();
    viewer.presentation().record(&mut line);
    line.entities.iter().map(|e| (e.id, e.pos)).collect()
}

/// A seek is a discontinuity: the frame after it draws every entity where the state it went
/// to has it, none part of the way from where it was.
#[test]
fn a_seek_draws_the_new_moment_with_nothing_blended_across_it() {
    let recorded = record("seek");
    let mut viewer = viewer(&recorded);
    let content = town();
    // Halfway between two ticks, the bots walking.
    for _ in 0..40 {
        frame(&mut viewer, 25_000);
    }
    viewer.frame(50_000, &Controls::default(), 0).expect("a frame");
    viewer.seek(Tick(600)).expect("seeks");
    frame(&mut viewer, 50_000);
    assert_eq!(viewer.tick(), Tick(600), "half a tick owed: none run yet");
    let mut truth: Vec<TruthEntity> = Vec::new();
    Town::truth(&content, None, viewer.sim().snapshot(), &mut truth);
    let drawn = drawn(&viewer);
    assert!(!drawn.is_empty(), "the frame draws the town");
    let mut compared = 0;
    for (id, pos) in drawn {
        if let Some(t) = truth.iter().find(|t| t.id == id) {
            let off = (0..3).map(|i| (pos[i] - t.pos[i]).abs()).fold(0.0, f64::max);
            assert!(off < 1e-3, "entity {id} drawn {off} m off the state sought to: {pos:?}");
            compared += 1;
        }
    }
    assert!(compared >= PLAYERS, "the players' characters at least ({compared} compared)");
}

/// The Replays page lists a replay recorded into the data folder, with its game, players and
/// length.
#[test]
fn the_replays_page_lists_what_was_recorded() {
    let recorded = record("list");
    std::fs::write(recorded.dir.join("notes.txt"), b"not a replay").expect("writes");
    std::fs::write(recorded.dir.join("broken.fxr"), b"FXREPLAY nonsense").expect("writes");
    let list = list_replays::<Town>(&recorded.dir);
    assert_eq!(list.len(), 1, "only the replay: {list:?}");
    let entry = &list[0];
    assert_eq!(entry.path, recorded.path);
    assert_eq!((entry.players, entry.ticks), (PLAYERS, Some(RECORDED_TICKS)));
    assert_eq!(entry.length(), "1:10");
    assert!(entry.playable);
    assert!(entry.started_unix_ms > 0, "it says when it began");
}

/// A seat's key follows that player: the camera sits behind where its character is drawn; C
/// lets the camera go free from where it looked, without a jump, the movement keys move it
/// while the match plays on, and C again follows the player followed before.
#[test]
fn the_camera_follows_the_player_picked_or_goes_free() {
    let recorded = record("camera");
    let mut viewer = viewer(&recorded);
    for _ in 0..120 {
        frame(&mut viewer, FRAME_MICROS);
    }
    let first = viewer.presentation().drawn_camera();
    viewer.press(KeyCode::Digit3).expect("a key");
    frame(&mut viewer, FRAME_MICROS);
    assert_eq!(viewer.following(), Some(Player(2)));
    assert_eq!(viewer.line().following.as_deref(), Some("Player 3"));
    let third = viewer.presentation().drawn_camera();
    let feet = third.shadow_centre;
    let on_a_character = drawn(&viewer).iter().any(|(_, pos)| {
        (pos[0] - f64::from(feet.x)).abs() < 1e-3 && (pos[2] - f64::from(feet.z)).abs() < 1e-3
    });
    assert!(on_a_character, "the camera is on a character drawn: {feet}");
    assert!((third.shadow_centre - first.shadow_centre).length() > 0.5, "another character");

    viewer.press(KeyCode::KeyC).expect("a key");
    assert_eq!(viewer.following(), None);
    let at = viewer.tick();
    frame(&mut viewer, FRAME_MICROS);
    let took_over = viewer.presentation().drawn_camera();
    assert!((took_over.eye - third.eye).length() < 1e-3, "no jump: {took_over:?} {third:?}");
    let forward = Controls { forward: 100, ..Controls::default() };
    viewer.frame(500_000, &forward, 0).expect("a frame");
    let moved = viewer.presentation().drawn_camera();
    let pan = (moved.target - took_over.target).length();
    assert!((pan - 6.0).abs() < 1e-3, "half a second at 12 m/s: {pan} m");
    assert!(viewer.tick() > at, "the match plays on under a free camera");
    assert_eq!(viewer.line().following, None, "the HUD says the camera is free");
    let timeline = viewer.timeline_now();
    assert_eq!((timeline.names.len(), timeline.following), (PLAYERS, None));

    viewer.press(KeyCode::KeyC).expect("a key");
    assert_eq!(viewer.following(), Some(Player(2)), "back to whom it followed");
    viewer.press(KeyCode::Digit9).expect("a key");
    assert_eq!(viewer.following(), Some(Player(2)), "no ninth seat: nothing changes");
}

/// A window hosting on from a replay's moment ("take command"): its game is at the tick after
/// the one asked, with the state the match had there, and the host plays the first seat.
#[test]
fn a_window_hosts_on_from_a_replays_moment() {
    let recorded = record("play-on");
    let (_, resumed) =
        fixstep_netplay::resume::from_replay::<Town>(&recorded.path, Some(Tick(300)))
            .expect("resumes");
    let options = fixstep_netplay::HostOptions {
        bind: ([127, 0, 0, 1], 0).into(),
        also_reachable_at: Vec::new(),
        max_players: 8,
        max_spectators: 0,
        seat_grace_micros: fixstep_runtime::net::DEFAULT_SEAT_GRACE_MICROS,
        own_player: true,
        seed: 1,
        name: "ada".to_owned(),
        reports: recorded.dir.join("reports"),
        access: fixstep_netplay::Access::Open,
        record: None,
        spectator_delay_ticks: 0,
        migration: true,
        rendezvous: None,
        port_mapping: false,
        stun: Vec::new(),
        turn: None,
    };
    let host =
        fixstep_window::session::HostPlay::<Town>::starting(&town(), &options, Some(resumed))
            .expect("hosts");
    let mut hud = fixstep_gpu::Hud::default();
    host.hud(&mut hud);
    assert_eq!(hud.tick, 300, "the state after tick 299");
    assert_eq!(hud.hash, Some(recorded.hashes[299]), "as the match had it");
    assert_eq!(host.local_player(), Some(Player::FIRST));
}
