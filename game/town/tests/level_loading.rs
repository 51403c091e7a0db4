//! Level loading: the town loads with everything the game needs, the stress level is as
//! large as promised and passes the same checks, and every kind of broken level is reported
//! with its file, line, column and a message that says what is wrong.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::math::{Angle, Fx, Vec3};
use fixstep_runtime::{Simulation, Tick};
use fixstep_town::level::{
    self, Clips, Level, LevelError, LevelProblem, ObjectDefKind, model::LevelFile,
};
use fixstep_town::state::ObjectPhase;
use fixstep_town::{AnimState, PlayerCommand, TownSim};

/// The workspace root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The real assets.
fn assets() -> PathBuf {
    workspace().join("assets")
}

/// The name the small test level goes by in problems.
const LABEL: &str = "small_level.ron";

/// The text of the small valid level the tests break.
fn small_level() -> String {
    fs::read_to_string(workspace().join("game/town/tests/fixtures/small_level.ron"))
        .expect("the fixture is readable")
}

/// `text` with its one occurrence of `from` replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "the edit needs exactly one {from:?} in the text");
    text.replacen(from, to, 1)
}

/// Line and column (from 1, in characters) of `target` inside the one occurrence of
/// `context` in `text`.
fn position_in(text: &str, context: &str, target: &str) -> (u32, u32) {
    assert_eq!(text.matches(context).count(), 1, "{context:?} must occur exactly once");
    let start = text.find(context).expect("counted above");
    let offset = start + context.find(target).expect("the target is inside the context");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (u32::try_from(line).expect("small"), u32::try_from(column).expect("small"))
}

/// Loads the text of a level against `assets_root`.
fn load_with(text: &str, assets_root: &Path) -> Result<Level, LevelError> {
    level::load_level_str(text, Path::new(LABEL), assets_root)
}

/// The problems of a level that must not load.
fn problems(text: &str, assets_root: &Path) -> Vec<LevelProblem> {
    match load_with(text, assets_root) {
        Ok(_) => panic!("the broken level loaded"),
        Err(error) => error.problems,
    }
}

/// Asserts that there is a problem in `file` at `position` whose message contains every one
/// of `needles`.
fn assert_problem(problems: &[LevelProblem], file: &Path, position: (u32, u32), needles: &[&str]) {
    let found = problems.iter().any(|p| {
        p.file == file
            && (p.line, p.column) == position
            && needles.iter().all(|n| p.message.contains(n))
    });
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        found,
        "no problem in {} at {}:{} containing {needles:?}; the problems are:\n{}",
        file.display(),
        position.0,
        position.1,
        listed.join("\n")
    );
}

/// A copy of the assets the small level uses, in a temporary directory, removed on drop.
struct TempAssets {
    root: PathBuf,
}

impl TempAssets {
    const FILES: [&'static str; 4] = [
        "animations/humanoid.ron",
        "dialogue/mayor.ron",
        "cutscenes/fountain.ron",
        "images/fountain_postcard.png",
    ];

    fn new(name: &str) -> Self {
        let root = std::env::temp_dir()
            .join(format!("fixstep-level-loading-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for file in Self::FILES {
            let to = root.join(file);
            fs::create_dir_all(to.parent().expect("has a parent")).expect("temp dir");
            fs::copy(assets().join(file), &to).expect("copy an asset");
        }
        Self { root }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.root.join(file)
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.path(file)).expect("readable")
    }

    fn write(&self, file: &str, text: &str) {
        fs::write(self.path(file), text).expect("writable");
    }

    fn remove(&self, file: &str) {
        fs::remove_file(self.path(file)).expect("removable");
    }
}

impl Drop for TempAssets {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn town() -> Level {
    let assets = assets();
    match level::load_level(&assets, &assets.join("levels/town.ron")) {
        Ok(town) => town,
        Err(error) => panic!("the town does not load:\n{error}"),
    }
}

fn humanoid_clips() -> Clips {
    level::load_clips(&assets(), "animations/humanoid.ron").expect("the humanoid clips load")
}

/// Centimetres as the loader's metres.
fn cm(value: i32) -> Fx {
    Fx::from_num(value) / 100
}

// ---------------------------------------------------------------------------------------------
// The town

#[test]
fn town_loads_with_its_source_and_clock() {
    let town = town();
    assert_eq!(town.name, "Fixstep Town");
    assert_eq!(town.source, "levels/town.ron");
    assert_eq!(town.ticks_per_day, 24 * 600);
    // 9:00 is 540 of 1440 minutes: 3/8 of a day.
    assert_eq!(town.start_time_of_day, 3 << 29);
}

#[test]
fn town_has_a_street_grid_around_at_least_four_blocks_with_lanes_both_ways() {
    let town = town();
    let xs: std::collections::BTreeSet<Fx> = town.waypoints.iter().map(|w| w.x).collect();
    let ys: std::collections::BTreeSet<Fx> = town.waypoints.iter().map(|w| w.y).collect();
    // At least a 3 × 3 grid of street lines: at least 2 × 2 blocks.
    assert!(xs.len() >= 3 && ys.len() >= 3, "street lines: {xs:?} {ys:?}");
    for &(a, b) in &town.lanes {
        assert!(town.lanes.contains(&(b, a)), "lane {a} -> {b} has no lane back");
    }
}

#[test]
fn town_has_buildings_with_doors_on_their_outlines() {
    let town = town();
    assert!(town.buildings.len() >= 6, "{} buildings", town.buildings.len());
    let doors: Vec<_> = town
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            ObjectDefKind::Door(d) => Some(d),
            _ => None,
        })
        .collect();
    assert!(doors.len() >= 4, "{} doors", doors.len());
    for door in doors {
        let building = &town.buildings[door.building as usize];
        let f = building.footprint;
        let on_x_wall = (door.hinge.x == f.min.x || door.hinge.x == f.max.x)
            && door.hinge.y >= f.min.y
            && door.hinge.y <= f.max.y;
        let on_y_wall = (door.hinge.y == f.min.y || door.hinge.y == f.max.y)
            && door.hinge.x >= f.min.x
            && door.hinge.x <= f.max.x;
        assert!(on_x_wall || on_y_wall, "door of {} is off its walls", building.id);
        assert_ne!(door.open_angle, Angle::ZERO);
    }
}

