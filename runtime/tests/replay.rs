//! Replays: writing, reading, damage reports and verification.

use crate::common;

use common::{Drift, DriftCommand, scripted_commands};
use fixstep_runtime::replay::{
    REPLAY_FORMAT_VERSION, REPLAY_SIGNATURE, RecordedTick, Replay, ReplayHeader, verify,
};
use fixstep_runtime::{
    ContentDigest, Player, ReplayError, SeatChanges, Simulation, Tick, TickRecord,
};

const PLAYERS: usize = 2;
const SEED: u64 = 99;

/// A replay of 200 ticks of the test simulation, with a hash on every tick.
fn recorded() -> Replay<DriftCommand> {
    let mut sim = Drift::new(SEED, PLAYERS);
    let header = ReplayHeader::of(&sim, "field".to_owned(), SEED).expect("two players");
    let ticks = (0..200)
        .map(|t| {
            let tick = Tick(t);
            let commands = scripted_commands(tick, PLAYERS);
            sim.step(tick, &commands).expect("in order");
            RecordedTick::new(TickRecord::new(tick, commands), Some(&sim.state_hash()))
        })
        .collect();
    Replay { header, ticks }
}

#[test]
fn a_replay_survives_its_file_format() {
    let replay = recorded();
    let bytes = replay.to_bytes().expect("encodes");
    assert_eq!(&bytes[..8], &REPLAY_SIGNATURE);
    assert_eq!(Replay::<DriftCommand>::from_bytes(&bytes).expect("decodes"), replay);
}

#[test]
fn a_recorded_game_verifies() {
    let replay = recorded();
    let mut sim = Drift::new(SEED, PLAYERS);
    let report = verify(&mut sim, &replay).expect("same rules");
    assert_eq!(report.ticks, 200);
    assert_eq!(report.hashes_checked, 200);
    assert_eq!(report.first_mismatch, None);
}

#[test]
fn verification_names_the_first_tick_that_differs() {
    let mut replay = recorded();
    // Player 0's mover exists from tick 0 on, so its turn matters from then.
    replay.ticks[57].fixed.commands[0].turn += 1;
    let mut sim = Drift::new(SEED, PLAYERS);
    let report = verify(&mut sim, &replay).expect("same rules");
    let mismatch = report.first_mismatch.expect("a changed command changes the hash");
    assert_eq!(mismatch.tick, Tick(57));
    assert_eq!(report.ticks, 58);
    assert!(mismatch.to_string().starts_with("tick 57: the replay recorded hash"));
    // The recorded partial hashes name the subsystem: the turn moved a mover.
    assert_eq!(mismatch.subsystems, ["movers"]);
    assert!(
        mismatch.to_string().ends_with("; the first subsystem that differs is movers"),
        "{mismatch}"
    );
}

#[test]
fn a_replay_with_totals_only_still_names_the_tick() {
    let mut replay = recorded();
    for record in &mut replay.ticks {
        record.hash.as_mut().expect("recorded").parts.clear();
    }
    replay.ticks[57].fixed.commands[0].turn += 1;
    let mut sim = Drift::new(SEED, PLAYERS);
    let mismatch = verify(&mut sim, &replay).expect("same rules").first_mismatch.expect("differs");
    assert_eq!(mismatch.tick, Tick(57));
    assert!(mismatch.subsystems.is_empty());
    assert!(mismatch.to_string().contains("no partial hashes"), "{mismatch}");
}

#[test]
fn a_replay_of_changed_content_is_refused_naming_both_digests() {
    let mut replay = recorded();
    let recorded_digest = ContentDigest(0x1234);
    replay.header.level_digest = recorded_digest;
    let mut sim = Drift::new(SEED, PLAYERS);
    let err = verify(&mut sim, &replay).expect_err("other content");
    let found = sim.content_digest();
    assert!(
        matches!(err, ReplayError::ContentMismatch { recorded, found: f } if recorded == recorded_digest && f == found)
    );
    let message = err.to_string();
    assert!(message.contains(&recorded_digest.to_string()), "{message}");
    assert!(message.contains(&found.to_string()), "{message}");
    assert!(message.contains("the level changed"), "{message}");
    assert_eq!(sim.next_tick(), Tick(0), "nothing was simulated");
}

