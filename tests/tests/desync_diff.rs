//! `fixstep desync-diff` on the states of a real desync report, end to end: a game whose peer
//! differs from the host on purpose (`join --perturb-at`) writes the report, and the tool
//! reads it as whoever investigates the desync would.
//!
//! The tool on hand-made arena states is `cli_arena.rs`'s; the report's writing, its summary
//! and the resync are `network.rs`'s.

use std::path::{Path, PathBuf};

use fixstep_netplay::desync::read_state_dump;
use fixstep_runtime::math::Fx;
use fixstep_tests::processes::{Hosting, reports_in, shared_machine};
use fixstep_tests::{Scratch, arg, one_line_error, run_fixstep, stderr, stdout};
use fixstep_town_view::Town;

/// The tick after which the peer moves its character a metre east.
const PERTURBED_TICK: u32 = 120;

/// How many ticks after the perturbation the report's tick may be.
const REPORT_WITHIN_TICKS: u32 = 2;

/// The one report a side wrote, `desync-tick-T-player-P`, and its tick.
fn report_of(reports: &Path) -> (PathBuf, u32) {
    let names = reports_in(reports);
    let [name] = names.as_slice() else { panic!("one report in {}: {names:?}", reports.display()) };
    let tick = name
        .strip_prefix("desync-tick-")
        .and_then(|rest| rest.split('-').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("a report is named by its tick: {name}"));
    (reports.join(name), tick)
}

/// A real desync's report, read back: `host.ron` and `peer.ron` are both states of the town,
/// after the same tick (the one the report is named by), and differ in one field only, the
/// position east of the perturbed player's character, by the metre it was moved.
/// `fixstep desync-diff host.ron peer.ron` lists that field, naming the character and its
/// player, and exits 1; the host's state as the host wrote it and as the peer wrote it agree,
/// which the tool says, exiting 0. A file that is not a state (the report's own summary) and
/// one that is not there are refused in one line naming the file, exit 2, not taken as
/// states that agree.
#[test]
fn desync_diff_lists_the_perturbed_field_of_a_real_report() {
    let _machine = shared_machine();
    let dir = Scratch::new("desync-diff", "perturbed");
    let run =
        Hosting::direct().perturbed_game(&dir, (220, 200), PERTURBED_TICK, REPORT_WITHIN_TICKS);
    let player = run.player;
    let (report, tick) = report_of(&dir.path("host-reports"));
    let (peers_report, peers_tick) = report_of(&dir.path("peer-reports"));
    assert_eq!(tick, peers_tick, "both sides report the same tick");
    let (host_ron, peer_ron) = (report.join("host.ron"), report.join("peer.ron"));

    // The states themselves.
    let read = |path: &Path| {
        read_state_dump::<Town>(path)
            .unwrap_or_else(|e| panic!("{} is a state of the town: {e}", path.display()))
            .1
    };
    let (host, peer) = (read(&host_ron), read(&peer_ron));
    assert_eq!(host.next_tick.0, tick + 1, "the host's state is the one after tick {tick}");
    assert_eq!(peer.next_tick, host.next_tick, "both states are after the same tick");
    let id = host.players[usize::from(u16::try_from(player).expect("a player number"))];
    let (theirs, ours) = (
        host.characters.get(id).expect("the host has the player's character"),
        peer.characters.get(id).expect("the peer has the player's character"),
    );
    assert_eq!(ours.pos.x - theirs.pos.x, Fx::ONE, "the peer's character is a metre east");
    let mut mended = peer.clone();
    if let Some(character) = mended.characters.get_mut(id) {
        character.pos.x = theirs.pos.x;
    }
    assert!(mended == host, "the states differ in that field alone");

    // The tool on them.
    let out = run_fixstep(&["desync-diff", arg(&host_ron), arg(&peer_ron)]);
    let listed = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "they differ: {listed}{}", stderr(&out));
    let line = format!("characters.values[{}].pos.x: ", id.index);
    let named = format!("(character {id} (player {player}))");
    assert_eq!(listed.lines().count(), 1, "one difference: {listed}");
    assert!(
        listed.starts_with(&line) && listed.trim_end().ends_with(&named),
        "the difference is the character's position east, named {named}: {listed}"
    );

    // The host's state, as the host and as the peer wrote it, agrees.
    let out = run_fixstep(&["desync-diff", arg(&host_ron), arg(&peers_report.join("host.ron"))]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "the states are equal\n");

    // What is not a state is refused, named.
    let summary = report.join("summary.txt");
    let line = one_line_error(&run_fixstep(&["desync-diff", arg(&summary), arg(&peer_ron)]));
    assert!(line.contains(&format!("{}:", summary.display())), "names the file: {line}");
    assert!(line.contains("not a state of town"), "says what it is not: {line}");
    let nowhere = dir.path("nowhere.ron");
    let line = one_line_error(&run_fixstep(&["desync-diff", arg(&host_ron), arg(&nowhere)]));
    assert!(line.contains(arg(&nowhere)), "names the file: {line}");

    // Each report carries the match from the oldest state its writer kept to the tick; run
    // again here, with no assets, each computes the host's hash: the peer was moved by
    // something its commands do not hold.
    let empty = dir.path("no-assets");
    std::fs::create_dir_all(&empty).expect("an empty folder");
    for report in [&report, &peers_report] {
        let replay = report.join("replay.fxr");
        let out = run_fixstep(&["--assets", arg(&empty), "replay", arg(&replay), "--verify"]);
        let said = stdout(&out);
        assert!(out.status.success(), "{said}{}", stderr(&out));
        assert!(
            said.starts_with(&format!("the desync at tick {tick} re-simulated here computes "))
                && said.contains(": the host's hash"),
            "{said}"
        );
        let summary = std::fs::read_to_string(report.join("summary.txt")).expect("a summary");
        assert!(summary.contains("replay.fxr: ticks "), "{summary}");
    }
    // The state it leads to is the host's, field for field, and not the peer's.
    let replay = peers_report.join("replay.fxr");
    let out = run_fixstep(&["--assets", arg(&empty), "desync-diff", arg(&replay)]);
    let said = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{said}{}", stderr(&out));
    let (against_host, against_peer) =
        said.split_once("re-simulated against the peer's").expect("both compared");
    assert!(against_host.contains("the states are equal"), "{said}");
    assert!(against_peer.contains(".pos.x: "), "{said}");
}
