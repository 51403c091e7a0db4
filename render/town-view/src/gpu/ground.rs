//! The ground pipeline: one static mesh of grass, streets with sidewalks and centre lines, the
//! plaza and the teleport pads (`meshes::ground_mesh`), drawn first in the lit pass.

use fixstep_town::level::Level;

use crate::gpu::meshes::{GpuMesh, ground_mesh};
use fixstep_gpu::common::{LIT_VERTEX, LitPipeline, Shared};

/// The ground's pipeline and mesh.
#[derive(Debug)]
pub struct GroundPipeline {
    pipeline: wgpu::RenderPipeline,
    mesh: GpuMesh,
}

impl GroundPipeline {
    /// Builds the pipeline and the level's ground.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared, level: &Level) -> Self {
        let module = shared.lit_module(
            device,
            "ground",
            concat!(include_str!("static_mesh.wgsl"), include_str!("ground.wgsl")),
        );
        let pipeline = shared.lit_pipeline(
            device,
            &LitPipeline {
                label: "ground",
                module: &module,
                buffers: &[Some(LIT_VERTEX)],
                extra_groups: &[],
                blend: wgpu::BlendState::REPLACE,
                depth_write: true,
                cull: true,
            },
        );
        Self { pipeline, mesh: GpuMesh::new(device, "ground", &ground_mesh(level)) }
    }

    /// Draws the ground.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, scene, &[]);
        self.mesh.draw(pass, 0..1);
    }
}
