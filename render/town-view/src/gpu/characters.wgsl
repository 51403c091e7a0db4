// Characters: one skinned mesh (a box per bone), every character one instance of one draw.
// The bone matrices come from the skinning pass (or the CPU); the instance places the
// character (feet and facing) and colours its shirt and trousers.

struct SkinParams {
    bones: u32,
    instances: u32,
    clips: u32,
    pad: u32,
}

@group(1) @binding(0) var<storage, read> matrices: array<mat4x4<f32>>;
@group(1) @binding(1) var<uniform> skin: SkinParams;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) part: f32,
    @location(3) bone: u32,
}

struct InstanceIn {
    // xyz: feet, world metres; w: facing, radians counter-clockwise from +x seen from above.
    @location(4) place: vec4<f32>,
    // rgb: shirt; w: skin tone, 0 to 1.
    @location(5) shirt: vec4<f32>,
    // rgb: trousers; w: 1 for the local player (a rim of light), else 0.
    @location(6) trousers: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec3<f32>,
    @location(3) @interpolate(flat) highlight: f32,
}

// Turns a vector of the character's frame (x forward, y up, z right) to face `facing`.
fn turn(v: vec3<f32>, facing: f32) -> vec3<f32> {
    let c = cos(facing);
    let s = sin(facing);
    return vec3<f32>(v.x * c + v.z * s, v.y, -v.x * s + v.z * c);
}

@vertex
fn vs_main(v: VertexIn, i: InstanceIn, @builtin(instance_index) instance: u32) -> VertexOut {
    let m = matrices[instance * skin.bones + min(v.bone, skin.bones - 1u)];
    let posed = (m * vec4<f32>(v.position, 1.0)).xyz;
    let normal = (m * vec4<f32>(v.normal, 0.0)).xyz;
    let world = i.place.xyz + turn(posed, i.place.w);
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = normalize(turn(normal, i.place.w));
    let skin_light = vec3<f32>(0.80, 0.56, 0.42);
    let skin_dark = vec3<f32>(0.28, 0.15, 0.09);
    var colour = mix(skin_light, skin_dark, i.shirt.w);
    if (v.part == 1.0) {
        colour = i.shirt.rgb;
    } else if (v.part == 2.0) {
        colour = i.trousers.rgb;
    } else if (v.part == 3.0) {
        colour = vec3<f32>(0.035, 0.03, 0.03);
    } else if (v.part == 4.0) {
        colour = vec3<f32>(0.9, 0.9, 0.95);
    }
    out.colour = colour;
    out.highlight = i.trousers.w;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var colour = shade(in.world, in.normal, in.colour, MATERIAL_PLAIN);
    // The local player's rim light, so they stand out in a crowd and at night.
    let view = normalize(globals.camera.xyz - in.world);
    let rim = pow(1.0 - max(dot(normalize(in.normal), view), 0.0), 3.0);
    colour += vec3<f32>(0.25, 0.45, 0.8) * rim * in.highlight * (0.4 + globals.sun_colour.w);
    return vec4<f32>(colour, 1.0);
}