/// A player who joins mid-game is recorded with the tick it joined before; the replay
/// reproduces the join and every hash after it.
#[test]
fn a_player_joining_mid_game_is_recorded_and_verified() {
    let mut sim = Drift::new(SEED, PLAYERS);
    let header = ReplayHeader::of(&sim, "field".to_owned(), SEED).expect("two players");
    let mut ticks = Vec::new();
    for t in 0..120 {
        let tick = Tick(t);
        let seats = if t == 60 { SeatChanges::arrivals(PLAYERS, 1) } else { SeatChanges::NONE };
        seats.apply(&mut sim).expect("room");
        let commands = scripted_commands(tick, sim.players());
        sim.step(tick, &commands).expect("in order");
        let hash = sim.state_hash();
        ticks.push(RecordedTick::new(TickRecord { tick, seats, commands }, Some(&hash)));
    }
    let replay = Replay { header, ticks };
    let replay = Replay::from_bytes(&replay.to_bytes().expect("encodes")).expect("decodes");
    let mut fresh = Drift::new(SEED, PLAYERS);
    let report = verify(&mut fresh, &replay).expect("same rules");
    assert_eq!((report.ticks, report.first_mismatch), (120, None));
    assert_eq!(fresh.players(), PLAYERS + 1);

    // Without the join, tick 60's record has a command too many.
    let mut unjoined = replay.clone();
    unjoined.ticks[60].fixed.seats = SeatChanges::NONE;
    let err = Replay::<DriftCommand>::from_bytes(&unjoined.to_bytes().expect("encodes"))
        .expect_err("three commands for two players");
    assert!(err.to_string().contains("tick 60 has 3 commands for 2 seats"), "{err}");
}

/// A player who leaves frees its seat at a recorded tick, and a newcomer takes it later: the
/// replay reproduces both (the departed player's mover gone from the field, the newcomer's
/// commands in the same seat) and every hash; a record that frees a seat past the last, or
/// seats a player beyond the next, is refused naming its tick.
#[test]
fn a_seat_freed_and_taken_again_is_recorded_and_verified() {
    let mut sim = Drift::new(SEED, PLAYERS);
    let header = ReplayHeader::of(&sim, "field".to_owned(), SEED).expect("two players");
    let mut ticks = Vec::new();
    for t in 0..150 {
        let tick = Tick(t);
        let seats = match t {
            70 => SeatChanges { freed: vec![Player(0)], joined: vec![] },
            110 => SeatChanges { freed: vec![], joined: vec![Player(0)] },
            _ => SeatChanges::NONE,
        };
        seats.apply(&mut sim).expect("a seat to free and take");
        let mut commands = scripted_commands(tick, sim.players());
        if (70..110).contains(&t) {
            commands[0] = DriftCommand::default();
        }
        sim.step(tick, &commands).expect("in order");
        let hash = sim.state_hash();
        ticks.push(RecordedTick::new(TickRecord { tick, seats, commands }, Some(&hash)));
    }
    assert_eq!(sim.players(), PLAYERS, "the seat was taken again, not added");
    let replay = Replay { header, ticks };
    let replay = Replay::from_bytes(&replay.to_bytes().expect("encodes")).expect("decodes");
    let report = verify(&mut Drift::new(SEED, PLAYERS), &replay).expect("same rules");
    assert_eq!((report.ticks, report.first_mismatch), (150, None));

    let mut past = replay.clone();
    past.ticks[70].fixed.seats.freed = vec![Player(2)];
    let err = Replay::<DriftCommand>::from_bytes(&past.to_bytes().expect("encodes"))
        .expect_err("no seat 2");
    assert!(err.to_string().contains("tick 70 frees or takes seats that 2 seats"), "{err}");
    let mut beyond = replay;
    beyond.ticks[110].fixed.seats.joined = vec![Player(3)];
    let err = Replay::<DriftCommand>::from_bytes(&beyond.to_bytes().expect("encodes"))
        .expect_err("seat 2 skipped");
    assert!(err.to_string().contains("tick 110 frees or takes seats"), "{err}");
}

