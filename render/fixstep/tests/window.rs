//! The window path: `fixstep play` under a virtual X display (Xvfb, started here on a free
//! display number) draws 120 frames and writes a picture that is not blank; without a display
//! or without a GPU, the program says so in one line and exits 2.

mod common;

use std::process::Command;

use common::{FIXSTEP, config_home, output_dir, xvfb_or_skip};

/// Plays `fixstep GAME play --frames 120 --size 320x180 PLAY` under Xvfb with a screenshot
/// and a drawn log, and checks that it succeeded with a picture that is not blank; returns
/// the frames drawn, or `None` if the test is skipped (no GPU, no Xvfb).
fn play_in_a_window(
    test: &str,
    game: &[&str],
    play: &[&str],
) -> Option<Vec<fixstep_present::format::DrawnFrame>> {
    let xvfb = xvfb_or_skip(test)?;
    let out = output_dir().join(format!("{test}.png"));
    let drawn = output_dir().join(format!("{test}-drawn.jsonl"));
    let _ = std::fs::remove_file(&out);
    let run = Command::new(FIXSTEP)
        .args(game)
        .args(["play", "--frames", "120", "--size", "320x180"])
        .args(play)
        .arg("--screenshot")
        .arg(&out)
        .arg("--drawn-log")
        .arg(&drawn)
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY")
        // As under a virtual display outside a desktop session: no runtime directory.
        .env_remove("XDG_RUNTIME_DIR")
        .env("XDG_CONFIG_HOME", config_home(test))
        .output()
        .expect("fixstep runs");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "fixstep play exited {:?}: {err}", run.status.code());
    assert!(!err.contains("XDG_RUNTIME_DIR"), "a window's start said nothing of a session: {err}");
    let picture = image::open(&out).expect("the screenshot is a PNG").to_rgba8();
    assert_eq!(picture.dimensions(), (320, 180));
    let mut colours: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(
        colours.len() > 200,
        "the picture is nearly blank: {} colours ({})",
        colours.len(),
        out.display()
    );
    let frames = fixstep_tools::judder::read_drawn_log(&drawn).expect("a drawn log");
    assert!(frames.len() >= 120, "{} frames logged", frames.len());
    Some(frames)
}

#[test]
fn play_draws_frames_in_a_window_and_writes_a_picture() {
    let Some(frames) = play_in_a_window("window", &[], &[]) else { return };
    // What the window drew, frame by frame: the own character (drawn from its prediction)
    // and the camera in every frame.
    assert!(frames.iter().all(|f| f.camera.is_some() && f.entities.iter().any(|e| e.local)));
}

/// The second game plays in the same window: the arena with three bots draws four pushers
/// and its pucks in every frame, and the bots' pushers move.
#[test]
fn the_arena_plays_in_a_window_with_bots() {
    let Some(frames) = play_in_a_window("arena-window", &["--game", "arena"], &["--bots", "3"])
    else {
        return;
    };
    let pushers = |f: &fixstep_present::format::DrawnFrame| {
        f.entities.iter().filter(|e| e.kind.as_deref() == Some("pusher")).count()
    };
    assert!(frames.iter().all(|f| pushers(f) == 4), "four pushers in every frame");
    // The player's own pusher is drawn from its prediction, as the town's character is.
    assert!(frames.iter().all(|f| f.entities.iter().any(|e| e.local)));
    assert!(frames.iter().all(|f| f.entities.iter().any(|e| e.kind.as_deref() == Some("puck"))));
    let bot = |f: &fixstep_present::format::DrawnFrame| {
        f.entities.iter().find(|e| e.id == 1).map(|e| e.pos)
    };
    let (first, last) = (frames.first().and_then(bot), frames.last().and_then(bot));
    assert_ne!(first, last, "a bot's pusher skated");
}

/// The program's lines about how the run went: every `fixstep:` line but the sound's notice
/// that it is off (a log line like any other, said whenever no audio device opens).
fn said_of_the_run(err: &str) -> Vec<&str> {
    err.lines()
        .filter(|l| l.starts_with("fixstep:") && !l.starts_with("fixstep: sound: off"))
        .collect()
}

#[test]
fn without_a_display_play_says_so_in_one_line() {
    let config = config_home("no-display");
    let run = Command::new(FIXSTEP)
        .args(["play", "--frames", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_CONFIG_HOME", &config)
        .output()
        .expect("fixstep runs");
    assert!(
        config.join("fixstep/settings.ron").is_file(),
        "the first start writes the default settings for the player to find"
    );
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    let ours = said_of_the_run(&err);
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].contains("no display") && ours[0].contains("fixstep sim"), "{err}");
}

/// A settings file that does not read is said in one line naming it, and the game goes on
/// (here as far as the missing display lets it).
#[test]
fn a_corrupt_settings_file_is_named_in_one_line_and_never_stops_the_game() {
    let config = config_home("corrupt-settings");
    let file = config.join("fixstep/settings.ron");
    std::fs::create_dir_all(file.parent().expect("a folder")).expect("made");
    std::fs::write(&file, "(volume: (master: \"loud\"))").expect("written");
    let run = Command::new(FIXSTEP)
        .args(["play", "--frames", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_CONFIG_HOME", &config)
        .output()
        .expect("fixstep runs");
    let err = String::from_utf8_lossy(&run.stderr);
    let ours = said_of_the_run(&err);
    assert_eq!(ours.len(), 2, "the settings' line, then the display's: {err}");
    assert!(ours[0].contains(&file.display().to_string()) && ours[0].contains("line 1"), "{err}");
    assert!(ours[1].contains("no display"), "it went on to open the window: {err}");
    assert!(file.with_extension("ron.bad").is_file(), "the player's file is kept");
}

#[test]
fn without_a_gpu_screenshot_says_so_in_one_line() {
    let out = output_dir().join("no-gpu.png");
    let run = Command::new(FIXSTEP)
        .args(["screenshot", "--tick", "1", "--size", "32x18", "--out"])
        .arg(&out)
        // Vulkan only, with no driver to find.
        .env("WGPU_BACKEND", "vulkan")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .expect("fixstep runs");
    assert_eq!(run.status.code(), Some(2), "{}", String::from_utf8_lossy(&run.stderr));
    let err = String::from_utf8_lossy(&run.stderr);
    let ours = said_of_the_run(&err);
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].contains("no GPU adapter") && ours[0].contains("mesa-vulkan-drivers"), "{err}");
}

/// Each game's help line, made from the keys bound and the game's own names for its
/// controls: the arena's names no run and no turning, which it has not.
#[test]
fn each_games_help_line_names_its_own_controls() {
    use fixstep_present::Game;
    let keys = fixstep_window::settings::KeyBindings::default();
    assert_eq!(
        keys.help_line(&<fixstep_town_view::Town as Game>::CONTROL_NAMES),
        "WASD move, Shift run, Q/E turn, F interact"
    );
    assert_eq!(
        keys.help_line(&<fixstep_arena_view::Arena as Game>::CONTROL_NAMES),
        "WASD skate, F dash"
    );
}
