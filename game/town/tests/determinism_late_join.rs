//! State for late joiners: a player joins a running game by a join the state records, and a
//! serialized state restores to the same hash in a fresh process, whatever the number of
//! players the fresh town was built with. (Named so that CI runs it in release too.)

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::sync::Arc;

use fixstep_runtime::replay::{RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder, verify};
use fixstep_runtime::{Bot as _, Error, Player, SeatChanges, Simulation, Tick, TickRecord};
use fixstep_town::bots::TownBot;
use fixstep_town::level::{Level, load_level};
use fixstep_town::state::GameState;
use fixstep_town::{MAX_PLAYERS, PlayerCommand, TownSim};

/// Where the parent test tells the child process to find the serialized state.
const STATE_FILE_VAR: &str = "FIXSTEP_TEST_STATE_FILE";

/// How many players the child builds its fresh town with before restoring.
const CHILD_PLAYERS_VAR: &str = "FIXSTEP_TEST_CHILD_PLAYERS";

/// The program a test binary of another architecture runs under (an emulator), set by the
/// target's runner in `.cargo/runners/`; the child process is started through it too.
const TEST_RUNNER_VAR: &str = "FIXSTEP_TEST_RUNNER";

/// The seed of every town here.
const SEED: u64 = 21;

/// Ticks both processes run on from the restored state.
const TICKS_AFTER_RESTORE: u32 = 200;

/// Ticks between the keyframes of the late-join replay: some before the join, some after.
const KEYFRAME_EVERY: u32 = 100;

fn town() -> Arc<Level> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("the town loads"))
}

/// A command for every player, a fixed function of the tick: walking, turning, running and
/// pressing interact now and then.
fn scripted(tick: Tick, players: usize) -> Vec<PlayerCommand> {
    (0..players)
        .map(|p| {
            let t = tick.0 as usize + p * 13;
            PlayerCommand {
                forward: [100, 60, 0, -40][t / 25 % 4],
                strafe: [0, 0, 30][t / 40 % 3],
                turn: [0, 900, -700, 0, 0][t / 17 % 5],
                run: t / 50 % 3 == 1,
                interact: t.is_multiple_of(37),
            }
        })
        .collect()
}

/// Runs `ticks` more ticks of scripted commands and returns the final hash's total.
fn run_on(sim: &mut TownSim, ticks: u32) -> u64 {
    for _ in 0..ticks {
        let tick = sim.next_tick();
        let commands = scripted(tick, sim.players());
        sim.step(tick, &commands).expect("in order");
    }
    sim.state_hash().total()
}

/// A town of two bots into which a third player joins at tick 150: the join is state (the
/// hash changes, the new character stands at the third spawn), the players' count follows, and
/// a replay that records the join reproduces every hash, those of the keyframes before and
/// after it too, and a seek past the join reaches the same state.
#[test]
fn a_player_joins_a_running_game() {
    const TICKS: u32 = 300;
    let level = town();
    let mut sim = TownSim::new(Arc::clone(&level), SEED, 2);
    let header = ReplayHeader::of(&sim, &level.name, Some(SEED), RecordedBy::Local, 0);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header, &level.files, &sim, KEYFRAME_EVERY)
            .expect("the replay starts");
    let mut bots: Vec<TownBot> = (0..2).map(|p| TownBot::new(Player(p), &level)).collect();
    let mut hashes = Vec::new();
    for t in 0..TICKS {
        let tick = Tick(t);
        let mut seats = SeatChanges::NONE;
        if t == 150 {
            let before = sim.state_hash();
            assert_eq!(sim.add_player().expect("room for a third"), Player(2));
            assert_ne!(sim.state_hash(), before, "the join is part of the state");
            bots.push(TownBot::new(Player(2), &level));
            seats = SeatChanges::arrivals(2, 1);
            let newcomer = sim.snapshot().player_character(Player(2)).expect("drawn at once");
            assert_eq!(newcomer.pos, level.spawns[2 % level.spawns.len()].at);
        }
        let commands: Vec<PlayerCommand> =
            bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        sim.step(tick, &commands).expect("one command per player");
        let hash = sim.state_hash().total();
        hashes.push(hash);
        recorder.tick(&TickRecord { tick, seats, commands }, hash, &sim).expect("recorded");
    }
    assert_eq!(sim.players(), 3);
    let bytes = recorder.finish().expect("written");
    let replay = ReplayFile::<PlayerCommand>::open(bytes).expect("reads");
    assert_eq!(replay.start_seats(), 2, "the replay starts with the first two");
    let mut fresh = TownSim::new(Arc::clone(&level), SEED, 2);
    let report = verify(&mut fresh, &replay).expect("same rules");
    // Every tick's total, the start's and every later keyframe's.
    let checked = TICKS + TICKS / KEYFRAME_EVERY + 1;
    assert_eq!(
        (report.ticks, report.hashes_checked, report.first_mismatch),
        (TICKS, checked, None)
    );
    assert_eq!((fresh.players(), report.final_hash), (3, sim.state_hash()));
    // From the keyframe after the join, in a town built with two players.
    let mut seeker = TownSim::new(Arc::clone(&level), SEED, 2);
    replay.seek(&mut seeker, Tick(250)).expect("in the replay");
    assert_eq!((seeker.players(), seeker.state_hash().total()), (3, hashes[249]));
}