#[test]
fn every_truncation_is_reported_as_truncated_with_its_record() {
    let bytes = recorded().to_bytes().expect("encodes");
    let mut last_record = 0;
    for len in 0..bytes.len() {
        match Replay::<DriftCommand>::from_bytes(&bytes[..len]) {
            Err(ReplayError::NotAReplay) => assert!(len < REPLAY_SIGNATURE.len()),
            Err(ReplayError::ReplayTruncated { record, offset, missing }) => {
                assert!(record >= last_record, "records are reported in order");
                last_record = record;
                assert!(offset as usize <= len && missing > 0);
            }
            // A cut exactly between two records is a shorter, valid replay.
            Ok(replay) => assert!(replay.ticks.len() < 200),
            Err(other) => panic!("cut at {len}: {other}"),
        }
    }
    assert_eq!(last_record, 200, "the last record can be cut too");
}

#[test]
fn a_flipped_byte_is_reported_as_corruption_where_it_is() {
    let bytes = recorded().to_bytes().expect("encodes");
    // Flip one byte inside every record's payload in turn, from the header on.
    let mut offset = 10;
    let mut record = 0;
    while offset < bytes.len() {
        let length = u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap()) as usize;
        let mut damaged = bytes.clone();
        damaged[offset + 12 + length / 2] ^= 0x40;
        let err = Replay::<DriftCommand>::from_bytes(&damaged).expect_err("damage is seen");
        assert!(
            matches!(err, ReplayError::ReplayCorrupted { record: r, offset: o } if r == record && o == offset as u64),
            "record {record}: {err}"
        );
        offset += 12 + length;
        record += 1;
    }
    let message = Replay::<DriftCommand>::from_bytes(&{
        let mut d = bytes.clone();
        d[14] ^= 1; // the header record's checksum field
        d
    })
    .expect_err("damaged checksum")
    .to_string();
    assert_eq!(message, "replay is corrupted: record 0 at byte 10 fails its checksum");
}

#[test]
fn a_newer_format_is_refused_with_both_versions() {
    let mut bytes = recorded().to_bytes().expect("encodes");
    bytes[8..10].copy_from_slice(&(REPLAY_FORMAT_VERSION + 1).to_le_bytes());
    let err = Replay::<DriftCommand>::from_bytes(&bytes).expect_err("newer");
    assert_eq!(err.to_string(), "replay format version 5 is newer than this build reads (up to 4)");
}

#[test]
fn an_older_format_is_refused_with_both_versions() {
    let mut bytes = recorded().to_bytes().expect("encodes");
    bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
    let err = Replay::<DriftCommand>::from_bytes(&bytes).expect_err("older");
    assert_eq!(
        err.to_string(),
        "replay format version 1 is older than this build reads (version 4): record it again"
    );
}

#[test]
fn a_replay_of_other_rules_is_refused_before_simulating() {
    let mut replay = recorded();
    replay.header.sim_version = Drift::VERSION + 1;
    let mut sim = Drift::new(SEED, PLAYERS);
    let err = verify(&mut sim, &replay).expect_err("other rules");
    assert_eq!(
        err.to_string(),
        "replay was recorded by simulation version 9; this build runs version 8"
    );
    assert_eq!(sim.next_tick(), Tick(0), "nothing was simulated");
}

