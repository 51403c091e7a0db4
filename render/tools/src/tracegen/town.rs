//! The towns of the scenarios: a base town of five vehicles and three walkers in all three
//! tiers, driving and walking at random from a seed, and what some scenarios add to it.

use std::f64::consts::{FRAC_PI_2, PI};

use super::rng::Rng;
use super::world::{Happening, Kind, Life, Script, TICK_MS, World, random_vehicle, random_walker};

/// What a scenario's town has besides the ordinary comings and goings of traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Happenings {
    /// Nothing more: each entity keeps its tier, nobody jumps, everyone exists throughout.
    Nothing,
    /// Six entities move between tiers 1, 2 and 4 several times.
    TierChanges,
    /// Vehicles and walkers teleport (moving on, or arriving standing), and entities at rest
    /// are placed elsewhere.
    Teleports,
    /// A vehicle appears mid-trace, a walker goes for good, and a vehicle goes and comes back
    /// elsewhere under its id.
    ComingsAndGoings,
}

/// The base town's vehicles: ids and tiers. Tier 1 twice, so the nearest tier (whose frames
/// the position error mostly judges) has company.
const VEHICLES: [(u64, u8); 5] = [(1, 1), (2, 2), (3, 4), (4, 1), (5, 2)];

/// The base town's walkers: ids and tiers.
const WALKERS: [(u64, u8); 3] = [(6, 1), (7, 2), (8, 4)];

/// How far from the centre vehicles start, metres: a few blocks.
const VEHICLE_SPREAD_M: f64 = 150.0;

/// How far from the centre walkers start, metres: a square and its streets.
const WALKER_SPREAD_M: f64 = 40.0;

/// Ticks between one entity's tier changes: 6 to 11 s, so each changes tier several times in a
/// trace and every change has settled (a tier delay slews at 3 %, three ticks in 10 s) or
/// nearly so before the next.
const TIER_CHANGE_TICKS: (u32, u32) = (60, 110);

/// The stream of a scenario's seed that its town draws from.
const TOWN_STREAM: u64 = 1;

/// The town of `seed` with `happenings`, simulated over ticks `0..=ticks`.
#[must_use]
pub fn town(seed: u64, happenings: Happenings, ticks: u32) -> World {
    let mut rng = Rng::new(seed, TOWN_STREAM);
    let end_ms = ticks * TICK_MS;
    let mut scripts: Vec<Script> = Vec::new();
    for (id, tier) in VEHICLES {
        let start = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)].map(|x| x * VEHICLE_SPREAD_M);
        scripts.push(random_vehicle(&mut rng, id, start, tier, end_ms));
    }
    for (id, tier) in WALKERS {
        let start = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)].map(|x| x * WALKER_SPREAD_M);
        scripts.push(random_walker(&mut rng, id, start, tier, end_ms));
    }
    match happenings {
        Happenings::Nothing => {}
        Happenings::TierChanges => tier_changes(&mut rng, &mut scripts, ticks),
        Happenings::Teleports => teleports(&mut scripts, end_ms),
        Happenings::ComingsAndGoings => comings_and_goings(&mut scripts, end_ms),
    }
    scripts.sort_by_key(Script::id);
    World { entities: scripts.iter().map(|s| s.simulate(ticks)).collect(), ticks }
}

/// Entities 1, 2, 3 (vehicles) and 6, 7, 8 (walkers) change tier every few seconds, to
/// another of the three at random.
fn tier_changes(rng: &mut Rng, scripts: &mut [Script], ticks: u32) {
    let base: Vec<(u64, u8)> = VEHICLES.iter().chain(&WALKERS).copied().collect();
    for script in scripts.iter_mut().filter(|s| [1, 2, 3, 6, 7, 8].contains(&s.id())) {
        let mut tier = base.iter().find(|(id, _)| *id == script.id()).map_or(1, |&(_, t)| t);
        let mut tick = rng.range_u32(TIER_CHANGE_TICKS.0 / 2, TIER_CHANGE_TICKS.1 / 2);
        while tick < ticks {
            let others: Vec<u8> = [1, 2, 4].into_iter().filter(|&t| t != tier).collect();
            tier = others[rng.range_u32(0, 1) as usize];
            *script = script.clone().tier_from(tick, tier);
            tick += rng.range_u32(TIER_CHANGE_TICKS.0, TIER_CHANGE_TICKS.1);
        }
    }
}

/// Replaces the script of the entity `id` (keeping its tier) with `script`.
fn replace(scripts: &mut [Script], script: Script) {
    if let Some(slot) = scripts.iter_mut().find(|s| s.id() == script.id()) {
        *slot = script;
    }
}

