//! End-to-end runs of `fixstep sim` and `fixstep replay`: the final hash and its
//! repeatability, the hash log, recording and verifying replays, damaged replays, command
//! scripts, bad levels, bad frame times and bad usage. Each error must be one line on standard
//! error with exit code 2, naming the file (and line) at fault, so a script or a person can act
//! on it without a stack trace.

use std::fs;
use std::path::Path;
use std::process::Output;

use fixstep_runtime::Tick;
use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::replay::{ReplayFile, ReplayRecorder, ReplayStep};
use fixstep_tests::{
    Scratch, arg, copy_tree, fixstep_binary, one_line_error, run_fixstep, stderr, stdout,
    workspace_root,
};
use fixstep_town::PlayerCommand;

/// The level every run here uses, relative to the workspace root (where `run_fixstep` runs
/// the binary), as a user would type it.
const TOWN: &str = "assets/levels/town.ron";

/// Asserts a successful run and returns the hash of its one `tick N hash H` line, checking
/// the line's form: the tick asked for and 16 lowercase hex digits.
fn final_hash(out: &Output, ticks: u32) -> String {
    assert!(out.status.success(), "fixstep failed: {:?}\n{}", out.status, stderr(out));
    let text = stdout(out);
    let mut lines = text.lines();
    let line = lines.next().unwrap_or_default();
    assert_eq!(lines.next(), None, "one line expected on standard output:\n{text}");
    let hash = line
        .strip_prefix(&format!("tick {ticks} hash "))
        .unwrap_or_else(|| panic!("`tick {ticks} hash <hex>` expected, found `{line}`"));
    assert!(is_hash(hash), "`{hash}` is not 16 lowercase hex digits");
    hash.to_owned()
}

