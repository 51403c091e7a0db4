//! The window itself, whatever shows in it: the winit window, its wgpu surface, the game's
//! renderer and the menus' painter, built once and kept from the front screen through every
//! game played to the end. Each frame is drawn into the surface's next texture, by the game's
//! renderer, the menus, or both (the pause menu over the game).

use std::sync::Arc;

use fixstep_gpu::{FrameRenderer, GpuContext, GpuError};
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::{CursorGrabMode, Window};

use crate::PlayError;
use crate::menus::{MenuPainter, MenuTarget};
use crate::settings::{Settings, WindowMode, WindowSettings};

/// The window, its surface, the renderer and the menus.
pub(crate) struct Shell<R> {
    pub window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    pub view_format: wgpu::TextureFormat,
    pub ctx: GpuContext,
    pub renderer: R,
    menus: MenuPainter,
    egui: egui_winit::State,
    /// Menu input held back for the frames after this one (see [`hold_back_key_presses`]).
    deferred: Vec<egui::Event>,
    /// Whether the menu page shown is new and has not been drawn yet.
    page_new: bool,
    minimized: bool,
}

/// One frame's texture, to draw into.
pub(crate) struct Canvas<'a, R> {
    pub renderer: &'a mut R,
    pub view: &'a wgpu::TextureView,
    menus: &'a mut MenuPainter,
    egui: &'a mut egui_winit::State,
    deferred: &'a mut Vec<egui::Event>,
    page_new: &'a mut bool,
    /// Whether a menu was drawn into this frame.
    menu_drawn: bool,
    window: &'a Window,
    ctx: &'a GpuContext,
    size: (u32, u32),
}

impl<R> Canvas<'_, R> {
    /// Lays out and draws a menu over what is drawn (`clear`: `None`), or on a clear screen.
    pub fn menu(&mut self, clear: Option<wgpu::Color>, ui: impl FnMut(&mut egui::Ui)) {
        self.menu_drawn = true;
        let mut input = self.egui.take_egui_input(self.window);
        // A page's first frame takes no key press: it gives the page its first focus, which
        // the keys pressed as it opened then move from, and its first field, which they then
        // type into.
        let presses = if std::mem::take(self.page_new) { 0 } else { 1 };
        if hold_back_key_presses(&mut input.events, self.deferred, presses) {
            self.window.request_redraw();
        }
        let target = MenuTarget { view: self.view, size: self.size, clear };
        let output = self.menus.draw(&self.ctx.device, &self.ctx.queue, target, input, ui);
        self.egui.handle_platform_output(self.window, output);
    }
}

/// Leaves at most `presses` key presses in a frame's menu `events`, moving the rest (and
/// everything after them) to `deferred`, which is handed back first on the next frame; returns
/// whether anything is left there. The menus take one press a frame: egui moves the keyboard
/// focus once a frame however many Tabs came, so on a slow frame (a software renderer, a busy
/// machine) Tab, Tab, Enter pressed a button one along rather than two, and Tab, Enter the one
/// that had the focus. A key held down repeats without waiting for frames: only its first
/// press is a press here, or a slow frame rate would pile its repeats up and play them on
/// after the key was let go.
fn hold_back_key_presses(
    events: &mut Vec<egui::Event>,
    deferred: &mut Vec<egui::Event>,
    presses: usize,
) -> bool {
    if !deferred.is_empty() {
        deferred.append(events);
        std::mem::swap(events, deferred);
    }
    let is_press =
        |e: &egui::Event| matches!(e, egui::Event::Key { pressed: true, repeat: false, .. });
    if let Some((cut, _)) = events.iter().enumerate().filter(|(_, e)| is_press(e)).nth(presses) {
        deferred.extend(events.drain(cut..));
    }
    !deferred.is_empty()
}

