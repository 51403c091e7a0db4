//! Replays: recording, reading, seeking, damage reports and verification.

use crate::common;

use common::{Drift, DriftCommand, scripted_commands};
use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::replay::{
    REPLAY_FORMAT_VERSION, REPLAY_SIGNATURE, RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder,
    ReplayStep, RosterChange, RosterEvent, verify,
};
use fixstep_runtime::{
    ContentDigest, Player, ReplayError, SeatChanges, Simulation, Tick, TickRecord,
};

const PLAYERS: usize = 2;
const SEED: u64 = 99;
/// Ticks between keyframes in these tests: several keyframes in a short replay.
const EVERY: u32 = 50;
/// Ticks of the usual test replay.
const TICKS: u32 = 200;

fn header(sim: &Drift) -> ReplayHeader {
    ReplayHeader::of(sim, "field", Some(SEED), RecordedBy::Local, 0)
}

fn content() -> ContentFiles {
    let mut files = ContentFiles::new("field.ron".to_owned());
    files.insert("field.ron".to_owned(), b"(movers: 20)".to_vec());
    files
}

/// Records `ticks` ticks of the test simulation from a fresh one; `change` may alter what is
/// recorded of a tick (its record) after the simulation ran the true one.
fn record_with(
    ticks: u32,
    mut change: impl FnMut(&mut TickRecord<DriftCommand>),
) -> (Vec<u8>, Vec<u64>) {
    let mut sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    let mut hashes = Vec::new();
    for t in 0..ticks {
        let tick = Tick(t);
        let mut record = TickRecord::new(tick, scripted_commands(tick, PLAYERS));
        record.run(&mut sim).expect("runs");
        let hash = sim.state_hash().total();
        hashes.push(hash);
        change(&mut record);
        recorder.tick(&record, hash, &sim).expect("records");
    }
    (recorder.finish().expect("written"), hashes)
}

fn recorded() -> Vec<u8> {
    record_with(TICKS, |_| {}).0
}

fn open(bytes: &[u8]) -> Result<ReplayFile<DriftCommand>, ReplayError> {
    ReplayFile::open(bytes.to_vec())
}

#[test]
fn a_recorded_game_verifies_and_carries_its_content() {
    let bytes = recorded();
    assert_eq!(&bytes[..8], &REPLAY_SIGNATURE);
    let replay = open(&bytes).expect("reads");
    assert_eq!((replay.first_tick(), replay.end_tick()), (Tick(0), Tick(TICKS)));
    assert_eq!(replay.keyframe_ticks().collect::<Vec<_>>(), [0, 50, 100, 150, 200].map(Tick));
    assert_eq!(replay.content_files().expect("unpacks"), content());
    let mut sim = Drift::new(SEED, PLAYERS);
    let report = verify(&mut sim, &replay).expect("same rules");
    assert_eq!(report.first_mismatch, None);
    assert_eq!(report.ticks, TICKS);
    // Every tick's total, the start's and every later keyframe's.
    assert_eq!(report.hashes_checked, TICKS + 5);
}

/// A tick is its hash and the commands that changed; the state is in keyframes alone.
#[test]
fn a_tick_is_a_few_bytes_and_a_keyframe_holds_the_state() {
    let with_ticks = record_with(TICKS, |_| {}).0.len();
    let sim = Drift::new(SEED, PLAYERS);
    let start = ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY)
        .expect("starts")
        .finish()
        .expect("written")
        .len();
    // The test's commands change every tick: a tick is its frame, its hash and two commands;
    // each of the four keyframes after the start is about the start's size.
    let keyframes = 4 * start;
    let per_tick = (with_ticks - start - keyframes) / TICKS as usize;
    assert!(per_tick < 30, "{per_tick} bytes a tick");
}

