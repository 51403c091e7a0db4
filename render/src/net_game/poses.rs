//! What a spectator is sent of a tick: the poses of what moves, near its camera every tick and
//! further away every second or fourth, and at once for a start, a stop, a jump or a change
//! of tier. Integers only, as the host measured them.

use std::collections::BTreeMap;

use fixstep_game::GameSnapshot;
use fixstep_game::ObjectView;
use fixstep_game::state::Role;
use fixstep_runtime::Tick;
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::net::{EntityRole, ObjectPose, Pose, PoseSnapshot};

use crate::record::TAXI_ID_BASE;

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

/// Ticks in a second, to turn a displacement per tick into a velocity per second (before
/// rounding, so a velocity is sent to the millimetre a second).
const TICKS_PER_SECOND: i32 = 10;

/// A metre-valued fixed-point number in millimetres (saturating far beyond any level).
fn mm(x: Fx) -> i32 {
    (x * Fx::from_num(MM_PER_M)).round().saturating_to_num::<i32>()
}

fn mm2(v: Vec2) -> [i32; 2] {
    [mm(v.x), mm(v.y)]
}

/// Every enabled character and every taxi of `snapshot`, with the ids the logs use
/// (characters by slot index, taxi `i` as [`TAXI_ID_BASE`] + `i`), in tier 1.
#[must_use]
pub fn poses_of(snapshot: &GameSnapshot) -> Vec<Pose> {
    let mut poses = Vec::with_capacity(snapshot.characters.len() + snapshot.taxis.len());
    for c in snapshot.characters.iter().filter(|c| c.enabled) {
        poses.push(Pose {
            id: u64::from(c.id.index),
            vehicle: false,
            pos_mm: mm2(c.pos),
            vel_mm_s: mm2(c.velocity * Fx::from_num(TICKS_PER_SECOND)),
            yaw: c.facing.0,
            at_rest: c.velocity == Vec2::ZERO,
            tier: 1,
            jumps: c.jumps,
            health: c.health,
        });
    }
    for (i, t) in snapshot.taxis.iter().enumerate() {
        let forward = Vec2::from_angle(t.yaw) * t.speed;
        poses.push(Pose {
            id: TAXI_ID_BASE + i as u64,
            vehicle: true,
            pos_mm: mm2(t.pos),
            vel_mm_s: mm2(forward * Fx::from_num(TICKS_PER_SECOND)),
            yaw: t.yaw.0,
            at_rest: t.at_rest,
            tier: 1,
            jumps: t.jumps,
            health: 0,
        });
    }
    poses
}

/// The role of every enabled character of `snapshot` (by the ids of [`poses_of`]), coded by
/// [`role_code`].
#[must_use]
pub fn roles_of(snapshot: &GameSnapshot) -> Vec<EntityRole> {
    let enabled = snapshot.characters.iter().filter(|c| c.enabled);
    enabled.map(|c| EntityRole { id: u64::from(c.id.index), role: role_code(c.role) }).collect()
}

/// Where a role's kind sits in its code: above the 32 bits of its index.
const ROLE_KIND_SHIFT: u32 = 32;

/// A character's role as the wire codes it: its kind (0 a player, 1 a pedestrian, 2 a
/// talker) above its index.
#[must_use]
pub fn role_code(role: Role) -> u64 {
    let (kind, index) = match role {
        Role::Player(p) => (0, u32::from(p)),
        Role::Pedestrian(i) => (1, i),
        Role::Talker(i) => (2, i),
    };
    (kind << ROLE_KIND_SHIFT) | u64::from(index)
}

/// The role a code stands for, if it stands for one (a host's code is checked, never trusted:
/// one of another kind, or a player number beyond a `u16`, is none).
#[must_use]
pub fn role_of_code(code: u64) -> Option<Role> {
    let index = (code & u64::from(u32::MAX)) as u32;
    match code >> ROLE_KIND_SHIFT {
        0 => u16::try_from(index).ok().map(Role::Player),
        1 => Some(Role::Pedestrian(index)),
        2 => Some(Role::Talker(index)),
        _ => None,
    }
}

/// Every object of `snapshot`, by its index in the level.
#[must_use]
pub fn object_poses_of(snapshot: &GameSnapshot) -> Vec<ObjectPose> {
    snapshot
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| ObjectPose {
            index: u32::try_from(i).unwrap_or(u32::MAX),
            offset: [o.offset.x.to_bits(), o.offset.y.to_bits(), o.offset.z.to_bits()],
            rotation: o.rotation.0,
            scale: o.scale.to_bits(),
            opacity: o.opacity.to_bits(),
            jumps: o.jumps,
        })
        .collect()
}

/// The object view an [`ObjectPose`] was made of, bit for bit.
#[must_use]
pub fn object_view_of(pose: &ObjectPose) -> ObjectView {
    ObjectView {
        offset: Vec3::new(
            Fx::from_bits(pose.offset[0]),
            Fx::from_bits(pose.offset[1]),
            Fx::from_bits(pose.offset[2]),
        ),
        rotation: Angle(pose.rotation),
        scale: Fx::from_bits(pose.scale),
        opacity: Fx::from_bits(pose.opacity),
        jumps: pose.jumps,
    }
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

/// What one spectator was last sent of each entity and object, to send it only what is its
/// due.
#[derive(Clone, Debug, Default)]
pub struct SpectatorFeed {
    /// Each entity's pose as last sent, and the snapshot that last had the entity (those
    /// older than the latest are gone).
    sent: BTreeMap<u64, (Pose, u64)>,
    roles: BTreeMap<u64, u64>,
    objects: Vec<ObjectPose>,
    /// Snapshots made.
    snapshots: u64,
}

impl SpectatorFeed {
    /// The snapshot of `tick` for a spectator whose camera looks at `camera_mm`, from every
    /// entity's pose: those whose tier's turn it is (unless at rest and sent at rest), and any
    /// new, started, stopped, jumped, hurt or healed, or moved to another tier; the roles of
    /// entities new or changed in role; the objects that changed since they were last sent
    /// (every object, near or far: there are few, they change rarely, and a door seen swinging
    /// late looks broken); and those gone.
    pub fn snapshot(
        &mut self,
        tick: Tick,
        poses: &[Pose],
        roles: &[EntityRole],
        objects: &[ObjectPose],
        camera_mm: [i32; 2],
    ) -> PoseSnapshot {
        let mut out = PoseSnapshot { tick, ..PoseSnapshot::default() };
        for (i, object) in objects.iter().enumerate() {
            if self.objects.get(i) != Some(object) {
                out.objects.push(*object);
            }
        }
        self.objects.clear();
        self.objects.extend_from_slice(objects);
        self.snapshots += 1;
        let now = self.snapshots;
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