/// The window's fullscreen state for `mode`: none, borderless over the current screen, or the
/// screen's largest video mode (borderless where it has none to give).
fn fullscreen(event_loop: &ActiveEventLoop, mode: WindowMode) -> Option<winit::window::Fullscreen> {
    use winit::window::Fullscreen;
    match mode {
        WindowMode::Windowed => None,
        WindowMode::Borderless => Some(Fullscreen::Borderless(None)),
        WindowMode::Fullscreen => {
            let monitor =
                event_loop.primary_monitor().or_else(|| event_loop.available_monitors().next());
            let best = monitor.and_then(|m| {
                m.video_modes()
                    .max_by_key(|v| (v.size().width * v.size().height, v.refresh_rate_millihertz()))
            });
            Some(best.map_or(Fullscreen::Borderless(None), Fullscreen::Exclusive))
        }
    }
}

const fn present_mode(vsync: bool) -> wgpu::PresentMode {
    if vsync { wgpu::PresentMode::AutoVsync } else { wgpu::PresentMode::AutoNoVsync }
}

impl<R: FrameRenderer> Shell<R> {
    /// Replaces the renderer with one `make_renderer` builds for the window as it is (its
    /// GPU, format and size), seeing with `fov_y` radians: for other content than the old one
    /// drew.
    ///
    /// # Errors
    ///
    /// A renderer that cannot be built; the old one stays.
    pub fn rebuild_renderer(
        &mut self,
        make_renderer: impl FnOnce(&GpuContext, wgpu::TextureFormat, (u32, u32)) -> Result<R, PlayError>,
        fov_y: f32,
    ) -> Result<(), PlayError> {
        let size = (self.config.width, self.config.height);
        let mut renderer = make_renderer(&self.ctx, self.view_format, size)?;
        renderer.set_field_of_view(fov_y);
        self.renderer = renderer;
        Ok(())
    }

