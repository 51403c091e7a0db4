//! # The wgpu renderer
//!
//! [`Renderer`] draws a [`crate::present::DrawFrame`] (and a [`Hud`]) into any texture view:
//! the window's surface or an offscreen texture, one path for both. It reads nothing of the
//! simulation: the level (static geometry), the rig (skeleton and clips) and the frame are all
//! it knows.
//!
//! One file per pipeline, its WGSL beside it: [`ground`], [`buildings`], [`objects`],
//! [`taxis`], [`characters`] (with the [`skinning`] compute pass), [`shadow`], [`particles`],
//! [`labels`] and [`overlay`]; [`lights`] computes the sun, sky and point lights that every lit
//! shader reads through `lighting.wgsl`; [`meshes`] builds the mesh data; [`context`] finds a
//! GPU; [`offscreen`] draws without a window and reads pictures back.

pub mod buildings;
pub mod characters;
pub mod common;
pub mod context;
pub mod ground;
pub mod label_layout;
pub mod labels;
pub mod lights;
pub mod meshes;
pub mod objects;
pub mod offscreen;
pub mod overlay;
pub mod particles;
pub mod renderer;
pub mod shadow;
pub mod skinning;
pub mod taxis;
pub mod text;

pub use context::{GpuContext, GpuError};
pub use offscreen::OffscreenTarget;
pub use renderer::{CameraView, EFFECTS_PERIOD_S, Hud, Renderer, RendererError, RendererSetup};
pub use skinning::SkinningPath;
