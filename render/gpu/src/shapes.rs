//! A whole renderer for games drawn as shapes (`fixstep_present::shapes`): every piece of
//! scenery and every entity an instance of a unit cylinder or a unit box, scaled to its look
//! and tinted its colour, lit by the sun with shadows; the players' names over their pieces;
//! the game's status line at the top of the screen; and the HUD.

use fixstep_runtime::Player;
use std::path::Path;

use fixstep_present::convert::metres_of_mm;
use fixstep_present::shapes::{Look, SceneryDraw, Shape, ShapeFrame, ShapeKind};
use glam::{Mat4, Vec3};
use glyphon::Color;

use crate::common::{LIT_VERTEX, LitPipeline, MODEL_INSTANCE, Shared, push_model_instance};
use crate::lights::lighting_at;
use crate::meshes::{GpuMesh, GrowBuffer, MeshData, material, srgb};
use crate::overlay::{Layer, Overlay, Slot};
use crate::rects::ui_scale;
use crate::scene::{FrameLight, ScenePasses};
use crate::text::TextSystem;
use crate::{
    CameraView, EFFECTS_PERIOD_S, FrameRenderer, GpuContext, GpuError, Hud, INSTANCED_WGSL,
};

/// The time of day a shape game is lit at, a fraction of a day: mid-morning, the sun high
/// enough to light every side and low enough to cast shadows that show where pieces stand.
pub const SHAPES_TIME_OF_DAY: f32 = 0.42;

/// Sides of the unit cylinder: round enough at any size a shape game draws.
const CYLINDER_SEGMENTS: u32 = 32;

/// How far above a piece its player's name floats, metres above its top.
const NAME_LIFT_M: f32 = 0.6;

/// Names' and the status line's sizes, pixels at a 720-pixel-high screen.
const NAME_PX: f32 = 15.0;
const STATUS_PX: f32 = 22.0;

/// The gap above the status line, pixels at a 720-pixel-high screen.
const STATUS_TOP_PX: f32 = 14.0;

/// The opacity of the band behind the status line: dark enough to read white text over the
/// brightest floor, light enough to see the rink through.
const STATUS_BAND_ALPHA: f32 = 0.5;

/// The status line's colour: warm white.
const STATUS_COLOUR: Color = Color::rgb(250, 245, 225);

/// Players' names' colour: white on their dark band.
const NAME_COLOUR: Color = Color::rgb(255, 255, 255);

/// The local player's name: warm yellow, to find oneself at a glance. (It was light blue, and
/// on the pale-blue ice nobody could read it.)
const LOCAL_NAME_COLOUR: Color = Color::rgb(255, 214, 90);

/// The opacity of the band behind each name: as the status line's, so a name reads over ice,
/// boards and pieces alike.
const NAME_BAND_ALPHA: f32 = 0.5;

/// The margin round a name, inside its band and between two names, pixels at a 720-pixel-high
/// screen.
const NAME_PAD_PX: f32 = 3.0;

/// How many times a name moves up past names already placed before it stays where it is:
/// more than a bunch of a whole team (eight) ever needs.
const MAX_NAME_NUDGES: usize = 16;

/// A player's name as a frame places it, pixels.
#[derive(Clone, Copy, Debug)]
struct NameTag {
    slot: Slot,
    left: f32,
    top: f32,
    width: f32,
    height: f32,
    colour: Color,
    /// The local player's: placed first, over its own piece.
    local: bool,
}

impl NameTag {
    /// Whether the two names, each with `pad` round it, would cover each other.
    fn covers(&self, other: &Self, pad: f32) -> bool {
        self.left < other.left + other.width + pad
            && other.left < self.left + self.width + pad
            && self.top < other.top + other.height + pad
            && other.top < self.top + self.height + pad
    }
}

/// Places names so that none covers another: the local player's over its piece, then the rest
/// from the bottom of the screen up (the nearest pieces first), each moved up above any name
/// already placed that it would cover. Pieces bunched together then show their names
/// stacked, each readable.
fn place_names(tags: &mut [NameTag], pad: f32) {
    tags.sort_by(|a, b| b.local.cmp(&a.local).then(b.top.total_cmp(&a.top)));
    for i in 0..tags.len() {
        let (placed, rest) = tags.split_at_mut(i);
        let tag = &mut rest[0];
        for _ in 0..MAX_NAME_NUDGES {
            let Some(below) = placed.iter().find(|p| p.covers(tag, pad)) else { break };
            tag.top = below.top - tag.height - pad;
        }
    }
}

