//! The generated stress level: a large street grid with 10,000 pedestrians, 1,000 taxis and
//! 2,000 interactive objects, for benchmarks and load tests; and the same level with as many
//! players on one spawn instead of its pedestrians ([`crowd_level`]).
//!
//! It is made by a function, not read from a file, and is the same on every run: every
//! choice is a fixed integer formula of an item's index. It is built as a level file model
//! ([`stress_level_file`]) so that it passes through the same checks
//! ([`super::validate_level_file`]) and the same conversion as a level read from `assets/`.
//!
//! Layout: [`GRID`] × [`GRID`] intersections [`BLOCK_CM`] apart, with lanes both ways
//! between neighbours. Each block holds one building set back [`BUILDING_SETBACK_CM`] from
//! the street centre lines; pedestrians walk loops around their block on one of
//! [`SIDEWALK_LANES`] sidewalk lines, clear of the buildings and of the taxi lanes; taxis
//! loop around rectangles of one to three blocks a side. Doors sit on the buildings' north
//! and south walls, lifts in the blocks' corners between the sidewalks and the buildings,
//! signs beside the buildings; the teleport zones lie in the margin around the grid.

use std::sync::Arc;

use super::load::level_from_file;
use super::model::{
    Building, CircleCm, Door, Easing, Lamp, LevelFile, Lift, Object, ObjectKind, Pedestrian,
    PointCm, RectCm, Sign, Spawn, Streets, Taxi, TeleportEnd, TeleportPair, Waypoint,
};
use super::{Clips, Level};

/// Intersections along each side of the grid: 20 × 20 intersections make 19 × 19 = 361
/// blocks, enough room for 10,000 pedestrians at about 28 a block.
const GRID: i32 = 20;

/// Blocks along each side of the grid.
const BLOCKS: i32 = GRID - 1;

/// Distance between neighbouring intersections, centimetres: a 50 m city block.
const BLOCK_CM: i32 = 5000;

/// Ground beyond the outermost streets, centimetres: room for the teleport zones, which
/// stay out of the way of the traffic.
const MARGIN_CM: i32 = 3000;

/// Distance from a street centre line to the buildings, centimetres: 4 m of road, the
/// sidewalks, and a strip for the lifts.
const BUILDING_SETBACK_CM: i32 = 1200;

/// Distance from a street centre line to the nearest sidewalk line, centimetres: 5 m keeps
/// pedestrians well off the taxis' lane centre lines.
const SIDEWALK_INSET_CM: i32 = 500;

/// Sidewalk lines around each block: pedestrians share a block's loop on parallel lines.
const SIDEWALK_LANES: i32 = 4;

/// Distance between neighbouring sidewalk lines, centimetres: 1 m, a person's width and
/// some, so the innermost line (8 m) stays clear of the lifts (from 8.5 m).
const SIDEWALK_STEP_CM: i32 = 100;

/// Distance from a block's corner to its lift's nearer edge, centimetres: between the
/// innermost sidewalk line and the building.
const LIFT_INSET_CM: i32 = 850;

/// Side of a lift's square platform, centimetres.
const LIFT_SIZE_CM: i32 = 300;

/// Distance from a building's west edge to a door's hinge, centimetres.
const DOOR_OFFSET_CM: i32 = 1200;

/// Width of a door leaf, centimetres: a wide shop door.
const DOOR_WIDTH_CM: i32 = 120;

/// Distance of a sign from its building's wall, centimetres: beside the wall, short of the
/// sidewalks.
const SIGN_OFFSET_CM: i32 = 100;

/// Distance of a lamp from its intersection along each axis, centimetres: on the corner,
/// short of the sidewalk lines.
const LAMP_OFFSET_CM: i32 = 350;

/// Radius of a teleport zone, centimetres.
const TELEPORT_RADIUS_CM: i32 = 200;

/// Distance from a teleport zone's centre to its exit, centimetres: outside the zone, so an
/// arrival does not bounce straight back.
const TELEPORT_EXIT_CM: i32 = 500;

/// Number of pedestrians: the load the characters' update is measured at.
pub const STRESS_PEDESTRIANS: usize = 10_000;

/// Number of taxis: the load the taxis' update is measured at.
pub const STRESS_TAXIS: usize = 1_000;

/// Number of interactive objects (doors, lifts and signs in turn): the load the objects'
/// update is measured at.
pub const STRESS_OBJECTS: usize = 2_000;

/// The name [`Level::source`] gives the stress level: it has no file.
const SOURCE: &str = "generated:stress";

