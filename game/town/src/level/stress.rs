//! The generated stress level: a large street grid with 10,000 pedestrians, 1,000 taxis and
//! 2,000 interactive objects, for benchmarks and load tests; the same at any [`StressScale`]
//! (ten times the people, taxis and objects on ten times the blocks, say), which the command
//! line names as content `stress` or `stress:SCALE` ([`StressScale::from_name`]); and the
//! level with as many players on one spawn instead of its pedestrians ([`crowd_level`]).
//!
//! It is made by a function, not read from a file, and is the same on every run: every
//! choice is a fixed integer formula of an item's index. It is built as a level file model
//! ([`stress_level_file`]) so that it passes through the same checks
//! ([`super::validate_level_file`]) and the same conversion as a level read from `assets/`.
//!
//! Layout: a square of intersections [`BLOCK_CM`] apart (20 × 20 at scale 1), with lanes both ways
//! between neighbours. Each block holds one building set back [`BUILDING_SETBACK_CM`] from
//! the street centre lines; pedestrians walk loops around their block on one of
//! [`SIDEWALK_LANES`] sidewalk lines, clear of the buildings and of the taxi lanes; taxis
//! loop around rectangles of one to three blocks a side. Doors sit on the buildings' north
//! and south walls, lifts in the blocks' corners between the sidewalks and the buildings,
//! signs beside the buildings; the teleport zones lie in the margin around the grid.

use std::sync::Arc;

use fixstep_runtime::file::ContentReader;

use super::load::level_from_file;
use super::model::{
    Building, CircleCm, Door, Easing, Lamp, LevelFile, Lift, Object, ObjectKind, Pedestrian,
    PointCm, RectCm, Sign, Spawn, Streets, Taxi, TeleportEnd, TeleportPair, Waypoint,
};
use super::{Clips, Level, LevelError};

/// Blocks of the scale-1 level: 19 × 19 (20 × 20 intersections), enough room for 10,000
/// pedestrians at about 28 a block. A larger scale has as many times the blocks, as near as a
/// square allows, so that the crowd on each block stays the same.
const BLOCKS_AT_SCALE_ONE: u32 = 19 * 19;

/// The largest scale: as many pedestrians as a level may hold
/// ([`MAX_PEDESTRIANS`](super::MAX_PEDESTRIANS)).
pub const MAX_STRESS_SCALE: u32 = 20;

/// What the command line calls the generated stress level where it takes a content file:
/// `stress`, or `stress:SCALE`.
pub const STRESS_NAME: &str = "stress";

/// How large a stress level is: its pedestrians, taxis and objects are this many times
/// [`STRESS_PEDESTRIANS`], [`STRESS_TAXIS`] and [`STRESS_OBJECTS`], on as many times the
/// blocks (1 to [`MAX_STRESS_SCALE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct StressScale(u32);

/// A stress level's scale that is not one: not a whole number from 1 to [`MAX_STRESS_SCALE`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?}: the stress level's scale is a whole number from 1 to {MAX_STRESS_SCALE}")]
pub struct StressScaleError {
    /// The scale as given.
    pub given: String,
}

impl StressScale {
    /// The stress level the benchmarks have always measured.
    pub const ONE: Self = Self(1);

    /// `times` the scale-1 level.
    ///
    /// # Errors
    ///
    /// A scale of 0 or over [`MAX_STRESS_SCALE`].
    pub fn new(times: u32) -> Result<Self, StressScaleError> {
        if (1..=MAX_STRESS_SCALE).contains(&times) {
            Ok(Self(times))
        } else {
            Err(StressScaleError { given: times.to_string() })
        }
    }

    /// The scale a content name gives: `stress` is 1, `stress:SCALE` is SCALE; `None` for a
    /// name that is not the stress level's (a level file's).
    ///
    /// # Errors
    ///
    /// `stress:` followed by anything but a scale from 1 to [`MAX_STRESS_SCALE`].
    pub fn from_name(name: &str) -> Option<Result<Self, StressScaleError>> {
        let rest = name.strip_prefix(STRESS_NAME)?;
        if rest.is_empty() {
            return Some(Ok(Self::ONE));
        }
        let times = rest.strip_prefix(':')?;
        let bad = || StressScaleError { given: times.to_owned() };
        Some(times.parse().map_err(|_| bad()).and_then(|t| Self::new(t).map_err(|_| bad())))
    }

    /// How many times the scale-1 level.
    #[must_use]
    pub const fn times(self) -> u32 {
        self.0
    }

    /// The content name of this scale ([`from_name`](Self::from_name) reads it back).
    #[must_use]
    pub fn name(self) -> String {
        if self == Self::ONE { STRESS_NAME.to_owned() } else { format!("{STRESS_NAME}:{}", self.0) }
    }

    /// Its pedestrians.
    #[must_use]
    pub const fn pedestrians(self) -> usize {
        STRESS_PEDESTRIANS * self.0 as usize
    }

