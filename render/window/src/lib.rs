//! # fixstep-window
//!
//! The desktop window for any game of Fixstep's: a winit window a game's renderer draws into,
//! the keyboard and mouse as what the player holds ([`input`]), and the frame loop. Each
//! frame hands its real time to the game ([`session`]): a game played alone runs the ticks
//! its frame scheduler owes and draws at the scheduler's alpha; a network game's host, player
//! or spectator runs what the network says and draws at the network clock's render tick. The
//! HUD shows the tick, the frame rate, the hash and the network's state; F3 a graph of frame
//! times.
//!
//! The player's [`settings`] (window, view, keys, volumes, HUD) live in a file in the
//! platform's config directory; the [`front`] screen's flow (play alone, host, join, spectate,
//! and what went wrong) is kept apart from its drawing, so tests drive it without a window.
//!
//! Resizing reconfigures the surface; a minimised window (size zero) keeps simulating but
//! draws nothing; an outdated surface is reconfigured and a lost one recreated. Without a
//! display or a GPU, [`run`] returns an error that says so in one line.
//!
//! Playing the arena with three bots for a few frames, drawn by the shape renderer (without a
//! display or a GPU, `run` says so and the example stops there):
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_arena::Arena;
//! use fixstep_gpu::shapes::ShapeRenderer;
//! use fixstep_present::Game;
//! use fixstep_present::shapes::{ShapeGame, scenery_of};
//! use fixstep_window::{Mode, PlayError, PlayOptions, run};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let rink = Arc::new(Arena::load_content(assets, &Arena::default_content(assets))?);
//! let scenery = scenery_of::<Arena>(&rink);
//! let options = PlayOptions { frames: Some(3), bots: 3, ..PlayOptions::default() };
//! let played = run::<Arena, _>(&options, &rink, &Mode::Local, |ctx, format, size| {
//!     Ok(ShapeRenderer::new(ctx, format, size, assets, &scenery, Arena::kinds())?)
//! });
//! match played {
//!     Ok(()) | Err(PlayError::NoDisplay(_) | PlayError::Gpu(_)) => {}
//!     Err(other) => return Err(other.into()),
//! }
//! # Ok(())
//! # }
//! ```

pub mod front;
pub mod input;
pub mod menus;
pub mod session;
pub mod settings;

use std::collections::VecDeque;
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use fixstep_gpu::overlay::GRAPH_SAMPLES;
use fixstep_gpu::{FrameRenderer, GpuContext, GpuError, Hud, OffscreenTarget};
use fixstep_net::Admission;
use fixstep_netplay::{HostOptions, NetGame, NetPlayError, PeerOptions};
use fixstep_present::record::{DrawnLog, HeldMark};
use fixstep_present::{FrameOf, Game};
use fixstep_runtime::Command as _;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, ElementState, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{CursorGrabMode, Window, WindowId};

use input::{Input, KeyAction};
use session::{HostPlay, JoinPlay, LocalPlay, PlaySession, SpectatePlay};
use settings::{Settings, WindowMode};

/// Longest real time one frame hands the scheduler, seconds: after a stall (a dragged window,
/// a debugger) the game resumes instead of racing to catch up.
const MAX_FRAME_SECONDS: f64 = 0.25;

/// How long the window system may send no frame before a network game steps without drawing,
/// seconds: 50 ms, half a tick. Some systems send a hidden or minimised window no frames; a
/// network game must go on meanwhile (its inputs, hash reports and connection: a peer silent
/// for 5 s is dropped), so it steps this often unseen.
const UNSEEN_STEP_SECONDS: f64 = 0.05;

/// Frames the frame rate is averaged over: steady to read, yet quick to show a change.
const FPS_FRAMES: usize = 30;

/// Lines of wheel scrolling per zoom step (pixel deltas of touchpads count 40 pixels a line).
const PIXELS_PER_LINE: f64 = 40.0;

/// The window's size unless told, pixels: 720p, which every display shows whole.
pub const DEFAULT_SIZE: (u32, u32) = (1280, 720);