#[test]
fn verification_names_the_first_tick_that_differs() {
    // Player 0's mover exists from tick 0 on, so its turn matters from then.
    let (bytes, _) = record_with(TICKS, |r| {
        if r.tick == Tick(57) {
            r.commands[0].turn += 1;
        }
    });
    let replay = open(&bytes).expect("reads");
    let report = verify(&mut Drift::new(SEED, PLAYERS), &replay).expect("same rules");
    let mismatch = report.first_mismatch.expect("a changed command changes the hash");
    assert_eq!(mismatch.tick, Tick(57));
    assert_eq!(report.ticks, 58);
    assert!(mismatch.to_string().starts_with("tick 57: the replay recorded hash"), "{mismatch}");
    // A tick records its total only: the subsystems are named at the next keyframe's state.
    assert_eq!(mismatch.subsystems_at, Tick(99));
    assert_eq!(mismatch.subsystems, ["movers"]);
    assert!(
        mismatch
            .to_string()
            .ends_with("the first subsystem that differs by the keyframe after tick 99 is movers"),
        "{mismatch}"
    );
}

/// A keyframe holds the partial hashes: a state that differs there is named by subsystem.
#[test]
fn a_keyframe_names_the_subsystem_that_differs() {
    let mut sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    let mut twin = Drift::new(SEED, PLAYERS);
    for t in 0..60 {
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        record.run(&mut sim).expect("runs");
        // The twin's player turns once more at tick 49: the keyframe at 50 is the twin's,
        // the ticks' hashes the true ones.
        let mut twin_record = record.clone();
        if t == 49 {
            twin_record.commands[0].turn += 1;
        }
        twin_record.run(&mut twin).expect("runs");
        recorder.tick(&record, sim.state_hash().total(), &twin).expect("records");
    }
    let replay = open(&recorder.finish().expect("written")).expect("reads");
    let report = verify(&mut Drift::new(SEED, PLAYERS), &replay).expect("same rules");
    let mismatch = report.first_mismatch.expect("the keyframe differs");
    assert_eq!(mismatch.tick, Tick(49));
    assert_eq!(mismatch.subsystems, ["movers"]);
    assert!(mismatch.to_string().ends_with("the first subsystem that differs is movers"));
}

/// Seeking reaches every tick with the state a run from the start has there, from any state
/// the simulation was in, and runs at most a keyframe interval of ticks to get there.
#[test]
fn a_seek_reaches_any_tick_with_the_state_of_a_whole_run() {
    let (bytes, hashes) = record_with(TICKS, |_| {});
    let replay = open(&bytes).expect("reads");
    let mut sim = Drift::new(SEED, PLAYERS);
    for target in [199, 3, 120, 50, 49, 0, 200, 151] {
        replay.seek(&mut sim, Tick(target)).expect("in the replay");
        assert_eq!(sim.next_tick(), Tick(target));
        let expected = match target {
            0 => Drift::new(SEED, PLAYERS).state_hash().total(),
            t => hashes[t as usize - 1],
        };
        assert_eq!(sim.state_hash().total(), expected, "tick {target}");
    }
    // A cursor goes on from a seek, tick by tick.
    let mut cursor = replay.seek(&mut sim, Tick(120)).expect("in the replay");
    let Some(ReplayStep::Tick(played)) = replay.step(&mut cursor, &mut sim).expect("runs") else {
        panic!("a tick comes next");
    };
    assert_eq!((played.record.tick, played.hash), (Tick(120), hashes[120]));
    let past = replay.seek(&mut sim, Tick(TICKS + 1)).expect_err("past the end");
    assert_eq!(past.to_string(), "tick 201 is not in the replay, which holds ticks 0 to 200");
}

