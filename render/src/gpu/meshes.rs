//! Mesh data, built on the CPU from the level and the rig: the ground and streets, the static
//! town (buildings with their doorways, lamp posts, the lift's shaft, the sign's posts, the
//! fountain), the unit meshes that instances place (door leaf, lift platform, sign board, taxi
//! body, wheel), and the skinned character (a box per bone). Low-poly, flat-shaded boxes and
//! cylinders; the shaders add windows, grass, asphalt and paving.
//!
//! Lit vertices are ten floats: position, normal, linear colour, material (see
//! `lighting.wgsl`). Skinned vertices are eight: position, normal, body part, bone index (its
//! bits in a float's place).

use fixstep_game::level::{Level, ObjectDefKind};
use glam::{Mat4, Quat, Vec3};
use wgpu::util::DeviceExt as _;

use crate::present::convert::{f, ground, world};
use crate::present::skinning::Rig;

/// Floats in a lit vertex.
pub const LIT_FLOATS: usize = 10;

/// Floats in a skinned vertex.
pub const SKIN_FLOATS: usize = 8;

/// Material numbers, as `lighting.wgsl` reads them.
pub mod material {
    /// Lit by sun, sky and lamps.
    pub const PLAIN: f32 = 0.0;
    /// Glows, brighter at night (lamp heads, headlights, the taxi sign, teleport pads).
    pub const GLOW: f32 = 1.0;
    /// A building's wall, with windows.
    pub const FACADE: f32 = 2.0;
    /// Grass, mottled.
    pub const GRASS: f32 = 3.0;
    /// Asphalt, grainy.
    pub const ASPHALT: f32 = 4.0;
    /// Water, rippling.
    pub const WATER: f32 = 5.0;
    /// Paving slabs.
    pub const PAVING: f32 = 6.0;
}

/// Width of a street, metres: two lanes and a little.
pub const ROAD_WIDTH: f32 = 8.0;

/// Width of the sidewalk on each side of a street, metres: from the kerb past the
/// pedestrians' paths (6 m inside the blocks) to the buildings' fronts (10 m back).
pub const SIDEWALK_WIDTH: f32 = 6.0;

/// Thickness of a door leaf, metres.
pub const DOOR_THICKNESS: f32 = 0.08;

/// Thickness of the lift's platform, metres.
pub const LIFT_THICKNESS: f32 = 0.25;

/// Size of the sign's board, metres: wide enough for a line of large letters.
pub const SIGN_BOARD: Vec3 = Vec3::new(0.12, 1.0, 3.6);

/// Radius of a taxi's wheel, metres.
pub const WHEEL_RADIUS: f32 = 0.34;

/// Where a taxi's wheels are in its frame (x forward, y up, z right), metres; front first.
pub const WHEEL_POSITIONS: [Vec3; 4] = [
    Vec3::new(1.35, WHEEL_RADIUS, -0.82),
    Vec3::new(1.35, WHEEL_RADIUS, 0.82),
    Vec3::new(-1.35, WHEEL_RADIUS, -0.82),
    Vec3::new(-1.35, WHEEL_RADIUS, 0.82),
];

/// A colour given in sRGB bytes, as linear floats.
#[must_use]
pub fn srgb(r: u8, g: u8, b: u8) -> Vec3 {
    let lin = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    Vec3::new(lin(r), lin(g), lin(b))
}

/// Vertices and triangle indices of one mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex floats, [`LIT_FLOATS`] or [`SKIN_FLOATS`] each.
    pub vertices: Vec<f32>,
    /// Triangles, counter-clockwise seen from outside.
    pub indices: Vec<u32>,
    /// Floats per vertex.
    pub stride: usize,
}

impl MeshData {
    /// An empty lit mesh.
    #[must_use]
    pub fn lit() -> Self {
        Self { vertices: Vec::new(), indices: Vec::new(), stride: LIT_FLOATS }
    }

