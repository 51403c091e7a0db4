//! The skinned character, built from the rig: a box per bone, coloured by body part.

use glam::Vec3;

use super::MeshData;
use fixstep_present::skinning::Rig;

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

#[cfg(test)]
mod tests {
    use super::*;
    use fixstep_gpu::meshes::SKIN_FLOATS;

    #[test]
    fn the_character_has_a_box_per_bone_and_stands_on_the_ground() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/animations/humanoid.ron"
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
