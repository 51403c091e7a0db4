//! Text, shared by a renderer's labels and its overlay: glyphon's font system (with the font the
//! assets ship, so no system font is needed), glyph cache, atlas and viewport.

use std::path::Path;
use std::sync::Arc;

use glyphon::{Attrs, Cache, Family, FontSystem, Resolution, SwashCache, TextAtlas, Viewport};

use crate::context::{GpuContext, GpuError};

/// The font every text is set in, under the assets root.
pub const FONT_FILE: &str = "fonts/DejaVuSans.ttf";

/// A font file: DejaVu Sans is 760 kB; a font with every script of Unicode is about 20 MB.
pub const FONT: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("font", 32_000_000);

/// The family name inside [`FONT_FILE`].
const FONT_FAMILY: &str = "DejaVu Sans";

/// Text resources one renderer shares between its text renderers.
pub struct TextSystem {
    /// Fonts and shaping.
    pub fonts: FontSystem,
    /// Rasterised glyphs.
    pub swash: SwashCache,
    /// glyphon's pipeline cache.
    pub cache: Cache,
    /// The glyph atlas.
    pub atlas: TextAtlas,
    /// The screen size the text is laid out for.
    pub viewport: Viewport,
    format: wgpu::TextureFormat,
}

impl std::fmt::Debug for TextSystem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TextSystem")
    }
}

impl TextSystem {
    /// Loads the font from `assets` and makes the atlas for targets of `format`.
    ///
    /// # Errors
    ///
    /// If the font cannot be read.
    pub fn new(
        ctx: &GpuContext,
        format: wgpu::TextureFormat,
        assets: &Path,
    ) -> Result<Self, GpuError> {
        let path = assets.join(FONT_FILE);
        let bytes = fixstep_runtime::file::read_bytes(&path, FONT).map_err(GpuError::Font)?;
        let fonts = FontSystem::new_with_fonts([glyphon::fontdb::Source::Binary(Arc::new(bytes))]);
        let cache = Cache::new(&ctx.device);
        let atlas = TextAtlas::new(&ctx.device, &ctx.queue, &cache, format);
        let viewport = Viewport::new(&ctx.device, &cache);
        Ok(Self { fonts, swash: SwashCache::new(), cache, atlas, viewport, format })
    }

    /// The attributes of all text: the shipped font.
    #[must_use]
    pub fn attrs() -> Attrs<'static> {
        Attrs::new().family(Family::Name(FONT_FAMILY))
    }

    /// Lays text out for a screen of `width` × `height`.
    pub fn resize(&mut self, queue: &wgpu::Queue, width: u32, height: u32) {
        self.viewport.update(queue, Resolution { width, height });
    }

    /// The format the atlas draws into.
    #[must_use]
    pub fn atlas_format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Prepares `areas` for `renderer` to draw this frame. A glyph that does not fit the atlas
    /// is left out of this frame rather than stopping it.
    pub fn prepare<'a>(
        &mut self,
        renderer: &mut glyphon::TextRenderer,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        areas: impl IntoIterator<Item = glyphon::TextArea<'a>>,
    ) {
        let _ = renderer.prepare(
            device,
            queue,
            &mut self.fonts,
            &mut self.atlas,
            &self.viewport,
            areas,
            &mut self.swash,
        );
    }

    /// Frees atlas space of glyphs no longer drawn (after a frame is submitted).
    pub fn trim(&mut self) {
        self.atlas.trim();
    }
}

/// The width of a laid-out buffer's widest line, pixels.
#[must_use]
pub fn text_width(buffer: &glyphon::Buffer) -> f32 {
    buffer.layout_runs().map(|run| run.line_w).fold(0.0, f32::max)
}

/// The height of a laid-out buffer's lines, pixels.
#[must_use]
pub fn text_height(buffer: &glyphon::Buffer) -> f32 {
    buffer.layout_runs().map(|run| run.line_height).sum()
}
