//! Mesh data, built on the CPU: [`MeshData`] and its primitives (quads, boxes, cylinders,
//! discs, ground strips), low-poly and flat-shaded (the shaders add windows, grass, asphalt
//! and paving through the vertices' materials), and the GPU side ([`GpuMesh`],
//! [`GrowBuffer`]). A game builds its meshes from these.
//!
//! Lit vertices are ten floats: position, normal, linear colour, material (see
//! `lighting.wgsl`). Skinned vertices are eight: position, normal, body part, bone index (its
//! bits in a float's place).

use glam::{Mat4, Vec3};

mod buffers;

pub use buffers::{GpuMesh, GrowBuffer};

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

/// A flat quad on the ground at `height` along `a`→`b`, from `from` to `to` metres off the
/// line (to its left is positive), extended by `extend` at both ends.
pub fn strip(
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

/// A flat disc on the ground, facing up.
pub fn disc(
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
}
