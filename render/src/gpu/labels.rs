//! The labels pipeline: each nearby character's name above its head with its health bar under
//! the name, and the sign's text on its board. Positions are projected from the interpolated
//! world positions of the frame; names and bars are screen-space (a constant, readable size),
//! the sign's text is fitted to the board's projected width. Text is set with glyphon; the
//! bars are flat rectangles (`labels.wgsl`).

use std::collections::HashMap;
use std::sync::Arc;

use fixstep_game::level::{Level, ObjectDefKind};
use fixstep_game::state::Role;
use glam::{Quat, Vec3};
use glyphon::{Buffer, Color, Metrics, Shaping, TextArea, TextBounds, TextRenderer};

use super::meshes::{GrowBuffer, SIGN_BOARD, srgb};
use super::renderer::CameraView;
use super::text::{TextSystem, text_width};
use crate::present::DrawFrame;
use crate::present::convert::{radians, world};

/// Farthest a character's label is drawn, metres: beyond it names would be unreadable clutter.
pub const LABEL_MAX_DISTANCE: f32 = 40.0;

/// Most labels drawn at once (the nearest), so a crowd of a thousand costs a bounded amount.
pub const MAX_LABELS: usize = 48;

/// Height of a label's anchor above a character's feet, metres: just over the head.
const LABEL_HEIGHT: f32 = 2.0;

/// Font size of names at a 720-pixel-high screen, pixels.
const NAME_SIZE: f32 = 15.0;

/// Font size the sign's text is laid out at before it is scaled to the board, pixels.
const SIGN_SIZE: f32 = 48.0;

/// Farthest the sign's text is drawn, metres.
const SIGN_MAX_DISTANCE: f32 = 70.0;

/// Health bar size at a 720-pixel-high screen, pixels.
const BAR: (f32, f32) = (56.0, 6.0);

/// A flat rectangle instance: top left and size in pixels, then linear colour and opacity.
const RECT_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
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

/// Which text a placed label shows.
#[derive(Clone, Debug)]
enum Source {
    Name(Role),
    Sign(usize),
}

#[derive(Clone, Debug)]
struct Placed {
    source: Source,
    left: f32,
    top: f32,
    scale: f32,
    colour: Color,
}

/// The text of a sign, laid out once.
struct SignText {
    object: usize,
    at: Vec3,
    facing: f32,
    buffer: Buffer,
    width: f32,
}

/// The labels' pipeline, text renderer and laid-out names.
pub struct LabelsPipeline {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    group: wgpu::BindGroup,
    rects: GrowBuffer,
    rect_data: Vec<f32>,
    rect_count: u32,
    renderer: TextRenderer,
    /// Each character's name laid out, by who it is: laid out once, never per frame.
    names: HashMap<Role, (Buffer, f32)>,
    level: Arc<Level>,
    signs: Vec<SignText>,
    placed: Vec<Placed>,
    order: Vec<(f32, usize)>,
}

impl std::fmt::Debug for LabelsPipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LabelsPipeline").field("names", &self.names.len()).finish_non_exhaustive()
    }
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

