//! The checks of a level file itself, without the files it refers to: the ground and the
//! clock, buildings, the street graph, spawns, objects, zones, characters, taxis and lamps.

use std::collections::{BTreeMap, BTreeSet};

use super::geometry::{
    circle_contains, circles_overlap, distance_to_outline_squared, rect_contains, rect_has_area,
    rect_within, segment_touches_rect,
};
use super::{Checker, Site, pt};
use crate::level::load::MINUTES_PER_DAY;
use crate::level::load::locate::Seg;
use crate::level::model::{CircleCm, Door, LevelFile, Lift, ObjectKind, RectCm, Sign};
use crate::level::{MAX_PEDESTRIANS, MAX_TALKERS, MAX_ZONES};

/// How far a door's hinge may lie from its building's outline, centimetres. Hinges are
/// placed by hand in whole centimetres, and a hinge within a wall's thickness of the
/// outline is still on the wall.
const HINGE_TOLERANCE_CM: i64 = 10;

/// Largest door swing either way, degrees: at 180° or more the direction of the swing is
/// ambiguous and the leaf folds back through its own wall.
const MAX_DOOR_SWING_DEG: i32 = 179;

/// Checks every rule of a level file that does not need other files, section by section in
/// the order a reader meets them (so the first problem reported is the first in the file's
/// own order of concerns).
pub(in crate::level::load) fn check_level_file(file: &LevelFile, c: &mut Checker<'_>) {
    check_counts(file, c);
    let ground_ok = check_ground_and_clock(file, c);
    // Buildings first: everything else must stand clear of them.
    let site = check_buildings(file, c, ground_ok);
    let streets = check_streets(file, c, &site);
    check_spawns(file, c, &site);
    check_objects(file, c, &site);
    check_zones(file, c, &site);
    check_character_names(file, c);
    check_pedestrians(file, c, &site);
    check_taxis(file, c, &streets);
    check_talkers_and_lamps(file, c, &site);
}

/// The street graph as the taxis' checks need it: each waypoint's index by id, and the lanes
/// as pairs of indices.
struct Streets<'f> {
    waypoint_index: BTreeMap<&'f str, usize>,
    lanes: BTreeSet<(usize, usize)>,
}

/// The counts the rules hold: pedestrians, talkers and zones, each within its cap.
fn check_counts(file: &LevelFile, c: &mut Checker<'_>) {
    let (teleport_zones, triggers) = (file.teleports.len() * 2, file.cutscene_triggers.len());
    // The zones' problem points at the longer of their two lists.
    let zone_list = if triggers > teleport_zones { "cutscene_triggers" } else { "teleports" };
    let counts = [
        ("pedestrians", file.pedestrians.len(), MAX_PEDESTRIANS, "pedestrians"),
        ("talkers", file.talkers.len(), MAX_TALKERS, "talkers"),
        (
            zone_list,
            teleport_zones + triggers,
            MAX_ZONES,
            "zones (teleport ends and cutscene triggers)",
        ),
    ];
    for (field, count, max, what) in counts {
        if count > max {
            c.report(
                &[Seg::Field(field)],
                format!("{count} {what} is over the {max} a level may hold"),
            );
        }
    }
}

/// The ground and the clock; whether the ground is a proper rectangle.
fn check_ground_and_clock(file: &LevelFile, c: &mut Checker<'_>) -> bool {
    c.point(&path!["ground", "min"], "ground: min", file.ground.min);
    c.point(&path!["ground", "max"], "ground: max", file.ground.max);
    let ground_ok = rect_has_area(&file.ground);
    if !ground_ok {
        c.report(
            &path!["ground"],
            format!(
                "ground: min {} is not south-west of max {}",
                pt(file.ground.min),
                pt(file.ground.max)
            ),
        );
    }
    if !(1..=MINUTES_PER_DAY).contains(&file.day_minutes) {
        c.report(
            &path!["day_minutes"],
            format!("day_minutes is {}; it must be 1..={MINUTES_PER_DAY}", file.day_minutes),
        );
    }
    if file.start_minute >= MINUTES_PER_DAY {
        c.report(
            &path!["start_minute"],
            format!("start_minute is {}; it must be below {MINUTES_PER_DAY}", file.start_minute),
        );
    }
    ground_ok
}

