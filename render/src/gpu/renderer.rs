//! The renderer: one [`Renderer`] owns every pipeline and per-frame buffer, and draws a
//! [`DrawFrame`] (the presentation's output, and its only input) with a [`Hud`] into any
//! texture view it is given: the window's surface or an offscreen texture, one path for both.
//!
//! A frame is: the skinning compute pass; the shadow pass (the static town, objects, taxis and
//! characters seen from the sun, centred on the interpolated player); the lit pass (ground,
//! town, taxis, characters, objects, star particles, with depth); and the overlay pass (name
//! labels and health bars, then the dialogue box, cutscene images, subtitles and fades, and
//! the HUD).

use std::path::PathBuf;
use std::sync::Arc;

use fixstep_game::level::Level;
use glam::{Mat4, Vec3, Vec4Swizzles as _};

use super::buildings::BuildingsPipeline;
use super::characters::CharactersPipeline;
use super::common::{DEPTH_FORMAT, Shared};
use super::context::GpuContext;
use super::ground::GroundPipeline;
use super::labels::LabelsPipeline;
use super::lights::{
    GLOBALS_BYTES, GlobalsData, Lighting, PointLight, lighting_at, point_lights, write_globals,
};
use super::objects::ObjectsPipeline;
use super::overlay::OverlayPipeline;
use super::particles::ParticlesPipeline;
use super::shadow::{SHADOW_MAP_SIZE, ShadowMap};
use super::skinning::SkinningPath;
use super::taxis::TaxisPipeline;
use super::text::TextSystem;
use crate::present::DrawFrame;
use crate::present::frame::CameraDraw;
use crate::present::skinning::Rig;

/// Vertical field of view, radians (55°): a natural third-person view.
pub const FIELD_OF_VIEW: f32 = 0.96;

/// Near plane, metres: the camera comes no closer than 3 m to the player.
pub const NEAR_PLANE: f32 = 0.3;

/// Far plane, metres: past the whole town and its fields seen from any corner.
pub const FAR_PLANE: f32 = 900.0;

/// The shimmer clock wraps after this many seconds (an hour), so it keeps its precision in a
/// long session; every shimmer's period divides it.
pub const EFFECTS_PERIOD_S: f32 = 3600.0;

/// Why the renderer cannot start.
#[derive(Debug, thiserror::Error)]
pub enum RendererError {
    /// The font file cannot be read.
    #[error("cannot read the font {path}: {source}")]
    Font {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// What the HUD shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hud {
    /// Whether to draw the HUD at all (screenshots for image tests leave it off, since frame
    /// rates vary).
    pub visible: bool,
    /// The latest completed tick.
    pub tick: u32,
    /// Frames per second, averaged.
    pub fps: f32,
    /// The latest frame's time, milliseconds.
    pub frame_ms: f32,
    /// The state hash of the latest tick; `None` where no town is run (a spectator, a peer
    /// before its welcome).
    pub hash: Option<u64>,
    /// Whether the frame-time graph (F3) shows.
    pub show_graph: bool,
    /// Recent frame times, milliseconds, oldest first, for the graph.
    pub frame_times: Vec<f32>,
    /// A line of help or status under the numbers, if any.
    pub note: Option<String>,
    /// In network play, a line of the link and the lockstep: host tick, round trip, input
    /// queue, late inputs, the last hash compared.
    pub network: Option<String>,
    /// In network play, how the network clock's estimate of the host moved since it started,
    /// milliseconds, oldest first, drawn over the frame-time graph.
    pub clock_offsets: Vec<f32>,
}

/// What a renderer is built for.
#[derive(Clone, Debug)]
pub struct RendererSetup {
    /// The level drawn.
    pub level: Arc<Level>,
    /// The characters' skeleton and clips.
    pub rig: Arc<Rig>,
    /// The assets root (font, cutscene images).
    pub assets: PathBuf,
    /// Format of the views it draws into (an sRGB format: shading is in linear light).
    pub format: wgpu::TextureFormat,
    /// Initial size, pixels.
    pub width: u32,
    /// Initial size, pixels.
    pub height: u32,
}

/// The camera of a frame, as matrices and in screen terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// World to view.
    pub view: Mat4,
    /// World to clip.
    pub view_proj: Mat4,
    /// Eye position.
    pub eye: Vec3,
    /// Right, world space.
    pub right: Vec3,
    /// Up, world space.
    pub up: Vec3,
    /// Width, pixels.
    pub width: f32,
    /// Height, pixels.
    pub height: f32,
}

