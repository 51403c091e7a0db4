//! The menus (the front screen first) drawn with egui into a texture view, the window's or a
//! test's, the same way the game is: [`MenuPainter`] runs a frame of egui and draws it, and
//! [`front_screen`] lays out the [`FrontScreen`] and says what the player did.

use fixstep_net::lan::LanHost;

use crate::front::{Form, FrontAction, FrontScreen, Screen};
use crate::replays::ReplayEntry;

/// The width of the front screen's column, points: room for an address and its label.
const COLUMN_POINTS: f32 = 360.0;

/// The keyboard focus ring's width, points: as wide as a thin line can be and still be seen at
/// a glance on a dimmed game.
const FOCUS_RING_POINTS: f32 = 2.0;

/// The gap between a focused button and its ring, points: the ring stands apart from the
/// button's own edge.
const FOCUS_RING_GAP_POINTS: f32 = 2.0;

/// The focus ring's corner radius, points: rounded like the buttons.
const FOCUS_RING_CORNER_POINTS: u8 = 4;

/// Draws a ring round `response`'s widget if it has the keyboard focus. egui draws a focused
/// button as a hovered one, one shade lighter: on the pause menu over a dimmed game nobody
/// could tell which button Tab had reached, and Enter pressed the wrong one.
pub fn focus_ring(ui: &egui::Ui, response: &egui::Response) {
    if response.has_focus() {
        let stroke = egui::Stroke::new(FOCUS_RING_POINTS, ui.visuals().selection.stroke.color);
        ui.painter().rect_stroke(
            response.rect.expand(FOCUS_RING_GAP_POINTS),
            FOCUS_RING_CORNER_POINTS,
            stroke,
            egui::StrokeKind::Outside,
        );
    }
}

/// Where a menu frame is drawn.
#[derive(Clone, Copy, Debug)]
pub struct MenuTarget<'a> {
    /// The view (the window's surface, or a test's texture).
    pub view: &'a wgpu::TextureView,
    /// Its size, pixels.
    pub size: (u32, u32),
    /// A colour to clear it to first (`None`: over what is there, as over the game).
    pub clear: Option<wgpu::Color>,
}

/// Draws egui frames into texture views.
pub struct MenuPainter {
    ctx: egui::Context,
    renderer: egui_wgpu::Renderer,
}

impl std::fmt::Debug for MenuPainter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MenuPainter").finish_non_exhaustive()
    }
}

impl MenuPainter {
    /// A painter for views of `format`.
    #[must_use]
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let renderer =
            egui_wgpu::Renderer::new(device, format, egui_wgpu::RendererOptions::default());
        Self { ctx: egui::Context::default(), renderer }
    }

    /// The egui context its frames run in: the window's input goes to it.
    #[must_use]
    pub const fn context(&self) -> &egui::Context {
        &self.ctx
    }

    /// Runs `ui` over `input` and draws what it laid out into `target`; returns what egui
    /// asks of the platform (the cursor, text to copy).
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: MenuTarget<'_>,
        input: egui::RawInput,
        ui: impl FnMut(&mut egui::Ui),
    ) -> egui::PlatformOutput {
        let MenuTarget { view, size, clear } = target;
        let mut output = self.ctx.run_ui(input, ui);
        let pixels_per_point = output.pixels_per_point;
        let jobs = self.ctx.tessellate(output.shapes, pixels_per_point);
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                self.renderer.update_texture(device, queue, *id, delta);
            }
        }
        let screen =
            egui_wgpu::ScreenDescriptor { size_in_pixels: [size.0, size.1], pixels_per_point };
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("menus") });
        let uploads = self.renderer.update_buffers(device, queue, &mut encoder, &jobs, &screen);
        {
            let load = clear.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear);
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("menus"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.renderer.render(&mut pass.forget_lifetime(), &jobs, &screen);
        }
        queue.submit(uploads.into_iter().chain([encoder.finish()]));
        for id in &output.textures_delta.free {
            self.renderer.free_texture(id);
        }
        // Applied: egui checks that no change of its textures is dropped unapplied.
        output.textures_delta.clear();
        output.platform_output
    }
}

