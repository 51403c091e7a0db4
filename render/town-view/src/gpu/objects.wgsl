// Interactive objects (door leaves, the lift, the sign board), instanced: each instance a
// model matrix and a tint with its opacity. Faded objects blend; one faded below half casts
// no shadow.

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec4<f32>,
    @location(3) @interpolate(flat) opacity: f32,
}

@vertex
fn vs_main(v: LitVertex, i: ModelInstance) -> VertexOut {
    let model = mat4x4<f32>(i.m0, i.m1, i.m2, i.m3);
    let world = model * vec4<f32>(v.position, 1.0);
    var out: VertexOut;
    out.clip = globals.view_proj * world;
    if (globals.counts.y == 1u && i.tint.a < 0.5) {
        // Outside the clip volume: no shadow from a mostly faded object.
        out.clip = vec4<f32>(2.0, 2.0, 2.0, 1.0);
    }
    out.world = world.xyz;
    out.normal = normalize((model * vec4<f32>(v.normal, 0.0)).xyz);
    out.colour = vec4<f32>(v.colour.rgb * i.tint.rgb, v.colour.a);
    out.opacity = i.tint.a;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    if (in.opacity <= 0.01) {
        discard;
    }
    return vec4<f32>(shade(in.world, in.normal, in.colour.rgb, in.colour.a), in.opacity);
}