#[test]
fn town_has_taxis_with_a_stand_and_pedestrians_with_stops() {
    let town = town();
    assert!(town.taxis.len() >= 3, "{} taxis", town.taxis.len());
    assert!(town.taxis.iter().all(|t| t.route.len() >= 2));
    assert!(town.taxis.iter().any(|t| t.stands.contains(&true)), "no taxi stand");
    for taxi in &town.taxis {
        let n = taxi.route.len();
        for j in 0..n {
            let step = (taxi.route[j], taxi.route[(j + 1) % n]);
            assert!(town.lanes.contains(&step), "taxi {} leaves the lanes", taxi.id);
        }
    }
    assert!(town.pedestrians.len() >= 6, "{} pedestrians", town.pedestrians.len());
    assert!(town.pedestrians.iter().all(|p| p.stops.contains(&true)), "a pedestrian never stops");
    let walk = town.pedestrians.iter().find(|p| &*p.name == "Ada").expect("Ada walks the plaza");
    assert_eq!(walk.speed, Fx::from_num(130) / 1000);
}

#[test]
fn town_pedestrians_keep_off_buildings_and_two_metres_off_the_lanes() {
    let town = town();
    let two_metres = Fx::from_num(2);
    for ped in &town.pedestrians {
        let n = ped.route.len();
        for j in 0..n {
            let (a, b) = (ped.route[j], ped.route[(j + 1) % n]);
            // Sample each leg of the walk every 1/16 of its length.
            for s in 0..=16 {
                let p = a.lerp(b, Fx::from_num(s) / 16);
                for building in &town.buildings {
                    assert!(
                        !building.footprint.contains(p),
                        "{} walks into {}",
                        ped.name,
                        building.id
                    );
                }
                for &(from, to) in &town.lanes {
                    let (u, v) = (town.waypoints[from as usize], town.waypoints[to as usize]);
                    let closest = {
                        let d = v - u;
                        let t = ((p - u).dot(d) / d.dot(d)).clamp(Fx::ZERO, Fx::ONE);
                        u + d * t
                    };
                    assert!(
                        closest.distance(p) >= two_metres,
                        "{} walks within 2 m of lane {from} -> {to}",
                        ped.name
                    );
                }
            }
        }
    }
}

#[test]
fn town_has_teleports_a_mayor_a_cutscene_a_lift_a_fading_sign_and_lamps() {
    let town = town();
    assert_eq!(town.teleports.len(), 2);
    let mayor = town.talkers.iter().find(|t| &*t.name == "Mayor").expect("the mayor");
    let lines = &town.dialogues[mayor.dialogue as usize].lines;
    assert!((3..=5).contains(&lines.len()), "{} lines", lines.len());
    assert_eq!(town.dialogues[mayor.dialogue as usize].source, "dialogue/mayor.ron");
    assert!(!town.cutscene_triggers.is_empty());
    let cutscene = &town.cutscenes[town.cutscene_triggers[0].cutscene as usize];
    assert!(!cutscene.camera.is_empty() && !cutscene.subtitles.is_empty());
    assert!(!cutscene.images.is_empty() && cutscene.fade_ticks > 0);
    // The first camera key, from the file: eye (0, -2000) cm at 600 cm: x east, y up, z south.
    assert_eq!(cutscene.camera[0].eye, Vec3::new(Fx::ZERO, cm(600), cm(2000)));
    assert!(town.objects.iter().any(|o| matches!(o.kind, ObjectDefKind::Lift(_))));
    let sign = town
        .objects
        .iter()
        .find_map(|o| match &o.kind {
            ObjectDefKind::Sign(s) => Some(s),
            _ => None,
        })
        .expect("a sign");
    assert!(sign.fade_ticks > 0 && sign.hold_ticks > 0);
    assert_eq!(sign.at, Vec3::new(Fx::ZERO, cm(300), -cm(1500)));
    assert!(town.lamps.len() >= 8, "{} lamps", town.lamps.len());
}

#[test]
fn town_spawns_four_players_near_the_centre_clear_of_everything() {
    let town = town();
    assert!(town.spawns.len() >= 4, "{} spawns", town.spawns.len());
    let zones: Vec<_> = town
        .teleports
        .iter()
        .flat_map(|t| t.ends.iter().map(|e| e.zone))
        .chain(town.cutscene_triggers.iter().map(|t| t.zone))
        .collect();
    for spawn in &town.spawns {
        assert!(
            spawn.at.length() <= Fx::from_num(25),
            "spawn {:?} is far from the centre",
            spawn.at
        );
        assert!(town.buildings.iter().all(|b| !b.footprint.contains(spawn.at)));
        assert!(zones.iter().all(|z| !z.contains(spawn.at)), "spawn {:?} is in a zone", spawn.at);
        for object in &town.objects {
            if let ObjectDefKind::Lift(lift) = &object.kind {
                assert!(!lift.footprint.contains(spawn.at));
            }
        }
    }
}

#[test]
fn humanoid_clips_cover_every_state() {
    let clips = humanoid_clips();
    for state in AnimState::ALL {
        assert_eq!(clips.clip(state).name, state.clip_name());
    }
    let walk = clips.clip(AnimState::Walk);
    assert_eq!((walk.frames, walk.looping), (24, true));
    assert_eq!(walk.frames_per_tick, Fx::from_num(24) / 10);
    assert!(!clips.clip(AnimState::Hit).looping);
}

// ---------------------------------------------------------------------------------------------
// The stress level