/// The clip file the stress level names (its clips are passed to [`stress_level`]).
const CLIP_FILE: &str = "animations/humanoid.ron";

/// The stress level, with `clips` (usually the ones of `assets/animations/humanoid.ron`,
/// from [`super::load_clips`]).
#[must_use]
pub fn stress_level(clips: Clips) -> Level {
    level_from_file(
        &stress_level_file(),
        SOURCE.to_owned(),
        clips,
        Vec::new(),
        Vec::new(),
        Arc::default(),
    )
}

/// The stress level for its crowd on one spot: no pedestrians, and one spawn, on the first
/// pedestrian's sidewalk, for as many players as the stress level has pedestrians
/// ([`STRESS_PEDESTRIANS`]). Everyone starts on top of everyone else, as on a spawn everyone
/// shares: the load a packed crowd puts on the collisions, measured against the stress level's
/// spread-out one.
#[must_use]
pub fn crowd_level(clips: Clips) -> Level {
    level_from_file(
        &crowd_level_file(),
        CROWD_SOURCE.to_owned(),
        clips,
        Vec::new(),
        Vec::new(),
        Arc::default(),
    )
}

/// The name [`Level::source`] gives the crowd level: it has no file.
const CROWD_SOURCE: &str = "generated:crowd";

/// [`crowd_level`] as a level file model, before conversion.
#[must_use]
pub fn crowd_level_file() -> LevelFile {
    let mut file = stress_level_file();
    file.pedestrians.clear();
    file.spawns = vec![Spawn { at: pedestrian(0).route[0], facing_deg: 0 }];
    file.name = "Stress grid, one spawn".to_owned();
    file
}

/// The stress level as a level file model, before conversion: what [`stress_level`]
/// converts, and what the tests check with [`super::validate_level_file`].
#[must_use]
pub fn stress_level_file() -> LevelFile {
    let far = BLOCKS * BLOCK_CM;
    LevelFile {
        name: "Stress grid".to_owned(),
        ground: RectCm { min: (-MARGIN_CM, -MARGIN_CM), max: (far + MARGIN_CM, far + MARGIN_CM) },
        day_minutes: 24,
        start_minute: 8 * 60,
        clips: CLIP_FILE.to_owned(),
        streets: streets(),
        buildings: (0..BLOCKS * BLOCKS).map(building).collect(),
        spawns: spawns(),
        objects: (0..STRESS_OBJECTS).map(object).collect(),
        teleports: teleports(),
        pedestrians: (0..STRESS_PEDESTRIANS).map(pedestrian).collect(),
        taxis: spread_taxis((0..STRESS_TAXIS).map(taxi).collect()),
        talkers: Vec::new(),
        cutscene_triggers: Vec::new(),
        lamps: (0..GRID * GRID)
            .map(|i| Lamp {
                at: (
                    (i % GRID) * BLOCK_CM + LAMP_OFFSET_CM,
                    (i / GRID) * BLOCK_CM + LAMP_OFFSET_CM,
                ),
                height_cm: 450,
            })
            .collect(),
    }
}

/// The id of the intersection in column `x`, row `y`.
fn waypoint_id(x: i32, y: i32) -> String {
    format!("x{x:02}y{y:02}")
}

/// The intersections, and lanes both ways between neighbours.
fn streets() -> Streets {
    let mut waypoints = Vec::new();
    let mut lanes = Vec::new();
    for y in 0..GRID {
        for x in 0..GRID {
            waypoints.push(Waypoint { id: waypoint_id(x, y), at: (x * BLOCK_CM, y * BLOCK_CM) });
            if x + 1 < GRID {
                lanes.push((waypoint_id(x, y), waypoint_id(x + 1, y)));
                lanes.push((waypoint_id(x + 1, y), waypoint_id(x, y)));
            }
            if y + 1 < GRID {
                lanes.push((waypoint_id(x, y), waypoint_id(x, y + 1)));
                lanes.push((waypoint_id(x, y + 1), waypoint_id(x, y)));
            }
        }
    }
    Streets { waypoints, lanes }
}

/// The south-west corner of block `block` (blocks numbered row by row from the south-west).
fn block_origin(block: i32) -> PointCm {
    ((block % BLOCKS) * BLOCK_CM, (block / BLOCKS) * BLOCK_CM)
}

/// The footprint of block `block`'s building.
fn building_footprint(block: i32) -> RectCm {
    let (x, y) = block_origin(block);
    RectCm {
        min: (x + BUILDING_SETBACK_CM, y + BUILDING_SETBACK_CM),
        max: (x + BLOCK_CM - BUILDING_SETBACK_CM, y + BLOCK_CM - BUILDING_SETBACK_CM),
    }
}

