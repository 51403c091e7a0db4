//! The two skinning paths agree: bone matrices computed on the GPU from the keyframes at a
//! fractional frame equal the presentation's CPU `Rig::pose` within 1e-4, for every clip,
//! between frames, across a looping clip's wrap and past a one-shot clip's end; and a frame
//! drawn with either path is the same picture.

mod common;

use common::{TEST_SIZE, bot_moments, draw, gpu_or_skip, renderer, town};
use fixstep_gpu::SkinningPath;
use fixstep_gpu::skinning::Skinning;

/// The largest difference allowed between the two paths' matrix elements.
const TOLERANCE: f32 = 1e-4;

/// Protects the two skinning paths' agreement: every bone of every pose the GPU computes is
/// the CPU's within [`TOLERANCE`], and the CPU path's upload reads back as the CPU's exactly.
#[test]
fn gpu_and_cpu_skinning_give_the_same_bone_matrices() {
    let Some(ctx) = gpu_or_skip("gpu_and_cpu_skinning_give_the_same_bone_matrices") else { return };
    let assets = town();
    let rig = &assets.rig;
    let mut poses = Vec::new();
    for (clip, anim) in rig.clips.iter().enumerate() {
        let n = anim.frames as f32;
        for frame in [0.0, 0.37, 1.5, n * 0.5 + 0.25, n - 1.0, n - 0.4, n + 2.7, n * 3.0 + 0.9] {
            poses.push((clip as u32, frame));
        }
    }
    let mut skinning = Skinning::new(&ctx.device, rig);
    let gpu = skinning
        .pose_and_read_back(&ctx.device, &ctx.queue, &poses, SkinningPath::Gpu, rig)
        .expect("the GPU's matrices");
    let bones = rig.bones.len();
    assert_eq!(gpu.len(), poses.len() * bones);
    let mut cpu = Vec::new();
    let mut worst = 0.0f32;
    for (i, &(clip, frame)) in poses.iter().enumerate() {
        rig.pose(clip as usize, frame, &mut cpu);
        for (b, expected) in cpu.iter().enumerate() {
            let got = gpu[i * bones + b];
            for (e, g) in expected.to_cols_array().iter().zip(got.to_cols_array()) {
                let d = (e - g).abs();
                worst = worst.max(d);
                assert!(
                    d <= TOLERANCE,
                    "clip {} frame {frame} bone {}: CPU {expected} GPU {got}",
                    rig.clips[clip as usize].name,
                    rig.bones[b].name
                );
            }
        }
    }
    println!("{} poses of {bones} bones agree; largest difference {worst:e}", poses.len());
    // The CPU path through the same buffer gives the CPU's matrices back, every bone of every
    // pose. Bit for bit: they are copied, not computed, and the buffer still holds the GPU's
    // matrices, which a tolerance would let a pose left out of the upload pass as.
    let uploaded = skinning
        .pose_and_read_back(&ctx.device, &ctx.queue, &poses, SkinningPath::Cpu, rig)
        .expect("the uploaded matrices");
    assert_eq!(uploaded.len(), poses.len() * bones);
    for (i, &(clip, frame)) in poses.iter().enumerate() {
        rig.pose(clip as usize, frame, &mut cpu);
        for (b, expected) in cpu.iter().enumerate() {
            let got = uploaded[i * bones + b];
            assert!(
                got.to_cols_array().map(f32::to_bits) == expected.to_cols_array().map(f32::to_bits),
                "uploaded: clip {} frame {frame} bone {}: CPU {expected} read back {got}",
                rig.clips[clip as usize].name,
                rig.bones[b].name
            );
        }
    }
}

#[test]
fn a_frame_skinned_either_way_is_the_same_picture() {
    let Some(ctx) = gpu_or_skip("a_frame_skinned_either_way_is_the_same_picture") else { return };
    let assets = town();
    let (_, frame) = bot_moments(&assets).into_iter().nth(1).expect("the door moment");
    let mut renderer = renderer(&ctx, &assets, TEST_SIZE);
    renderer.skinning = SkinningPath::Gpu;
    let gpu = draw(&ctx, &mut renderer, &frame);
    renderer.skinning = SkinningPath::Cpu;
    let cpu = draw(&ctx, &mut renderer, &frame);
    let differing = gpu
        .pixels()
        .zip(cpu.pixels())
        .filter(|(a, b)| (0..3).any(|c| a[c].abs_diff(b[c]) > 2))
        .count();
    assert!(differing <= 4, "{differing} pixels differ between the GPU and CPU skinning paths");
}