#[test]
fn stress_level_is_as_large_as_promised_and_passes_the_file_checks() {
    let file: LevelFile = level::stress_level_file();
    if let Err(error) = level::validate_level_file(&file, Path::new("stress")) {
        panic!("the stress level breaks the rules:\n{error}");
    }
    let stress = level::stress_level(humanoid_clips());
    assert_eq!(stress.pedestrians.len(), 10_000);
    assert_eq!(stress.taxis.len(), 1_000);
    assert_eq!(stress.objects.len(), 2_000);
    assert_eq!(
        (level::STRESS_PEDESTRIANS, level::STRESS_TAXIS, level::STRESS_OBJECTS),
        (10_000, 1_000, 2_000)
    );
    let count =
        |f: fn(&ObjectDefKind) -> bool| stress.objects.iter().filter(|o| f(&o.kind)).count();
    assert!(count(|k| matches!(k, ObjectDefKind::Door(_))) > 0);
    assert!(count(|k| matches!(k, ObjectDefKind::Lift(_))) > 0);
    assert!(count(|k| matches!(k, ObjectDefKind::Sign(_))) > 0);
    assert!(stress.taxis.iter().any(|t| t.stands.contains(&true)));
    assert_eq!(stress.teleports.len(), 2);
    assert!(!stress.spawns.is_empty() && !stress.lamps.is_empty());
    // Deterministic: made again, it is the same level.
    assert_eq!(stress, level::stress_level(humanoid_clips()));
}

/// Protects the stress level at larger scales (`--level stress:4`, the benchmarks' 4× and 10×):
/// as many times the people, taxis and objects on as many times the blocks, passing the same
/// checks (at 4×: the checks compare every walker with every building, too slow at 10× for a
/// debug test), and made the same every time.
#[test]
fn the_stress_level_scales_its_people_taxis_and_objects_and_passes_the_checks() {
    let four = level::StressScale::new(4).expect("a scale");
    let file = level::stress_level_file_at(four);
    if let Err(error) = level::validate_level_file(&file, Path::new("stress:4")) {
        panic!("the stress level at 4 times breaks the rules:\n{error}");
    }
    assert_eq!((file.buildings.len(), file.streets.waypoints.len()), (38 * 38, 39 * 39));
    for times in [4, 10] {
        let scale = level::StressScale::new(times).expect("a scale");
        let stress = level::stress_level_at(scale, humanoid_clips());
        let n = usize::try_from(times).expect("small");
        assert_eq!(
            (stress.pedestrians.len(), stress.taxis.len(), stress.objects.len()),
            (10_000 * n, 1_000 * n, 2_000 * n)
        );
        assert_eq!(stress.source, format!("stress:{times}"));
    }
    let ten = level::StressScale::new(10).expect("a scale");
    assert_eq!(level::stress_level_file_at(ten).buildings.len(), 60 * 60, "28 walkers a block");
    assert_eq!(
        level::stress_level_at(ten, humanoid_clips()),
        level::stress_level_at(ten, humanoid_clips()),
        "the same every time"
    );
}

/// Protects the names the command line gives the stress level: `stress` and `stress:SCALE`
/// from 1 to the largest; anything else after `stress:` is refused naming what was given, and
/// other names are level files.
#[test]
fn the_stress_level_is_named_with_its_scale() {
    let scale =
        |name: &str| level::StressScale::from_name(name).map(|s| s.map(level::StressScale::times));
    assert_eq!(scale("stress"), Some(Ok(1)));
    assert_eq!(scale("stress:10"), Some(Ok(10)));
    assert_eq!(scale("stress:20"), Some(Ok(level::MAX_STRESS_SCALE)));
    for bad in ["0", "21", "-1", "ten", "", "4.5"] {
        let error = scale(&format!("stress:{bad}")).expect("the stress level's").expect_err(bad);
        assert_eq!(
            error.to_string(),
            format!("{bad:?}: the stress level's scale is a whole number from 1 to 20")
        );
    }
    for file in ["stress.ron", "levels/stress", "./stress", "stressed", "town"] {
        assert_eq!(scale(file), None, "{file}");
    }
    let ten = level::StressScale::new(10).expect("a scale");
    assert_eq!(level::StressScale::from_name(&ten.name()), Some(Ok(ten)));
    assert_eq!(level::StressScale::ONE.name(), "stress");
}

/// Protects the stress level as content: named where a level file would be, it is made with
/// the clips of the assets, and its files (the clip file, under its name as their own) make it
/// again where the assets are missing, as a replay of it does; a bad scale is a problem
/// naming it.
#[test]
fn the_stress_level_loads_by_name_and_again_from_its_files() {
    use fixstep_runtime::file::ContentReader;
    let made = level::load_level(&assets(), Path::new("stress:2")).expect("the stress level");
    assert_eq!((made.pedestrians.len(), made.source.as_str()), (20_000, "stress:2"));
    assert_eq!(made.files.main, "stress:2");
    assert_eq!(made.files.names().collect::<Vec<_>>(), ["animations/humanoid.ron"]);
    let carried = ContentReader::files(Arc::clone(&made.files), Path::new("match.fxr"));
    let again = level::read_level(&carried, Path::new("")).expect("made again");
    assert_eq!(again.digest(), made.digest());
    assert_eq!(again, made);
    let error = level::load_level(&assets(), Path::new("stress:0")).expect_err("no scale 0");
    assert_eq!(
        error.to_string(),
        "stress:0: \"0\": the stress level's scale is a whole number from 1 to 20"
    );
}

/// Protects the crowd level the benches measure: the stress level's checks pass, with no
/// pedestrians and one spawn for everyone.
#[test]
fn the_crowd_level_passes_the_file_checks_with_one_spawn_and_no_pedestrians() {
    let file = level::crowd_level_file();
    if let Err(error) = level::validate_level_file(&file, Path::new("crowd")) {
        panic!("the crowd level breaks the rules:\n{error}");
    }
    let crowd = level::crowd_level(humanoid_clips());
    assert_eq!((crowd.pedestrians.len(), crowd.spawns.len()), (0, 1));
    assert_eq!(crowd.taxis.len(), level::STRESS_TAXIS);
}