/// A player who joins a running match records from the state it was welcomed with: its
/// replay starts there, and verifies from that keyframe.
#[test]
fn a_replay_that_starts_late_verifies_from_its_first_keyframe() {
    let mut sim = Drift::new(SEED, PLAYERS);
    for t in 0..40 {
        TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS)).run(&mut sim).expect("runs");
    }
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    for t in 40..100 {
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        record.run(&mut sim).expect("runs");
        recorder.tick(&record, sim.state_hash().total(), &sim).expect("records");
    }
    let replay = open(&recorder.finish().expect("written")).expect("reads");
    assert_eq!((replay.first_tick(), replay.end_tick()), (Tick(40), Tick(100)));
    let mut fresh = Drift::new(SEED, PLAYERS);
    let report = verify(&mut fresh, &replay).expect("same rules");
    assert_eq!((report.ticks, report.first_mismatch), (60, None));
    assert_eq!(report.final_hash, sim.state_hash());
}

/// A player whose state the host replaced after a desync records the state it was sent: a
/// reader restores it where it came, and the ticks it ran again after it follow.
#[test]
fn a_replaced_state_is_restored_where_it_came() {
    let mut host = Drift::new(SEED, PLAYERS);
    let mut peer = Drift::new(SEED, PLAYERS);
    let mut recorder = ReplayRecorder::start(Vec::new(), &header(&peer), &content(), &peer, EVERY)
        .expect("starts");
    let mut host_states = Vec::new();
    for t in 0..90 {
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        record.run(&mut host).expect("runs");
        host_states.push(host.state.clone());
        record.run(&mut peer).expect("runs");
        if t == 30 {
            // The peer goes astray.
            peer.state.rng = fixstep_runtime::rng::SimRng::new(7, 7);
        }
        recorder.tick(&record, peer.state_hash().total(), &peer).expect("records");
    }
    // The host's state at tick 80 replaces the peer's, which runs ticks 80.. again.
    peer.restore(&host_states[79]);
    recorder.replaced(&peer).expect("records");
    for t in 80..120 {
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        if t >= 90 {
            record.run(&mut host).expect("runs");
        }
        record.run(&mut peer).expect("runs");
        recorder.tick(&record, peer.state_hash().total(), &peer).expect("records");
    }
    let replay = open(&recorder.finish().expect("written")).expect("reads");
    assert_eq!(replay.end_tick(), Tick(120));
    let mut sim = Drift::new(SEED, PLAYERS);
    replay.seek(&mut sim, Tick(100)).expect("after the resync");
    let mut straight = Drift::new(SEED, PLAYERS);
    for t in 0..100 {
        TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS))
            .run(&mut straight)
            .expect("runs");
    }
    assert_eq!(sim.state_hash(), straight.state_hash(), "the host's path after the resync");
    replay.seek(&mut sim, Tick(120)).expect("the end");
    assert_eq!(sim.state_hash(), host.state_hash());
}

/// Who came and went is kept in order, with names cut to their limit.
#[test]
fn the_roster_is_kept_in_order() {
    let mut sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    let long = "é".repeat(100);
    let events = [
        RosterEvent {
            tick: Tick(0),
            player: Player(0),
            change: RosterChange::Joined { name: "Ada".into() },
        },
        RosterEvent {
            tick: Tick(5),
            player: Player(1),
            change: RosterChange::Joined { name: long },
        },
        RosterEvent { tick: Tick(9), player: Player(0), change: RosterChange::Left },
    ];
    for t in 0..10 {
        for event in events.iter().filter(|e| e.tick == Tick(t)) {
            recorder.roster(event).expect("records");
        }
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        record.run(&mut sim).expect("runs");
        recorder.tick(&record, sim.state_hash().total(), &sim).expect("records");
    }
    let replay = open(&recorder.finish().expect("written")).expect("reads");
    let roster = replay.roster().expect("reads");
    assert_eq!(roster.len(), 3);
    assert_eq!(roster[0], events[0]);
    let RosterChange::Joined { name } = &roster[1].change else { panic!("a join") };
    assert_eq!(name.len(), 64, "cut at a character boundary to the limit");
    assert_eq!(roster[2], events[2]);
}

