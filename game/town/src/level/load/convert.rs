//! Converting: a checked file model into a [`Level`], with centimetres as fixed-point metres,
//! degrees as binary angles and string ids as indices.

use std::collections::BTreeMap;
use std::sync::Arc;

use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::tick::TICKS_PER_SECOND;

use super::MINUTES_PER_DAY;
use crate::AnimState;
use crate::geom::{Circle, Rect};
use crate::level::model::{
    self, CircleCm, ClipFile, CutsceneFile, DialogueFile, LevelFile, ObjectKind, PointCm, RectCm,
};
use crate::level::{
    BuildingDef, CameraKeyDef, ClipDef, ClipIndex, Clips, CutsceneDef, CutsceneTriggerDef,
    DialogueDef, DoorDef, LampDef, Level, LiftDef, LineDef, ObjectDef, ObjectDefKind,
    PedestrianDef, SignDef, SpawnDef, TalkerDef, TaxiDef, TeleportDef, TeleportEndDef,
    WaypointIndex,
};

/// Centimetres in a metre: level files measure lengths in whole centimetres (exact, and no
/// float to parse), the rules in fixed-point metres.
const CM_PER_M: i64 = 100;

/// Divisor from centimetres per second to metres per tick: 100 cm in a metre times
/// [`TICKS_PER_SECOND`], because speeds in files are per second and the rules move per tick.
const CM_PER_S_PER_M_PER_TICK: i64 = CM_PER_M * TICKS_PER_SECOND as i64;

/// Ticks in a real minute (60 s of [`TICKS_PER_SECOND`]), to turn `day_minutes` into ticks.
const TICKS_PER_MINUTE: u32 = 60 * TICKS_PER_SECOND;

/// Centimetres as fixed-point metres.
fn metres(cm: i32) -> Fx {
    Fx::from_num(cm) / CM_PER_M
}

/// A ground point in metres.
fn ground_point(p: PointCm) -> Vec2 {
    Vec2::new(metres(p.0), metres(p.1))
}

/// A ground point at a height, in the renderer's frame: x east, y up, z south.
fn space_point(p: PointCm, height_cm: i32) -> Vec3 {
    Vec3::new(metres(p.0), metres(height_cm), -metres(p.1))
}

fn rect(r: RectCm) -> Rect {
    Rect { min: ground_point(r.min), max: ground_point(r.max) }
}

fn circle(c: CircleCm) -> Circle {
    Circle { centre: ground_point(c.centre), radius: metres(c.radius_cm) }
}

/// Centimetres per second as metres per tick.
fn per_tick(cm_per_s: i32) -> Fx {
    Fx::from_num(cm_per_s) / CM_PER_S_PER_M_PER_TICK
}

