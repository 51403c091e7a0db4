// The static town: buildings (with windows from the facade material), doorways, lamp posts,
// the lift's shaft, the sign's posts, the fountain. Casts shadows.

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(shade(in.world, in.normal, in.colour.rgb, in.colour.a), 1.0);
}
