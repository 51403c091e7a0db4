//! Plumbing every pipeline shares: the formats, the frame's bind group layouts (the lit
//! passes' uniforms with the shadow map, the shadow pass's uniforms alone), vertex layouts,
//! and building a pipeline's lit and shadow variants from one shader.

use std::borrow::Cow;

use super::lights::LIGHTING_WGSL;

/// Format of the depth buffer: 32-bit float, for a town 200 m across seen from 0.3 m.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The scene's depth test. The scene is drawn with reversed depth (the near plane at 1, the far
/// plane at 0): a float's precision then follows the distance, so ground layers a centimetre
/// apart stay apart to the horizon, where ordinary depth would let them fight from 200 m on.
pub const SCENE_DEPTH_COMPARE: wgpu::CompareFunction = wgpu::CompareFunction::GreaterEqual;

/// What the scene's depth is cleared to: the far plane, in reversed depth.
pub const SCENE_DEPTH_CLEAR: f32 = 0.0;

/// Format of the shadow map.
pub const SHADOW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// A lit vertex: position, normal, colour and material (10 floats).
pub const LIT_VERTEX: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 40,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x4],
};

/// An instance placed by a model matrix, with a tint (rgb) and opacity (a): 20 floats.
pub const MODEL_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 80,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![
        3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4, 7 => Float32x4
    ],
};

/// Floats of one [`MODEL_INSTANCE`].
pub const MODEL_INSTANCE_FLOATS: usize = 20;

/// Appends an instance of `model` with `tint` and `opacity` to `out`.
pub fn push_model_instance(out: &mut Vec<f32>, model: glam::Mat4, tint: glam::Vec3, opacity: f32) {
    out.extend_from_slice(&model.to_cols_array());
    out.extend_from_slice(&[tint.x, tint.y, tint.z, opacity]);
}

/// What the pipelines of one renderer share.
#[derive(Debug)]
pub struct Shared {
    /// Format of the colour target.
    pub colour_format: wgpu::TextureFormat,
    /// Layout of group 0 in the lit passes: uniforms, shadow map, comparison sampler.
    pub scene_layout: wgpu::BindGroupLayout,
    /// Layout of group 0 in the shadow pass: the uniforms alone.
    pub shadow_layout: wgpu::BindGroupLayout,
}

impl Shared {
    /// The layouts for a target of `colour_format`.
    #[must_use]
    pub fn new(device: &wgpu::Device, colour_format: wgpu::TextureFormat) -> Self {
        let uniforms = wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(super::lights::GLOBALS_BYTES),
            },
            count: None,
        };
        let scene_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene globals"),
            entries: &[
                uniforms,
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
            ],
        });
        let shadow_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("shadow globals"),
            entries: &[uniforms],
        });
        Self { colour_format, scene_layout, shadow_layout }
    }

    /// A shader module of `lighting.wgsl` followed by `source`.
    #[must_use]
    pub fn lit_module(
        &self,
        device: &wgpu::Device,
        label: &str,
        source: &str,
    ) -> wgpu::ShaderModule {
        let text = format!("{LIGHTING_WGSL}\n{source}");
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(Cow::Owned(text)),
        })
    }

    /// The lit variant of a pipeline: `vs_main`/`fs_main` of `module`, with `extra` bind group
    /// layouts after group 0.
    #[must_use]
    pub fn lit_pipeline(
        &self,
        device: &wgpu::Device,
        desc: &LitPipeline<'_>,
    ) -> wgpu::RenderPipeline {
        let layout = pipeline_layout(device, desc.label, &self.scene_layout, desc.extra_groups);
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(desc.label),
            layout: Some(&layout),
            vertex: vertex_stage(desc),
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull_mode: desc.cull.then_some(wgpu::Face::Back),
                ..wgpu::PrimitiveState::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(desc.depth_write),
                depth_compare: Some(SCENE_DEPTH_COMPARE),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: desc.module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: self.colour_format,
                    blend: Some(desc.blend),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        })
    }

    /// The shadow variant of a pipeline: `vs_main` of `module` into the shadow map, no colour,
    /// depth-biased so that lit surfaces do not shadow themselves.
    #[must_use]
    pub fn shadow_pipeline(
        &self,
        device: &wgpu::Device,
        desc: &LitPipeline<'_>,
    ) -> wgpu::RenderPipeline {
        let label = format!("{} shadow", desc.label);
        let layout = pipeline_layout(device, &label, &self.shadow_layout, desc.extra_groups);
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(&label),
            layout: Some(&layout),
            vertex: vertex_stage(desc),
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull_mode: None,
                ..wgpu::PrimitiveState::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: SHADOW_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState { constant: 2, slope_scale: 2.0, clamp: 0.0 },
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        })
    }
}

/// The layout of a lit or shadow pipeline: `first` as group 0, then the pipeline's own.
fn pipeline_layout(
    device: &wgpu::Device,
    label: &str,
    first: &wgpu::BindGroupLayout,
    extra: &[&wgpu::BindGroupLayout],
) -> wgpu::PipelineLayout {
    let mut groups: Vec<Option<&wgpu::BindGroupLayout>> = vec![Some(first)];
    groups.extend(extra.iter().map(|g| Some(*g)));
    device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &groups,
        immediate_size: 0,
    })
}

/// `vs_main` of a pipeline's module with its vertex buffers: the same in its lit and its
/// shadow variant, so the shadow always matches what is drawn.
fn vertex_stage<'a>(desc: &LitPipeline<'a>) -> wgpu::VertexState<'a> {
    wgpu::VertexState {
        module: desc.module,
        entry_point: Some("vs_main"),
        compilation_options: wgpu::PipelineCompilationOptions::default(),
        buffers: desc.buffers,
    }
}

/// What a lit pipeline is made of.
#[derive(Clone, Copy, Debug)]
pub struct LitPipeline<'a> {
    /// Its name, for debuggers.
    pub label: &'a str,
    /// The module (from [`Shared::lit_module`]).
    pub module: &'a wgpu::ShaderModule,
    /// Vertex buffers.
    pub buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    /// Bind group layouts after group 0.
    pub extra_groups: &'a [&'a wgpu::BindGroupLayout],
    /// Colour blending.
    pub blend: wgpu::BlendState,
    /// Whether it writes depth.
    pub depth_write: bool,
    /// Whether back faces are culled.
    pub cull: bool,
}
