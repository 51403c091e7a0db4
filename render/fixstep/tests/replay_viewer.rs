//! `fixstep replay` end to end: a tick of a recorded match drawn offscreen into a PNG of the
//! size asked (no window), and the viewer without a display saying so in one line.

#[expect(dead_code, reason = "this binary draws offscreen, without a virtual display")]
mod common;

use std::path::Path;
use std::process::Command;

use common::{FIXSTEP, config_home, output_dir};
use fixstep_gpu::testing::gpu_or_skip;

/// Records `fixstep [GAME] sim --ticks 200 --bots 2` into `path`.
fn record(game: &[&str], path: &Path) {
    let run = Command::new(FIXSTEP)
        .args(game)
        .args(["sim", "--ticks", "200", "--bots", "2", "--record"])
        .arg(path)
        .output()
        .expect("fixstep runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

/// `--at 150 --screenshot OUT --size 320x180` writes a PNG of 320 by 180 of the town (not
/// blank), and says which tick it drew; the arena's replay draws too, its game read from the
/// file.
#[test]
fn a_tick_of_a_replay_is_drawn_offscreen_into_a_png_of_the_size_asked() {
    if gpu_or_skip("replay-screenshot").is_none() {
        return;
    }
    for (name, game) in [("town", &[][..]), ("arena", &["--game", "arena"][..])] {
        let replay = output_dir().join(format!("replay-shot-{name}.fxr"));
        let out = output_dir().join(format!("replay-shot-{name}.png"));
        let _ = std::fs::remove_file(&out);
        record(game, &replay);
        let run = Command::new(FIXSTEP)
            .arg("replay")
            .arg(&replay)
            .args(["--at", "150", "--size", "320x180", "--screenshot"])
            .arg(&out)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("fixstep runs");
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{name}: {}", String::from_utf8_lossy(&run.stderr));
        assert!(said.contains("the state after tick 150"), "{name}: {said}");
        let picture = image::open(&out).expect("a PNG").to_rgba8();
        assert_eq!(picture.dimensions(), (320, 180), "{name}");
        let mut colours: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
        colours.sort_unstable();
        colours.dedup();
        assert!(colours.len() > 20, "{name}: nearly blank, {} colours", colours.len());
    }
}

/// Without a display the viewer says so in one line and exits 2, as `play` does; `--info`
/// still prints what the replay holds.
#[test]
fn without_a_display_the_viewer_says_so_and_info_still_describes() {
    let replay = output_dir().join("replay-no-display.fxr");
    record(&[], &replay);
    let run = Command::new(FIXSTEP)
        .arg("replay")
        .arg(&replay)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_CONFIG_HOME", config_home("replay-no-display"))
        .output()
        .expect("fixstep runs");
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    let ours: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("fixstep:") && !l.starts_with("fixstep: sound: off"))
        .collect();
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].contains("no display"), "{err}");
    let info = Command::new(FIXSTEP)
        .arg("replay")
        .arg(&replay)
        .arg("--info")
        .output()
        .expect("fixstep runs");
    assert!(info.status.success());
    assert!(String::from_utf8_lossy(&info.stdout).contains("ticks 0 to 200"));
}
