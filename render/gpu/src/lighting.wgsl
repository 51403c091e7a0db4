// Shared by every lit pipeline: the frame's uniforms (camera, sun, sky, fog, point lights), the
// shadow map, and the lighting of a surface. `lights.rs` writes the uniforms; each pipeline's
// own WGSL is appended to this text.

struct PointLight {
    // xyz: world position, metres; w: radius of influence, metres.
    position: vec4<f32>,
    // rgb: colour times intensity; w: unused.
    colour: vec4<f32>,
    // xyz: direction a spot light shines in; w: cosine of its half-angle (-2 for all round).
    direction: vec4<f32>,
}

struct Globals {
    view_proj: mat4x4<f32>,
    light_view_proj: mat4x4<f32>,
    // xyz: eye; w: seconds of real time, for things that shimmer.
    camera: vec4<f32>,
    // Camera right and up in world space, for billboards.
    camera_right: vec4<f32>,
    camera_up: vec4<f32>,
    // xyz: direction towards the sun (or moon); w: its strength.
    sun_direction: vec4<f32>,
    // rgb: sun colour; w: night, 0 by day to 1 at night.
    sun_colour: vec4<f32>,
    // rgb: light from the sky above; w: one texel of the shadow map in uv.
    sky: vec4<f32>,
    // rgb: light bounced from the ground below; w: unused.
    ground_bounce: vec4<f32>,
    // rgb: fog colour; w: fog density per metre.
    fog: vec4<f32>,
    // x: number of point lights; y: 1 in the shadow pass, 0 in the lit pass.
    counts: vec4<u32>,
    lights: array<PointLight, 32>,
}

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

// Materials, the fourth number of a vertex colour.
const MATERIAL_PLAIN: f32 = 0.0;
const MATERIAL_GLOW: f32 = 1.0;
const MATERIAL_FACADE: f32 = 2.0;
const MATERIAL_GRASS: f32 = 3.0;
const MATERIAL_ASPHALT: f32 = 4.0;
const MATERIAL_WATER: f32 = 5.0;
const MATERIAL_PAVING: f32 = 6.0;

fn hash2(p: vec2<f32>) -> f32 {
    let h = dot(p, vec2<f32>(127.1, 311.7));
    return fract(sin(h) * 43758.5453);
}

fn value_noise(p: vec2<f32>) -> f32 {
    let i = floor(p);
    let f = fract(p);
    let u = f * f * (3.0 - 2.0 * f);
    let a = hash2(i);
    let b = hash2(i + vec2<f32>(1.0, 0.0));
    let c = hash2(i + vec2<f32>(0.0, 1.0));
    let d = hash2(i + vec2<f32>(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

// How much of the sun reaches `world`: 1 in light, 0 in shadow, filtered over 3×3 texels.
fn sun_visibility(world: vec3<f32>, normal: vec3<f32>) -> f32 {
    // Pushed off the surface a little so it does not shadow itself.
    let clip = globals.light_view_proj * vec4<f32>(world + normal * 0.06, 1.0);
    let ndc = clip.xyz / clip.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (uv.x <= 0.0 || uv.x >= 1.0 || uv.y <= 0.0 || uv.y >= 1.0 || ndc.z >= 1.0) {
        return 1.0;
    }
    let texel = globals.sky.w;
    var sum = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let offset = vec2<f32>(f32(x), f32(y)) * texel;
            sum += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + offset, ndc.z - 0.0008);
        }
    }
    return sum / 9.0;
}

// Light arriving at a surface: sky and ground ambient, the sun with its shadow, point lights.
fn incoming_light(world: vec3<f32>, normal: vec3<f32>) -> vec3<f32> {
    let n = normalize(normal);
    let hemisphere = mix(globals.ground_bounce.rgb, globals.sky.rgb, n.y * 0.5 + 0.5);
    let facing_sun = max(dot(n, globals.sun_direction.xyz), 0.0);
    var sun = 0.0;
    if (facing_sun > 0.0 && globals.sun_direction.w > 0.0) {
        sun = facing_sun * globals.sun_direction.w * sun_visibility(world, n);
    }
    var light = hemisphere + globals.sun_colour.rgb * sun;
    let count = min(globals.counts.x, 32u);
    for (var i = 0u; i < count; i++) {
        let l = globals.lights[i];
        let to_light = l.position.xyz - world;
        let d = length(to_light);
        let radius = l.position.w;
        if (d >= radius) {
            continue;
        }
        let dir = to_light / max(d, 1e-4);
        let ratio = d / radius;
        let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
        var falloff = window * window / (d * d * 0.08 + 1.0);
        if (l.direction.w > -1.5) {
            let cone = dot(-dir, l.direction.xyz);
            falloff *= smoothstep(l.direction.w, l.direction.w + 0.12, cone);
        }
        // Half-Lambert, so the lamp's pool of light reads on walls and on the ground alike.
        let lambert = max(dot(n, dir), 0.0) * 0.8 + 0.2;
        light += l.colour.rgb * falloff * lambert;
    }
    return light;
}

