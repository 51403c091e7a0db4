//! The overlay pipeline: everything drawn flat over the scene after the labels. The dialogue
//! box with its typewriter text (`DrawFrame::dialogue`); a cutscene's letterbox, images at
//! their poses, subtitle and black fade (`DrawFrame::cutscene`); the HUD (tick, frame rate,
//! frame time, short state hash, time of day) and, with F3, a graph of recent frame times.
//! Rectangles (plain or textured with an image from the assets) come from `overlay.wgsl`,
//! text from glyphon.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use glam::Vec3;
use glyphon::{Buffer, Color, Metrics, Shaping, TextArea, TextBounds, TextRenderer, Wrap};

use super::labels::{rect_pipeline, screen_uniform, ui_scale};
use super::lights::lighting_at;
use super::meshes::{GrowBuffer, srgb};
use super::renderer::Hud;
use super::text::{TextSystem, text_height, text_width};
use crate::present::DrawFrame;

/// A rectangle instance: place, colour, and the image's uv corners.
const RECT_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 48,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4],
};

/// Floats of one rectangle instance.
const RECT_FLOATS: usize = 12;

/// Height of each cutscene letterbox bar, fraction of the screen height.
pub const LETTERBOX: f32 = 0.09;

/// Frame times the graph shows, newest at the right.
pub const GRAPH_SAMPLES: usize = 240;

/// Frame time at the top of the graph, milliseconds (20 fps).
pub const GRAPH_MAX_MS: f32 = 50.0;

/// One piece of text the overlay keeps laid out between frames.
struct TextSlot {
    buffer: Buffer,
    text: String,
    size: f32,
    wrap: Option<f32>,
    shown: Option<(f32, f32, Color)>,
}

impl TextSlot {
    fn new(text: &mut TextSystem) -> Self {
        Self {
            buffer: Buffer::new(&mut text.fonts, Metrics::new(16.0, 20.0)),
            text: String::new(),
            size: 0.0,
            wrap: None,
            shown: None,
        }
    }

    /// Lays out `content` at `size` pixels, wrapped at `wrap` pixels if given (only when any
    /// of them changed: shaping is the costly part).
    fn set(&mut self, text: &mut TextSystem, content: &str, size: f32, wrap: Option<f32>) {
        if self.text != content || self.size != size || self.wrap != wrap {
            self.buffer.set_metrics(Metrics::new(size, size * 1.3));
            self.buffer.set_wrap(if wrap.is_some() { Wrap::Word } else { Wrap::None });
            self.buffer.set_size(wrap, None);
            self.buffer.set_text(content, &TextSystem::attrs(), Shaping::Advanced, None);
            self.buffer.shape_until_scroll(&mut text.fonts, false);
            content.clone_into(&mut self.text);
            self.size = size;
            self.wrap = wrap;
        }
    }
}

/// An image of the assets on the GPU.
struct Image {
    group: wgpu::BindGroup,
    aspect: f32,
}

/// A run of rectangles drawn with one image (or none).
#[derive(Clone, Debug)]
struct Batch {
    image: Option<String>,
    range: Range<u32>,
}

/// Slots of the overlay's texts.
const SPEAKER: usize = 0;
const LINE: usize = 1;
const HINT: usize = 2;
const SUBTITLE: usize = 3;
const HUD: usize = 4;
const GRAPH: usize = 5;
const SLOTS: usize = 6;

/// The overlay's pipeline, images, texts and rectangles.
pub struct OverlayPipeline {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    screen_group: wgpu::BindGroup,
    image_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    white: wgpu::BindGroup,
    assets: PathBuf,
    images: HashMap<String, Option<Image>>,
    rects: GrowBuffer,
    data: Vec<f32>,
    under_text: Vec<Batch>,
    over_text: Vec<Batch>,
    renderer: TextRenderer,
    slots: Vec<TextSlot>,
}

impl std::fmt::Debug for OverlayPipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OverlayPipeline")
            .field("images", &self.images.len())
            .finish_non_exhaustive()
    }
}

