//! Drawing without a window: a colour texture the renderer draws into like any other view,
//! and reading it (or any buffer) back to the CPU, for `fixstep screenshot`, the window's
//! `--screenshot` and the image tests.

use std::sync::mpsc;

/// The format of offscreen targets: 8-bit RGBA in sRGB, what a PNG holds.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Row alignment of texture-to-buffer copies, bytes (`COPY_BYTES_PER_ROW_ALIGNMENT`).
const ROW_ALIGNMENT: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// A texture to draw into and read back.
#[derive(Debug)]
pub struct OffscreenTarget {
    /// The texture.
    pub texture: wgpu::Texture,
    /// A view of it, to hand to the renderer.
    pub view: wgpu::TextureView,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Its format (RGBA or BGRA, 8 bits, either sRGB or not).
    pub format: wgpu::TextureFormat,
}

impl OffscreenTarget {
    /// A target of `width` × `height` in `format`.
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen target"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self { texture, view, width, height, format }
    }

    /// Copies the texture to the CPU as an RGBA image (swapping BGRA's channels).
    ///
    /// # Errors
    ///
    /// If the GPU fails to map the copy.
    pub fn read_image(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<image::RgbaImage, String> {
        let unpadded = self.width * 4;
        let padded = unpadded.div_ceil(ROW_ALIGNMENT) * ROW_ALIGNMENT;
        let size = u64::from(padded) * u64::from(self.height);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen read back"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("offscreen read back"),
        });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
        queue.submit([encoder.finish()]);
        let bytes = read_buffer(device, &buffer, size)?;
        let bgra = matches!(
            self.format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        );
        let mut pixels = Vec::with_capacity((unpadded * self.height) as usize);
        for row in bytes.chunks_exact(padded as usize) {
            for px in row[..unpadded as usize].chunks_exact(4) {
                if bgra {
                    pixels.extend_from_slice(&[px[2], px[1], px[0], px[3]]);
                } else {
                    pixels.extend_from_slice(px);
                }
            }
        }
        image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| "the read-back image has the wrong size".to_owned())
    }
}

/// Maps `buffer` (MAP_READ, its copy already submitted), waits for the GPU and returns its
/// first `size` bytes.
///
/// # Errors
///
/// If mapping fails or the device is lost.
pub fn read_buffer(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    size: u64,
) -> Result<Vec<u8>, String> {
    let (send, receive) = mpsc::channel();
    buffer.slice(..size).map_async(wgpu::MapMode::Read, move |result| {
        let _ = send.send(result);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| format!("the GPU did not finish: {e}"))?;
    match receive.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(format!("cannot read the GPU's result: {e}")),
        Err(_) => return Err("the GPU dropped the read-back".to_owned()),
    }
    let bytes = buffer
        .slice(..size)
        .get_mapped_range()
        .map_err(|e| format!("cannot read the GPU's result: {e}"))?
        .to_vec();
    buffer.unmap();
    Ok(bytes)
}

/// Writes `image` as a PNG at `path`.
///
/// # Errors
///
/// If the file cannot be written.
pub fn save_png(image: &image::RgbaImage, path: &std::path::Path) -> Result<(), image::ImageError> {
    image.save_with_format(path, image::ImageFormat::Png)
}