fn is_hash(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn sim(extra: &[&str]) -> Output {
    let mut args = vec!["sim", "--level", TOWN];
    args.extend_from_slice(extra);
    run_fixstep(&args)
}

// --- The final hash --------------------------------------------------------------------------

#[test]
fn sim_prints_the_final_tick_and_hash_and_the_same_on_a_second_run() {
    let first = final_hash(&sim(&["--ticks", "600", "--bots", "4"]), 600);
    let second = final_hash(&sim(&["--ticks", "600", "--bots", "4"]), 600);
    assert_eq!(first, second, "two runs of the same game must end on the same hash");
}

#[test]
fn a_different_seed_gives_a_different_hash() {
    let default = final_hash(&sim(&["--ticks", "600", "--bots", "4"]), 600);
    let seed_1 = final_hash(&sim(&["--ticks", "600", "--bots", "4", "--seed", "1"]), 600);
    let seed_2 = final_hash(&sim(&["--ticks", "600", "--bots", "4", "--seed", "2"]), 600);
    assert_eq!(default, seed_1, "the default seed is 1");
    assert_ne!(seed_1, seed_2, "the seed must reach the state: seeds 1 and 2 end alike");
}

#[test]
fn the_hash_log_has_every_tick_and_ends_on_the_printed_hash() {
    let dir = Scratch::new("cli-sim", "hash_log");
    let log = dir.path("hashes.txt");
    let printed =
        final_hash(&sim(&["--ticks", "600", "--bots", "4", "--hash-log", arg(&log)]), 600);
    let text = fs::read_to_string(&log).expect("the hash log is written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 600, "one line per tick expected");
    for (expected_tick, line) in lines.iter().enumerate() {
        let (tick, hash) = line.split_once(' ').unwrap_or_else(|| panic!("`TICK HASH`: {line}"));
        assert_eq!(tick, expected_tick.to_string(), "ticks 0..599 in order: {line}");
        assert!(is_hash(hash), "line `{line}`: not 16 lowercase hex digits");
    }
    assert_eq!(lines[599].split_once(' ').map(|(_, h)| h), Some(printed.as_str()));
}

// --- Replays ---------------------------------------------------------------------------------

#[test]
fn a_recorded_replay_verifies_and_describes_itself() {
    let dir = Scratch::new("cli-sim", "replay_ok");
    let replay = dir.path("game.fxr");
    let printed =
        final_hash(&sim(&["--ticks", "600", "--bots", "4", "--record", arg(&replay)]), 600);

    let out = run_fixstep(&["replay", arg(&replay), "--verify"]);
    assert!(out.status.success(), "verify failed:\n{}", stderr(&out));
    let text = stdout(&out);
    // Every tick's hash, the start's and each keyframe's (every 30 s: ticks 300 and 600).
    assert!(text.starts_with("verified 600 ticks, 603 hashes match"), "{text}");
    assert!(text.contains(&printed), "the final hash of the recording is reproduced: {text}");

    let out = run_fixstep(&["replay", arg(&replay), "--info"]);
    assert!(out.status.success(), "describing failed:\n{}", stderr(&out));
    let text = stdout(&out);
    for fact in ["replay of Fixstep Town", "recorded by a local game", "ticks 0 to 600", "1:00.0"] {
        assert!(text.contains(fact), "the description should say `{fact}`: {text}");
    }
    for fact in ["4 players at the start", "3 keyframes"] {
        assert!(text.contains(fact), "the description should say `{fact}`: {text}");
    }
}

#[test]
fn a_replay_recorded_with_a_command_script_verifies() {
    let dir = Scratch::new("cli-sim", "replay_script");
    // One bot (player 0) and a scripted player 1 that walks, turns and runs.
    let script = dir.write("script.txt", "0 1 100 0 0\n40 1 100 0 2048 run\n41 1 100 0 0 run\n");
    let replay = dir.path("game.fxr");
    let printed = final_hash(
        &sim(&[
            "--ticks",
            "300",
            "--bots",
            "1",
            "--commands",
            arg(&script),
            "--record",
            arg(&replay),
        ]),
        300,
    );
    let out = run_fixstep(&["replay", arg(&replay), "--verify"]);
    assert!(out.status.success(), "verify failed:\n{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("verified 300 ticks"), "{text}");
    assert!(text.contains(&printed), "{text}");
}

#[test]
fn a_replay_verifies_from_another_working_directory() {
    let dir = Scratch::new("cli-sim", "replay_elsewhere");
    let replay = dir.path("game.fxr");
    let printed =
        final_hash(&sim(&["--ticks", "100", "--bots", "2", "--record", arg(&replay)]), 100);
    // A replay is a file to hand to someone else: it carries its content, so neither the
    // working directory nor the assets it was recorded with are needed to verify it.
    let empty = dir.path("no-assets");
    fs::create_dir_all(&empty).expect("an empty folder");
    let out = std::process::Command::new(fixstep_binary())
        .args(["--assets", arg(&empty), "replay", arg(&replay), "--verify"])
        .current_dir(dir.dir())
        .output()
        .expect("the fixstep binary starts");
    assert!(
        out.status.success() && stdout(&out).contains(&printed),
        "the replay verifies from elsewhere, with no assets: {}",
        stderr(&out).trim_end()
    );
}

/// Where each record of a replay starts (its length field), from the file format in
/// `docs/FORMATS.md`: an 8-byte signature, a u16 version, then records of a LEB128 length, a
/// 32-bit checksum and the payload.
fn record_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 10;
    while at < bytes.len() {
        starts.push(at);
        let (mut length, mut shift) = (0_usize, 0);
        loop {
            let byte = bytes[at];
            at += 1;
            length |= usize::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        at += 4 + length;
    }
    assert_eq!(at, bytes.len(), "the recorded replay ends on a record boundary");
    starts
}

/// Records a 600-tick replay of four bots in `dir` and returns its bytes.
fn recorded_replay(dir: &Scratch) -> Vec<u8> {
    let replay = dir.path("original.fxr");
    final_hash(&sim(&["--ticks", "600", "--bots", "4", "--record", arg(&replay)]), 600);
    fs::read(&replay).expect("the replay is written")
}

#[test]
fn a_replay_with_a_flipped_payload_byte_is_reported_corrupted_with_record_and_byte() {
    let dir = Scratch::new("cli-sim", "replay_corrupted");
    let mut bytes = recorded_replay(&dir);
    let starts = record_starts(&bytes);
    // The header, the content, 600 ticks and keyframes at ticks 0, 300 and 600.
    assert_eq!(starts.len(), 605, "a header, the content, 600 ticks and 3 keyframes");
    // The last payload byte of a record in the middle (the header is record 0).
    let record = 300;
    bytes[starts[record + 1] - 1] ^= 0x5a;
    let damaged = dir.write("damaged.fxr", &bytes);
    for verify in [true, false] {
        let mut args = vec!["replay", arg(&damaged)];
        args.push(if verify { "--verify" } else { "--info" });
        let line = one_line_error(&run_fixstep(&args));
        assert!(line.contains(arg(&damaged)), "the message must name the file: {line}");
        assert!(line.contains("corrupted"), "the message must say corrupted: {line}");
        assert!(line.contains(&format!("record {record}")), "which record: {line}");
        assert!(line.contains(&format!("byte {}", starts[record])), "which byte: {line}");
    }
}

/// A replay carries the content it was recorded on: the level changed on disk since does not
/// change what it plays. Content that does not hash as the replay recorded it (a crafted or
/// damaged replay) is refused before any tick runs, naming both digests.
#[test]
fn a_replay_plays_its_own_content_and_refuses_content_of_another_digest() {
    let dir = Scratch::new("cli-sim", "replay_level_changed");
    let assets = dir.path("assets");
    copy_tree(&workspace_root().join("assets"), &assets);
    let town = fs::read_to_string(workspace_root().join(TOWN)).expect("the town level is there");
    let level = assets.join("levels/town.ron");
    let replay = dir.path("game.fxr");
    let recording =
        ["--assets", arg(&assets), "sim", "--level", arg(&level), "--ticks", "50", "--bots", "2"];
    final_hash(&run_fixstep(&[&recording[..], &["--record", arg(&replay)]].concat()), 50);
    // Nine o'clock becomes a minute past: the same file, other content.
    let changed = town.replacen("start_minute: 540", "start_minute: 541", 1);
    fs::write(&level, &changed).expect("edit");
    let out = run_fixstep(&["--assets", arg(&assets), "replay", arg(&replay), "--verify"]);
    assert!(out.status.success(), "it plays what it carries: {}", stderr(&out));

    // The same replay carrying the changed level.
    let original =
        ReplayFile::<PlayerCommand>::open(fs::read(&replay).expect("written")).expect("reads");
    let carried = original.content_files().expect("unpacks");
    let mut crafted = ContentFiles::new(carried.main.clone());
    for name in carried.names() {
        crafted.insert(name.to_owned(), carried.get(name).expect("listed").to_vec());
    }
    crafted.insert(carried.main.clone(), changed.into_bytes());
    let loaded = fixstep_town::level::load_level(&assets, &level).expect("the changed level");
    let sim = fixstep_town::TownSim::new(std::sync::Arc::new(loaded), 1, 2);
    let recorder = ReplayRecorder::start(Vec::new(), original.header(), &crafted, &sim, u32::MAX)
        .expect("starts");
    let crafted = dir.write("crafted.fxr", recorder.finish().expect("written"));
    let line = one_line_error(&run_fixstep(&["replay", arg(&crafted), "--verify"]));
    assert!(line.contains(arg(&crafted)), "the message must name the replay: {line}");
    assert!(line.contains("the content it carries has digest"), "{line}");
    let digests: Vec<&str> =
        line.split(|c: char| !c.is_ascii_hexdigit()).filter(|word| word.len() == 32).collect();
    assert_eq!(digests.len(), 2, "both digests, 32 hex digits each: {line}");
    assert_ne!(digests[0], digests[1]);
}

/// A replay whose commands no longer give its hashes names the first tick that differs and,
/// from the partial hashes of the keyframe after it, the first subsystem.
#[test]
fn a_replay_that_does_not_verify_names_the_tick_and_the_subsystem() {
    let dir = Scratch::new("cli-sim", "replay_mismatch");
    let replay = dir.path("game.fxr");
    final_hash(&sim(&["--ticks", "200", "--bots", "2", "--record", arg(&replay)]), 200);
    let original =
        ReplayFile::<PlayerCommand>::open(fs::read(&replay).expect("written")).expect("reads");
    let content = original.content_files().expect("unpacks");
    let assets = workspace_root().join("assets");
    let level = std::sync::Arc::new(
        fixstep_town::level::load_level(&assets, &workspace_root().join(TOWN)).expect("loads"),
    );
    let mut sim = fixstep_town::TownSim::new(std::sync::Arc::clone(&level), 1, 2);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), original.header(), &content, &sim, 100).expect("starts");
    let mut cursor = original.start().expect("a start");
    let mut truth = fixstep_town::TownSim::new(level, 1, 2);
    while let Some(step) = original.step(&mut cursor, &mut truth).expect("plays") {
        let ReplayStep::Tick(played) = step else { continue };
        // Player 0 turns hard and walks at tick 100, which the recording did not do.
        let mut record = played.record.clone();
        if record.tick == Tick(100) {
            record.commands[0] = PlayerCommand { forward: 100, turn: 8_000, ..Default::default() };
        }
        played.record.run(&mut sim).expect("runs");
        recorder.tick(&record, played.hash, &sim).expect("records");
    }
    let edited = dir.write("edited.fxr", recorder.finish().expect("written"));
    let out = run_fixstep(&["replay", arg(&edited), "--verify"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "a replay that does not verify fails: {err}");
    assert!(err.contains("does not verify: tick 100:"), "the first tick that differs: {err}");
    assert!(
        err.contains(
            "the first subsystem that differs by the keyframe after tick 199 is characters"
        ),
        "{err}"
    );
}

#[test]
fn a_truncated_replay_is_reported_truncated() {
    let dir = Scratch::new("cli-sim", "replay_truncated");
    let bytes = recorded_replay(&dir);
    let last = *record_starts(&bytes).last().expect("records");
    // Cut inside the last record's payload: a recording that stopped mid-write.
    let cut = dir.write("cut.fxr", &bytes[..bytes.len() - 3]);
    let line = one_line_error(&run_fixstep(&["replay", arg(&cut), "--verify"]));
    assert!(line.contains(arg(&cut)), "the message must name the file: {line}");
    assert!(line.contains("truncated"), "the message must say truncated: {line}");
    let records = record_starts(&bytes).len();
    assert!(line.contains(&format!("record {}", records - 1)), "which record: {line}");
    assert!(line.contains(&format!("byte {last}")), "which byte: {line}");
}

#[test]
fn a_file_that_is_not_a_replay_is_reported_as_such() {
    let dir = Scratch::new("cli-sim", "not_a_replay");
    let text = dir.write("notes.txt", "these are notes, not a replay\n");
    let line = one_line_error(&run_fixstep(&["replay", arg(&text), "--verify"]));
    assert!(line.contains(arg(&text)), "the message must name the file: {line}");
    assert!(line.to_lowercase().contains("not a fixstep replay"), "{line}");
}

// --- Command scripts -------------------------------------------------------------------------

#[test]
fn a_command_script_drives_player_0_deterministically() {
    let dir = Scratch::new("cli-sim", "script_drives");
    // Walk forward for 50 ticks, then turn an eighth, run, and interact once.
    let script = dir.write(
        "walk.txt",
        "# tick player forward strafe turn flags\n\
         0  0 100 0 0\n\
         50 0 100 0 8192 run\n\
         51 0 100 0 0    run\n\
         80 0 0   0 0    interact\n",
    );
    let still = dir.write("still.txt", "0 0 0 0 0\n");
    let run = |path: &Path| {
        final_hash(&sim(&["--ticks", "200", "--bots", "0", "--commands", arg(path)]), 200)
    };
    let first = run(&script);
    assert_eq!(first, run(&script), "the same script must end on the same hash");
    assert_ne!(first, run(&still), "the script's commands must move player 0");
}

#[test]
fn a_bad_command_script_line_names_the_file_and_the_line() {
    let dir = Scratch::new("cli-sim", "script_bad_line");
    // Line 4: forward 200 is out of the -100..=100 range.
    let script = dir.write("bad.txt", "# a walk\n0 0 100 0 0\n\n10 0 200 0 0\n");
    let line = one_line_error(&sim(&["--ticks", "20", "--commands", arg(&script)]));
    assert!(line.contains(arg(&script)), "the message must name the script: {line}");
    assert!(line.contains("line 4"), "the message must give the line: {line}");
}

#[test]
fn a_script_line_for_a_bot_player_is_refused() {
    let dir = Scratch::new("cli-sim", "script_bot_player");
    let script = dir.write("bot.txt", "0 0 100 0 0\n");
    let line = one_line_error(&sim(&["--ticks", "20", "--bots", "1", "--commands", arg(&script)]));
    assert!(line.contains(arg(&script)), "the message must name the script: {line}");
    assert!(line.contains("player 0 is a bot"), "the message must say why: {line}");
}

// --- Levels, frame times, usage --------------------------------------------------------------

#[test]
fn a_level_with_a_broken_reference_names_the_file_and_line() {
    let dir = Scratch::new("cli-sim", "level_broken");
    let town = fs::read_to_string(workspace_root().join(TOWN)).expect("the town level is there");
    // Rename a waypoint of the plaza taxi's route to one the street graph does not have.
    let route = r#"route: ["b2", "b3", "c3", "c2", "station_stand"]"#;
    let line_no = town
        .lines()
        .position(|l| l.contains(route))
        .expect("the plaza taxi's route is in town.ron")
        + 1;
    let broken = dir.write("town.ron", town.replace(route, &route.replace("\"c2\"", "\"c9\"")));
    let line = one_line_error(&run_fixstep(&["sim", "--level", arg(&broken), "--ticks", "10"]));
    assert!(
        line.contains(&format!("{}:{line_no}:", arg(&broken))),
        "the message must name the copy and line {line_no}: {line}"
    );
    assert!(line.contains("c9"), "the message must name the missing waypoint: {line}");
}

#[test]
fn a_missing_level_file_is_named() {
    let dir = Scratch::new("cli-sim", "level_missing");
    let missing = dir.path("no-such-level.ron");
    let line = one_line_error(&run_fixstep(&["sim", "--level", arg(&missing), "--ticks", "10"]));
    assert!(line.contains(arg(&missing)), "the message must name the file: {line}");
}

#[test]
fn a_bad_frame_times_line_names_the_file_and_line() {
    let dir = Scratch::new("cli-sim", "frame_times_bad");
    // Line 4 is not a number of milliseconds (the comment line counts).
    let times = dir.write("times.txt", "16.7\n# a hitch next\n120\nfast\n16.7\n");
    let line = one_line_error(&sim(&["--ticks", "10", "--frame-times", arg(&times)]));
    assert!(
        line.contains(&format!("{}:4", arg(&times))),
        "the message must name the file and line 4: {line}"
    );
}

#[test]
fn sim_without_ticks_is_a_one_line_usage_error() {
    one_line_error(&run_fixstep(&["sim"]));
}

#[test]
fn sim_without_ticks_names_the_missing_flag() {
    // clap's first line here is "the following required arguments were not provided:", with
    // the arguments on the lines after it, which the one-line form drops.
    let line = one_line_error(&run_fixstep(&["sim"]));
    assert!(
        line.contains("--ticks"),
        "BUG (render/fixstep/src/cli.rs `one_line`): the usage error for a missing required flag does \
         not name the flag, so the user cannot tell what is missing: {line}"
    );
}

// --- The stress level at a scale --------------------------------------------------------------

/// `--level stress:SCALE` is the generated stress level at that scale, the same on every run;
/// `--timing` adds one line of what the ticks, the hash and the state came to; a replay of it
/// carries what makes it again and verifies.
#[test]
fn the_stress_level_runs_at_a_scale_and_says_what_its_ticks_took() {
    let dir = Scratch::new("cli-sim", "stress-scale");
    let replay = dir.path("stress.fxr");
    let run =
        || run_fixstep(&["sim", "--level", "stress:2", "--ticks", "5", "--bots", "2", "--timing"]);
    let (first, second) = (run(), run());
    assert!(first.status.success(), "{}", stderr(&first));
    let said = stdout(&first);
    let mut lines = said.lines();
    let hash_line = lines.next().unwrap_or_default();
    assert!(hash_line.starts_with("tick 5 hash "), "{said}");
    let timing = lines.next().unwrap_or_default();
    for part in ["timing: 5 ticks; tick median ", " ms; state hash median ", "% of the tick)"] {
        assert!(timing.contains(part), "no {part:?} in {timing:?}");
    }
    // The state of 20,000 walkers, 2,000 taxis and 4,000 objects: megabytes.
    let megabytes: f64 = timing
        .rsplit("; state ")
        .next()
        .and_then(|rest| rest.split(" MB").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_default();
    assert!(megabytes > 1.0, "{timing}");
    assert_eq!(stdout(&second).lines().next(), Some(hash_line), "the same level each run");
    let recorded =
        run_fixstep(&["sim", "--level", "stress:2", "--ticks", "5", "--record", arg(&replay)]);
    assert!(recorded.status.success(), "{}", stderr(&recorded));
    let verified = run_fixstep(&["replay", arg(&replay), "--verify"]);
    assert!(verified.status.success(), "{}", stderr(&verified));
}

#[test]
fn a_stress_level_scale_out_of_range_is_named() {
    let out = run_fixstep(&["sim", "--level", "stress:50", "--ticks", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let error = one_line_error(&out);
    assert!(
        error.contains("\"50\": the stress level's scale is a whole number from 1 to 20"),
        "{error}"
    );
}