/// A player who joins mid-game is recorded with the tick it joined before; the replay
/// reproduces the join and every hash after it.
#[test]
fn a_player_joining_mid_game_is_recorded_and_verified() {
    let mut sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    for t in 0..120 {
        let tick = Tick(t);
        let seats = if t == 60 { SeatChanges::arrivals(PLAYERS, 1) } else { SeatChanges::NONE };
        seats.apply(&mut sim).expect("room");
        let commands = scripted_commands(tick, sim.players());
        sim.step(tick, &commands).expect("in order");
        let record = TickRecord { tick, seats, commands };
        recorder.tick(&record, sim.state_hash().total(), &sim).expect("records");
    }
    let replay = open(&recorder.finish().expect("written")).expect("reads");
    let mut fresh = Drift::new(SEED, PLAYERS);
    let report = verify(&mut fresh, &replay).expect("same rules");
    assert_eq!((report.ticks, report.first_mismatch), (120, None));
    assert_eq!(fresh.players(), PLAYERS + 1);
}

/// A seat freed and taken again is reproduced; a record that frees a seat past the last, or
/// seats a player beyond the next, is refused naming its tick.
#[test]
fn a_seat_freed_and_taken_again_is_recorded_and_verified() {
    let seats_at = |t: u32| match t {
        70 => SeatChanges { freed: vec![Player(0)], joined: vec![] },
        110 => SeatChanges { freed: vec![], joined: vec![Player(0)] },
        _ => SeatChanges::NONE,
    };
    let record = |change: &dyn Fn(u32, &mut SeatChanges)| {
        let mut sim = Drift::new(SEED, PLAYERS);
        let mut recorder =
            ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY)
                .expect("starts");
        for t in 0..150 {
            let tick = Tick(t);
            let seats = seats_at(t);
            seats.apply(&mut sim).expect("a seat to free and take");
            let mut commands = scripted_commands(tick, sim.players());
            if (70..110).contains(&t) {
                commands[0] = DriftCommand::default();
            }
            sim.step(tick, &commands).expect("in order");
            let mut record = TickRecord { tick, seats, commands };
            change(t, &mut record.seats);
            recorder.tick(&record, sim.state_hash().total(), &sim).expect("records");
        }
        recorder.finish().expect("written")
    };
    let replay = open(&record(&|_, _| {})).expect("reads");
    let report = verify(&mut Drift::new(SEED, PLAYERS), &replay).expect("same rules");
    assert_eq!((report.ticks, report.first_mismatch), (150, None));

    let err = open(&record(&|t, s| {
        if t == 70 {
            s.freed = vec![Player(2)];
        }
    }))
    .expect_err("no seat 2");
    assert!(err.to_string().contains("tick 70 frees or takes seats that 2 seats"), "{err}");
    let err = open(&record(&|t, s| {
        if t == 110 {
            s.joined = vec![Player(3)];
        }
    }))
    .expect_err("seat 2 skipped");
    assert!(err.to_string().contains("tick 110 frees or takes seats"), "{err}");
}

/// A replay cut anywhere is either a shorter replay (cut between two records: what a crash
/// leaves) or refused as truncated, naming the record; never anything else.
#[test]
fn every_truncation_is_a_shorter_replay_or_truncated_with_its_record() {
    let bytes = recorded();
    let mut last_record = 0;
    let mut shorter = 0;
    for len in 0..bytes.len() {
        match open(&bytes[..len]) {
            Err(ReplayError::NotAReplay) => assert!(len < REPLAY_SIGNATURE.len()),
            Err(ReplayError::ReplayTruncated { record, offset, missing }) => {
                assert!(record >= last_record, "records are reported in order");
                last_record = record;
                assert!(offset as usize <= len && missing > 0);
            }
            Ok(replay) => {
                shorter += 1;
                assert!(replay.end_tick() <= Tick(TICKS));
                let report = verify(&mut Drift::new(SEED, PLAYERS), &replay).expect("verifies");
                assert_eq!(report.first_mismatch, None);
            }
            Err(other) => panic!("cut at {len}: {other}"),
        }
    }
    assert!(shorter >= TICKS as usize, "a cut after any tick leaves a replay");
    assert!(last_record >= u64::from(TICKS), "the last record can be cut too");
}

