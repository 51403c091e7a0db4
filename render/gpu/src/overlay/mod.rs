//! The overlay: everything drawn flat over the scene, in screen pixels. Rectangles, plain or
//! textured with an image from the content's files or the assets (`overlay.wgsl`), under the
//! text or over it; text laid out in slots that are shaped again only when they change
//! (glyphon); and the HUD (tick, frame rate, frame time, short state hash, a game's time of
//! day, the network line) with, on F3, a graph of recent frame times and the network clock's
//! offset. A game draws its own things into it each frame (the town's dialogue box and
//! cutscenes) between [`Overlay::begin`] and [`Overlay::finish`].

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::file::{ContentFiles, ContentReadError, ContentReader};

use glam::Vec3;
use glyphon::{Buffer, Color, Metrics, Shaping, TextArea, TextBounds, TextRenderer, Wrap};

mod layout;

use crate::Hud;
use crate::lights::lighting_at;
use crate::meshes::{GrowBuffer, srgb};
use crate::rects::{rect_pipeline, screen_uniform, ui_scale};
use crate::text::{TextSystem, text_height, text_width};

use layout::{
    CLOCK_DOT_ALPHA, CLOCK_DOT_PX, CLOCK_DOT_RGB, GRAPH_BACKDROP_ALPHA, GRAPH_BAR_ALPHA,
    GRAPH_BAR_PX, GRAPH_BOTTOM_MARGIN_PX, GRAPH_CAPTION_ROOM_PX, GRAPH_CAPTION_TOP_PX,
    GRAPH_GREEN_MS, GRAPH_GREEN_RGB, GRAPH_GUIDE_ALPHA, GRAPH_GUIDES, GRAPH_HEIGHT_PX,
    GRAPH_RED_RGB, GRAPH_TEXT_PX, GRAPH_TEXT_RGB, GRAPH_YELLOW_MS, GRAPH_YELLOW_RGB,
    HUD_BACKDROP_ALPHA, HUD_PAD_PX, HUD_TEXT_PX, HUD_TEXT_RGB, MINUTES_PER_DAY,
};
pub use layout::{GRAPH_MAX_MS, GRAPH_SAMPLES};

/// A rectangle instance: place, colour, and the image's uv corners.
const RECT_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 48,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4],
};

/// Floats of one rectangle instance.
const RECT_FLOATS: usize = 12;

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

/// A text slot of the overlay: one piece of text kept laid out between frames
/// ([`Overlay::slot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(pub(crate) usize);

/// Which list a rectangle joins: under the text, or over it (a fade over everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Under the text.
    Under,
    /// Over the text.
    Over,
}

/// The overlay's pipeline, images, texts and rectangles.
pub struct Overlay {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    screen_group: wgpu::BindGroup,
    image_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    white: wgpu::BindGroup,
    assets: PathBuf,
    /// The files the content was read from, where images are found first.
    content_files: Arc<ContentFiles>,
    images: HashMap<String, Option<Image>>,
    rects: GrowBuffer,
    data: Vec<f32>,
    under_text: Vec<Batch>,
    over_text: Vec<Batch>,
    renderer: TextRenderer,
    slots: Vec<TextSlot>,
    hud_slot: Slot,
    graph_slot: Slot,
    size: (f32, f32),
    /// The HUD's lines, written again each frame into the same buffer.
    hud_text: String,
    /// The graph's caption, likewise.
    graph_text: String,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay").field("images", &self.images.len()).finish_non_exhaustive()
    }
}

