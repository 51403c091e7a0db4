// Instanced lit meshes (the town's taxi bodies and wheels, a shape game's pieces), each kind one
// instanced draw: an instance is a model matrix and a tint that multiplies the mesh's colours.

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec4<f32>,
}

@vertex
fn vs_main(v: LitVertex, i: ModelInstance) -> VertexOut {
    let model = mat4x4<f32>(i.m0, i.m1, i.m2, i.m3);
    let world = model * vec4<f32>(v.position, 1.0);
    var out: VertexOut;
    out.clip = globals.view_proj * world;
    out.world = world.xyz;
    out.normal = normalize((model * vec4<f32>(v.normal, 0.0)).xyz);
    out.colour = vec4<f32>(v.colour.rgb * i.tint.rgb, v.colour.a);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(shade(in.world, in.normal, in.colour.rgb, in.colour.a), 1.0);
}
