//! Paths inside files stay in the content folder: the files a replay carries and a level's
//! clip, dialogue and cutscene files name paths under the assets, never an absolute path,
//! never a `..`, never a link out. Anything else is refused naming the file, where in it (a
//! line, or the replay) and the path; `strace` shows the path is never opened, and nothing of the
//! file it names is shown.

use std::process::Command;

use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::replay::{RecordedBy, ReplayHeader, ReplayRecorder};
use fixstep_tests::{
    Scratch, arg, copy_tree, fixstep_binary, one_line_error, run_fixstep, workspace_root,
};

/// The paths a hostile file names: a file of this machine, and a climb out of the assets.
const OUTSIDE: [&str; 2] = ["/etc/hostname", "../../x"];

/// A replay of the town whose carried content is crafted: its own file named `main`, and
/// the level in it naming `clips` as its clip file. Its header and keyframes are the town's.
fn replay_carrying(dir: &Scratch, main: &str, clips: &str) -> std::path::PathBuf {
    let assets = workspace_root().join("assets");
    let level = fixstep_town::level::load_level(&assets, &assets.join("levels/town.ron"))
        .expect("the town loads");
    let text = std::fs::read_to_string(assets.join("levels/town.ron")).expect("the town");
    let text = text.replace("clips: \"animations/humanoid.ron\"", &format!("clips: {clips:?}"));
    let mut files = ContentFiles::new(main.to_owned());
    for name in level.files.names().filter(|n| *n != level.files.main) {
        files.insert(name.to_owned(), level.files.get(name).expect("listed").to_vec());
    }
    files.insert(main.to_owned(), text.into_bytes());
    let sim = fixstep_town::TownSim::new(std::sync::Arc::new(level), 1, 1);
    let header = ReplayHeader::of(&sim, "town", Some(1), RecordedBy::Local, 0);
    let recorder =
        ReplayRecorder::start(Vec::new(), &header, &files, &sim, u32::MAX).expect("starts");
    dir.write("crafted.fxr", recorder.finish().expect("written"))
}

/// A copy of the open-ground test level whose clip file is `clips` and whose mayor's
/// dialogue is `dialogue`, and the line each is on.
fn level_naming(dir: &Scratch, clips: &str, dialogue: &str) -> (std::path::PathBuf, usize, usize) {
    let text = std::fs::read_to_string(workspace_root().join("tests/levels/open_ground.ron"))
        .expect("the test level");
    let text = text
        .replace("clips: \"animations/humanoid.ron\"", &format!("clips: {clips:?}"))
        .replace("dialogue: \"dialogue/mayor.ron\"", &format!("dialogue: {dialogue:?}"));
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).expect("there") + 1;
    let (clips_line, dialogue_line) = (line_of("clips:"), line_of("dialogue:"));
    (dir.write("level.ron", &text), clips_line, dialogue_line)
}

/// The paths `fixstep args` asked the system to open, from `strace -f -e trace=%file`.
fn opened_paths(dir: &Scratch, args: &[&str]) -> String {
    let log = dir.path("strace.txt");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=%file", "-o"])
        .arg(&log)
        .arg(fixstep_binary())
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("strace runs (the `strace` package)");
    assert_eq!(status.status.code(), Some(2), "{}", String::from_utf8_lossy(&status.stderr));
    let calls = std::fs::read_to_string(&log).expect("strace wrote its log");
    calls.lines().filter(|l| l.contains("open")).collect::<Vec<_>>().join("\n")
}

/// What `/etc/hostname` holds, to check it is never shown.
fn hostname() -> Option<String> {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|t| t.trim().to_owned())
        .filter(|t| t.len() >= 3)
}