/// Teleports and placements:
///
/// - vehicle 1 (tier 1) pulls away, is teleported while cruising (moving on from the new
///   place), brakes to a stop, is towed elsewhere while it stands, and pulls away again;
/// - vehicle 5 (tier 2) is teleported while cruising at an odd tick, off its tier's turn;
/// - walker 6 (tier 1) is teleported while walking and arrives standing, then walks on;
/// - walker 7 (tier 2) is placed elsewhere twice while it stands (it sat down on a bench);
/// - walker 8 (tier 4) is teleported twice while walking, off its tier's turn.
///
/// The vehicles that jump are in tiers 1 and 2: a tier-4 car's last four ticks before a
/// teleport are never sent (the snapshot of the jump measures the new place), so the client
/// can only guess them, metres off at town speeds, which no drawing could avoid.
fn teleports(scripts: &mut [Script], end_ms: u32) {
    let car = Script::new(1, Kind::Vehicle, [0.0, 30.0], 0.0, 0.0, 1)
        .hold(2_000)
        .speed_to(14.0, 7_000)
        .hold(3_000)
        .at(120, Happening::Teleport { to: [-120.0, 60.0], yaw: FRAC_PI_2 })
        .hold(3_000)
        .turn(1.2, 4_000)
        .speed_to(0.0, 5_000)
        .hold(6_000)
        .at(270, Happening::Place { to: [-150.0, 20.0], yaw: 0.0 });
    let rest = end_ms.saturating_sub(car.cursor_ms() + 5_000);
    replace(scripts, car.speed_to(10.0, 5_000).hold(rest));

    let car = Script::new(5, Kind::Vehicle, [100.0, -50.0], PI, 11.0, 2)
        .hold(8_000)
        .turn(-0.8, 3_000)
        .hold(9_100)
        .at(201, Happening::Teleport { to: [80.0, 120.0], yaw: -FRAC_PI_2 })
        .hold(5_000)
        .speed_to(16.0, 3_000)
        .turn(0.6, 3_000);
    let rest = end_ms.saturating_sub(car.cursor_ms());
    replace(scripts, car.hold(rest));

    let walker = Script::new(6, Kind::Walker, [5.0, 5.0], 0.0, 1.4, 1)
        .hold(6_000)
        .turn(1.0, 1_000)
        .hold(13_000)
        .at(200, Happening::Teleport { to: [60.0, -40.0], yaw: -1.0 })
        .with_speed_from_here(0.0)
        .hold(3_000)
        .speed_to(1.3, 250);
    let rest = end_ms.saturating_sub(walker.cursor_ms());
    replace(scripts, walker.hold(rest));

    let walker = Script::new(7, Kind::Walker, [20.0, -5.0], 0.0, 0.0, 2)
        .hold(8_000)
        .at(50, Happening::Place { to: [23.0, -5.0], yaw: PI })
        .hold(4_100)
        .speed_to(1.3, 250)
        .hold(8_000)
        .turn(-1.2, 1_000)
        .speed_to(0.0, 250)
        .hold(5_000)
        .at(240, Happening::Place { to: [12.0, 3.0], yaw: 0.4 })
        .hold(2_000)
        .speed_to(1.6, 300);
    let rest = end_ms.saturating_sub(walker.cursor_ms());
    replace(scripts, walker.hold(rest));

    let walker = Script::new(8, Kind::Walker, [-10.0, -10.0], -2.0, 1.2, 4)
        .hold(10_000)
        .turn(0.8, 1_200)
        .hold(13_800)
        .at(250, Happening::Teleport { to: [-30.0, 40.0], yaw: 0.5 })
        .at(331, Happening::Teleport { to: [10.0, 45.0], yaw: -2.5 });
    let rest = end_ms.saturating_sub(walker.cursor_ms());
    replace(scripts, walker.hold(rest));
}

/// The tick at which vehicle 9 appears: odd, so off its tier-2 turn, and it is sent at once
/// because it is new.
pub const APPEARS_AT_TICK: u32 = 83;

/// The tick from which walker 8 is gone for good.
pub const GOES_AT_TICK: u32 = 262;

/// The ticks from which vehicle 4 is gone, and at which it comes back elsewhere under its id.
pub const AWAY_TICKS: (u32, u32) = (150, 230);

/// Vehicle 9 (tier 2) appears mid-trace while driving; walker 8 goes for good; vehicle 4 goes
/// and comes back elsewhere under its id, a respawn (its jump counter counts one more).
fn comings_and_goings(scripts: &mut Vec<Script>, end_ms: u32) {
    let car = Script::new(9, Kind::Vehicle, [-60.0, -60.0], 0.3, 10.0, 2)
        .hold(12_000)
        .turn(1.0, 3_000)
        .hold(5_000)
        .speed_to(0.0, 4_000)
        .hold(3_000)
        .speed_to(12.0, 5_000);
    let rest = end_ms.saturating_sub(car.cursor_ms());
    scripts.push(car.hold(rest).lives(vec![Life { from_tick: APPEARS_AT_TICK, until_tick: None }]));
    for script in scripts.iter_mut() {
        match script.id() {
            8 => {
                *script = script
                    .clone()
                    .lives(vec![Life { from_tick: 0, until_tick: Some(GOES_AT_TICK) }]);
            }
            4 => {
                *script = script
                    .clone()
                    .lives(vec![
                        Life { from_tick: 0, until_tick: Some(AWAY_TICKS.0) },
                        Life { from_tick: AWAY_TICKS.1, until_tick: None },
                    ])
                    .at(AWAY_TICKS.1, Happening::Teleport { to: [40.0, -90.0], yaw: 2.0 });
            }
            _ => {}
        }
    }
}