impl LabelsPipeline {
    /// Builds the pipeline and lays out the level's sign texts.
    #[must_use]
    pub fn new(device: &wgpu::Device, text: &mut TextSystem, level: &Arc<Level>) -> Self {
        let (screen, layout, group) = screen_uniform(device, "labels screen");
        let format = text.atlas_format();
        let pipeline = rect_pipeline(
            device,
            format,
            "labels",
            include_str!("labels.wgsl"),
            &[Some(&layout)],
            RECT_INSTANCE,
        );
        let renderer =
            TextRenderer::new(&mut text.atlas, device, wgpu::MultisampleState::default(), None);
        let mut signs = Vec::new();
        for (object, def) in level.objects.iter().enumerate() {
            if let ObjectDefKind::Sign(sign) = &def.kind {
                let mut buffer =
                    Buffer::new(&mut text.fonts, Metrics::new(SIGN_SIZE, SIGN_SIZE * 1.2));
                buffer.set_size(None, None);
                buffer.set_text(&sign.text, &TextSystem::attrs(), Shaping::Advanced, None);
                buffer.shape_until_scroll(&mut text.fonts, false);
                let width = text_width(&buffer);
                signs.push(SignText {
                    object,
                    at: world(sign.at),
                    facing: radians(sign.facing),
                    buffer,
                    width,
                });
            }
        }
        Self {
            pipeline,
            screen,
            group,
            rects: GrowBuffer::new(device, "label rects", wgpu::BufferUsages::VERTEX, 4096),
            rect_data: Vec::new(),
            rect_count: 0,
            renderer,
            names: HashMap::new(),
            level: Arc::clone(level),
            signs,
            placed: Vec::new(),
            order: Vec::new(),
        }
    }