/// The id of block `block`'s building.
fn building_id(block: i32) -> String {
    format!("bld-{block:03}")
}

/// Block `block`'s building, 10 to 37 m tall.
fn building(block: i32) -> Building {
    let (x, y) = block_origin(block);
    Building {
        id: building_id(block),
        footprint: building_footprint(block),
        height_cm: 1000 + ((x / BLOCK_CM * 7 + y / BLOCK_CM * 3) % 10) * 300,
    }
}

/// Four spawns on the streets around the middle of the grid, beside the lane centre lines.
fn spawns() -> Vec<Spawn> {
    let mid = BLOCKS / 2 * BLOCK_CM;
    let half = BLOCK_CM / 2;
    vec![
        Spawn { at: (mid + half, mid + 300), facing_deg: 0 },
        Spawn { at: (mid + half, mid - 300), facing_deg: 180 },
        Spawn { at: (mid + 300, mid + half), facing_deg: 90 },
        Spawn { at: (mid - 300, mid + half), facing_deg: -90 },
    ]
}

/// Object `n`: doors, lifts and signs in turn.
fn object(n: usize) -> Object {
    let kind_index = n % 3;
    let k = i32::try_from(n / 3).unwrap_or(0);
    let ku = u32::try_from(n / 3).unwrap_or(0);
    let blocks = BLOCKS * BLOCKS;
    let block = k % blocks;
    let round = k / blocks;
    let footprint = building_footprint(block);
    let (prefix, kind) = match kind_index {
        0 => {
            // A door on the south wall, then (second round) the north wall, opening outward.
            let (wall_y, open_deg) =
                if round % 2 == 0 { (footprint.min.1, -90) } else { (footprint.max.1, 90) };
            let hinge_x = footprint.min.0 + DOOR_OFFSET_CM;
            (
                "door",
                ObjectKind::Door(Door {
                    building: building_id(block),
                    hinge: (hinge_x, wall_y),
                    leaf_end: (hinge_x + DOOR_WIDTH_CM, wall_y),
                    height_cm: 220,
                    open_deg,
                    swing_ticks: 8,
                    stay_open_ticks: 30 + (ku % 4) * 10,
                    easing: Easing::InOut,
                }),
            )
        }
        1 => {
            // A lift in one corner of the block, the next corner in the next round.
            let (x, y) = block_origin(block);
            let corner = round % 4;
            let near = |origin: i32, far_side: bool| {
                if far_side {
                    origin + BLOCK_CM - LIFT_INSET_CM - LIFT_SIZE_CM
                } else {
                    origin + LIFT_INSET_CM
                }
            };
            let min = (near(x, corner % 2 == 1), near(y, corner / 2 == 1));
            (
                "lift",
                ObjectKind::Lift(Lift {
                    footprint: RectCm { min, max: (min.0 + LIFT_SIZE_CM, min.1 + LIFT_SIZE_CM) },
                    bottom_cm: 0,
                    top_cm: 300 + (k % 5) * 100,
                    travel_ticks: 30 + (ku % 3) * 10,
                    wait_ticks: 20,
                    easing: if k % 2 == 0 { Easing::InOut } else { Easing::Linear },
                }),
            )
        }
        _ => {
            // A sign beside the building's east wall, then its west wall.
            let mid_y = (footprint.min.1 + footprint.max.1) / 2;
            let (x, facing_deg) = if round % 2 == 0 {
                (footprint.max.0 + SIGN_OFFSET_CM, 0)
            } else {
                (footprint.min.0 - SIGN_OFFSET_CM, 180)
            };
            (
                "sign",
                ObjectKind::Sign(Sign {
                    at: (x, mid_y),
                    facing_deg,
                    height_cm: 250,
                    text: format!("Block {block}"),
                    fade_ticks: 10,
                    hold_ticks: 40 + (ku % 7) * 5,
                    easing: Easing::Linear,
                }),
            )
        }
    };
    Object { id: format!("{prefix}-{k:04}"), kind }
}

