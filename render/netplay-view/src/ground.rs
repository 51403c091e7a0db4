//! Spectating a game on a ground plane: what a spectator is sent of a tick (the poses of what
//! moves, near its camera every tick and further away every second or fourth, and at once for
//! a start, a stop, a jump or a change of tier; integers only, as the host measured them), and
//! how the spectator draws them (through the remote view: the network clock, a remote buffer
//! per entity, the update-gap delay). A game whose world is a plane (the town, the arena)
//! sends its spectators a [`GroundUpdate`], with whatever else it needs beside it.

use std::collections::{BTreeMap, VecDeque};

use fixstep_present::convert::{ground_mm, metres_of_mm, mm_of_ground, radians};
use fixstep_present::remote::{Measurement, Motion, RemoteFrame, RemoteView};
use fixstep_runtime::Tick;
use fixstep_runtime::math::{Angle, Fx, Vec2};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// What moves of one entity, as a spectator is told it: integers only (millimetres,
/// millimetres a second, binary angle units); the spectator turns them into floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pose {
    /// The entity's id, stable for its life.
    pub id: u64,
    /// Whether it moves as a vehicle (a cubic curve through measured velocities) or a walker.
    pub vehicle: bool,
    /// Position on the ground, millimetres (x east, y north).
    pub pos_mm: [i32; 2],
    /// Velocity, millimetres a second.
    pub vel_mm_s: [i32; 2],
    /// Heading, 2^32 a turn, counter-clockwise from east.
    pub yaw: u32,
    /// The host's rule: the entity stands still.
    pub at_rest: bool,
    /// Its snapshot period, ticks: 1, 2 or 4.
    pub tier: u8,
    /// Counts the times the rules put it somewhere new.
    pub jumps: u32,
    /// What the game shows over it, in its own units (a character's health; 0 for a vehicle):
    /// a change is sent at once.
    pub health: i32,
}

/// Who an entity is, as a spectator is told it: the game's own code for the entity's role
/// (a player's number, a named townsperson). Sent with an entity's first pose and whenever
/// its role changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityRole {
    /// The entity, as its poses name it.
    pub id: u64,
    /// The game's code for its role.
    pub role: u64,
}

/// The poses a spectator is sent for one tick: those whose turn it is, and any that started,
/// stopped, jumped or changed tier; the ids that left; the roles of entities new or changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroundUpdate {
    /// The host tick measured.
    pub tick: Tick,
    /// The entities measured.
    pub poses: Vec<Pose>,
    /// Entities gone since the last update.
    pub gone: Vec<u64>,
    /// The roles of the entities that are new or whose role changed since the last update.
    pub roles: Vec<EntityRole>,
}

/// Where a ground spectator's camera looks, millimetres on the ground (x east, y north): the
/// host sends the entities near it every tick and the rest less often.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroundPoint {
    /// The point.
    pub at_mm: [i32; 2],
}

impl GroundPoint {
    /// The point on the ground under a world point.
    #[must_use]
    pub fn under(target: Vec3) -> Self {
        Self { at_mm: mm_of_ground(target) }
    }
}

/// Entities nearer the point a spectator looks at than this are sent every tick, metres: what
/// a camera 40 m off (its farthest zoom) shows in detail, so that nothing on screen is drawn
/// from a guess.
pub const NEAR_TIER_M: i32 = 80;

/// Entities nearer than this (and beyond [`NEAR_TIER_M`]) are sent every second tick; the
/// rest every fourth, metres: beyond it a figure is a few pixels tall, and a pose a fifth of a
/// second old costs nothing to see.
pub const MIDDLE_TIER_M: i32 = 200;

/// Millimetres in a metre.
const MM_PER_M: i32 = 1_000;

/// A metre-valued fixed-point number in millimetres (saturating far beyond any level).
#[must_use]
pub fn mm(x: Fx) -> i32 {
    (x * Fx::from_num(MM_PER_M)).round().saturating_to_num::<i32>()
}

/// A point or vector of the ground, metres, in millimetres.
#[must_use]
pub fn mm2(v: Vec2) -> [i32; 2] {
    [mm(v.x), mm(v.y)]
}