/// What a window is asked to do beside playing.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The window's size, pixels.
    pub size: (u32, u32),
    /// Quit after this many frames drawn.
    pub frames: Option<u64>,
    /// Write the last frame drawn to this PNG (with `frames`).
    pub screenshot: Option<PathBuf>,
    /// Seed of the simulation of a game played locally.
    pub seed: u64,
    /// Bots that play a local game alongside the player at the keys.
    pub bots: usize,
    /// Where to write what each frame drew.
    pub drawn_log: Option<PathBuf>,
    /// What the player set: the window's mode and vsync, the keys, the mouse, the HUD (the
    /// window's size is `size`).
    pub settings: Settings,
}

impl Default for PlayOptions {
    /// Playing alone at the default size until the window is closed, with nothing recorded.
    fn default() -> Self {
        Self {
            size: DEFAULT_SIZE,
            frames: None,
            screenshot: None,
            seed: 1,
            bots: 0,
            drawn_log: None,
            settings: Settings::default(),
        }
    }
}

/// Why the game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// No display to open a window on.
    #[error(
        "no display to open a window on ({0}); run it in a desktop session, or under a virtual \
         display (`xvfb-run fixstep`), or try `fixstep sim` or `fixstep screenshot`, which need \
         no window"
    )]
    NoDisplay(String),
    /// No GPU, or it failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The network game could not go on.
    #[error(transparent)]
    Net(#[from] NetPlayError),
    /// The host's serving thread stopped.
    #[error("the host stopped: {0}")]
    HostStopped(NetPlayError),
    /// A tick did not run.
    #[error("a tick does not run: {0}")]
    Tick(#[from] fixstep_runtime::Error),
    /// A file the window writes cannot be written.
    #[error("cannot write the {what} {path}: {message}")]
    Write {
        /// What it is.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The window system failed.
    #[error("the window system failed: {0}")]
    Window(String),
}

/// What the window plays.
#[derive(Clone, Debug)]
pub enum Mode {
    /// A game played alone.
    Local,
    /// Host a network game, and play in it.
    Host(HostOptions),
    /// Join a game and play in it.
    Join(PeerOptions),
    /// Watch the game at `host`.
    Spectate {
        /// The host.
        host: std::net::SocketAddr,
        /// The spectator's name.
        name: String,
        /// What it presents to the host.
        admission: Admission,
    },
}

/// Plays game `G` of `content` in a window, as `mode` says, until it is closed, Esc is
/// pressed, or `options.frames` are drawn; `make_renderer` builds its renderer once the window
/// has a GPU (given the GPU, the format it draws in and the size).
///
/// # Errors
///
/// [`PlayError::NoDisplay`] without a display, [`PlayError::Gpu`] without a GPU, and any
/// failure of the game or the renderer otherwise.
pub fn run<G, R>(
    options: &PlayOptions,
    content: &Arc<G::Content>,
    mode: &Mode,
    make_renderer: impl FnOnce(&GpuContext, wgpu::TextureFormat, (u32, u32)) -> Result<R, PlayError>,
) -> Result<(), PlayError>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
{
    if cfg!(all(unix, not(target_os = "macos"), not(target_os = "android")))
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(PlayError::NoDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set".to_owned()));
    }
    let event_loop = EventLoop::new().map_err(|e| PlayError::NoDisplay(e.to_string()))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app: App<G, R, _> = App {
        options: options.clone(),
        mode: mode.clone(),
        content: Arc::clone(content),
        make_renderer: Some(make_renderer),
        running: None,
        error: None,
    };
    event_loop.run_app(&mut app).map_err(|e| PlayError::Window(e.to_string()))?;
    match app.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The HUD's line of help: the adapter, and the keys of game `G`, with how to capture the
/// mouse or let it go as it is now where the mouse turns. A spectator's keys move its camera:
/// it has no character to move or to interact with.
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

fn hud_note<G: Game>(ctx: &GpuContext, mouse_captured: bool, spectator: bool) -> String {
    let mouse = if mouse_captured {
        "mouse turns (Esc lets it go)"
    } else {
        "click to turn with the mouse"
    };
    let keys = if spectator {
        format!("WASD move the camera, Q/E turn it, {mouse}")
    } else if G::MOUSE_TURNS {
        format!("{}, {mouse}", G::CONTROLS)
    } else {
        G::CONTROLS.to_owned()
    };
    format!("{}   {keys}, wheel zoom, F3 graph, Esc quit", ctx.describe())
}

struct App<G: Game, R, F> {
    options: PlayOptions,
    mode: Mode,
    content: Arc<G::Content>,
    make_renderer: Option<F>,
    running: Option<Running<G, R>>,
    error: Option<PlayError>,
}

struct Running<G: Game, R> {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    view_format: wgpu::TextureFormat,
    ctx: GpuContext,
    renderer: R,
    /// What is played: a local game, or a side of a network game.
    game: Box<dyn PlaySession<G>>,
    input: Input,
    /// When the game last stepped (drawn or unseen).
    last: Instant,
    /// When a frame was last drawn, for the frame times shown.
    last_drawn: Instant,
    /// When the last frame ended or the game last stepped unseen: the window system has sent
    /// no frame since.
    quiet_since: Instant,
    hud: Hud,
    frame_times: VecDeque<f32>,
    frames_drawn: u64,
    minimized: bool,
    /// What each frame drew, if asked for, with when the game started and what was held last.
    drawn_log: Option<DrawnRecord<G>>,
}

/// The window's drawn log: what each frame drew, at real times from the start.
struct DrawnRecord<G: Game> {
    log: DrawnLog<BufWriter<File>>,
    started: Instant,
    held: fixstep_present::CommandOf<G>,
    held_since_ms: f64,
}

impl<G, R, F> App<G, R, F>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
    F: FnOnce(&GpuContext, wgpu::TextureFormat, (u32, u32)) -> Result<R, PlayError>,
{
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: PlayError) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<Running<G, R>, PlayError> {
        let (w, h) = self.options.size;
        let settings = &self.options.settings;
        let attributes = Window::default_attributes()
            .with_title(format!("Fixstep: {}", G::content_title(&self.content)))
            .with_inner_size(PhysicalSize::new(w, h))
            .with_fullscreen(fullscreen(event_loop, settings.window.mode));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| PlayError::NoDisplay(format!("cannot open a window: {e}")))?,
        );
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
                Box::new(event_loop.owned_display_handle()),
            ));
        let surface = instance
            .create_surface(Arc::clone(&window))
            .map_err(|e| GpuError::Surface(e.to_string()))?;
        let ctx = pollster::block_on(GpuContext::with_instance(instance, Some(&surface)))?;
        let caps = surface.get_capabilities(&ctx.adapter);
        let Some(&format) = caps.formats.iter().find(|f| f.is_srgb()).or(caps.formats.first())
        else {
            return Err(GpuError::Surface(format!(
                "{} cannot present to this window",
                ctx.describe()
            ))
            .into());
        };
        // Shading is in linear light: draw through an sRGB view even if the surface is not.
        let view_format = format.add_srgb_suffix();
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: if settings.window.vsync {
                wgpu::PresentMode::AutoVsync
            } else {
                wgpu::PresentMode::AutoNoVsync
            },
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: if view_format == format { vec![] } else { vec![view_format] },
        };
        surface.configure(&ctx.device, &config);
        let make_renderer = self
            .make_renderer
            .take()
            .ok_or_else(|| PlayError::Window("the window was started twice".to_owned()))?;
        let mut renderer = make_renderer(&ctx, view_format, (config.width, config.height))?;
        let content = &self.content;
        let game: Box<dyn PlaySession<G>> = match &self.mode {
            Mode::Local => {
                Box::new(LocalPlay::<G>::new(content, self.options.seed, self.options.bots))
            }
            Mode::Host(options) => Box::new(HostPlay::<G>::new(content, options)?),
            Mode::Join(options) => Box::new(JoinPlay::<G>::new(content, options)?),
            Mode::Spectate { host, name, admission } => {
                Box::new(SpectatePlay::<G>::new(content, *host, name, admission)?)
            }
        };
        renderer.set_local_player(game.local_player());
        renderer.set_field_of_view(settings.view.fov_degrees.to_radians());
        let drawn_log = match &self.options.drawn_log {
            Some(path) => Some(DrawnRecord {
                log: DrawnLog::new(BufWriter::new(File::create(path).map_err(|e| {
                    PlayError::Write {
                        what: "drawn log",
                        path: path.clone(),
                        message: e.to_string(),
                    }
                })?)),
                started: Instant::now(),
                held: fixstep_present::CommandOf::<G>::default(),
                held_since_ms: 0.0,
            }),
            None => None,
        };
        let note = hud_note::<G>(&ctx, false, game.is_spectator());
        let hud = Hud { visible: settings.hud, note: Some(note), ..Hud::default() };
        window.request_redraw();
        Ok(Running {
            window,
            surface,
            config,
            view_format,
            ctx,
            renderer,
            game,
            input: Input::new(settings.keys.clone(), &settings.view),
            last: Instant::now(),
            last_drawn: Instant::now(),
            quiet_since: Instant::now(),
            hud,
            frame_times: VecDeque::with_capacity(GRAPH_SAMPLES),
            frames_drawn: 0,
            minimized: false,
            drawn_log,
        })
    }
}

