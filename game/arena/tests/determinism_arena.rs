//! Determinism of the arena: the self-test with every rule at work, and the golden hash
//! stream pinned with `ArenaSim::VERSION`.

use std::path::Path;
use std::sync::Arc;

use fixstep_arena::{ArenaBot, ArenaCommand, ArenaSim, ArenaState, Layout, load_layout};
use fixstep_runtime::golden::StreamRecorder;
use fixstep_runtime::replay::{
    KEYFRAME_EVERY_TICKS, RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder, verify,
};
use fixstep_runtime::sync_test::{SyncTestConfig, sync_test};
use fixstep_runtime::{Bot as _, Player, Simulation, StateHasher, Tick, TickRecord};

fn rink() -> Arc<Layout> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let layout = load_layout(&assets, &assets.join("arena/arena.ron"));
    Arc::new(layout.expect("the rink loads"))
}

/// Runs the arena with `players` bots for `ticks`, returning every tick's commands and what
/// the game went through.
fn play(
    layout: &Arc<Layout>,
    seed: u64,
    players: usize,
    ticks: u32,
) -> (Vec<Vec<ArenaCommand>>, Seen) {
    let mut sim = ArenaSim::new(Arc::clone(layout), seed, players);
    let mut bots: Vec<ArenaBot> = Player::all(players).map(|p| ArenaBot::new(p, layout)).collect();
    let mut all = Vec::with_capacity(ticks as usize);
    let mut seen = Seen::default();
    for _ in 0..ticks {
        let commands: Vec<ArenaCommand> =
            bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        let before = sim.state().clone();
        sim.step(sim.next_tick(), &commands).expect("in order");
        seen.note(&before, sim.state(), &commands);
        all.push(commands);
    }
    (all, seen)
}

/// What a run went through: every rule of the arena at work.
#[derive(Debug, Default)]
struct Seen {
    dashes: u32,
    goals: [u32; 2],
    puck_resets: u32,
    pucks_moving: u32,
    pushers_bounced: u32,
}

impl Seen {
    fn note(&mut self, before: &ArenaState, after: &ArenaState, commands: &[ArenaCommand]) {
        for (command, (was, is)) in
            commands.iter().zip(before.pushers.iter().flatten().zip(after.pushers.iter().flatten()))
        {
            self.dashes += u32::from(command.dash && is.dash_cooldown > was.dash_cooldown);
            // Something turned it round along an axis the stick did not ask to reverse: a
            // wall, another pusher.
            let pushed_back = |was: i64, is: i64, stick: i8| {
                was.signum() * is.signum() < 0 && was.signum() * i64::from(stick).signum() >= 0
            };
            self.pushers_bounced += u32::from(
                pushed_back(was.vel.x.to_bits(), is.vel.x.to_bits(), command.x)
                    || pushed_back(was.vel.y.to_bits(), is.vel.y.to_bits(), command.y),
            );
        }
        self.goals = after.score;
        self.puck_resets = after.pucks.iter().map(|p| p.jumps).sum();
        self.pucks_moving += u32::from(after.pucks.iter().any(|p| p.vel != Default::default()));
    }
}

/// Protects the rules against hidden state and lossy serialization: 600 ticks of four bots
/// that skate, dash, knock pucks about and score; every tick is stepped twice from a saved
/// state, and a copy rebuilt from the serialized state runs alongside.
#[test]
fn the_self_test_passes_for_600_ticks_with_every_rule_at_work() {
    let layout = rink();
    let (commands, seen) = play(&layout, 3, 4, 600);
    let mut sim = ArenaSim::new(Arc::clone(&layout), 3, 4);
    let report = sync_test(
        &mut sim,
        || ArenaSim::new(Arc::clone(&layout), 3, 4),
        |tick| commands[tick.0 as usize].clone(),
        SyncTestConfig { ticks: 600, roundtrip_every: 50 },
    )
    .expect("deterministic");
    assert_eq!(report.hashes.len(), 600);
    assert!(seen.dashes >= 5, "bots dashed: {seen:?}");
    assert!(seen.goals.iter().sum::<u32>() >= 1, "a goal was scored: {seen:?}");
    assert_eq!(seen.puck_resets, seen.goals.iter().sum::<u32>(), "a puck back per goal");
    assert!(seen.pucks_moving >= 300, "pucks slid for half the game: {seen:?}");
    assert!(seen.pushers_bounced >= 1, "a pusher bounced: {seen:?}");
}

/// Ticks between the ticks the golden file writes out in full: 30 of the 3,000.
const SAMPLE_EVERY_TICKS: u32 = 100;

/// Protects every rule of the arena at once: 3,000 ticks (five minutes of play) of six bots,
/// seed 1, must give exactly the pinned hashes on every tick (totals and the partial hashes
/// of the tick, the pushers, the pucks, the score and the random numbers, through the digest
/// in `tests/golden/arena.hashes`), in debug and in release. The bots score goals, so the
/// score and the random numbers that place a puck back are pinned with content. A change of
/// the rules bumps `ArenaSim::VERSION` (the test fails saying so until it is) and re-pins the
/// file with `FIXSTEP_BLESS=1 cargo test -p fixstep-arena --test determinism_arena`; the same
/// run is recorded as a replay (the rink's files, every tick's hash, a keyframe every
/// `KEYFRAME_EVERY_TICKS`), which carries the rink and verifies hash for hash.
#[test]
fn golden_three_thousand_ticks_of_the_arena_with_six_bots() {
    const TICKS: u32 = 3_000;
    let layout = rink();
    let (commands, seen) = play(&layout, 1, 6, TICKS);
    assert!(seen.goals.iter().all(|&g| g >= 1), "both teams scored: {seen:?}");
    let mut sim = ArenaSim::new(Arc::clone(&layout), 1, 6);
    let header = ReplayHeader::of(&sim, &layout.name, Some(1), RecordedBy::Local, 0);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header, &layout.files, &sim, KEYFRAME_EVERY_TICKS)
            .expect("the replay starts");
    let mut hasher = StateHasher::new();
    let mut stream = StreamRecorder::new::<ArenaSim>(SAMPLE_EVERY_TICKS);
    for (t, c) in commands.iter().enumerate() {
        let tick = Tick(t as u32);
        sim.step(tick, c).expect("in order");
        sim.hash_state(&mut hasher);
        let hash = hasher.finish_reuse();
        stream.record(tick, &hash);
        recorder.tick(&TickRecord::new(tick, c.clone()), hash.total(), &sim).expect("recorded");
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/arena.hashes");
    let comment = "The golden hash stream of game/arena/tests/determinism_arena.rs: 3,000 ticks\n\
                   of assets/arena/arena.ron with six bots, seed 1. Re-pin with FIXSTEP_BLESS=1\n\
                   after bumping ArenaSim::VERSION.";
    if let Err(message) = stream.finish().check(&file, comment) {
        panic!("{message}");
    }

    let bytes = recorder.finish().expect("written");
    let replay = ReplayFile::<ArenaCommand>::open(bytes).expect("reads");
    assert_eq!(replay.content_files().expect("unpacks"), *layout.files, "it carries the rink");
    let mut fresh = ArenaSim::new(Arc::clone(&layout), 1, 6);
    let report = verify(&mut fresh, &replay).expect("same rules");
    // Every tick's total, the start's and every later keyframe's.
    let hashes = TICKS + TICKS / KEYFRAME_EVERY_TICKS + 1;
    assert_eq!((report.ticks, report.hashes_checked, report.first_mismatch), (TICKS, hashes, None));
    assert_eq!(report.final_hash, sim.state_hash());
}