/// A velocity in metres per tick as millimetres a second (rounded after scaling, so it is
/// sent to the millimetre a second).
#[must_use]
pub fn mm_per_second(per_tick: Vec2) -> [i32; 2] {
    mm2(per_tick * Fx::from_num(fixstep_runtime::tick::TICKS_PER_SECOND))
}

/// How far past a tier's edge an entity must go to change tier, per mille of the edge's
/// distance: a tenth, so an entity moving along an edge (a street at that distance from the
/// camera) does not change tier back and forth, each change slewing its delay.
pub const TIER_HYSTERESIS_PERMILLE: i64 = 100;

/// The tier of an entity at `pos_mm` seen from a camera at `camera_mm`, which was in tier
/// `was` (if it was sent before): it keeps that tier until it is a tenth past the edge.
#[must_use]
pub fn tier_at(pos_mm: [i32; 2], camera_mm: [i32; 2], was: Option<u8>) -> u8 {
    let dx = i64::from(pos_mm[0]) - i64::from(camera_mm[0]);
    let dy = i64::from(pos_mm[1]) - i64::from(camera_mm[1]);
    let d2 = dx * dx + dy * dy;
    // An edge's distance, squared, moved out (+1) or in (-1) by the hysteresis.
    let edge = |metres: i32, shift: i64| {
        let mm = i64::from(metres * MM_PER_M);
        let at = mm + shift * mm * TIER_HYSTERESIS_PERMILLE / 1_000;
        at * at
    };
    let tier_within = |shift: i64| {
        if d2 <= edge(NEAR_TIER_M, shift) {
            1
        } else if d2 <= edge(MIDDLE_TIER_M, shift) {
            2
        } else {
            4
        }
    };
    match was {
        None => tier_within(0),
        Some(tier) => {
            // Farther only once past the edges moved out, nearer only once within them moved
            // in.
            let (outward, inward) = (tier_within(1), tier_within(-1));
            if outward > tier {
                outward
            } else if inward < tier {
                inward
            } else {
                tier
            }
        }
    }
}

/// Every entity's pose and role after a tick, gathered once a tick for all the spectators'
/// feeds; its lists are kept and refilled.
#[derive(Clone, Debug, Default)]
pub struct GroundSource {
    /// The tick the poses are of.
    pub tick: Tick,
    /// Every entity's pose, in id order.
    pub poses: Vec<Pose>,
    /// The roles of those that have one.
    pub roles: Vec<EntityRole>,
}

impl GroundSource {
    /// Empties the lists for the poses of `tick`.
    pub fn start(&mut self, tick: Tick) {
        self.tick = tick;
        self.poses.clear();
        self.roles.clear();
    }
}

/// What one spectator was last sent of each entity, to send it only what is its due.
#[derive(Clone, Debug, Default)]
pub struct GroundFeed {
    /// Each entity's pose as last sent, and the update that last had the entity (those older
    /// than the latest are gone).
    sent: BTreeMap<u64, (Pose, u64)>,
    roles: BTreeMap<u64, u64>,
    /// Updates made.
    updates: u64,
}

impl GroundFeed {
    /// The update of the tick gathered in `source` for a spectator whose camera looks at
    /// `camera` (see [`update`](Self::update)).
    pub fn update_from(&mut self, source: &GroundSource, camera: GroundPoint) -> GroundUpdate {
        self.update(source.tick, &source.poses, &source.roles, camera)
    }

