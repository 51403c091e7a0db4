//! Recording what was drawn and what was true, in the JSON Lines formats of the traces'
//! FORMAT.md: a drawn log (one line per frame) and a truth log (one line per tick).
//!
//! Every entity gets one integer id across kinds: a character its id's slot index, taxi `i`
//! [`TAXI_ID_BASE`] + `i`, object `i` [`OBJECT_ID_BASE`] + `i`. Positions are world metres
//! (x east, y up, z south), yaws radians counter-clockwise from +x seen from above. Drawn-log
//! entities carry extra fields for local play: `kind` ("character", "taxi", "object") and, for
//! characters, `anim`, `frame`, `frames` and `looping`, which `fixstep judder` uses to find
//! turns the long way round and animation back-steps.

use std::fmt::Write as _;
use std::io::Write;

use fixstep_game::level::{Level, ObjectDefKind};
use fixstep_game::{AnimState, GameSnapshot, PlayerCommand};
use glam::{Quat, Vec3};

use crate::present::DrawFrame;
use crate::present::convert::{
    TICKS_PER_SECOND_F32 as TICKS_PER_SECOND, f, ground, radians, world,
};
use crate::present::frame::ObjectDraw;

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

fn anim_name(anim: AnimState) -> &'static str {
    anim.clip_name()
}

fn push_vec(out: &mut String, v: Vec3) {
    let _ = write!(out, "[{:.4},{:.4},{:.4}]", v.x, v.y, v.z);
}

/// How each object is drawn in a log: where ([`object_position`]), its yaw about its pivot,
/// and its speed, the change of its drawn position since the previous frame (objects have no
/// velocity of their own: a door swings, a lift travels).
#[derive(Clone, Debug, Default)]
pub struct ObjectMotion {
    /// Each object's drawn position at the previous frame, by its index.
    last: Vec<Vec3>,
    last_at_ms: Option<f64>,
}

impl ObjectMotion {
    /// No frame drawn yet.
    #[must_use]
    pub const fn new() -> Self {
        Self { last: Vec::new(), last_at_ms: None }
    }

    /// Calls `each(id, position, yaw, speed)` for every object of a frame drawn at `at_ms`.
    pub fn each(
        &mut self,
        at_ms: f64,
        level: &Level,
        objects: &[ObjectDraw],
        mut each: impl FnMut(u64, Vec3, f32, f32),
    ) {
        let dt_s = self.last_at_ms.map_or(0.0, |last| (at_ms - last) / 1000.0) as f32;
        for o in objects {
            let pos = object_position(level, o.index, o.offset, o.rotation);
            if self.last.len() <= o.index {
                self.last.resize(o.index + 1, pos);
            }
            let last = &mut self.last[o.index];
            let speed = if dt_s > 0.0 { (pos - *last).length() / dt_s } else { 0.0 };
            *last = pos;
            let (axis, angle) = o.rotation.to_axis_angle();
            let yaw = if axis.y < 0.0 { -angle } else { angle };
            each(OBJECT_ID_BASE + o.index as u64, pos, yaw, speed);
        }
        self.last_at_ms = Some(at_ms);
    }
}

/// What the local player held at a frame, for a drawn log: the input and the time it last
/// changed, from which `fixstep judder` measures the own character's input latency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldMark {
    /// Real time of the latest change of the held input, milliseconds.
    pub since_ms: f64,
    /// What is held: movement keys, key turn per tick, run, and an interact pressed now.
    pub held: PlayerCommand,
}

/// Writes one drawn-log line per frame.
#[derive(Debug)]
pub struct DrawnLog<W: Write> {
    out: W,
    line: String,
    objects: ObjectMotion,
}

impl<W: Write> DrawnLog<W> {
    /// A drawn log writing to `out`.
    pub fn new(out: W) -> Self {
        Self { out, line: String::new(), objects: ObjectMotion::new() }
    }

