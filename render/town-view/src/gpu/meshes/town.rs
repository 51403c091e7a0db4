//! The ground and the static town: grass, streets with their sidewalks, the plaza round each
//! cutscene trigger and the teleport pads; buildings, doorways, lamp posts, the lift's shaft,
//! the sign's posts and the fountains.

use fixstep_town::level::{Level, ObjectDefKind};
use glam::{Mat4, Quat, Vec3};

use super::objects::{SIGN_BOARD, door_frame, door_outward};
use super::{MeshData, disc, material, srgb, strip};
use fixstep_present::convert::{f, ground, world};

/// Width of a street, metres: two lanes and a little.
pub const ROAD_WIDTH: f32 = 8.0;

/// Width of the sidewalk on each side of a street, metres: from the kerb past the
/// pedestrians' paths (6 m inside the blocks) to the buildings' fronts (10 m back).
pub const SIDEWALK_WIDTH: f32 = 6.0;

/// The streets: each lane's two directions make one street, drawn once.
#[must_use]
pub fn streets(level: &Level) -> Vec<(Vec3, Vec3)> {
    let mut pairs: Vec<(u32, u32)> =
        level.lanes.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
        .into_iter()
        .map(|(a, b)| {
            (ground(level.waypoints[a as usize], 0.0), ground(level.waypoints[b as usize], 0.0))
        })
        .collect()
}

/// Radius of the paved square around a cutscene trigger (the fountain's plaza), metres.
const PLAZA_RADIUS: f32 = 15.0;

/// The ground: grass, the streets with their sidewalks and centre lines, the paved plaza
/// around each cutscene trigger, and the teleport pads.
#[must_use]
pub fn ground_mesh(level: &Level) -> MeshData {
    let mut mesh = MeshData::lit();
    let lo = ground(level.ground.min, 0.0);
    let hi = ground(level.ground.max, 0.0);
    let grass = srgb(92, 138, 62);
    mesh.quad(
        [
            Vec3::new(lo.x, 0.0, lo.z),
            Vec3::new(hi.x, 0.0, lo.z),
            Vec3::new(hi.x, 0.0, hi.z),
            Vec3::new(lo.x, 0.0, hi.z),
        ],
        Vec3::Y,
        grass,
        material::GRASS,
    );
    // Fields beyond the level's ground, so the horizon is not a void.
    let far = 600.0;
    mesh.quad(
        [
            Vec3::new(lo.x - far, -0.05, hi.z + far),
            Vec3::new(hi.x + far, -0.05, hi.z + far),
            Vec3::new(hi.x + far, -0.05, lo.z - far),
            Vec3::new(lo.x - far, -0.05, lo.z - far),
        ],
        Vec3::Y,
        srgb(74, 112, 52),
        material::GRASS,
    );
    let half = ROAD_WIDTH / 2.0;
    let paving = srgb(138, 134, 126);
    let asphalt = srgb(58, 60, 64);
    let streets = streets(level);
    for &(a, b) in &streets {
        for side in [-1.0, 1.0] {
            let (from, to) = (half * side, (half + SIDEWALK_WIDTH) * side);
            strip(
                &mut mesh,
                a,
                b,
                (from, to),
                half + SIDEWALK_WIDTH,
                0.01,
                (paving, material::PAVING),
            );
        }
    }
    for &(a, b) in &streets {
        strip(&mut mesh, a, b, (-half, half), half, 0.02, (asphalt, material::ASPHALT));
    }
    // Centre-line dashes, 2 m every 5 m, clear of the crossings.
    let paint = srgb(226, 222, 200);
    for &(a, b) in &streets {
        let length = a.distance(b);
        let dir = (b - a).normalize_or_zero();
        let mut s = half + 3.0;
        while s + 2.0 < length - half - 3.0 {
            let p = a + dir * s;
            strip(&mut mesh, p, p + dir * 2.0, (-0.08, 0.08), 0.0, 0.03, (paint, material::PLAIN));
            s += 5.0;
        }
    }
    for trigger in &level.cutscene_triggers {
        let centre = ground(trigger.zone.centre, 0.015);
        disc(&mut mesh, centre, PLAZA_RADIUS, 48, srgb(150, 138, 120), material::PAVING);
    }
    for pair in &level.teleports {
        for end in &pair.ends {
            let centre = ground(end.zone.centre, 0.0);
            let r = f(end.zone.radius);
            mesh.cylinder_y(
                centre,
                r + 0.5,
                (0.0, 0.12),
                32,
                (srgb(120, 124, 136), material::PLAIN),
                (srgb(120, 124, 136), material::PLAIN),
            );
            disc(&mut mesh, centre + Vec3::Y * 0.125, r, 32, srgb(40, 170, 230), material::GLOW);
            disc(
                &mut mesh,
                centre + Vec3::Y * 0.13,
                r * 0.6,
                32,
                srgb(150, 230, 255),
                material::GLOW,
            );
        }
    }
    mesh
}

