// The ground: grass, streets, sidewalks, the plaza and the teleport pads. It receives shadows
// but casts none, so it has no shadow variant.

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