impl OverlayPipeline {
    /// Builds the pipeline; images load from `assets` when first shown.
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        text: &mut TextSystem,
        assets: PathBuf,
    ) -> Self {
        let (screen, screen_layout, screen_group) = screen_uniform(device, "overlay screen");
        let image_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("overlay image"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("overlay images"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..wgpu::SamplerDescriptor::default()
        });
        let pipeline = rect_pipeline(
            device,
            text.atlas_format(),
            "overlay",
            include_str!("overlay.wgsl"),
            &[Some(&screen_layout), Some(&image_layout)],
            RECT_INSTANCE,
        );
        let white = image_group(device, queue, &image_layout, &sampler, 1, 1, &[255; 4]);
        let renderer =
            TextRenderer::new(&mut text.atlas, device, wgpu::MultisampleState::default(), None);
        let slots = (0..SLOTS).map(|_| TextSlot::new(text)).collect();
        Self {
            pipeline,
            screen,
            screen_group,
            image_layout,
            sampler,
            white,
            assets,
            images: HashMap::new(),
            rects: GrowBuffer::new(device, "overlay rects", wgpu::BufferUsages::VERTEX, 4096),
            data: Vec::new(),
            under_text: Vec::new(),
            over_text: Vec::new(),
            renderer,
            slots,
        }
    }

    /// Loads `name` (under the assets) once; a file that cannot be read or decoded is drawn
    /// as a grey card, with one line on standard error the first time.
    fn image(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, name: &str) -> Option<f32> {
        if !self.images.contains_key(name) {
            let path = self.assets.join(name);
            let loaded = match image::open(&path) {
                Ok(img) => {
                    let rgba = img.to_rgba8();
                    let (w, h) = rgba.dimensions();
                    let group = image_group(
                        device,
                        queue,
                        &self.image_layout,
                        &self.sampler,
                        w,
                        h,
                        rgba.as_raw(),
                    );
                    Some(Image { group, aspect: w as f32 / h.max(1) as f32 })
                }
                Err(error) => {
                    eprintln!("fixstep: cannot load the image {}: {error}", path.display());
                    None
                }
            };
            self.images.insert(name.to_owned(), loaded);
        }
        self.images.get(name).and_then(|i| i.as_ref().map(|i| i.aspect))
    }

    fn rect(
        &mut self,
        batches: Batches,
        image: Option<&str>,
        rect: (f32, f32, f32, f32),
        colour: Vec3,
        alpha: f32,
    ) {
        let index = (self.data.len() / RECT_FLOATS) as u32;
        self.data.extend_from_slice(&[
            rect.0, rect.1, rect.2, rect.3, colour.x, colour.y, colour.z, alpha,
        ]);
        self.data.extend_from_slice(&[0.0, 0.0, 1.0, 1.0]);
        let list = match batches {
            Batches::Under => &mut self.under_text,
            Batches::Over => &mut self.over_text,
        };
        match list.last_mut() {
            Some(batch) if batch.image.as_deref() == image && batch.range.end == index => {
                batch.range.end += 1;
            }
            _ => list.push(Batch { image: image.map(str::to_owned), range: index..index + 1 }),
        }
    }

    /// Lays out this frame's overlay for a screen of `size`.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        text: &mut TextSystem,
        frame: &DrawFrame,
        hud: &Hud,
        size: (u32, u32),
    ) {
        let (w, h) = (size.0 as f32, size.1 as f32);
        queue.write_buffer(&self.screen, 0, bytemuck::cast_slice(&[w, h, 0.0, 0.0]));
        let ui = ui_scale(h);
        self.data.clear();
        self.under_text.clear();
        self.over_text.clear();
        for slot in &mut self.slots {
            slot.shown = None;
        }
        if let Some(cutscene) = &frame.cutscene {
            let bar = h * LETTERBOX;
            self.rect(Batches::Under, None, (0.0, 0.0, w, bar), Vec3::ZERO, 1.0);
            self.rect(Batches::Under, None, (0.0, h - bar, w, bar), Vec3::ZERO, 1.0);
            for image in &cutscene.images {
                let name: &str = &image.image;
                let aspect = self.image(device, queue, name);
                let ih = image.scale * h;
                let iw = ih * aspect.unwrap_or(1.4);
                let (cx, cy) = (image.centre[0] * w, image.centre[1] * h);
                let rect = (cx - iw / 2.0, cy - ih / 2.0, iw, ih);
                match aspect {
                    Some(_) => {
                        self.rect(Batches::Under, Some(name), rect, Vec3::ONE, image.opacity);
                    }
                    None => self.rect(Batches::Under, None, rect, Vec3::splat(0.3), image.opacity),
                }
            }
            if let Some(subtitle) = &cutscene.subtitle {
                let slot = &mut self.slots[SUBTITLE];
                slot.set(text, subtitle, 22.0 * ui, Some(w * 0.8));
                let tw = text_width(&slot.buffer);
                let th = text_height(&slot.buffer);
                slot.shown =
                    Some(((w - tw) / 2.0, h - bar / 2.0 - th / 2.0, Color::rgb(255, 250, 230)));
            }
            self.rect(Batches::Over, None, (0.0, 0.0, w, h), Vec3::ZERO, cutscene.fade);
        } else if let Some(dialogue) = &frame.dialogue {
            let (bx, bw) = (w * 0.14, w * 0.72);
            let bh = 118.0 * ui;
            let by = h - bh - 28.0 * ui;
            let pad = 16.0 * ui;
            self.rect(
                Batches::Under,
                None,
                (bx - 2.0 * ui, by - 2.0 * ui, bw + 4.0 * ui, bh + 4.0 * ui),
                srgb(210, 180, 110),
                0.9,
            );
            self.rect(Batches::Under, None, (bx, by, bw, bh), srgb(16, 20, 40), 0.88);
            let speaker = &mut self.slots[SPEAKER];
            speaker.set(text, &dialogue.speaker, 18.0 * ui, None);
            let sw = text_width(&speaker.buffer);
            let plate = (bx + pad - 8.0 * ui, by - 30.0 * ui, sw + 16.0 * ui, 28.0 * ui);
            speaker.shown = Some((bx + pad, by - 27.0 * ui, Color::rgb(255, 214, 120)));
            self.rect(Batches::Under, None, plate, srgb(16, 20, 40), 0.92);
            let line = &mut self.slots[LINE];
            line.set(text, dialogue.shown(), 20.0 * ui, Some(bw - 2.0 * pad));
            line.shown = Some((bx + pad, by + pad, Color::rgb(240, 240, 245)));
            if dialogue.shown_chars >= dialogue.text.chars().count() {
                let hint = &mut self.slots[HINT];
                hint.set(text, "F: next", 14.0 * ui, None);
                let hw = text_width(&hint.buffer);
                hint.shown =
                    Some((bx + bw - hw - pad, by + bh - 24.0 * ui, Color::rgb(210, 180, 110)));
            }
        }
        if hud.visible {
            self.prepare_hud(text, frame, hud, (w, h), ui);
        }
        let bytes = bytemuck::cast_slice(&self.data);
        self.rects.write(device, queue, bytes);
        let (wi, hi) = (size.0 as i32, size.1 as i32);
        let areas = self.slots.iter().filter_map(|slot| {
            let (left, top, colour) = slot.shown?;
            Some(TextArea {
                buffer: &slot.buffer,
                left,
                top,
                scale: 1.0,
                bounds: TextBounds { left: 0, top: 0, right: wi, bottom: hi },
                default_color: colour,
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

    fn prepare_hud(
        &mut self,
        text: &mut TextSystem,
        frame: &DrawFrame,
        hud: &Hud,
        (w, _h): (f32, f32),
        ui: f32,
    ) {
        let day = frame.time_of_day.rem_euclid(1.0);
        let minutes = (day * 24.0 * 60.0) as u32;
        let phase = lighting_at(day).phase;
        let hash = hud.hash.map_or_else(|| "-       ".to_owned(), |h| format!("{:08x}", h >> 32));
        let mut content = format!(
            "tick {}   {:.0} fps   {:.1} ms\nhash {hash}   {:02}:{:02} {phase}",
            hud.tick,
            hud.fps,
            hud.frame_ms,
            minutes / 60,
            minutes % 60,
        );
        if let Some(network) = &hud.network {
            content.push('\n');
            content.push_str(network);
        }
        if let Some(note) = &hud.note {
            content.push('\n');
            content.push_str(note);
        }
        let slot = &mut self.slots[HUD];
        slot.set(text, &content, 14.0 * ui, None);
        let (tw, th) = (text_width(&slot.buffer), text_height(&slot.buffer));
        let pad = 8.0 * ui;
        slot.shown = Some((pad * 2.0, pad * 2.0, Color::rgb(235, 240, 245)));
        self.rect(
            Batches::Under,
            None,
            (pad, pad, tw + pad * 2.0, th + pad * 2.0),
            Vec3::ZERO,
            0.55,
        );
        if hud.show_graph {
            let (gw, gh) = (GRAPH_SAMPLES as f32 * 1.25 * ui, 110.0 * ui);
            let (gx, gy) = (w - gw - pad, pad);
            self.rect(
                Batches::Under,
                None,
                (gx - pad, gy, gw + pad * 2.0, gh + 26.0 * ui),
                Vec3::ZERO,
                0.6,
            );
            let bar = gw / GRAPH_SAMPLES as f32;
            let base = gy + 22.0 * ui + gh;
            let start = hud.frame_times.len().saturating_sub(GRAPH_SAMPLES);
            let shown = &hud.frame_times[start..];
            let offset = GRAPH_SAMPLES - shown.len();
            for (i, &ms) in shown.iter().enumerate() {
                let height = (ms / GRAPH_MAX_MS).clamp(0.0, 1.0) * gh;
                let colour = if ms <= 17.5 {
                    srgb(90, 210, 110)
                } else if ms <= 34.0 {
                    srgb(235, 200, 60)
                } else {
                    srgb(230, 70, 60)
                };
                let x = gx + (offset + i) as f32 * bar;
                self.rect(
                    Batches::Under,
                    None,
                    (x, base - height, bar.max(1.0), height),
                    colour,
                    0.9,
                );
            }
            for (ms, colour) in
                [(1000.0 / 60.0, srgb(90, 210, 110)), (1000.0 / 30.0, srgb(235, 200, 60))]
            {
                let y = base - ms / GRAPH_MAX_MS * gh;
                self.rect(Batches::Under, None, (gx, y, gw, ui.max(1.0)), colour, 0.7);
            }
            // The network clock's offset, a dot a sample, about the graph's middle (± half its
            // height for ± GRAPH_MAX_MS / 2).
            let start = hud.clock_offsets.len().saturating_sub(GRAPH_SAMPLES);
            let offsets = &hud.clock_offsets[start..];
            let skip = GRAPH_SAMPLES - offsets.len();
            let middle = base - gh / 2.0;
            for (i, &ms) in offsets.iter().enumerate() {
                let y = middle - (ms / GRAPH_MAX_MS).clamp(-0.5, 0.5) * gh;
                let x = gx + (skip + i) as f32 * bar;
                let dot = (2.0 * ui).max(2.0);
                self.rect(
                    Batches::Under,
                    None,
                    (x, y - dot / 2.0, dot, dot),
                    srgb(90, 200, 255),
                    0.95,
                );
            }
            let worst = shown.iter().copied().fold(0.0, f32::max);
            let mean =
                if shown.is_empty() { 0.0 } else { shown.iter().sum::<f32>() / shown.len() as f32 };
            let label = if hud.clock_offsets.is_empty() {
                format!("frame time  mean {mean:.1} ms  max {worst:.1} ms  (F3)")
            } else {
                let last = hud.clock_offsets.last().copied().unwrap_or(0.0);
                format!(
                    "frame time  mean {mean:.1} ms  max {worst:.1} ms   clock offset {last:+.1} ms (blue)  (F3)"
                )
            };
            let slot = &mut self.slots[GRAPH];
            slot.set(text, &label, 12.0 * ui, None);
            slot.shown = Some((gx, gy + 4.0 * ui, Color::rgb(220, 225, 230)));
        }
    }

    fn draw_batches(&self, pass: &mut wgpu::RenderPass<'_>, batches: &[Batch]) {
        if batches.is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.screen_group, &[]);
        pass.set_vertex_buffer(0, self.rects.buffer.slice(..));
        for batch in batches {
            let group = batch
                .image
                .as_ref()
                .and_then(|name| self.images.get(name))
                .and_then(Option::as_ref)
                .map_or(&self.white, |image| &image.group);
            pass.set_bind_group(1, group, &[]);
            pass.draw(0..4, batch.range.clone());
        }
    }

    /// Draws the rectangles under the text, the text, then the fade over it all.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, text: &TextSystem) {
        self.draw_batches(pass, &self.under_text);
        // Nothing to draw is not an error worth stopping a frame for.
        let _ = self.renderer.render(&text.atlas, &text.viewport, pass);
        self.draw_batches(pass, &self.over_text);
    }
}

/// Which list a rectangle joins: under the text or over it.
#[derive(Clone, Copy, Debug)]
enum Batches {
    Under,
    Over,
}

/// A bind group of an sRGB image of `width` × `height` RGBA bytes.
fn image_group(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    sampler: &wgpu::Sampler,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> wgpu::BindGroup {
    let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("overlay image"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        rgba,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(4 * width),
            rows_per_image: Some(height),
        },
        size,
    );
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("overlay image"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
        ],
    })
}