impl<G, R> Running<G, R>
where
    G: Game,
    R: FrameRenderer<Frame = FrameOf<G>>,
{
    /// Captures the mouse for turning (locked where the platform can, else confined to the
    /// window, and hidden), or lets it go; the HUD says which and how to change it.
    fn capture_mouse(&mut self, capture: bool) {
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
        self.input.mouse_look = capture;
        self.hud.note = Some(hud_note::<G>(&self.ctx, capture, self.game.is_spectator()));
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            // Minimised: nothing to draw into until it comes back.
            self.minimized = true;
            return;
        }
        self.minimized = false;
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.ctx.device, &self.config);
        self.renderer.resize(size.width, size.height);
    }

    /// Runs what the real time since the last step owes, drawing nothing: the game part of a
    /// frame. Returns what was held, as the game's command.
    fn step(&mut self) -> Result<fixstep_present::CommandOf<G>, PlayError> {
        let now = Instant::now();
        let seconds = now.duration_since(self.last).as_secs_f64().min(MAX_FRAME_SECONDS);
        self.last = now;
        let controls = self.input.controls();
        let mouse = self.input.take_mouse_turn();
        self.game.frame((seconds * 1_000_000.0) as u64, &controls, mouse)?;
        Ok(G::held(&controls))
    }

    /// Steps the game unseen if the window system has sent no frame for so long that a
    /// network game must go on without ([`UNSEEN_STEP_SECONDS`]).
    fn step_if_unseen(&mut self) -> Result<(), PlayError> {
        if self.game.plays_on_unseen()
            && self.quiet_since.elapsed().as_secs_f64() > UNSEEN_STEP_SECONDS
        {
            self.step()?;
            self.quiet_since = Instant::now();
        }
        Ok(())
    }

    /// Runs the ticks this frame owes, then draws it. Returns whether the frame was drawn.
    fn frame(&mut self) -> Result<bool, PlayError> {
        let held = self.step()?;
        // The frame's time is since the last frame drawn, whatever stepped unseen between.
        let seconds = self.last_drawn.elapsed().as_secs_f64().min(MAX_FRAME_SECONDS);
        let ms = (seconds * 1000.0) as f32;
        self.last_drawn = Instant::now();
        if self.frame_times.len() == GRAPH_SAMPLES {
            self.frame_times.pop_front();
        }
        self.frame_times.push_back(ms);
        // Frames per second over the recent frames, not the newest alone.
        let recent: f32 = self.frame_times.iter().rev().take(FPS_FRAMES).sum();
        let counted = self.frame_times.len().min(FPS_FRAMES) as f32;
        self.hud.fps = if recent > 0.0 { counted * 1000.0 / recent } else { 0.0 };
        self.hud.frame_ms = ms;
        if self.hud.show_graph {
            self.hud.frame_times.clear();
            self.hud.frame_times.extend(self.frame_times.iter().copied());
        }
        self.game.hud(&mut self.hud);
        if let Some(record) = self.drawn_log.as_mut() {
            let at_ms = record.started.elapsed().as_secs_f64() * 1000.0;
            let keys = held.held();
            if keys != record.held {
                record.held = keys;
                record.held_since_ms = at_ms;
            }
            let mark =
                HeldMark { since_ms: record.held_since_ms, held: G::held_numbers(&record.held) };
            let game = &self.game;
            record.log.write(at_ms, Some(&mark), |line| game.record(line)).map_err(|e| {
                PlayError::Write { what: "drawn log", path: PathBuf::new(), message: e.to_string() }
            })?;
        }
        self.renderer.advance_effects(seconds as f32);
        if self.minimized {
            return Ok(false);
        }
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) => texture,
            wgpu::CurrentSurfaceTexture::Suboptimal(texture) => {
                // Drawn this once, then the surface is brought up to date.
                let view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
                    format: Some(self.view_format),
                    ..wgpu::TextureViewDescriptor::default()
                });
                self.renderer.render(&view, self.game.drawn(), &self.hud);
                self.ctx.queue.present(texture);
                self.surface.configure(&self.ctx.device, &self.config);
                return Ok(true);
            }
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
                    .map_err(|e| GpuError::Surface(e.to_string()))?;
                self.surface.configure(&self.ctx.device, &self.config);
                return Ok(false);
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                return Err(GpuError::Surface("the surface refused a frame".to_owned()).into());
            }
        };
        let view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(self.view_format),
            ..wgpu::TextureViewDescriptor::default()
        });
        self.renderer.render(&view, self.game.drawn(), &self.hud);
        self.window.pre_present_notify();
        self.ctx.queue.present(texture);
        Ok(true)
    }

    /// Draws the latest frame again offscreen, at the window's size, and writes it as a PNG.
    fn screenshot(&mut self, path: &std::path::Path) -> Result<(), PlayError> {
        let (w, h) = self.renderer.size();
        let target = OffscreenTarget::new(&self.ctx.device, w, h, self.view_format);
        self.renderer.render(&target.view, self.game.drawn(), &self.hud);
        let failed = |message: String| PlayError::Write {
            what: "screenshot",
            path: path.to_path_buf(),
            message,
        };
        let image = target.read_image(&self.ctx.device, &self.ctx.queue).map_err(failed)?;
        fixstep_gpu::offscreen::save_png(&image, path).map_err(|e| failed(e.to_string()))
    }
}

