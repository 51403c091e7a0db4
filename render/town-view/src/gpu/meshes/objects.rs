//! The unit meshes of the interactive objects, which instances place: the door leaf (and
//! where a door faces), the lift's platform and the sign's board.

use fixstep_town::level::Level;
use glam::{Mat4, Vec3};

use super::{MeshData, material, srgb};
use fixstep_present::convert::ground;

/// Thickness of a door leaf, metres.
pub const DOOR_THICKNESS: f32 = 0.08;

/// Thickness of the lift's platform, metres.
pub const LIFT_THICKNESS: f32 = 0.25;

/// Size of the sign's board, metres: wide enough for a line of large letters.
pub const SIGN_BOARD: Vec3 = Vec3::new(0.12, 1.0, 3.6);

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
pub(super) fn door_frame(hinge: Vec3, along: Vec3, out: Vec3) -> Mat4 {
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
