//! A small level built in code, so the rules' tests control every distance and duration.

#![allow(dead_code, reason = "each test file uses its own part of this module")]

use std::sync::Arc;

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3, fx, fx_ratio};
use fixstep_runtime::{Player, Simulation, Tick};
use fixstep_town::level::{
    BuildingDef, CameraKeyDef, Circle, ClipDef, Clips, CutsceneDef, CutsceneTriggerDef,
    DialogueDef, DoorDef, Easing, LampDef, Level, LiftDef, LineDef, ObjectDef, ObjectDefKind,
    PedestrianDef, Rect, SignDef, SpawnDef, TalkerDef, TaxiDef, TeleportDef, TeleportEndDef,
};
use fixstep_town::{AnimState, PlayerCommand, TownSim};

pub fn v(x: i32, y: i32) -> Vec2 {
    Vec2::new(fx(x), fx(y))
}

/// Index of each object in the fixture level.
pub const DOOR: usize = 0;
pub const LIFT: usize = 1;
pub const SIGN: usize = 2;

/// Door timings.
pub const SWING_TICKS: u32 = 5;
pub const STAY_OPEN_TICKS: u32 = 30;

/// The fixture: a 200 m square; a building at (20..30, 20..30) with a door on its south wall;
/// a lift and a sign; a taxi on a square loop far from the spawn with one stand; a teleport
/// pair; a talker; a cutscene trigger; one pedestrian. The player spawns at the origin facing
/// east (+x).
pub fn level() -> Level {
    let clip = |name: &str, frames: u32, fps: u32, looping: bool| ClipDef {
        name: name.to_owned(),
        frames,
        frames_per_tick: Fx::from_num(fps) / 10,
        looping,
    };
    let clips = Clips {
        defs: vec![
            clip("idle", 20, 10, true),
            clip("walk", 24, 24, true),
            clip("run", 16, 30, true),
            clip("wave", 12, 12, false),
            clip("talk", 10, 10, true),
            clip("hit", 6, 20, false),
        ],
        by_state: [0, 1, 2, 3, 4, 5],
    };
    assert_eq!(AnimState::COUNT, 6);
    let zone = |x: i32, y: i32| Circle { centre: v(x, y), radius: fx(2) };
    Level {
        name: "fixture".to_owned(),
        source: "tests".to_owned(),
        files: Arc::default(),
        ground: Rect { min: v(-100, -100), max: v(100, 100) },
        ticks_per_day: 6_000,
        start_time_of_day: 1 << 31,
        clips,
        waypoints: vec![v(-80, -80), v(-20, -80), v(-20, -40), v(-80, -40)],
        lanes: vec![(0, 1), (1, 2), (2, 3), (3, 0)],
        buildings: vec![BuildingDef {
            id: "hall".to_owned(),
            footprint: Rect { min: v(20, 20), max: v(30, 30) },
            height: fx(8),
        }],
        spawns: vec![
            SpawnDef { at: v(0, 0), facing: Angle::ZERO },
            SpawnDef { at: v(0, 5), facing: Angle::ZERO },
        ],
        objects: vec![
            ObjectDef {
                id: "hall-door".to_owned(),
                kind: ObjectDefKind::Door(DoorDef {
                    building: 0,
                    hinge: v(24, 20),
                    leaf_end: v(26, 20),
                    height: fx_ratio(21, 10),
                    open_angle: Angle::from_degrees(-90),
                    swing_ticks: SWING_TICKS,
                    stay_open_ticks: STAY_OPEN_TICKS,
                    easing: Easing::Linear,
                }),
            },
            ObjectDef {
                id: "lift".to_owned(),
                kind: ObjectDefKind::Lift(LiftDef {
                    footprint: Rect { min: v(40, 0), max: v(43, 3) },
                    bottom: Fx::ZERO,
                    top: fx(6),
                    travel_ticks: 20,
                    wait_ticks: 10,
                    easing: Easing::InOut,
                }),
            },
            ObjectDef {
                id: "sign".to_owned(),
                kind: ObjectDefKind::Sign(SignDef {
                    at: Vec3::new(fx(10), fx(3), fx(-10)),
                    facing: Angle::ZERO,
                    text: "Town Hall".to_owned(),
                    fade_ticks: 8,
                    hold_ticks: 12,
                    easing: Easing::Linear,
                }),
            },
        ],
        teleports: vec![TeleportDef {
            id: "portal".to_owned(),
            ends: [
                TeleportEndDef {
                    zone: zone(0, -20),
                    exit: v(0, -25),
                    exit_facing: Angle::from_degrees(-90),
                },
                TeleportEndDef {
                    zone: zone(60, 60),
                    exit: v(60, 65),
                    exit_facing: Angle::from_degrees(90),
                },
            ],
        }],
        pedestrians: vec![PedestrianDef {
            name: "Walker".into(),
            route: vec![v(-50, 50), v(-40, 50)],
            stops: vec![false, true],
            pause_ticks: 15,
            speed: fx_ratio(14, 100),
        }],
        taxis: vec![TaxiDef {
            id: "cab".to_owned(),
            route: vec![0, 1, 2, 3],
            stands: vec![false, false, true, false],
            stand_ticks: 40,
            max_speed: fx_ratio(10, 10),
        }],
        talkers: vec![TalkerDef {
            name: "Mayor".into(),
            at: v(-10, 0),
            facing: Angle::ZERO,
            dialogue: 0,
        }],
        dialogues: vec![DialogueDef {
            source: "dialogue/test.ron".to_owned(),
            lines: vec![
                LineDef {
                    speaker: "Mayor".to_owned(),
                    text: "Welcome.".to_owned(),
                    duration_ticks: 30,
                },
                LineDef {
                    speaker: "Mayor".to_owned(),
                    text: "Enjoy the town.".to_owned(),
                    duration_ticks: 30,
                },
            ],
        }],
        cutscene_triggers: vec![CutsceneTriggerDef {
            id: "fountain".to_owned(),
            zone: zone(0, 40),
            cutscene: 0,
            once: true,
        }],
        cutscenes: vec![CutsceneDef {
            source: "cutscenes/test.ron".to_owned(),
            duration_ticks: 50,
            camera: vec![CameraKeyDef {
                at_tick: 0,
                eye: Vec3::new(fx(0), fx(5), fx(-30)),
                target: Vec3::new(fx(0), fx(0), fx(-40)),
            }],
            subtitles: Vec::new(),
            images: Vec::new(),
            fade_ticks: 5,
        }],
        lamps: vec![LampDef { at: v(5, 5), height: fx(4) }],
    }
}

/// A town of the fixture level with `players` players.
pub fn sim(players: usize) -> TownSim {
    TownSim::new(Arc::new(level()), 7, players)
}

/// Steps one tick with these commands.
pub fn step(sim: &mut TownSim, commands: &[PlayerCommand]) {
    let tick = sim.next_tick();
    sim.step(tick, commands).expect("ticks run in order");
}

/// Steps `n` ticks with the same commands.
pub fn run(sim: &mut TownSim, n: u32, commands: &[PlayerCommand]) {
    for _ in 0..n {
        step(sim, commands);
    }
}

/// The player's character position.
pub fn player_pos(sim: &TownSim, player: Player) -> Vec2 {
    sim.snapshot().player_character(player).expect("player exists").pos
}

/// Commands that do nothing, for `players` players.
pub fn idle(players: usize) -> Vec<PlayerCommand> {
    vec![PlayerCommand::default(); players]
}

pub const INTERACT: PlayerCommand =
    PlayerCommand { forward: 0, strafe: 0, turn: 0, run: false, interact: true };

pub fn tick(sim: &TownSim) -> Tick {
    sim.next_tick()
}