/// Any one byte flipped, anywhere past the signature, is refused: damage is never read as a
/// replay. The error names a record and its byte.
#[test]
fn a_flipped_byte_anywhere_is_refused() {
    let bytes = recorded();
    for at in REPLAY_SIGNATURE.len() + 2..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x40;
        match open(&damaged) {
            Err(
                ReplayError::ReplayCorrupted { offset, .. }
                | ReplayError::ReplayTruncated { offset, .. }
                | ReplayError::ReplayMalformed { offset, .. },
            ) => assert!(offset as usize <= at, "byte {at}: reported at {offset}"),
            other => panic!("byte {at} flipped: {:?}", other.map(|r| r.end_tick())),
        }
    }
    let mut d = bytes.clone();
    d[11] ^= 1; // the header record's checksum
    assert_eq!(
        open(&d).expect_err("damaged checksum").to_string(),
        "replay is corrupted: record 0 at byte 10 fails its checksum"
    );
}

#[test]
fn newer_and_older_formats_are_refused_with_both_versions() {
    let mut bytes = recorded();
    bytes[8..10].copy_from_slice(&(REPLAY_FORMAT_VERSION + 1).to_le_bytes());
    let err = open(&bytes).expect_err("newer");
    assert_eq!(err.to_string(), "replay format version 7 is newer than this build reads (up to 6)");
    for older in 1..REPLAY_FORMAT_VERSION {
        bytes[8..10].copy_from_slice(&older.to_le_bytes());
        let err = open(&bytes).expect_err("older");
        assert_eq!(
            err.to_string(),
            format!(
                "replay format version {older} is older than this build reads (version 6): \
                 record it again"
            )
        );
        assert!(matches!(
            ReplayHeader::from_bytes(&bytes),
            Err(ReplayError::OlderReplayFormat { .. })
        ));
    }
}

/// Records `TICKS` ticks under `header`.
fn recorded_under(header: &ReplayHeader) -> Vec<u8> {
    let mut sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), header, &content(), &sim, EVERY).expect("starts");
    for t in 0..20 {
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        record.run(&mut sim).expect("runs");
        recorder.tick(&record, sim.state_hash().total(), &sim).expect("records");
    }
    recorder.finish().expect("written")
}

#[test]
fn a_replay_of_other_rules_another_game_or_other_content_is_refused() {
    let sim = Drift::new(SEED, PLAYERS);
    let other_rules = ReplayHeader { sim_version: Drift::VERSION + 1, ..header(&sim) };
    let replay = open(&recorded_under(&other_rules)).expect("reads");
    let mut fresh = Drift::new(SEED, PLAYERS);
    let err = verify(&mut fresh, &replay).expect_err("other rules");
    assert_eq!(
        err.to_string(),
        "replay was recorded by simulation version 9; this build runs version 8"
    );
    assert_eq!(fresh.next_tick(), Tick(0), "nothing was simulated");

    let other_game = ReplayHeader { sim: "OtherSim".to_owned(), ..header(&sim) };
    let bytes = recorded_under(&other_game);
    assert_eq!(ReplayHeader::from_bytes(&bytes).expect("a header"), other_game);
    let err = ReplayFile::<DriftCommand>::open_for::<Drift>(bytes).expect_err("another game's");
    assert_eq!(
        err.to_string(),
        "replay was recorded by OtherSim, not by Drift: play it with its own game"
    );

    let digest = ContentDigest(0x1234);
    let other_content = ReplayHeader { content_digest: digest, ..header(&sim) };
    let replay = open(&recorded_under(&other_content)).expect("reads");
    let err = verify(&mut fresh, &replay).expect_err("other content");
    assert!(matches!(err, ReplayError::ContentMismatch { recorded, .. } if recorded == digest));
    assert!(err.to_string().contains("the level changed"), "{err}");

    let err = verify(&mut Drift::new(SEED, 3), &open(&recorded()).expect("reads"))
        .expect_err("three players");
    assert!(matches!(err, ReplayError::ReplayPlayers { found: 2, expected: 3 }), "{err}");
}