impl CameraView {
    /// The camera of `camera` on a `width` × `height` target.
    #[must_use]
    pub fn new(camera: &CameraDraw, width: u32, height: u32) -> Self {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        let forward = (camera.target - camera.eye).normalize_or(Vec3::NEG_Z);
        let up_hint = if forward.y.abs() > 0.999 { Vec3::NEG_Z } else { Vec3::Y };
        let view = glam::camera::rh::view::look_at_mat4(camera.eye, camera.target, up_hint);
        // Near and far swapped: reversed depth (see `SCENE_DEPTH_COMPARE`).
        let proj = glam::camera::rh::proj::directx::perspective(
            FIELD_OF_VIEW,
            w / h,
            FAR_PLANE,
            NEAR_PLANE,
        );
        let right = forward.cross(up_hint).normalize_or(Vec3::X);
        let up = right.cross(forward);
        Self { view, view_proj: proj * view, eye: camera.eye, right, up, width: w, height: h }
    }

    /// Where `world` appears: pixels from the top left, and its distance from the eye; `None`
    /// behind the camera.
    #[must_use]
    pub fn project(&self, world: Vec3) -> Option<(f32, f32, f32)> {
        let clip = self.view_proj * world.extend(1.0);
        if clip.w <= NEAR_PLANE {
            return None;
        }
        let ndc = clip.xyz() / clip.w;
        Some((
            (ndc.x * 0.5 + 0.5) * self.width,
            (0.5 - ndc.y * 0.5) * self.height,
            world.distance(self.eye),
        ))
    }
}

/// Draws frames of one level.
#[derive(Debug)]
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    level: Arc<Level>,
    width: u32,
    height: u32,
    depth: wgpu::TextureView,
    globals: wgpu::Buffer,
    shadow_globals: wgpu::Buffer,
    scene_group: wgpu::BindGroup,
    shadow_group: wgpu::BindGroup,
    shadow: ShadowMap,
    ground: GroundPipeline,
    buildings: BuildingsPipeline,
    objects: ObjectsPipeline,
    taxis: TaxisPipeline,
    characters: CharactersPipeline,
    particles: ParticlesPipeline,
    labels: LabelsPipeline,
    overlay: OverlayPipeline,
    text: TextSystem,
    lights: Vec<PointLight>,
    scratch: Vec<f32>,
    /// Where bone matrices come from (GPU keyframes by default).
    pub skinning: SkinningPath,
    /// The local player, whose character is highlighted and whose label is drawn first.
    pub local_player: Option<u16>,
    /// Seconds on the clock of things that only shimmer (water, the teleport pads' pulse, the
    /// stars' twinkle), within [`EFFECTS_PERIOD_S`]: the window advances it with real time
    /// ([`Renderer::advance_effects`]); a picture sets it ([`Renderer::set_effects_clock`]), so
    /// the same picture comes out every time.
    effects_seconds: f32,
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

impl Renderer {
    /// Builds every pipeline and the level's meshes.
    ///
    /// # Errors
    ///
    /// If the font in the assets cannot be read.
    pub fn new(ctx: &GpuContext, setup: &RendererSetup) -> Result<Self, RendererError> {
        let device = &ctx.device;
        let shared = Shared::new(device, setup.format);
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
        let mut text = TextSystem::new(ctx, setup.format, &setup.assets)?;
        let level = &setup.level;
        Ok(Self {
            device: ctx.device.clone(),
            queue: ctx.queue.clone(),
            level: Arc::clone(level),
            width: setup.width.max(1),
            height: setup.height.max(1),
            depth: depth_view(device, setup.width, setup.height),
            globals,
            shadow_globals,
            scene_group,
            shadow_group,
            shadow,
            ground: GroundPipeline::new(device, &shared, level),
            buildings: BuildingsPipeline::new(device, &shared, level),
            objects: ObjectsPipeline::new(device, &shared, level),
            taxis: TaxisPipeline::new(device, &shared),
            characters: CharactersPipeline::new(device, &shared, Arc::clone(&setup.rig)),
            particles: ParticlesPipeline::new(device, &shared),
            labels: LabelsPipeline::new(device, &mut text, level),
            overlay: OverlayPipeline::new(device, &ctx.queue, &mut text, setup.assets.clone()),
            text,
            lights: Vec::new(),
            scratch: Vec::new(),
            skinning: SkinningPath::default(),
            local_player: Some(0),
            effects_seconds: 0.0,
        })
    }