    /// Places this frame's names, health bars and sign text.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        text: &mut TextSystem,
        frame: &DrawFrame,
        camera: &CameraView,
        local_player: Option<u16>,
    ) {
        queue.write_buffer(
            &self.screen,
            0,
            bytemuck::cast_slice(&[camera.width, camera.height, 0.0, 0.0]),
        );
        let ui = ui_scale(camera.height);
        self.rect_data.clear();
        self.placed.clear();
        // During a cutscene the picture is the story's: no labels.
        if frame.cutscene.is_none() {
            self.place_signs(frame, camera);
            self.place_characters(text, frame, camera, local_player, ui);
        }
        self.rect_count = (self.rect_data.len() / 8) as u32;
        self.rects.write(device, queue, bytemuck::cast_slice(&self.rect_data));
        let names = &self.names;
        let signs = &self.signs;
        let (w, h) = (camera.width as i32, camera.height as i32);
        let areas = self.placed.iter().filter_map(|p| {
            let buffer = match &p.source {
                Source::Name(role) => &names.get(role)?.0,
                Source::Sign(i) => &signs.get(*i)?.buffer,
            };
            Some(TextArea {
                buffer,
                left: p.left,
                top: p.top,
                scale: p.scale,
                bounds: TextBounds { left: 0, top: 0, right: w, bottom: h },
                default_color: p.colour,
                custom_glyphs: &[],
            })
        });
        // A glyph that does not fit the atlas is left out this frame rather than stopping it.
        let _ = self.renderer.prepare(
            device,
            queue,
            &mut text.fonts,
            &mut text.atlas,
            &text.viewport,
            areas,
            &mut text.swash,
        );
    }

    fn place_signs(&mut self, frame: &DrawFrame, camera: &CameraView) {
        for (i, sign) in self.signs.iter().enumerate() {
            let Some(draw) = frame.objects.iter().find(|o| o.index == sign.object) else {
                continue;
            };
            if draw.opacity <= 0.02 || sign.width <= 0.0 {
                continue;
            }
            let rotation = draw.rotation * Quat::from_rotation_y(sign.facing);
            let centre = sign.at + draw.offset;
            let face = rotation * Vec3::X;
            // Only from in front of the board.
            if (camera.eye - centre).dot(face) <= 0.0
                || camera.eye.distance(centre) > SIGN_MAX_DISTANCE
            {
                continue;
            }
            let across = rotation * Vec3::Z * (SIGN_BOARD.z * 0.42 * draw.scale);
            let front = centre + face * (SIGN_BOARD.x / 2.0 + 0.02);
            let (Some(a), Some(b), Some(c)) = (
                camera.project(front - across),
                camera.project(front + across),
                camera.project(front),
            ) else {
                continue;
            };
            let span = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
            let scale = span / sign.width;
            if scale < 0.08 {
                continue;
            }
            let alpha = (draw.opacity * 255.0) as u8;
            self.placed.push(Placed {
                source: Source::Sign(i),
                left: c.0 - sign.width * scale / 2.0,
                top: c.1 - SIGN_SIZE * 0.62 * scale,
                scale,
                colour: Color::rgba(60, 34, 24, alpha),
            });
        }
    }

    fn place_characters(
        &mut self,
        text: &mut TextSystem,
        frame: &DrawFrame,
        camera: &CameraView,
        local_player: Option<u16>,
        ui: f32,
    ) {
        self.order.clear();
        for (i, c) in frame.characters.iter().enumerate() {
            let d = c.sample.pos.distance(camera.eye);
            if d <= LABEL_MAX_DISTANCE {
                self.order.push((d, i));
            }
        }
        self.order.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.order.truncate(MAX_LABELS);
        // Far labels first, so near ones are drawn over them.
        for &(distance, i) in self.order.iter().rev() {
            let c = &frame.characters[i];
            let Some((x, y, _)) = camera.project(c.sample.pos + Vec3::Y * LABEL_HEIGHT) else {
                continue;
            };
            if x < -100.0 || y < -100.0 || x > camera.width + 100.0 || y > camera.height + 100.0 {
                continue;
            }
            let role = c.role;
            if !self.names.contains_key(&role) {
                let mut buffer =
                    Buffer::new(&mut text.fonts, Metrics::new(NAME_SIZE, NAME_SIZE * 1.25));
                buffer.set_size(None, None);
                let name = self.level.character_name(role);
                buffer.set_text(&name, &TextSystem::attrs(), Shaping::Advanced, None);
                buffer.shape_until_scroll(&mut text.fonts, false);
                let width = text_width(&buffer);
                self.names.insert(role, (buffer, width));
            }
            let width = self.names.get(&role).map_or(0.0, |n| n.1);
            // Labels fade out towards the far limit.
            let fade = (1.0 - (distance - LABEL_MAX_DISTANCE * 0.7) / (LABEL_MAX_DISTANCE * 0.3))
                .clamp(0.0, 1.0);
            let me = c.player().is_some() && c.player() == local_player;
            let (bw, bh) = (BAR.0 * ui, BAR.1 * ui);
            let bar_top = y - bh - 2.0 * ui;
            push_rect(
                &mut self.rect_data,
                (x - bw / 2.0 - ui, bar_top - ui, bw + 2.0 * ui, bh + 2.0 * ui),
                Vec3::ZERO,
                0.65 * fade,
            );
            let health = (c.sample.health / 100.0).clamp(0.0, 1.0);
            let colour = if health > 0.6 {
                srgb(70, 200, 80)
            } else if health > 0.3 {
                srgb(230, 190, 40)
            } else {
                srgb(220, 50, 40)
            };
            push_rect(
                &mut self.rect_data,
                (x - bw / 2.0, bar_top, bw * health, bh),
                colour,
                0.95 * fade,
            );
            let alpha = (fade * 255.0) as u8;
            let colour = if me {
                Color::rgba(150, 210, 255, alpha)
            } else {
                Color::rgba(255, 255, 255, alpha)
            };
            // A dark copy one pixel down and right, so names read on any background.
            let top = bar_top - NAME_SIZE * 1.3 * ui;
            let left = x - width * ui / 2.0;
            self.placed.push(Placed {
                source: Source::Name(role),
                left: left + ui.max(1.0),
                top: top + ui.max(1.0),
                scale: ui,
                colour: Color::rgba(0, 0, 0, (f32::from(alpha) * 0.8) as u8),
            });
            self.placed.push(Placed { source: Source::Name(role), left, top, scale: ui, colour });
        }
    }

    /// Draws the bars, then the text.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, text: &TextSystem) {
        if self.rect_count > 0 {
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.group, &[]);
            pass.set_vertex_buffer(0, self.rects.buffer.slice(..));
            pass.draw(0..4, 0..self.rect_count);
        }
        // Nothing to draw is not an error worth stopping a frame for.
        let _ = self.renderer.render(&text.atlas, &text.viewport, pass);
    }
}
