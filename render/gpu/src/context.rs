//! Creating the GPU: an instance, an adapter and a device, with errors that say what to do.

/// Why no GPU could be had.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter (no Vulkan, Metal, DirectX 12 or OpenGL driver that wgpu can use).
    #[error(
        "no GPU adapter found (no Vulkan, Metal, DirectX 12 or OpenGL driver that works here); \
         install your GPU's driver or the software Vulkan driver (Debian/Ubuntu: \
         `apt install mesa-vulkan-drivers`), or try `fixstep sim`, which needs no GPU"
    )]
    NoAdapter,
    /// The adapter refused to give a device.
    #[error("the GPU adapter `{adapter}` would not open a device: {source}")]
    Device {
        /// The adapter's name.
        adapter: String,
        /// wgpu's reason.
        source: wgpu::RequestDeviceError,
    },
    /// The window's surface could not be made.
    #[error("cannot draw into the window: {0}")]
    Surface(#[source] wgpu::CreateSurfaceError),
    /// The adapter has no format it can present to the window in.
    #[error("{adapter} cannot present to this window")]
    NoSurfaceFormat {
        /// The adapter, as the context describes it.
        adapter: String,
    },
    /// The surface refused a frame it was asked for (a validation error of its own).
    #[error("cannot draw into the window: the surface refused a frame")]
    FrameRefused,
    /// The font in the assets cannot be read, is not a file, or is over its limit.
    #[error(transparent)]
    Font(fixstep_runtime::file::ReadError),
}

/// The GPU the renderer draws with.
#[derive(Clone, Debug)]
pub struct GpuContext {
    /// The wgpu instance.
    pub instance: wgpu::Instance,
    /// The adapter chosen.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl GpuContext {
    /// A GPU for drawing offscreen (no window).
    ///
    /// # Errors
    ///
    /// [`GpuError::NoAdapter`] where there is none, [`GpuError::Device`] if it fails.
    pub fn headless() -> Result<Self, GpuError> {
        // Vulkan, Metal or DirectX 12 first; OpenGL only if none of them is there (probing it
        // for no window prints warnings about displays on some systems).
        let mut primary = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if std::env::var_os("WGPU_BACKEND").is_none() {
            primary.backends = wgpu::Backends::PRIMARY;
        }
        let instance = wgpu::Instance::new(primary);
        match pollster::block_on(Self::with_instance(instance, None)) {
            Err(GpuError::NoAdapter) if std::env::var_os("WGPU_BACKEND").is_none() => {
                let mut all = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
                all.backends = wgpu::Backends::all();
                pollster::block_on(Self::with_instance(wgpu::Instance::new(all), None))
            }
            other => other,
        }
    }

    /// A GPU that can present to `surface` (made from `instance`).
    ///
    /// # Errors
    ///
    /// As [`GpuContext::headless`].
    pub async fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, GpuError> {
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: surface,
                apply_limit_buckets: false,
            })
            .await
            .map_err(|_| GpuError::NoAdapter)?;
        let info = adapter.get_info();
        // Exactly what the adapter offers: always grantable, and software and older drivers
        // offer less than WebGPU's defaults in places the renderer does not need.
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("fixstep device"),
                required_features: wgpu::Features::empty(),
                required_limits: limits,
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|source| GpuError::Device { adapter: info.name.clone(), source })?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// One line naming the adapter and its backend, for logs and the HUD.
    #[must_use]
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }

    /// Whether the adapter is a software rasteriser (lavapipe, llvmpipe, WARP).
    #[must_use]
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }
}