/// Buildings: unique ids, footprints with area on the ground, sizes; the site everything else
/// must stand clear of.
fn check_buildings<'f>(file: &'f LevelFile, c: &mut Checker<'_>, ground_ok: bool) -> Site<'f> {
    c.unique("building", file.buildings.iter().map(|b| b.id.as_str()), |i| {
        path!["buildings", i, "id"].to_vec()
    });
    for (i, b) in file.buildings.iter().enumerate() {
        let who = format!("building {:?}", b.id);
        let ground = ground_ok.then_some(&file.ground);
        check_footprint(c, &path!["buildings", i, "footprint"], &who, &b.footprint, ground);
        c.size(&path!["buildings", i, "height_cm"], &who, b.height_cm);
    }
    Site {
        ground: ground_ok.then_some(file.ground),
        buildings: file
            .buildings
            .iter()
            .filter(|b| rect_has_area(&b.footprint))
            .map(|b| (b.id.as_str(), b.footprint))
            .collect(),
    }
}

/// The street graph: unique waypoints on free ground, lanes between existing waypoints with a
/// length.
fn check_streets<'f>(file: &'f LevelFile, c: &mut Checker<'_>, site: &Site<'_>) -> Streets<'f> {
    let waypoints = &file.streets.waypoints;
    let waypoint_index = c.unique("waypoint", waypoints.iter().map(|w| w.id.as_str()), |i| {
        path!["streets", "waypoints", i, "id"].to_vec()
    });
    for (i, w) in waypoints.iter().enumerate() {
        site.check_point(
            c,
            &path!["streets", "waypoints", i, "at"],
            &format!("waypoint {:?}", w.id),
            w.at,
        );
    }
    let mut lanes = BTreeSet::new();
    for (i, (from, to)) in file.streets.lanes.iter().enumerate() {
        let who = format!("lane {i} ({from:?} to {to:?})");
        let from_index = waypoint_index.get(from.as_str()).copied();
        let to_index = waypoint_index.get(to.as_str()).copied();
        if from_index.is_none() {
            c.report(
                &path!["streets", "lanes", i, 0_usize],
                format!("{who}: waypoint {from:?} does not exist"),
            );
        }
        if to_index.is_none() {
            c.report(
                &path!["streets", "lanes", i, 1_usize],
                format!("{who}: waypoint {to:?} does not exist"),
            );
        }
        if let (Some(a), Some(b)) = (from_index, to_index) {
            let same_place = match (waypoints.get(a), waypoints.get(b)) {
                (Some(wa), Some(wb)) => wa.at == wb.at,
                _ => false,
            };
            if same_place {
                c.report(
                    &path!["streets", "lanes", i],
                    format!("{who}: the lane has no length: both ends are at the same point"),
                );
            }
            lanes.insert((a, b));
        }
    }
    Streets { waypoint_index, lanes }
}

/// Spawns: at least one, on free ground, outside every teleport zone.
fn check_spawns(file: &LevelFile, c: &mut Checker<'_>, site: &Site<'_>) {
    if file.spawns.is_empty() {
        c.report(&path!["spawns"], "no spawns: a level needs at least one player spawn");
    }
    for (i, spawn) in file.spawns.iter().enumerate() {
        let who = format!("spawn {i}");
        site.check_point(c, &path!["spawns", i, "at"], &who, spawn.at);
        for (pair, end, zone) in teleport_zones(file) {
            if zone.radius_cm > 0 && circle_contains(&zone, spawn.at) {
                c.report(
                    &path!["spawns", i, "at"],
                    format!(
                        "{who} at {} is inside zone {end} of teleport {:?}",
                        pt(spawn.at),
                        pair
                    ),
                );
            }
        }
    }
}

