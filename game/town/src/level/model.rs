//! The level file format: what `assets/levels/*.ron` holds, exactly as written.
//!
//! Every number is an integer with its unit in its name: lengths in centimetres (`_cm`), angles
//! in degrees (`_deg`), durations in ticks (`_ticks`, 100 ms each). Integers keep level data
//! exact and float-free; the loader turns them into fixed-point metres and binary angles.
//! Things refer to each other by string ids, which the loader resolves and checks.
//!
//! Coordinates: `x` east, `y` north on the ground plane; heights (`_cm` fields named `height`
//! or `z`) are up. A facing of 0° looks along +x (east), 90° north.

use fixstep_runtime::Canonical;
use serde::Deserialize;

/// A point on the ground, centimetres: `(x, y)`.
pub type PointCm = (i32, i32);

/// A whole level file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelFile {
    /// The level's name, shown in the HUD and written into replays.
    pub name: String,
    /// The ground rectangle; nothing may stand outside it.
    pub ground: RectCm,
    /// Length of a full day of the time-of-day cycle, in real minutes (1..=1440).
    pub day_minutes: u32,
    /// The time of day at tick 0, in minutes after midnight (0..1440).
    pub start_minute: u32,
    /// Animation clip file, relative to `assets/` (such as `"animations/humanoid.ron"`).
    pub clips: String,
    /// The street graph the taxis drive on.
    pub streets: Streets,
    /// Buildings: solid boxes that characters and taxis cannot enter.
    pub buildings: Vec<Building>,
    /// Where player characters appear, in player order (player `i` takes spawn `i % len`).
    pub spawns: Vec<Spawn>,
    /// Doors, lifts, signs: objects with authoritative transform tasks.
    pub objects: Vec<Object>,
    /// Pairs of teleport zones; their zones and the cutscene triggers together number at most
    /// [`MAX_ZONES`](super::MAX_ZONES).
    pub teleports: Vec<TeleportPair>,
    /// Walking NPCs, at most [`MAX_PEDESTRIANS`](super::MAX_PEDESTRIANS).
    pub pedestrians: Vec<Pedestrian>,
    /// NPC taxis.
    pub taxis: Vec<Taxi>,
    /// NPCs a player can talk to, at most [`MAX_TALKERS`](super::MAX_TALKERS).
    pub talkers: Vec<Talker>,
    /// Zones that start a cutscene for the character that enters them.
    pub cutscene_triggers: Vec<CutsceneTrigger>,
    /// Street lamps: lit at night by the renderer; no effect on the rules.
    pub lamps: Vec<Lamp>,
}

/// An axis-aligned rectangle on the ground, centimetres, `min` south-west of `max`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RectCm {
    /// South-west corner.
    pub min: PointCm,
    /// North-east corner.
    pub max: PointCm,
}

/// A circle on the ground.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircleCm {
    /// Centre.
    pub centre: PointCm,
    /// Radius, centimetres (> 0).
    pub radius_cm: i32,
}

/// The street graph: named waypoints and directed lanes between them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Streets {
    /// Waypoints at lane ends and corners.
    pub waypoints: Vec<Waypoint>,
    /// Directed lanes `(from, to)` by waypoint id; a taxi route may only follow lanes.
    pub lanes: Vec<(String, String)>,
}

/// A named point of the street graph.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waypoint {
    /// Unique among waypoints.
    pub id: String,
    /// Where it is.
    pub at: PointCm,
}

/// A building: a solid box.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Building {
    /// Unique among buildings.
    pub id: String,
    /// Its footprint.
    pub footprint: RectCm,
    /// Its height, centimetres (> 0), for drawing.
    pub height_cm: i32,
}

/// A player spawn point.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spawn {
    /// Where the character appears.
    pub at: PointCm,
    /// Which way it faces.
    pub facing_deg: i32,
}

/// An interactive object.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Object {
    /// Unique among objects.
    pub id: String,
    /// What it is and how it behaves.
    pub kind: ObjectKind,
}

