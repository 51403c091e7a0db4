//! A taxi's meshes: the body, and a wheel that instances place at each of its four corners.

use glam::{Mat4, Vec3};

use super::{MeshData, material, srgb};

/// Radius of a taxi's wheel, metres.
pub const WHEEL_RADIUS: f32 = 0.34;

/// Where a taxi's wheels are in its frame (x forward, y up, z right), metres; front first.
pub const WHEEL_POSITIONS: [Vec3; 4] = [
    Vec3::new(1.35, WHEEL_RADIUS, -0.82),
    Vec3::new(1.35, WHEEL_RADIUS, 0.82),
    Vec3::new(-1.35, WHEEL_RADIUS, -0.82),
    Vec3::new(-1.35, WHEEL_RADIUS, 0.82),
];

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
