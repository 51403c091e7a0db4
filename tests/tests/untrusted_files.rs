//! Files nobody vouches for, given to every command that reads one: `/dev/zero`, a FIFO and a
//! 10 GiB sparse file each end the run at once in one line naming the file, exit code 2,
//! under 300 MB of resident memory (measured from outside, by `wait4`). And inputs at their
//! kind's limit, built to take the most memory a byte of them can, stay under it too.

use fixstep_runtime::TickRecord;
use fixstep_runtime::replay::{REPLAY_FILE, RecordedBy, ReplayHeader, ReplayRecorder};
use fixstep_tests::processes::shared_machine;
use fixstep_tests::untrusted::{MAX_PEAK_RSS_KB, Measured, hostile_files, run_measured};
use fixstep_tests::{Scratch, arg, one_line_error, run_fixstep};
use fixstep_town::PlayerCommand;

/// Every command line that reads a file, with `{}` where the file goes; `{dir}` is a scratch
/// directory and `{drawn}` a valid drawn log in it.
const READERS: &[&[&str]] = &[
    &["sim", "--ticks", "1", "--level", "{}"],
    &["sim", "--ticks", "1", "--commands", "{}"],
    &["sim", "--ticks", "1", "--input-script", "{}"],
    &["sim", "--ticks", "1", "--frame-times", "{}"],
    &["--game", "arena", "sim", "--ticks", "1", "--level", "{}"],
    &["sync-test", "--ticks", "1", "--level", "{}"],
    &["sync-test", "--ticks", "1", "--commands", "{}"],
    &["replay", "{}", "--info"],
    &["replay", "{}", "--verify"],
    &["trace", "--in", "{}", "--out", "{dir}/drawn-out.jsonl"],
    &["judder", "{}", "--truth", "{drawn}"],
    &["judder", "{drawn}", "--truth", "{}"],
    &["desync-diff", "{}", "{drawn}"],
    &["screenshot", "--tick", "1", "--level", "{}", "--out", "{dir}/shot.png"],
    &["screenshot", "--tick", "1", "--commands", "{}", "--out", "{dir}/shot.png"],
    &["play", "--level", "{}"],
    &["host", "--headless", "--ticks", "1", "--level", "{}"],
    &["host", "--headless", "--ticks", "1", "--password-file", "{}"],
    &["host", "--headless", "--ticks", "1", "--input-script", "{}"],
    &["join", "127.0.0.1:9", "--headless", "--ticks", "1", "--level", "{}"],
    &["join", "127.0.0.1:9", "--headless", "--ticks", "1", "--password-file", "{}"],
    &["join", "127.0.0.1:9", "--headless", "--ticks", "1", "--input-script", "{}"],
    &["spectate", "127.0.0.1:9", "--headless", "--ticks", "1", "--level", "{}"],
    &["spectate", "127.0.0.1:9", "--headless", "--ticks", "1", "--password-file", "{}"],
    &["loadtest", "127.0.0.1:9", "--peers", "1", "--level", "{}"],
    &["loadtest", "127.0.0.1:9", "--peers", "1", "--password-file", "{}"],
];

/// Asserts `run` ended as a refused input does, in one line naming `file`, within the memory
/// bound; `what` says which run it was.
fn assert_refused(run: &Measured, file: &str, what: &str) {
    let line = one_line_error(&run.output);
    assert!(line.contains(file), "{what}: the line must name {file}: {line}");
    assert!(
        run.peak_kb < MAX_PEAK_RSS_KB,
        "{what}: {} kB of resident memory, over {MAX_PEAK_RSS_KB} kB",
        run.peak_kb
    );
}

#[test]
fn every_reading_command_refuses_a_device_a_fifo_and_a_huge_file_in_one_line() {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let dir = Scratch::new("untrusted-files", "hostile");
    let drawn = dir.write("drawn.jsonl", "{\"at_ms\":0.0,\"render_tick\":0.0,\"entities\":[]}\n");
    let scratch = arg(dir.dir()).to_owned();
    for (name, file) in hostile_files(&dir) {
        for reader in READERS {
            let args: Vec<String> = reader
                .iter()
                .map(|a| {
                    a.replace("{}", arg(&file))
                        .replace("{dir}", &scratch)
                        .replace("{drawn}", arg(&drawn))
                })
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = run_measured(&dir, &args);
            println!("{} kB: {name} to `fixstep {}`", run.peak_kb, args.join(" "));
            assert_refused(&run, arg(&file), &format!("{name} to `fixstep {}`", args.join(" ")));
        }
    }
}

#[test]
fn the_refusals_say_what_the_file_is_and_the_limit_of_its_kind() {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let dir = Scratch::new("untrusted-files", "words");
    let [(_, zero), (_, fifo), (_, sparse)] = hostile_files(&dir);
    let said = |file: &std::path::Path| {
        one_line_error(&run_fixstep(&["sim", "--ticks", "1", "--level", arg(file)]))
    };
    assert!(said(&zero).ends_with("/dev/zero: a character device, not a file"));
    assert!(said(&fifo).ends_with(&format!("{}: a FIFO, not a file", arg(&fifo))));
    assert!(
        said(&sparse)
            .ends_with(&format!("{}: 10 GB is over the 1 MB a level file may be", arg(&sparse))),
        "{}",
        said(&sparse)
    );
}

/// A replay at its limit made of the records that take the most memory per byte: ticks of no
/// players, each the smallest record there is (ten bytes, for five of index).
fn heaviest_replay() -> Vec<u8> {
    let assets = fixstep_tests::workspace_root().join("assets");
    let level = fixstep_town::level::load_level(&assets, &assets.join("levels/town.ron"))
        .expect("the town loads");
    let files = std::sync::Arc::clone(&level.files);
    let mut sim = fixstep_town::TownSim::new(std::sync::Arc::new(level), 1, 0);
    let header = ReplayHeader::of(&sim, "town", Some(1), RecordedBy::Local, 0);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header, &files, &sim, u32::MAX).expect("starts");
    let start = recorder.next_tick();
    let record = TickRecord::new(start, Vec::<PlayerCommand>::new());
    record.run(&mut sim).expect("runs");
    recorder.tick(&record, 0, &sim).expect("records");
    let mut bytes = recorder.finish().expect("written");
    // The last record is a tick; ticks are numbered by their place, so the same bytes again
    // are the next tick.
    let tick_record = bytes[bytes.len() - 10..].to_vec();
    assert_eq!(tick_record[0], 5, "a ten-byte record: its length is 5");
    while (bytes.len() as u64) + 10 <= REPLAY_FILE.limit_bytes {
        bytes.extend_from_slice(&tick_record);
    }
    bytes
}

#[test]
fn a_replay_at_its_limit_that_decodes_to_the_most_memory_stays_under_the_bound() {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let dir = Scratch::new("untrusted-files", "heavy-replay");
    let replay = dir.write("heavy.fxr", heaviest_replay());
    let run = run_measured(&dir, &["replay", arg(&replay), "--info"]);
    assert!(
        run.output.status.success(),
        "it is a replay: {}",
        String::from_utf8_lossy(&run.output.stderr)
    );
    println!(
        "a replay of {} bytes read in {} kB",
        std::fs::metadata(&replay).map_or(0, |m| m.len()),
        run.peak_kb
    );
    assert!(run.peak_kb < MAX_PEAK_RSS_KB, "{} kB to read a replay", run.peak_kb);
}