/// How much brighter the local player's piece is drawn than its kind's colour, as a factor:
/// enough to tell it from team mates of the same colour, not enough to change its team.
const LOCAL_BRIGHTEN: f32 = 1.25;

/// One unit mesh and its instances: the scenery's, written once, then this frame's pieces.
#[derive(Debug)]
struct Unit {
    mesh: GpuMesh,
    instances: GrowBuffer,
    data: Vec<f32>,
    count: u32,
    /// The scenery's share of `data` and `count`, kept from frame to frame.
    scenery: (usize, u32),
}

impl Unit {
    fn new(device: &wgpu::Device, label: &'static str, mesh: &MeshData) -> Self {
        Self {
            mesh: GpuMesh::new(device, label, mesh),
            instances: GrowBuffer::new(device, label, wgpu::BufferUsages::VERTEX, 4096),
            data: Vec::new(),
            count: 0,
            scenery: (0, 0),
        }
    }

    /// An instance of the unit scaled to `look`, standing at `at`, turned by `yaw`, its colour
    /// times `brighten`.
    fn push(&mut self, at: Vec3, yaw: f32, look: &Look, brighten: f32) {
        let [r, g, b] = look.colour;
        push_model_instance(&mut self.data, model(at, yaw, look), srgb(r, g, b) * brighten, 1.0);
        self.count += 1;
    }

    /// What is pushed so far is the scenery, which stays.
    fn keep_as_scenery(&mut self) {
        self.scenery = (self.data.len(), self.count);
    }

    /// Forgets the last frame's pieces, keeping the scenery.
    fn back_to_scenery(&mut self) {
        self.data.truncate(self.scenery.0);
        self.count = self.scenery.1;
    }

    fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(1, self.instances.buffer.slice(..));
        self.mesh.draw(pass, 0..self.count);
    }
}

/// The renderer of shape frames; see the [module documentation](self).
#[derive(Debug)]
pub struct ShapeRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    width: u32,
    height: u32,
    passes: ScenePasses,
    pipeline: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    cylinders: Unit,
    blocks: Unit,
    kinds: &'static [ShapeKind],
    text: TextSystem,
    overlay: Overlay,
    status: Slot,
    /// A name slot per player number, made when the player is first drawn, with the name
    /// drawn until the host says one (`player N`).
    names: Vec<(Slot, String)>,
    /// This frame's names as placed, kept for their room.
    tags: Vec<NameTag>,
    local_player: Option<Player>,
    /// The vertical field of view, radians.
    fov_y: f32,
    effects_seconds: f32,
}

/// The model matrix of `look` standing at `at`, turned by `yaw`.
fn model(at: Vec3, yaw: f32, look: &Look) -> Mat4 {
    let scale = match look.shape {
        Shape::Cylinder { radius_mm, height_mm } => {
            let r = metres_of_mm(radius_mm);
            Vec3::new(r, metres_of_mm(height_mm), r)
        }
        Shape::Block { size_mm } => Vec3::from_array(size_mm.map(metres_of_mm)),
    };
    // Boxes' length runs along their heading (x), their height up (y).
    Mat4::from_translation(at) * Mat4::from_rotation_y(yaw) * Mat4::from_scale(scale)
}

/// The height of `look`, metres.
fn height(look: &Look) -> f32 {
    match look.shape {
        Shape::Cylinder { height_mm, .. } => metres_of_mm(height_mm),
        Shape::Block { size_mm } => metres_of_mm(size_mm[1]),
    }
}

