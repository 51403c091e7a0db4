//! The shadow pass: a depth map of the town seen from the sun (or the moon), an orthographic
//! square centred on the interpolated player (`DrawFrame::camera::shadow_centre`), so the
//! shadows around the player never lag behind them. Buildings, objects, taxis and characters
//! draw into it with their shadow pipelines; every lit surface samples it with a 3×3
//! comparison filter (`lighting.wgsl`).

use glam::{Mat4, Vec3, Vec3Swizzles as _};

use super::common::SHADOW_FORMAT;

/// Side of the shadow map, texels: 2048² over 90 m is 4.4 cm a texel, sharp enough for a
/// character's legs, and small enough for a software rasteriser.
pub const SHADOW_MAP_SIZE: u32 = 2048;

/// Half the side of the square the shadow map covers, metres: what the default camera sees
/// around the player, plus the long shadows of tall buildings.
pub const SHADOW_HALF_EXTENT: f32 = 45.0;

/// How far towards the sun the shadow camera stands from the centre, metres: above the
/// tallest building (30 m) from any sun elevation that lights anything.
const SHADOW_EYE_DISTANCE: f32 = 200.0;

/// The shadow map and its sampler.
#[derive(Debug)]
pub struct ShadowMap {
    /// The depth texture's view, for the shadow pass's attachment and the lit passes' binding.
    pub view: wgpu::TextureView,
    /// The comparison sampler (hardware 2×2 filtering, on top of the shader's 3×3).
    pub sampler: wgpu::Sampler,
    size: u32,
}

impl ShadowMap {
    /// A shadow map of `size` texels a side.
    #[must_use]
    pub fn new(device: &wgpu::Device, size: u32) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadow map"),
            size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SHADOW_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            address_mode_w: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..wgpu::SamplerDescriptor::default()
        });
        Self { view, sampler, size }
    }

    /// One texel, in uv.
    #[must_use]
    pub fn texel(&self) -> f32 {
        1.0 / self.size as f32
    }

    /// Starts the shadow pass, clearing the map.
    pub fn begin<'e>(&self, encoder: &'e mut wgpu::CommandEncoder) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("shadow pass"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// World to the shadow map's clip space, for a light from `towards_light` (unit), centred
    /// on `centre`. The centre is snapped to whole texels, so the shadows' edges stay put
    /// while the player walks instead of shimmering.
    #[must_use]
    pub fn light_view_proj(&self, centre: Vec3, towards_light: Vec3) -> Mat4 {
        let dir = towards_light.normalize_or(Vec3::Y);
        let up = if dir.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
        // The light's frame is fixed to the world (not to the player), so that snapping the
        // window to its texel grid keeps every shadow edge on the same texels.
        let view = glam::camera::rh::view::look_at_mat4(dir * SHADOW_EYE_DISTANCE, Vec3::ZERO, up);
        let texel = 2.0 * SHADOW_HALF_EXTENT / self.size as f32;
        let c = view.transform_point3(centre);
        let at = (c.xy() / texel).round() * texel;
        let depth = -c.z;
        let e = SHADOW_HALF_EXTENT;
        let proj = glam::camera::rh::proj::directx::orthographic(
            at.x - e,
            at.x + e,
            at.y - e,
            at.y + e,
            depth - SHADOW_EYE_DISTANCE,
            depth + SHADOW_EYE_DISTANCE,
        );
        proj * view
    }
}
