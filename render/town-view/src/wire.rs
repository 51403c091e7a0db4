//! What the town's spectators are sent: the ground poses of its characters and taxis (the
//! ground feed of `fixstep_netplay_view::ground`), and its placed objects' transforms whenever they
//! change. Integers only, as the host measured them.

use fixstep_netplay_view::ground::{
    EntityRole, GroundFeed, GroundPoint, GroundSource, GroundUpdate, Pose, mm_per_second, mm2,
};
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::{Player, Tick};
use fixstep_town::state::Role;
use fixstep_town::{GameSnapshot, ObjectView};
use serde::{Deserialize, Serialize};

use crate::record::TAXI_ID_BASE;

/// A placed object's transform (a door's swing, a lift's travel, a sign's fade), as a
/// spectator is told it: the host's fixed-point numbers as their raw bits, so the spectator
/// draws exactly what a player's own town would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectPose {
    /// Its index among the level's objects.
    pub index: u32,
    /// Offset from its place in the level, metres as `Fx` bits (x east, y up, z south).
    pub offset: [i64; 3],
    /// Rotation about the vertical axis through its pivot, 2^32 a turn.
    pub rotation: u32,
    /// Uniform scale, `Fx` bits.
    pub scale: i64,
    /// Opacity from 0 to 1, `Fx` bits.
    pub opacity: i64,
    /// Counts the times the rules put it somewhere new.
    pub jumps: u32,
}

/// What a spectator of the town is sent of a tick.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TownUpdate {
    /// The poses of the characters and taxis due.
    pub ground: GroundUpdate,
    /// The objects whose transform differs from the one last sent (all of them in the first
    /// update). Updates are reliable, so an object not sent is as it was.
    pub objects: Vec<ObjectPose>,
}

/// Every character's and taxi's pose and role, and every object, after a tick: what each
/// spectator's update is cut from, gathered once a tick into lists kept for the next.
#[derive(Clone, Debug, Default)]
pub struct TownSource {
    ground: GroundSource,
    objects: Vec<ObjectPose>,
}

impl TownSource {
    /// Gathers `snapshot`, the state after `ticks` ticks: every enabled character and every
    /// taxi with the ids the logs use (characters by slot index, taxi `i` as
    /// [`TAXI_ID_BASE`] + `i`), in tier 1; the characters' roles, coded by [`role_code`];
    /// every object by its index in the level.
    pub fn fill(&mut self, ticks: Tick, snapshot: &GameSnapshot) {
        let ground = &mut self.ground;
        ground.start(ticks);
        for c in snapshot.characters.iter().filter(|c| c.enabled) {
            let id = u64::from(c.id.index);
            ground.poses.push(Pose {
                id,
                vehicle: false,
                pos_mm: mm2(c.pos),
                vel_mm_s: mm_per_second(c.velocity),
                yaw: c.facing.0,
                at_rest: c.velocity == Vec2::ZERO,
                tier: 1,
                jumps: c.jumps,
                health: c.health,
            });
            ground.roles.push(EntityRole { id, role: role_code(c.role) });
        }
        for (i, t) in snapshot.taxis.iter().enumerate() {
            let forward = Vec2::from_angle(t.yaw) * t.speed;
            ground.poses.push(Pose {
                id: TAXI_ID_BASE + i as u64,
                vehicle: true,
                pos_mm: mm2(t.pos),
                vel_mm_s: mm_per_second(forward),
                yaw: t.yaw.0,
                at_rest: t.at_rest,
                tier: 1,
                jumps: t.jumps,
                health: 0,
            });
        }
        self.objects.clear();
        self.objects.extend(snapshot.objects.iter().enumerate().map(|(i, o)| ObjectPose {
            index: u32::try_from(i).unwrap_or(u32::MAX),
            offset: [o.offset.x.to_bits(), o.offset.y.to_bits(), o.offset.z.to_bits()],
            rotation: o.rotation.0,
            scale: o.scale.to_bits(),
            opacity: o.opacity.to_bits(),
            jumps: o.jumps,
        }));
    }

    /// Every object gathered, by its index in the level.
    #[must_use]
    pub fn objects(&self) -> &[ObjectPose] {
        &self.objects
    }
}

/// What the host last sent one spectator of the town, to send it only what is due.
#[derive(Clone, Debug, Default)]
pub struct TownFeed {
    ground: GroundFeed,
    objects: Vec<ObjectPose>,
}

impl TownFeed {
    /// The update of the tick gathered in `source` for a spectator looking at `camera`: the
    /// ground poses due, and every object that changed since it was last sent (near or far:
    /// there are few, they change rarely, and a door seen swinging late looks broken).
    pub fn update(&mut self, source: &TownSource, camera: GroundPoint) -> TownUpdate {
        let ground = self.ground.update_from(&source.ground, camera);
        let changed = source.objects.iter().enumerate();
        let changed = changed.filter(|(i, o)| self.objects.get(*i) != Some(o));
        let objects = changed.map(|(_, o)| *o).collect();
        self.objects.clone_from(&source.objects);
        TownUpdate { ground, objects }
    }
}

/// Where a role's kind sits in its code: above the 32 bits of its index.
const ROLE_KIND_SHIFT: u32 = 32;

/// A character's role as the wire codes it: its kind (0 a player, 1 a pedestrian, 2 a
/// talker) above its index.
#[must_use]
pub fn role_code(role: Role) -> u64 {
    let (kind, index) = match role {
        Role::Player(p) => (0, u32::from(p.0)),
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
        0 => u16::try_from(index).ok().map(|p| Role::Player(Player(p))),
        1 => Some(Role::Pedestrian(index)),
        2 => Some(Role::Talker(index)),
        _ => None,
    }
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