    /// Writes the line of a frame drawn at `at_ms` of real time.
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn frame(
        &mut self,
        at_ms: f64,
        frame: &DrawFrame,
        level: &Level,
        held: Option<&HeldMark>,
    ) -> std::io::Result<()> {
        let line = &mut self.line;
        line.clear();
        let render_tick = frame.render_tick;
        let _ = write!(line, "{{\"at_ms\":{at_ms:.3},\"render_tick\":{render_tick:.4},");
        if let Some(mark) = held {
            let _ = write!(line, "\"input_ms\":{:.3},", mark.since_ms);
        }
        let _ = write!(line, "\"camera\":");
        push_vec(line, frame.camera.eye);
        line.push_str(",\"entities\":[");
        let mut first = true;
        let mut entity =
            |line: &mut String, id: u64, tick: f64, pos: Vec3, yaw: f32, speed: f32, kind: &str| {
                if !first {
                    line.push(',');
                }
                first = false;
                let _ = write!(line, "{{\"id\":{id},\"tick\":{tick:.4},\"pos\":");
                push_vec(line, pos);
                let _ = write!(line, ",\"yaw\":{yaw:.5},\"speed\":{speed:.4},\"kind\":\"{kind}\"");
            };
        for c in &frame.characters {
            let s = &c.sample;
            entity(line, u64::from(c.id.index), c.tick, s.pos, s.facing, c.speed, "character");
            let (frames, looping) = level
                .clips
                .defs
                .get(usize::from(s.clip))
                .map_or((1, true), |clip| (clip.frames, clip.looping));
            let _ = write!(
                line,
                ",\"anim\":\"{}\",\"frame\":{:.4},\"frames\":{frames},\"looping\":{looping}",
                anim_name(s.anim),
                s.frame,
            );
            if c.local {
                line.push_str(",\"local\":true");
                if let Some(HeldMark { held: h, .. }) = held {
                    let _ = write!(
                        line,
                        ",\"held\":[{},{},{},{}]",
                        h.forward,
                        h.strafe,
                        h.turn,
                        u8::from(h.run)
                    );
                }
            }
            line.push('}');
        }
        for t in &frame.taxis {
            entity(
                line,
                TAXI_ID_BASE + t.index as u64,
                render_tick,
                t.sample.pos,
                t.sample.yaw,
                t.sample.speed,
                "taxi",
            );
            line.push('}');
        }
        self.objects.each(at_ms, level, &frame.objects, |id, pos, yaw, speed| {
            entity(line, id, render_tick, pos, yaw, speed, "object");
            line.push('}');
        });
        line.push_str("]}\n");
        self.out.write_all(line.as_bytes())
    }

    /// Flushes and returns the destination.
    ///
    /// # Errors
    ///
    /// If flushing fails.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes one truth line per tick: where everything authoritatively is.
#[derive(Debug)]
pub struct TruthLog<W: Write> {
    out: W,
    line: String,
    /// Each object's position at the previous tick, for its speed.
    last_objects: Vec<Vec3>,
}

impl<W: Write> TruthLog<W> {
    /// A truth log writing to `out`.
    pub fn new(out: W) -> Self {
        Self { out, line: String::new(), last_objects: Vec::new() }
    }

    /// Writes the line of a snapshot (`t_ms` = 100 × its tick).
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn snapshot(&mut self, snapshot: &GameSnapshot, level: &Level) -> std::io::Result<()> {
        let line = &mut self.line;
        line.clear();
        let _ = write!(line, "{{\"t_ms\":{:.1},\"entities\":[", f64::from(snapshot.tick.0) * 100.0);
        let mut first = true;
        let mut entity =
            |line: &mut String, id: u64, pos: Vec3, yaw: f32, speed: f32, jumps: u32| {
                if !first {
                    line.push(',');
                }
                first = false;
                let _ = write!(line, "{{\"id\":{id},\"pos\":");
                push_vec(line, pos);
                let _ = write!(
                    line,
                    ",\"yaw\":{yaw:.5},\"speed\":{speed:.4},\"jumps\":{jumps},\"leg\":{jumps}}}"
                );
            };
        for c in snapshot.characters.iter().filter(|c| c.enabled) {
            let speed = f(c.velocity.length()) * TICKS_PER_SECOND;
            entity(
                line,
                u64::from(c.id.index),
                ground(c.pos, 0.0),
                radians(c.facing),
                speed,
                c.jumps,
            );
        }
        for (i, t) in snapshot.taxis.iter().enumerate() {
            entity(
                line,
                TAXI_ID_BASE + i as u64,
                ground(t.pos, 0.0),
                radians(t.yaw),
                f(t.speed) * TICKS_PER_SECOND,
                t.jumps,
            );
        }
        let first = self.last_objects.is_empty();
        self.last_objects.resize(snapshot.objects.len(), Vec3::ZERO);
        for ((i, o), last) in snapshot.objects.iter().enumerate().zip(&mut self.last_objects) {
            let rotation = Quat::from_rotation_y(radians(o.rotation));
            let pos = object_position(level, i, world(o.offset), rotation);
            // Speed over the tick that ended here: the position's change since the last line.
            let speed = if first { 0.0 } else { (pos - *last).length() * TICKS_PER_SECOND };
            *last = pos;
            entity(line, OBJECT_ID_BASE + i as u64, pos, radians(o.rotation), speed, o.jumps);
        }
        line.push_str("]}\n");
        self.out.write_all(line.as_bytes())
    }

    /// Flushes and returns the destination.
    ///
    /// # Errors
    ///
    /// If flushing fails.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