    /// The size drawn, pixels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Advances the shimmer clock by a frame of `seconds`, wrapped at [`EFFECTS_PERIOD_S`]
    /// where it is accumulated: a clock that grew without end would, after a day of play, step
    /// by more than a frame and freeze every shimmer.
    pub fn advance_effects(&mut self, seconds: f32) {
        self.effects_seconds =
            crate::present::effects::wrapped_clock(self.effects_seconds, seconds, EFFECTS_PERIOD_S);
    }

    /// Sets the shimmer clock (wrapped at [`EFFECTS_PERIOD_S`]).
    pub fn set_effects_clock(&mut self, seconds: f32) {
        self.effects_seconds = seconds.rem_euclid(EFFECTS_PERIOD_S);
    }

    /// The shimmer clock, seconds within [`EFFECTS_PERIOD_S`].
    #[must_use]
    pub const fn effects_clock(&self) -> f32 {
        self.effects_seconds
    }

    /// Draws at a new size from the next frame on (a zero size is kept at one pixel).
    pub fn resize(&mut self, width: u32, height: u32) {
        let (width, height) = (width.max(1), height.max(1));
        if (width, height) != (self.width, self.height) {
            self.width = width;
            self.height = height;
            self.depth = depth_view(&self.device, width, height);
        }
    }

    /// The camera `frame` is drawn with at the current size.
    #[must_use]
    pub fn camera(&self, frame: &DrawFrame) -> CameraView {
        CameraView::new(&frame.camera, self.width, self.height)
    }

    /// The light of `frame`.
    #[must_use]
    pub fn lighting(frame: &DrawFrame) -> Lighting {
        lighting_at(frame.time_of_day)
    }

    /// Draws `frame` and `hud` into `view` (which must be of the renderer's format and size)
    /// and submits the work.
    pub fn render(&mut self, view: &wgpu::TextureView, frame: &DrawFrame, hud: &Hud) {
        let (device, queue) = (&self.device, &self.queue);
        let camera = CameraView::new(&frame.camera, self.width, self.height);
        let lighting = lighting_at(frame.time_of_day);
        point_lights(
            &self.level,
            &frame.taxis,
            lighting.night,
            frame.camera.target,
            &mut self.lights,
        );
        let light_view_proj =
            self.shadow.light_view_proj(frame.camera.shadow_centre, lighting.sun_direction);
        let seconds = self.effects_seconds;
        let mut data = GlobalsData {
            view_proj: camera.view_proj,
            light_view_proj,
            eye: camera.eye,
            right: camera.right,
            up: camera.up,
            seconds,
            lighting: &lighting,
            shadow_texel: self.shadow.texel(),
            lights: &self.lights,
            shadow_pass: false,
        };
        write_globals(&data, &mut self.scratch);
        queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&self.scratch));
        data.view_proj = light_view_proj;
        data.shadow_pass = true;
        write_globals(&data, &mut self.scratch);
        queue.write_buffer(&self.shadow_globals, 0, bytemuck::cast_slice(&self.scratch));

        self.objects.prepare(device, queue, &frame.objects);
        self.taxis.prepare(device, queue, &frame.taxis);
        self.characters.prepare(
            device,
            queue,
            &frame.characters,
            &self.level,
            self.local_player,
            self.skinning,
        );
        self.particles.prepare(device, queue, &frame.stars);
        self.text.resize(queue, self.width, self.height);
        self.labels.prepare(device, queue, &mut self.text, frame, &camera, self.local_player);
        self.overlay.prepare(device, queue, &mut self.text, frame, hud, (self.width, self.height));

        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        self.characters.dispatch(&mut encoder, self.skinning);
        {
            let mut pass = self.shadow.begin(&mut encoder);
            if lighting.sun_strength > 0.0 {
                self.buildings.draw_shadow(&mut pass, &self.shadow_group);
                self.objects.draw_shadow(&mut pass, &self.shadow_group);
                self.taxis.draw_shadow(&mut pass, &self.shadow_group);
                self.characters.draw_shadow(&mut pass, &self.shadow_group);
            }
        }
        {
            let fog = lighting.fog;
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
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
                        load: wgpu::LoadOp::Clear(super::common::SCENE_DEPTH_CLEAR),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.ground.draw(&mut pass, &self.scene_group);
            self.buildings.draw(&mut pass, &self.scene_group);
            self.taxis.draw(&mut pass, &self.scene_group);
            self.characters.draw(&mut pass, &self.scene_group);
            self.objects.draw(&mut pass, &self.scene_group);
            self.particles.draw(&mut pass, &self.scene_group);
        }
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
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
            });
            self.labels.draw(&mut pass, &self.text);
            self.overlay.draw(&mut pass, &self.text);
        }
        queue.submit([encoder.finish()]);
        self.text.trim();
    }
}