/// Objects: unique ids, and each kind's own rules.
fn check_objects(file: &LevelFile, c: &mut Checker<'_>, site: &Site<'_>) {
    c.unique("object", file.objects.iter().map(|o| o.id.as_str()), |i| {
        path!["objects", i, "id"].to_vec()
    });
    let building_index: BTreeMap<&str, usize> =
        file.buildings.iter().enumerate().rev().map(|(i, b)| (b.id.as_str(), i)).collect();
    for (i, object) in file.objects.iter().enumerate() {
        match &object.kind {
            ObjectKind::Door(door) => check_door(file, c, (i, &object.id), door, &building_index),
            ObjectKind::Lift(lift) => check_lift(c, (i, &object.id), lift, site),
            ObjectKind::Sign(sign) => check_sign(c, (i, &object.id), sign, site),
        }
    }
}

/// A door (object `i`): a hinge on its building's outline, a leaf with a length, a swing.
fn check_door(
    file: &LevelFile,
    c: &mut Checker<'_>,
    (i, id): (usize, &str),
    door: &Door,
    building_index: &BTreeMap<&str, usize>,
) {
    let who = format!("door {id:?}");
    c.point(&path!["objects", i, "kind", "hinge"], &format!("{who}: hinge"), door.hinge);
    c.point(&path!["objects", i, "kind", "leaf_end"], &format!("{who}: leaf_end"), door.leaf_end);
    let building = building_index.get(door.building.as_str()).copied();
    match building.and_then(|b| file.buildings.get(b)) {
        None => c.report(
            &path!["objects", i, "kind", "building"],
            format!("{who}: building {:?} does not exist", door.building),
        ),
        Some(b) if rect_has_area(&b.footprint) => {
            let off = distance_to_outline_squared(&b.footprint, door.hinge);
            let tolerance = i128::from(HINGE_TOLERANCE_CM);
            if off > tolerance * tolerance {
                c.report(
                    &path!["objects", i, "kind", "hinge"],
                    format!(
                        "{who}: hinge {} is not on the outline of building {:?}: \
                         it is {} cm away (at most {HINGE_TOLERANCE_CM})",
                        pt(door.hinge),
                        b.id,
                        off.unsigned_abs().isqrt()
                    ),
                );
            }
        }
        Some(_) => {}
    }
    if door.hinge == door.leaf_end {
        c.report(
            &path!["objects", i, "kind", "leaf_end"],
            format!("{who}: the leaf has no length: leaf_end {} is the hinge", pt(door.leaf_end)),
        );
    }
    c.size(&path!["objects", i, "kind", "height_cm"], &who, door.height_cm);
    if door.open_deg == 0 || door.open_deg.unsigned_abs() > MAX_DOOR_SWING_DEG.unsigned_abs() {
        c.report(
            &path!["objects", i, "kind", "open_deg"],
            format!(
                "{who}: door without a swing: open_deg is {}; it must be \
                 -{MAX_DOOR_SWING_DEG}..={MAX_DOOR_SWING_DEG} and not 0",
                door.open_deg
            ),
        );
    }
    c.duration(&path!["objects", i, "kind", "swing_ticks"], &who, door.swing_ticks);
    c.duration(&path!["objects", i, "kind", "stay_open_ticks"], &who, door.stay_open_ticks);
}

/// A lift (object `i`): a footprint with area on the ground, a top above its bottom.
fn check_lift(c: &mut Checker<'_>, (i, id): (usize, &str), lift: &Lift, site: &Site<'_>) {
    let who = format!("lift {id:?}");
    let path = path!["objects", i, "kind", "footprint"];
    check_footprint(c, &path, &who, &lift.footprint, site.ground.as_ref());
    c.coordinate(&path!["objects", i, "kind", "bottom_cm"], &who, lift.bottom_cm);
    c.coordinate(&path!["objects", i, "kind", "top_cm"], &who, lift.top_cm);
    if lift.top_cm <= lift.bottom_cm {
        c.report(
            &path!["objects", i, "kind", "top_cm"],
            format!("{who}: top_cm {} is not above bottom_cm {}", lift.top_cm, lift.bottom_cm),
        );
    }
    c.duration(&path!["objects", i, "kind", "travel_ticks"], &who, lift.travel_ticks);
    c.duration(&path!["objects", i, "kind", "wait_ticks"], &who, lift.wait_ticks);
}