/// A replay carries its content's files by the names they call each other: a name that
/// leaves the content folder, as the replay's own file or as one a file in it names, is
/// refused naming the replay and the path, and nothing of any file it might mean is shown.
#[test]
fn a_replay_whose_content_names_a_path_outside_it_is_refused_naming_it() {
    let dir = Scratch::new("content-paths", "replay");
    for outside in OUTSIDE {
        for (main, clips) in [(outside, "animations/humanoid.ron"), ("levels/town.ron", outside)] {
            let replay = replay_carrying(&dir, main, clips);
            let line = one_line_error(&run_fixstep(&["replay", arg(&replay), "--verify"]));
            assert!(line.contains(arg(&replay)), "names the replay: {line}");
            assert!(line.contains(&format!("{outside:?}")), "names the path: {line}");
            if let Some(name) = hostname() {
                assert!(!line.contains(&name), "shows what the file holds: {line}");
            }
        }
    }
}

#[test]
fn a_path_a_replays_content_names_outside_it_is_never_opened() {
    let dir = Scratch::new("content-paths", "replay-strace");
    for outside in OUTSIDE {
        for (main, clips) in [(outside, "animations/humanoid.ron"), ("levels/town.ron", outside)] {
            let replay = replay_carrying(&dir, main, clips);
            let opened = opened_paths(&dir, &["replay", arg(&replay), "--verify"]);
            assert!(opened.contains("crafted.fxr"), "the trace sees the replay opened:\n{opened}");
            // The climb as written, or the file at the end of the absolute path.
            let needle = if outside.starts_with('/') { "hostname" } else { outside };
            assert!(!opened.contains(needle), "{outside} was opened:\n{opened}");
        }
    }
}

#[test]
fn a_level_naming_files_outside_the_assets_is_refused_by_line_and_path() {
    let dir = Scratch::new("content-paths", "level");
    let (level, clips_line, dialogue_line) = level_naming(&dir, OUTSIDE[0], OUTSIDE[1]);
    let out = run_fixstep(&["sim", "--ticks", "1", "--level", arg(&level)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "a problem a path: {err}");
    assert!(lines[0].contains(&format!("{}:{clips_line}:", arg(&level))), "{err}");
    assert!(lines[0].contains("\"/etc/hostname\" is absolute"), "{err}");
    assert!(lines[1].contains(&format!("{}:{dialogue_line}:", arg(&level))), "{err}");
    assert!(lines[1].contains("\"../../x\" climbs out"), "{err}");
    if let Some(name) = hostname() {
        assert!(!err.contains(&name), "shows what the file holds: {err}");
    }
    let opened = opened_paths(&dir, &["sim", "--ticks", "1", "--level", arg(&level)]);
    assert!(opened.contains("level.ron"), "the trace sees the level opened:\n{opened}");
    assert!(!opened.contains("hostname") && !opened.contains("../x"), "opened:\n{opened}");
}

#[cfg(unix)]
#[test]
fn a_level_naming_a_file_through_a_link_out_of_the_assets_is_refused() {
    let dir = Scratch::new("content-paths", "link");
    // Assets of their own: the real ones, and a folder that is a link to /etc.
    let assets = dir.path("assets");
    copy_tree(&workspace_root().join("assets"), &assets);
    std::os::unix::fs::symlink("/etc", assets.join("outside")).expect("a link");
    let (level, clips_line, _) = level_naming(&dir, "outside/hostname", "dialogue/mayor.ron");
    let line = one_line_error(&run_fixstep(&[
        "--assets",
        arg(&assets),
        "sim",
        "--ticks",
        "1",
        "--level",
        arg(&level),
    ]));
    assert!(line.contains(&format!("{}:{clips_line}:", arg(&level))), "{line}");
    assert!(line.contains("leads out of the content folder through a link"), "{line}");
}

/// Content from outside the assets is recorded with its files, its own kept under its file
/// name: the replay plays where the assets are missing.
#[test]
fn a_recording_of_content_outside_the_assets_carries_it() {
    let dir = Scratch::new("content-paths", "record-outside");
    let (level, _, _) = level_naming(&dir, "animations/humanoid.ron", "dialogue/mayor.ron");
    let replay = dir.path("game.fxr");
    let out =
        run_fixstep(&["sim", "--ticks", "20", "--level", arg(&level), "--record", arg(&replay)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let empty = dir.path("no-assets");
    std::fs::create_dir_all(&empty).expect("an empty folder");
    let out = run_fixstep(&["--assets", arg(&empty), "replay", arg(&replay), "--verify"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("verified 20 ticks"));
}