// Distance fog towards the sky colour.
fn apply_fog(colour: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    let d = distance(world, globals.camera.xyz);
    let amount = 1.0 - exp(-d * globals.fog.w);
    return mix(colour, globals.fog.rgb, clamp(amount, 0.0, 1.0));
}

// The colour of a lit surface of `albedo` and material `material` at `world`.
fn shade(world: vec3<f32>, normal: vec3<f32>, albedo: vec3<f32>, material: f32) -> vec3<f32> {
    let night = globals.sun_colour.w;
    var base = albedo;
    var glow = vec3<f32>(0.0);
    if (material == MATERIAL_GLOW) {
        // Lamps, headlights and signs: faint by day, bright at night.
        return apply_fog(albedo * (0.6 + 3.0 * night), world);
    } else if (material == MATERIAL_GRASS) {
        let n = value_noise(world.xz * 0.7) * 0.6 + value_noise(world.xz * 3.1) * 0.4;
        base = albedo * (0.75 + 0.5 * n);
    } else if (material == MATERIAL_ASPHALT) {
        let n = value_noise(world.xz * 4.0);
        base = albedo * (0.85 + 0.3 * n);
    } else if (material == MATERIAL_PAVING) {
        // Slabs of 1 m with dark joints.
        let f = fract(world.xz);
        let joint = step(0.95, max(f.x, f.y));
        base = albedo * (1.0 - 0.35 * joint) * (0.92 + 0.16 * hash2(floor(world.xz)));
    } else if (material == MATERIAL_WATER) {
        let t = globals.camera.w;
        let ripple = value_noise(world.xz * 3.0 + vec2<f32>(t * 0.7, t * 0.4));
        base = albedo * (0.8 + 0.4 * ripple);
        glow = albedo * 0.3 * night;
    } else if (material == MATERIAL_FACADE) {
        // Windows: 1.4 m wide, 1.6 m tall in 3 m by 3.5 m bays, from the first floor up; at
        // night some of them are lit from inside.
        let along = select(world.x, world.z, abs(normal.x) > 0.5);
        let cell = vec2<f32>(along / 3.0, world.y / 3.5);
        let f = fract(cell);
        let is_window = step(0.27, f.x) * step(f.x, 0.73) * step(0.3, f.y) * step(f.y, 0.76)
            * step(1.0, cell.y) * step(abs(normal.y), 0.5);
        if (is_window > 0.5) {
            let lit = step(0.45, hash2(floor(cell) + floor(world.xz * 0.02) * 17.0));
            base = vec3<f32>(0.05, 0.07, 0.1);
            glow = vec3<f32>(1.0, 0.72, 0.38) * lit * night * 1.2;
            // A sky reflection by day.
            glow += vec3<f32>(0.06, 0.08, 0.12) * (1.0 - night);
        }
    }
    let lit = base * incoming_light(world, normal) + glow;
    return apply_fog(lit, world);
}

// The vertex of every lit mesh (ground, town, objects, taxis): the layout of
// `meshes::LIT_FLOATS`, in one place so the meshes and their shaders cannot drift apart.
struct LitVertex {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) colour: vec4<f32>,
}

// An instance of an instanced lit mesh (objects, taxi bodies and wheels): its model matrix by
// columns and a tint whose alpha is its opacity.
struct ModelInstance {
    @location(3) m0: vec4<f32>,
    @location(4) m1: vec4<f32>,
    @location(5) m2: vec4<f32>,
    @location(6) m3: vec4<f32>,
    @location(7) tint: vec4<f32>,
}
