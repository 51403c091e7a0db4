//! End-to-end runs of `fixstep sim` and `fixstep replay`: the final hash and its
//! repeatability, the hash log, recording and verifying replays, damaged replays, command
//! scripts, bad levels, bad frame times and bad usage. Each error must be one line on standard
//! error with exit code 2, naming the file (and line) at fault, so a script or a person can act
//! on it without a stack trace.

use std::fs;
use std::path::Path;
use std::process::Output;

use fixstep_runtime::replay::Replay;
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
    assert!(text.contains("600 ticks"), "{text}");
    assert!(text.contains("600 hashes match"), "every recorded hash must be checked: {text}");
    assert!(text.contains(&printed), "the final hash of the recording is reproduced: {text}");

    let out = run_fixstep(&["replay", arg(&replay)]);
    assert!(out.status.success(), "describing failed:\n{}", stderr(&out));
    let text = stdout(&out);
    // The header names the level by its path under the assets, so it verifies anywhere.
    for fact in ["replay of levels/town.ron", "seed 1", "4 players", "600 ticks"] {
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
    assert!(text.contains("300 hashes match"), "{text}");
    assert!(text.contains(&printed), "{text}");
}

#[test]
fn a_replay_verifies_from_another_working_directory() {
    let dir = Scratch::new("cli-sim", "replay_elsewhere");
    let replay = dir.path("game.fxr");
    let printed =
        final_hash(&sim(&["--ticks", "100", "--bots", "2", "--record", arg(&replay)]), 100);
    // A replay is a file to hand to someone else: verifying it must not depend on the working
    // directory it was recorded in. The assets are named explicitly, so only the replay's own
    // reference to its level is at stake.
    let assets = workspace_root().join("assets");
    let out = std::process::Command::new(fixstep_binary())
        .args(["--assets", arg(&assets), "replay", arg(&replay), "--verify"])
        .current_dir(dir.dir())
        .output()
        .expect("the fixstep binary starts");
    assert!(
        out.status.success() && stdout(&out).contains(&printed),
        "BUG (render/fixstep/src/commands/sim.rs `Stepper::new`): the replay header stores \
         the --level path as typed (relative to the recording's working directory) instead of \
         the level's name under assets/, so the replay does not verify from another directory \
         even with --assets: {}",
        stderr(&out).trim_end()
    );
}

/// Where each record of a replay starts (its length field), from the file format in
/// `runtime/src/replay.rs`: an 8-byte signature, a u16 version, then records of a u32 length,
/// a u64 checksum and the payload.
fn record_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 10;
    while at < bytes.len() {
        starts.push(at);
        let length = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        at += 12 + length as usize;
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
    assert_eq!(starts.len(), 601, "a header and 600 ticks");
    // The first payload byte of tick 299's record (record 300; the header is record 0).
    let record = 300;
    bytes[starts[record] + 12] ^= 0x5a;
    let damaged = dir.write("damaged.fxr", &bytes);
    for verify in [true, false] {
        let mut args = vec!["replay", arg(&damaged)];
        if verify {
            args.push("--verify");
        }
        let line = one_line_error(&run_fixstep(&args));
        assert!(line.contains(arg(&damaged)), "the message must name the file: {line}");
        assert!(line.contains("corrupted"), "the message must say corrupted: {line}");
        assert!(line.contains(&format!("record {record}")), "which record: {line}");
        assert!(line.contains(&format!("byte {}", starts[record])), "which byte: {line}");
    }
}

/// A replay is checked against the content of the level it names, not its path: re-simulated
/// on a level that changed since, it is refused before any tick runs, with the digest the
/// replay recorded and the digest of the level now.
#[test]
fn a_replay_of_a_changed_level_is_refused_naming_both_digests() {
    let dir = Scratch::new("cli-sim", "replay_level_changed");
    // A replay names its level under the assets: a copy of them to change the level in.
    let assets = dir.path("assets");
    copy_tree(&workspace_root().join("assets"), &assets);
    let town = fs::read_to_string(workspace_root().join(TOWN)).expect("the town level is there");
    let level = assets.join("levels/town.ron");
    let replay = dir.path("game.fxr");
    let recording =
        ["--assets", arg(&assets), "sim", "--level", arg(&level), "--ticks", "50", "--bots", "2"];
    final_hash(&run_fixstep(&[&recording[..], &["--record", arg(&replay)]].concat()), 50);
    let out = run_fixstep(&["--assets", arg(&assets), "replay", arg(&replay), "--verify"]);
    assert!(
        out.status.success(),
        "the unchanged level verifies:
{}",
        stderr(&out)
    );

    // Nine o'clock becomes a minute past: the same file, other content.
    fs::write(&level, town.replacen("start_minute: 540", "start_minute: 541", 1)).expect("edit");
    let line = one_line_error(&run_fixstep(&[
        "--assets",
        arg(&assets),
        "replay",
        arg(&replay),
        "--verify",
    ]));
    assert!(line.contains(arg(&replay)), "the message must name the replay: {line}");
    assert!(line.contains("the level changed since the replay was recorded"), "{line}");
    let digests: Vec<&str> =
        line.split(|c: char| !c.is_ascii_hexdigit()).filter(|word| word.len() == 32).collect();
    assert_eq!(digests.len(), 2, "both digests, 32 hex digits each: {line}");
    assert_ne!(digests[0], digests[1]);
}

/// A replay whose commands no longer give its hashes names the first tick that differs and,
/// from the partial hashes it recorded, the first subsystem.
#[test]
fn a_replay_that_does_not_verify_names_the_tick_and_the_subsystem() {
    let dir = Scratch::new("cli-sim", "replay_mismatch");
    let mut replay = Replay::<PlayerCommand>::from_bytes(&recorded_replay(&dir)).expect("reads");
    // Player 0 turns hard and walks at tick 100, which the recording did not do.
    replay.ticks[100].fixed.commands[0] =
        PlayerCommand { forward: 100, turn: 8_000, ..PlayerCommand::default() };
    let edited = dir.write("edited.fxr", replay.to_bytes().expect("encodes"));
    let out = run_fixstep(&["replay", arg(&edited), "--verify"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "a replay that does not verify fails: {err}");
    assert!(err.contains("does not verify: tick 100:"), "the first tick that differs: {err}");
    assert!(err.contains("the first subsystem that differs is characters"), "{err}");
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
    assert!(line.contains("record 600"), "which record: {line}");
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
