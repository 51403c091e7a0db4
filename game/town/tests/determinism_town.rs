//! Determinism of the town: the self-test on every feature, and the golden hash stream.

use std::path::Path;
use std::sync::Arc;

use fixstep_runtime::golden::StreamRecorder;
use fixstep_runtime::replay::{
    KEYFRAME_EVERY_TICKS, RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder, verify,
};
use fixstep_runtime::sync_test::{SyncTestConfig, sync_test};
use fixstep_runtime::{Bot as _, Player, Simulation, StateHasher, Tick, TickRecord};
use fixstep_town::bots::TownBot;
use fixstep_town::level::{Level, load_level};
use fixstep_town::state::ObjectPhase;
use fixstep_town::{PlayerCommand, TownSim};

fn town() -> Arc<Level> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("the town loads"))
}

/// Runs the town with `players` bots for `ticks`, returning every tick's commands and the sim.
fn play(
    level: &Arc<Level>,
    seed: u64,
    players: usize,
    ticks: u32,
) -> (Vec<Vec<PlayerCommand>>, TownSim) {
    let mut sim = TownSim::new(Arc::clone(level), seed, players);
    let mut bots: Vec<TownBot> = Player::all(players).map(|p| TownBot::new(p, level)).collect();
    let mut all = Vec::with_capacity(ticks as usize);
    for _ in 0..ticks {
        let commands: Vec<PlayerCommand> =
            bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        let tick = sim.next_tick();
        sim.step(tick, &commands).expect("in order");
        all.push(commands);
    }
    (all, sim)
}

/// Protects the rules against hidden state and lossy serialization: 600 ticks of the town
/// with four bots that open doors, teleport, talk and trigger the cutscene, while taxis drive
/// and stop, pedestrians walk and wave, the lift and the sign cycle. Every tick is stepped
/// twice from a saved state, and a copy rebuilt from the serialized state runs alongside.
#[test]
fn the_self_test_passes_for_600_ticks_with_every_feature_active() {
    let level = town();
    let (commands, _) = play(&level, 11, 4, 600);
    let mut sim = TownSim::new(Arc::clone(&level), 11, 4);
    let mut seen = Features::default();
    let report = sync_test(
        &mut sim,
        || TownSim::new(Arc::clone(&level), 11, 4),
        |tick| commands[tick.0 as usize].clone(),
        SyncTestConfig { ticks: 600, roundtrip_every: 50 },
    )
    .expect("deterministic");
    assert_eq!(report.hashes.len(), 600);
    // What the run exercised, read back from a plain run of the same commands.
    let mut plain = TownSim::new(Arc::clone(&level), 11, 4);
    for (t, c) in commands.iter().enumerate() {
        plain.step(Tick(t as u32), c).expect("in order");
        seen.note(&plain);
    }
    seen.assert_all();
}

#[derive(Default)]
struct Features {
    door: bool,
    teleport: bool,
    dialogue: bool,
    cutscene: bool,
    taxi_stand: bool,
    taxi_moving: bool,
    wave: bool,
    lift: bool,
    sign: bool,
}

impl Features {
    fn note(&mut self, sim: &TownSim) {
        let s = sim.snapshot();
        let state = sim.state();
        self.door |= state
            .objects
            .iter()
            .any(|o| matches!(o.phase, ObjectPhase::Open | ObjectPhase::Opening));
        self.lift |= state.objects.iter().any(|o| o.phase == ObjectPhase::Rising);
        self.sign |= state.objects.iter().any(|o| o.phase == ObjectPhase::Hidden);
        self.teleport |= s.players.iter().any(|&p| s.character(p).is_some_and(|c| c.jumps > 0));
        self.dialogue |= !s.dialogues.is_empty();
        self.cutscene |= !s.cutscenes.is_empty();
        self.taxi_stand |= state.taxis.iter().any(|t| t.standing > 0);
        self.taxi_moving |= s.taxis.iter().any(|t| !t.at_rest);
        self.wave |= s.characters.iter().any(|c| c.anim == fixstep_town::AnimState::Wave);
    }