/// A sign (object `i`): on the ground, with a size and its timings.
fn check_sign(c: &mut Checker<'_>, (i, id): (usize, &str), sign: &Sign, site: &Site<'_>) {
    let who = format!("sign {id:?}");
    site.check_on_ground(c, &path!["objects", i, "kind", "at"], &format!("{who} at"), sign.at);
    c.size(&path!["objects", i, "kind", "height_cm"], &who, sign.height_cm);
    c.duration(&path!["objects", i, "kind", "fade_ticks"], &who, sign.fade_ticks);
    c.duration(&path!["objects", i, "kind", "hold_ticks"], &who, sign.hold_ticks);
}

/// Teleports and cutscene triggers: their zones must not overlap, and a teleport's exits must
/// lie outside every teleport zone.
fn check_zones(file: &LevelFile, c: &mut Checker<'_>, site: &Site<'_>) {
    c.unique("teleport", file.teleports.iter().map(|t| t.id.as_str()), |i| {
        path!["teleports", i, "id"].to_vec()
    });
    for (i, pair) in file.teleports.iter().enumerate() {
        for (end_name, end) in [("a", &pair.a), ("b", &pair.b)] {
            let who = format!("teleport {:?} end {end_name}", pair.id);
            c.size(&path!["teleports", i, end_name, "zone", "radius_cm"], &who, end.zone.radius_cm);
            let centre = path!["teleports", i, end_name, "zone", "centre"];
            site.check_on_ground(c, &centre, &format!("{who}: zone centre"), end.zone.centre);
            site.check_point(
                c,
                &path!["teleports", i, end_name, "exit"],
                &format!("{who}: exit"),
                end.exit,
            );
            for (other, other_end, zone) in teleport_zones(file) {
                if zone.radius_cm > 0 && circle_contains(&zone, end.exit) {
                    c.report(
                        &path!["teleports", i, end_name, "exit"],
                        format!(
                            "{who}: exit {} is inside zone {other_end} of teleport {other:?}",
                            pt(end.exit)
                        ),
                    );
                }
            }
        }
    }
    c.unique("cutscene trigger", file.cutscene_triggers.iter().map(|t| t.id.as_str()), |i| {
        path!["cutscene_triggers", i, "id"].to_vec()
    });
    for (i, trigger) in file.cutscene_triggers.iter().enumerate() {
        let who = format!("cutscene trigger {:?}", trigger.id);
        c.size(&path!["cutscene_triggers", i, "zone", "radius_cm"], &who, trigger.zone.radius_cm);
        let centre = path!["cutscene_triggers", i, "zone", "centre"];
        site.check_on_ground(c, &centre, &format!("{who}: zone centre"), trigger.zone.centre);
    }
    let zones = all_zones(file);
    for (j, (path_j, name_j, zone_j)) in zones.iter().enumerate() {
        for (path_i, name_i, zone_i) in zones.iter().take(j) {
            if zone_i.radius_cm > 0 && zone_j.radius_cm > 0 && circles_overlap(zone_i, zone_j) {
                c.report_repeat(
                    path_j,
                    path_i,
                    format!("{name_j} overlaps {name_i}: zones must not overlap"),
                );
            }
        }
    }
}

