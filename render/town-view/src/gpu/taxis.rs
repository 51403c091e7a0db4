//! The taxis pipeline: every taxi's body in one instanced draw and all their wheels in
//! another. A wheel's instance is its taxi's transform, then its place on the body, then the
//! steering angle (front wheels only), then its spin about the axle, all as interpolated by
//! the presentation (`TaxiSample::steer` and `wheel`).

use glam::{Mat4, Vec3};

use crate::gpu::meshes::{GpuMesh, GrowBuffer, WHEEL_POSITIONS, taxi_body_mesh, wheel_mesh};
use crate::present::frame::TaxiDraw;
use fixstep_gpu::common::{LIT_VERTEX, LitPipeline, MODEL_INSTANCE, Shared, push_model_instance};

/// The taxis' pipelines, meshes and instances.
#[derive(Debug)]
pub struct TaxisPipeline {
    pipeline: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    body: GpuMesh,
    wheel: GpuMesh,
    bodies: GrowBuffer,
    wheels: GrowBuffer,
    body_data: Vec<f32>,
    wheel_data: Vec<f32>,
    count: u32,
}

/// The transform of a taxi's body.
#[must_use]
pub fn body_transform(taxi: &TaxiDraw) -> Mat4 {
    Mat4::from_translation(taxi.sample.pos) * Mat4::from_rotation_y(taxi.sample.yaw)
}

/// The transform of wheel `index` (0, 1 front; 2, 3 rear) of a taxi: steered if at the front,
/// spun about its axle (the body's z) so that it rolls forward as the angle grows.
#[must_use]
pub fn wheel_transform(taxi: &TaxiDraw, index: usize) -> Mat4 {
    let steer = if index < 2 { taxi.sample.steer } else { 0.0 };
    body_transform(taxi)
        * Mat4::from_translation(WHEEL_POSITIONS[index])
        * Mat4::from_rotation_y(steer)
        * Mat4::from_rotation_z(-taxi.sample.wheel)
}

impl TaxisPipeline {
    /// Builds the pipelines and meshes.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared) -> Self {
        let module = shared.lit_module(device, "taxis", fixstep_gpu::INSTANCED_WGSL);
        let desc = LitPipeline {
            label: "taxis",
            module: &module,
            buffers: &[Some(LIT_VERTEX), Some(MODEL_INSTANCE)],
            extra_groups: &[],
            blend: wgpu::BlendState::REPLACE,
            depth_write: true,
            cull: true,
        };
        Self {
            pipeline: shared.lit_pipeline(device, &desc),
            shadow: shared.shadow_pipeline(device, &desc),
            body: GpuMesh::new(device, "taxi body", &taxi_body_mesh()),
            wheel: GpuMesh::new(device, "wheel", &wheel_mesh()),
            bodies: GrowBuffer::new(device, "taxi instances", wgpu::BufferUsages::VERTEX, 4096),
            wheels: GrowBuffer::new(device, "wheel instances", wgpu::BufferUsages::VERTEX, 4096),
            body_data: Vec::new(),
            wheel_data: Vec::new(),
            count: 0,
        }
    }

    /// Writes this frame's bodies and wheels.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, taxis: &[TaxiDraw]) {
        self.body_data.clear();
        self.wheel_data.clear();
        for taxi in taxis {
            push_model_instance(&mut self.body_data, body_transform(taxi), Vec3::ONE, 1.0);
            for wheel in 0..WHEEL_POSITIONS.len() {
                push_model_instance(
                    &mut self.wheel_data,
                    wheel_transform(taxi, wheel),
                    Vec3::ONE,
                    1.0,
                );
            }
        }
        self.count = taxis.len() as u32;
        self.bodies.write(device, queue, bytemuck::cast_slice(&self.body_data));
        self.wheels.write(device, queue, bytemuck::cast_slice(&self.wheel_data));
    }

    fn draw_all(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(1, self.bodies.buffer.slice(..));
        self.body.draw(pass, 0..self.count);
        pass.set_vertex_buffer(1, self.wheels.buffer.slice(..));
        self.wheel.draw(pass, 0..self.count * WHEEL_POSITIONS.len() as u32);
    }

    /// Draws the taxis.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, scene, &[]);
        self.draw_all(pass);
    }

    /// Draws the taxis into the shadow map.
    pub fn draw_shadow(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        pass.set_pipeline(&self.shadow);
        pass.set_bind_group(0, globals, &[]);
        self.draw_all(pass);
    }
}