    /// An empty skinned mesh.
    #[must_use]
    pub fn skinned() -> Self {
        Self { vertices: Vec::new(), indices: Vec::new(), stride: SKIN_FLOATS }
    }

    /// Number of vertices.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.vertices.len() / self.stride
    }

    /// The lowest and highest corner of the vertices' positions.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for v in self.vertices.chunks_exact(self.stride) {
            let p = Vec3::new(v[0], v[1], v[2]);
            lo = lo.min(p);
            hi = hi.max(p);
        }
        (lo, hi)
    }

    /// A flat quad; `extra` is the colour and material (lit) or the part and bone (skinned).
    /// The winding is chosen so that the quad faces `normal`.
    fn quad_with(&mut self, p: [Vec3; 4], normal: Vec3, extra: [f32; 4]) {
        let base = self.vertex_count() as u32;
        for corner in p {
            self.vertices.extend_from_slice(&[corner.x, corner.y, corner.z]);
            self.vertices.extend_from_slice(&[normal.x, normal.y, normal.z]);
            self.vertices.extend_from_slice(&extra[..self.stride - 6]);
        }
        let facing = (p[1] - p[0]).cross(p[2] - p[0]).dot(normal) >= 0.0;
        if facing {
            self.indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        } else {
            self.indices.extend_from_slice(&[base, base + 2, base + 1, base, base + 3, base + 2]);
        }
    }

    /// A lit quad of `colour` and `material`.
    pub fn quad(&mut self, p: [Vec3; 4], normal: Vec3, colour: Vec3, material: f32) {
        self.quad_with(p, normal, [colour.x, colour.y, colour.z, material]);
    }

    /// A box from `lo` to `hi`, placed by `transform` (rotation, translation and scale along
    /// its own axes), every face `extra`.
    fn cuboid_with(
        &mut self,
        transform: Mat4,
        lo: Vec3,
        hi: Vec3,
        extra: [f32; 4],
        top: Option<[f32; 4]>,
    ) {
        let c = |x: f32, y: f32, z: f32| transform.transform_point3(Vec3::new(x, y, z));
        let n = |v: Vec3| transform.transform_vector3(v).normalize_or_zero();
        let (a, b) = (lo, hi);
        // +x, -x, +y, -y, +z, -z
        self.quad_with(
            [c(b.x, a.y, a.z), c(b.x, b.y, a.z), c(b.x, b.y, b.z), c(b.x, a.y, b.z)],
            n(Vec3::X),
            extra,
        );
        self.quad_with(
            [c(a.x, a.y, a.z), c(a.x, a.y, b.z), c(a.x, b.y, b.z), c(a.x, b.y, a.z)],
            n(-Vec3::X),
            extra,
        );
        self.quad_with(
            [c(a.x, b.y, a.z), c(a.x, b.y, b.z), c(b.x, b.y, b.z), c(b.x, b.y, a.z)],
            n(Vec3::Y),
            top.unwrap_or(extra),
        );
        self.quad_with(
            [c(a.x, a.y, a.z), c(b.x, a.y, a.z), c(b.x, a.y, b.z), c(a.x, a.y, b.z)],
            n(-Vec3::Y),
            extra,
        );
        self.quad_with(
            [c(a.x, a.y, b.z), c(b.x, a.y, b.z), c(b.x, b.y, b.z), c(a.x, b.y, b.z)],
            n(Vec3::Z),
            extra,
        );
        self.quad_with(
            [c(a.x, a.y, a.z), c(a.x, b.y, a.z), c(b.x, b.y, a.z), c(b.x, a.y, a.z)],
            n(-Vec3::Z),
            extra,
        );
    }

    /// A lit box from `lo` to `hi` in the frame `transform`.
    pub fn cuboid(&mut self, transform: Mat4, lo: Vec3, hi: Vec3, colour: Vec3, material: f32) {
        self.cuboid_with(transform, lo, hi, [colour.x, colour.y, colour.z, material], None);
    }

    /// A lit box whose top face has its own colour and material.
    pub fn cuboid_top(
        &mut self,
        transform: Mat4,
        lo: Vec3,
        hi: Vec3,
        sides: (Vec3, f32),
        top: (Vec3, f32),
    ) {
        self.cuboid_with(
            transform,
            lo,
            hi,
            [sides.0.x, sides.0.y, sides.0.z, sides.1],
            Some([top.0.x, top.0.y, top.0.z, top.1]),
        );
    }

    /// A skinned box of body part `part` carried by bone `bone`.
    pub fn bone_box(&mut self, lo: Vec3, hi: Vec3, part: f32, bone: u32) {
        self.cuboid_with(Mat4::IDENTITY, lo, hi, [part, f32::from_bits(bone), 0.0, 0.0], None);
    }

    /// A closed upright cylinder (axis +y) of `segments` sides, from `y0` to `y1`.
    pub fn cylinder_y(
        &mut self,
        centre: Vec3,
        radius: f32,
        (y0, y1): (f32, f32),
        segments: u32,
        sides: (Vec3, f32),
        top: (Vec3, f32),
    ) {
        self.cylinder(
            Mat4::from_translation(centre) * Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            radius,
            (y0, y1),
            segments,
            sides,
            top,
        );
    }

    /// A closed cylinder about the local z axis from `z0` to `z1`, placed by `transform`;
    /// `cap` colours the +z end.
    pub fn cylinder(
        &mut self,
        transform: Mat4,
        radius: f32,
        (z0, z1): (f32, f32),
        segments: u32,
        sides: (Vec3, f32),
        cap: (Vec3, f32),
    ) {
        let segments = segments.max(3);
        let point = |i: u32, z: f32| {
            let a = i as f32 / segments as f32 * std::f32::consts::TAU;
            transform.transform_point3(Vec3::new(a.cos() * radius, a.sin() * radius, z))
        };
        let normal = |v: Vec3| transform.transform_vector3(v).normalize_or_zero();
        let side = [sides.0.x, sides.0.y, sides.0.z, sides.1];
        for i in 0..segments {
            let mid = (i as f32 + 0.5) / segments as f32 * std::f32::consts::TAU;
            self.quad_with(
                [point(i, z0), point(i + 1, z0), point(i + 1, z1), point(i, z1)],
                normal(Vec3::new(mid.cos(), mid.sin(), 0.0)),
                side,
            );
        }
        let centre = |z: f32| transform.transform_point3(Vec3::new(0.0, 0.0, z));
        for (z, n, extra) in
            [(z1, Vec3::Z, [cap.0.x, cap.0.y, cap.0.z, cap.1]), (z0, -Vec3::Z, side)]
        {
            let base = self.vertex_count() as u32;
            let n = normal(n);
            let mut push = |p: Vec3| {
                self.vertices.extend_from_slice(&[p.x, p.y, p.z, n.x, n.y, n.z]);
                self.vertices.extend_from_slice(&extra);
            };
            push(centre(z));
            for i in 0..segments {
                push(point(i, z));
            }
            for i in 0..segments {
                let (a, b) = (base + 1 + i, base + 1 + (i + 1) % segments);
                let p0 = point(i, z);
                let p1 = point(i + 1, z);
                let facing = (p0 - centre(z)).cross(p1 - centre(z)).dot(n) >= 0.0;
                if facing {
                    self.indices.extend_from_slice(&[base, a, b]);
                } else {
                    self.indices.extend_from_slice(&[base, b, a]);
                }
            }
        }
    }
}

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

