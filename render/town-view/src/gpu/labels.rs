//! The labels pipeline: each nearby character's name above its head with its health bar under
//! the name, and the sign's text on its board, where [`label_layout`](super::label_layout)
//! places them (none behind a building). Names and bars are screen-space (a constant, readable
//! size), the sign's text is fitted to the board's projected width. Text is set with glyphon;
//! the bars are flat rectangles (`labels.wgsl`).

use fixstep_runtime::Player;
use std::collections::HashMap;
use std::sync::Arc;

use fixstep_town::level::{Level, ObjectDefKind};
use fixstep_town::state::Role;
use glyphon::{Buffer, Metrics, Shaping, TextArea, TextBounds, TextRenderer};

use super::label_layout::{LABEL_MAX_DISTANCE, LabelLayout, NAME_SIZE, SIGN_SIZE, Source};
use crate::gpu::meshes::GrowBuffer;
use crate::present::frame::DrawFrame;
use fixstep_gpu::CameraView;
use fixstep_gpu::rects::{RECT_INSTANCE, RECT_WGSL, rect_pipeline, screen_uniform};
use fixstep_gpu::text::{TextSystem, text_width};

/// The labels' pipeline, text renderer and laid-out names.
pub struct LabelsPipeline {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    group: wgpu::BindGroup,
    rects: GrowBuffer,
    rect_count: u32,
    renderer: TextRenderer,
    /// Each character's name laid out, by who it is: laid out once, never per frame.
    names: HashMap<Role, (Buffer, f32)>,
    /// The frames' [`DrawFrame::names_version`] the players' names were laid out for.
    names_version: u32,
    level: Arc<Level>,
    /// The signs' texts laid out, in the layout's order of signs.
    signs: Vec<Buffer>,
    layout: LabelLayout,
}

impl std::fmt::Debug for LabelsPipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LabelsPipeline").field("names", &self.names.len()).finish_non_exhaustive()
    }
}

impl LabelsPipeline {
    /// Builds the pipeline and lays out the level's sign texts.
    #[must_use]
    pub fn new(device: &wgpu::Device, text: &mut TextSystem, level: &Arc<Level>) -> Self {
        let (screen, layout, group) = screen_uniform(device, "labels screen");
        let format = text.atlas_format();
        let pipeline =
            rect_pipeline(device, format, "labels", RECT_WGSL, &[Some(&layout)], RECT_INSTANCE);
        let renderer =
            TextRenderer::new(&mut text.atlas, device, wgpu::MultisampleState::default(), None);
        let mut signs = Vec::new();
        let mut widths = Vec::new();
        for (object, def) in level.objects.iter().enumerate() {
            if let ObjectDefKind::Sign(sign) = &def.kind {
                let mut buffer =
                    Buffer::new(&mut text.fonts, Metrics::new(SIGN_SIZE, SIGN_SIZE * 1.2));
                buffer.set_size(None, None);
                buffer.set_text(&sign.text, &TextSystem::attrs(), Shaping::Advanced, None);
                buffer.shape_until_scroll(&mut text.fonts, false);
                widths.push((object, text_width(&buffer)));
                signs.push(buffer);
            }
        }
        let sign_width =
            |object: usize| widths.iter().find(|(o, _)| *o == object).map_or(0.0, |(_, w)| *w);
        let layout = LabelLayout::new(level, sign_width);
        Self {
            pipeline,
            screen,
            group,
            rects: GrowBuffer::new(device, "label rects", wgpu::BufferUsages::VERTEX, 4096),
            rect_count: 0,
            renderer,
            names: HashMap::new(),
            names_version: 0,
            level: Arc::clone(level),
            signs,
            layout,
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
        local_player: Option<Player>,
    ) {
        queue.write_buffer(
            &self.screen,
            0,
            bytemuck::cast_slice(&[camera.width, camera.height, 0.0, 0.0]),
        );
        // Names are laid out the first time their character is near: never again after,
        // but for players' when the game tells new names.
        if frame.names_version != self.names_version {
            self.names_version = frame.names_version;
            self.names.retain(|role, _| !matches!(role, Role::Player(_)));
        }
        for c in &frame.characters {
            if self.names.contains_key(&c.role)
                || c.sample.pos.distance(camera.eye) > LABEL_MAX_DISTANCE
            {
                continue;
            }
            let mut buffer =
                Buffer::new(&mut text.fonts, Metrics::new(NAME_SIZE, NAME_SIZE * 1.25));
            buffer.set_size(None, None);
            let name = match c.role {
                Role::Player(p) => frame.player_names.get(p.index()).cloned(),
                _ => None,
            }
            .unwrap_or_else(|| self.level.character_name(c.role));
            buffer.set_text(&name, &TextSystem::attrs(), Shaping::Advanced, None);
            buffer.shape_until_scroll(&mut text.fonts, false);
            let width = text_width(&buffer);
            self.names.insert(c.role, (buffer, width));
        }
        let names = &self.names;
        let width_of = |role: Role| names.get(&role).map_or(0.0, |n| n.1);
        self.layout.place(frame, camera, local_player, &width_of);
        let rect_data = &self.layout.rect_data;
        self.rect_count = (rect_data.len() / 8) as u32;
        self.rects.write(device, queue, bytemuck::cast_slice(rect_data));
        let signs = &self.signs;
        let (w, h) = (camera.width as i32, camera.height as i32);
        let areas = self.layout.placed.iter().filter_map(|p| {
            let buffer = match &p.source {
                Source::Name(role) => &names.get(role)?.0,
                Source::Sign(i) => signs.get(*i)?,
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
        text.prepare(&mut self.renderer, device, queue, areas);
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