/// Input for a frame of `size` pixels with nothing pressed: what a test hands
/// [`MenuPainter::draw`].
#[must_use]
pub fn still_input(size: (u32, u32)) -> egui::RawInput {
    let rect =
        egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size.0 as f32, size.1 as f32));
    egui::RawInput { screen_rect: Some(rect), ..egui::RawInput::default() }
}

/// Lays out the front screen as `front` stands, with the games `lan` found, and adds to
/// `actions` what the player did this frame.
pub fn front_screen(
    ui: &mut egui::Ui,
    front: &FrontScreen,
    lan: &[LanHost],
    actions: &mut Vec<FrontAction>,
) {
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.set_max_width(COLUMN_POINTS);
            ui.add_space(48.0);
            ui.heading(egui::RichText::new("Fixstep").size(40.0));
            ui.add_space(24.0);
            match front.screen() {
                Screen::Main => main_menu(ui, actions),
                Screen::Form(form, problem) => {
                    form_fields(ui, *form, front, lan, problem.as_deref(), actions);
                }
                Screen::Starting(form) => {
                    ui.label(match form {
                        Form::Host => "Starting the game…",
                        Form::Join | Form::Spectate => {
                            "Connecting… (a join code takes a second or two)"
                        }
                    });
                    if ui.button("Back").clicked() {
                        actions.push(FrontAction::Back);
                    }
                }
                Screen::Failed(form, why) => {
                    form_fields(ui, *form, front, lan, Some(why), actions);
                }
                Screen::Settings => {
                    ui.label("Settings");
                    if ui.button("Back").clicked() {
                        actions.push(FrontAction::Back);
                    }
                }
                Screen::Replays => replays_page(ui, front.replays(), actions),
            }
        });
    });
}

/// The most rows of replays the page shows at once before it scrolls, points of height: the
/// page's column below the title on a 720-pixel window.
const REPLAY_LIST_POINTS: f32 = 420.0;

/// The Replays page: every replay recorded, newest first, with its game, date, players and
/// length, and a button to watch it.
fn replays_page(ui: &mut egui::Ui, replays: &[ReplayEntry], actions: &mut Vec<FrontAction>) {
    ui.label(egui::RichText::new("Replays").size(24.0));
    ui.add_space(12.0);
    if replays.is_empty() {
        ui.label("No replays yet: a game hosted or joined from here is recorded.");
    }
    egui::ScrollArea::vertical().max_height(REPLAY_LIST_POINTS).show(ui, |ui| {
        egui::Grid::new("replays").striped(true).spacing([16.0, 6.0]).show(ui, |ui| {
            for header in ["Game", "Date (UTC)", "Players", "Length", ""] {
                ui.strong(header);
            }
            ui.end_row();
            for replay in replays {
                ui.label(&replay.game);
                ui.label(replay.date());
                ui.label(if replay.playable { replay.players.to_string() } else { "-".into() });
                ui.label(replay.length());
                let watch = ui
                    .add_enabled(replay.playable, egui::Button::new("Watch"))
                    .on_disabled_hover_text("another game's: open it with `fixstep replay FILE`");
                focus_ring(ui, &watch);
                if watch.clicked() {
                    actions.push(FrontAction::Watch(replay.path.clone()));
                }
                ui.end_row();
            }
        });
    });
    ui.add_space(12.0);
    let back = ui.button("Back");
    focus_ring(ui, &back);
    if back.clicked() {
        actions.push(FrontAction::Back);
    }
}

