//! # The town's wgpu renderer
//!
//! [`TownRenderer`] draws a [`DrawFrame`](crate::DrawFrame) (and a HUD) into any texture
//! view: the window's surface or an offscreen texture, one path for both. It reads nothing of
//! the simulation: the level (static geometry), the rig (skeleton and clips) and the frame
//! are all it knows.
//!
//! One file per pipeline, its WGSL beside it: [`ground`], [`buildings`], [`objects`],
//! [`taxis`] and [`characters`] (skinned by `fixstep-gpu`'s skinning pass), with the stars
//! drawn by `fixstep-gpu`'s particles; [`labels`] draws names, health bars and the sign's text
//! where [`label_layout`] places them; [`story`] draws the dialogue box and cutscenes into the
//! overlay; [`lights`] gives the town's lamps and headlights; [`meshes`] builds the town's
//! mesh data.

pub mod buildings;
pub mod characters;
pub mod ground;
pub mod label_layout;
pub mod labels;
pub mod lights;
pub mod meshes;
pub mod objects;
pub mod renderer;
pub mod story;
pub mod taxis;

pub use renderer::{RendererSetup, TownRenderer};