#[test]
fn validate_level_file_reports_problems_without_positions() {
    let mut file = level::stress_level_file();
    file.spawns.clear();
    let error = level::validate_level_file(&file, Path::new("stress")).expect_err("no spawns");
    assert_eq!(error.problems.len(), 1);
    // No place in a text to point at: the problem names the level alone.
    assert_eq!(error.to_string(), "stress: no spawns: a level needs at least one player spawn");
}

// ---------------------------------------------------------------------------------------------
// Broken levels

#[test]
fn the_small_level_is_valid() {
    let small = load_with(&small_level(), &assets()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(small.source, LABEL);
    assert_eq!(small.taxis[0].stands, vec![false, true, false, false]);
    assert_eq!(small.pedestrians[1].stops, vec![false, true, false, true]);
}

/// One edit that breaks the small level in one way: what the edit is, and the one problem
/// it must cause, found at `target` inside `context` of the edited text and saying each of
/// `says`.
struct Broken {
    /// What is broken, as a failure names the case.
    what: &'static str,
    from: &'static str,
    to: &'static str,
    context: &'static str,
    target: &'static str,
    says: &'static [&'static str],
}

/// Levels broken one way each, every one a problem of its own kind.
const BROKEN: &[Broken] = &[
    Broken {
        what: "a syntax error, at RON's position",
        from: "start_minute: 600,",
        to: "start_minute: 600 600,",
        context: "600 600,",
        target: "600,",
        says: &["Expected comma"],
    },
    Broken {
        what: "an unknown field, at the field",
        from: "(id: \"shop\", footprint",
        to: "(id: \"shop\", colour: \"red\", footprint",
        context: "colour: \"red\"",
        target: "colour",
        says: &["colour", "footprint"],
    },
    Broken {
        what: "a dangling reference, naming the missing id",
        from: "building: \"shop\"",
        to: "building: \"shed\"",
        context: "building: \"shed\"",
        target: "\"shed\"",
        says: &["door \"shop_door\"", "building \"shed\" does not exist"],
    },
    Broken {
        what: "an empty route",
        from: "route: [(-1600, -1600), (1600, -1600), (1600, 1600), (-1600, 1600)],\n            stops: [0],",
        to: "route: [],\n            stops: [],",
        context: "route: [],",
        target: "[",
        says: &["pedestrian \"Ann\"", "route is empty"],
    },
    Broken {
        what: "a route step without a lane",
        from: "route: [\"sw\", \"se\", \"ne\", \"nw\"]",
        to: "route: [\"sw\", \"se\", \"nw\"]",
        context: "[\"sw\", \"se\", \"nw\"]",
        target: "\"nw\"",
        says: &["taxi \"cab\"", "no lane from \"se\" to \"nw\""],
    },
    Broken {
        what: "a route without a lane back to its start",
        from: "(\"nw\", \"sw\"), ",
        to: "",
        context: "route: [\"sw\", \"se\"",
        target: "\"sw\"",
        says: &["no lane from \"nw\" to \"sw\""],
    },
    Broken {
        what: "a teleport's exit inside a teleport zone",
        from: "exit: (3500, 0)",
        to: "exit: (4100, 0)",
        context: "exit: (4100, 0)",
        target: "(",
        says: &["teleport \"tp\" end b", "inside zone b of teleport \"tp\""],
    },
    Broken {
        what: "a spawn inside a building",
        from: "(at: (0, 3000), facing_deg: -90)",
        to: "(at: (500, 200), facing_deg: -90)",
        context: "(at: (500, 200)",
        target: "(5",
        says: &["spawn 1 at (500, 200) is inside building \"shop\""],
    },
    Broken {
        what: "a pedestrian's route through a building",
        from: "route: [(-1600, -1600), (1600, -1600), (1600, 1600), (-1600, 1600)],",
        to: "route: [(-1600, -1600), (1600, -1600), (1600, 1600), (-1600, 1600),\n                (1600, -1200)],",
        context: "(-1600, 1600),\n",
        target: "(",
        says: &[
            "pedestrian \"Ann\"",
            "from point 3 (-1600, 1600) to point 4 (1600, -1200)",
            "building \"shop\"",
        ],
    },
];

#[test]
fn each_level_broken_one_way_names_its_one_problem_with_file_line_and_column() {
    for broken in BROKEN {
        let text = edit(&small_level(), broken.from, broken.to);
        let found = problems(&text, &assets());
        assert_eq!(found.len(), 1, "{}: {found:?}", broken.what);
        let at = position_in(&text, broken.context, broken.target);
        let problem = &found[0];
        assert_eq!(problem.file, Path::new(LABEL), "{}", broken.what);
        assert_eq!((problem.line, problem.column), at, "{}: {problem}", broken.what);
        for words in broken.says {
            assert!(
                problem.message.contains(words),
                "{}: {problem} does not say {words:?}",
                broken.what
            );
        }
    }
}

#[test]
fn duplicate_id_points_at_the_second_one() {
    let text = edit(
        &small_level(),
        "    ],\n    spawns",
        "        (id: \"shop\", footprint: (min: (3000, 3000), max: (4000, 4000)), height_cm: 300),\n    ],\n    spawns",
    );
    let found = problems(&text, &assets());
    let first = position_in(&text, "(id: \"shop\", footprint: (min: (-1000", "\"shop\"");
    let second = position_in(&text, "(id: \"shop\", footprint: (min: (3000", "\"shop\"");
    assert_problem(
        &found,
        Path::new(LABEL),
        second,
        &["duplicate building id \"shop\"", &format!("first at line {}", first.0)],
    );
}

#[test]
fn lane_to_a_missing_waypoint_is_a_dangling_reference() {
    let text = edit(&small_level(), "(\"ne\", \"nw\"),", "(\"ne\", \"north\"),");
    let found = problems(&text, &assets());
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "(\"ne\", \"north\")", "\"north\""),
        &["waypoint \"north\" does not exist"],
    );
}

