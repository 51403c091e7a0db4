//! The arena's rules, one test per rule: skating, dashing, bouncing, scoring, joining; its
//! commands as scripts write them; and its rink files, whose problems are named with their
//! file and line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_arena::{
    ArenaCommand, ArenaSim, Layout, MAX_PLAYERS, MAX_PUCKS, MAX_SPAWNS_PER_TEAM, PUCK_MAX_SPEED,
    PUCK_RADIUS, PUSHER_RADIUS, load_layout,
};
use fixstep_runtime::math::{Fx, Vec2, fx_ratio};
use fixstep_runtime::script::TextCommand;
use fixstep_runtime::{Player, Simulation, Tick};

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn rink() -> Arc<Layout> {
    let layout = load_layout(&assets(), &assets().join("arena/arena.ron"));
    Arc::new(layout.expect("the rink loads"))
}

const EAST: ArenaCommand = ArenaCommand { x: 100, y: 0, dash: false };
const WEST: ArenaCommand = ArenaCommand { x: -100, y: 0, dash: false };
const STILL: ArenaCommand = ArenaCommand { x: 0, y: 0, dash: false };

fn step(sim: &mut ArenaSim, commands: &[ArenaCommand]) {
    sim.step(sim.next_tick(), commands).expect("a command a player, in order");
}

/// A pusher held east speeds up to a steady top speed (its push against its drag, 6 m/s),
/// never past the fastest a pusher goes, and stops at the boards instead of passing them.
#[test]
fn a_pusher_held_east_reaches_its_top_speed_and_stays_inside_the_boards() {
    let layout = rink();
    let mut sim = ArenaSim::new(Arc::clone(&layout), 1, 1);
    let mut fastest = Fx::ZERO;
    for _ in 0..200 {
        step(&mut sim, &[EAST]);
        let pusher = sim.state().pushers[0].expect("seated");
        fastest = fastest.max(pusher.vel.length());
        assert!(pusher.pos.x <= layout.half_length - PUSHER_RADIUS, "inside: {:?}", pusher.pos);
    }
    // The push over what the drag leaves (3/20 m a tick over 1/4): 0.6 m a tick.
    let top = fx_ratio(3, 5);
    assert!((fastest - top).abs() < fx_ratio(1, 100), "top speed {fastest} m a tick");
    let pusher = sim.state().pushers[0].expect("seated");
    assert_eq!(pusher.pos.x, layout.half_length - PUSHER_RADIUS, "against the east boards");
}

/// A dash is a burst of speed where the stick points, and a press: held down, it bursts once
/// and not again until its cooldown (a second and a half) is over.
#[test]
fn a_dash_bursts_once_then_waits_for_its_cooldown() {
    let mut sim = ArenaSim::new(rink(), 1, 1);
    let dash = ArenaCommand { dash: true, ..EAST };
    let mut bursts = Vec::new();
    for tick in 0..40 {
        let before = sim.state().pushers[0].expect("seated");
        step(&mut sim, &[dash]);
        let after = sim.state().pushers[0].expect("seated");
        if after.dash_cooldown > before.dash_cooldown {
            bursts.push(tick);
        }
        if tick == 0 {
            let burst = after.vel.length() - before.vel.length();
            assert!(burst > fx_ratio(3, 5), "the first tick bursts: {burst} m a tick");
        }
    }
    assert_eq!(bursts, [0, 15, 30], "a burst at once, then one every 15 ticks");
}

