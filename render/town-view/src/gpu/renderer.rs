//! The town's renderer: one [`TownRenderer`] owns every pipeline and per-frame buffer, and draws a
//! [`DrawFrame`] (the presentation's output, and its only input) with a [`Hud`] into any
//! texture view it is given: the window's surface or an offscreen texture, one path for both.
//!
//! A frame is: the skinning compute pass; the shadow pass (the static town, objects, taxis and
//! characters seen from the sun, centred on the interpolated player); the lit pass (ground,
//! town, taxis, characters, objects, star particles, with depth); and the overlay pass (name
//! labels and health bars, then the dialogue box, cutscene images, subtitles and fades, and
//! the HUD).

use fixstep_runtime::Player;
use std::path::PathBuf;
use std::sync::Arc;

use fixstep_gpu::common::Shared;
use fixstep_gpu::lights::{Lighting, PointLight, lighting_at};
use fixstep_gpu::overlay::Overlay;
use fixstep_gpu::particles::ParticlesPipeline;
use fixstep_gpu::scene::{FrameLight, ScenePasses};
use fixstep_gpu::skinning::SkinningPath;
use fixstep_gpu::text::TextSystem;
use fixstep_gpu::{CameraView, EFFECTS_PERIOD_S, FrameRenderer, GpuContext, GpuError, Hud};
use fixstep_present::skinning::Rig;
use fixstep_town::level::Level;

use super::buildings::BuildingsPipeline;
use super::characters::CharactersPipeline;
use super::ground::GroundPipeline;
use super::labels::LabelsPipeline;
use super::lights::point_lights;
use super::objects::ObjectsPipeline;
use super::story::Story;
use super::taxis::TaxisPipeline;
use crate::present::frame::DrawFrame;

/// What a renderer is built for.
#[derive(Clone, Debug)]
pub struct RendererSetup {
    /// The level drawn.
    pub level: Arc<Level>,
    /// The characters' skeleton and clips.
    pub rig: Arc<Rig>,
    /// The assets root (font; cutscene images the level does not keep in its files).
    pub assets: PathBuf,
    /// Format of the views it draws into (an sRGB format: shading is in linear light).
    pub format: wgpu::TextureFormat,
    /// Initial size, pixels.
    pub width: u32,
    /// Initial size, pixels.
    pub height: u32,
}

/// Draws frames of one level of the town.
#[derive(Debug)]
pub struct TownRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    level: Arc<Level>,
    width: u32,
    height: u32,
    passes: ScenePasses,
    ground: GroundPipeline,
    buildings: BuildingsPipeline,
    objects: ObjectsPipeline,
    taxis: TaxisPipeline,
    characters: CharactersPipeline,
    particles: ParticlesPipeline,
    labels: LabelsPipeline,
    overlay: Overlay,
    story: Story,
    text: TextSystem,
    lights: Vec<PointLight>,
    /// Where bone matrices come from (GPU keyframes by default).
    pub skinning: SkinningPath,
    /// The local player, whose character is highlighted and whose label is drawn first.
    pub local_player: Option<Player>,
    /// The vertical field of view, radians.
    fov_y: f32,
    /// Seconds on the clock of things that only shimmer (water, the teleport pads' pulse, the
    /// stars' twinkle), within [`EFFECTS_PERIOD_S`]: the window advances it with real time
    /// ([`Renderer::advance_effects`]); a picture sets it ([`Renderer::set_effects_clock`]), so
    /// the same picture comes out every time.
    effects_seconds: f32,
}