/// A replay names the simulation that recorded it: another game's is refused by name, and
/// its header can be read alone, before its commands are decoded as anyone's.
#[test]
fn a_replay_of_another_game_is_refused_naming_both() {
    let mut replay = recorded();
    assert_eq!(replay.header.sim, "Drift");
    let bytes = replay.to_bytes().expect("encodes");
    assert_eq!(ReplayHeader::from_bytes(&bytes).expect("a header"), replay.header);
    replay.header.sim = "OtherSim".to_owned();
    let mut sim = Drift::new(SEED, PLAYERS);
    let err = verify(&mut sim, &replay).expect_err("another game's");
    assert_eq!(
        err.to_string(),
        "replay was recorded by OtherSim, not by Drift: play it with its own game"
    );
    assert_eq!(sim.next_tick(), Tick(0), "nothing was simulated");
    // Read for Drift, the other game's file is refused by its header, before any of its
    // records is decoded as Drift's commands (which could fail as a malformed record or,
    // worse, read as something).
    let bytes = replay.to_bytes().expect("encodes");
    let err = Replay::<DriftCommand>::read_for::<Drift>(&bytes).expect_err("another game's");
    assert!(matches!(err, ReplayError::OtherSimulation { running: "Drift", .. }), "{err}");
    let own = recorded().to_bytes().expect("encodes");
    assert_eq!(Replay::<DriftCommand>::read_for::<Drift>(&own).expect("its own"), recorded());
}

/// Format 2, the last before replays named their game, is refused as older: its header
/// would not read as this one's.
#[test]
fn a_format_2_replay_is_refused_as_older() {
    let mut bytes = recorded().to_bytes().expect("encodes");
    bytes[8..10].copy_from_slice(&2u16.to_le_bytes());
    let err = Replay::<DriftCommand>::from_bytes(&bytes).expect_err("older");
    assert!(matches!(err, ReplayError::OlderReplayFormat { found: 2, supported: 4 }), "{err}");
    assert!(matches!(ReplayHeader::from_bytes(&bytes), Err(ReplayError::OlderReplayFormat { .. })));
}

/// Format 3, the last whose records counted joins (each a new seat) instead of naming the
/// seats freed and taken, is refused as older: its tick records would not read as this one's.
#[test]
fn a_format_3_replay_is_refused_as_older() {
    let mut bytes = recorded().to_bytes().expect("encodes");
    bytes[8..10].copy_from_slice(&3u16.to_le_bytes());
    let err = Replay::<DriftCommand>::from_bytes(&bytes).expect_err("older");
    assert!(matches!(err, ReplayError::OlderReplayFormat { found: 3, supported: 4 }), "{err}");
}

#[test]
fn a_replay_for_another_player_count_is_refused() {
    let replay = recorded();
    let mut sim = Drift::new(SEED, 3);
    assert!(matches!(
        verify(&mut sim, &replay),
        Err(ReplayError::ReplayPlayers { found: 2, expected: 3 })
    ));
}

#[test]
fn records_out_of_tick_order_or_with_the_wrong_player_count_are_malformed() {
    let mut replay = recorded();
    replay.ticks.swap(3, 4);
    let bytes = replay.to_bytes().expect("encodes");
    let err = Replay::<DriftCommand>::from_bytes(&bytes).expect_err("out of order");
    assert!(matches!(err, ReplayError::ReplayMalformed { record: 4, .. }), "{err}");
    assert!(err.to_string().contains("it is tick 4, where tick 3 comes next"), "{err}");

    let mut replay = recorded();
    replay.ticks[9].fixed.commands.pop();
    let bytes = replay.to_bytes().expect("encodes");
    let err = Replay::<DriftCommand>::from_bytes(&bytes).expect_err("short");
    assert!(err.to_string().contains("tick 9 has 1 commands for 2 seats"), "{err}");
}

#[test]
fn garbage_is_not_a_replay() {
    assert!(matches!(
        Replay::<DriftCommand>::from_bytes(b"hello world"),
        Err(ReplayError::NotAReplay)
    ));
    assert!(matches!(Replay::<DriftCommand>::from_bytes(&[]), Err(ReplayError::NotAReplay)));
}