/// Two pushers skating into each other bounce apart: after the crash each moves away from the
/// other, and at no tick's end do they overlap.
#[test]
fn pushers_that_crash_bounce_apart_and_never_overlap() {
    let mut sim = ArenaSim::new(rink(), 1, 2);
    let mut state = sim.state().clone();
    // Along the south boards, away from the pucks' spots.
    let south = -Fx::from_num(7);
    state.pushers[0].as_mut().expect("seated").pos = Vec2::new(-Fx::from_num(3), south);
    state.pushers[1].as_mut().expect("seated").pos = Vec2::new(Fx::from_num(3), south);
    sim.restore(&state);
    let mut crashed = false;
    for _ in 0..40 {
        let commands = if crashed { [STILL, STILL] } else { [EAST, WEST] };
        step(&mut sim, &commands);
        let [a, b] =
            [sim.state().pushers[0].expect("seated"), sim.state().pushers[1].expect("seated")];
        let apart = (b.pos - a.pos).length();
        assert!(apart >= PUSHER_RADIUS * 2 - fx_ratio(1, 1_000), "overlap: {apart} m apart");
        crashed |= apart < PUSHER_RADIUS * 2 + fx_ratio(1, 100);
    }
    assert!(crashed, "they met");
    let [a, b] = [sim.state().pushers[0].expect("seated"), sim.state().pushers[1].expect("seated")];
    assert!(a.vel.x <= Fx::ZERO && b.vel.x >= Fx::ZERO, "apart: {:?} {:?}", a.vel, b.vel);
}

/// A puck that slides over the east goal line between the posts is a goal for blue (team 0
/// attacks east); it comes back to its spot, a hand's breadth off it at most, at rest, and its
/// jump counter says it was put somewhere new.
#[test]
fn a_puck_in_the_east_goal_scores_for_blue_and_comes_back_to_its_spot() {
    let layout = rink();
    let mut sim = ArenaSim::new(Arc::clone(&layout), 1, 0);
    let mut state = sim.state().clone();
    state.pucks[0].pos = Vec2::new(layout.half_length - Fx::ONE, Fx::ZERO);
    state.pucks[0].vel = Vec2::new(fx_ratio(1, 2), Fx::ZERO);
    sim.restore(&state);
    for _ in 0..10 {
        step(&mut sim, &[]);
    }
    let state = sim.state();
    assert_eq!(state.score, [1, 0], "blue scored");
    let puck = state.pucks[0];
    assert_eq!(puck.jumps, 1);
    assert_eq!(puck.vel, Vec2::ZERO, "at rest");
    let off = (puck.pos - layout.pucks[0]).length();
    assert!(off <= fx_ratio(1, 4), "back at its spot, {off} m off");
}

/// A puck struck hard (faster than a puck may go, as a pusher's bounce can make it) moves no
/// farther in its next tick than the cap: the cap holds before it moves, so no puck outruns
/// the distance a pusher can cover.
#[test]
fn a_puck_struck_too_fast_moves_no_farther_than_the_cap() {
    let mut sim = ArenaSim::new(rink(), 1, 0);
    let mut state = sim.state().clone();
    let start = Vec2::new(-Fx::from_num(5), Fx::ZERO);
    state.pucks[0].pos = start;
    state.pucks[0].vel = Vec2::new(Fx::from_num(3), Fx::ZERO);
    sim.restore(&state);
    step(&mut sim, &[]);
    let moved = (sim.state().pucks[0].pos - start).length();
    assert!(moved <= PUCK_MAX_SPEED, "moved {moved} m in a tick, the cap is {PUCK_MAX_SPEED}");
    assert!(moved > PUCK_MAX_SPEED - fx_ratio(1, 100), "at the cap: {moved} m");
}

/// A puck that hits the boards beside the goal bounces back, losing a fifth of its speed,
/// and scores nothing.
#[test]
fn a_puck_beside_the_goal_bounces_off_the_boards() {
    let layout = rink();
    let mut sim = ArenaSim::new(Arc::clone(&layout), 1, 0);
    let mut state = sim.state().clone();
    let beside = layout.goal_half_width + Fx::ONE;
    state.pucks[0].pos = Vec2::new(layout.half_length - Fx::ONE, beside);
    state.pucks[0].vel = Vec2::new(fx_ratio(1, 2), Fx::ZERO);
    sim.restore(&state);
    for _ in 0..10 {
        step(&mut sim, &[]);
    }
    let puck = sim.state().pucks[0];
    assert_eq!(sim.state().score, [0, 0]);
    assert!(puck.vel.x < Fx::ZERO, "coming back west: {:?}", puck.vel);
    assert!(puck.pos.x <= layout.half_length - PUCK_RADIUS);
}