    /// The update of `tick` for a spectator whose camera looks at `camera`, from every
    /// entity's pose: those whose tier's turn it is (unless at rest and sent at rest), and any
    /// new, started, stopped, jumped, hurt or healed, or moved to another tier; the roles of
    /// entities new or changed in role; and those gone.
    pub fn update(
        &mut self,
        tick: Tick,
        poses: &[Pose],
        roles: &[EntityRole],
        camera: GroundPoint,
    ) -> GroundUpdate {
        let camera_mm = camera.at_mm;
        let mut out = GroundUpdate { tick, ..GroundUpdate::default() };
        self.updates += 1;
        let now = self.updates;
        for pose in poses {
            let last = self.sent.get_mut(&pose.id);
            let pose = Pose {
                tier: tier_at(pose.pos_mm, camera_mm, last.as_ref().map(|l| l.0.tier)),
                ..*pose
            };
            let due = match &last {
                None => true,
                Some((last, _)) => {
                    let changed = last.at_rest != pose.at_rest
                        || last.jumps != pose.jumps
                        || last.health != pose.health
                        || last.tier != pose.tier;
                    let turn = tick.0.is_multiple_of(u32::from(pose.tier));
                    changed
                        || (turn && !(pose.at_rest && last.at_rest && last.pos_mm == pose.pos_mm))
                }
            };
            match last {
                Some(last) if due => *last = (pose, now),
                Some(last) => last.1 = now,
                None => {
                    self.sent.insert(pose.id, (pose, now));
                }
            }
            if due {
                out.poses.push(pose);
            }
        }
        let roles_sent = &mut self.roles;
        self.sent.retain(|&id, &mut (_, seen)| {
            let here = seen == now;
            if !here {
                roles_sent.remove(&id);
                out.gone.push(id);
            }
            here
        });
        for role in roles {
            if self.sent.contains_key(&role.id) && self.roles.get(&role.id) != Some(&role.role) {
                self.roles.insert(role.id, role.role);
                out.roles.push(*role);
            }
        }
        out
    }
}

/// A pose as the remote view measures it: world metres (x east, y up, z south), radians.
#[must_use]
pub fn measurement_of(pose: &Pose, tick: Tick) -> (Motion, Measurement) {
    let pos = ground_mm(pose.pos_mm);
    let vel = Vec3::new(metres_of_mm(pose.vel_mm_s[0]), 0.0, -metres_of_mm(pose.vel_mm_s[1]));
    let yaw = radians(Angle(pose.yaw));
    let measurement = Measurement {
        tick: tick.0,
        pos,
        vel,
        yaw,
        at_rest: pose.at_rest,
        tier: pose.tier,
        jumps: pose.jumps,
    };
    (if pose.vehicle { Motion::Vehicle } else { Motion::Walker }, measurement)
}

/// What a spectator knows of an entity besides its motion: who it is (the game's code), and
/// its health at the ticks it changed (drawn at the view's render tick, as its motion is, not
/// ahead of it).
#[derive(Clone, Debug, Default)]
struct Person {
    role: Option<u64>,
    health: VecDeque<(u32, i32)>,
    /// The tick it left the town, once told.
    gone_at: Option<u32>,
}

/// Who the entities a spectator draws are, and their health; see [`GroundView`].
#[derive(Clone, Debug, Default)]
pub struct People {
    by_id: BTreeMap<u64, Person>,
}

impl People {
    /// The game's code for who entity `id` is, if the host said.
    #[must_use]
    pub fn role(&self, id: u64) -> Option<u64> {
        self.by_id.get(&id).and_then(|p| p.role)
    }

    /// Entity `id`'s health at `render_tick`: the latest change at or before it (the first one
    /// known, before that), if it has any.
    #[must_use]
    pub fn health_at(&self, id: u64, render_tick: f64) -> Option<i32> {
        let changes = &self.by_id.get(&id)?.health;
        let reached = changes.iter().rev().find(|(tick, _)| f64::from(*tick) <= render_tick);
        reached.or_else(|| changes.front()).map(|&(_, health)| health)
    }

    fn measured(&mut self, pose: &Pose, tick: Tick) {
        let person = self.by_id.entry(pose.id).or_default();
        person.gone_at = None;
        if person.health.back().is_none_or(|&(_, h)| h != pose.health) {
            if person.health.len() >= HEALTH_CHANGES_KEPT {
                person.health.pop_front();
            }
            person.health.push_back((tick.0, pose.health));
        }
    }

    /// Forgets what the drawing at `render_tick` has passed: the departed, and changes of
    /// health before the latest one reached.
    fn drawn_to(&mut self, render_tick: f64) {
        self.by_id.retain(|_, p| p.gone_at.is_none_or(|gone| f64::from(gone) > render_tick));
        for person in self.by_id.values_mut() {
            while person.health.get(1).is_some_and(|&(tick, _)| f64::from(tick) <= render_tick) {
                person.health.pop_front();
            }
        }
    }
}

