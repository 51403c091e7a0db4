//! The town's story over the picture: the dialogue box with its typewriter text
//! (`DrawFrame::dialogue`), and a cutscene's letterbox, images at their poses, subtitle and
//! black fade (`DrawFrame::cutscene`), drawn into the overlay of `fixstep-gpu`.

use fixstep_gpu::meshes::srgb;
use fixstep_gpu::overlay::{Layer, Overlay, Slot};
use fixstep_gpu::rects::ui_scale;
use fixstep_gpu::text::TextSystem;
use glam::Vec3;
use glyphon::Color;

use crate::present::frame::{CutsceneDraw, DialogueDraw, DrawFrame};

/// Height of each cutscene letterbox bar, fraction of the screen height.
pub const LETTERBOX: f32 = 0.09;

/// The dialogue box's left edge and width, fractions of the screen width: centred, wide enough
/// for a long line in two rows.
const DIALOGUE_LEFT: f32 = 0.14;
const DIALOGUE_WIDTH: f32 = 0.72;

/// The dialogue box's height, and its gap above the bottom of the screen, pixels at a
/// 720-pixel-high screen: room for three rows of the line's text and the hint.
const DIALOGUE_HEIGHT_PX: f32 = 118.0;
const DIALOGUE_BOTTOM_GAP_PX: f32 = 28.0;

/// The padding inside the dialogue box, pixels at a 720-pixel-high screen.
const DIALOGUE_PAD_PX: f32 = 16.0;

/// The width of the box's gold frame, pixels at a 720-pixel-high screen.
const DIALOGUE_FRAME_PX: f32 = 2.0;

/// The speaker's name plate above the box: its height, its rise above the box, and the
/// padding round the name, pixels at a 720-pixel-high screen.
const PLATE_HEIGHT_PX: f32 = 28.0;
const PLATE_RISE_PX: f32 = 30.0;
const PLATE_PAD_PX: f32 = 8.0;

/// The top of the speaker's name above the box, pixels at a 720-pixel-high screen: its
/// letters sit in the middle of the plate.
const SPEAKER_RISE_PX: f32 = 27.0;

/// Text sizes, pixels at a 720-pixel-high screen: the speaker, the line, the hint, the
/// subtitle.
const SPEAKER_PX: f32 = 18.0;
const LINE_PX: f32 = 20.0;
const HINT_PX: f32 = 14.0;
const SUBTITLE_PX: f32 = 22.0;

/// The hint's rise above the box's bottom, pixels at a 720-pixel-high screen.
const HINT_RISE_PX: f32 = 24.0;

/// The widest a subtitle is set, a fraction of the screen width.
const SUBTITLE_WIDTH: f32 = 0.8;

/// The aspect a cutscene image that cannot be loaded is drawn at (a grey card in its place).
const MISSING_IMAGE_ASPECT: f32 = 1.4;

/// What the dialogue box says when its line is fully shown.
const NEXT_HINT: &str = "F: next";

/// The overlay's text slots of the story.
#[derive(Clone, Copy, Debug)]
pub struct Story {
    speaker: Slot,
    line: Slot,
    hint: Slot,
    subtitle: Slot,
}

impl Story {
    /// The story's slots in `overlay`.
    pub fn new(overlay: &mut Overlay, text: &mut TextSystem) -> Self {
        Self {
            speaker: overlay.slot(text),
            line: overlay.slot(text),
            hint: overlay.slot(text),
            subtitle: overlay.slot(text),
        }
    }