/// Players join up to the arena's size, alternating teams; one more is refused.
#[test]
fn players_join_up_to_sixteen() {
    let mut sim = ArenaSim::new(rink(), 1, 0);
    for expected in Player::all(MAX_PLAYERS) {
        assert_eq!(sim.add_player().expect("room"), expected);
    }
    assert!(sim.add_player().is_err(), "a seventeenth is refused");
    let state = sim.state();
    assert!(
        state.pushers[0].expect("seated").pos.x < Fx::ZERO
            && state.pushers[1].expect("seated").pos.x > Fx::ZERO,
        "teams"
    );
}

/// A player who leaves takes its pusher off the rink: a free seat's stick moves nothing and
/// bumps nobody, and the seat keeps its number (and so its team) for the newcomer who takes
/// it, whose pusher starts at the seat's spawn knowing the tick it was seated. A seat taken or
/// free is refused the other way. (How the arena draws it: `render/arena-view/tests/`.)
#[test]
fn a_seat_freed_and_taken_again_changes_the_pusher_and_keeps_the_team() {
    let mut sim = ArenaSim::new(rink(), 1, 2);
    for _ in 0..20 {
        step(&mut sim, &[EAST, WEST]);
    }
    sim.free_seat(Player(1)).expect("seated");
    assert!(sim.free_seat(Player(1)).is_err(), "already free");
    assert_eq!(sim.players(), 2, "the seat stays");
    assert!(sim.state().pushers[1].is_none(), "its pusher is off the rink");
    let alone = sim.state().pushers[0].expect("seated");
    for _ in 0..20 {
        step(&mut sim, &[STILL, EAST]);
    }
    assert!(sim.state().pushers[1].is_none(), "a free seat's stick moves nothing");
    let mut lone = ArenaSim::new(rink(), 1, 1);
    lone.restore(&{
        let mut state = sim.state().clone();
        state.pushers.truncate(1);
        state
    });
    for _ in 0..5 {
        step(&mut lone, &[STILL]);
        step(&mut sim, &[STILL, STILL]);
    }
    assert_eq!(sim.state().pushers[0], lone.state().pushers[0], "nobody in seat 1 to bump");
    assert_ne!(alone, sim.state().pushers[0].expect("seated"), "it moved on its own");
    let seated_at = sim.next_tick();
    sim.seat_player(Player(1)).expect("a free seat");
    assert!(sim.seat_player(Player(1)).is_err(), "taken");
    let newcomer = sim.state().pushers[1].expect("seated again");
    assert!(newcomer.pos.x > Fx::ZERO, "team 1's half, as seat 1 always was");
    assert_eq!(newcomer.seated_at, seated_at);
}

/// A command script's fields: `X Y [dash]`, percents; anything else is refused, saying what.
#[test]
fn commands_read_from_scripts_and_say_what_is_wrong() {
    let read = |words: &str| ArenaCommand::from_words(&words.split(' ').collect::<Vec<_>>());
    assert_eq!(read("50 -20"), Ok(ArenaCommand { x: 50, y: -20, dash: false }));
    assert_eq!(read("0 100 dash"), Ok(ArenaCommand { x: 0, y: 100, dash: true }));
    assert!(read("101 0").unwrap_err().contains("`101` is not a percent"));
    assert!(read("1 2 jump").unwrap_err().contains("unknown flag `jump`"));
    assert!(read("1").unwrap_err().contains("X Y [dash]"));
}

