//! The objects pipeline: doors, the lift and the sign, each kind one instanced draw of its
//! unit mesh, placed every frame at the transform and opacity the presentation interpolated
//! (`DrawFrame::objects`). Objects blend, so a fading sign or door shows what is behind it.

use fixstep_town::level::{Level, ObjectDefKind};
use glam::{Mat4, Quat, Vec3};

use crate::gpu::meshes::{
    DOOR_THICKNESS, GpuMesh, GrowBuffer, door_leaf_mesh, door_outward, lift_mesh, sign_mesh,
};
use crate::present::frame::ObjectDraw;
use fixstep_gpu::common::{LIT_VERTEX, LitPipeline, MODEL_INSTANCE, Shared, push_model_instance};
use fixstep_present::convert::{f, ground, radians, world};

/// How far in front of its wall a closed door leaf stands, metres: clear of the doorway quad
/// and the building's plinth.
const DOOR_STANDOFF: f32 = 0.12;

/// Kinds of object, in the order their instances are written.
const KINDS: usize = 3;

/// Each kind's placement that does not change: its pivot and the shape its unit mesh is
/// scaled and turned to.
#[derive(Clone, Copy, Debug)]
struct Placement {
    kind: usize,
    pivot: Vec3,
    shape: Mat4,
}

/// The objects' pipelines, meshes and instances.
#[derive(Debug)]
pub struct ObjectsPipeline {
    pipeline: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    meshes: [GpuMesh; KINDS],
    placements: Vec<Placement>,
    instances: GrowBuffer,
    data: Vec<f32>,
    ranges: [std::ops::Range<u32>; KINDS],
}

/// The model matrix of object `draw` (its placement moved, turned about its pivot and scaled).
fn model(placement: &Placement, draw: &ObjectDraw) -> Mat4 {
    Mat4::from_translation(placement.pivot + draw.offset)
        * Mat4::from_quat(draw.rotation)
        * Mat4::from_scale(Vec3::splat(draw.scale))
        * placement.shape
}

impl ObjectsPipeline {
    /// Builds the pipelines and the unit meshes, and places the level's objects.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared, level: &Level) -> Self {
        let module = shared.lit_module(device, "objects", include_str!("objects.wgsl"));
        let desc = LitPipeline {
            label: "objects",
            module: &module,
            buffers: &[Some(LIT_VERTEX), Some(MODEL_INSTANCE)],
            extra_groups: &[],
            blend: wgpu::BlendState::ALPHA_BLENDING,
            depth_write: true,
            cull: true,
        };
        let placements = level
            .objects
            .iter()
            .map(|object| match &object.kind {
                ObjectDefKind::Door(door) => {
                    let hinge = ground(door.hinge, 0.0);
                    let end = ground(door.leaf_end, 0.0);
                    let out = door_outward(level, door.building, hinge, end);
                    let along = (end - hinge).normalize_or_zero();
                    let length = hinge.distance(end);
                    let basis = Mat4::from_cols(
                        along.extend(0.0),
                        Vec3::Y.extend(0.0),
                        out.extend(0.0),
                        (out * (DOOR_STANDOFF + DOOR_THICKNESS / 2.0)).extend(1.0),
                    );
                    Placement {
                        kind: 0,
                        pivot: hinge,
                        shape: basis
                            * Mat4::from_scale(Vec3::new(length, f(door.height), DOOR_THICKNESS)),
                    }
                }
                ObjectDefKind::Lift(lift) => {
                    let a = ground(lift.footprint.min, 0.0);
                    let b = ground(lift.footprint.max, 0.0);
                    let size = (b - a).abs();
                    Placement {
                        kind: 1,
                        pivot: ground(lift.footprint.centre(), f(lift.bottom)),
                        shape: Mat4::from_scale(Vec3::new(size.x, 1.0, size.z)),
                    }
                }
                ObjectDefKind::Sign(sign) => Placement {
                    kind: 2,
                    pivot: world(sign.at),
                    shape: Mat4::from_quat(Quat::from_rotation_y(radians(sign.facing))),
                },
            })
            .collect();
        Self {
            pipeline: shared.lit_pipeline(device, &desc),
            shadow: shared.shadow_pipeline(device, &desc),
            meshes: [
                GpuMesh::new(device, "door leaf", &door_leaf_mesh()),
                GpuMesh::new(device, "lift", &lift_mesh()),
                GpuMesh::new(device, "sign", &sign_mesh()),
            ],
            placements,
            instances: GrowBuffer::new(
                device,
                "object instances",
                wgpu::BufferUsages::VERTEX,
                4096,
            ),
            data: Vec::new(),
            ranges: [0..0, 0..0, 0..0],
        }
    }

    /// Writes this frame's instances: every object at its interpolated transform and opacity,
    /// grouped by kind so each kind is one draw.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, objects: &[ObjectDraw]) {
        self.data.clear();
        let mut count = 0u32;
        for kind in 0..KINDS {
            let start = count;
            for draw in objects {
                let Some(placement) = self.placements.get(draw.index) else { continue };
                if placement.kind != kind || draw.opacity <= 0.0 {
                    continue;
                }
                push_model_instance(
                    &mut self.data,
                    model(placement, draw),
                    Vec3::ONE,
                    draw.opacity,
                );
                count += 1;
            }
            self.ranges[kind] = start..count;
        }
        self.instances.write(device, queue, bytemuck::cast_slice(&self.data));
    }

    fn draw_all(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(1, self.instances.buffer.slice(..));
        for (mesh, range) in self.meshes.iter().zip(&self.ranges) {
            mesh.draw(pass, range.clone());
        }
    }

    /// Draws the objects.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, scene, &[]);
        self.draw_all(pass);
    }

    /// Draws the objects into the shadow map.
    pub fn draw_shadow(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        pass.set_pipeline(&self.shadow);
        pass.set_bind_group(0, globals, &[]);
        self.draw_all(pass);
    }

    /// Draw calls of the latest frame (one per kind present).
    #[must_use]
    pub fn draw_calls(&self) -> usize {
        self.ranges.iter().filter(|r| !r.is_empty()).count()
    }
}
