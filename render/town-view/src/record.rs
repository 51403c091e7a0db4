//! The town in the drawn log and the truth (the formats of `fixstep_present::format`).
//!
//! Every entity gets one integer id across kinds: a character its id's slot index, taxi `i`
//! [`TAXI_ID_BASE`] + `i`, object `i` [`OBJECT_ID_BASE`] + `i`. Drawn-log entities carry the
//! extensions for local play: `kind` ("character", "taxi", "object") and, for characters,
//! `anim`, `frame`, `frames` and `looping`, which `fixstep judder` uses to find turns the long
//! way round and animation back-steps. A spectator's log names its entities by how they move
//! ("walker", "vehicle"), as a network trace does.

use fixstep_present::convert::{TICKS_PER_SECOND_F32, f, ground, radians, world};
use fixstep_present::format::{DrawnEntity, DrawnFrame, TruthEntity};
use fixstep_present::remote::RemoteFrame;
use fixstep_town::GameSnapshot;
use fixstep_town::level::{Level, ObjectDefKind};
use glam::{Quat, Vec3};

use crate::present::frame::{DrawFrame, ObjectDraw};

/// First id of taxis in logs: above any character slot index a level of this size reaches.
pub const TAXI_ID_BASE: u64 = 1_000_000;

/// First id of objects in logs.
pub const OBJECT_ID_BASE: u64 = 2_000_000;

/// Where object `index` is drawn, given its offset and rotation: a door's leaf middle swung
/// about its hinge, a lift's footprint centre raised, a sign's board.
#[must_use]
pub fn object_position(level: &Level, index: usize, offset: Vec3, rotation: Quat) -> Vec3 {
    match level.objects.get(index).map(|o| &o.kind) {
        Some(ObjectDefKind::Door(door)) => {
            let hinge = ground(door.hinge, 0.0);
            let middle = ground((door.hinge + door.leaf_end) / fixstep_runtime::math::fx(2), 0.0);
            hinge + rotation * (middle - hinge) + offset
        }
        Some(ObjectDefKind::Lift(lift)) => ground(lift.footprint.centre(), f(lift.bottom)) + offset,
        Some(ObjectDefKind::Sign(sign)) => world(sign.at) + offset,
        None => offset,
    }
}

/// An object as a frame drew it, for the log: where, its yaw about its pivot, and its speed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct DrawnObject {
    pos: Vec3,
    yaw: f32,
    speed: f32,
}

/// How each object moved as drawn: where ([`object_position`]), its yaw, and its speed, the
/// change of its drawn position since the frame before (objects have no velocity of their
/// own: a door swings, a lift travels).
#[derive(Clone, Debug, Default)]
pub struct ObjectMotion {
    /// Each object as drawn last, by its index.
    drawn: Vec<DrawnObject>,
    last_seconds: Option<f64>,
}

impl ObjectMotion {
    /// No frame drawn yet.
    #[must_use]
    pub const fn new() -> Self {
        Self { drawn: Vec::new(), last_seconds: None }
    }

    /// A frame drew `objects` of `level` at `seconds` of real time.
    pub fn drawn(&mut self, seconds: f64, level: &Level, objects: &[ObjectDraw]) {
        let dt = self.last_seconds.map_or(0.0, |last| seconds - last) as f32;
        for o in objects {
            let pos = object_position(level, o.index, o.offset, o.rotation);
            if self.drawn.len() <= o.index {
                self.drawn.resize(o.index + 1, DrawnObject { pos, ..DrawnObject::default() });
            }
            let last = &mut self.drawn[o.index];
            let speed = if dt > 0.0 { (pos - last.pos).length() / dt } else { 0.0 };
            let (axis, angle) = o.rotation.to_axis_angle();
            let yaw = if axis.y < 0.0 { -angle } else { angle };
            *last = DrawnObject { pos, yaw, speed };
        }
        self.last_seconds = Some(seconds);
    }

