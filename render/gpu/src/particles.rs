//! The particles pipeline: the teleport zones' stars (`DrawFrame::stars`, positions the
//! presentation advances on real time), one instanced draw of camera-facing sparkles, added
//! over the lit scene with depth testing but no depth writes.

use glam::Vec3;

use super::common::{DEPTH_FORMAT, Shared};
use super::meshes::GrowBuffer;

/// The stars' instance: position and twinkle phase.
const STAR_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 16,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![0 => Float32x4],
};

/// The particles' pipeline and instances.
#[derive(Debug)]
pub struct ParticlesPipeline {
    pipeline: wgpu::RenderPipeline,
    instances: GrowBuffer,
    data: Vec<f32>,
    count: u32,
}

impl ParticlesPipeline {
    /// Builds the pipeline.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared) -> Self {
        let module = shared.lit_module(device, "particles", include_str!("particles.wgsl"));
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("particles"),
            bind_group_layouts: &[Some(&shared.scene_layout)],
            immediate_size: 0,
        });
        let additive = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("particles"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[Some(STAR_INSTANCE)],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..wgpu::PrimitiveState::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(super::common::SCENE_DEPTH_COMPARE),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: shared.colour_format,
                    blend: Some(wgpu::BlendState { color: additive, alpha: additive }),
                    write_mask: wgpu::ColorWrites::COLOR,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self {
            pipeline,
            instances: GrowBuffer::new(device, "stars", wgpu::BufferUsages::VERTEX, 4096),
            data: Vec::new(),
            count: 0,
        }
    }

    /// Writes this frame's stars.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, stars: &[Vec3]) {
        self.data.clear();
        for (i, star) in stars.iter().enumerate() {
            // A fixed phase per star (the golden ratio spreads them evenly).
            let phase = (i as f32 * 0.618_034).fract();
            self.data.extend_from_slice(&[star.x, star.y, star.z, phase]);
        }
        self.count = stars.len() as u32;
        self.instances.write(device, queue, bytemuck::cast_slice(&self.data));
    }

    /// Draws the stars.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
        if self.count == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, scene, &[]);
        pass.set_vertex_buffer(0, self.instances.buffer.slice(..));
        pass.draw(0..4, 0..self.count);
    }
}