/// Two teleport pairs across the grid, in the margin around it.
fn teleports() -> Vec<TeleportPair> {
    let far = BLOCKS * BLOCK_CM;
    let out = MARGIN_CM * 2 / 3;
    let end = |centre: PointCm, exit: PointCm, exit_facing_deg: i32| TeleportEnd {
        zone: CircleCm { centre, radius_cm: TELEPORT_RADIUS_CM },
        exit,
        exit_facing_deg,
    };
    let (west, east) = (-out, far + out);
    let (south, north) = (-out, far + out);
    let (y1, y2) = (far / 4, far * 3 / 4);
    let (x1, x2) = (far / 3, far * 2 / 3);
    vec![
        TeleportPair {
            id: "west-east".to_owned(),
            a: end((west, y1), (west, y1 + TELEPORT_EXIT_CM), 90),
            b: end((east, y2), (east, y2 + TELEPORT_EXIT_CM), 90),
        },
        TeleportPair {
            id: "south-north".to_owned(),
            a: end((x1, south), (x1 + TELEPORT_EXIT_CM, south), 0),
            b: end((x2, north), (x2 + TELEPORT_EXIT_CM, north), 0),
        },
    ]
}

/// Pedestrian `n`: a loop around a block on one sidewalk line, counter-clockwise on the
/// outer two lines and clockwise on the inner two (so nobody meets head-on on a line),
/// starting at one of eight points, with one stop.
fn pedestrian(n: usize) -> Pedestrian {
    let i = i32::try_from(n).unwrap_or(0);
    let blocks = BLOCKS * BLOCKS;
    let block = i % blocks;
    let line = (i / blocks) % SIDEWALK_LANES;
    let start = (i / (blocks * SIDEWALK_LANES)) % 8;
    let inset = SIDEWALK_INSET_CM + line * SIDEWALK_STEP_CM;
    let (x0, y0) = block_origin(block);
    let (x1, y1) = (x0 + BLOCK_CM - inset, y0 + BLOCK_CM - inset);
    let (x0, y0) = (x0 + inset, y0 + inset);
    let (xm, ym) = ((x0 + x1) / 2, (y0 + y1) / 2);
    let mut ring =
        vec![(x0, y0), (xm, y0), (x1, y0), (x1, ym), (x1, y1), (xm, y1), (x0, y1), (x0, ym)];
    if line >= SIDEWALK_LANES / 2 {
        ring.reverse();
    }
    ring.rotate_left(usize::try_from(start).unwrap_or(0));
    Pedestrian {
        name: format!("ped-{n:05}"),
        route: ring,
        stops: vec![(n * 3 + 1) % 8],
        pause_ticks: 20 + u32::try_from(n % 30).unwrap_or(0),
        // One pace per sidewalk ring: walkers on one ring never catch each other up, so the
        // crowd does not bunch into knots behind its slowest walkers over the minutes.
        speed_cm_per_s: 110 + (block * SIDEWALK_LANES + line) % 50,
    }
}

/// Turns each taxi's loop so that no two taxis start on the same lane at the same waypoint:
/// two taxis placed on one spot would start inside each other.
fn spread_taxis(mut taxis: Vec<Taxi>) -> Vec<Taxi> {
    let mut taken = std::collections::BTreeSet::new();
    for taxi in &mut taxis {
        for _ in 0..taxi.route.len() {
            let start = (taxi.route[0].clone(), taxi.route[1 % taxi.route.len()].clone());
            if taken.insert(start) {
                break;
            }
            taxi.route.rotate_left(1);
        }
    }
    taxis
}

/// Taxi `n`: a loop around a rectangle of one to three blocks a side, through every
/// intersection on its edge, one way round or the other; every fourth taxi has a stand.
fn taxi(n: usize) -> Taxi {
    let i = i32::try_from(n).unwrap_or(0);
    let w = 1 + i % 3;
    let h = 1 + (i / 3) % 3;
    let x0 = (i * 7 + i / 19) % (GRID - w);
    let y0 = (i * 11 + 3) % (GRID - h);
    let mut route = Vec::new();
    for x in x0..x0 + w {
        route.push(waypoint_id(x, y0));
    }
    for y in y0..y0 + h {
        route.push(waypoint_id(x0 + w, y));
    }
    for x in (x0 + 1..=x0 + w).rev() {
        route.push(waypoint_id(x, y0 + h));
    }
    for y in (y0 + 1..=y0 + h).rev() {
        route.push(waypoint_id(x0, y));
    }
    if !n.is_multiple_of(2) {
        route.reverse();
    }
    let len = route.len();
    route.rotate_left(n % len.max(1));
    let stands = if n.is_multiple_of(4) {
        route.get(len / 2).cloned().into_iter().collect()
    } else {
        Vec::new()
    };
    Taxi {
        id: format!("taxi-{n:04}"),
        route,
        stands,
        stand_ticks: 30,
        max_speed_cm_per_s: 800 + (i % 5) * 100,
    }
}