fn main_menu(ui: &mut egui::Ui, actions: &mut Vec<FrontAction>) {
    let wide = egui::vec2(COLUMN_POINTS * 0.6, 36.0);
    for (label, action) in [
        ("Play alone", FrontAction::PlayAlone),
        ("Host a game", FrontAction::Open(Form::Host)),
        ("Join a game", FrontAction::Open(Form::Join)),
        ("Watch a game", FrontAction::Open(Form::Spectate)),
        ("Replays", FrontAction::OpenReplays),
        ("Settings", FrontAction::OpenSettings),
        ("Quit", FrontAction::Quit),
    ] {
        let button = ui.add_sized(wide, egui::Button::new(label));
        if action == FrontAction::PlayAlone && ui.memory(|m| m.focused().is_none()) {
            // Enter plays at once; Tab goes down the buttons.
            button.request_focus();
        }
        focus_ring(ui, &button);
        if button.clicked() {
            actions.push(action);
        }
        ui.add_space(6.0);
    }
}

fn form_fields(
    ui: &mut egui::Ui,
    form: Form,
    front: &FrontScreen,
    lan: &[LanHost],
    problem: Option<&str>,
    actions: &mut Vec<FrontAction>,
) {
    ui.label(match form {
        Form::Host => "Host a game",
        Form::Join => "Join a game",
        Form::Spectate => "Watch a game",
    });
    ui.add_space(12.0);
    // Enter in a field is the form's go button, as in every form a player knows.
    let mut entered = false;
    let mut field = |ui: &mut egui::Ui, label: &str, value: &str, secret: bool| -> Option<String> {
        ui.label(label);
        let mut text = value.to_owned();
        let edit =
            egui::TextEdit::singleline(&mut text).password(secret).desired_width(f32::INFINITY);
        let response = ui.add(edit);
        entered |= response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if !entered && ui.memory(|m| m.focused().is_none()) {
            // The form opens with its first field ready to type in.
            response.request_focus();
        }
        ui.add_space(6.0);
        response.changed().then_some(text)
    };
    if form != Form::Spectate
        && let Some(name) = field(ui, "Your name", front.name(), false)
    {
        actions.push(FrontAction::Name(name));
    }
    if form == Form::Host {
        if let Some(port) =
            field(ui, "Port (friends type this machine's address and it)", front.port(), false)
        {
            actions.push(FrontAction::Port(port));
        }
        let mut code = front.code();
        let ticked =
            ui.checkbox(&mut code, "Friends elsewhere join by code (the settings' rendezvous)");
        if ticked.changed() {
            actions.push(FrontAction::Code(code));
        }
        ui.add_space(6.0);
    } else if let Some(address) =
        field(ui, "Host address (HOST:PORT) or join code (KQ7-4PX)", front.address(), false)
    {
        actions.push(FrontAction::Address(address));
    }
    if let Some(password) = field(ui, "Password (empty: none)", front.password(), true) {
        actions.push(FrontAction::Password(password));
    }
    if entered {
        actions.push(FrontAction::Go);
    }
    if let Some(problem) = problem {
        ui.colored_label(egui::Color32::from_rgb(230, 110, 90), problem);
    }
    ui.horizontal(|ui| {
        if ui.button("Back").clicked() {
            actions.push(FrontAction::Back);
        }
        let go = match form {
            Form::Host => "Host",
            Form::Join => "Join",
            Form::Spectate => "Watch",
        };
        if ui.button(go).clicked() {
            actions.push(FrontAction::Go);
        }
    });
    if form != Form::Host {
        ui.add_space(18.0);
        ui.label(if lan.is_empty() { "No game found on this network" } else { "On this network:" });
        for host in lan {
            let answer = &host.answer;
            let lock = if answer.sealed { ", password" } else { "" };
            let line = format!(
                "{}  {}  {}/{} players{lock}",
                host.address, answer.title, answer.players, answer.max_players
            );
            if ui.button(line).clicked() {
                actions.push(FrontAction::Pick(host.address));
            }
        }
    }
}
