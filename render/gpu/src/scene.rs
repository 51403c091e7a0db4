//! What every lit frame needs besides its pipelines: the depth buffer, the uniforms of the lit
//! and the shadow passes with the shadow map, and the three passes themselves (shadow, lit,
//! overlay). A renderer writes the frame's camera and light once ([`ScenePasses::write`]),
//! then records its draws into each pass in turn.

use glam::Vec3;

use crate::CameraView;
use crate::common::{DEPTH_FORMAT, SCENE_DEPTH_CLEAR, Shared};
use crate::lights::{GLOBALS_BYTES, GlobalsData, Lighting, PointLight, write_globals};
use crate::shadow::{SHADOW_MAP_SIZE, ShadowMap};

/// A frame's depth buffer, uniforms and shadow map; see the [module documentation](self).
#[derive(Debug)]
pub struct ScenePasses {
    device: wgpu::Device,
    depth: wgpu::TextureView,
    globals: wgpu::Buffer,
    shadow_globals: wgpu::Buffer,
    /// Group 0 of the lit pass: its uniforms, the shadow map and its sampler.
    pub scene_group: wgpu::BindGroup,
    /// Group 0 of the shadow pass: its uniforms.
    pub shadow_group: wgpu::BindGroup,
    shadow: ShadowMap,
    scratch: Vec<f32>,
}

fn depth_view(device: &wgpu::Device, width: u32, height: u32) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("depth"),
            size: wgpu::Extent3d {
                width: width.max(1),
                height: height.max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}

/// A frame's camera, light and clock, as the uniforms carry them.
#[derive(Clone, Copy, Debug)]
pub struct FrameLight<'a> {
    /// The camera.
    pub camera: &'a CameraView,
    /// The light of the time of day.
    pub lighting: &'a Lighting,
    /// The point lights.
    pub lights: &'a [PointLight],
    /// Where the shadow map is centred (the player).
    pub shadow_centre: Vec3,
    /// Seconds on the shimmer clock.
    pub seconds: f32,
}

impl ScenePasses {
    /// The passes of a renderer whose pipelines share `shared`, at `width` × `height`.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared, width: u32, height: u32) -> Self {
        let uniform = |label: &str| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: GLOBALS_BYTES,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let globals = uniform("globals");
        let shadow_globals = uniform("shadow globals");
        let shadow = ShadowMap::new(device, SHADOW_MAP_SIZE);
        let scene_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene"),
            layout: &shared.scene_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&shadow.view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&shadow.sampler),
                },
            ],
        });
        let shadow_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("shadow globals"),
            layout: &shared.shadow_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: shadow_globals.as_entire_binding(),
            }],
        });
        Self {
            device: device.clone(),
            depth: depth_view(device, width, height),
            globals,
            shadow_globals,
            scene_group,
            shadow_group,
            shadow,
            scratch: Vec::new(),
        }
    }

    /// Draws at a new size from the next frame on.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.depth = depth_view(&self.device, width, height);
    }

    /// Writes the uniforms of both passes for a frame lit as `light` says.
    pub fn write(&mut self, queue: &wgpu::Queue, light: &FrameLight<'_>) {
        let camera = light.camera;
        let light_view_proj =
            self.shadow.light_view_proj(light.shadow_centre, light.lighting.sun_direction);
        let mut data = GlobalsData {
            view_proj: camera.view_proj,
            light_view_proj,
            eye: camera.eye,
            right: camera.right,
            up: camera.up,
            seconds: light.seconds,
            lighting: light.lighting,
            shadow_texel: self.shadow.texel(),
            lights: light.lights,
            shadow_pass: false,
        };
        write_globals(&data, &mut self.scratch);
        queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&self.scratch));
        data.view_proj = light_view_proj;
        data.shadow_pass = true;
        write_globals(&data, &mut self.scratch);
        queue.write_buffer(&self.shadow_globals, 0, bytemuck::cast_slice(&self.scratch));
    }

    /// Begins the shadow pass.
    pub fn shadow_pass<'e>(&self, encoder: &'e mut wgpu::CommandEncoder) -> wgpu::RenderPass<'e> {
        self.shadow.begin(encoder)
    }

    /// Begins the lit pass into `view`, cleared to the fog's colour.
    pub fn lit_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        view: &wgpu::TextureView,
        fog: Vec3,
    ) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("lit pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: f64::from(fog.x),
                        g: f64::from(fog.y),
                        b: f64::from(fog.z),
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(SCENE_DEPTH_CLEAR),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// Begins the overlay pass into `view`, over what the lit pass drew.
    pub fn overlay_pass<'e>(
        encoder: &'e mut wgpu::CommandEncoder,
        view: &wgpu::TextureView,
    ) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("overlay pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }
}
