//! The characters pipeline: the skinned character mesh (a box per bone of the rig), all
//! characters in one instanced draw, posed by [`Skinning`] (GPU keyframes at the fractional
//! frame, or the CPU's `Rig::pose`).

use fixstep_runtime::Player;
use std::sync::Arc;

use fixstep_town::level::Level;
use fixstep_town::state::Role;
use glam::Vec3;

use crate::gpu::meshes::{GpuMesh, GrowBuffer, character_mesh, srgb};
use crate::present::frame::CharacterDraw;
use fixstep_gpu::common::{LitPipeline, Shared};
use fixstep_gpu::skinning::{Skinning, SkinningPath};
use fixstep_present::skinning::Rig;

/// A skinned vertex: position, normal, body part, bone.
const SKIN_VERTEX: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 32,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32, 3 => Uint32
    ],
};

/// A character instance: place and facing, shirt and skin tone, trousers and highlight.
const CHARACTER_INSTANCE: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 48,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![4 => Float32x4, 5 => Float32x4, 6 => Float32x4],
};

/// Shirts of characters that are not players, chosen by id.
const SHIRTS: [(u8, u8, u8); 8] = [
    (200, 60, 50),
    (60, 150, 80),
    (230, 170, 40),
    (150, 80, 170),
    (240, 240, 235),
    (60, 160, 170),
    (210, 110, 150),
    (120, 120, 130),
];

/// Trousers of characters that are not players.
const TROUSERS: [(u8, u8, u8); 4] = [(50, 60, 90), (70, 60, 50), (40, 40, 45), (110, 100, 80)];

/// The colours of a character: shirt, trousers, skin tone (0 light to 1 dark).
#[must_use]
pub fn character_colours(character: &CharacterDraw, level: &Level) -> (Vec3, Vec3, f32) {
    let k = character.id.index as usize;
    let tone = [0.05, 0.3, 0.6, 0.9][k.wrapping_mul(7) % 4];
    if let Some(player) = character.player() {
        let shirts = [(40, 110, 230), (230, 90, 30), (40, 190, 120), (220, 60, 160)];
        let (r, g, b) = shirts[player.index() % shirts.len()];
        return (srgb(r, g, b), srgb(40, 44, 60), tone);
    }
    let mayor = matches!(character.role, Role::Talker(i)
        if level.talkers.get(i as usize).is_some_and(|t| t.name.as_ref() == "Mayor"));
    if mayor {
        return (srgb(110, 30, 50), srgb(30, 30, 36), 0.3);
    }
    let (r, g, b) = SHIRTS[k % SHIRTS.len()];
    let (tr, tg, tb) = TROUSERS[(k / 3) % TROUSERS.len()];
    (srgb(r, g, b), srgb(tr, tg, tb), tone)
}

/// The characters' pipelines, mesh, instances and skinning.
#[derive(Debug)]
pub struct CharactersPipeline {
    pipeline: wgpu::RenderPipeline,
    shadow: wgpu::RenderPipeline,
    mesh: GpuMesh,
    /// The skinning pass and bone matrices.
    pub skinning: Skinning,
    rig: Arc<Rig>,
    instances: GrowBuffer,
    data: Vec<f32>,
    count: u32,
}

impl CharactersPipeline {
    /// Builds the pipelines, the rig's mesh and its skinning.
    #[must_use]
    pub fn new(device: &wgpu::Device, shared: &Shared, rig: Arc<Rig>) -> Self {
        let skinning = Skinning::new(device, &rig);
        let module = shared.lit_module(device, "characters", include_str!("characters.wgsl"));
        let desc = LitPipeline {
            label: "characters",
            module: &module,
            buffers: &[Some(SKIN_VERTEX), Some(CHARACTER_INSTANCE)],
            extra_groups: &[&skinning.render_layout],
            blend: wgpu::BlendState::REPLACE,
            depth_write: true,
            cull: true,
        };
        Self {
            pipeline: shared.lit_pipeline(device, &desc),
            shadow: shared.shadow_pipeline(device, &desc),
            mesh: GpuMesh::new(device, "character", &character_mesh(&rig)),
            skinning,
            rig,
            instances: GrowBuffer::new(
                device,
                "character instances",
                wgpu::BufferUsages::VERTEX,
                4096,
            ),
            data: Vec::new(),
            count: 0,
        }
    }

    /// Writes this frame's instances and poses; `local_player` gets the highlight.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        characters: &[CharacterDraw],
        level: &Level,
        local_player: Option<Player>,
        path: SkinningPath,
    ) {
        self.data.clear();
        for c in characters {
            let (shirt, trousers, tone) = character_colours(c, level);
            let me = c.player().is_some() && c.player() == local_player;
            let p = c.sample.pos;
            self.data.extend_from_slice(&[p.x, p.y, p.z, c.sample.facing]);
            self.data.extend_from_slice(&[shirt.x, shirt.y, shirt.z, tone]);
            self.data.extend_from_slice(&[
                trousers.x,
                trousers.y,
                trousers.z,
                f32::from(u8::from(me)),
            ]);
        }
        self.count = characters.len() as u32;
        self.instances.write(device, queue, bytemuck::cast_slice(&self.data));
        let poses = characters.iter().map(|c| (u32::from(c.sample.clip), c.sample.frame));
        self.skinning.prepare(device, queue, poses, path, &self.rig);
    }

    /// Records the skinning compute pass (GPU path).
    pub fn dispatch(&self, encoder: &mut wgpu::CommandEncoder, path: SkinningPath) {
        self.skinning.dispatch(encoder, path);
    }

    fn draw_all(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some(group) = self.skinning.render_group() else { return };
        pass.set_bind_group(1, group, &[]);
        pass.set_vertex_buffer(1, self.instances.buffer.slice(..));
        self.mesh.draw(pass, 0..self.count);
    }

    /// Draws the characters.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, scene, &[]);
        self.draw_all(pass);
    }

    /// Draws the characters into the shadow map.
    pub fn draw_shadow(&self, pass: &mut wgpu::RenderPass<'_>, globals: &wgpu::BindGroup) {
        pass.set_pipeline(&self.shadow);
        pass.set_bind_group(0, globals, &[]);
        self.draw_all(pass);
    }
}