/// Ticks are counted: the state says how many ran.
#[test]
fn the_state_counts_its_ticks() {
    let mut sim = ArenaSim::new(rink(), 1, 1);
    for _ in 0..7 {
        step(&mut sim, &[STILL]);
    }
    assert_eq!(sim.next_tick(), Tick(7));
}

/// Writes `text` as a rink file of its own and loads it.
fn load(name: &str, text: &str) -> Result<Layout, String> {
    let dir = std::env::temp_dir().join(format!("fixstep-arena-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let file = dir.join("rink.ron");
    std::fs::write(&file, text).expect("a scratch file");
    let loaded = load_layout(&dir, &file).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    loaded
}

const GOOD: &str = "(\n    name: \"small\",\n    length_mm: 20000,\n    width_mm: 10000,\n    goal_width_mm: 4000,\n    pucks: [(0, 0)],\n    spawns: ([(-5000, 0)], [(5000, 0)]),\n)\n";

/// A rink file's problems are named with the file, the line of the field, and what is wrong;
/// a good one loads.
#[test]
fn a_bad_rink_file_is_refused_naming_its_line() {
    let small = load("good", GOOD).expect("a good rink loads");
    assert_eq!(small.half_length, Fx::from_num(10));
    let wide_goal = GOOD.replace("goal_width_mm: 4000", "goal_width_mm: 12000");
    let error = load("wide-goal", &wide_goal).unwrap_err();
    assert!(error.contains("rink.ron:5:1: goal_width_mm: a goal 12000 mm wide"), "{error}");
    let outside = GOOD.replace("pucks: [(0, 0)]", "pucks: [(0, 9000)]");
    let error = load("outside", &outside).unwrap_err();
    assert!(error.contains("rink.ron:6:1: pucks: (0, 9000) is outside the rink"), "{error}");
    let no_spawn = GOOD.replace("[(5000, 0)]", "[]");
    let error = load("no-spawn", &no_spawn).unwrap_err();
    assert!(error.contains(":7:1: spawns: team 1 has nowhere to start"), "{error}");
    let broken = GOOD.replace("width_mm: 10000,", "width_mm: ten,");
    let error = load("broken", &broken).unwrap_err();
    assert!(error.contains("rink.ron:4:"), "the line of the syntax error: {error}");
    let tiny = GOOD.replace("length_mm: 20000", "length_mm: 5");
    assert!(load("tiny", &tiny).unwrap_err().contains("length_mm: 5 is not from"));
}

/// Protects the caps of a rink: one puck more than a rink may hold, or one spawn more than a
/// team has players, is refused naming the cap, at its field's line; as many as the caps load.
#[test]
fn a_rink_over_its_caps_is_refused_naming_them() {
    let points = |count: usize, x: i32| -> String {
        (0..count)
            .map(|i| format!("({x}, {})", -4000 + 250 * i as i32))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let pucks = |count| GOOD.replace("pucks: [(0, 0)]", &format!("pucks: [{}]", points(count, 0)));
    assert_eq!(load("most-pucks", &pucks(MAX_PUCKS)).expect("loads").pucks.len(), MAX_PUCKS);
    let error = load("many-pucks", &pucks(MAX_PUCKS + 1)).unwrap_err();
    let cap = format!("rink.ron:6:1: pucks: 33 pucks is over the {MAX_PUCKS} a rink may hold");
    assert!(error.contains(&cap), "{error}");
    let spawns = |count| GOOD.replace("[(5000, 0)]", &format!("[{}]", points(count, 5000)));
    let most = load("most-spawns", &spawns(MAX_SPAWNS_PER_TEAM)).expect("loads");
    assert_eq!(most.spawns[1].len(), MAX_SPAWNS_PER_TEAM);
    let error = load("many-spawns", &spawns(MAX_SPAWNS_PER_TEAM + 1)).unwrap_err();
    let cap = format!("rink.ron:7:1: spawns: team 1 has 9 spawns, over the {MAX_SPAWNS_PER_TEAM}");
    assert!(error.contains(&cap), "{error}");
}