impl ShapeRenderer {
    /// A renderer into targets of `format` and `size`, of `scenery` and entities of `kinds`
    /// (by kind index), with the font of `assets`.
    ///
    /// # Errors
    ///
    /// If the font cannot be read.
    pub fn new(
        ctx: &GpuContext,
        format: wgpu::TextureFormat,
        size: (u32, u32),
        assets: &Path,
        scenery: &[SceneryDraw],
        kinds: &'static [ShapeKind],
    ) -> Result<Self, GpuError> {
        let device = &ctx.device;
        let shared = Shared::new(device, format);
        let module = shared.lit_module(device, "shapes", INSTANCED_WGSL);
        let desc = LitPipeline {
            label: "shapes",
            module: &module,
            buffers: &[Some(LIT_VERTEX), Some(MODEL_INSTANCE)],
            extra_groups: &[],
            blend: wgpu::BlendState::REPLACE,
            depth_write: true,
            cull: true,
        };
        let white = (Vec3::ONE, material::PLAIN);
        let mut cylinder = MeshData::lit();
        cylinder.cylinder_y(Vec3::ZERO, 1.0, (0.0, 1.0), CYLINDER_SEGMENTS, white, white);
        let mut block = MeshData::lit();
        block.cuboid(
            Mat4::IDENTITY,
            Vec3::new(-0.5, 0.0, -0.5),
            Vec3::new(0.5, 1.0, 0.5),
            white.0,
            white.1,
        );
        let mut text = TextSystem::new(ctx, format, assets)?;
        let mut overlay = Overlay::new(device, &ctx.queue, &mut text, assets.to_path_buf());
        let status = overlay.slot(&mut text);
        let (width, height) = (size.0.max(1), size.1.max(1));
        let mut cylinders = Unit::new(device, "shape cylinders", &cylinder);
        let mut blocks = Unit::new(device, "shape blocks", &block);
        for piece in scenery {
            let unit = match piece.look.shape {
                Shape::Cylinder { .. } => &mut cylinders,
                Shape::Block { .. } => &mut blocks,
            };
            unit.push(piece.at, piece.yaw, &piece.look, 1.0);
        }
        cylinders.keep_as_scenery();
        blocks.keep_as_scenery();
        Ok(Self {
            device: device.clone(),
            queue: ctx.queue.clone(),
            width,
            height,
            passes: ScenePasses::new(device, &shared, width, height),
            pipeline: shared.lit_pipeline(device, &desc),
            shadow: shared.shadow_pipeline(device, &desc),
            cylinders,
            blocks,
            kinds,
            text,
            overlay,
            status,
            names: Vec::new(),
            tags: Vec::new(),
            local_player: None,
            fov_y: crate::FIELD_OF_VIEW,
            effects_seconds: 0.0,
        })
    }

    fn prepare_instances(&mut self, frame: &ShapeFrame) {
        self.cylinders.back_to_scenery();
        self.blocks.back_to_scenery();
        for shape in &frame.shapes {
            let Some(kind) = self.kinds.get(usize::from(shape.kind)) else { continue };
            let unit = match kind.look.shape {
                Shape::Cylinder { .. } => &mut self.cylinders,
                Shape::Block { .. } => &mut self.blocks,
            };
            let mine = shape.player.is_some() && shape.player == self.local_player;
            let brighten = if mine { LOCAL_BRIGHTEN } else { 1.0 };
            unit.push(shape.sample.pos, shape.sample.yaw, &kind.look, brighten);
        }
        for unit in [&mut self.cylinders, &mut self.blocks] {
            unit.instances.write(&self.device, &self.queue, bytemuck::cast_slice(&unit.data));
        }
    }

    fn prepare_overlay(&mut self, frame: &ShapeFrame, camera: &CameraView, hud: &Hud) {
        self.overlay.begin(&self.queue, (self.width, self.height));
        let (w, h) = self.overlay.size();
        let ui = ui_scale(h);
        if !frame.status.is_empty() {
            let (tw, th) =
                self.overlay.text(&mut self.text, self.status, &frame.status, STATUS_PX * ui, None);
            let (left, top) = ((w - tw) / 2.0, STATUS_TOP_PX * ui);
            let pad = STATUS_TOP_PX * ui / 2.0;
            self.overlay.rect(
                Layer::Under,
                None,
                (left - pad, top - pad / 2.0, tw + pad * 2.0, th + pad),
                Vec3::ZERO,
                STATUS_BAND_ALPHA,
            );
            self.overlay.show(self.status, left, top, STATUS_COLOUR);
        }
        self.tags.clear();
        for shape in &frame.shapes {
            let Some(player) = shape.player else { continue };
            let Some(kind) = self.kinds.get(usize::from(shape.kind)) else { continue };
            let anchor = shape.sample.pos + Vec3::Y * (height(&kind.look) + NAME_LIFT_M);
            let Some((x, y, _)) = camera.project(anchor) else { continue };
            while self.names.len() <= player.index() {
                let slot = self.overlay.slot(&mut self.text);
                self.names.push((slot, format!("player {}", self.names.len())));
            }
            let (slot, untold) = &self.names[player.index()];
            let name = frame.player_names.get(player.index()).unwrap_or(untold);
            let (tw, th) = self.overlay.text(&mut self.text, *slot, name, NAME_PX * ui, None);
            let local = Some(player) == self.local_player;
            let colour = if local { LOCAL_NAME_COLOUR } else { NAME_COLOUR };
            self.tags.push(NameTag {
                slot: *slot,
                left: x - tw / 2.0,
                top: y - th,
                width: tw,
                height: th,
                colour,
                local,
            });
        }
        let pad = NAME_PAD_PX * ui;
        place_names(&mut self.tags, pad);
        for tag in &self.tags {
            let band =
                (tag.left - pad, tag.top - pad / 2.0, tag.width + pad * 2.0, tag.height + pad);
            self.overlay.rect(Layer::Under, None, band, Vec3::ZERO, NAME_BAND_ALPHA);
            self.overlay.show(tag.slot, tag.left, tag.top, tag.colour);
        }
        self.overlay.hud(&mut self.text, hud, None);
        self.overlay.finish(&self.device, &self.queue, &mut self.text);
    }
}