    /// Its taxis.
    #[must_use]
    pub const fn taxis(self) -> usize {
        STRESS_TAXIS * self.0 as usize
    }

    /// Its interactive objects.
    #[must_use]
    pub const fn objects(self) -> usize {
        STRESS_OBJECTS * self.0 as usize
    }

    /// Blocks along each side of its grid: 19 at scale 1, 38 at 4, 60 at 10.
    fn blocks(self) -> i32 {
        i32::try_from((BLOCKS_AT_SCALE_ONE * self.0).isqrt()).unwrap_or(i32::MAX)
    }
}

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

/// The clip file the stress level names (its clips are passed to [`stress_level`]).
const CLIP_FILE: &str = "animations/humanoid.ron";

/// The clip file the stress level's characters are posed from, under the assets: the one
/// [`stress_level_at`] is given the clips of, and the one [`read_stress_level`] reads.
pub const STRESS_CLIP_FILE: &str = CLIP_FILE;

/// The stress level, with `clips` (usually the ones of `assets/animations/humanoid.ron`,
/// from [`super::load_clips`]).
#[must_use]
pub fn stress_level(clips: Clips) -> Level {
    stress_level_at(StressScale::ONE, clips)
}

/// The stress level at `scale`, with `clips`. Its [`Level::source`] is its content name
/// ([`StressScale::name`]); it keeps no files.
#[must_use]
pub fn stress_level_at(scale: StressScale, clips: Clips) -> Level {
    level_from_file(
        &stress_level_file_at(scale),
        scale.name(),
        clips,
        Vec::new(),
        Vec::new(),
        Arc::default(),
    )
}

/// The stress level at `scale`, its clips read through `reader` (from the assets, or from the
/// files a replay carries): [`super::read_level`]'s content named `stress:SCALE`. Its
/// [`Level::files`] are the clip file, under the stress level's name as their own: what a
/// replay of it carries, and all it needs to be made again.
///
/// # Errors
///
/// A clip file that does not load, naming it.
pub fn read_stress_level(reader: &ContentReader, scale: StressScale) -> Result<Level, LevelError> {
    let clips = super::load::read_clips(reader, CLIP_FILE)?;
    let mut files = reader.files_read();
    files.main = scale.name();
    let file = stress_level_file_at(scale);
    Ok(level_from_file(&file, scale.name(), clips, Vec::new(), Vec::new(), Arc::new(files)))
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
    file.spawns =
        vec![Spawn { at: pedestrian(0, StressScale::ONE.blocks()).route[0], facing_deg: 0 }];
    file.name = "Stress grid, one spawn".to_owned();
    file
}

/// The stress level as a level file model, before conversion: what [`stress_level`]
/// converts, and what the tests check with [`super::validate_level_file`].
#[must_use]
pub fn stress_level_file() -> LevelFile {
    stress_level_file_at(StressScale::ONE)
}