#[test]
fn short_taxi_route_is_reported() {
    let text = edit(&small_level(), "route: [\"sw\", \"se\", \"ne\", \"nw\"]", "route: [\"sw\"]");
    let text = edit(&text, "stands: [\"se\"]", "stands: []");
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "route: [\"sw\"]", "["),
        &["taxi \"cab\"", "needs at least 2"],
    );
}

#[test]
fn stand_off_the_route_and_stop_out_of_range_are_reported() {
    let text = edit(&small_level(), "stands: [\"se\"]", "stands: [\"se\", \"nowhere\"]");
    let text = edit(&text, "stops: [1, 3],", "stops: [1, 4],");
    let text = edit(
        &text,
        "(id: \"ne\", at: (2500, 2500)),",
        "(id: \"ne\", at: (2500, 2500)),\n            (id: \"far\", at: (4000, 4000)),",
    );
    let text = edit(&text, "stands: [\"se\", \"nowhere\"]", "stands: [\"se\", \"far\"]");
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 2, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "stands: [\"se\", \"far\"]", "\"far\""),
        &["stand \"far\" is not on its route"],
    );
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "stops: [1, 4]", "4"),
        &["pedestrian \"Ben\"", "stop 4", "4 points"],
    );
}

#[test]
fn door_without_a_swing_is_reported() {
    let text = edit(&small_level(), "open_deg: -90", "open_deg: 0");
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "open_deg: 0", "0"),
        &["door \"shop_door\"", "door without a swing"],
    );
    let text = edit(&small_level(), "open_deg: -90", "open_deg: 180");
    let found = problems(&text, &assets());
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "open_deg: 180", "180"),
        &["door without a swing", "180"],
    );
}

#[test]
fn problems_are_located_in_newtype_variants_written_in_full() {
    // Without the `unwrap_variant_newtypes` extension, an object's kind is written
    // `Door((...))`: the locator must see through the extra parentheses.
    let text = edit(&small_level(), "#![enable(unwrap_variant_newtypes)]\n", "");
    let text = text
        .replace("kind: Door(\n", "kind: Door((\n")
        .replace("kind: Lift(\n", "kind: Lift((\n")
        .replace("kind: Sign(\n", "kind: Sign((\n")
        .replace("\n        )),\n", "\n        ))),\n");
    let text = edit(&text, "open_deg: -90", "open_deg: 0");
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "open_deg: 0", "0"),
        &["door without a swing"],
    );
}

#[test]
fn hinge_off_the_outline_is_reported() {
    let text = edit(
        &small_level(),
        "hinge: (-60, -1000), leaf_end: (60, -1000)",
        "hinge: (-60, -900), leaf_end: (60, -1000)",
    );
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "hinge: (-60, -900)", "("),
        &["door \"shop_door\"", "not on the outline of building \"shop\"", "100 cm away"],
    );
    // Within 10 cm is on the wall.
    let text = edit(&small_level(), "hinge: (-60, -1000)", "hinge: (-60, -1008)");
    load_with(&text, &assets()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn zero_length_leaf_and_zero_sizes_are_reported() {
    let text = edit(&small_level(), "leaf_end: (60, -1000)", "leaf_end: (-60, -1000)");
    let text = edit(&text, "height_cm: 600", "height_cm: 0");
    let text = edit(&text, "top_cm: 300", "top_cm: -10");
    let text = edit(&text, "speed_cm_per_s: 140", "speed_cm_per_s: -5");
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 4, "{found:?}");
    let file = Path::new(LABEL);
    assert_problem(
        &found,
        file,
        position_in(&text, "leaf_end: (-60, -1000)", "("),
        &["leaf has no length"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "height_cm: 0", "0"),
        &["building \"shop\"", "height_cm is 0"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "top_cm: -10", "-10"),
        &["lift \"lift\"", "not above bottom_cm"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "speed_cm_per_s: -5", "-5"),
        &["pedestrian \"Ben\"", "speed_cm_per_s is -5; it must be greater than 0"],
    );
}

#[test]
fn clip_with_zero_frames_is_reported_in_the_clip_file() {
    let temp = TempAssets::new("zero-frames");
    let clips = edit(
        &temp.read("animations/humanoid.ron"),
        "(name: \"walk\", frames: 24",
        "(name: \"walk\", frames: 0",
    );
    temp.write("animations/humanoid.ron", &clips);
    let found = problems(&small_level(), &temp.root);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(
        &found,
        &temp.path("animations/humanoid.ron"),
        position_in(&clips, "(name: \"walk\", frames: 0", "0"),
        &["clip \"walk\"", "frames is 0"],
    );
    let error = level::load_clips(&temp.root, "animations/humanoid.ron").expect_err("zero frames");
    assert_eq!(error.problems, found);
}

#[test]
fn missing_clip_for_a_state_is_reported() {
    let temp = TempAssets::new("missing-clip");
    let clips = edit(&temp.read("animations/humanoid.ron"), "(name: \"hit\"", "(name: \"fall\"");
    temp.write("animations/humanoid.ron", &clips);
    let found = problems(&small_level(), &temp.root);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(
        &found,
        &temp.path("animations/humanoid.ron"),
        position_in(&clips, "clips: [", "["),
        &["no clip named \"hit\""],
    );
}

#[test]
fn missing_clip_file_names_the_file_and_where_it_was_named() {
    let temp = TempAssets::new("missing-clip-file");
    temp.remove("animations/humanoid.ron");
    let text = small_level();
    let found = problems(&text, &temp.root);
    assert_eq!(found.len(), 1, "{found:?}");
    let missing = temp.path("animations/humanoid.ron");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "clips: \"animations/humanoid.ron\"", "\""),
        &["cannot read clip file", &missing.display().to_string()],
    );
}

