//! Crowds: characters packed on one spot part and spread out, and however tight they stand, a
//! tick's searches among neighbours (collisions between characters, taxis looking ahead and
//! striking) cost no more than their named bounds per character and per taxi. A town that
//! does not crowd so never reaches the bounds, so the bounds change nothing of its game.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::{idle, step};
use fixstep_runtime::math::{Angle, Fx, Vec2, fx};
use fixstep_runtime::{Bot as _, Player, Simulation};
use fixstep_town::bots::TownBot;
use fixstep_town::level::{Level, SpawnDef, load_level};
use fixstep_town::state::Role;
use fixstep_town::tuning::{
    CHARACTER_RADIUS, MAX_HEALTH, MAX_PAIR_CANDIDATES, MAX_PAIR_CHECKS, TAXI_MAX_LOOKS,
    TAXI_MAX_STRIKE_CHECKS,
};
use fixstep_town::{AnimState, PlayerCommand, TownSim};

/// Players in the crowds here: enough to pile far past every bound, few enough for a test.
const CROWD: usize = 300;

/// The fixture level with one spawn, at `at`: everyone starts on that spot.
fn one_spawn_at(at: Vec2) -> Arc<Level> {
    let mut level = common::level();
    level.spawns = vec![SpawnDef { at, facing: Angle::ZERO }];
    Arc::new(level)
}

/// The players' positions.
fn positions(sim: &TownSim) -> Vec<Vec2> {
    Player::all(sim.state().players.len())
        .map(|p| sim.snapshot().player_character(p).expect("a player's character").pos)
        .collect()
}

/// Pairs of `points` closer than a character's diameter, by more than a centimetre (the pushes
/// round by a few ulps, so touching is not exact).
fn overlapping_pairs(points: &[Vec2]) -> usize {
    let reach = CHARACTER_RADIUS * 2 - Fx::ONE / 100;
    let mut count = 0;
    for (i, a) in points.iter().enumerate() {
        count += points[i + 1..].iter().filter(|b| (**b - *a).length() < reach).count();
    }
    count
}

/// The sides of the smallest box round `points`, east and north.
fn extent(points: &[Vec2]) -> (Fx, Fx) {
    let (mut min, mut max) = (points[0], points[0]);
    for p in points {
        min = Vec2::new(min.x.min(p.x), min.y.min(p.y));
        max = Vec2::new(max.x.max(p.x), max.y.max(p.y));
    }
    (max.x - min.x, max.y - min.y)
}

/// Ticks the crowd here is given to part: 10 s.
const PARTING_TICKS: usize = 100;

/// Protects the crowd's parting: a crowd on one spot, every character on top of every other,
/// spreads over the ticks, every way and not along one line, until hardly any two overlap.
#[test]
fn a_crowd_on_one_spot_spreads_apart_over_ticks() {
    let mut sim = TownSim::new(one_spawn_at(Vec2::ZERO), 7, CROWD);
    let start = overlapping_pairs(&positions(&sim));
    assert_eq!(start, CROWD * (CROWD - 1) / 2, "everyone starts on one spot");
    let mut overlaps = vec![start];
    for _ in 0..PARTING_TICKS {
        step(&mut sim, &idle(CROWD));
        overlaps.push(overlapping_pairs(&positions(&sim)));
    }
    for (second, ticks) in overlaps.chunks(10).enumerate().skip(1) {
        let before = overlaps[second * 10 - 10];
        assert!(ticks[0] < before, "overlaps stopped falling in second {second}: {overlaps:?}");
    }
    let last = overlaps[PARTING_TICKS];
    assert!(last * 100 < start, "after 10 s {last} of {start} pairs overlap: {overlaps:?}");
    // Parted every way: a disc of 300 characters is some 12 m across; a line would be 200 m
    // long and no wider than a character.
    let (east, north) = extent(&positions(&sim));
    assert!(east > fx(8) && north > fx(8), "the crowd spread {east} m by {north} m");
    assert!(east < fx(40) && north < fx(40), "the crowd spread {east} m by {north} m");
}

/// Protects the bound on collisions: on one spot, each character looks at no more than
/// `MAX_PAIR_CANDIDATES` neighbours and measures no more than `MAX_PAIR_CHECKS`, where checking
/// every pair would be 44,850 a tick; the bound is met (the crowd is thick enough to test it).
/// Three hundred players, one spawn, and their two talkers and pedestrians.
#[test]
fn pair_checks_per_character_are_bounded_in_a_crowd() {
    let mut sim = TownSim::new(one_spawn_at(Vec2::ZERO), 7, CROWD);
    let characters = sim.state().characters.len() as u64;
    for tick in 0..20 {
        step(&mut sim, &idle(CROWD));
        let work = sim.pair_work();
        assert!(
            work.candidates <= characters * u64::from(MAX_PAIR_CANDIDATES),
            "tick {tick}: {work:?} for {characters} characters"
        );
        assert!(
            work.checks <= characters * u64::from(MAX_PAIR_CHECKS),
            "tick {tick}: {work:?} for {characters} characters"
        );
        if tick == 0 {
            assert!(work.cut_off as usize >= CROWD - 10, "tick 0: {work:?}");
            assert!(work.checks >= u64::from(MAX_PAIR_CHECKS) * 250, "tick 0: {work:?}");
        }
    }
}

