//! `fixstep loadtest` against a headless host, as an operator would run it before putting a
//! host on the internet: many players and spectators at once, over real sockets, for long
//! enough that every tick of every player is checked against the host's.

use fixstep_tests::Scratch;
use fixstep_tests::processes::{Hosting, Running, report_number, strs, whole_machine};
use serde_json::Value;

/// Players of the CI run: 32, half of the 64 the bandwidth target names, and as many
/// as a debug build of the generator serves every 2 ms on a 2-core machine beside the host.
const PLAYERS: &str = "32";

/// How long the CI run measures, seconds: 30, three hundred ticks of hash checks.
const SECONDS: &str = "30";

/// A player's wire bytes up a second, at most: 1 KB/s, the target for a good link.
const MAX_UP_BYTES_PER_SECOND: f64 = 1_000.0;

/// A player's wire bytes down a second, at most: 3 KB/s, the target with 64 players (32 of
/// them moving send half as many changes).
const MAX_DOWN_BYTES_PER_SECOND: f64 = 3_000.0;

/// Datagrams a second each way per player, at most: 30, three a tick.
const MAX_DATAGRAMS_PER_SECOND: f64 = 30.0;

/// Thirty-two virtual players (three quarters of them moving) and four spectators play half
/// a minute against a headless host: every one is welcomed, no tick differs from the host's,
/// and each player's link stays within the bandwidth targets. The generator exits 1 on a
/// desync, so `finish` alone would catch one; the report is read to say which target fails.
#[test]
fn thirty_two_players_play_half_a_minute_in_sync_within_the_bandwidth_targets() {
    let _machine = whole_machine();
    let dir = Scratch::new("loadtest", "thirty-two");
    let game = Hosting::direct();
    let mut host_args = game.host_args();
    host_args.extend(["--max-players", PLAYERS, "--max-spectators", "4"].map(str::to_owned));
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("hosting", std::time::Duration::from_secs(60));
    let json = dir.path("load.json");
    let load = Running::start(
        &dir,
        "loadtest",
        &[
            "loadtest",
            &game.entry,
            "--peers",
            PLAYERS,
            "--spectators",
            "4",
            "--moving",
            "75",
            "--duration",
            SECONDS,
            "--json",
            json.to_str().expect("a UTF-8 path"),
        ],
    )
    .finish();
    host.terminate();
    let host = host.finish();
    println!("{}\n{}", load.stdout, host.stdout);
    let text = std::fs::read_to_string(&json).expect("the report is written");
    let report: Value = serde_json::from_str(&text).expect("the report is JSON");
    assert_eq!(report_number(&report, "welcomed"), 32.0, "{}", load.stdout);
    assert_eq!(report_number(&report, "spectators_welcomed"), 4.0, "{}", load.stdout);
    assert_eq!(report_number(&report, "moving"), 24.0);
    assert_eq!(report_number(&report, "desynced_players"), 0.0, "{}", load.stdout);
    assert_eq!(report_number(&report, "differing_ticks"), 0.0, "{}", load.stdout);
    assert!(report["failures"].as_array().is_some_and(Vec::is_empty), "{}", load.stdout);
    // Every player reported a hash of nearly every tick of the half minute.
    let ticks = report_number(&report, "ticks");
    assert!(ticks >= 290.0, "{ticks} ticks arrived in {SECONDS} s\n{}", load.stdout);
    assert!(
        report_number(&report, "hashes_reported") >= 32.0 * 290.0,
        "hashes reported\n{}",
        load.stdout
    );
    let wire = &report["players_wire"];
    let seconds = report_number(wire, "micros") / 1e6 * 32.0;
    let per_player = |key: &str| report_number(wire, key) / seconds;
    let (up, down) = (per_player("bytes_sent"), per_player("bytes_received"));
    assert!(up <= MAX_UP_BYTES_PER_SECOND, "{up:.0} B/s up a player\n{}", load.stdout);
    assert!(down <= MAX_DOWN_BYTES_PER_SECOND, "{down:.0} B/s down a player\n{}", load.stdout);
    for key in ["datagrams_sent", "datagrams_received"] {
        let rate = per_player(key);
        assert!(rate <= MAX_DATAGRAMS_PER_SECOND, "{rate:.1} {key} a second\n{}", load.stdout);
    }
    assert!(host.stdout.contains("desyncs 0"), "the host saw no desync:\n{}", host.stdout);
}
