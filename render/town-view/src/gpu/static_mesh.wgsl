// The vertex stage of the static meshes (the ground and the town), which are already in world
// space: shared by ground.wgsl and buildings.wgsl, each of which adds its fragment stage.

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec4<f32>,
}

@vertex
fn vs_main(v: LitVertex) -> VertexOut {
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(v.position, 1.0);
    out.world = v.position;
    out.normal = v.normal;
    out.colour = v.colour;
    return out;
}
