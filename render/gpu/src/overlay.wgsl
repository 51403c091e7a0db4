// Screen rectangles in pixels, plain or textured: the dialogue box, the cutscene's images,
// letterbox and fade, the HUD's panel and the frame-time graph.

struct Screen {
    // x, y: size in pixels.
    size: vec4<f32>,
}

@group(0) @binding(0) var<uniform> screen: Screen;
@group(1) @binding(0) var image: texture_2d<f32>;
@group(1) @binding(1) var image_sampler: sampler;

struct RectIn {
    // x, y: top left, pixels; z, w: size, pixels.
    @location(0) rect: vec4<f32>,
    // Linear colour and opacity, multiplying the image.
    @location(1) colour: vec4<f32>,
    // The image's uv at the top left (xy) and bottom right (zw).
    @location(2) uv: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) colour: vec4<f32>,
    @location(1) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) corner: u32, r: RectIn) -> VertexOut {
    let c = vec2<f32>(f32(corner & 1u), f32(corner >> 1u));
    let px = r.rect.xy + c * r.rect.zw;
    var out: VertexOut;
    out.clip = vec4<f32>(px.x / screen.size.x * 2.0 - 1.0, 1.0 - px.y / screen.size.y * 2.0, 0.0, 1.0);
    out.colour = r.colour;
    out.uv = mix(r.uv.xy, r.uv.zw, c);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return textureSample(image, image_sampler, in.uv) * in.colour;
}
