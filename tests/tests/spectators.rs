//! Spectators coming and going while a game runs, end to end: `fixstep spectate --headless`
//! with a drawn log, judged against the host's truth log.
//!
//! A spectator there from the start, over a bad link, is `network.rs`'s; the spectator's
//! drawing itself is `render/present`'s.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use fixstep_tests::edges::{CrowdBehindRelay, Ending, ticks_logged, times_said, wait_for_ticks};
use fixstep_tests::processes::{Hosting, Running, shared_machine, strs, whole_machine};
use fixstep_tests::{Scratch, arg};
use fixstep_tools::judder::{TruthLine, read_drawn_log, read_truth};

/// How many ticks the game runs before the first spectator comes: ten seconds, so that the
/// game it joins is well under way (and a spectator drawn from tick 0 is far off).
const JOIN_AFTER_TICKS: u32 = 100;

/// How many ticks each spectator watches at least.
const WATCH_TICKS: u32 = 100;

/// The ticks a spectator may take to start and be welcomed, on top of [`WATCH_TICKS`]: ten
/// seconds, for a debug build on a busy machine. `--ticks` names the game's tick to stop at,
/// so a spectator asked to stop [`WATCH_TICKS`] and these past the tick it came at watches
/// at least [`WATCH_TICKS`].
const WELCOME_TICKS: u32 = 100;

/// How far behind the host's tick at its join a spectator's first frame may draw, ticks: its
/// playout delay, a few ticks on loopback, and the time it took to start. A second.
const FIRST_FRAME_BEHIND_TICKS: f64 = 10.0;

/// How long after its first frame a spectator may take to draw every entity there is, ticks:
/// a second. The host sends what is near the camera first; everything else follows within a
/// few ticks.
const ALL_DRAWN_WITHIN_TICKS: f64 = 10.0;

/// How long a process may take to start and be welcomed, seconds: a debug build on a busy
/// machine.
const WELCOME_S: u64 = 60;

/// The milliseconds of host time in a tick, as the truth log counts them.
const MS_PER_TICK: f64 = 100.0;

/// What a spectator drew, from its drawn log.
struct Watched {
    /// The tick its first frame with anything in it drew.
    first: f64,
    /// The tick its last frame drew.
    last: f64,
    /// Each entity drawn, with the tick of the first frame that drew it.
    first_drawn: BTreeMap<u64, f64>,
}

impl Watched {
    fn read(path: &Path) -> Self {
        let frames = read_drawn_log(path).expect("the drawn log reads");
        let first = frames
            .iter()
            .find(|f| !f.entities.is_empty())
            .map(|f| f.render_tick)
            .unwrap_or_else(|| panic!("{} draws nothing", path.display()));
        let last = frames.last().map_or(f64::NAN, |f| f.render_tick);
        let mut first_drawn = BTreeMap::new();
        for frame in &frames {
            for entity in &frame.entities {
                first_drawn.entry(entity.id).or_insert(frame.render_tick);
            }
        }
        Self { first, last, first_drawn }
    }
}

/// The ids of the entities the truth has at any tick from `from` to `to`.
fn alive(truth: &[TruthLine], from: f64, to: f64) -> BTreeSet<u64> {
    truth
        .iter()
        .filter(|line| (from..=to).contains(&(line.t_ms / MS_PER_TICK)))
        .flat_map(|line| line.entities.iter().map(|e| e.id))
        .collect()
}

/// Checks what spectator `name` drew as `watched` against the host's `truth`: it started at
/// about the host's tick when it came (after the host had run `before` ticks, welcomed by the
/// time it had run `welcomed`), watched its ticks, and drew every entity the truth has over
/// them, those there as it came within a second, and nothing else.
fn assert_watched_from_its_join(
    name: &str,
    watched: &Watched,
    truth: &[TruthLine],
    (before, welcomed, until): (u32, u32, u32),
) {
    let (first, last) = (watched.first, watched.last);
    println!(
        "{name}: came after tick {before}, welcomed by {welcomed}, drew {first:.1} to {last:.1}"
    );
    assert!(
        first >= f64::from(before) - FIRST_FRAME_BEHIND_TICKS && first <= f64::from(welcomed) + 2.0,
        "{name} came after tick {before} and was welcomed by tick {welcomed}, and first drew \
         tick {first}"
    );
    assert!(last - first >= f64::from(WATCH_TICKS - 1), "{name} drew ticks {first} to {last}");
    assert!(last >= f64::from(until - 1), "{name} drew up to tick {last}, asked to {until}");
    let everything = alive(truth, 0.0, f64::INFINITY);
    let drawn: BTreeSet<u64> = watched.first_drawn.keys().copied().collect();
    let strangers: Vec<&u64> = drawn.difference(&everything).collect();
    assert!(strangers.is_empty(), "{name} drew entities the host never had: {strangers:?}");
    let watched_over = alive(truth, first.ceil(), last.floor());
    let missing: Vec<&u64> = watched_over.difference(&drawn).collect();
    assert!(missing.is_empty(), "{name} never drew {missing:?}");
    for id in alive(truth, first.ceil(), first.ceil()) {
        let at = watched.first_drawn[&id];
        assert!(
            at <= first + ALL_DRAWN_WITHIN_TICKS,
            "{name} first drew entity {id} at tick {at}, {:.1} ticks after its first frame",
            at - first
        );
    }
}