impl Overlay {
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
            include_str!("../overlay.wgsl"),
            &[Some(&screen_layout), Some(&image_layout)],
            RECT_INSTANCE,
        );
        let white = image_group(device, queue, &image_layout, &sampler, 1, 1, &[255; 4]);
        let renderer =
            TextRenderer::new(&mut text.atlas, device, wgpu::MultisampleState::default(), None);
        let slots = vec![TextSlot::new(text), TextSlot::new(text)];
        Self {
            pipeline,
            screen,
            screen_group,
            image_layout,
            sampler,
            white,
            assets,
            content_files: Arc::default(),
            images: HashMap::new(),
            rects: GrowBuffer::new(device, "overlay rects", wgpu::BufferUsages::VERTEX, 4096),
            data: Vec::new(),
            under_text: Vec::new(),
            over_text: Vec::new(),
            renderer,
            slots,
            hud_slot: Slot(0),
            graph_slot: Slot(1),
            size: (1.0, 1.0),
            hud_text: String::new(),
            graph_text: String::new(),
        }
    }

    /// Finds images among `files` (the files the content was read from, which a replay
    /// carries) before the assets: content loaded from a replay shows its images on a machine
    /// without them, and any content shows the very images it was checked with. Images seen
    /// before are kept.
    pub fn use_content_files(&mut self, files: Arc<ContentFiles>) {
        self.content_files = files;
    }

    /// A new text slot, for a piece of text a game shows over its picture.
    pub fn slot(&mut self, text: &mut TextSystem) -> Slot {
        self.slots.push(TextSlot::new(text));
        Slot(self.slots.len() - 1)
    }

    /// Starts this frame's overlay on a screen of `size` pixels: nothing is shown until it
    /// is given.
    pub fn begin(&mut self, queue: &wgpu::Queue, size: (u32, u32)) {
        let (w, h) = (size.0 as f32, size.1 as f32);
        queue.write_buffer(&self.screen, 0, bytemuck::cast_slice(&[w, h, 0.0, 0.0]));
        self.size = (w, h);
        self.data.clear();
        self.under_text.clear();
        self.over_text.clear();
        for slot in &mut self.slots {
            slot.shown = None;
        }
    }

    /// The screen's size this frame, pixels.
    #[must_use]
    pub const fn size(&self) -> (f32, f32) {
        self.size
    }

    /// Loads `name` (among the content's files, see
    /// [`use_content_files`](Self::use_content_files), or else under the assets) once and
    /// gives its aspect (width over height); a file that cannot be read or decoded gives
    /// `None`, with one line on standard error the first time.
    pub fn image(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, name: &str) -> Option<f32> {
        if !self.images.contains_key(name) {
            let loaded = match load_image(&self.assets, &self.content_files, name) {
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
                    tracing::warn!("cannot load an image: {error}");
                    None
                }
            };
            self.images.insert(name.to_owned(), loaded);
        }
        self.images.get(name).and_then(|i| i.as_ref().map(|i| i.aspect))
    }

    /// A rectangle (left, top, width, height in pixels) on `layer`, of `colour` and `alpha`,
    /// showing `image` (an image of the assets, loaded with [`image`](Self::image)) if given.
    pub fn rect(
        &mut self,
        layer: Layer,
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
        let list = match layer {
            Layer::Under => &mut self.under_text,
            Layer::Over => &mut self.over_text,
        };
        match list.last_mut() {
            Some(batch) if batch.image.as_deref() == image && batch.range.end == index => {
                batch.range.end += 1;
            }
            _ => list.push(Batch { image: image.map(str::to_owned), range: index..index + 1 }),
        }
    }

    /// Lays out `content` in `slot` at `size` pixels, wrapped at `wrap` pixels if given (only
    /// when any of them changed: shaping is the costly part), and gives its width and height.
    pub fn text(
        &mut self,
        text: &mut TextSystem,
        slot: Slot,
        content: &str,
        size: f32,
        wrap: Option<f32>,
    ) -> (f32, f32) {
        let Some(slot) = self.slots.get_mut(slot.0) else { return (0.0, 0.0) };
        slot.set(text, content, size, wrap);
        (text_width(&slot.buffer), text_height(&slot.buffer))
    }

    /// Shows the text of `slot` this frame, its top left at (`left`, `top`), in `colour`.
    pub fn show(&mut self, slot: Slot, left: f32, top: f32, colour: Color) {
        if let Some(slot) = self.slots.get_mut(slot.0) {
            slot.shown = Some((left, top, colour));
        }
    }

    /// Ends this frame's overlay: writes its rectangles and prepares its text.
    pub fn finish(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, text: &mut TextSystem) {
        let bytes = bytemuck::cast_slice(&self.data);
        self.rects.write(device, queue, bytes);
        let (wi, hi) = (self.size.0 as i32, self.size.1 as i32);
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
        text.prepare(&mut self.renderer, device, queue, areas);
    }

    /// Shows the HUD (if it is visible): the tick, frame rate and time, the state hash, the
    /// time of day of a game that has one, the network and help lines, and with F3 the graph
    /// of frame times and the network clock's offset.
    pub fn hud(&mut self, text: &mut TextSystem, hud: &Hud, time_of_day: Option<f32>) {
        if !hud.visible {
            return;
        }
        let (w, h) = self.size;
        let ui = ui_scale(h);
        let day = time_of_day.map(|day| {
            let day = day.rem_euclid(1.0);
            ((day * MINUTES_PER_DAY) as u32, lighting_at(day).phase)
        });
        let mut content = core::mem::take(&mut self.hud_text);
        // Writing to a String does not fail.
        let _ = hud.write_lines(&mut content, day);
        let (tw, th) = self.text(text, self.hud_slot, &content, HUD_TEXT_PX * ui, None);
        self.hud_text = content;
        let pad = HUD_PAD_PX * ui;
        self.show(self.hud_slot, pad * 2.0, pad * 2.0, rgb(HUD_TEXT_RGB));
        let backdrop = (pad, pad, tw + pad * 2.0, th + pad * 2.0);
        self.rect(Layer::Under, None, backdrop, Vec3::ZERO, HUD_BACKDROP_ALPHA);
        if hud.show_graph {
            self.graph(text, hud, (w, ui, pad));
        }
    }

    /// The frame-time graph at the top right, with the network clock's offset over it and a
    /// caption of the mean and worst frame time.
    fn graph(&mut self, text: &mut TextSystem, hud: &Hud, (w, ui, pad): (f32, f32, f32)) {
        let (gw, gh) = (GRAPH_SAMPLES as f32 * GRAPH_BAR_PX * ui, GRAPH_HEIGHT_PX * ui);
        let (gx, gy) = (w - gw - pad, pad);
        let room = (GRAPH_CAPTION_ROOM_PX + GRAPH_BOTTOM_MARGIN_PX) * ui;
        let backdrop = (gx - pad, gy, gw + pad * 2.0, gh + room);
        self.rect(Layer::Under, None, backdrop, Vec3::ZERO, GRAPH_BACKDROP_ALPHA);
        let bar = gw / GRAPH_SAMPLES as f32;
        let base = gy + GRAPH_CAPTION_ROOM_PX * ui + gh;
        let start = hud.frame_times.len().saturating_sub(GRAPH_SAMPLES);
        let shown = &hud.frame_times[start..];
        let offset = GRAPH_SAMPLES - shown.len();
        for (i, &ms) in shown.iter().enumerate() {
            let height = (ms / GRAPH_MAX_MS).clamp(0.0, 1.0) * gh;
            let colour = if ms <= GRAPH_GREEN_MS {
                GRAPH_GREEN_RGB
            } else if ms <= GRAPH_YELLOW_MS {
                GRAPH_YELLOW_RGB
            } else {
                GRAPH_RED_RGB
            };
            let x = gx + (offset + i) as f32 * bar;
            let place = (x, base - height, bar.max(1.0), height);
            self.rect(Layer::Under, None, place, linear(colour), GRAPH_BAR_ALPHA);
        }
        for (ms, colour) in GRAPH_GUIDES {
            let y = base - ms / GRAPH_MAX_MS * gh;
            let place = (gx, y, gw, ui.max(1.0));
            self.rect(Layer::Under, None, place, linear(colour), GRAPH_GUIDE_ALPHA);
        }
        // The network clock's offset, a dot a sample, about the graph's middle (± half its
        // height for ± GRAPH_MAX_MS / 2).
        let start = hud.clock_offsets.len().saturating_sub(GRAPH_SAMPLES);
        let offsets = &hud.clock_offsets[start..];
        let skip = GRAPH_SAMPLES - offsets.len();
        let middle = base - gh / 2.0;
        let dot = (CLOCK_DOT_PX * ui).max(CLOCK_DOT_PX);
        for (i, &ms) in offsets.iter().enumerate() {
            let y = middle - (ms / GRAPH_MAX_MS).clamp(-0.5, 0.5) * gh;
            let x = gx + (skip + i) as f32 * bar;
            let place = (x, y - dot / 2.0, dot, dot);
            self.rect(Layer::Under, None, place, linear(CLOCK_DOT_RGB), CLOCK_DOT_ALPHA);
        }
        let worst = shown.iter().copied().fold(0.0, f32::max);
        let mean =
            if shown.is_empty() { 0.0 } else { shown.iter().sum::<f32>() / shown.len() as f32 };
        let mut label = core::mem::take(&mut self.graph_text);
        label.clear();
        // Writing to a String does not fail.
        let _ = write!(label, "frame time  mean {mean:.1} ms  max {worst:.1} ms");
        if let Some(last) = hud.clock_offsets.last() {
            let _ = write!(label, "   clock offset {last:+.1} ms (blue)");
        }
        label.push_str("  (F3)");
        self.text(text, self.graph_slot, &label, GRAPH_TEXT_PX * ui, None);
        self.graph_text = label;
        self.show(self.graph_slot, gx, gy + GRAPH_CAPTION_TOP_PX * ui, rgb(GRAPH_TEXT_RGB));
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

/// An image a cutscene shows: the postcard is under 1 kB; a 4K photograph is about 20 MB.
pub const IMAGE_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("image", 32_000_000);

/// The widest and tallest image decoded, pixels: a 4K screen, more than a picture in a
/// cutscene's corner needs. A small PNG may claim enormous sides: they are refused before a
/// pixel is decoded.
const MAX_IMAGE_SIDE_PX: u32 = 4_096;

/// The most bytes decoding an image may take: one [`MAX_IMAGE_SIDE_PX`] square of RGBA.
const MAX_IMAGE_DECODE_BYTES: u64 = 4 * (MAX_IMAGE_SIDE_PX as u64) * (MAX_IMAGE_SIDE_PX as u64);

/// Reads and decodes `name`, an image among `files` or else under `assets`, within
/// [`IMAGE_FILE`]'s limit and the decoding limits.
fn load_image(
    assets: &Path,
    files: &Arc<ContentFiles>,
    name: &str,
) -> Result<image::DynamicImage, String> {
    // Carried files are shown under the assets, where they were read from.
    let reader = if files.get(name).is_some() {
        ContentReader::files(Arc::clone(files), assets)
    } else {
        ContentReader::folder(assets)
    };
    let (path, bytes) = reader.read_bytes(name, IMAGE_FILE).map_err(|e| match e {
        ContentReadError::Path(e) => format!("image path {e}"),
        ContentReadError::Read(e) => e.with_causes(),
    })?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE_PX);
    limits.max_image_height = Some(MAX_IMAGE_SIDE_PX);
    limits.max_alloc = Some(MAX_IMAGE_DECODE_BYTES);
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    reader.limits(limits);
    reader.decode().map_err(|e| format!("{}: {e}", path.display()))
}

