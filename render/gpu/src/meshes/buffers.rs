//! The GPU side of meshes: a mesh uploaded once, and a buffer rewritten every frame.

use wgpu::util::DeviceExt as _;

use super::MeshData;

/// A mesh on the GPU.
#[derive(Debug)]
pub struct GpuMesh {
    /// Its vertices.
    pub vertices: wgpu::Buffer,
    /// Its indices (u32).
    pub indices: wgpu::Buffer,
    /// Number of indices.
    pub index_count: u32,
}

impl GpuMesh {
    /// Uploads `mesh`.
    #[must_use]
    pub fn new(device: &wgpu::Device, label: &str, mesh: &MeshData) -> Self {
        // An empty mesh still needs buffers of a valid size.
        let vertices: &[f32] = if mesh.vertices.is_empty() { &[0.0; 4] } else { &mesh.vertices };
        let indices: &[u32] = if mesh.indices.is_empty() { &[0; 4] } else { &mesh.indices };
        Self {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(vertices),
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(indices),
                usage: wgpu::BufferUsages::INDEX,
            }),
            index_count: mesh.indices.len() as u32,
        }
    }

    /// Binds it to `pass` (vertex slot 0) and draws `instances`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, instances: std::ops::Range<u32>) {
        if self.index_count == 0 || instances.is_empty() {
            return;
        }
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, instances);
    }
}

/// A GPU buffer rewritten every frame, grown (to the next power of two) when the data outgrow it.
#[derive(Debug)]
pub struct GrowBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    /// The buffer.
    pub buffer: wgpu::Buffer,
    /// Its size, bytes.
    pub capacity: u64,
    /// Bytes written by the latest [`GrowBuffer::write`].
    pub len: u64,
}

impl GrowBuffer {
    /// A buffer of `usage` (plus copy-destination), at least `capacity` bytes.
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
        capacity: u64,
    ) -> Self {
        let capacity = capacity.max(256).next_power_of_two();
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: capacity,
            usage,
            mapped_at_creation: false,
        });
        Self { label, usage, buffer, capacity, len: 0 }
    }

    /// Writes `data` from the start; returns whether the buffer was replaced (so bind groups
    /// naming it must be rebuilt).
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[u8]) -> bool {
        let needed = data.len() as u64;
        let mut grown = false;
        if needed > self.capacity {
            self.capacity = needed.next_power_of_two();
            self.buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: self.capacity,
                usage: self.usage,
                mapped_at_creation: false,
            });
            grown = true;
        }
        // Writes must be a multiple of 4 bytes; everything written here is floats or u32s.
        if !data.is_empty() {
            queue.write_buffer(&self.buffer, 0, data);
        }
        self.len = needed;
        grown
    }
}
