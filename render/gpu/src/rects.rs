//! Flat rectangles drawn over the scene in screen pixels: health bars, the HUD's panels and
//! graph, a dialogue box. The pipeline is built once per use with the shader and instance
//! layout of that use; [`RECT_WGSL`] draws plain coloured ones.

use glam::Vec3;

/// The shader of plain rectangles: each instance a top left and size in pixels, then a linear
/// colour and opacity ([`RECT_INSTANCE`]).
pub const RECT_WGSL: &str = include_str!("rects.wgsl");

/// A plain rectangle instance: top left and size in pixels, then linear colour and opacity.
pub const RECT_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 32,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4],
};

/// How much bigger than at 720 pixels high the screen's text and bars are drawn.
#[must_use]
pub fn ui_scale(height: f32) -> f32 {
    (height / 720.0).clamp(0.5, 3.0)
}

/// Appends a rectangle to `out`.
pub fn push_rect(out: &mut Vec<f32>, (x, y, w, h): (f32, f32, f32, f32), colour: Vec3, alpha: f32) {
    out.extend_from_slice(&[x, y, w, h, colour.x, colour.y, colour.z, alpha]);
}

/// A flat-rectangle pipeline drawing into `format` with screen uniforms `layout`.
#[must_use]
pub fn rect_pipeline(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    label: &str,
    source: &str,
    layouts: &[Option<&wgpu::BindGroupLayout>],
    instance: wgpu::VertexBufferLayout<'_>,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: layouts,
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: &[Some(instance)],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleStrip,
            ..wgpu::PrimitiveState::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A uniform buffer of the screen's size and the layout and bind group that hold it.
#[must_use]
pub fn screen_uniform(
    device: &wgpu::Device,
    label: &str,
) -> (wgpu::Buffer, wgpu::BindGroupLayout, wgpu::BindGroup) {
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: 16,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
    });
    (buffer, layout, group)
}