/// Character names: unique among pedestrians and talkers, and not empty.
fn check_character_names(file: &LevelFile, c: &mut Checker<'_>) {
    let mut names: BTreeMap<&str, Vec<Seg>> = BTreeMap::new();
    let character_names = file
        .pedestrians
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), path!["pedestrians", i, "name"].to_vec()))
        .chain(
            file.talkers
                .iter()
                .enumerate()
                .map(|(i, t)| (t.name.as_str(), path!["talkers", i, "name"].to_vec())),
        );
    for (name, path) in character_names {
        if name.is_empty() {
            c.report(&path, "a character has an empty name");
        } else if let Some(first) = names.get(name) {
            c.report_repeat(&path, first, format!("duplicate character name {name:?}"));
        } else {
            names.insert(name, path);
        }
    }
}

/// Pedestrians: routes of at least two points on free ground, no leg through a building,
/// stops on the route, timings and speeds in range.
fn check_pedestrians(file: &LevelFile, c: &mut Checker<'_>, site: &Site<'_>) {
    for (i, ped) in file.pedestrians.iter().enumerate() {
        let who = format!("pedestrian {:?}", ped.name);
        let n = ped.route.len();
        if n < 2 {
            let what = if n == 0 { "is empty".to_owned() } else { format!("has {n} point") };
            c.report(
                &path!["pedestrians", i, "route"],
                format!("{who}: route {what}; it needs at least 2 points"),
            );
        }
        for (j, &p) in ped.route.iter().enumerate() {
            site.check_point(
                c,
                &path!["pedestrians", i, "route", j],
                &format!("{who}: route point {j}"),
                p,
            );
        }
        let segments = if n > 2 { n } else { n.saturating_sub(1) };
        for j in 0..segments {
            let k = (j + 1) % n;
            let (Some(&a), Some(&b)) = (ped.route.get(j), ped.route.get(k)) else { continue };
            if a == b {
                c.report(
                    &path!["pedestrians", i, "route", k],
                    format!("{who}: route points {j} and {k} are the same point {}", pt(a)),
                );
                continue;
            }
            let crossed = site.buildings.iter().find(|(_, footprint)| {
                !rect_contains(footprint, a)
                    && !rect_contains(footprint, b)
                    && segment_touches_rect(a, b, footprint)
            });
            if let Some((id, _)) = crossed {
                c.report(
                    &path!["pedestrians", i, "route", j],
                    format!(
                        "{who}: the route from point {j} {} to point {k} {} passes through \
                         building {id:?}",
                        pt(a),
                        pt(b)
                    ),
                );
            }
        }
        for (k, &stop) in ped.stops.iter().enumerate() {
            if stop >= n {
                c.report(
                    &path!["pedestrians", i, "stops", k],
                    format!(
                        "{who}: stop {stop} is not a route point: the route has {n} points \
                         (0..{n})"
                    ),
                );
            }
        }
        c.duration(&path!["pedestrians", i, "pause_ticks"], &who, ped.pause_ticks);
        c.speed(&path!["pedestrians", i, "speed_cm_per_s"], &who, ped.speed_cm_per_s);
    }
}

