// The ground: grass, streets, sidewalks, the plaza and the teleport pads. It receives shadows
// but casts none, so it has no shadow variant.

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) colour: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec4<f32>,
}

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = globals.view_proj * vec4<f32>(v.position, 1.0);
    out.world = v.position;
    out.normal = v.normal;
    out.colour = v.colour;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var colour = shade(in.world, in.normal, in.colour.rgb, in.colour.a);
    if (in.colour.a == MATERIAL_GLOW) {
        // The teleport pads pulse.
        let pulse = 0.75 + 0.25 * sin(globals.camera.w * 3.0 + length(in.world.xz) * 0.8);
        colour *= pulse;
    }
    return vec4<f32>(colour, 1.0);
}