/// A flat quad on the ground at `height` along `a`→`b`, `half` wide on each side of the line
/// from `from` to `to` metres off it, extended by `extend` at both ends.
fn strip(
    mesh: &mut MeshData,
    a: Vec3,
    b: Vec3,
    (from, to): (f32, f32),
    extend: f32,
    height: f32,
    (colour, material): (Vec3, f32),
) {
    let dir = (b - a).normalize_or_zero();
    let side = Vec3::new(-dir.z, 0.0, dir.x);
    let (a, b) = (a - dir * extend, b + dir * extend);
    let y = Vec3::Y * height;
    mesh.quad(
        [a + side * from + y, b + side * from + y, b + side * to + y, a + side * to + y],
        Vec3::Y,
        colour,
        material,
    );
}

/// A flat disc on the ground.
fn disc(
    mesh: &mut MeshData,
    centre: Vec3,
    radius: f32,
    segments: u32,
    colour: Vec3,
    material: f32,
) {
    let base = mesh.vertex_count() as u32;
    let mut push = |p: Vec3| {
        mesh.vertices.extend_from_slice(&[
            p.x, p.y, p.z, 0.0, 1.0, 0.0, colour.x, colour.y, colour.z, material,
        ]);
    };
    push(centre);
    for i in 0..segments {
        let a = i as f32 / segments as f32 * std::f32::consts::TAU;
        push(centre + Vec3::new(a.cos() * radius, 0.0, -a.sin() * radius));
    }
    for i in 0..segments {
        mesh.indices.extend_from_slice(&[base, base + 1 + i, base + 1 + (i + 1) % segments]);
    }
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
                let rotation = Quat::from_rotation_y(crate::present::convert::radians(sign.facing));
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

/// The outward direction of a door on its building's wall: away from the building.
#[must_use]
pub fn door_outward(level: &Level, building: u32, hinge: Vec3, end: Vec3) -> Vec3 {
    let along = (end - hinge).normalize_or_zero();
    let normal = Vec3::new(-along.z, 0.0, along.x);
    let middle = (hinge + end) / 2.0;
    let centre = level
        .buildings
        .get(building as usize)
        .map_or(middle - normal, |b| ground(b.footprint.centre(), 0.0));
    if (middle - centre).dot(normal) >= 0.0 { normal } else { -normal }
}

/// The frame of a door: x along the leaf from the hinge, y up, z outward.
fn door_frame(hinge: Vec3, along: Vec3, out: Vec3) -> Mat4 {
    Mat4::from_cols(along.extend(0.0), Vec3::Y.extend(0.0), out.extend(0.0), hinge.extend(1.0))
}

/// The unit door leaf: x 0..1 along the leaf from the hinge, y 0..1 up, z -0.5..0.5 through
/// it; an instance scales it to the leaf's length, height and thickness.
#[must_use]
pub fn door_leaf_mesh() -> MeshData {
    let mut mesh = MeshData::lit();
    let wood = srgb(122, 78, 46);
    mesh.cuboid(
        Mat4::IDENTITY,
        Vec3::new(0.0, 0.0, -0.5),
        Vec3::new(1.0, 1.0, 0.5),
        wood,
        material::PLAIN,
    );
    // Panels and a handle, standing proud of both faces.
    let panel = srgb(104, 64, 38);
    for (y0, y1) in [(0.12, 0.45), (0.55, 0.9)] {
        mesh.cuboid(
            Mat4::IDENTITY,
            Vec3::new(0.15, y0, -0.7),
            Vec3::new(0.85, y1, 0.7),
            panel,
            material::PLAIN,
        );
    }
    mesh.cuboid(
        Mat4::IDENTITY,
        Vec3::new(0.8, 0.44, -1.6),
        Vec3::new(0.9, 0.48, 1.6),
        srgb(210, 180, 90),
        material::PLAIN,
    );
    mesh
}

/// The unit lift platform: x and z -0.5..0.5 (scaled to the footprint), its top at y 0, with
/// a striped yellow edge and a short railing.
#[must_use]
pub fn lift_mesh() -> MeshData {
    let mut mesh = MeshData::lit();
    mesh.cuboid(
        Mat4::IDENTITY,
        Vec3::new(-0.5, -LIFT_THICKNESS, -0.5),
        Vec3::new(0.5, 0.0, 0.5),
        srgb(92, 96, 104),
        material::PLAIN,
    );
    let yellow = srgb(236, 190, 40);
    let e = 0.06;
    for (l, h) in [
        (Vec3::new(-0.5, 0.0, -0.5), Vec3::new(0.5, 0.02, -0.5 + e)),
        (Vec3::new(-0.5, 0.0, 0.5 - e), Vec3::new(0.5, 0.02, 0.5)),
        (Vec3::new(-0.5, 0.0, -0.5), Vec3::new(-0.5 + e, 0.02, 0.5)),
        (Vec3::new(0.5 - e, 0.0, -0.5), Vec3::new(0.5, 0.02, 0.5)),
    ] {
        mesh.cuboid(Mat4::IDENTITY, l, h, yellow, material::PLAIN);
    }
    let rail = srgb(200, 200, 206);
    for (l, h) in [
        (Vec3::new(-0.5, 0.9, -0.5), Vec3::new(0.5, 1.0, -0.48)),
        (Vec3::new(-0.5, 0.9, 0.48), Vec3::new(0.5, 1.0, 0.5)),
        (Vec3::new(0.48, 0.9, -0.5), Vec3::new(0.5, 1.0, 0.5)),
    ] {
        mesh.cuboid(Mat4::IDENTITY, l, h, rail, material::PLAIN);
    }
    for (x, z) in [(-0.49, -0.49), (0.49, -0.49), (-0.49, 0.49), (0.49, 0.49)] {
        mesh.cuboid(
            Mat4::IDENTITY,
            Vec3::new(x - 0.01, 0.0, z - 0.01),
            Vec3::new(x + 0.01, 0.95, z + 0.01),
            rail,
            material::PLAIN,
        );
    }
    mesh
}

/// The sign's board, centred on its position: x through it (its face looks along +x), y up,
/// z across; a cream face in a dark frame, lit from within at night.
#[must_use]
pub fn sign_mesh() -> MeshData {
    let mut mesh = MeshData::lit();
    let h = SIGN_BOARD / 2.0;
    mesh.cuboid(Mat4::IDENTITY, -h, h, srgb(60, 46, 40), material::PLAIN);
    mesh.cuboid(
        Mat4::IDENTITY,
        Vec3::new(h.x, -h.y + 0.08, -h.z + 0.08),
        Vec3::new(h.x + 0.01, h.y - 0.08, h.z - 0.08),
        srgb(240, 226, 190),
        material::GLOW,
    );
    mesh
}

/// A taxi's body in its frame (x forward, y up, z right, ground at 0): a yellow car with dark
/// windows, a roof sign, headlights and tail lights.
#[must_use]
pub fn taxi_body_mesh() -> MeshData {
    let mut mesh = MeshData::lit();
    let yellow = srgb(240, 192, 30);
    let dark = srgb(34, 36, 40);
    let glass = srgb(40, 56, 72);
    let i = Mat4::IDENTITY;
    mesh.cuboid(i, Vec3::new(-2.2, 0.32, -0.9), Vec3::new(2.2, 0.95, 0.9), yellow, material::PLAIN);
    mesh.cuboid(
        i,
        Vec3::new(-2.28, 0.3, -0.92),
        Vec3::new(2.28, 0.45, 0.92),
        dark,
        material::PLAIN,
    );
    // The cabin: glass all round under a yellow roof.
    mesh.cuboid(
        i,
        Vec3::new(-1.25, 0.95, -0.82),
        Vec3::new(0.85, 1.42, 0.82),
        glass,
        material::PLAIN,
    );
    mesh.cuboid(
        i,
        Vec3::new(-1.3, 1.42, -0.85),
        Vec3::new(0.8, 1.5, 0.85),
        yellow,
        material::PLAIN,
    );
    // Pillars between the windows.
    for x in [-1.27, -0.25, 0.82] {
        mesh.cuboid(
            i,
            Vec3::new(x - 0.05, 0.95, -0.84),
            Vec3::new(x + 0.05, 1.42, 0.84),
            yellow,
            material::PLAIN,
        );
    }
    // The chequered stripe along each side.
    for k in 0..12 {
        let x0 = -2.0 + k as f32 * 0.33;
        let colour = if k % 2 == 0 { dark } else { srgb(250, 250, 240) };
        mesh.cuboid(
            i,
            Vec3::new(x0, 0.7, -0.91),
            Vec3::new(x0 + 0.33, 0.8, 0.91),
            colour,
            material::PLAIN,
        );
    }
    // Roof sign.
    mesh.cuboid(
        i,
        Vec3::new(-0.45, 1.5, -0.3),
        Vec3::new(-0.05, 1.72, 0.3),
        srgb(255, 246, 200),
        material::GLOW,
    );
    // Headlights and tail lights.
    for z in [-0.62, 0.62] {
        mesh.cuboid(
            i,
            Vec3::new(2.18, 0.62, z - 0.17),
            Vec3::new(2.24, 0.82, z + 0.17),
            srgb(255, 250, 225),
            material::GLOW,
        );
        mesh.cuboid(
            i,
            Vec3::new(-2.24, 0.62, z - 0.15),
            Vec3::new(-2.18, 0.8, z + 0.15),
            srgb(220, 30, 24),
            material::GLOW,
        );
    }
    mesh
}

/// A wheel about its axle (local z), centred at the origin: a dark tyre, a light hub with a
/// bar across it so that its turning shows.
#[must_use]
pub fn wheel_mesh() -> MeshData {
    let mut mesh = MeshData::lit();
    let tyre = srgb(28, 28, 30);
    let hub = srgb(190, 192, 198);
    mesh.cylinder(
        Mat4::IDENTITY,
        WHEEL_RADIUS,
        (-0.12, 0.12),
        16,
        (tyre, material::PLAIN),
        (tyre, material::PLAIN),
    );
    for side in [-1.0f32, 1.0] {
        let flip =
            if side > 0.0 { Mat4::IDENTITY } else { Mat4::from_rotation_y(std::f32::consts::PI) };
        mesh.cylinder(
            flip,
            WHEEL_RADIUS * 0.55,
            (0.1, 0.13),
            12,
            (hub, material::PLAIN),
            (hub, material::PLAIN),
        );
        mesh.cuboid(
            flip,
            Vec3::new(-WHEEL_RADIUS * 0.9, -0.05, 0.12),
            Vec3::new(WHEEL_RADIUS * 0.9, 0.05, 0.145),
            srgb(230, 60, 40),
            material::PLAIN,
        );
    }
    mesh
}

/// Body parts a skinned vertex can be, as `characters.wgsl` colours them.
pub mod part {
    /// Skin.
    pub const SKIN: f32 = 0.0;
    /// The shirt (the instance's first colour).
    pub const SHIRT: f32 = 1.0;
    /// The trousers (its second colour).
    pub const TROUSERS: f32 = 2.0;
    /// Shoes and hair.
    pub const DARK: f32 = 3.0;
    /// Eyes.
    pub const EYES: f32 = 4.0;
}

/// The character: a box per bone of the rig, from its joint towards its first child's (or on
/// past its parent's line, for a bone without children), sized by what the bone's name says
/// it is: head, arm, leg or torso; with shoes at the shins' ends and a face on the head.
#[must_use]
pub fn character_mesh(rig: &Rig) -> MeshData {
    let mut mesh = MeshData::skinned();
    for (index, bone) in rig.bones.iter().enumerate() {
        let b = index as u32;
        let child = rig.bones.iter().find(|c| c.parent == Some(index));
        let end = match (child, bone.parent) {
            (Some(c), _) => c.joint,
            (None, Some(p)) => {
                let scale = if bone.name.contains("head") { 1.25 } else { 1.0 };
                bone.joint + (bone.joint - rig.bones[p].joint) * scale
            }
            (None, None) => bone.joint + Vec3::Y * 0.3,
        };
        let name = bone.name.as_str();
        let (half_x, half_z, part) = if name.contains("head") {
            (0.12, 0.11, part::SKIN)
        } else if name.contains("forearm") || name.contains("hand") {
            (0.05, 0.05, part::SKIN)
        } else if name.contains("arm") {
            (0.06, 0.06, part::SHIRT)
        } else if name.contains("thigh") || name.contains("shin") || name.contains("leg") {
            (0.075, 0.075, part::TROUSERS)
        } else if name.contains("hip") || name.contains("pelvis") {
            (0.12, 0.18, part::TROUSERS)
        } else if name.contains("chest") {
            (0.13, 0.23, part::SHIRT)
        } else {
            (0.12, 0.19, part::SHIRT)
        };
        let (lo_p, hi_p) = (bone.joint.min(end), bone.joint.max(end));
        // Boxes span the bone along its main axis; across it they take the part's size.
        let lo =
            Vec3::new(lo_p.x.min(bone.joint.x - half_x), lo_p.y, lo_p.z.min(bone.joint.z - half_z));
        let hi =
            Vec3::new(hi_p.x.max(bone.joint.x + half_x), hi_p.y, hi_p.z.max(bone.joint.z + half_z));
        // The pelvis reaches down over the tops of the thighs, so no gap shows at the hips.
        let lo =
            if name.contains("hip") || name.contains("pelvis") { lo - Vec3::Y * 0.1 } else { lo };
        let (lo, hi) = if (hi.y - lo.y) < 0.05 {
            (lo - Vec3::Y * 0.05, hi + Vec3::Y * 0.05)
        } else {
            (lo, hi)
        };
        mesh.bone_box(lo, hi, part, b);
        if name.contains("head") {
            // Hair on top and at the back, eyes and a nose at the front (+x).
            mesh.bone_box(
                Vec3::new(lo.x - 0.01, hi.y - 0.06, lo.z - 0.01),
                Vec3::new(hi.x + 0.01, hi.y + 0.03, hi.z + 0.01),
                part::DARK,
                b,
            );
            mesh.bone_box(
                Vec3::new(lo.x - 0.02, lo.y + 0.08, lo.z - 0.01),
                Vec3::new(lo.x + 0.04, hi.y, hi.z + 0.01),
                part::DARK,
                b,
            );
            let eye_y = lo.y + (hi.y - lo.y) * 0.6;
            for z in [-0.05, 0.05] {
                mesh.bone_box(
                    Vec3::new(hi.x - 0.01, eye_y - 0.02, bone.joint.z + z - 0.02),
                    Vec3::new(hi.x + 0.012, eye_y + 0.02, bone.joint.z + z + 0.02),
                    part::EYES,
                    b,
                );
            }
            mesh.bone_box(
                Vec3::new(hi.x - 0.01, eye_y - 0.07, bone.joint.z - 0.015),
                Vec3::new(hi.x + 0.04, eye_y - 0.02, bone.joint.z + 0.015),
                part::SKIN,
                b,
            );
        }
        if child.is_none() && (name.contains("shin") || name.contains("leg")) {
            mesh.bone_box(
                Vec3::new(end.x - 0.09, (end.y - 0.09).max(0.0), end.z - 0.07),
                Vec3::new(end.x + 0.18, end.y + 0.03, end.z + 0.07),
                part::DARK,
                b,
            );
        }
    }
    mesh
}

/// A mesh on the GPU.
#[derive(Debug)]
pub struct GpuMesh {
    /// Its vertices.
    pub vertices: wgpu::Buffer,
    /// Its indices (u32).
    pub indices: wgpu::Buffer,
    /// Number of indices.
    pub index_count: u32,
}

impl GpuMesh {
    /// Uploads `mesh`.
    #[must_use]
    pub fn new(device: &wgpu::Device, label: &str, mesh: &MeshData) -> Self {
        // An empty mesh still needs buffers of a valid size.
        let vertices: &[f32] = if mesh.vertices.is_empty() { &[0.0; 4] } else { &mesh.vertices };
        let indices: &[u32] = if mesh.indices.is_empty() { &[0; 4] } else { &mesh.indices };
        Self {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(vertices),
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(indices),
                usage: wgpu::BufferUsages::INDEX,
            }),
            index_count: mesh.indices.len() as u32,
        }
    }

    /// Binds it to `pass` (vertex slot 0) and draws `instances`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, instances: std::ops::Range<u32>) {
        if self.index_count == 0 || instances.is_empty() {
            return;
        }
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, instances);
    }
}