/// A glyphon colour of sRGB bytes.
const fn rgb((r, g, b): (u8, u8, u8)) -> Color {
    Color::rgb(r, g, b)
}

/// A rectangle's colour (linear light) of sRGB bytes.
fn linear((r, g, b): (u8, u8, u8)) -> Vec3 {
    srgb(r, g, b)
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use fixstep_runtime::file::ContentFiles;

    use super::load_image;

    /// An image kept with the content's files is drawn from them, with no assets on disk; one
    /// the files lack is looked for under the assets.
    #[test]
    fn an_image_of_the_content_s_files_loads_without_the_assets() {
        let name = "images/fountain_postcard.png";
        let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        let bytes = std::fs::read(assets.join(name)).expect("the postcard");
        let mut files = ContentFiles::new("levels/town.ron".to_owned());
        files.insert(name.to_owned(), bytes);
        let files = Arc::new(files);
        let nowhere = Path::new("no/such/assets");
        let carried = load_image(nowhere, &files, name).expect("decodes from the files");
        let on_disk = load_image(&assets, &Arc::default(), name).expect("decodes from disk");
        assert_eq!(carried, on_disk);
        let missing = load_image(nowhere, &Arc::default(), name).expect_err("no such file");
        assert!(missing.contains("no/such/assets/images/fountain_postcard.png"), "{missing}");
    }
}
