//! # fixstep-gpu
//!
//! The wgpu side of Fixstep: the pieces a game's renderer is built from, and a whole renderer
//! for games drawn as shapes. A renderer draws a frame description it is given into any
//! texture view, the window's surface or an offscreen texture, one path for both
//! ([`FrameRenderer`]); it reads nothing of the simulation.
//!
//! - [`context`] finds a GPU (or says in one line why there is none); [`offscreen`] draws
//!   without a window and reads pictures back.
//! - [`common`] holds what every lit pipeline shares (formats, bind group layouts, vertex
//!   layouts, lit and shadow variants from one shader); [`lights`] computes the sun and sky of
//!   a time of day and writes the uniforms `lighting.wgsl` reads; [`shadow`] is the sun's
//!   shadow map; [`scene`] the depth buffer, uniforms and passes of a frame.
//! - [`meshes`] builds mesh data on the CPU (boxes, cylinders, quads) and holds it on the GPU;
//!   [`INSTANCED_WGSL`] draws instances of a mesh by model matrix and tint.
//! - [`skinning`] poses skinned characters on the GPU (or the CPU); [`particles`] draws
//!   glowing points.
//! - [`text`] sets text with the font the assets ship; [`rects`] draws flat rectangles;
//!   [`overlay`] draws what lies flat over the picture, the [`Hud`] among it.
//! - [`shapes`] is a complete renderer of `fixstep-present`'s shape frames.
//! - [`testing`] is what every renderer's image tests share: a GPU or a reason to skip, and
//!   pictures compared with references within a tolerance.
//!
//! Drawing an empty shape frame offscreen and reading the picture back (on a machine with no
//! GPU at all, the context says why and the example stops there):
//!
//! ```
//! use fixstep_gpu::{FrameRenderer, GpuContext, Hud, OffscreenTarget};
//! use fixstep_gpu::shapes::ShapeRenderer;
//! use fixstep_present::shapes::ShapeFrame;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let Ok(ctx) = GpuContext::headless() else { return Ok(()) };
//! let target = OffscreenTarget::new(&ctx.device, 320, 180, fixstep_gpu::offscreen::OFFSCREEN_FORMAT);
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let mut renderer = ShapeRenderer::new(&ctx, target.format, (320, 180), assets, &[], &[])?;
//! renderer.render(&target.view, &ShapeFrame::default(), &Hud::default());
//! let picture = target.read_image(&ctx.device, &ctx.queue)?;
//! assert_eq!(picture.dimensions(), (320, 180));
//! # Ok(())
//! # }
//! ```

pub mod common;
pub mod context;
mod hud;
pub mod lights;
pub mod meshes;
pub mod offscreen;
pub mod overlay;
pub mod particles;
pub mod rects;
pub mod scene;
pub mod shadow;
pub mod shapes;
pub mod skinning;
pub mod testing;
pub mod text;

use fixstep_present::CameraDraw;
use fixstep_runtime::Player;
use glam::{Mat4, Vec3, Vec4Swizzles as _};

/// The wgpu this crate draws with, so a game's renderer names the same types.
pub use wgpu;

pub use context::{GpuContext, GpuError};
pub use hud::{
    Agreement, DesyncCount, HostChange, HostingLine, Hud, NetworkLine, PlayingLine, ReplayLine,
    match_clock, speed_words,
};
pub use offscreen::OffscreenTarget;
pub use skinning::SkinningPath;

/// The shader of instanced lit meshes: each instance a model matrix and a tint
/// (`common::MODEL_INSTANCE`), appended to `lighting.wgsl` by `common::Shared::lit_module`.
pub const INSTANCED_WGSL: &str = include_str!("instanced.wgsl");

/// Vertical field of view, radians (55°): a natural third-person view.
pub const FIELD_OF_VIEW: f32 = 0.96;

/// Near plane, metres: the camera comes no closer than 3 m to the player.
pub const NEAR_PLANE: f32 = 0.3;

/// Far plane, metres: past the whole town and its fields seen from any corner.
pub const FAR_PLANE: f32 = 900.0;

/// The shimmer clock wraps after this many seconds (an hour), so it keeps its precision in a
/// long session; every shimmer's period divides it.
pub const EFFECTS_PERIOD_S: f32 = 3600.0;

/// The shimmer clock of a picture drawn at `render_tick`: the tick's own time, wrapped at
/// [`EFFECTS_PERIOD_S`], so a picture of a tick is the same every time.
#[must_use]
pub fn effects_clock_at(render_tick: f64) -> f32 {
    (render_tick * fixstep_present::convert::TICK_SECONDS).rem_euclid(f64::from(EFFECTS_PERIOD_S))
        as f32
}

/// Draws a game's frames into a texture view: the window's surface or an offscreen target.
pub trait FrameRenderer {
    /// What it draws: the presentation's frame.
    type Frame;

    /// Draws `frame` and `hud` into `view` (of the renderer's format and size) and submits
    /// the work.
    fn render(&mut self, view: &wgpu::TextureView, frame: &Self::Frame, hud: &Hud);

    /// Draws at a new size from the next frame on (a zero size is kept at one pixel).
    fn resize(&mut self, width: u32, height: u32);

    /// The size drawn, pixels.
    fn size(&self) -> (u32, u32);

    /// Advances the clock of things that only shimmer by a frame of `seconds` of real time.
    fn advance_effects(&mut self, seconds: f32) {
        let _ = seconds;
    }

    /// Sets the shimmer clock, so that a picture comes out the same every time (see
    /// [`effects_clock_at`]).
    fn set_effects_clock(&mut self, seconds: f32) {
        let _ = seconds;
    }

    /// Highlights player `player`'s character as the local player's own (or nobody's).
    fn set_local_player(&mut self, player: Option<Player>) {
        let _ = player;
    }

    /// Draws with a vertical field of view of `fov_y` radians from the next frame on (the
    /// player's setting; [`FIELD_OF_VIEW`] until told).
    fn set_field_of_view(&mut self, fov_y: f32) {
        let _ = fov_y;
    }
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
    /// The camera of `camera` on a `width` × `height` target, with the default
    /// [`FIELD_OF_VIEW`].
    #[must_use]
    pub fn new(camera: &CameraDraw, width: u32, height: u32) -> Self {
        Self::with_field_of_view(camera, width, height, FIELD_OF_VIEW)
    }

    /// The same with a vertical field of view of `fov_y` radians (the player's setting).
    #[must_use]
    pub fn with_field_of_view(camera: &CameraDraw, width: u32, height: u32, fov_y: f32) -> Self {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        let forward = (camera.target - camera.eye).normalize_or(Vec3::NEG_Z);
        let up_hint = if forward.y.abs() > 0.999 { Vec3::NEG_Z } else { Vec3::Y };
        let view = glam::camera::rh::view::look_at_mat4(camera.eye, camera.target, up_hint);
        // Near and far swapped: reversed depth (see `common::SCENE_DEPTH_COMPARE`).
        let proj =
            glam::camera::rh::proj::directx::perspective(fov_y, w / h, FAR_PLANE, NEAR_PLANE);
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