    fn assert_all(&self) {
        assert!(self.door, "a door opened");
        assert!(self.teleport, "a bot teleported");
        assert!(self.dialogue, "a dialogue ran");
        assert!(self.cutscene, "a cutscene played");
        assert!(self.taxi_stand, "a taxi stood at its stand");
        assert!(self.taxi_moving, "taxis drove");
        assert!(self.wave, "a pedestrian waved");
        assert!(self.lift, "the lift rose");
        assert!(self.sign, "the sign faded out");
    }
}

/// Ticks between the ticks the golden file writes out in full: 60 of the 6,000.
const SAMPLE_EVERY_TICKS: u32 = 100;

/// Protects every rule of the town at once: 6,000 ticks (ten minutes of play) with four bots,
/// seed 1, must give exactly the pinned hashes on every tick (every tick's total and partial
/// hashes, through the digest in `tests/golden/town.hashes`, with every 100th tick written out
/// by subsystem), in debug and in release (CI runs both). The bots talk to the mayor and walk
/// into the fountain's cutscene, so the dialogue and cutscene hashes are pinned with content,
/// not as empty lists. A change of the rules that changes the game bumps `TownSim::VERSION`
/// (the test fails with a message saying so until it is) and re-pins the file with
/// `FIXSTEP_BLESS=1`, in the same commit: old replays are then refused rather than failing.
#[test]
fn golden_six_thousand_ticks_of_town_with_four_bots() {
    const TICKS: u32 = 6_000;
    let level = town();
    let (commands, sim) = play(&level, 1, 4, TICKS);

    // Every tick's hashes, re-run from the recorded commands and recorded as a replay.
    let mut rerun = TownSim::new(Arc::clone(&level), 1, 4);
    let header = ReplayHeader::of(&rerun, &level.name, Some(1), RecordedBy::Local, 0);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header, &level.files, &rerun, KEYFRAME_EVERY_TICKS)
            .expect("the replay starts");
    let mut hasher = StateHasher::new();
    let mut stream = StreamRecorder::new::<TownSim>(SAMPLE_EVERY_TICKS);
    let empty = fixstep_runtime::hash::canonical_hash(&Vec::<u8>::new());
    let (mut talking, mut watching) = (0, 0);
    for (t, c) in commands.iter().enumerate() {
        let tick = Tick(t as u32);
        rerun.step(tick, c).expect("in order");
        rerun.hash_state(&mut hasher);
        let hash = hasher.finish_reuse();
        stream.record(tick, &hash);
        talking += u32::from(hash.part("dialogue") != Some(empty));
        watching += u32::from(hash.part("cutscenes") != Some(empty));
        recorder.tick(&TickRecord::new(tick, c.clone()), hash.total(), &rerun).expect("recorded");
    }
    assert!(talking > 100, "a dialogue ran for {talking} ticks");
    assert!(watching > 50, "a cutscene played for {watching} ticks");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/town.hashes");
    let comment = "The golden hash stream of game/town/tests/determinism_town.rs: 6,000 ticks of\n\
                   assets/levels/town.ron with four bots, seed 1. Re-pin with FIXSTEP_BLESS=1\n\
                   after bumping TownSim::VERSION.";
    if let Err(message) = stream.finish().check(&file, comment) {
        panic!("{message}");
    }
    assert_eq!(rerun.state_hash(), sim.state_hash(), "the re-run is the run");

    // The replay carries the level's files and verifies: every tick's total, the start's
    // hash and every later keyframe's.
    let bytes = recorder.finish().expect("written");
    let replay = ReplayFile::<PlayerCommand>::open(bytes).expect("reads");
    assert_eq!(replay.content_files().expect("unpacks"), *level.files, "it carries the level");
    let mut fresh = TownSim::new(Arc::clone(&level), 1, 4);
    let report = verify(&mut fresh, &replay).expect("same rules");
    let hashes = TICKS + TICKS / KEYFRAME_EVERY_TICKS + 1;
    assert_eq!((report.ticks, report.hashes_checked, report.first_mismatch), (TICKS, hashes, None));
    assert_eq!(report.final_hash, sim.state_hash());
}