/// An index as the `u32` a [`Level`] stores (level files hold far fewer than 2^32 items).
fn index_u32(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// The clips of a checked clip file.
pub(super) fn clips_from_file(file: &ClipFile) -> Clips {
    let defs: Vec<ClipDef> = file
        .clips
        .iter()
        .map(|clip| ClipDef {
            name: clip.name.clone(),
            frames: clip.frames,
            frames_per_tick: Fx::saturating_from_num(clip.fps) / i64::from(TICKS_PER_SECOND),
            looping: clip.looping,
        })
        .collect();
    let by_state = AnimState::ALL.map(|state| {
        defs.iter()
            .position(|d| d.name == state.clip_name())
            .and_then(|i| ClipIndex::try_from(i).ok())
            .unwrap_or(0)
    });
    Clips { defs, by_state }
}

/// A checked dialogue script, named by its path under `assets/`.
pub(super) fn dialogue_def(source: &str, file: DialogueFile) -> DialogueDef {
    DialogueDef {
        source: source.to_owned(),
        lines: file
            .lines
            .into_iter()
            .map(|l| LineDef { speaker: l.speaker, text: l.text, duration_ticks: l.duration_ticks })
            .collect(),
    }
}

/// A checked cutscene script, named by its path under `assets/`.
pub(super) fn cutscene_def(source: &str, file: CutsceneFile) -> CutsceneDef {
    CutsceneDef {
        source: source.to_owned(),
        duration_ticks: file.duration_ticks,
        camera: file
            .camera
            .iter()
            .map(|k| CameraKeyDef {
                at_tick: k.at_tick,
                eye: space_point(k.eye, k.eye_height_cm),
                target: space_point(k.target, 0),
            })
            .collect(),
        subtitles: file.subtitles,
        images: file.images,
        fade_ticks: file.fade_ticks,
    }
}

/// Converts a checked level file into a [`Level`], with its clips and the dialogue and
/// cutscene scripts it names (found by their [`DialogueDef::source`] and
/// [`CutsceneDef::source`]), and the files it was read from. Only meaningful for a file that
/// passed the checks: a reference that does not resolve becomes index 0 rather than a panic.
pub(in crate::level) fn level_from_file(
    file: &LevelFile,
    source: String,
    clips: Clips,
    dialogues: Vec<DialogueDef>,
    cutscenes: Vec<CutsceneDef>,
    files: Arc<ContentFiles>,
) -> Level {
    let waypoint_index: BTreeMap<&str, WaypointIndex> = file
        .streets
        .waypoints
        .iter()
        .enumerate()
        .rev()
        .map(|(i, w)| (w.id.as_str(), index_u32(i)))
        .collect();
    let waypoint = |id: &str| waypoint_index.get(id).copied().unwrap_or(0);
    let building_index: BTreeMap<&str, u32> = file
        .buildings
        .iter()
        .enumerate()
        .rev()
        .map(|(i, b)| (b.id.as_str(), index_u32(i)))
        .collect();

    let minute = u128::from(file.start_minute % MINUTES_PER_DAY);
    let start_time_of_day =
        u32::try_from((minute << 32) / u128::from(MINUTES_PER_DAY)).unwrap_or(0);

    let objects = file
        .objects
        .iter()
        .map(|o| ObjectDef {
            id: o.id.clone(),
            kind: match &o.kind {
                ObjectKind::Door(d) => ObjectDefKind::Door(DoorDef {
                    building: building_index.get(d.building.as_str()).copied().unwrap_or(0),
                    hinge: ground_point(d.hinge),
                    leaf_end: ground_point(d.leaf_end),
                    height: metres(d.height_cm),
                    open_angle: Angle::from_degrees(d.open_deg),
                    swing_ticks: d.swing_ticks,
                    stay_open_ticks: d.stay_open_ticks,
                    easing: d.easing,
                }),
                ObjectKind::Lift(l) => ObjectDefKind::Lift(LiftDef {
                    footprint: rect(l.footprint),
                    bottom: metres(l.bottom_cm),
                    top: metres(l.top_cm),
                    travel_ticks: l.travel_ticks,
                    wait_ticks: l.wait_ticks,
                    easing: l.easing,
                }),
                ObjectKind::Sign(s) => ObjectDefKind::Sign(SignDef {
                    at: space_point(s.at, s.height_cm),
                    facing: Angle::from_degrees(s.facing_deg),
                    text: s.text.clone(),
                    fade_ticks: s.fade_ticks,
                    hold_ticks: s.hold_ticks,
                    easing: s.easing,
                }),
            },
        })
        .collect();

    let teleport_end = |e: &model::TeleportEnd| TeleportEndDef {
        zone: circle(e.zone),
        exit: ground_point(e.exit),
        exit_facing: Angle::from_degrees(e.exit_facing_deg),
    };

    Level {
        name: file.name.clone(),
        source,
        files,
        ground: rect(file.ground),
        ticks_per_day: file.day_minutes.saturating_mul(TICKS_PER_MINUTE),
        start_time_of_day,
        clips,
        waypoints: file.streets.waypoints.iter().map(|w| ground_point(w.at)).collect(),
        lanes: file.streets.lanes.iter().map(|(a, b)| (waypoint(a), waypoint(b))).collect(),
        buildings: file
            .buildings
            .iter()
            .map(|b| BuildingDef {
                id: b.id.clone(),
                footprint: rect(b.footprint),
                height: metres(b.height_cm),
            })
            .collect(),
        spawns: file
            .spawns
            .iter()
            .map(|s| SpawnDef { at: ground_point(s.at), facing: Angle::from_degrees(s.facing_deg) })
            .collect(),
        objects,
        teleports: file
            .teleports
            .iter()
            .map(|t| TeleportDef {
                id: t.id.clone(),
                ends: [teleport_end(&t.a), teleport_end(&t.b)],
            })
            .collect(),
        pedestrians: file
            .pedestrians
            .iter()
            .map(|p| PedestrianDef {
                name: p.name.as_str().into(),
                route: p.route.iter().map(|&q| ground_point(q)).collect(),
                stops: (0..p.route.len()).map(|j| p.stops.contains(&j)).collect(),
                pause_ticks: p.pause_ticks,
                speed: per_tick(p.speed_cm_per_s),
            })
            .collect(),
        taxis: file
            .taxis
            .iter()
            .map(|t| TaxiDef {
                id: t.id.clone(),
                route: t.route.iter().map(|id| waypoint(id)).collect(),
                stands: t.route.iter().map(|id| t.stands.contains(id)).collect(),
                stand_ticks: t.stand_ticks,
                max_speed: per_tick(t.max_speed_cm_per_s),
            })
            .collect(),
        talkers: file
            .talkers
            .iter()
            .map(|t| TalkerDef {
                name: t.name.as_str().into(),
                at: ground_point(t.at),
                facing: Angle::from_degrees(t.facing_deg),
                dialogue: index_u32(
                    dialogues.iter().position(|d| d.source == t.dialogue).unwrap_or(0),
                ),
            })
            .collect(),
        dialogues,
        cutscene_triggers: file
            .cutscene_triggers
            .iter()
            .map(|t| CutsceneTriggerDef {
                id: t.id.clone(),
                zone: circle(t.zone),
                cutscene: index_u32(
                    cutscenes.iter().position(|c| c.source == t.cutscene).unwrap_or(0),
                ),
                once: t.once,
            })
            .collect(),
        cutscenes,
        lamps: file
            .lamps
            .iter()
            .map(|l| LampDef { at: ground_point(l.at), height: metres(l.height_cm) })
            .collect(),
    }
}
