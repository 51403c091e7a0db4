//! A public server's seats, end to end: players who left free their seats after a grace
//! period, so that passers-by never fill a server for good.
//!
//! The seats' rules are unit-tested without sockets in `runtime/tests/net_lockstep.rs`, and
//! the characters that leave with them in `game/town/tests/seats.rs`.

use std::time::Duration;

use fixstep_tests::edges::ticks_logged;
use fixstep_tests::processes::{Hosting, Running, shared_machine, strs};
use fixstep_tests::{Scratch, arg, workspace_root};
use serde_json::Value;

/// The seats of the host: three.
const SEATS: usize = 3;

/// The players who come and go, one after another.
const PLAYERS: usize = 20;

/// How long a departed player's seat is kept, seconds.
const GRACE_S: u64 = 2;

/// How long each player plays, ticks: a second and a half. With the grace of two seconds, at
/// most two seats are kept for those who left when the next comes, so the host's three seats
/// always have room; the test shows they are freed, not that the host has many.
const PLAY_TICKS: u32 = 15;

/// The characters of the open ground level who are nobody's: its mayor.
const NPCS: usize = 1;

/// How long a process may take to start, be welcomed and play, seconds: a debug build on a
/// busy machine.
const PLAYER_S: u64 = 60;

/// A host of three seats that keeps a departed player's seat for two seconds admits twenty
/// players with twenty names, joining and leaving one after another: none is refused, each
/// takes one of the three seats, and each seat is freed two seconds after its player left.
/// The host's world never holds more than three players' characters, and once the last seat
/// is freed it holds none.
#[test]
fn a_host_of_three_seats_admits_twenty_players_one_after_another() {
    let _machine = shared_machine();
    let dir = Scratch::new("seats", "twenty");
    let game = Hosting::direct();
    let (host_log, truth) = (dir.path("host.hashes"), dir.path("truth.jsonl"));
    let level = workspace_root().join("tests/levels/open_ground.ron");
    let mut host_args = game.host_args();
    let seats = SEATS.to_string();
    let grace = GRACE_S.to_string();
    host_args.extend(
        [
            "--level",
            arg(&level),
            "--max-players",
            &seats,
            "--seat-grace",
            &grace,
            "--hash-log",
            arg(&host_log),
            "--truth-log",
            arg(&truth),
        ]
        .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("hosting", Duration::from_secs(PLAYER_S));
    for player in 0..PLAYERS {
        let name = format!("passer-by-{player}");
        let until = (ticks_logged(&host_log) + PLAY_TICKS).to_string();
        let args = ["--name", &name, "--ticks", &until, "--level", arg(&level)];
        let peer = game.bot_peer(&dir, &name, &args);
        let said = peer.finish();
        assert!(said.stdout.contains("desync none"), "{name}: {}", said.stdout);
    }
    let last_left = ticks_logged(&host_log);
    let freed_by = last_left + u32::try_from(GRACE_S * 10).unwrap_or(u32::MAX) + 10;
    while ticks_logged(&host_log) < freed_by {
        std::thread::sleep(Duration::from_millis(50));
    }
    host.terminate();
    let said = host.finish().stderr;
    let joined: Vec<&str> = said.lines().filter(|l| l.contains(" joined as player ")).collect();
    assert_eq!(joined.len(), PLAYERS, "every one admitted:\n{said}");
    assert!(!said.contains("refused"), "nobody refused:\n{said}");
    for line in &joined {
        let seat: usize = line.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("a seat");
        assert!(seat < SEATS, "one of the three seats: {line}");
    }
    let freed = said.lines().filter(|l| l.contains("seat (player") && l.ends_with("is free"));
    assert_eq!(freed.count(), PLAYERS, "every seat freed after its grace:\n{said}");
    let characters: Vec<usize> = std::fs::read_to_string(&truth)
        .expect("the truth was written")
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("a truth line is JSON");
            line["entities"].as_array().map_or(0, Vec::len)
        })
        .collect();
    let most = characters.iter().copied().max().unwrap_or(0);
    assert!(most > NPCS, "players were in the world: at most {most}");
    assert!(most <= NPCS + SEATS, "never more than three players' characters: {most}");
    assert_eq!(characters.last().copied(), Some(NPCS), "none once the last seat is freed");
}