    /// Draws `frame`'s cutscene, or else its dialogue, into `overlay`.
    pub fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        overlay: &mut Overlay,
        text: &mut TextSystem,
        frame: &DrawFrame,
    ) {
        if let Some(cutscene) = &frame.cutscene {
            self.cutscene(device, queue, overlay, text, cutscene);
        } else if let Some(dialogue) = &frame.dialogue {
            self.dialogue(overlay, text, dialogue);
        }
    }

    fn cutscene(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        overlay: &mut Overlay,
        text: &mut TextSystem,
        cutscene: &CutsceneDraw,
    ) {
        let (w, h) = overlay.size();
        let ui = ui_scale(h);
        let bar = h * LETTERBOX;
        overlay.rect(Layer::Under, None, (0.0, 0.0, w, bar), Vec3::ZERO, 1.0);
        overlay.rect(Layer::Under, None, (0.0, h - bar, w, bar), Vec3::ZERO, 1.0);
        for image in &cutscene.images {
            let name: &str = &image.image;
            let aspect = overlay.image(device, queue, name);
            let ih = image.scale * h;
            let iw = ih * aspect.unwrap_or(MISSING_IMAGE_ASPECT);
            let (cx, cy) = (image.centre[0] * w, image.centre[1] * h);
            let rect = (cx - iw / 2.0, cy - ih / 2.0, iw, ih);
            match aspect {
                Some(_) => overlay.rect(Layer::Under, Some(name), rect, Vec3::ONE, image.opacity),
                None => overlay.rect(Layer::Under, None, rect, Vec3::splat(0.3), image.opacity),
            }
        }
        if let Some(subtitle) = &cutscene.subtitle {
            let size = SUBTITLE_PX * ui;
            let (tw, th) =
                overlay.text(text, self.subtitle, subtitle, size, Some(w * SUBTITLE_WIDTH));
            let top = h - bar / 2.0 - th / 2.0;
            overlay.show(self.subtitle, (w - tw) / 2.0, top, Color::rgb(255, 250, 230));
        }
        overlay.rect(Layer::Over, None, (0.0, 0.0, w, h), Vec3::ZERO, cutscene.fade);
    }

    fn dialogue(&self, overlay: &mut Overlay, text: &mut TextSystem, dialogue: &DialogueDraw) {
        let (w, h) = overlay.size();
        let ui = ui_scale(h);
        let (bx, bw) = (w * DIALOGUE_LEFT, w * DIALOGUE_WIDTH);
        let bh = DIALOGUE_HEIGHT_PX * ui;
        let by = h - bh - DIALOGUE_BOTTOM_GAP_PX * ui;
        let pad = DIALOGUE_PAD_PX * ui;
        let edge = DIALOGUE_FRAME_PX * ui;
        overlay.rect(
            Layer::Under,
            None,
            (bx - edge, by - edge, bw + 2.0 * edge, bh + 2.0 * edge),
            srgb(210, 180, 110),
            0.9,
        );
        overlay.rect(Layer::Under, None, (bx, by, bw, bh), srgb(16, 20, 40), 0.88);
        let (sw, _) = overlay.text(text, self.speaker, &dialogue.speaker, SPEAKER_PX * ui, None);
        let plate_pad = PLATE_PAD_PX * ui;
        let plate = (
            bx + pad - plate_pad,
            by - PLATE_RISE_PX * ui,
            sw + 2.0 * plate_pad,
            PLATE_HEIGHT_PX * ui,
        );
        overlay.show(self.speaker, bx + pad, by - SPEAKER_RISE_PX * ui, Color::rgb(255, 214, 120));
        overlay.rect(Layer::Under, None, plate, srgb(16, 20, 40), 0.92);
        overlay.text(text, self.line, dialogue.shown(), LINE_PX * ui, Some(bw - 2.0 * pad));
        overlay.show(self.line, bx + pad, by + pad, Color::rgb(240, 240, 245));
        if dialogue.shown_chars >= dialogue.text.chars().count() {
            let (hw, _) = overlay.text(text, self.hint, NEXT_HINT, HINT_PX * ui, None);
            let at = (bx + bw - hw - pad, by + bh - HINT_RISE_PX * ui);
            overlay.show(self.hint, at.0, at.1, Color::rgb(210, 180, 110));
        }
    }
}