impl<G, R, F> ApplicationHandler for App<G, R, F>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
    F: FnOnce(&GpuContext, wgpu::TextureFormat, (u32, u32)) -> Result<R, PlayError>,
{
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match self.start(event_loop) {
            Ok(running) => self.running = Some(running),
            Err(error) => self.fail(event_loop, error),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(running) = self.running.as_mut() else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => running.resize(size),
            WindowEvent::Focused(false) => {
                running.input.release_all();
                running.capture_mouse(false);
            }
            WindowEvent::KeyboardInput { event, .. } => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    let pressed = event.state == ElementState::Pressed;
                    match running.input.key(code, pressed, event.repeat) {
                        KeyAction::Escape if running.input.mouse_look => {
                            running.capture_mouse(false);
                        }
                        KeyAction::Escape => event_loop.exit(),
                        KeyAction::ToggleGraph => running.hud.show_graph = !running.hud.show_graph,
                        KeyAction::None => {}
                    }
                }
            }
            // A game whose player the mouse does not turn keeps the pointer free, except for
            // a spectator, whose camera it turns.
            WindowEvent::MouseInput { state: ElementState::Pressed, .. }
                if G::MOUSE_TURNS || running.game.is_spectator() =>
            {
                running.capture_mouse(true);
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => f64::from(y),
                    MouseScrollDelta::PixelDelta(p) => p.y / PIXELS_PER_LINE,
                };
                running.game.camera().zoom(steps as f32);
            }
            WindowEvent::RedrawRequested => {
                let drawn = match running.frame() {
                    Ok(drawn) => drawn,
                    Err(error) => return self.fail(event_loop, error),
                };
                running.quiet_since = Instant::now();
                if drawn {
                    running.frames_drawn += 1;
                }
                if self.options.frames.is_some_and(|n| running.frames_drawn >= n) {
                    if let Some(path) = self.options.screenshot.clone()
                        && let Err(error) = running.screenshot(&path)
                    {
                        return self.fail(event_loop, error);
                    }
                    event_loop.exit();
                }
            }
            _ => {}
        }
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        if let (Some(running), DeviceEvent::MouseMotion { delta }) = (self.running.as_mut(), event)
        {
            running.input.mouse_moved(delta.0);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = self.running.as_mut() else { return };
        if let Err(error) = running.step_if_unseen() {
            return self.fail(event_loop, error);
        }
        running.window.request_redraw();
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(running) = self.running.as_mut() {
            running.game.close();
        }
        if let Some(record) = self.running.as_mut().and_then(|r| r.drawn_log.take())
            && let Err(e) = record.log.finish()
        {
            self.error = Some(PlayError::Write {
                what: "drawn log",
                path: self.options.drawn_log.clone().unwrap_or_default(),
                message: e.to_string(),
            });
        }
        // The surface goes before the window it draws into.
        self.running = None;
    }
}
