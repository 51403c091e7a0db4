//! CPU skinning: the rig file, and bone matrices at fractional frames.

use std::path::Path;

use fixstep_present::skinning::{Rig, frame_pair};
use glam::{Mat4, Vec3};

fn humanoid() -> Rig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/animations/humanoid.ron");
    Rig::load(&path).expect("the humanoid rig loads")
}

fn close(a: &[Mat4], b: &[Mat4]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff_eq(*y, 1e-5))
}

fn pose(rig: &Rig, clip: &str, frame: f32) -> Vec<Mat4> {
    let mut out = Vec::new();
    rig.pose(rig.clip_index(clip).expect("clip exists"), frame, &mut out);
    out
}

#[test]
fn the_rig_has_a_clip_for_every_animation_state_in_the_rules_order() {
    let rig = humanoid();
    let names: Vec<&str> = rig.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["idle", "walk", "run", "wave", "talk", "hit"]);
    assert_eq!(rig.bones[0].parent, None);
    assert!(rig.bones.iter().skip(1).all(|b| b.parent.is_some()));
}

#[test]
fn bone_interpolation_receives_the_fractional_frame_not_a_truncated_one() {
    let rig = humanoid();
    let (at3, at35, at4) =
        (pose(&rig, "walk", 3.0), pose(&rig, "walk", 3.5), pose(&rig, "walk", 4.0));
    assert!(!close(&at35, &at3) && !close(&at35, &at4), "3.5 is neither frame 3 nor 4");
    // Half-way: the thigh's rotation is the slerp midpoint of its two frames.
    let walk = &rig.clips[rig.clip_index("walk").unwrap()];
    let thigh = rig.bones.iter().position(|b| b.name == "thigh_l").unwrap();
    let (a, b, mid) = (
        rig.local_key(walk, 3.0, thigh),
        rig.local_key(walk, 4.0, thigh),
        rig.local_key(walk, 3.5, thigh),
    );
    assert!(mid.rotate.abs_diff_eq(a.rotate.slerp(b.rotate, 0.5), 1e-6));
}

#[test]
fn frames_at_the_end_of_a_one_shot_clip_are_clamped_to_its_final_keyframe() {
    let rig = humanoid();
    let last = pose(&rig, "hit", 17.0);
    assert!(close(&pose(&rig, "hit", 17.6), &last));
    assert!(close(&pose(&rig, "hit", 40.0), &last));
    assert_eq!(frame_pair(17.6, 18, false), (17, 17, 0.0));
}

#[test]
fn a_looping_clip_blends_its_last_frame_into_its_first() {
    let rig = humanoid();
    assert_eq!(frame_pair(23.5, 24, true), (23, 0, 0.5));
    let walk = &rig.clips[rig.clip_index("walk").unwrap()];
    let thigh = rig.bones.iter().position(|b| b.name == "thigh_l").unwrap();
    let mid = rig.local_key(walk, 23.5, thigh);
    let expected =
        rig.local_key(walk, 23.0, thigh).rotate.slerp(rig.local_key(walk, 0.0, thigh).rotate, 0.5);
    assert!(mid.rotate.abs_diff_eq(expected, 1e-6));
    assert!(close(&pose(&rig, "walk", 24.0), &pose(&rig, "walk", 0.0)));
}

#[test]
fn a_swung_thigh_carries_its_shin_and_the_knee_moves_forward() {
    let rig = humanoid();
    let walk = pose(&rig, "walk", 0.0);
    let shin = rig.bones.iter().position(|b| b.name == "shin_l").unwrap();
    let knee = rig.bones[shin].joint;
    let moved = walk[shin].transform_point3(knee);
    // +25° about z swings the leg forward (+x) from the hip.
    assert!(moved.x > 0.1, "knee at {moved}");
    // A bone without keys in a clip, with no moving ancestor, stays in its bind pose.
    let idle = pose(&rig, "idle", 0.0);
    let hips = 0;
    assert!(idle[hips].abs_diff_eq(Mat4::IDENTITY, 1e-6));
    assert!(idle[hips].transform_point3(Vec3::Y).abs_diff_eq(Vec3::Y, 1e-6));
}

#[test]
fn a_bad_rig_names_the_file_and_the_problem() {
    let cases = [
        (
            "(skeleton: [(name: \"a\", parent: Some(\"b\"), joint: (0.0, 0.0, 0.0))], clips: [])",
            "names parent `b`",
        ),
        (
            "(skeleton: [(name: \"a\", parent: None, joint: (0.0, 0.0, 0.0))], clips: [(name: \"c\", frames: 4, fps: 4, looping: true, keys: [(bone: \"x\", frame: 0, rotate: (0.0, 0.0, 0.0))])])",
            "bone `x`, which the skeleton lacks",
        ),
        (
            "(skeleton: [(name: \"a\", parent: None, joint: (0.0, 0.0, 0.0))], clips: [(name: \"c\", frames: 4, fps: 4, looping: true, keys: [(bone: \"a\", frame: 4, rotate: (0.0, 0.0, 0.0))])])",
            "past its 4 frames",
        ),
        ("(skeleton: [], clips: [])", "no bones"),
        ("(skeleton: [", "rig.ron:1:"),
    ];
    for (text, expected) in cases {
        let message = Rig::from_ron(text, "rig.ron").expect_err(expected).to_string();
        assert!(message.starts_with("rig.ron"), "{message}");
        assert!(message.contains(expected), "{message}");
    }
}