/// A GPU buffer rewritten every frame, grown (to the next power of two) when the data outgrow it.
#[derive(Debug)]
pub struct GrowBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    /// The buffer.
    pub buffer: wgpu::Buffer,
    /// Its size, bytes.
    pub capacity: u64,
    /// Bytes written by the latest [`GrowBuffer::write`].
    pub len: u64,
}

impl GrowBuffer {
    /// A buffer of `usage` (plus copy-destination), at least `capacity` bytes.
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
        capacity: u64,
    ) -> Self {
        let capacity = capacity.max(256).next_power_of_two();
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: capacity,
            usage,
            mapped_at_creation: false,
        });
        Self { label, usage, buffer, capacity, len: 0 }
    }

    /// Writes `data` from the start; returns whether the buffer was replaced (so bind groups
    /// naming it must be rebuilt).
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[u8]) -> bool {
        let needed = data.len() as u64;
        let mut grown = false;
        if needed > self.capacity {
            self.capacity = needed.next_power_of_two();
            self.buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: self.capacity,
                usage: self.usage,
                mapped_at_creation: false,
            });
            grown = true;
        }
        // Writes must be a multiple of 4 bytes; everything written here is floats or u32s.
        if !data.is_empty() {
            queue.write_buffer(&self.buffer, 0, data);
        }
        self.len = needed;
        grown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_has_six_faces() {
        let mut mesh = MeshData::lit();
        mesh.cuboid(Mat4::IDENTITY, Vec3::ZERO, Vec3::ONE, Vec3::ONE, material::PLAIN);
        assert_eq!(mesh.vertex_count(), 24);
        assert_eq!(mesh.indices.len(), 36);
        assert_eq!(mesh.bounds(), (Vec3::ZERO, Vec3::ONE));
    }

    #[test]
    fn triangles_face_outward() {
        let mut mesh = MeshData::lit();
        mesh.cuboid(Mat4::IDENTITY, Vec3::splat(-1.0), Vec3::ONE, Vec3::ONE, material::PLAIN);
        let p = |i: u32| {
            let v = &mesh.vertices[i as usize * LIT_FLOATS..];
            Vec3::new(v[0], v[1], v[2])
        };
        for t in mesh.indices.chunks_exact(3) {
            let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
            let n = (b - a).cross(c - a);
            assert!(n.dot((a + b + c) / 3.0) > 0.0, "a triangle faces inward");
        }
    }

    #[test]
    fn the_character_has_a_box_per_bone_and_stands_on_the_ground() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../assets/animations/humanoid.ron"
        ))
        .expect("the humanoid rig");
        let rig = Rig::from_ron(&text, "humanoid.ron").expect("valid rig");
        let mesh = character_mesh(&rig);
        let (lo, hi) = mesh.bounds();
        assert!(lo.y.abs() < 0.02, "feet at the origin, got {lo}");
        assert!((1.6..2.0).contains(&hi.y), "a person's height, got {hi}");
        let mut bones: Vec<u32> =
            mesh.vertices.chunks_exact(SKIN_FLOATS).map(|v| v[7].to_bits()).collect();
        bones.sort_unstable();
        bones.dedup();
        assert_eq!(bones.len(), rig.bones.len());
    }
}