/// A spectator that comes ten seconds into a game draws it from the tick it came (a second
/// behind at most), not from the start, and draws every entity of the host's truth, those
/// there as it came within a second. When it has watched and left, it comes back under the
/// same name: the host takes it again, and it watches on from the game's present, drawing
/// every entity again.
#[test]
fn a_spectator_joining_mid_game_draws_everything_from_then_on_and_may_come_back() {
    let _machine = shared_machine();
    let dir = Scratch::new("spectators", "mid-game");
    let game = Hosting::direct();
    let (host_log, truth_log) = (dir.path("host.hashes"), dir.path("truth.jsonl"));
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--hash-log", arg(&host_log), "--truth-log", arg(&truth_log)].map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    wait_for_ticks(&host, &host_log, JOIN_AFTER_TICKS, Duration::from_secs(WELCOME_S));
    let mut sessions = Vec::new();
    for (visit, run) in [(1, "first-visit"), (2, "second-visit")] {
        let drawn = dir.path(&format!("{run}.jsonl"));
        let before = ticks_logged(&host_log);
        let until = before + WELCOME_TICKS + WATCH_TICKS;
        let watch_ticks = until.to_string();
        let spectator = Running::start(
            &dir,
            run,
            &[
                "spectate",
                &game.entry,
                "--headless",
                "--name",
                "watcher",
                "--ticks",
                &watch_ticks,
                "--drawn-log",
                arg(&drawn),
            ],
        );
        wait_until_said(&host, "watcher is watching", visit);
        let welcomed = ticks_logged(&host_log);
        let done = spectator.finish();
        assert!(done.stdout.starts_with("watched "), "{run}'s summary: {}", done.stdout);
        // It has left before it comes back.
        wait_until_said(&host, "watcher (spectator) left", visit);
        sessions.push((run, Watched::read(&drawn), (before, welcomed, until)));
    }
    host.terminate();
    let host = host.finish();
    assert!(!host.stderr.contains("refused"), "the host refused no one:\n{}", host.stderr);
    let truth = read_truth(&truth_log).expect("the truth log reads");
    for (run, watched, joined) in &sessions {
        assert_watched_from_its_join(run, watched, &truth, *joined);
    }
    let (first, second) = (&sessions[0].1, &sessions[1].1);
    assert!(
        second.first > first.last,
        "back, it watches on from the present: it drew to tick {}, then from tick {}",
        first.last,
        second.first
    );
}

