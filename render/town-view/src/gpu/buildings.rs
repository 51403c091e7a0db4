//! The buildings pipeline: the static town in one mesh (`meshes::town_mesh`): buildings with
//! windowed facades, roofs and doorways, lamp posts, the lift's shaft, the sign's posts and
//! the fountain. One draw in the lit pass and one in the shadow pass.

use fixstep_town::level::Level;

use crate::gpu::meshes::{GpuMesh, town_mesh};
use fixstep_gpu::common::{LIT_VERTEX, LitPipeline, Shared};

/// The static town's pipelines and mesh.
#[derive(Debug)]
pub struct BuildingsPipeline {
    pipeline: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    mesh: GpuMesh,
}

impl BuildingsPipeline {
    /// Builds the pipelines and the level's town.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared, level: &Level) -> Self {
        let module = shared.lit_module(
            device,
            "buildings",
            concat!(include_str!("static_mesh.wgsl"), include_str!("buildings.wgsl")),
        );
        let desc = LitPipeline {
            label: "buildings",
            module: &module,
            buffers: &[Some(LIT_VERTEX)],
            extra_groups: &[],
            blend: wgpu::BlendState::REPLACE,
            depth_write: true,
            cull: true,
        };
        Self {
            pipeline: shared.lit_pipeline(device, &desc),
            shadow: shared.shadow_pipeline(device, &desc),
            mesh: GpuMesh::new(device, "town", &town_mesh(level)),
        }
    }

    /// Draws the town.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, scene, &[]);
        self.mesh.draw(pass, 0..1);
    }

    /// Draws the town into the shadow map.
    pub fn draw_shadow(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        pass.set_pipeline(&self.shadow);
        pass.set_bind_group(0, globals, &[]);
        self.mesh.draw(pass, 0..1);
    }
}