/// Protects the bounds on the taxis: a taxi driving at a crowd thicker than it looks through
/// stops as soon as the crowd fills what it looks at, strikes nobody, and never looks at more
/// than its limits allow.
#[test]
fn a_taxi_stops_for_a_crowd_it_cannot_see_through_and_looks_at_a_bounded_number() {
    // The fixture's taxi starts at the south-west corner, heading east along y = -82 (the
    // right-hand lane of the street at y = -80); the crowd stands on its lane 30 m ahead.
    let mut sim = TownSim::new(one_spawn_at(Vec2::new(fx(-50), fx(-82))), 7, CROWD);
    let taxis = sim.state().taxis.len() as u64;
    let bound = taxis * u64::from(2 * TAXI_MAX_LOOKS + TAXI_MAX_STRIKE_CHECKS);
    let mut cut_off = 0;
    for tick in 0..200 {
        step(&mut sim, &idle(CROWD));
        let work = sim.taxi_work();
        assert!(work.looks <= bound, "tick {tick}: {work:?}, over {bound}");
        cut_off += work.cut_off;
    }
    assert!(cut_off > 0, "the crowd was never thicker than a taxi looks through");
    let taxi = sim.snapshot().taxis[0];
    assert_eq!(taxi.speed, Fx::ZERO, "the taxi waits before the crowd");
    // It stopped as the crowd filled what it looks at, far short of the crowd's edge (some 6 m
    // from the spot), not at its stopping gap before the nearest character.
    assert!(taxi.pos.x < fx(-65), "the taxi drove up to the crowd: {:?}", taxi.pos);
    let struck = sim.state().characters.iter().filter(|(_, c)| c.health < MAX_HEALTH).count();
    assert_eq!(struck, 0, "characters struck");
}

/// Protects the town's game from the bounds: in the town with sixteen bots (more than the
/// golden stream's four, about the plaza, the doors and the talkers at once) no search among
/// neighbours ever reaches its limit, so the bounds leave every tick as it was.
#[test]
fn the_town_never_reaches_the_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let town = Arc::new(load_level(&root, &root.join("levels/town.ron")).expect("the town loads"));
    let players = 16;
    let mut sim = TownSim::new(Arc::clone(&town), 1, players);
    let mut bots: Vec<TownBot> = Player::all(players).map(|p| TownBot::new(p, &town)).collect();
    for tick in 0..1_500 {
        let commands: Vec<PlayerCommand> =
            bots.iter_mut().map(|b| b.command(sim.snapshot())).collect();
        step(&mut sim, &commands);
        assert_eq!(sim.pair_work().cut_off, 0, "tick {tick}: {:?}", sim.pair_work());
        assert_eq!(sim.taxi_work().cut_off, 0, "tick {tick}: {:?}", sim.taxi_work());
    }
}

/// Protects interactions in a crowd: three hundred players on one spot by the talker all press
/// interact in the same tick; the first takes the talker and the others find it busy, so one
/// dialogue runs, and only its two speakers play the talk clip.
#[test]
fn a_crowd_pressing_interact_at_once_starts_one_dialogue() {
    // The fixture's talker stands at (-10, 0), within talking range of (-9, 0).
    let mut sim = TownSim::new(one_spawn_at(Vec2::new(fx(-9), fx(0))), 7, CROWD);
    step(&mut sim, &vec![common::INTERACT; CROWD]);
    let dialogues = &sim.state().dialogues;
    assert_eq!(dialogues.len(), 1, "{dialogues:?}");
    assert_eq!(dialogues[0].player, Player(0));
    step(&mut sim, &idle(CROWD));
    let snapshot = sim.snapshot();
    let talking: Vec<_> = snapshot
        .characters
        .iter()
        .filter(|c| c.anim == AnimState::Talk)
        .map(|c| (c.role, c.player))
        .collect();
    assert_eq!(talking.len(), 2, "{talking:?}");
    assert!(talking.iter().any(|&(role, _)| matches!(role, Role::Talker(0))), "{talking:?}");
    assert!(talking.iter().any(|&(_, player)| player == Some(Player(0))), "{talking:?}");
}

/// Protects cutscenes in a crowd: three hundred players on one trigger each start its cutscene
/// once, the triggers' memory lists each once and in order, and while they watch, what they
/// hold turns none of them.
#[test]
fn a_crowd_on_a_trigger_each_watch_its_cutscene_and_are_held_still() {
    // The fixture's cutscene trigger is a 2 m circle round (0, 40), played once.
    let mut sim = TownSim::new(one_spawn_at(Vec2::new(fx(0), fx(40))), 7, CROWD);
    step(&mut sim, &idle(CROWD));
    let state = sim.state();
    let watching: Vec<Player> = state.cutscenes.iter().map(|c| c.player).collect();
    assert!(watching.len() > CROWD / 2, "{} of {CROWD} watch", watching.len());
    assert!(watching.windows(2).all(|w| w[0] < w[1]), "each once, in player order");
    let played: Vec<_> = state.zones.played.iter().map(|&(id, _)| id).collect();
    let watchers: Vec<_> = watching.iter().map(|&p| state.players[p.index()]).collect();
    assert_eq!(played, watchers, "the memory lists each watcher's character once, in order");
    let facing = |sim: &TownSim, p: Player| sim.snapshot().player_character(p).unwrap().facing;
    let before: Vec<Angle> = watching.iter().map(|&p| facing(&sim, p)).collect();
    let turn = PlayerCommand { turn: 4_096, ..PlayerCommand::default() };
    step(&mut sim, &vec![turn; CROWD]);
    let turned = watching.iter().zip(&before).filter(|&(&p, &was)| facing(&sim, p) != was);
    let turned = turned.count();
    assert_eq!(turned, 0, "{turned} of {} watchers turned", watching.len());
}
