//! Where this frame's labels go, without a GPU: each nearby character's name and health bar,
//! the nearest first and at most [`MAX_LABELS`], none behind a building; and the sign's text on
//! its board. The labels pipeline lays the texts out and draws what is placed here; the frame's
//! no-allocation test runs this as it is.

use fixstep_runtime::Player;
use fixstep_town::level::{Level, ObjectDefKind};
use fixstep_town::state::Role;
use glam::{Quat, Vec3};
use glyphon::Color;

use crate::gpu::meshes::{SIGN_BOARD, srgb};
use crate::present::frame::DrawFrame;
use fixstep_gpu::CameraView;
use fixstep_gpu::rects::{push_rect, ui_scale};
use fixstep_present::convert::{f, ground, radians, world};

/// Farthest a character's label is drawn, metres: beyond it names would be unreadable clutter.
pub const LABEL_MAX_DISTANCE: f32 = 40.0;

/// Most labels drawn at once (the nearest), so a crowd of a thousand costs a bounded amount.
pub const MAX_LABELS: usize = 48;

/// Height of a label's anchor above a character's feet, metres: just over the head.
pub const LABEL_HEIGHT: f32 = 2.0;

/// Font size of names at a 720-pixel-high screen, pixels.
pub const NAME_SIZE: f32 = 15.0;

/// Font size the sign's text is laid out at before it is scaled to the board, pixels.
pub const SIGN_SIZE: f32 = 48.0;

/// Farthest the sign's text is drawn, metres.
pub const SIGN_MAX_DISTANCE: f32 = 70.0;

/// Health bar size at a 720-pixel-high screen, pixels.
pub const BAR: (f32, f32) = (56.0, 6.0);

/// A solid box of the level that hides what is behind it: a building or a lift shaft.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Occluder {
    /// The corner with the least coordinates, world metres.
    pub min: Vec3,
    /// The corner with the greatest coordinates, world metres.
    pub max: Vec3,
}

/// The boxes of `level` that hide labels behind them: its buildings, full height.
#[must_use]
pub fn occluders(level: &Level) -> Vec<Occluder> {
    level
        .buildings
        .iter()
        .map(|b| {
            let (a, c) = (ground(b.footprint.min, 0.0), ground(b.footprint.max, f(b.height)));
            Occluder { min: a.min(c), max: a.max(c) }
        })
        .collect()
}

/// Whether the straight line from `eye` to `point` passes through any of `boxes` (a slab
/// test per box): a label there is behind a wall, as the player sees it.
#[must_use]
pub fn hidden_behind(eye: Vec3, point: Vec3, boxes: &[Occluder]) -> bool {
    let d = point - eye;
    boxes.iter().any(|b| {
        let (mut near, mut far) = (0.0_f32, 1.0_f32);
        for axis in 0..3 {
            let (o, v, lo, hi) = (eye[axis], d[axis], b.min[axis], b.max[axis]);
            if v.abs() < 1e-9 {
                if o < lo || o > hi {
                    return false;
                }
                continue;
            }
            let (t0, t1) = ((lo - o) / v, (hi - o) / v);
            near = near.max(t0.min(t1));
            far = far.min(t0.max(t1));
            if near > far {
                return false;
            }
        }
        true
    })
}

/// Which text a placed label shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A character's name, by who it is.
    Name(Role),
    /// The text of the level's `n`th sign.
    Sign(usize),
}

/// A text placed on the screen this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// What it says.
    pub source: Source,
    /// Its left edge, pixels.
    pub left: f32,
    /// Its top edge, pixels.
    pub top: f32,
    /// Its scale (1 is laid-out size).
    pub scale: f32,
    /// Its colour.
    pub colour: Color,
}

/// Where a sign's text goes: its board, and the width of its laid-out text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignSpot {
    /// The sign's object index.
    pub object: usize,
    /// The board's centre at rest, world metres.
    pub at: Vec3,
    /// The board's facing, radians.
    pub facing: f32,
    /// The laid-out text's width at [`SIGN_SIZE`], pixels.
    pub width: f32,
}

/// This frame's placed texts and bar rectangles; see the [module documentation](self).
#[derive(Clone, Debug, Default)]
pub struct LabelLayout {
    /// The texts placed, far ones first.
    pub placed: Vec<Placed>,
    /// The bars' rectangles, eight floats each (see `push_rect`).
    pub rect_data: Vec<f32>,
    order: Vec<(f32, usize)>,
    occluders: Vec<Occluder>,
    signs: Vec<SignSpot>,
}

impl LabelLayout {
    /// The layout of `level`'s labels, with its signs' text widths from `sign_width` (by
    /// object index).
    #[must_use]
    pub fn new(level: &Level, sign_width: impl Fn(usize) -> f32) -> Self {
        let signs = level
            .objects
            .iter()
            .enumerate()
            .filter_map(|(object, def)| match &def.kind {
                ObjectDefKind::Sign(sign) => Some(SignSpot {
                    object,
                    at: world(sign.at),
                    facing: radians(sign.facing),
                    width: sign_width(object),
                }),
                _ => None,
            })
            .collect();
        Self { occluders: occluders(level), signs, ..Self::default() }
    }

    /// The signs, in the order [`Source::Sign`] counts them.
    #[must_use]
    pub fn signs(&self) -> &[SignSpot] {
        &self.signs
    }

    /// Places the labels of `frame` seen through `camera`; `width_of` gives each character's
    /// laid-out name width at [`NAME_SIZE`] (pixels). Allocates nothing once its buffers have
    /// grown.
    pub fn place(
        &mut self,
        frame: &DrawFrame,
        camera: &CameraView,
        local_player: Option<Player>,
        width_of: &impl Fn(Role) -> f32,
    ) {
        self.rect_data.clear();
        self.placed.clear();
        // During a cutscene the picture is the story's: no labels.
        if frame.cutscene.is_some() {
            return;
        }
        let ui = ui_scale(camera.height);
        self.place_signs(frame, camera);
        self.place_characters(frame, camera, local_player, ui, width_of);
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
            if hidden_behind(camera.eye, front, &self.occluders) {
                continue;
            }
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
        frame: &DrawFrame,
        camera: &CameraView,
        local_player: Option<Player>,
        ui: f32,
        width_of: &impl Fn(Role) -> f32,
    ) {
        self.order.clear();
        for (i, c) in frame.characters.iter().enumerate() {
            let d = c.sample.pos.distance(camera.eye);
            if d <= LABEL_MAX_DISTANCE {
                self.order.push((d, i));
            }
        }
        // Unstable: a stable sort of a crowd would allocate every frame.
        self.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.order.truncate(MAX_LABELS);
        // Far labels first, so near ones are drawn over them.
        for &(distance, i) in self.order.iter().rev() {
            let c = &frame.characters[i];
            let anchor = c.sample.pos + Vec3::Y * LABEL_HEIGHT;
            let Some((x, y, _)) = camera.project(anchor) else {
                continue;
            };
            if hidden_behind(camera.eye, anchor, &self.occluders) {
                continue;
            }
            if x < -100.0 || y < -100.0 || x > camera.width + 100.0 || y > camera.height + 100.0 {
                continue;
            }
            let role = c.role;
            let width = width_of(role);
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
}
