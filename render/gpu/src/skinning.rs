//! GPU skinning: the rig's dense keyframes in storage buffers, and a compute pass that turns
//! each character's clip and fractional frame into its bone matrices (`skinning.wgsl`); or,
//! on the CPU path, the same matrices from [`Rig::pose`] uploaded. Either way the characters'
//! vertex shader reads them from [`Skinning::matrices`].

use glam::Mat4;
use wgpu::util::DeviceExt as _;

use super::meshes::GrowBuffer;
use fixstep_present::skinning::Rig;

/// Characters one compute workgroup poses (`@workgroup_size` in `skinning.wgsl`).
const WORKGROUP: u32 = 64;

/// Most bones a rig may have for the GPU path (`MAX_BONES` in `skinning.wgsl`): a humanoid has
/// a dozen or a few dozen.
pub const MAX_BONES: usize = 64;

/// Bytes of one bone matrix.
const MATRIX_BYTES: u64 = 64;

/// Where bone matrices come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkinningPath {
    /// Computed on the GPU from the keyframes (the default).
    #[default]
    Gpu,
    /// Computed on the CPU by the presentation's `Rig::pose` and uploaded.
    Cpu,
}

/// The skinning compute pipeline, the rig's data on the GPU and the bone matrices.
#[derive(Debug)]
pub struct Skinning {
    pipeline: wgpu::ComputePipeline,
    compute_layout: wgpu::BindGroupLayout,
    /// Layout of the characters' group 1: the matrices and the parameters.
    pub render_layout: wgpu::BindGroupLayout,
    keys: wgpu::Buffer,
    clips: wgpu::Buffer,
    bones: wgpu::Buffer,
    params: wgpu::Buffer,
    poses: GrowBuffer,
    /// The bone matrices: `bones` per character, characters in draw order.
    pub matrices: GrowBuffer,
    compute_group: Option<wgpu::BindGroup>,
    render_group: Option<wgpu::BindGroup>,
    bone_count: u32,
    clip_count: u32,
    instances: u32,
    pose_data: Vec<u32>,
    cpu_pose: Vec<Mat4>,
    cpu_data: Vec<f32>,
}

impl Skinning {
    /// Uploads `rig`'s keyframes and builds the pipeline.
    #[must_use]
    pub fn new(device: &wgpu::Device, rig: &Rig) -> Self {
        let bone_count = rig.bones.len().min(MAX_BONES) as u32;
        let mut keys: Vec<f32> = Vec::new();
        let mut clips: Vec<u32> = Vec::new();
        for clip in &rig.clips {
            clips.extend_from_slice(&[
                (keys.len() / 8) as u32,
                clip.frames,
                u32::from(clip.looping),
                0,
            ]);
            for key in &clip.keys {
                keys.extend_from_slice(&[key.translate.x, key.translate.y, key.translate.z, 0.0]);
                keys.extend_from_slice(&key.rotate.to_array());
            }
        }
        let mut bones: Vec<u32> = Vec::new();
        for bone in rig.bones.iter().take(MAX_BONES) {
            let parent = bone.parent.map_or(-1, |p| p as i32);
            bones.extend_from_slice(&[
                bone.joint.x.to_bits(),
                bone.joint.y.to_bits(),
                bone.joint.z.to_bits(),
                parent as u32,
            ]);
        }
        let storage = |label: &str, bytes: &[u8]| {
            let padded: Vec<u8> = if bytes.is_empty() { vec![0; 16] } else { bytes.to_vec() };
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &padded,
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        let entry = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let uniform = |binding: u32, visibility: wgpu::ShaderStages| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let compute_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("skinning"),
            entries: &[
                entry(0, true),
                entry(1, true),
                entry(2, true),
                entry(3, true),
                entry(4, false),
                uniform(5, wgpu::ShaderStages::COMPUTE),
            ],
        });
        let render_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("skinned matrices"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                uniform(1, wgpu::ShaderStages::VERTEX),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("skinning"),
            source: wgpu::ShaderSource::Wgsl(include_str!("skinning.wgsl").into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("skinning"),
            bind_group_layouts: &[Some(&compute_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("skinning"),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("cs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            cache: None,
        });
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skinning params"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let matrices_usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        Self {
            pipeline,
            compute_layout,
            render_layout,
            keys: storage("keyframes", bytemuck::cast_slice(&keys)),
            clips: storage("clips", bytemuck::cast_slice(&clips)),
            bones: storage("bones", bytemuck::cast_slice(&bones)),
            params,
            poses: GrowBuffer::new(device, "poses", wgpu::BufferUsages::STORAGE, 4096),
            matrices: GrowBuffer::new(
                device,
                "bone matrices",
                matrices_usage,
                MATRIX_BYTES * u64::from(bone_count.max(1)) * 64,
            ),
            compute_group: None,
            render_group: None,
            bone_count,
            clip_count: rig.clips.len() as u32,
            instances: 0,
            pose_data: Vec::new(),
            cpu_pose: Vec::new(),
            cpu_data: Vec::new(),
        }
    }

    /// Bones per character.
    #[must_use]
    pub fn bone_count(&self) -> u32 {
        self.bone_count
    }

    /// Takes this frame's poses (clip index and fractional frame of each character, in draw
    /// order) and, on the CPU path, computes and uploads their matrices with `rig`.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        poses: impl Iterator<Item = (u32, f32)>,
        path: SkinningPath,
        rig: &Rig,
    ) {
        self.pose_data.clear();
        for (clip, frame) in poses {
            self.pose_data.extend_from_slice(&[clip, frame.to_bits(), 0, 0]);
        }
        self.instances = (self.pose_data.len() / 4) as u32;
        let bytes = MATRIX_BYTES * u64::from(self.bone_count) * u64::from(self.instances.max(1));
        let mut grown = self.poses.write(device, queue, bytemuck::cast_slice(&self.pose_data));
        if bytes > self.matrices.capacity {
            // Grown with room to spare, so a crowd that grows a little does not reallocate.
            let zeros = vec![0u8; (bytes * 2) as usize];
            self.matrices.write(device, queue, &zeros);
            grown = true;
        }
        let params = [self.bone_count, self.instances, self.clip_count, 0];
        queue.write_buffer(&self.params, 0, bytemuck::cast_slice(&params));
        if grown || self.compute_group.is_none() {
            self.rebuild_groups(device);
        }
        if path == SkinningPath::Cpu {
            self.cpu_data.clear();
            for pose in self.pose_data.chunks_exact(4) {
                rig.pose(pose[0] as usize, f32::from_bits(pose[1]), &mut self.cpu_pose);
                for m in self.cpu_pose.iter().take(self.bone_count as usize) {
                    self.cpu_data.extend_from_slice(&m.to_cols_array());
                }
            }
            if !self.cpu_data.is_empty() {
                queue.write_buffer(&self.matrices.buffer, 0, bytemuck::cast_slice(&self.cpu_data));
            }
        }
    }