#[test]
fn a_tick_given_out_of_order_is_not_recorded() {
    let sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    let err = recorder
        .tick(&TickRecord::new(Tick(1), scripted_commands(Tick(1), PLAYERS)), 0, &sim)
        .expect_err("tick 0 comes first");
    assert_eq!(err.to_string(), "cannot record tick 1: the recording's next tick is 0");
}

#[test]
fn garbage_is_not_a_replay() {
    assert!(matches!(open(b"hello world"), Err(ReplayError::NotAReplay)));
    assert!(matches!(open(&[]), Err(ReplayError::NotAReplay)));
}

/// A writer that died mid-record leaves a replay cut inside its last record: read whole, it is
/// refused as truncated; read as a crashed server's is, it holds every tick before the cut.
#[test]
fn a_replay_cut_inside_its_last_record_opens_without_it_when_asked() {
    let bytes = recorded();
    let cut = &bytes[..bytes.len() - 3];
    assert!(matches!(open(cut), Err(ReplayError::ReplayTruncated { .. })));
    let (replay, left_out) = ReplayFile::<DriftCommand>::open_cut(cut.to_vec()).expect("reads");
    assert!(matches!(left_out, Some(ReplayError::ReplayTruncated { .. })), "{left_out:?}");
    // The last record was the keyframe after tick 199: every tick is there.
    assert_eq!(replay.end_tick(), Tick(TICKS));
    let report = verify(&mut Drift::new(SEED, PLAYERS), &replay).expect("verifies");
    assert_eq!((report.ticks, report.first_mismatch), (TICKS, None));
    // A whole file opens as it is.
    let (whole, none) = ReplayFile::<DriftCommand>::open_cut(bytes).expect("reads");
    assert_eq!((whole.end_tick(), none.is_none()), (Tick(TICKS), true));
    // A cut before the first keyframe is no replay to play on from.
    assert!(ReplayFile::<DriftCommand>::open_cut(recorded()[..40].to_vec()).is_err());
}

/// A keyframe whose state decodes and carries its own hash but does not fit the rules (here a
/// mover off the field) is refused when a seek restores it, naming the record and the field;
/// the replay still opens, and seeks before it still work.
#[test]
fn a_keyframe_whose_state_breaks_the_rules_is_refused_when_sought() {
    let mut sim = Drift::new(SEED, PLAYERS);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header(&sim), &content(), &sim, EVERY).expect("starts");
    for t in 0..30 {
        let record = TickRecord::new(Tick(t), scripted_commands(Tick(t), PLAYERS));
        record.run(&mut sim).expect("runs");
        recorder.tick(&record, sim.state_hash().total(), &sim).expect("records");
    }
    let mut broken = sim.state.clone();
    let (id, _) = broken.movers.iter().next().expect("a mover");
    broken.movers.get_mut(id).expect("live").pos.x = fixstep_runtime::math::fx(1_000_000);
    // `restore` trusts what it is given: so a crafted keyframe gets its own hash.
    sim.restore(&broken);
    recorder.replaced(&sim).expect("records");
    let replay = open(&recorder.finish().expect("written")).expect("opens");
    replay.seek(&mut Drift::new(SEED, PLAYERS), Tick(20)).expect("before the keyframe");
    let error = replay.seek(&mut Drift::new(SEED, PLAYERS), Tick(30)).expect_err("refused");
    assert!(matches!(error, ReplayError::ReplayMalformed { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains(&format!("does not fit the rules: movers[{id}].pos")), "{message}");
}