/// [`stress_level_file`] at `scale`.
#[must_use]
pub fn stress_level_file_at(scale: StressScale) -> LevelFile {
    let blocks = scale.blocks();
    let grid = blocks + 1;
    let far = blocks * BLOCK_CM;
    LevelFile {
        name: if scale == StressScale::ONE {
            "Stress grid".to_owned()
        } else {
            format!("Stress grid at {} times", scale.times())
        },
        ground: RectCm { min: (-MARGIN_CM, -MARGIN_CM), max: (far + MARGIN_CM, far + MARGIN_CM) },
        day_minutes: 24,
        start_minute: 8 * 60,
        clips: CLIP_FILE.to_owned(),
        streets: streets(grid),
        buildings: (0..blocks * blocks).map(|b| building(b, blocks)).collect(),
        spawns: spawns(blocks),
        objects: (0..scale.objects()).map(|n| object(n, blocks)).collect(),
        teleports: teleports(blocks),
        pedestrians: block_by_block((0..scale.pedestrians()).map(|n| pedestrian(n, blocks))),
        taxis: spread_taxis(taxis_block_by_block(scale.taxis(), grid)),
        talkers: Vec::new(),
        cutscene_triggers: Vec::new(),
        lamps: (0..grid * grid)
            .map(|i| Lamp {
                at: (
                    (i % grid) * BLOCK_CM + LAMP_OFFSET_CM,
                    (i / grid) * BLOCK_CM + LAMP_OFFSET_CM,
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

/// The `grid` × `grid` intersections, and lanes both ways between neighbours.
fn streets(grid: i32) -> Streets {
    let mut waypoints = Vec::new();
    let mut lanes = Vec::new();
    for y in 0..grid {
        for x in 0..grid {
            waypoints.push(Waypoint { id: waypoint_id(x, y), at: (x * BLOCK_CM, y * BLOCK_CM) });
            if x + 1 < grid {
                lanes.push((waypoint_id(x, y), waypoint_id(x + 1, y)));
                lanes.push((waypoint_id(x + 1, y), waypoint_id(x, y)));
            }
            if y + 1 < grid {
                lanes.push((waypoint_id(x, y), waypoint_id(x, y + 1)));
                lanes.push((waypoint_id(x, y + 1), waypoint_id(x, y)));
            }
        }
    }
    Streets { waypoints, lanes }
}

/// The south-west corner of block `block` of a grid `blocks` blocks a side (blocks numbered
/// row by row from the south-west).
fn block_origin(block: i32, blocks: i32) -> PointCm {
    ((block % blocks) * BLOCK_CM, (block / blocks) * BLOCK_CM)
}

/// The footprint of block `block`'s building.
fn building_footprint(block: i32, blocks: i32) -> RectCm {
    let (x, y) = block_origin(block, blocks);
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
fn building(block: i32, blocks: i32) -> Building {
    let (x, y) = block_origin(block, blocks);
    Building {
        id: building_id(block),
        footprint: building_footprint(block, blocks),
        height_cm: 1000 + ((x / BLOCK_CM * 7 + y / BLOCK_CM * 3) % 10) * 300,
    }
}

/// Four spawns on the streets around the middle of the grid, beside the lane centre lines.
fn spawns(blocks: i32) -> Vec<Spawn> {
    let mid = blocks / 2 * BLOCK_CM;
    let half = BLOCK_CM / 2;
    vec![
        Spawn { at: (mid + half, mid + 300), facing_deg: 0 },
        Spawn { at: (mid + half, mid - 300), facing_deg: 180 },
        Spawn { at: (mid + 300, mid + half), facing_deg: 90 },
        Spawn { at: (mid - 300, mid + half), facing_deg: -90 },
    ]
}

/// Object `n`: doors, lifts and signs in turn.
fn object(n: usize, blocks: i32) -> Object {
    let kind_index = n % 3;
    let k = i32::try_from(n / 3).unwrap_or(0);
    let ku = u32::try_from(n / 3).unwrap_or(0);
    let block = k % (blocks * blocks);
    let round = k / (blocks * blocks);
    let footprint = building_footprint(block, blocks);
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
            let (x, y) = block_origin(block, blocks);
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
fn teleports(blocks: i32) -> Vec<TeleportPair> {
    let far = blocks * BLOCK_CM;
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
fn pedestrian(n: usize, blocks: i32) -> Pedestrian {
    let i = i32::try_from(n).unwrap_or(0);
    let all_blocks = blocks * blocks;
    let block = i % all_blocks;
    let line = (i / all_blocks) % SIDEWALK_LANES;
    let start = (i / (all_blocks * SIDEWALK_LANES)) % 8;
    let inset = SIDEWALK_INSET_CM + line * SIDEWALK_STEP_CM;
    let (x0, y0) = block_origin(block, blocks);
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

/// The pedestrians in the order of their blocks, row by row from the south-west, each named by
/// its place in that order. Neighbours in the world are then neighbours in the characters'
/// store, as a level's author lays a town out street by street: a tick's passes over the crowd
/// (the neighbour grid it fills, the pairs it pushes apart) then walk memory in order, where
/// walkers numbered round the blocks would jump the whole grid's width from one to the next.
fn block_by_block(pedestrians: impl Iterator<Item = Pedestrian>) -> Vec<Pedestrian> {
    let mut pedestrians: Vec<Pedestrian> = pedestrians.collect();
    pedestrians.sort_by_key(|p| p.route.first().map(|&(x, y)| (y / BLOCK_CM, x / BLOCK_CM)));
    for (n, pedestrian) in pedestrians.iter_mut().enumerate() {
        pedestrian.name = format!("ped-{n:05}");
    }
    pedestrians
}

/// The `count` taxis of a grid of `grid` intersections a side, in the order of the corners
/// their loops start from (row by row), each named by its place in that order: for the same
/// reason as [`block_by_block`], as each taxi looks about it in the neighbour grid.
fn taxis_block_by_block(count: usize, grid: i32) -> Vec<Taxi> {
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&n| {
        let (x0, y0) = taxi_corner(n, grid);
        (y0, x0, n)
    });
    order
        .into_iter()
        .enumerate()
        .map(|(place, n)| Taxi { id: format!("taxi-{place:04}"), ..taxi(n, grid) })
        .collect()
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

/// The intersection (column, row) at the south-west corner of taxi `n`'s loop.
fn taxi_corner(n: usize, grid: i32) -> (i32, i32) {
    let i = i32::try_from(n).unwrap_or(0);
    let (w, h) = (1 + i % 3, 1 + (i / 3) % 3);
    ((i * 7 + i / (grid - 1)) % (grid - w), (i * 11 + 3) % (grid - h))
}

/// Taxi `n` on a grid of `grid` intersections a side: a loop around a rectangle of one to
/// three blocks a side, through every intersection on its edge, one way round or the other;
/// every fourth taxi has a stand.
fn taxi(n: usize, grid: i32) -> Taxi {
    let i = i32::try_from(n).unwrap_or(0);
    let w = 1 + i % 3;
    let h = 1 + (i / 3) % 3;
    let (x0, y0) = taxi_corner(n, grid);
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