impl FrameRenderer for ShapeRenderer {
    type Frame = ShapeFrame;

    fn render(&mut self, view: &wgpu::TextureView, frame: &ShapeFrame, hud: &Hud) {
        let camera =
            CameraView::with_field_of_view(&frame.camera, self.width, self.height, self.fov_y);
        let lighting = lighting_at(SHAPES_TIME_OF_DAY);
        self.passes.write(
            &self.queue,
            &FrameLight {
                camera: &camera,
                lighting: &lighting,
                lights: &[],
                shadow_centre: frame.camera.shadow_centre,
                seconds: self.effects_seconds,
            },
        );
        self.prepare_instances(frame);
        self.text.resize(&self.queue, self.width, self.height);
        self.prepare_overlay(frame, &camera, hud);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("shapes") });
        {
            let mut pass = self.passes.shadow_pass(&mut encoder);
            pass.set_pipeline(&self.shadow);
            pass.set_bind_group(0, &self.passes.shadow_group, &[]);
            self.cylinders.draw(&mut pass);
            self.blocks.draw(&mut pass);
        }
        {
            let mut pass = self.passes.lit_pass(&mut encoder, view, lighting.fog);
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.passes.scene_group, &[]);
            self.cylinders.draw(&mut pass);
            self.blocks.draw(&mut pass);
        }
        {
            let mut pass = ScenePasses::overlay_pass(&mut encoder, view);
            self.overlay.draw(&mut pass, &self.text);
        }
        self.queue.submit([encoder.finish()]);
        self.text.trim();
    }

    fn resize(&mut self, width: u32, height: u32) {
        let (width, height) = (width.max(1), height.max(1));
        if (width, height) != (self.width, self.height) {
            self.width = width;
            self.height = height;
            self.passes.resize(width, height);
        }
    }

    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn advance_effects(&mut self, seconds: f32) {
        self.effects_seconds =
            fixstep_present::interp::wrapped_clock(self.effects_seconds, seconds, EFFECTS_PERIOD_S);
    }

    fn set_effects_clock(&mut self, seconds: f32) {
        self.effects_seconds = seconds.rem_euclid(EFFECTS_PERIOD_S);
    }

    fn set_local_player(&mut self, player: Option<Player>) {
        self.local_player = player;
    }

    fn set_field_of_view(&mut self, fov_y: f32) {
        self.fov_y = fov_y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(slot: usize, left: f32, top: f32, local: bool) -> NameTag {
        let colour = if local { LOCAL_NAME_COLOUR } else { NAME_COLOUR };
        NameTag { slot: Slot(slot), left, top, width: 60.0, height: 15.0, colour, local }
    }

    #[test]
    fn bunched_names_are_stacked_and_the_own_name_keeps_its_place() {
        // Four pieces bunched together, the local player's among them.
        let mut tags = [
            tag(0, 100.0, 200.0, false),
            tag(1, 110.0, 204.0, false),
            tag(2, 95.0, 198.0, true),
            tag(3, 300.0, 200.0, false),
        ];
        place_names(&mut tags, 3.0);
        let own = tags.iter().find(|t| t.local).expect("the own name");
        assert_eq!((own.left, own.top), (95.0, 198.0), "over its own piece");
        for (i, a) in tags.iter().enumerate() {
            for b in &tags[i + 1..] {
                assert!(!a.covers(b, 3.0), "{a:?} covers {b:?}");
            }
        }
        let far = tags.iter().find(|t| t.slot == Slot(3)).expect("the name apart");
        assert_eq!(far.top, 200.0, "a name that covers none stays");
    }
}
