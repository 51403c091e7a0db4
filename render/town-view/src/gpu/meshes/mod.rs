//! The town's meshes, built on the CPU from the level and the rig with `fixstep-gpu`'s
//! primitives: the ground and streets and the static town (`town`: buildings with their
//! doorways, lamp posts, the lift's shaft, the sign's posts, the fountain), the unit meshes
//! that instances place (`objects`: door leaf, lift platform, sign board; `taxi`: body and
//! wheel), and the skinned character, a box per bone (`character`).

mod character;
mod objects;
mod taxi;
mod town;

pub use character::{character_mesh, part};
pub use fixstep_gpu::meshes::{
    GpuMesh, GrowBuffer, LIT_FLOATS, MeshData, SKIN_FLOATS, disc, material, srgb, strip,
};
pub use objects::{
    DOOR_THICKNESS, LIFT_THICKNESS, SIGN_BOARD, door_leaf_mesh, door_outward, lift_mesh, sign_mesh,
};
pub use taxi::{WHEEL_POSITIONS, WHEEL_RADIUS, taxi_body_mesh, wheel_mesh};
pub use town::{ROAD_WIDTH, SIDEWALK_WIDTH, ground_mesh, streets, town_mesh};