    /// Opens a window titled `title` of `size` as `settings` say, with a GPU that presents to
    /// it, and builds the renderer with `make_renderer`.
    pub fn open(
        event_loop: &ActiveEventLoop,
        title: String,
        size: (u32, u32),
        settings: &Settings,
        make_renderer: impl FnOnce(&GpuContext, wgpu::TextureFormat, (u32, u32)) -> Result<R, PlayError>,
    ) -> Result<Self, PlayError> {
        let attributes = Window::default_attributes()
            .with_title(title)
            .with_inner_size(PhysicalSize::new(size.0, size.1))
            .with_fullscreen(fullscreen(event_loop, settings.window.mode));
        let window = Arc::new(
            event_loop.create_window(attributes).map_err(|e| PlayError::NoDisplay(Box::new(e)))?,
        );
        // The primary backends first (Vulkan, Metal, DirectX 12), OpenGL only if none of them
        // has an adapter: wgpu's OpenGL backend probes for a Wayland display as it starts,
        // and on X11 that probe printed an error about XDG_RUNTIME_DIR on every start. As for
        // offscreen drawing, WGPU_BACKEND chooses instead when it is set.
        let chosen = std::env::var_os("WGPU_BACKEND").is_some();
        let (surface, ctx) = match Self::gpu(event_loop, &window, !chosen) {
            Err(PlayError::Gpu(GpuError::NoAdapter)) if !chosen => {
                Self::gpu(event_loop, &window, false)?
            }
            other => other?,
        };
        let caps = surface.get_capabilities(&ctx.adapter);
        let Some(&format) = caps.formats.iter().find(|f| f.is_srgb()).or(caps.formats.first())
        else {
            return Err(GpuError::NoSurfaceFormat { adapter: ctx.describe() }.into());
        };
        // Shading is in linear light: draw through an sRGB view even if the surface is not.
        let view_format = format.add_srgb_suffix();
        let inner = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: inner.width.max(1),
            height: inner.height.max(1),
            present_mode: present_mode(settings.window.vsync),
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: if view_format == format { vec![] } else { vec![view_format] },
        };
        surface.configure(&ctx.device, &config);
        let mut renderer = make_renderer(&ctx, view_format, (config.width, config.height))?;
        renderer.set_field_of_view(settings.view.fov_degrees.to_radians());
        let menus = MenuPainter::new(&ctx.device, view_format);
        let egui = egui_winit::State::new(
            menus.context().clone(),
            egui::ViewportId::ROOT,
            event_loop,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(ctx.device.limits().max_texture_dimension_2d as usize),
        );
        window.request_redraw();
        Ok(Self {
            window,
            surface,
            config,
            view_format,
            ctx,
            renderer,
            menus,
            egui,
            deferred: Vec::new(),
            page_new: true,
            minimized: false,
        })
    }

    /// An adapter and device that present to `window`: of the primary backends only if
    /// `primary`, else of any that the environment allows.
    fn gpu(
        event_loop: &ActiveEventLoop,
        window: &Arc<Window>,
        primary: bool,
    ) -> Result<(wgpu::Surface<'static>, GpuContext), PlayError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        ));
        if primary {
            descriptor.backends = wgpu::Backends::PRIMARY;
        }
        let instance = wgpu::Instance::new(descriptor);
        let surface = instance.create_surface(Arc::clone(window)).map_err(GpuError::Surface)?;
        let ctx = pollster::block_on(GpuContext::with_instance(instance, Some(&surface)))?;
        Ok((surface, ctx))
    }

    /// The window's size changed (zero: minimised, nothing to draw into until it is back).
    pub fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            self.minimized = true;
            return;
        }
        self.minimized = false;
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.ctx.device, &self.config);
        self.renderer.resize(size.width, size.height);
    }

    /// Hands a window event to the menus; returns whether they took it (a click on a button,
    /// a key typed into a field).
    pub fn menu_event(&mut self, event: &winit::event::WindowEvent) -> bool {
        self.egui.on_window_event(&self.window, event).consumed
    }

    /// Lets go of the menus' keyboard focus: a new page starts from its own first button, not
    /// from the button that had the same place on the page before.
    pub fn forget_focus(&mut self) {
        self.page_new = true;
        self.menus.context().memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }

    /// Captures the mouse for turning (locked where the platform can, else confined to the
    /// window, and hidden), or lets it go.
    pub fn capture_mouse(&self, capture: bool) {
        if capture {
            // A platform that can neither lock nor confine the cursor still turns with the
            // mouse moving over the window.
            if self.window.set_cursor_grab(CursorGrabMode::Locked).is_err() {
                let _ = self.window.set_cursor_grab(CursorGrabMode::Confined);
            }
        } else {
            let _ = self.window.set_cursor_grab(CursorGrabMode::None);
        }
        self.window.set_cursor_visible(!capture);
    }

    /// Applies what changed from `old` to `new`: the mode, the windowed size and vsync.
    pub fn apply(
        &mut self,
        event_loop: &ActiveEventLoop,
        old: &WindowSettings,
        new: &WindowSettings,
    ) {
        if new.mode != old.mode {
            self.window.set_fullscreen(fullscreen(event_loop, new.mode));
        }
        if (new.width, new.height) != (old.width, old.height) && new.mode == WindowMode::Windowed {
            // The window system answers with a resize, if it grants it.
            let _ = self.window.request_inner_size(PhysicalSize::new(new.width, new.height));
        }
        if new.vsync != old.vsync {
            self.config.present_mode = present_mode(new.vsync);
            self.surface.configure(&self.ctx.device, &self.config);
        }
    }

    /// Draws a frame into the surface's next texture with `draw`, and shows it. Returns
    /// whether it was shown: not while minimised, nor when the surface had to be brought up
    /// to date first.
    pub fn present(&mut self, draw: impl FnOnce(&mut Canvas<'_, R>)) -> Result<bool, PlayError> {
        if self.minimized {
            return Ok(false);
        }
        let (texture, suboptimal) = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) => (texture, false),
            // Drawn this once, then the surface is brought up to date.
            wgpu::CurrentSurfaceTexture::Suboptimal(texture) => (texture, true),
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(false);
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                self.surface.configure(&self.ctx.device, &self.config);
                return Ok(false);
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                self.surface = self
                    .ctx
                    .instance
                    .create_surface(Arc::clone(&self.window))
                    .map_err(GpuError::Surface)?;
                self.surface.configure(&self.ctx.device, &self.config);
                return Ok(false);
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                return Err(GpuError::FrameRefused.into());
            }
        };
        let view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(self.view_format),
            ..wgpu::TextureViewDescriptor::default()
        });
        let mut canvas = Canvas {
            renderer: &mut self.renderer,
            view: &view,
            menus: &mut self.menus,
            egui: &mut self.egui,
            deferred: &mut self.deferred,
            page_new: &mut self.page_new,
            menu_drawn: false,
            window: &self.window,
            ctx: &self.ctx,
            size: (self.config.width, self.config.height),
        };
        draw(&mut canvas);
        if !canvas.menu_drawn {
            // Keys held back for a menu that is gone were meant for it, not for the next one.
            self.deferred.clear();
        }
        self.window.pre_present_notify();
        self.ctx.queue.present(texture);
        if suboptimal {
            self.surface.configure(&self.ctx.device, &self.config);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::hold_back_key_presses;

    fn key(key: egui::Key, pressed: bool, repeat: bool) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat,
            modifiers: egui::Modifiers::NONE,
        }
    }

    fn text(s: &str) -> egui::Event {
        egui::Event::Text(s.to_owned())
    }

    /// Esc, Tab, Tab, Enter in one slow frame reach the menus over four frames, in order,
    /// each press with what came with it; a frame with nothing new still plays what was held.
    #[test]
    fn presses_that_came_together_are_handed_over_a_frame_each() {
        use egui::Key::{A, Enter, Escape, Tab};
        let mut deferred = Vec::new();
        let mut events = vec![
            key(Escape, true, false),
            key(Escape, false, false),
            key(Tab, true, false),
            key(Tab, true, false),
            key(A, true, false),
            text("a"),
            key(Enter, true, false),
        ];
        assert!(hold_back_key_presses(&mut events, &mut deferred, 1));
        assert_eq!(events, [key(Escape, true, false), key(Escape, false, false)]);
        let mut frames = vec![];
        for _ in 0..4 {
            let mut events = Vec::new();
            hold_back_key_presses(&mut events, &mut deferred, 1);
            frames.push(events);
        }
        assert_eq!(
            frames,
            [
                vec![key(Tab, true, false)],
                vec![key(Tab, true, false)],
                vec![key(A, true, false), text("a")],
                vec![key(Enter, true, false)],
            ]
        );
        assert!(deferred.is_empty());
    }

    /// What was held back comes before what arrived since, and a held key's repeats are not
    /// presses of their own: they do not wait for frames.
    #[test]
    fn held_back_input_comes_first_and_repeats_go_through() {
        use egui::Key::{Backspace, Tab};
        let mut deferred = vec![key(Tab, true, false)];
        let mut events = vec![
            key(Backspace, true, false),
            key(Backspace, true, true),
            key(Backspace, true, true),
        ];
        assert!(hold_back_key_presses(&mut events, &mut deferred, 1));
        assert_eq!(events, [key(Tab, true, false)]);
        let mut events = Vec::new();
        assert!(!hold_back_key_presses(&mut events, &mut deferred, 1));
        assert_eq!(events.len(), 3, "the press and both repeats in one frame: {events:?}");
    }

    /// A new page's first frame takes what came before the first press, and no press.
    #[test]
    fn a_frame_that_takes_no_press_holds_back_from_the_first() {
        use egui::Key::{Enter, Tab};
        let mut deferred = Vec::new();
        let mut events = vec![text("x"), key(Tab, true, false), key(Enter, true, false)];
        assert!(hold_back_key_presses(&mut events, &mut deferred, 0));
        assert_eq!(events, [text("x")]);
        assert_eq!(deferred, [key(Tab, true, false), key(Enter, true, false)]);
    }
}
