// GPU skinning: one invocation per character computes its bone matrices at its fractional
// frame from the dense keyframes (a pose per bone per frame, as `Rig` expands them): the two
// whole frames around the fraction, bone moves lerped and rotations slerped exactly as
// `Rig::local_key` does (glam's slerp, down to its arc-cosine approximation), then each bone
// about its joint and onto its parent, parents first.

struct Key {
    translate: vec4<f32>,
    rotate: vec4<f32>,
}

struct Clip {
    first_key: u32,
    frames: u32,
    looping: u32,
    pad: u32,
}

struct Bone {
    joint: vec3<f32>,
    parent: i32,
}

struct Pose {
    clip: u32,
    frame: f32,
    pad0: u32,
    pad1: u32,
}

struct Params {
    bones: u32,
    instances: u32,
    clips: u32,
    pad: u32,
}

@group(0) @binding(0) var<storage, read> keys: array<Key>;
@group(0) @binding(1) var<storage, read> clips: array<Clip>;
@group(0) @binding(2) var<storage, read> bones: array<Bone>;
@group(0) @binding(3) var<storage, read> poses: array<Pose>;
@group(0) @binding(4) var<storage, read_write> matrices: array<mat4x4<f32>>;
@group(0) @binding(5) var<uniform> params: Params;

const MAX_BONES: u32 = 64u;
const PI: f32 = 3.14159265358979;
const EPSILON: f32 = 1.1920929e-7;

// glam's `acos_approx` (DirectXMath's XMScalarAcos), so both paths agree to the last bits.
fn acos_approx(v: f32) -> f32 {
    let x = abs(v);
    let root = sqrt(max(1.0 - x, 0.0));
    var result = ((((((-0.0012624911 * x + 0.00667009) * x - 0.017088126) * x + 0.03089188) * x
        - 0.050174303) * x + 0.08897899) * x - 0.2145988) * x + 1.5707963;
    result *= root;
    if (v >= 0.0) {
        return result;
    }
    return PI - result;
}

fn slerp(a: vec4<f32>, b: vec4<f32>, s: f32) -> vec4<f32> {
    var end = b;
    var d = dot(a, b);
    if (d < 0.0) {
        end = -b;
        d = -d;
    }
    if (d > 1.0 - EPSILON) {
        return normalize(a * (1.0 - s) + end * s);
    }
    let theta = acos_approx(d);
    let scale1 = sin(theta * (1.0 - s));
    let scale2 = sin(theta * s);
    let theta_sin = sin(theta);
    return (a * scale1 + end * scale2) * (1.0 / theta_sin);
}

fn quat_to_mat3(q: vec4<f32>) -> mat3x3<f32> {
    let x2 = q.x + q.x;
    let y2 = q.y + q.y;
    let z2 = q.z + q.z;
    let xx = q.x * x2;
    let xy = q.x * y2;
    let xz = q.x * z2;
    let yy = q.y * y2;
    let yz = q.y * z2;
    let zz = q.z * z2;
    let wx = q.w * x2;
    let wy = q.w * y2;
    let wz = q.w * z2;
    return mat3x3<f32>(
        vec3<f32>(1.0 - (yy + zz), xy + wz, xz - wy),
        vec3<f32>(xy - wz, 1.0 - (xx + zz), yz + wx),
        vec3<f32>(xz + wy, yz - wx, 1.0 - (xx + yy)),
    );
}

@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let instance = id.x;
    if (instance >= params.instances) {
        return;
    }
    let count = min(params.bones, MAX_BONES);
    let base = instance * params.bones;
    let pose = poses[instance];
    if (pose.clip >= params.clips) {
        for (var b = 0u; b < count; b++) {
            matrices[base + b] = mat4x4<f32>(
                vec4<f32>(1.0, 0.0, 0.0, 0.0),
                vec4<f32>(0.0, 1.0, 0.0, 0.0),
                vec4<f32>(0.0, 0.0, 1.0, 0.0),
                vec4<f32>(0.0, 0.0, 0.0, 1.0),
            );
        }
        return;
    }
    let clip = clips[pose.clip];
    let frames = max(clip.frames, 1u);
    let last = frames - 1u;
    // The two whole frames around the fraction, as `skinning::frame_pair` finds them.
    var i: u32;
    var j: u32;
    var t: f32;
    if (clip.looping != 0u) {
        let n = f32(frames);
        var f = pose.frame - n * floor(pose.frame / n);
        if (f >= n) {
            f = 0.0;
        }
        i = min(u32(floor(f)), last);
        j = (i + 1u) % frames;
        t = f - f32(i);
    } else {
        let f = clamp(pose.frame, 0.0, f32(last));
        i = min(u32(floor(f)), last);
        j = min(i + 1u, last);
        t = f - f32(i);
    }
    for (var b = 0u; b < count; b++) {
        let ka = keys[clip.first_key + i * params.bones + b];
        let kb = keys[clip.first_key + j * params.bones + b];
        let translate = mix(ka.translate.xyz, kb.translate.xyz, t);
        let rotate = slerp(ka.rotate, kb.rotate, t);
        let joint = bones[b].joint;
        let r = quat_to_mat3(rotate);
        // About the joint: move it, then turn the bind pose around it.
        let moved = joint + translate - r * joint;
        let local = mat4x4<f32>(
            vec4<f32>(r[0], 0.0),
            vec4<f32>(r[1], 0.0),
            vec4<f32>(r[2], 0.0),
            vec4<f32>(moved, 1.0),
        );
        let parent = bones[b].parent;
        if (parent >= 0) {
            matrices[base + b] = matrices[base + u32(parent)] * local;
        } else {
            matrices[base + b] = local;
        }
    }
}