/// The kinds of interactive object.
#[derive(Clone, Debug, Deserialize)]
pub enum ObjectKind {
    /// A door in a building's wall that swings open on its hinge when a character interacts
    /// within reach, and closes again by itself.
    Door(Door),
    /// A platform that travels up and down on a timer.
    Lift(Lift),
    /// A sign that fades out and in on a timer.
    Sign(Sign),
}

/// A hinged door.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Door {
    /// The building whose wall it is in.
    pub building: String,
    /// The hinge, on the building's outline.
    pub hinge: PointCm,
    /// Where the closed door's free edge is: the door leaf runs from the hinge to here.
    pub leaf_end: PointCm,
    /// Door height, centimetres.
    pub height_cm: i32,
    /// How far it swings open, degrees, counter-clockwise positive (-179..=179, not 0).
    pub open_deg: i32,
    /// Ticks to swing open or shut (> 0).
    pub swing_ticks: u32,
    /// Ticks it stays open before closing by itself (> 0).
    pub stay_open_ticks: u32,
    /// How the swing eases.
    pub easing: Easing,
}

/// A lift platform.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lift {
    /// Its footprint.
    pub footprint: RectCm,
    /// Lowest height of its top surface, centimetres.
    pub bottom_cm: i32,
    /// Highest height, centimetres (> `bottom_cm`).
    pub top_cm: i32,
    /// Ticks to travel from bottom to top or back (> 0).
    pub travel_ticks: u32,
    /// Ticks it waits at each end (> 0).
    pub wait_ticks: u32,
    /// How the travel eases.
    pub easing: Easing,
}

/// A fading sign.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sign {
    /// Where it stands.
    pub at: PointCm,
    /// Which way its face looks.
    pub facing_deg: i32,
    /// Height of its board's centre, centimetres.
    pub height_cm: i32,
    /// The text on it.
    pub text: String,
    /// Ticks to fade out or in (> 0).
    pub fade_ticks: u32,
    /// Ticks it stays fully visible, and then fully faded, before the next fade (> 0).
    pub hold_ticks: u32,
    /// How the fade eases.
    pub easing: Easing,
}

/// The shape of a task's progress over its ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Canonical)]
pub enum Easing {
    /// Constant rate.
    Linear,
    /// Slow start and end (smoothstep).
    InOut,
}

/// Two teleport zones: entering either puts the character at the other's exit.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeleportPair {
    /// Unique among teleport pairs.
    pub id: String,
    /// One end.
    pub a: TeleportEnd,
    /// The other end.
    pub b: TeleportEnd,
}

/// One end of a teleport pair.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeleportEnd {
    /// The zone that sends a character to the other end.
    pub zone: CircleCm,
    /// Where a character sent here appears (outside this zone, so it does not bounce).
    pub exit: PointCm,
    /// Which way it then faces.
    pub exit_facing_deg: i32,
}

/// A walking NPC.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pedestrian {
    /// Its name, shown over its head; unique among characters.
    pub name: String,
    /// Points it walks between, in order, looping back to the first (at least 2).
    pub route: Vec<PointCm>,
    /// Indices into `route` where it stops, waves, and waits `pause_ticks`.
    pub stops: Vec<usize>,
    /// Ticks it waits at each stop (> 0).
    pub pause_ticks: u32,
    /// Walking speed, centimetres per second (> 0).
    pub speed_cm_per_s: i32,
}

/// An NPC taxi.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Taxi {
    /// Unique among taxis.
    pub id: String,
    /// Waypoint ids it drives through, in order, looping; consecutive ones (and the last to
    /// the first) must be joined by a lane (at least 2).
    pub route: Vec<String>,
    /// Waypoint ids on its route where it stops for `stand_ticks` (its taxi stands).
    pub stands: Vec<String>,
    /// Ticks it stays at a stand (> 0).
    pub stand_ticks: u32,
    /// Top speed, centimetres per second (> 0).
    pub max_speed_cm_per_s: i32,
}

/// An NPC that talks.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Talker {
    /// Its name, shown over its head; unique among characters.
    pub name: String,
    /// Where it stands.
    pub at: PointCm,
    /// Which way it faces.
    pub facing_deg: i32,
    /// Dialogue script, relative to `assets/` (such as `"dialogue/mayor.ron"`).
    pub dialogue: String,
}