/// The most changes of health kept for one character: a second and a half of changes every
/// tick, more than a view ever draws behind the newest.
const HEALTH_CHANGES_KEPT: usize = 16;

/// What a spectator of a ground game draws: the remote view of the entities it is sent, and
/// who they are.
#[derive(Debug, Default)]
pub struct GroundView {
    view: RemoteView,
    people: People,
}

impl GroundView {
    /// A view that has been sent nothing.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The remote view.
    #[must_use]
    pub const fn view(&self) -> &RemoteView {
        &self.view
    }

    /// `elapsed_micros` of real time passed.
    pub fn advance(&mut self, elapsed_micros: u64) {
        self.view.advance(elapsed_micros);
    }

    /// Another host took the match over: the drawing holds through the pause (see
    /// [`RemoteView::host_changed`]).
    pub fn host_changed(&mut self) {
        self.view.host_changed();
    }

    /// An update arrived now.
    pub fn update(&mut self, update: &GroundUpdate) {
        self.view.snapshot_arrived(update.tick);
        for pose in &update.poses {
            let (motion, measurement) = measurement_of(pose, update.tick);
            self.view.measure(pose.id, motion, &measurement);
            if !pose.vehicle {
                self.people.measured(pose, update.tick);
            }
        }
        for role in &update.roles {
            self.people.by_id.entry(role.id).or_default().role = Some(role.role);
        }
        for &id in &update.gone {
            self.view.gone(id, update.tick);
            if let Some(person) = self.people.by_id.get_mut(&id) {
                person.gone_at = Some(update.tick.0);
            }
        }
    }

    /// Draws every entity at the clock's render tick, with who they are.
    pub fn draw(&mut self) -> (&RemoteFrame, &People) {
        let frame = self.view.draw();
        self.people.drawn_to(frame.render_tick);
        (frame, &self.people)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixstep_runtime::Tick;

    /// A walker's pose at rest with `health`.
    fn walker(id: u64, health: i32) -> Pose {
        Pose {
            id,
            vehicle: false,
            pos_mm: [0, 0],
            vel_mm_s: [0, 0],
            yaw: 0,
            at_rest: true,
            tier: 1,
            jumps: 0,
            health,
        }
    }

    /// Health is drawn at the view's render tick, as motion is: a change told at tick 10 shows
    /// from render tick 10 on, not before, and the older value is forgotten once the view
    /// has drawn past it.
    #[test]
    fn a_change_of_health_is_drawn_at_its_tick_and_the_older_forgotten_once_drawn_past() {
        let mut people = People::default();
        people.measured(&walker(4, 100), Tick(5));
        people.measured(&walker(4, 100), Tick(6));
        people.measured(&walker(4, 60), Tick(10));
        assert_eq!(people.health_at(4, 4.0), Some(100), "before its first pose: its first health");
        assert_eq!(people.health_at(4, 9.9), Some(100));
        assert_eq!(people.health_at(4, 10.0), Some(60));
        assert_eq!(people.by_id[&4].health.len(), 2, "a repeated health is no change");
        people.drawn_to(11.0);
        assert_eq!(people.by_id[&4].health.len(), 1, "the change drawn past is forgotten");
        assert_eq!(people.health_at(4, 11.0), Some(60));
        assert_eq!(people.health_at(5, 11.0), None, "nobody told of");
    }

    /// Someone who left is forgotten once the view has drawn past the tick they left at, and
    /// a pose after that brings them back.
    #[test]
    fn someone_gone_is_forgotten_once_the_view_draws_past_their_leaving() {
        let mut people = People::default();
        people.measured(&walker(7, 80), Tick(3));
        people.by_id.entry(7).or_default().gone_at = Some(8);
        people.drawn_to(7.5);
        assert_eq!(people.health_at(7, 7.5), Some(80), "still drawn before the tick they left");
        people.drawn_to(8.0);
        assert_eq!(people.health_at(7, 8.0), None);
        people.measured(&walker(7, 90), Tick(12));
        assert_eq!(people.health_at(7, 12.0), Some(90));
    }
}