/// Waits until `host` has said `what` `times` times.
fn wait_until_said(host: &Running, what: &str, times: usize) {
    let start = std::time::Instant::now();
    while times_said(&host.stderr(), what) < times {
        assert!(
            start.elapsed() < Duration::from_secs(WELCOME_S),
            "the host did not say {what:?} {times} times:\n{}",
            host.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long a spectator told goodbye before it saw anything may take to end, seconds: the
/// host's farewell (two seconds) and a margin for a debug build on a busy machine, well short
/// of the ten it would wait for a first snapshot that never comes.
const GOODBYE_ENDS_S: u64 = 8;

/// A spectator whose host ends the match before the spectator has seen a snapshot of it (a
/// relay drops every datagram the crowd game's snapshots come in) has watched nothing: it
/// fails (exit 1) with one line that names the host and says it ended, printing no summary;
/// not a success with nothing watched.
#[test]
fn a_spectator_told_goodbye_before_its_first_snapshot_fails_saying_so() {
    let _machine = shared_machine();
    let dir = Scratch::new("spectators", "goodbye-unseen");
    let CrowdBehindRelay { relay, host, level } = CrowdBehindRelay::start(&dir, &[]);
    let entry = relay.entry();
    let spectator = Ending::start(
        &dir,
        "watcher",
        &["spectate", &entry, "--headless", "--name", "watcher", "--level", arg(&level)],
    );
    wait_until_said(&host, "watcher is watching", 1);
    host.terminate();
    let done = spectator.end(Duration::from_secs(GOODBYE_ENDS_S));
    println!("the spectator ended after {:?}: {}", done.took, done.stderr);
    let line = done.failed_in_one_line("it fails, having seen nothing");
    assert!(done.stdout.is_empty(), "it watched nothing to sum up: {}", done.stdout);
    // "ended the match", or, when the goodbye shared its datagram with a slice of a snapshot
    // and the relay dropped both, "ended the game, or dropped this peer (its goodbye was
    // lost)": the host's end comes through either way, in netcode's own disconnection.
    assert!(
        line.contains(&format!("the host at {entry} ended the"))
            && line.contains("before its first snapshot"),
        "it says the host, named, ended, and that it saw nothing: {line}"
    );
}

/// The spectator delay under test, seconds.
const DELAY_S: u32 = 5;

/// Ticks the delayed match runs: long enough to watch 15 s of it after the delay.
const DELAYED_MATCH_TICKS: u32 = 250;

/// How far a frame's drawn tick may be past the bound the host's schedule sets, ticks: the
/// frame and the goodbye that line the two clocks up are each a frame or two apart.
const SCHEDULE_SLACK_TICKS: f64 = 1.0;

/// A host told `--spectator-delay 5` holds its spectator five seconds behind: read from the
/// spectator's drawn log against the host's schedule (tick `t` runs `t` tenths of a second
/// after the first, and the host's last tick is when its goodbye ended the spectator's run),
/// no frame draws a tick newer than the host's tick five seconds before that frame; and the
/// spectator does watch the match, the delay behind. What it records (`--record`) is the
/// match as it watched it: a replay that verifies with no assets, ends the delay before the
/// host's last tick, and hashes at its ticks as the host's log says.
#[test]
fn a_spectator_is_held_behind_by_the_hosts_delay_at_every_frame() {
    let _machine = whole_machine();
    let dir = Scratch::new("spectators", "delayed");
    let game = Hosting::direct();
    let host_log = dir.path("host.hashes");
    let mut host_args = game.host_args();
    let (delay, ticks) = (DELAY_S.to_string(), DELAYED_MATCH_TICKS.to_string());
    host_args.extend(
        ["--bot", "--ticks", &ticks, "--spectator-delay", &delay, "--hash-log", arg(&host_log)]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    let (drawn, record) = (dir.path("delayed.jsonl"), dir.path("watched.fxr"));
    let spectator = Running::start(
        &dir,
        "spectator",
        &[
            "spectate",
            &game.entry,
            "--headless",
            "--name",
            "watcher",
            "--drawn-log",
            arg(&drawn),
            "--record",
            arg(&record),
        ],
    );
    let (host, spectator) = (host.finish(), spectator.finish());
    assert!(host.stderr.contains("watcher is watching"), "{}", host.stderr);
    assert!(spectator.stdout.starts_with("watched "), "{}", spectator.stdout);
    let frames = read_drawn_log(&drawn).expect("the drawn log reads");
    let drawing: Vec<_> = frames.iter().filter(|f| !f.entities.is_empty()).collect();
    let last_at = frames.last().expect("frames").at_ms;
    let delay_ticks = f64::from(DELAY_S * 10);
    let end = f64::from(DELAYED_MATCH_TICKS);
    let mut worst = f64::NEG_INFINITY;
    for frame in &drawing {
        // The host's tick when the frame was drawn, by the host's schedule.
        let host_tick = end - (last_at - frame.at_ms) / MS_PER_TICK;
        let over = frame.render_tick - (host_tick - delay_ticks);
        worst = worst.max(over);
        assert!(
            over <= SCHEDULE_SLACK_TICKS,
            "at {} ms the spectator drew tick {:.1}, with the host at {host_tick:.1}",
            frame.at_ms,
            frame.render_tick
        );
    }
    println!("the spectator drew at most {worst:.2} ticks past the delay's bound");
    let last_drawn = drawing.last().expect("it drew").render_tick;
    assert!(
        last_drawn > end - delay_ticks - 10.0,
        "it watched the match to the delay's end: tick {last_drawn:.1} of {end}"
    );

    let empty = dir.path("no-assets");
    std::fs::create_dir_all(&empty).expect("an empty folder");
    let replay = |args: &[&str]| {
        let mut all = vec!["--assets", arg(&empty), "replay", arg(&record)];
        all.extend_from_slice(args);
        let out = fixstep_tests::run_fixstep(&all);
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        assert!(out.status.success(), "replay {args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let verified = replay(&["--verify"]);
    assert!(verified.contains("hashes match"), "{verified}");
    let summary = replay(&["--info"]);
    assert!(summary.contains("recorded by a spectator"), "{summary}");
    let host_hashes = fixstep_tests::processes::hash_log(&host_log);
    let held_back = DELAYED_MATCH_TICKS - DELAY_S * 10;
    for at in [held_back / 2, held_back - 20] {
        let out = replay(&["--at", &at.to_string(), "--hash"]);
        assert_eq!(out, format!("{at} {}\n", host_hashes[&at]), "tick {at}");
    }
    // "ticks FIRST to END": END is the tick after the last it holds.
    let end: u32 = summary
        .split(" to ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|t| t.parse().ok())
        .expect("the summary's end tick");
    assert!(end <= held_back, "it recorded up to tick {end}, past the delay's {held_back}");
    assert!(end + 20 >= held_back, "it recorded to the delay's end: tick {end} of {held_back}");
}