#[test]
fn missing_dialogue_and_image_files_are_reported() {
    let temp = TempAssets::new("missing-files");
    temp.remove("dialogue/mayor.ron");
    temp.remove("images/fountain_postcard.png");
    let text = small_level();
    let found = problems(&text, &temp.root);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "dialogue: \"dialogue/mayor.ron\"", "\""),
        &["cannot read dialogue file", "mayor.ron"],
    );
    let cutscene = temp.read("cutscenes/fountain.ron");
    assert_problem(
        &found,
        &temp.path("cutscenes/fountain.ron"),
        position_in(&cutscene, "image: \"images/fountain_postcard.png\"", "\""),
        &["cannot read image file", "fountain_postcard.png"],
    );
}

#[test]
fn dialogue_without_lines_is_reported() {
    let temp = TempAssets::new("no-lines");
    temp.write("dialogue/mayor.ron", "(\n    lines: [],\n)\n");
    let found = problems(&small_level(), &temp.root);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_problem(&found, &temp.path("dialogue/mayor.ron"), (2, 12), &["no lines"]);
}

#[test]
fn cutscene_keys_out_of_order_and_late_subtitles_are_reported() {
    let temp = TempAssets::new("cutscene-order");
    let cutscene = edit(&temp.read("cutscenes/fountain.ron"), "(at_tick: 80,", "(at_tick: 30,");
    let cutscene =
        edit(&cutscene, "(from_tick: 98, to_tick: 115,", "(from_tick: 98, to_tick: 130,");
    temp.write("cutscenes/fountain.ron", &cutscene);
    let found = problems(&small_level(), &temp.root);
    assert_eq!(found.len(), 2, "{found:?}");
    let file = temp.path("cutscenes/fountain.ron");
    assert_problem(
        &found,
        &file,
        position_in(&cutscene, "(at_tick: 30,", "30"),
        &["camera key 2", "out of time order"],
    );
    assert_problem(
        &found,
        &file,
        position_in(&cutscene, "to_tick: 130", "130"),
        &["subtitle 2", "after the end"],
    );
}

#[test]
fn overlapping_zones_are_reported() {
    let text = edit(
        &small_level(),
        "zone: (centre: (0, -4000), radius_cm: 200)",
        "zone: (centre: (-3700, 0), radius_cm: 200)",
    );
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    let first = position_in(&text, "zone: (centre: (-4000, 0)", "(");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "zone: (centre: (-3700, 0)", "("),
        &[
            "the zone of cutscene trigger \"well\" overlaps zone a of teleport \"tp\"",
            &format!("first at line {}, column {}", first.0, first.1),
        ],
    );
}

#[test]
fn clock_and_ground_out_of_range_are_reported() {
    let text = edit(&small_level(), "day_minutes: 20,", "day_minutes: 0,");
    let text = edit(&text, "start_minute: 600,", "start_minute: 1440,");
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 2, "{found:?}");
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "day_minutes: 0", "0"),
        &["day_minutes is 0"],
    );
    assert_problem(
        &found,
        Path::new(LABEL),
        position_in(&text, "start_minute: 1440", "1440"),
        &["start_minute is 1440"],
    );
}

/// Values the rules cannot hold: a duration beyond a day of ticks (added to tick numbers and
/// turned into `Fx` progress), a speed beyond 100 m/s, a size or a point beyond 5 km (squared
/// distances in metres would overflow `Fx`), each reported where it is written.
#[test]
fn values_beyond_what_the_rules_hold_are_reported() {
    let text = edit(&small_level(), "swing_ticks: 8", "swing_ticks: 4294967295");
    let text = edit(&text, "pause_ticks: 30", "pause_ticks: 864001");
    let text = edit(&text, "speed_cm_per_s: 140", "speed_cm_per_s: 10001");
    let text = edit(&text, "height_cm: 600", "height_cm: 500001");
    let text = edit(&text, "leaf_end: (60, -1000)", "leaf_end: (60, -2000000000)");
    let text = edit(&text, "max: (5000, 5000)", "max: (5000, 600000)");
    let text = edit(&text, "bottom_cm: 0", "bottom_cm: -500001");
    let found = problems(&text, &assets());
    let file = Path::new(LABEL);
    assert_problem(
        &found,
        file,
        position_in(&text, "swing_ticks: 4294967295", "4"),
        &["door \"shop_door\"", "swing_ticks is 4294967295; it must be at most 864000"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "pause_ticks: 864001", "8"),
        &["pedestrian \"Ann\"", "pause_ticks is 864001; it must be at most 864000"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "speed_cm_per_s: 10001", "1"),
        &["pedestrian \"Ben\"", "speed_cm_per_s is 10001; it must be at most 10000"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "height_cm: 500001", "5"),
        &["building \"shop\"", "height_cm is 500001; it must be at most 500000"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "leaf_end: (60, -2000000000)", "("),
        &["door \"shop_door\": leaf_end at (60, -2000000000) is farther than 500000 cm"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "max: (5000, 600000)", "("),
        &["ground: max at (5000, 600000) is farther than 500000 cm"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "bottom_cm: -500001", "-"),
        &["lift \"lift\"", "bottom_cm is -500001; it must be within 500000 cm"],
    );
}