/// A zone that starts a cutscene.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutsceneTrigger {
    /// Unique among triggers.
    pub id: String,
    /// The zone.
    pub zone: CircleCm,
    /// Cutscene script, relative to `assets/`.
    pub cutscene: String,
    /// Whether it plays only the first time each character enters.
    pub once: bool,
}

/// A street lamp.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lamp {
    /// Where it stands.
    pub at: PointCm,
    /// Height of the light, centimetres.
    pub height_cm: i32,
}

/// An animation clip file (`assets/animations/*.ron`): the clips the rules advance. The
/// renderer reads the same file, with the skeleton and keyframes, which the rules ignore.
#[derive(Clone, Debug, Deserialize)]
pub struct ClipFile {
    /// The clips.
    pub clips: Vec<ClipInfo>,
}

/// What the rules need of a clip.
#[derive(Clone, Debug, Deserialize)]
pub struct ClipInfo {
    /// Unique name: the rules look up "idle", "walk", "run", "wave", "talk", "hit".
    pub name: String,
    /// Number of frames (> 0).
    pub frames: u32,
    /// Frames per second (> 0).
    pub fps: u32,
    /// Whether the clip repeats (last frame flows into the first) or holds its last frame.
    pub looping: bool,
}

/// A dialogue script (`assets/dialogue/*.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DialogueFile {
    /// Who speaks each line (shown in the dialogue box), and the lines in order (at least 1).
    pub lines: Vec<DialogueLine>,
}

/// One line of dialogue.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DialogueLine {
    /// Speaker's name.
    pub speaker: String,
    /// What is said.
    pub text: String,
    /// Ticks before the line advances by itself (> 0); an interact advances it sooner.
    pub duration_ticks: u32,
}

/// A cutscene script (`assets/cutscenes/*.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutsceneFile {
    /// Total length, ticks (> 0): the player's movement is ignored until it ends.
    pub duration_ticks: u32,
    /// Camera keys in time order (at least 1), from tick 0 of the cutscene.
    pub camera: Vec<CameraKey>,
    /// Subtitles.
    pub subtitles: Vec<Subtitle>,
    /// Images shown over the scene.
    pub images: Vec<CutsceneImage>,
    /// Fade to black at the start and end, ticks.
    pub fade_ticks: u32,
}

/// Where the camera is at one moment of a cutscene.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraKey {
    /// Tick from the cutscene's start (<= `duration_ticks`).
    pub at_tick: u32,
    /// Camera position on the ground.
    pub eye: PointCm,
    /// Camera height, centimetres.
    pub eye_height_cm: i32,
    /// The point it looks at.
    pub target: PointCm,
}

/// A subtitle.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Canonical)]
#[serde(deny_unknown_fields)]
pub struct Subtitle {
    /// First tick shown.
    pub from_tick: u32,
    /// First tick no longer shown (> `from_tick`, <= `duration_ticks`).
    pub to_tick: u32,
    /// The text.
    pub text: String,
}

/// An image shown during a cutscene, moving from one pose to another.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Canonical)]
#[serde(deny_unknown_fields)]
pub struct CutsceneImage {
    /// Image file, relative to `assets/`.
    pub image: String,
    /// First tick shown.
    pub from_tick: u32,
    /// First tick no longer shown.
    pub to_tick: u32,
    /// Pose at `from_tick`: screen position in per-mille of the screen (0..=1000) and scale in
    /// per-mille.
    pub from_pose: ImagePose,
    /// Pose at `to_tick`.
    pub to_pose: ImagePose,
}

/// Where an image is on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Canonical)]
#[serde(deny_unknown_fields)]
pub struct ImagePose {
    /// Horizontal position of its centre, per-mille of the screen width from the left.
    pub x_permille: i32,
    /// Vertical position of its centre, per-mille of the screen height from the top.
    pub y_permille: i32,
    /// Its height as per-mille of the screen height.
    pub scale_permille: i32,
    /// Its opacity, per-mille.
    pub opacity_permille: i32,
}