/// Colours of the buildings' walls, in turn.
const WALL_COLOURS: [(u8, u8, u8); 8] = [
    (196, 120, 92),
    (220, 204, 170),
    (132, 170, 176),
    (188, 160, 120),
    (170, 172, 180),
    (206, 180, 130),
    (150, 132, 168),
    (190, 106, 96),
];

/// Height of a lamp post's head above its light, metres.
const LAMP_HEAD: f32 = 0.25;

/// The static town: buildings with windows, roofs and doorways, lamp posts, the lift's shaft,
/// the sign's posts, and a fountain at each cutscene trigger.
#[must_use]
pub fn town_mesh(level: &Level) -> MeshData {
    let mut mesh = MeshData::lit();
    for (i, building) in level.buildings.iter().enumerate() {
        let (r, g, b) = WALL_COLOURS[i % WALL_COLOURS.len()];
        let wall = srgb(r, g, b);
        let a = ground(building.footprint.min, 0.0);
        let c = ground(building.footprint.max, f(building.height));
        let lo = a.min(c).with_y(0.0);
        let hi = a.max(c).with_y(f(building.height));
        mesh.cuboid_top(
            Mat4::IDENTITY,
            lo,
            hi,
            (wall, material::FACADE),
            (srgb(90, 88, 92), material::PLAIN),
        );
        // A parapet round the roof and a darker plinth at the foot.
        let rim = wall * 0.8;
        let (y0, y1) = (hi.y, hi.y + 0.5);
        let t = 0.3;
        for (l, h) in [
            (Vec3::new(lo.x, y0, lo.z), Vec3::new(hi.x, y1, lo.z + t)),
            (Vec3::new(lo.x, y0, hi.z - t), Vec3::new(hi.x, y1, hi.z)),
            (Vec3::new(lo.x, y0, lo.z), Vec3::new(lo.x + t, y1, hi.z)),
            (Vec3::new(hi.x - t, y0, lo.z), Vec3::new(hi.x, y1, hi.z)),
        ] {
            mesh.cuboid(Mat4::IDENTITY, l, h, rim, material::PLAIN);
        }
        mesh.cuboid(
            Mat4::IDENTITY,
            lo - Vec3::new(0.1, 0.0, 0.1),
            Vec3::new(hi.x + 0.1, 0.6, hi.z + 0.1),
            wall * 0.55,
            material::PLAIN,
        );
    }
    for object in &level.objects {
        match &object.kind {
            ObjectDefKind::Door(door) => {
                let hinge = ground(door.hinge, 0.0);
                let end = ground(door.leaf_end, 0.0);
                let height = f(door.height);
                let out = door_outward(level, door.building, hinge, end);
                let along = (end - hinge).normalize_or_zero();
                // The dark doorway behind the leaf, just proud of the wall and the plinth.
                let o = out * 0.11;
                mesh.quad(
                    [hinge + o, end + o, end + o + Vec3::Y * height, hinge + o + Vec3::Y * height],
                    out,
                    srgb(24, 20, 18),
                    material::PLAIN,
                );
                // A frame round it.
                let frame = srgb(70, 60, 52);
                let basis = door_frame(hinge, along, out);
                let len = hinge.distance(end);
                for (l, h) in [
                    (Vec3::new(-0.15, 0.0, 0.0), Vec3::new(0.0, height + 0.15, 0.2)),
                    (Vec3::new(len, 0.0, 0.0), Vec3::new(len + 0.15, height + 0.15, 0.2)),
                    (Vec3::new(-0.15, height, 0.0), Vec3::new(len + 0.15, height + 0.2, 0.2)),
                ] {
                    mesh.cuboid(basis, l, h, frame, material::PLAIN);
                }
                // A lamp over the door.
                mesh.cuboid(
                    basis,
                    Vec3::new(len / 2.0 - 0.15, height + 0.35, 0.0),
                    Vec3::new(len / 2.0 + 0.15, height + 0.55, 0.25),
                    srgb(255, 214, 150),
                    material::GLOW,
                );
            }
            ObjectDefKind::Lift(lift) => {
                // The shaft: four posts and a frame on top.
                let a = ground(lift.footprint.min, 0.0);
                let c = ground(lift.footprint.max, 0.0);
                let (lo, hi) = (a.min(c), a.max(c));
                let top = f(lift.top) + 1.2;
                let steel = srgb(80, 86, 96);
                let w = 0.14;
                for (x, z) in [(lo.x, lo.z), (hi.x, lo.z), (lo.x, hi.z), (hi.x, hi.z)] {
                    mesh.cuboid(
                        Mat4::IDENTITY,
                        Vec3::new(x - w, 0.0, z - w),
                        Vec3::new(x + w, top, z + w),
                        steel,
                        material::PLAIN,
                    );
                }
                for (l, h) in [
                    (Vec3::new(lo.x - w, top, lo.z - w), Vec3::new(hi.x + w, top + 0.2, lo.z + w)),
                    (Vec3::new(lo.x - w, top, hi.z - w), Vec3::new(hi.x + w, top + 0.2, hi.z + w)),
                    (Vec3::new(lo.x - w, top, lo.z - w), Vec3::new(lo.x + w, top + 0.2, hi.z + w)),
                    (Vec3::new(hi.x - w, top, lo.z - w), Vec3::new(hi.x + w, top + 0.2, hi.z + w)),
                ] {
                    mesh.cuboid(Mat4::IDENTITY, l, h, steel, material::PLAIN);
                }
            }
            ObjectDefKind::Sign(sign) => {
                // Two posts from the ground to the board's foot.
                let at = world(sign.at);
                let rotation =
                    Quat::from_rotation_y(fixstep_present::convert::radians(sign.facing));
                let across = rotation * Vec3::Z;
                let foot = at.y - SIGN_BOARD.y / 2.0;
                for side in [-1.0, 1.0] {
                    let p = at + across * side * (SIGN_BOARD.z / 2.0 - 0.3);
                    mesh.cuboid(
                        Mat4::IDENTITY,
                        Vec3::new(p.x - 0.07, 0.0, p.z - 0.07),
                        Vec3::new(p.x + 0.07, foot + 0.05, p.z + 0.07),
                        srgb(70, 70, 76),
                        material::PLAIN,
                    );
                }
            }
        }
    }
    for lamp in &level.lamps {
        let base = ground(lamp.at, 0.0);
        let h = f(lamp.height);
        let pole = srgb(48, 50, 56);
        mesh.cuboid(
            Mat4::IDENTITY,
            base + Vec3::new(-0.08, 0.0, -0.08),
            base + Vec3::new(0.08, h, 0.08),
            pole,
            material::PLAIN,
        );
        mesh.cuboid(
            Mat4::IDENTITY,
            base + Vec3::new(-0.22, h - 0.2, -0.22),
            base + Vec3::new(0.22, h + LAMP_HEAD, 0.22),
            pole,
            material::PLAIN,
        );
        mesh.cuboid(
            Mat4::IDENTITY,
            base + Vec3::new(-0.18, h - 0.32, -0.18),
            base + Vec3::new(0.18, h - 0.2, 0.18),
            srgb(255, 224, 170),
            material::GLOW,
        );
    }
    let stone = srgb(176, 172, 164);
    let water = srgb(60, 120, 170);
    for trigger in &level.cutscene_triggers {
        let centre = ground(trigger.zone.centre, 0.0);
        mesh.cylinder_y(
            centre,
            2.4,
            (0.0, 0.55),
            32,
            (stone, material::PLAIN),
            (water, material::WATER),
        );
        mesh.cylinder_y(
            centre,
            0.3,
            (0.55, 1.7),
            12,
            (stone, material::PLAIN),
            (stone, material::PLAIN),
        );
        mesh.cylinder_y(
            centre,
            0.9,
            (1.5, 1.75),
            20,
            (stone, material::PLAIN),
            (water, material::WATER),
        );
    }
    mesh
}
