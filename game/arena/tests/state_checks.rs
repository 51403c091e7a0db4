//! A state from outside (a replay's keyframe, a host's welcome) is checked against the rink
//! before it is restored: each broken invariant is refused with the field it lies in.

use std::path::Path;
use std::sync::Arc;

use fixstep_arena::{ArenaCommand, ArenaSim, ArenaState, MAX_PLAYERS, load_layout};
use fixstep_runtime::math::{Fx, fx};
use fixstep_runtime::{Simulation, Tick};

fn arena(players: usize) -> ArenaSim {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let layout = load_layout(&assets, &assets.join("arena/arena.ron")).expect("the rink loads");
    ArenaSim::new(Arc::new(layout), 3, players)
}

/// Commands that skate every way and dash now and then, so that discs meet the boards and
/// each other.
fn commands(tick: u32, players: usize) -> Vec<ArenaCommand> {
    (0..players)
        .map(|p| {
            let turn = (tick / 20 + p as u32) % 4;
            let (x, y) = [(100, 0), (0, 100), (-100, 0), (0, -100)][turn as usize];
            ArenaCommand { x, y, dash: tick.is_multiple_of(17) }
        })
        .collect()
}

/// A game some ticks in.
fn valid() -> (ArenaSim, ArenaState) {
    let mut sim = arena(4);
    for t in 0..60 {
        sim.step(Tick(t), &commands(t, 4)).expect("runs");
    }
    let state = sim.state().clone();
    sim.check_state(&state).expect("the rules' own state fits");
    (sim, state)
}

#[track_caller]
fn refused_at(field: &str, breaking: impl FnOnce(&mut ArenaState)) {
    let (sim, mut state) = valid();
    breaking(&mut state);
    let message = sim.check_state(&state).expect_err("a broken state").to_string();
    assert!(message.starts_with(field), "refused as `{message}`, not at {field}");
}

#[test]
fn a_state_the_rules_computed_passes_at_every_tick() {
    let mut sim = arena(6);
    for t in 0..1_500 {
        sim.step(Tick(t), &commands(t, 6)).expect("runs");
        sim.check_state(sim.state()).expect("the rules' own state fits");
    }
}

#[test]
fn seats_and_pucks_are_as_many_as_the_rules_and_the_rink_hold() {
    refused_at("pushers", |s| s.pushers.resize(MAX_PLAYERS + 1, None));
    refused_at("pucks", |s| s.pucks.clear());
    refused_at("pucks", |s| s.pucks.push(s.pucks[0]));
}

#[test]
fn discs_stay_on_the_rink_and_within_any_speed() {
    refused_at("pushers[1].pos", |s| s.pushers[1].as_mut().expect("seated").pos.x = fx(10_000));
    refused_at("pushers[0].vel", |s| s.pushers[0].as_mut().expect("seated").vel.y = Fx::MIN);
    refused_at("pucks[0].pos", |s| s.pucks[0].pos.y = Fx::MIN);
    refused_at("pucks[0].vel", |s| s.pucks[0].vel.x = Fx::MAX);
}

#[test]
fn counters_are_what_the_ticks_could_have_made() {
    refused_at("pushers[2].dash_cooldown", |s| {
        s.pushers[2].as_mut().expect("seated").dash_cooldown = u16::MAX;
    });
    refused_at("pushers[3].seated_at", |s| {
        s.pushers[3].as_mut().expect("seated").seated_at = Tick(1_000);
    });
    refused_at("score", |s| s.score = [u32::MAX, 0]);
    refused_at("next", |s| s.next = Tick(u32::MAX));
    refused_at("pucks[0].jumps", |s| s.pucks[0].jumps = u32::MAX);
}