/// Taxis: unique ids, routes along lanes (the last waypoint back to the first), stands on the
/// route.
fn check_taxis(file: &LevelFile, c: &mut Checker<'_>, streets: &Streets<'_>) {
    let Streets { waypoint_index, lanes } = streets;
    c.unique("taxi", file.taxis.iter().map(|t| t.id.as_str()), |i| {
        path!["taxis", i, "id"].to_vec()
    });
    for (i, taxi) in file.taxis.iter().enumerate() {
        let who = format!("taxi {:?}", taxi.id);
        let n = taxi.route.len();
        if n < 2 {
            let what = if n == 0 { "is empty".to_owned() } else { format!("has {n} waypoint") };
            c.report(
                &path!["taxis", i, "route"],
                format!("{who}: route {what}; it needs at least 2 waypoints"),
            );
        }
        let mut resolved = Vec::with_capacity(n);
        for (j, id) in taxi.route.iter().enumerate() {
            let index = waypoint_index.get(id.as_str()).copied();
            if index.is_none() {
                c.report(
                    &path!["taxis", i, "route", j],
                    format!("{who}: route waypoint {id:?} does not exist"),
                );
            }
            resolved.push(index);
        }
        if n >= 2 {
            for j in 0..n {
                let k = (j + 1) % n;
                if let (Some(Some(a)), Some(Some(b))) = (resolved.get(j), resolved.get(k))
                    && !lanes.contains(&(*a, *b))
                {
                    let (from, to) = (&taxi.route[j], &taxi.route[k]);
                    c.report(
                        &path!["taxis", i, "route", k],
                        format!(
                            "{who}: no lane from {from:?} to {to:?} (route steps {j} to {k}): \
                             a taxi route must follow lanes, the last waypoint back to the first"
                        ),
                    );
                }
            }
        }
        for (k, stand) in taxi.stands.iter().enumerate() {
            if !waypoint_index.contains_key(stand.as_str()) {
                c.report(
                    &path!["taxis", i, "stands", k],
                    format!("{who}: stand waypoint {stand:?} does not exist"),
                );
            } else if !taxi.route.contains(stand) {
                c.report(
                    &path!["taxis", i, "stands", k],
                    format!("{who}: stand {stand:?} is not on its route"),
                );
            }
        }
        c.duration(&path!["taxis", i, "stand_ticks"], &who, taxi.stand_ticks);
        c.speed(&path!["taxis", i, "max_speed_cm_per_s"], &who, taxi.max_speed_cm_per_s);
    }
}

/// Talkers and lamps: on free ground; lamps with a height.
fn check_talkers_and_lamps(file: &LevelFile, c: &mut Checker<'_>, site: &Site<'_>) {
    for (i, talker) in file.talkers.iter().enumerate() {
        site.check_point(
            c,
            &path!["talkers", i, "at"],
            &format!("talker {:?}", talker.name),
            talker.at,
        );
    }
    for (i, lamp) in file.lamps.iter().enumerate() {
        let who = format!("lamp {i}");
        site.check_point(c, &path!["lamps", i, "at"], &who, lamp.at);
        c.size(&path!["lamps", i, "height_cm"], &who, lamp.height_cm);
    }
}

/// A footprint at `path` of `who`: one with area, and within `ground` where there is one.
fn check_footprint(
    c: &mut Checker<'_>,
    path: &[Seg],
    who: &str,
    footprint: &RectCm,
    ground: Option<&RectCm>,
) {
    if !rect_has_area(footprint) {
        c.report(
            path,
            format!(
                "{who}: footprint min {} is not south-west of max {}: it has no area",
                pt(footprint.min),
                pt(footprint.max)
            ),
        );
    } else if ground.is_some_and(|ground| !rect_within(footprint, ground)) {
        c.report(path, format!("{who}: footprint reaches outside the ground"));
    }
}

/// Every teleport zone: the pair's id, which end, and the zone.
fn teleport_zones(file: &LevelFile) -> impl Iterator<Item = (&str, &'static str, CircleCm)> {
    file.teleports
        .iter()
        .flat_map(|t| [(t.id.as_str(), "a", t.a.zone), (t.id.as_str(), "b", t.b.zone)])
}

/// Every zone of the level, teleports then cutscene triggers: its path, a name for
/// messages, and the circle.
fn all_zones(file: &LevelFile) -> Vec<(Vec<Seg>, String, CircleCm)> {
    let mut zones = Vec::new();
    for (i, t) in file.teleports.iter().enumerate() {
        for (end_name, end) in [("a", &t.a), ("b", &t.b)] {
            zones.push((
                path!["teleports", i, end_name, "zone"].to_vec(),
                format!("zone {end_name} of teleport {:?}", t.id),
                end.zone,
            ));
        }
    }
    for (i, t) in file.cutscene_triggers.iter().enumerate() {
        zones.push((
            path!["cutscene_triggers", i, "zone"].to_vec(),
            format!("the zone of cutscene trigger {:?}", t.id),
            t.zone,
        ));
    }
    zones
}