    fn rebuild_groups(&mut self, device: &wgpu::Device) {
        self.compute_group = Some(device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("skinning"),
            layout: &self.compute_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: self.keys.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: self.clips.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: self.bones.as_entire_binding() },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: self.poses.buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: self.matrices.buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry { binding: 5, resource: self.params.as_entire_binding() },
            ],
        }));
        self.render_group = Some(device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("skinned matrices"),
            layout: &self.render_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.matrices.buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry { binding: 1, resource: self.params.as_entire_binding() },
            ],
        }));
    }

    /// Records the compute pass that poses every character (GPU path only).
    pub fn dispatch(&self, encoder: &mut wgpu::CommandEncoder, path: SkinningPath) {
        if path != SkinningPath::Gpu || self.instances == 0 {
            return;
        }
        let Some(group) = &self.compute_group else { return };
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("skinning"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(self.instances.div_ceil(WORKGROUP), 1, 1);
    }

    /// The bind group the characters' vertex shader reads the matrices from.
    #[must_use]
    pub fn render_group(&self) -> Option<&wgpu::BindGroup> {
        self.render_group.as_ref()
    }

    /// Poses `poses` on `path`, waits for the GPU and reads the matrices back: `bones` per pose.
    /// For tests that compare the two paths.
    ///
    /// # Errors
    ///
    /// If the GPU fails to map the result.
    pub fn pose_and_read_back(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        poses: &[(u32, f32)],
        path: SkinningPath,
        rig: &Rig,
    ) -> Result<Vec<Mat4>, String> {
        self.prepare(device, queue, poses.iter().copied(), path, rig);
        let bytes = MATRIX_BYTES * u64::from(self.bone_count) * poses.len() as u64;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("matrices read back"),
            size: bytes.max(64),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("skinning read back"),
        });
        self.dispatch(&mut encoder, path);
        encoder.copy_buffer_to_buffer(&self.matrices.buffer, 0, &readback, 0, bytes);
        queue.submit([encoder.finish()]);
        let bytes = super::offscreen::read_buffer(device, &readback, bytes)?;
        let floats: Vec<f32> =
            bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Ok(floats.chunks_exact(16).map(Mat4::from_cols_slice).collect())
    }
}
