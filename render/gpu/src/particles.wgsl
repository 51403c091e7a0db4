// Star particles over the teleport zones: camera-facing quads, each a four-pointed sparkle
// that twinkles, added onto what is behind them.

struct InstanceIn {
    // xyz: world position; w: a phase for the twinkle.
    @location(0) star: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) brightness: f32,
}

// Half the size of a star's quad, metres.
const STAR_SIZE: f32 = 0.22;

@vertex
fn vs_main(@builtin(vertex_index) corner: u32, i: InstanceIn) -> VertexOut {
    let uv = vec2<f32>(f32(corner & 1u) * 2.0 - 1.0, f32(corner >> 1u) * 2.0 - 1.0);
    let twinkle = 0.65 + 0.35 * sin(globals.camera.w * 7.0 + i.star.w * 6.2831);
    let size = STAR_SIZE * (0.7 + 0.5 * twinkle);
    let world = i.star.xyz + (globals.camera_right.xyz * uv.x + globals.camera_up.xyz * uv.y) * size;
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(world, 1.0);
    out.uv = uv;
    out.brightness = twinkle;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let d = abs(in.uv);
    let core = exp(-dot(in.uv, in.uv) * 10.0);
    let rays = max(0.0, 1.0 - d.x * 8.0) * max(0.0, 1.0 - d.y) + max(0.0, 1.0 - d.y * 8.0) * max(0.0, 1.0 - d.x);
    let shape = clamp(core + rays * 0.8, 0.0, 1.0);
    let colour = mix(vec3<f32>(0.3, 0.75, 1.0), vec3<f32>(1.0, 1.0, 0.9), core);
    // Brighter at night, when the stars matter most.
    let strength = in.brightness * (1.2 + 1.5 * globals.sun_colour.w);
    return vec4<f32>(colour * shape * strength, 0.0);
}