impl TownRenderer {
    /// Builds every pipeline and the level's meshes.
    ///
    /// # Errors
    ///
    /// If the font in the assets cannot be read.
    pub fn new(ctx: &GpuContext, setup: &RendererSetup) -> Result<Self, GpuError> {
        let device = &ctx.device;
        let shared = Shared::new(device, setup.format);
        let mut text = TextSystem::new(ctx, setup.format, &setup.assets)?;
        let mut overlay = Overlay::new(device, &ctx.queue, &mut text, setup.assets.clone());
        // The cutscenes' images come with the level: it draws them without the assets.
        overlay.use_content_files(Arc::clone(&setup.level.files));
        let story = Story::new(&mut overlay, &mut text);
        let level = &setup.level;
        Ok(Self {
            device: ctx.device.clone(),
            queue: ctx.queue.clone(),
            level: Arc::clone(level),
            width: setup.width.max(1),
            height: setup.height.max(1),
            passes: ScenePasses::new(device, &shared, setup.width, setup.height),
            ground: GroundPipeline::new(device, &shared, level),
            buildings: BuildingsPipeline::new(device, &shared, level),
            objects: ObjectsPipeline::new(device, &shared, level),
            taxis: TaxisPipeline::new(device, &shared),
            characters: CharactersPipeline::new(device, &shared, Arc::clone(&setup.rig)),
            particles: ParticlesPipeline::new(device, &shared),
            labels: LabelsPipeline::new(device, &mut text, level),
            overlay,
            story,
            text,
            lights: Vec::new(),
            skinning: SkinningPath::default(),
            local_player: Some(Player(0)),
            fov_y: fixstep_gpu::FIELD_OF_VIEW,
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
            fixstep_present::interp::wrapped_clock(self.effects_seconds, seconds, EFFECTS_PERIOD_S);
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
            self.passes.resize(width, height);
        }
    }

    /// The camera `frame` is drawn with at the current size.
    #[must_use]
    pub fn camera(&self, frame: &DrawFrame) -> CameraView {
        CameraView::with_field_of_view(&frame.camera, self.width, self.height, self.fov_y)
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
        let camera = self.camera(frame);
        let lighting = lighting_at(frame.time_of_day);
        point_lights(
            &self.level,
            &frame.taxis,
            lighting.night,
            frame.camera.target,
            &mut self.lights,
        );
        self.passes.write(
            queue,
            &FrameLight {
                camera: &camera,
                lighting: &lighting,
                lights: &self.lights,
                shadow_centre: frame.camera.shadow_centre,
                seconds: self.effects_seconds,
            },
        );
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
        self.overlay.begin(queue, (self.width, self.height));
        self.story.prepare(device, queue, &mut self.overlay, &mut self.text, frame);
        self.overlay.hud(&mut self.text, hud, Some(frame.time_of_day));
        self.overlay.finish(device, queue, &mut self.text);

        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        self.characters.dispatch(&mut encoder, self.skinning);
        {
            let mut pass = self.passes.shadow_pass(&mut encoder);
            if lighting.sun_strength > 0.0 {
                let group = &self.passes.shadow_group;
                self.buildings.draw_shadow(&mut pass, group);
                self.objects.draw_shadow(&mut pass, group);
                self.taxis.draw_shadow(&mut pass, group);
                self.characters.draw_shadow(&mut pass, group);
            }
        }
        {
            let mut pass = self.passes.lit_pass(&mut encoder, view, lighting.fog);
            let group = &self.passes.scene_group;
            self.ground.draw(&mut pass, group);
            self.buildings.draw(&mut pass, group);
            self.taxis.draw(&mut pass, group);
            self.characters.draw(&mut pass, group);
            self.objects.draw(&mut pass, group);
            self.particles.draw(&mut pass, group);
        }
        {
            let mut pass = ScenePasses::overlay_pass(&mut encoder, view);
            self.labels.draw(&mut pass, &self.text);
            self.overlay.draw(&mut pass, &self.text);
        }
        queue.submit([encoder.finish()]);
        self.text.trim();
    }
}

impl FrameRenderer for TownRenderer {
    type Frame = DrawFrame;

    fn render(&mut self, view: &wgpu::TextureView, frame: &DrawFrame, hud: &Hud) {
        Self::render(self, view, frame, hud);
    }

    fn resize(&mut self, width: u32, height: u32) {
        Self::resize(self, width, height);
    }

    fn size(&self) -> (u32, u32) {
        Self::size(self)
    }

    fn advance_effects(&mut self, seconds: f32) {
        Self::advance_effects(self, seconds);
    }

    fn set_effects_clock(&mut self, seconds: f32) {
        Self::set_effects_clock(self, seconds);
    }

    fn set_local_player(&mut self, player: Option<Player>) {
        self.local_player = player;
    }

    fn set_field_of_view(&mut self, fov_y: f32) {
        self.fov_y = fov_y;
    }
}