#[test]
fn no_more_than_the_most_players_can_join() {
    let mut sim = TownSim::new(town(), SEED, MAX_PLAYERS);
    let before = sim.state_hash();
    assert!(matches!(sim.add_player(), Err(Error::PlayerLimit { max: MAX_PLAYERS })));
    assert_eq!(sim.state_hash(), before, "nothing changed");
}

/// A peer that joins late gets the state in postcard bytes: in a fresh process (nothing
/// shared but the bytes, the level file and the seed) and in a town built with another number
/// of players, it restores to the same hash, and both run on to the same hash.
///
/// The fresh process is this test run again by name: with the state file in its environment
/// it is the child half, and restores instead of checking, so no test of its own passes
/// having checked nothing.
#[test]
#[cfg_attr(target_family = "wasm", ignore = "a wasm program starts no processes")]
fn a_serialized_state_restores_to_the_same_hash_in_a_fresh_process() {
    if let Some(file) = std::env::var_os(STATE_FILE_VAR) {
        restore_in_this_process(Path::new(&file));
        return;
    }
    let mut sim = TownSim::new(town(), SEED, 3);
    run_on(&mut sim, 120);
    sim.add_player().expect("room for a fourth");
    run_on(&mut sim, 120);
    let bytes = postcard::to_stdvec(sim.state()).expect("the state serializes");
    let file = std::env::temp_dir().join(format!("fixstep-late-join-{}.state", std::process::id()));
    std::fs::write(&file, &bytes).expect("the state file is written");
    let here = sim.state_hash().total();
    let later = run_on(&mut sim, TICKS_AFTER_RESTORE);

    // Fewer players than the state, none at all, and more.
    for players in [1, 0, 6] {
        let (restored, ran_on) = restore_in_a_child(&file, players);
        assert_eq!(restored, here, "restored into a town of {players} players");
        assert_eq!(ran_on, later, "ran on in a town of {players} players");
    }
    let _ = std::fs::remove_file(&file);
}

/// Runs [`a_serialized_state_restores_to_the_same_hash_in_a_fresh_process`] again in a new
/// process as its child half, and returns the hash it restored and the hash it ran on to.
fn restore_in_a_child(file: &PathBuf, players: usize) -> (u64, u64) {
    let test = "a_serialized_state_restores_to_the_same_hash_in_a_fresh_process";
    let binary = std::env::current_exe().expect("the test binary");
    // A test binary of another architecture runs under an emulator, and so must its child.
    let mut child = match std::env::var_os(TEST_RUNNER_VAR) {
        Some(runner) => {
            let mut child = Process::new(runner);
            child.arg(binary);
            child
        }
        None => Process::new(binary),
    };
    let out = child
        .args([test, "--exact", "--nocapture", "--test-threads", "1"])
        .env(STATE_FILE_VAR, file)
        .env(CHILD_PLAYERS_VAR, players.to_string())
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the child failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.split_once(key).map(|(_, v)| v))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| u64::from_str_radix(v, 16).ok())
            .unwrap_or_else(|| panic!("the child printed no {key}: {stdout}"))
    };
    (value("restored "), value("ran on "))
}

/// The child half: restores the state file into a town of the number of players its
/// environment gives, and prints the hashes for the parent to compare.
fn restore_in_this_process(file: &Path) {
    let players = std::env::var(CHILD_PLAYERS_VAR).expect("the parent gives a number of players");
    let players: usize = players.parse().expect("a number of players");
    let bytes = std::fs::read(file).expect("the state file");
    let state: GameState = postcard::from_bytes(&bytes).expect("the state deserializes");
    let mut sim = TownSim::new(town(), SEED, players);
    sim.restore(&state);
    assert_eq!(sim.players(), 4, "the players of the state, not of the fresh town");
    println!("restored {:016x}", sim.state_hash().total());
    println!("ran on {:016x}", run_on(&mut sim, TICKS_AFTER_RESTORE));
}