/// At their bounds, the values load and the rules run on them: a door that swings for a day,
/// a lift that travels 10 km, walkers and a taxi at 100 m/s, waits of a day. Before the
/// bounds, a swing of 2^32 - 1 ticks overflowed the tick its swing ends at.
#[test]
fn values_at_their_bounds_load_and_run() {
    let day = "864000";
    let mut text = small_level();
    for (from, to) in [
        ("swing_ticks: 8", format!("swing_ticks: {day}")),
        ("stay_open_ticks: 40", format!("stay_open_ticks: {day}")),
        ("travel_ticks: 30", format!("travel_ticks: {day}")),
        ("wait_ticks: 20", "wait_ticks: 1".to_owned()),
        ("bottom_cm: 0, top_cm: 300", "bottom_cm: -500000, top_cm: 500000".to_owned()),
        ("fade_ticks: 10, hold_ticks: 40", format!("fade_ticks: {day}, hold_ticks: 1")),
        ("pause_ticks: 30", format!("pause_ticks: {day}")),
        ("speed_cm_per_s: 130", "speed_cm_per_s: 10000".to_owned()),
        ("stand_ticks: 40", format!("stand_ticks: {day}")),
        ("max_speed_cm_per_s: 1000", "max_speed_cm_per_s: 10000".to_owned()),
        ("height_cm: 600", "height_cm: 500000".to_owned()),
        // The mayor steps aside, so that the interact reaches the door.
        ("(name: \"Mayor\", at: (0, -2000)", "(name: \"Mayor\", at: (3000, -2000)".to_owned()),
    ] {
        text = edit(&text, from, &to);
    }
    let level = Arc::new(load_with(&text, &assets()).unwrap_or_else(|e| panic!("{e}")));
    let mut sim = TownSim::new(level, 3, 2);
    // Player 0 runs north from its spawn to the door and opens it; player 1 stands.
    let run = PlayerCommand { forward: 100, run: true, ..PlayerCommand::default() };
    let open = PlayerCommand { interact: true, ..PlayerCommand::default() };
    for t in 0..600 {
        let first = match t {
            0..50 => run,
            50 => open,
            _ => PlayerCommand::default(),
        };
        sim.step(Tick(t), &[first, PlayerCommand::default()]).expect("in order");
    }
    let door = &sim.state().objects[0];
    assert_eq!(door.phase, ObjectPhase::Opening, "the door swings for a day");
}

#[test]
fn several_problems_are_all_reported_in_text_order() {
    let text =
        edit(&small_level(), "(id: \"se\", at: (2500, -2500))", "(id: \"sw\", at: (2500, -2500))");
    let text = edit(&text, "open_deg: -90", "open_deg: 0");
    let text = edit(&text, "(at: (0, 3000), facing_deg: -90)", "(at: (0, 0), facing_deg: -90)");
    let text = edit(&text, "name: \"Ben\"", "name: \"Mayor\"");
    let temp = TempAssets::new("several");
    temp.remove("cutscenes/fountain.ron");
    let found = problems(&text, &temp.root);
    let file = Path::new(LABEL);
    assert_problem(
        &found,
        file,
        position_in(&text, "(id: \"sw\", at: (2500", "\"sw\""),
        &["duplicate waypoint id \"sw\""],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "(at: (0, 0), facing", "(0"),
        &["spawn 1", "inside building \"shop\""],
    );
    assert_problem(&found, file, position_in(&text, "open_deg: 0", "0"), &["door without a swing"]);
    let first_mayor = position_in(&text, "name: \"Mayor\",\n", "\"");
    assert_problem(
        &found,
        file,
        position_in(&text, "(name: \"Mayor\", at:", "\""),
        &[
            "duplicate character name \"Mayor\"",
            &format!("first at line {}, column {}", first_mayor.0, first_mayor.1),
        ],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "cutscene: \"cutscenes/fountain.ron\"", "\""),
        &["cannot read cutscene file"],
    );
    // In text order, and the Display prints one problem a line, FILE:LINE:COLUMN: MESSAGE.
    let positions: Vec<(u32, u32)> = found.iter().map(|p| (p.line, p.column)).collect();
    let mut sorted = positions.clone();
    sorted.sort_unstable();
    assert_eq!(positions, sorted);
    let shown = LevelError { problems: found.clone() }.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), found.len());
    for (line, problem) in lines.iter().zip(&found) {
        assert_eq!(
            *line,
            format!("{LABEL}:{}:{}: {}", problem.line, problem.column, problem.message)
        );
    }
}

#[test]
fn missing_level_file_is_a_problem() {
    let missing = workspace().join("assets/levels/no_such_level.ron");
    let error = level::load_level(&assets(), &missing).expect_err("no such file");
    assert_eq!(error.problems.len(), 1);
    assert_eq!(error.problems[0].file, missing);
    assert!(error.problems[0].message.contains("cannot read the level file"));
}

#[test]
fn no_input_makes_the_loader_panic() {
    let text = small_level();
    let assets = assets();
    // Every prefix of the text: none of them is a level.
    let mut cut = 0;
    while cut < text.len() {
        if text.is_char_boundary(cut) {
            assert!(load_with(&text[..cut], &assets).is_err());
        }
        cut += 7;
    }
    // Stray characters all over it: errors or levels, never a panic.
    for (i, stray) in ["(", ")", "\"", "-", "9", "[", ",", "/*", "#", "r#\"", "'"]
        .iter()
        .cycle()
        .enumerate()
        .take(200)
    {
        let at = (i * 37) % text.len();
        if text.is_char_boundary(at) {
            let mut broken = text.clone();
            broken.insert_str(at, stray);
            let _ = load_with(&broken, &assets);
        }
    }
    // Extreme numbers.
    for (from, to) in [
        ("radius_cm: 150", "radius_cm: 2147483647"),
        ("(at: (0, -3000)", "(at: (-2147483648, -2147483648)"),
        ("speed_cm_per_s: 130", "speed_cm_per_s: -2147483648"),
        ("day_minutes: 20", "day_minutes: 4294967295"),
        ("start_minute: 600", "start_minute: 4294967295"),
        ("open_deg: -90", "open_deg: -2147483648"),
        ("hinge: (-60, -1000)", "hinge: (2147483647, -2147483648)"),
        ("swing_ticks: 8", "swing_ticks: 4294967295"),
        ("stand_ticks: 40", "stand_ticks: 4294967295"),
        ("height_cm: 600", "height_cm: 2147483647"),
        ("bottom_cm: 0", "bottom_cm: -2147483648"),
    ] {
        let text = text.replacen(from, to, 1);
        assert!(load_with(&text, &assets).is_err(), "{to} loaded");
    }
}