    /// Writes `objects` as drawn last, at `tick`.
    fn record(&self, objects: &[ObjectDraw], tick: f64, out: &mut Vec<DrawnEntity>) {
        for o in objects {
            let Some(d) = self.drawn.get(o.index) else { continue };
            let id = OBJECT_ID_BASE + o.index as u64;
            let entity = DrawnEntity::new(
                id,
                tick,
                d.pos.as_dvec3().to_array(),
                f64::from(d.yaw),
                f64::from(d.speed),
            );
            out.push(entity.of_kind("object"));
        }
    }
}

/// Writes what a town frame drew into a drawn-log line.
pub fn record_frame(
    frame: &DrawFrame,
    level: &Level,
    objects: &ObjectMotion,
    line: &mut DrawnFrame,
) {
    line.render_tick = frame.render_tick;
    line.camera = Some(frame.camera.eye.as_dvec3().to_array());
    for c in &frame.characters {
        let s = &c.sample;
        let mut entity = DrawnEntity::new(
            u64::from(c.id.index),
            c.tick,
            s.pos.as_dvec3().to_array(),
            f64::from(s.facing),
            f64::from(c.speed),
        )
        .of_kind("character");
        let (frames, looping) = level
            .clips
            .defs
            .get(usize::from(s.clip))
            .map_or((1, true), |clip| (clip.frames, clip.looping));
        entity.anim = Some(s.anim.clip_name().into());
        entity.frame = Some(f64::from(s.frame));
        entity.frames = Some(f64::from(frames));
        entity.looping = Some(looping);
        entity.local = c.local;
        line.entities.push(entity);
    }
    for t in &frame.taxis {
        let entity = DrawnEntity::new(
            TAXI_ID_BASE + t.index as u64,
            frame.render_tick,
            t.sample.pos.as_dvec3().to_array(),
            f64::from(t.sample.yaw),
            f64::from(t.sample.speed),
        );
        line.entities.push(entity.of_kind("taxi"));
    }
    objects.record(&frame.objects, frame.render_tick, &mut line.entities);
}

/// Writes what a spectator's frame drew into a drawn-log line: the remote entities by how
/// they move, as a network trace names them, and the objects, in id order.
pub fn record_remote(
    remote: &RemoteFrame,
    objects: &[ObjectDraw],
    motion: &ObjectMotion,
    line: &mut DrawnFrame,
) {
    remote.record(line);
    motion.record(objects, line.render_tick, &mut line.entities);
    line.entities.sort_unstable_by_key(|e| e.id);
}

/// Where everything of `current` authoritatively is, the snapshot after `previous` (objects'
/// speeds are their change since it).
pub fn truth(
    level: &Level,
    previous: Option<&GameSnapshot>,
    current: &GameSnapshot,
    out: &mut Vec<TruthEntity>,
) {
    let entity = |id: u64, pos: Vec3, yaw: f32, speed: f32, jumps: u32| TruthEntity {
        id,
        pos: pos.as_dvec3().to_array(),
        yaw: f64::from(yaw),
        speed: f64::from(speed),
        jumps,
        leg: None,
    };
    for c in current.characters.iter().filter(|c| c.enabled) {
        let speed = f(c.velocity.length()) * TICKS_PER_SECOND_F32;
        let pos = ground(c.pos, 0.0);
        out.push(entity(u64::from(c.id.index), pos, radians(c.facing), speed, c.jumps));
    }
    for (i, t) in current.taxis.iter().enumerate() {
        let speed = f(t.speed) * TICKS_PER_SECOND_F32;
        out.push(entity(
            TAXI_ID_BASE + i as u64,
            ground(t.pos, 0.0),
            radians(t.yaw),
            speed,
            t.jumps,
        ));
    }
    let place = |i: usize, o: &fixstep_town::ObjectView| {
        let rotation = Quat::from_rotation_y(radians(o.rotation));
        object_position(level, i, world(o.offset), rotation)
    };
    for (i, o) in current.objects.iter().enumerate() {
        let pos = place(i, o);
        // Speed over the tick that ended here: the position's change since the tick before.
        let speed = previous
            .and_then(|p| p.objects.get(i))
            .map_or(0.0, |before| (pos - place(i, before)).length() * TICKS_PER_SECOND_F32);
        out.push(entity(OBJECT_ID_BASE + i as u64, pos, radians(o.rotation), speed, o.jumps));
    }
}