/// Footprints and places off the ground: a building whose footprint has no area, a lift whose
/// footprint reaches past the ground's edge, a sign, a teleport zone and a cutscene trigger
/// beyond it, each reported where it is written.
#[test]
fn footprints_and_places_off_the_ground_are_reported() {
    let text = edit(
        &small_level(),
        "max: (1000, 1000)), height_cm: 600",
        "max: (-1000, 1000)), height_cm: 600",
    );
    let text = edit(&text, "max: (-4200, 4500)),", "max: (-4200, 5500)),");
    let text =
        edit(&text, "centre: (4000, 0), radius_cm: 150", "centre: (6000, 0), radius_cm: 150");
    let text =
        edit(&text, "centre: (0, -4000), radius_cm: 200", "centre: (0, -6000), radius_cm: 200");
    let text = edit(&text, "at: (0, -1500), facing_deg: -90", "at: (0, -6500), facing_deg: -90");
    let found = problems(&text, &assets());
    let file = Path::new(LABEL);
    assert_problem(
        &found,
        file,
        position_in(&text, "footprint: (min: (-1000, -1000), max: (-1000", "("),
        &["building \"shop\": footprint min (-1000, -1000) is not south-west of max (-1000, 1000)"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "footprint: (min: (-4500, 4200)", "("),
        &["lift \"lift\": footprint reaches outside the ground"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "centre: (6000, 0)", "("),
        &["end b: zone centre (6000, 0) is outside the ground"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "centre: (0, -6000)", "("),
        &["cutscene trigger \"well\": zone centre (0, -6000) is outside the ground"],
    );
    assert_problem(
        &found,
        file,
        position_in(&text, "at: (0, -6500)", "("),
        &["sign \"sign\" at (0, -6500) is outside the ground"],
    );
}

/// A level with a problem every few bytes lists the first hundred and says how many more: a
/// hostile level of a megabyte would otherwise print (and hold) hundreds of thousands.
#[test]
fn a_level_with_hundreds_of_problems_lists_a_hundred_and_counts_the_rest() {
    let same_points = vec!["(0, 0)"; 300].join(", ");
    let text = edit(
        &small_level(),
        "route: [(-1600, -1600), (1600, -1600), (1600, 1600), (-1600, 1600)],",
        &format!("route: [{same_points}],"),
    );
    let found = problems(&text, &assets());
    assert_eq!(found.len(), level::MAX_LISTED_PROBLEMS + 1, "a hundred and a count");
    let last = found.last().expect("problems");
    assert!(last.message.starts_with("and ") && last.message.ends_with(" more problems"), "{last}");
    let more: usize = last.message.split(' ').nth(1).and_then(|n| n.parse().ok()).expect("a count");
    assert!(more >= 200, "{more} more: 300 equal points are at least 300 problems");
}

// ---------------------------------------------------------------------------------------------
// Counts the rules hold

/// `text` with `entries` added at the head of the list that starts `list: [`.
fn with_entries(text: &str, list: &str, entries: impl Iterator<Item = String>) -> String {
    let head = format!("{list}: [\n");
    let added: String = entries.collect();
    edit(text, &head, &format!("{head}{added}"))
}

/// Protects the cap on pedestrians: one more than a level may hold is refused, naming the cap.
/// A level file's megabyte cannot hold so many, so the cap is met by a level made in code: the
/// crowd level (no pedestrians of its own) with that many copies of the stress level's first
/// walker, each named apart.
#[test]
fn more_pedestrians_than_a_level_may_hold_are_refused_naming_the_cap() {
    let mut file = level::crowd_level_file();
    // No buildings (nor the doors on them): each walker's route is checked against each one.
    file.buildings.clear();
    file.objects.clear();
    let walker = level::stress_level_file().pedestrians.swap_remove(0);
    file.pedestrians = (0..=level::MAX_PEDESTRIANS)
        .map(|i| level::model::Pedestrian { name: format!("w{i}"), ..walker.clone() })
        .collect();
    let error = level::validate_level_file(&file, Path::new("crowded")).expect_err("too many");
    let message = format!(
        "crowded: {} pedestrians is over the {} a level may hold",
        level::MAX_PEDESTRIANS + 1,
        level::MAX_PEDESTRIANS
    );
    assert_eq!(error.to_string(), message);
    // As many as the cap pass.
    file.pedestrians.pop();
    let held = level::validate_level_file(&file, Path::new("crowded"));
    assert!(held.is_ok(), "{held:?}");
}

/// Protects the cap on talkers: one more than a level may hold is refused, naming the cap.
#[test]
fn more_talkers_than_a_level_may_hold_are_refused_naming_the_cap() {
    let extra = (0..level::MAX_TALKERS).map(|i| {
        let x = -4500 + (i as i32 % 30) * 300;
        let y = 3000 + (i as i32 / 30) * 150;
        format!(
            "(name: \"t{i}\", at: ({x}, {y}), facing_deg: 0, dialogue: \"dialogue/mayor.ron\"),\n"
        )
    });
    let text = with_entries(&small_level(), "talkers", extra);
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    let message = format!("257 talkers is over the {} a level may hold", level::MAX_TALKERS);
    assert_problem(&found, Path::new(LABEL), position_in(&text, "talkers: [", "["), &[&message]);
}

/// Protects the cap on zones: teleport ends and cutscene triggers together past the cap are
/// refused, naming it, at the longer list.
#[test]
fn more_zones_than_a_level_may_hold_are_refused_naming_the_cap() {
    // The small level has a teleport (two zones) and a trigger: 30 more triggers make 33.
    let extra = (0..30).map(|i| {
        let x = -4500 + i * 300;
        format!("(id: \"z{i}\", zone: (centre: ({x}, 4500), radius_cm: 100), cutscene: \"cutscenes/fountain.ron\", once: false),\n")
    });
    let text = with_entries(&small_level(), "cutscene_triggers", extra);
    let found = problems(&text, &assets());
    assert_eq!(found.len(), 1, "{found:?}");
    let message = format!(
        "33 zones (teleport ends and cutscene triggers) is over the {} a level may hold",
        level::MAX_ZONES
    );
    let at = position_in(&text, "cutscene_triggers: [", "[");
    assert_problem(&found, Path::new(LABEL), at, &[&message]);
}
