//! The application: what the window shows (the front screen, a game, its menus), how each
//! window event is handled, and how a game is started, paused, left and quit. The crate root
//! holds its API; this is what runs behind [`run`](crate::run).

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::settings::short_key_name;
use fixstep_gpu::{FrameRenderer, GpuContext, OffscreenTarget};
use fixstep_net::relay::TurnServer;
use fixstep_net::{Access, Admission, SessionKey};
use fixstep_netplay::{HostOptions, PeerOptions, rejoin_file};
use fixstep_netplay_view::NetGame;
use fixstep_present::{FrameOf, Game};
use fixstep_runtime::net::DEFAULT_SEAT_GRACE_MICROS;
use winit::application::ApplicationHandler;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::WindowId;

use crate::MakeRenderer;
use crate::dialling::{AfterDial, CodeDial, Dialling};
use crate::front::{Entry, FrontAction, FrontScreen, Launch, Outcome, Screen};
use crate::input::KeyAction;
use crate::lan_list::LanList;
use crate::pause::{PauseAction, PauseMenu};
use crate::playing::Playing;
use crate::replay::{CameraPick, ReplayPlay, draw_roster, draw_timeline, roster_hit, timeline_hit};
use crate::replays::{list_replays, new_recording, now_unix_ms, replays_dir};
use crate::session::{HostPlay, JoinPlay, LocalPlay, PlaySession, SpectatePlay};
use crate::settings::{NetworkSettings, Settings};
use crate::settings_screen::SettingsScreen;
use crate::shell::Shell;
use fixstep_netplay::resume::from_replay;
use fixstep_runtime::ContentDigest;
use fixstep_runtime::replay::{CutRecord, LoadedReplay};

use crate::{
    FrameSound, Mode, PlayError, PlayOptions, front, input, menus, pause, settings, settings_screen,
};

/// Lines of wheel scrolling per zoom step (pixel deltas of touchpads count 40 pixels a line).
const PIXELS_PER_LINE: f64 = 40.0;

/// How often the front screen is drawn, at most: 60 frames a second moves a menu smoothly,
/// and a window without vsync does not spin a core on a still screen.
const MENU_FRAME: Duration = Duration::from_micros(16_667);

/// The colour behind the front screen: the town's night sky.
const BACKDROP: wgpu::Color = wgpu::Color { r: 0.02, g: 0.03, b: 0.06, a: 1.0 };

/// Seats of a game hosted from the front screen, players and spectators: the command line's
/// defaults, a table of friends.
const FRONT_SEATS: usize = 8;

/// Opens the window and runs the application until it ends: see [`run`](crate::run).
pub(crate) fn play<G, R, F>(
    options: &PlayOptions,
    content: &Arc<G::Content>,
    mode: &Mode,
    mut sound: Box<dyn FrameSound<FrameOf<G>>>,
    make_renderer: F,
) -> Result<(), PlayError>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
    F: MakeRenderer<G, R>,
{
    let event_loop = EventLoop::new().map_err(|e| PlayError::NoDisplay(Box::new(e)))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    sound.set_volumes(&options.settings.volume);
    let mut app: App<G, R, F> = App {
        front: FrontScreen::new(&options.settings.remembered),
        options: options.clone(),
        first: Some(mode.clone()),
        content: Arc::clone(content),
        make_renderer,
        drawn_content: G::content_digest(content),
        shell: None,
        stage: None,
        sound,
        page: Page::None,
        error: None,
        dialling: None,
    };
    event_loop.run_app(&mut app).map_err(|e| PlayError::Window(Box::new(e)))?;
    match app.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// What a spectator's help line says its keys do: they move and turn its camera, which has
/// no character to run or to interact with. Only the help line reads it ([`hud_note`]), and
/// [`KeyBindings::help_line`](settings::KeyBindings::help_line) reads `moving`, whether there
/// is `turning` at all, `run` and `action`; the settings screen and the pause menu list the
/// game's own names (`G::CONTROL_NAMES`), for a spectator too. So the names of the four
/// directions and the two turns are left empty: nothing would show them.
const SPECTATOR_CONTROLS: fixstep_present::ControlNames = fixstep_present::ControlNames {
    moving: "move the camera",
    directions: [""; 4],
    // There, so the help line says which keys turn the camera; its names go unread.
    turning: Some([""; 2]),
    run: None,
    action: None,
};

/// A replay viewer's line of help: its keys, which are fixed (the settings bind the game's).
const REPLAY_HELP: &str = "Space play/pause, -/+ speed, arrows 10 s, ,/. a tick, Home/End, \
                           Tab or 1-9 follow, C free camera, Esc menu";

/// The HUD's line of help: the adapter, and what the keys bound now do in game `G` (or for a
/// spectator), with how to capture the mouse or let it go as it is now where the mouse turns.
fn hud_note<G: Game>(
    ctx: &GpuContext,
    keys: &settings::KeyBindings,
    mouse_captured: bool,
    spectator: bool,
) -> String {
    let mouse = if mouse_captured {
        "mouse turns (Esc lets it go)"
    } else {
        "click to turn with the mouse"
    };
    let names = if spectator { &SPECTATOR_CONTROLS } else { &G::CONTROL_NAMES };
    let mut line = keys.help_line(names);
    if spectator || G::MOUSE_TURNS {
        line.push_str(", ");
        line.push_str(mouse);
    }
    let key =
        |action| keys.keys_of(action).first().map_or_else(String::new, |k| short_key_name(*k));
    let (graph, menu) = (key(settings::Action::FrameGraph), key(settings::Action::Menu));
    format!("{}   {line}, wheel zoom, {graph} graph, {menu} menu", ctx.describe())
}

/// Where a game hosted or joined from the front screen writes its desync reports: under the
/// player's data directory, not wherever the game was started from.
fn reports_dir() -> PathBuf {
    dirs::data_dir().map_or_else(
        || PathBuf::from("desync-reports"),
        |d| d.join("fixstep").join("desync-reports"),
    )
}

/// What the front screen's `launch` asks the window to play: a game alone with `seed`, or
/// a side of a network game, reaching friends' networks as `network` says.
///
/// # Errors
///
/// A password that makes no key, or a join code or code to host with no rendezvous named in
/// the settings, in words.
fn mode_of(
    launch: &Launch,
    seed: u64,
    spectator_name: &str,
    network: &NetworkSettings,
) -> Result<Mode, String> {
    let key = |password: &Option<String>| {
        password.as_deref().map(SessionKey::from_password).transpose().map_err(|e| e.to_string())
    };
    let rendezvous = || -> Result<SocketAddr, String> {
        let name = network.rendezvous.trim();
        if name.is_empty() {
            return Err("a join code needs a rendezvous: name one in the settings (Network)".into());
        }
        name.to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| format!("the rendezvous {name:?} names no address (HOST:PORT)"))
    };
    let stun = || fixstep_net::stun::resolve(&network.stun);
    let dial_then = |entry: &Entry, then: AfterDial| -> Result<Mode, String> {
        Ok(match (entry, then) {
            (Entry::Code(code), then) => {
                Mode::Dial(CodeDial { code: *code, rendezvous: rendezvous()?, stun: stun(), then })
            }
            (Entry::Address(_), AfterDial::Join(options)) => Mode::Join(options),
            (Entry::Address(host), AfterDial::Spectate { name, admission, record }) => {
                Mode::Spectate { host: *host, name, admission, record }
            }
        })
    };
    Ok(match launch {
        Launch::Alone => Mode::Local,
        Launch::Host { name, port, password, code } => Mode::Host(HostOptions {
            bind: SocketAddr::new(Ipv4Addr::UNSPECIFIED.into(), *port),
            also_reachable_at: Vec::new(),
            max_players: FRONT_SEATS,
            max_spectators: FRONT_SEATS,
            seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
            own_player: true,
            seed,
            name: name.clone(),
            reports: reports_dir(),
            access: key(password)?.map_or(Access::Open, Access::Key),
            record: Some(new_recording(&replays_dir(), now_unix_ms())),
            spectator_delay_ticks: 0,
            migration: true,
            rendezvous: code.then(rendezvous).transpose()?,
            port_mapping: network.port_mapping,
            stun: network.stun.clone(),
            turn: turn_of(network)?,
        }),
        Launch::Join { host, name, password } => {
            // Before a code is dialled its host has no address: the dial gives it.
            let address = match host {
                Entry::Address(address) => *address,
                Entry::Code(_) => SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0)),
            };
            let options = PeerOptions {
                host: address,
                name: name.clone(),
                admission: key(password)?.map_or(Admission::Open, Admission::Key),
                reports: reports_dir(),
                rejoin_file: rejoin_file(&host.to_string(), name),
                record: Some(new_recording(&replays_dir(), now_unix_ms())),
                // Joined by code, across routers: if it hosts next, as its own host would.
                offer: fixstep_netplay::HostOffer {
                    map_port: network.port_mapping && matches!(host, Entry::Code(_)),
                    turn: matches!(host, Entry::Code(_))
                        .then(|| turn_of(network))
                        .transpose()?
                        .flatten(),
                    ..fixstep_netplay::HostOffer::default()
                },
            };
            dial_then(host, AfterDial::Join(options))?
        }
        Launch::Spectate { host, password } => dial_then(
            host,
            AfterDial::Spectate {
                name: spectator_name.to_owned(),
                admission: key(password)?.map_or(Admission::Open, Admission::Key),
                record: Some(new_recording(&replays_dir(), now_unix_ms())),
            },
        )?,
        Launch::Replay(path) => Mode::Replay(path.clone()),
    })
}

/// The TURN relay the settings name, if they name one.
///
/// # Errors
///
/// A relay whose address does not resolve, in words.
fn turn_of(network: &NetworkSettings) -> Result<Option<TurnServer>, String> {
    let url = network.turn.trim();
    if url.is_empty() {
        return Ok(None);
    }
    TurnServer::at(url, &network.turn_user, &network.turn_password).map(Some)
}

/// What shows in the window.
enum Stage<G: Game> {
    /// The front screen, with the LAN list while a join or watch form is open, and the
    /// settings screen's state while it shows.
    Front { lan: Option<LanList>, settings: SettingsScreen, drawn: Instant },
    /// A game.
    Playing(Box<Playing<G>>),
}

struct App<G: NetGame, R, F> {
    options: PlayOptions,
    /// The mode to start in, until the window opens.
    first: Option<Mode>,
    content: Arc<G::Content>,
    /// Builds a renderer of some content: at the window's opening, and again for a replay of
    /// other content than the renderer draws.
    make_renderer: F,
    /// The content the renderer draws.
    drawn_content: ContentDigest,
    shell: Option<Shell<R>>,
    stage: Option<Stage<G>>,
    front: FrontScreen,
    sound: Box<dyn FrameSound<FrameOf<G>>>,
    /// The menu page drawn last, to start each new page without the old one's focus.
    page: Page,
    error: Option<PlayError>,
    /// A join code being dialled, while the front screen shows.
    dialling: Option<Dialling>,
}

impl<G, R, F> App<G, R, F>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
    F: MakeRenderer<G, R>,
{
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: PlayError) {
        self.error.get_or_insert(error);
        event_loop.exit();
    }

    /// The front screen, as it stands.
    fn front_stage() -> Stage<G> {
        Stage::Front { lan: None, settings: SettingsScreen::default(), drawn: Instant::now() }
    }

    /// Draws `content` from now on: builds a renderer of it unless the renderer draws it
    /// already (a replay carries its own level, which may not be the window's).
    fn draw_content(&mut self, content: &Arc<G::Content>) -> Result<(), PlayError> {
        let digest = G::content_digest(content);
        if digest == self.drawn_content {
            return Ok(());
        }
        let shell = self.shell.as_mut().ok_or_else(|| PlayError::Window("no window".into()))?;
        let make_renderer = &mut self.make_renderer;
        let fov = self.options.settings.view.fov_degrees.to_radians();
        shell
            .rebuild_renderer(|ctx, format, size| make_renderer(ctx, format, size, content), fov)?;
        self.drawn_content = digest;
        Ok(())
    }

    /// Starts what `mode` plays; `from_front` if the front screen asked for it.
    fn start(&mut self, mode: &Mode, from_front: bool) -> Result<Stage<G>, PlayError> {
        let content = &Arc::clone(&self.content);
        let mut drawn = Arc::clone(content);
        let game: Box<dyn PlaySession<G>> = match mode {
            Mode::Front => return Ok(Self::front_stage()),
            Mode::Local => {
                Box::new(LocalPlay::<G>::new(content, self.options.seed, self.options.bots))
            }
            Mode::Host(options) => Box::new(HostPlay::<G>::new(content, options)?),
            Mode::PlayOn { options, replay, from } => {
                let (_, resumed) = from_replay::<G>(replay, *from)?;
                Box::new(HostPlay::<G>::starting(content, options, Some(resumed))?)
            }
            Mode::Join(options) => Box::new(JoinPlay::<G>::new(content, options)?),
            Mode::Dial(dial) => {
                let (form, name) = match &dial.then {
                    AfterDial::Join(options) => (front::Form::Join, &options.name),
                    AfterDial::Spectate { name, .. } => (front::Form::Spectate, name),
                };
                self.front.fill(name, &dial.code.to_string());
                self.front.starting(form);
                match Dialling::start(dial.clone()) {
                    Ok(dialling) => self.dialling = Some(dialling),
                    Err(why) => self.front.failed(&why),
                }
                return Ok(Self::front_stage());
            }
            Mode::Spectate { host, name, admission, record } => {
                let record = record.clone();
                Box::new(SpectatePlay::<G>::new(content, *host, name, admission, record)?)
            }
            // The replay plays on the content it carries, drawn by a renderer of it.
            Mode::Replay(path) => {
                let loaded = LoadedReplay::<G>::load(path, CutRecord::Refused)?;
                drawn = Arc::clone(&loaded.content);
                Box::new(ReplayPlay::<G>::new(loaded)?)
            }
        };
        self.draw_content(&drawn)?;
        self.playing(game, from_front)
    }

    /// The stage that plays `game`.
    fn playing(
        &self,
        game: Box<dyn PlaySession<G>>,
        from_front: bool,
    ) -> Result<Stage<G>, PlayError> {
        let shell = self.shell.as_ref().ok_or_else(|| PlayError::Window("no window".into()))?;
        let note = if game.timeline().is_some() {
            format!("{}   {REPLAY_HELP}", shell.ctx.describe())
        } else {
            hud_note::<G>(&shell.ctx, &self.options.settings.keys, false, game.is_spectator())
        };
        let drawn_log = self.options.drawn_log.as_deref();
        let playing = Playing::new(game, &self.options.settings, drawn_log, note, from_front)?;
        Ok(Stage::Playing(Box::new(playing)))
    }

    /// The front screen started `launch`: remembers the fields, and plays it, or says on the
    /// front screen why it cannot start.
    fn launch(&mut self, launch: &Launch) {
        self.options.settings.remembered = self.front.remembered();
        self.save_settings();
        let spectator_name = match self.front.name().trim() {
            "" => "spectator".to_owned(),
            name => name.to_owned(),
        };
        let network = &self.options.settings.network;
        let started = mode_of(launch, self.options.seed, &spectator_name, network)
            .and_then(|mode| self.start(&mode, true).map_err(|e| e.to_string()));
        match started {
            Ok(stage) => self.stage = Some(stage),
            Err(why) => self.front.failed(&why),
        }
    }

    /// Leaves the game for the front screen; `why`, if given, is shown there.
    fn leave(&mut self, why: Option<String>) {
        if let Some(Stage::Playing(playing)) = self.stage.take()
            && let Err(error) = playing.close()
        {
            self.error.get_or_insert(error);
        }
        self.back_to_front(why);
    }

    /// Ends the match for everyone (a host's choice) and goes back to the front screen.
    fn end_match(&mut self) {
        if let Some(Stage::Playing(playing)) = self.stage.take()
            && let Err(error) = playing.end_match()
        {
            self.error.get_or_insert(error);
        }
        self.back_to_front(None);
    }

    fn back_to_front(&mut self, why: Option<String>) {
        self.sound.stop();
        if let Some(shell) = &self.shell {
            shell.capture_mouse(false);
        }
        match why {
            Some(why) => self.front.failed(&why),
            None => self.front.returned(),
        }
        self.stage = Some(Self::front_stage());
    }

    fn save_settings(&self) {
        if let Some(path) = &self.options.settings_file
            && let Err(e) = self.options.settings.save(path)
        {
            tracing::warn!("cannot save the settings to {}: {e}", path.display());
        }
    }

    /// Applies settings the player changed, at once: the window, the view, the keys, the
    /// volumes, the HUD.
    fn apply_settings(&mut self, event_loop: &ActiveEventLoop, new: Settings) {
        let old = std::mem::replace(&mut self.options.settings, new);
        let new = &self.options.settings;
        if let Some(shell) = self.shell.as_mut() {
            shell.apply(event_loop, &old.window, &new.window);
            if new.view.fov_degrees != old.view.fov_degrees {
                shell.renderer.set_field_of_view(new.view.fov_degrees.to_radians());
            }
        }
        if new.volume != old.volume {
            self.sound.set_volumes(&new.volume);
        }
        if let Some(Stage::Playing(playing)) = self.stage.as_mut() {
            if new.keys != old.keys || new.view != old.view {
                playing.input = input::Input::new(new.keys.clone(), &new.view);
            }
            // The help line names the keys as they are bound now.
            if new.keys != old.keys
                && let Some(shell) = self.shell.as_ref()
            {
                let spectator = playing.game.is_spectator();
                playing.hud.note = Some(hud_note::<G>(&shell.ctx, &new.keys, false, spectator));
            }
            playing.hud.visible = new.hud;
        }
    }

    /// Esc while a menu shows: back a screen, or out of the pause menu.
    fn escape(&mut self, event_loop: &ActiveEventLoop) {
        match self.stage.as_mut() {
            Some(Stage::Playing(playing)) if playing.game.connecting() && playing.from_front => {
                self.leave(None);
                self.front.act(FrontAction::Back);
            }
            Some(Stage::Playing(playing)) => match playing.menu.as_mut().map(PauseMenu::escape) {
                Some(Some(PauseAction::Resume)) => playing.menu = None,
                Some(_) => {}
                None => self.open_pause(),
            },
            Some(Stage::Front { .. }) if self.front.act(FrontAction::Back) == Outcome::Quit => {
                event_loop.exit();
            }
            Some(Stage::Front { .. }) | None => {}
        }
    }

    /// Opens the pause menu: the keys held are let go, and the mouse too.
    fn open_pause(&mut self) {
        if let Some(Stage::Playing(playing)) = self.stage.as_mut() {
            playing.input.release_all();
            playing.input.mouse_look = false;
            playing.menu = Some(PauseMenu::Menu);
            if let Some(shell) = &self.shell {
                shell.capture_mouse(false);
            }
        }
    }

    /// The settings screen that shows, if one does.
    fn settings_screen(&mut self) -> Option<&mut SettingsScreen> {
        match self.stage.as_mut()? {
            Stage::Front { settings, .. } if self.front.screen() == &Screen::Settings => {
                Some(settings)
            }
            Stage::Front { .. } => None,
            Stage::Playing(playing) => match playing.menu.as_mut()? {
                PauseMenu::Settings(screen) => Some(screen),
                PauseMenu::Menu => None,
            },
        }
    }

    /// A key went down while a menu shows: a key being rebound takes it, Esc goes back, and
    /// the menus have the rest. Returns whether it was taken here.
    fn menu_key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode) -> bool {
        let mut settings = self.options.settings.clone();
        if let Some(screen) = self.settings_screen()
            && screen.rebinding().is_some()
        {
            screen.key(&mut settings, code, &G::CONTROL_NAMES);
            self.apply_settings(event_loop, settings);
            return true;
        }
        if code == KeyCode::Escape {
            self.escape(event_loop);
            return true;
        }
        false
    }

    /// Which menu page shows: each new one starts without the old one's keyboard focus.
    fn turn_page(&mut self) {
        let page = match &self.stage {
            Some(Stage::Playing(playing)) if playing.game.connecting() => Page::Connecting,
            Some(Stage::Playing(playing)) => match playing.menu {
                None => Page::Game,
                Some(PauseMenu::Menu) => Page::Pause,
                Some(PauseMenu::Settings(_)) => Page::PauseSettings,
            },
            Some(Stage::Front { .. }) => match self.front.screen() {
                Screen::Main => Page::Main,
                Screen::Form(..) => Page::Form,
                Screen::Starting(_) => Page::Starting,
                Screen::Failed(..) => Page::Failed,
                Screen::Settings => Page::Settings,
                Screen::Replays => Page::Replays,
            },
            None => Page::None,
        };
        if page != self.page {
            // Leaving a settings screen, however it was left, keeps what was set.
            if self.page.is_settings() {
                self.save_settings();
            }
            self.page = page;
            if let Some(shell) = &mut self.shell {
                shell.forget_focus();
            }
        }
    }

    /// Starts the game a dialled join code leads to, once its host answered, on the socket
    /// the path was opened from; or says why it did not answer.
    fn dialled(&mut self) {
        let Some(finished) = self.dialling.as_mut().and_then(Dialling::finished) else {
            return;
        };
        self.dialling = None;
        let content = &Arc::clone(&self.content);
        let started = finished.and_then(|answered| {
            let host = answered.dialled.host;
            let game: Box<dyn PlaySession<G>> = match &answered.then {
                AfterDial::Join(options) => Box::new(
                    JoinPlay::<G>::new_on(content, options, answered.socket, host.kind)
                        .map_err(|e| e.to_string())?,
                ),
                AfterDial::Spectate { name, admission, record } => Box::new(
                    SpectatePlay::<G>::new_on(
                        content,
                        answered.socket,
                        host.address,
                        name,
                        admission,
                        record.clone(),
                    )
                    .map_err(|e| e.to_string())?,
                ),
            };
            self.playing(game, true).map_err(|e| e.to_string())
        });
        match started {
            Ok(stage) => self.stage = Some(stage),
            Err(why) => self.front.failed(&why),
        }
    }

    /// Draws the front screen and acts on what the player did.
    fn draw_front(&mut self, event_loop: &ActiveEventLoop) -> Result<(), PlayError> {
        self.dialled();
        let Some(Stage::Front { lan, settings: screen, drawn }) = self.stage.as_mut() else {
            return Ok(());
        };
        if drawn.elapsed() < MENU_FRAME {
            return Ok(());
        }
        *drawn = Instant::now();
        let listing = matches!(
            self.front.screen(),
            Screen::Form(front::Form::Join | front::Form::Spectate, _)
        );
        match (listing, lan.is_some()) {
            (true, false) => *lan = Some(LanList::start(G::NAME)),
            (false, true) => *lan = None,
            _ => {}
        }
        let hosts = lan.as_ref().map(LanList::hosts).unwrap_or_default();
        let mut settings = self.options.settings.clone();
        let mut actions = Vec::new();
        let front = &self.front;
        let Some(shell) = self.shell.as_mut() else { return Ok(()) };
        shell.present(|canvas| {
            canvas.menu(Some(BACKDROP), |ui| {
                if front.screen() == &Screen::Settings {
                    let names = &G::CONTROL_NAMES;
                    if settings_screen::settings_screen(ui, screen, &mut settings, names) {
                        actions.push(FrontAction::Back);
                    }
                } else {
                    menus::front_screen(ui, front, &hosts, &mut actions);
                }
            });
        })?;
        if settings != self.options.settings {
            self.apply_settings(event_loop, settings);
        }
        for action in actions {
            self.sound.click();
            match self.front.act(action) {
                Outcome::Stay if self.front.screen() == &Screen::Replays => {
                    self.front.set_replays(list_replays::<G>(&replays_dir()));
                }
                Outcome::Stay => {}
                Outcome::Start(launch) => self.launch(&launch),
                Outcome::Quit => event_loop.exit(),
            }
        }
        Ok(())
    }

    /// Runs and draws a frame of the game, with the pause menu over it when open, and acts on
    /// what the player chose there.
    fn draw_game(&mut self, event_loop: &ActiveEventLoop) -> Result<(), PlayError> {
        let Some(Stage::Playing(playing)) = self.stage.as_mut() else { return Ok(()) };
        let Some(shell) = self.shell.as_mut() else { return Ok(()) };
        let seconds = match playing.frame() {
            Ok(seconds) => seconds,
            Err(error) if playing.from_front => {
                self.leave(Some(error.to_string()));
                return Ok(());
            }
            Err(error) => return Err(error),
        };
        playing.quiet_since = Instant::now();
        let player = playing.game.local_player();
        if playing.told_player != Some(player) {
            shell.renderer.set_local_player(player);
            playing.told_player = Some(player);
        }
        let connecting = playing.game.connecting() && playing.from_front;
        if !connecting {
            self.sound.frame(playing.game.drawn(), seconds);
            shell.renderer.advance_effects(seconds);
        }
        let mut settings = self.options.settings.clone();
        let mut actions = Vec::new();
        let mut front_actions = Vec::new();
        let front = &self.front;
        let what = playing.game.describe();
        let network = (playing.game.plays_on_unseen(), playing.game.hosts());
        let drawn = shell.present(|canvas| {
            if connecting {
                canvas.menu(Some(BACKDROP), |ui| {
                    menus::front_screen(ui, front, &[], &mut front_actions);
                });
                return;
            }
            canvas.renderer.render(canvas.view, playing.game.drawn(), &playing.hud);
            if let Some(timeline) = playing.game.timeline().filter(|_| playing.menu.is_none()) {
                let size = canvas.renderer.size();
                canvas.menu(None, |ui| {
                    draw_timeline(ui, &timeline, size);
                    draw_roster(ui, &timeline, size);
                });
            }
            if let Some(menu) = playing.menu.as_mut() {
                canvas.menu(None, |ui| {
                    let names = &G::CONTROL_NAMES;
                    pause::pause_menu(ui, menu, &mut settings, names, &what, network, &mut actions);
                });
            }
        })?;
        if drawn && !connecting {
            playing.frames_drawn += 1;
        }
        if self.options.frames.is_some_and(|n| playing.frames_drawn >= n) {
            if let Some(path) = self.options.screenshot.clone() {
                screenshot(shell, playing.game.drawn(), &playing.hud, &path)?;
            }
            event_loop.exit();
        }
        if settings != self.options.settings {
            self.apply_settings(event_loop, settings);
        }
        if !front_actions.is_empty() {
            // Back while connecting: give up, and back to the form.
            self.sound.click();
            self.leave(None);
            self.front.act(FrontAction::Back);
        }
        for action in actions {
            self.sound.click();
            match action {
                PauseAction::Resume => {
                    if let Some(Stage::Playing(playing)) = self.stage.as_mut() {
                        playing.menu = None;
                    }
                }
                PauseAction::Settings => {}
                PauseAction::Leave => self.leave(None),
                PauseAction::EndMatch => self.end_match(),
                PauseAction::Quit => event_loop.exit(),
            }
        }
        Ok(())
    }

    /// A window event while a game takes the keys.
    fn game_event(&mut self, event: &WindowEvent) {
        let Some(Stage::Playing(playing)) = self.stage.as_mut() else { return };
        let Some(shell) = self.shell.as_mut() else { return };
        let keys = &self.options.settings.keys;
        match event {
            WindowEvent::Focused(false) => {
                playing.input.release_all();
                playing.input.mouse_look = false;
                shell.capture_mouse(false);
            }
            WindowEvent::KeyboardInput { event, .. } => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    let pressed = event.state == ElementState::Pressed;
                    // A replay's viewer takes its own keys first.
                    if pressed {
                        match playing.game.key(code) {
                            Ok(true) => return,
                            Ok(false) => {}
                            Err(error) => return tracing::warn!("{error}"),
                        }
                    }
                    match playing.input.key(code, pressed, event.repeat) {
                        KeyAction::Escape if playing.input.mouse_look => {
                            playing.input.mouse_look = false;
                            shell.capture_mouse(false);
                            playing.hud.note = Some(hud_note::<G>(
                                &shell.ctx,
                                keys,
                                false,
                                playing.game.is_spectator(),
                            ));
                        }
                        KeyAction::Escape => self.open_pause(),
                        KeyAction::ToggleGraph => playing.hud.show_graph = !playing.hud.show_graph,
                        KeyAction::None => {}
                    }
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let at = (position.x as f32, position.y as f32);
                playing.pointer = Some(at);
                if playing.scrubbing {
                    seek_on_timeline(playing, shell.renderer.size(), false);
                }
            }
            // A replay's timeline: pressed on it seeks, and dragged on, seeks as it goes.
            WindowEvent::MouseInput { state, button: MouseButton::Left, .. }
                if playing.game.timeline().is_some() =>
            {
                let pressed = *state == ElementState::Pressed;
                playing.scrubbing = pressed
                    && !pick_on_roster(playing, shell.renderer.size())
                    && seek_on_timeline(playing, shell.renderer.size(), true);
            }
            // A game whose player the mouse does not turn keeps the pointer free, except for
            // a spectator, whose camera it turns.
            WindowEvent::MouseInput { state: ElementState::Pressed, .. }
                if (G::MOUSE_TURNS || playing.game.is_spectator())
                    && playing.game.timeline().is_none() =>
            {
                playing.input.mouse_look = true;
                shell.capture_mouse(true);
                playing.hud.note =
                    Some(hud_note::<G>(&shell.ctx, keys, true, playing.game.is_spectator()));
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => f64::from(*y),
                    MouseScrollDelta::PixelDelta(p) => p.y / PIXELS_PER_LINE,
                };
                playing.game.camera().zoom(steps as f32);
            }
            _ => {}
        }
    }
}

/// Follows whom the pointer picks on a replay's roster, in a window of `size` pixels; returns
/// whether it was on the roster.
fn pick_on_roster<G: Game>(playing: &mut Playing<G>, size: (u32, u32)) -> bool {
    let (Some((x, y)), Some(timeline)) = (playing.pointer, playing.game.timeline()) else {
        return false;
    };
    match roster_hit(&timeline, x, y, size) {
        Some(CameraPick::Follow(player)) => playing.game.follow(Some(player)),
        Some(CameraPick::Free) => playing.game.follow(None),
        None => return false,
    }
    true
}

/// Seeks a replay to where the pointer is on its timeline, in a window of `size` pixels;
/// `pressed`: only if the pointer is on the bar (a drag seeks wherever it goes along). Returns
/// whether it sought.
fn seek_on_timeline<G: Game>(playing: &mut Playing<G>, size: (u32, u32), pressed: bool) -> bool {
    let (Some((x, y)), Some(timeline)) = (playing.pointer, playing.game.timeline()) else {
        return false;
    };
    let fraction = match timeline_hit(x, y, size) {
        Some(fraction) => fraction,
        None if pressed => return false,
        None => {
            let [left, _, right, _] = crate::replay::timeline_bar(size);
            ((x - left) / (right - left).max(1.0)).clamp(0.0, 1.0)
        }
    };
    if let Err(error) = playing.game.seek_to(timeline.tick_at(fraction)) {
        tracing::warn!("{error}");
    }
    true
}

/// Draws the latest frame again offscreen, at the window's size, and writes it as a PNG.
fn screenshot<R: FrameRenderer>(
    shell: &mut Shell<R>,
    frame: &R::Frame,
    hud: &fixstep_gpu::Hud,
    path: &std::path::Path,
) -> Result<(), PlayError> {
    let (w, h) = shell.renderer.size();
    let target = OffscreenTarget::new(&shell.ctx.device, w, h, shell.view_format);
    shell.renderer.render(&target.view, frame, hud);
    let failed = |source: Box<dyn std::error::Error + Send + Sync>| PlayError::Write {
        what: "screenshot",
        path: path.to_path_buf(),
        source,
    };
    let image =
        target.read_image(&shell.ctx.device, &shell.ctx.queue).map_err(|e| failed(e.into()))?;
    fixstep_gpu::offscreen::save_png(&image, path).map_err(|e| failed(Box::new(e)))
}

impl<G, R, F> ApplicationHandler for App<G, R, F>
where
    G: NetGame,
    R: FrameRenderer<Frame = FrameOf<G>>,
    F: MakeRenderer<G, R>,
{
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.shell.is_some() {
            return;
        }
        let title = format!("Fixstep: {}", G::content_title(&self.content));
        let (content, make_renderer) = (&self.content, &mut self.make_renderer);
        let opened = Shell::open(
            event_loop,
            title,
            self.options.size,
            &self.options.settings,
            |ctx, format, size| make_renderer(ctx, format, size, content),
        );
        match opened {
            Ok(shell) => self.shell = Some(shell),
            Err(error) => return self.fail(event_loop, error),
        }
        let mode = self.first.take().unwrap_or(Mode::Front);
        match self.start(&mode, false) {
            Ok(stage) => self.stage = Some(stage),
            Err(error) => self.fail(event_loop, error),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(shell) = self.shell.as_mut() else { return };
        match &event {
            WindowEvent::CloseRequested => return event_loop.exit(),
            WindowEvent::Resized(size) => shell.resize(*size),
            WindowEvent::RedrawRequested => {
                self.turn_page();
                let drawn = match self.stage {
                    Some(Stage::Front { .. }) => self.draw_front(event_loop),
                    Some(Stage::Playing(_)) => self.draw_game(event_loop),
                    None => Ok(()),
                };
                if let Err(error) = drawn {
                    self.fail(event_loop, error);
                }
                return;
            }
            _ => {}
        }
        let menus_show = match &self.stage {
            Some(Stage::Playing(playing)) => !playing.takes_keys(),
            Some(Stage::Front { .. }) => true,
            None => return,
        };
        if !menus_show {
            // The menus hear whether the window has the keyboard even while the game takes
            // the keys: egui gives no widget the keyboard focus in a window it believes
            // unfocused, and a game started without the front screen (`--alone`, `--bots`)
            // had its window focused before any menu showed, so its pause menu had none.
            if matches!(event, WindowEvent::Focused(_))
                && let Some(shell) = self.shell.as_mut()
            {
                shell.menu_event(&event);
            }
            return self.game_event(&event);
        }
        if let WindowEvent::KeyboardInput { event: key, .. } = &event
            && key.state == ElementState::Pressed
            && !key.repeat
            && let PhysicalKey::Code(code) = key.physical_key
            && self.menu_key(event_loop, code)
        {
            return;
        }
        if let Some(shell) = self.shell.as_mut() {
            shell.menu_event(&event);
        }
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        if let (Some(Stage::Playing(playing)), DeviceEvent::MouseMotion { delta }) =
            (self.stage.as_mut(), event)
        {
            playing.input.mouse_moved(delta.0);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        match self.stage.as_mut() {
            Some(Stage::Playing(playing)) => {
                event_loop.set_control_flow(ControlFlow::Poll);
                if let Err(error) = playing.step_if_unseen() {
                    if playing.from_front {
                        self.leave(Some(error.to_string()));
                    } else {
                        return self.fail(event_loop, error);
                    }
                }
            }
            Some(Stage::Front { drawn, .. }) => {
                event_loop.set_control_flow(ControlFlow::WaitUntil(*drawn + MENU_FRAME));
            }
            None => {}
        }
        if let Some(shell) = self.shell.as_ref() {
            shell.window.request_redraw();
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        if self.page.is_settings() {
            self.save_settings();
        }
        if let Some(Stage::Playing(playing)) = self.stage.take()
            && let Err(error) = playing.close()
        {
            self.error.get_or_insert(error);
        }
        self.sound.stop();
        // The surface goes before the window it draws into.
        self.shell = None;
    }
}

/// A page of the window's menus, or the game with none over it: a new page starts without
/// the old one's keyboard focus, and leaving a settings page saves the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Page {
    /// Nothing drawn yet.
    None,
    /// The front screen's main menu.
    Main,
    /// A form of the front screen (host, join, spectate).
    Form,
    /// A game being started from the front screen.
    Starting,
    /// A start that failed, with its reason.
    Failed,
    /// The front screen's settings.
    Settings,
    /// The front screen's list of replays.
    Replays,
    /// A network game connecting.
    Connecting,
    /// The game, with no menu over it.
    Game,
    /// The pause menu.
    Pause,
    /// The settings, from the pause menu.
    PauseSettings,
}

impl Page {
    /// Whether it is a settings page.
    const fn is_settings(self) -> bool {
        matches!(self, Self::Settings | Self::PauseSettings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spectator's help line says what the keys bound now do to its camera; the names it
    /// leaves empty never show.
    #[test]
    fn a_spectators_help_line_moves_and_turns_the_camera() {
        let keys = settings::KeyBindings::default();
        assert_eq!(keys.help_line(&SPECTATOR_CONTROLS), "WASD move the camera, Q/E turn");
    }

    /// Every game hosted, joined (by address or code) or watched from the front screen is
    /// recorded into the replays folder.
    #[test]
    fn the_front_screens_network_games_are_recorded_into_the_replays_folder() {
        let host = Entry::Address(([127, 0, 0, 1], 7465).into());
        let code = Entry::Code("KQ7-4PX".parse().expect("a code"));
        let (name, password) = ("ada".to_owned(), None);
        let launches = [
            Launch::Host { name: name.clone(), port: 7465, password: None, code: false },
            Launch::Join { host, name: name.clone(), password: None },
            Launch::Join { host: code, name, password: None },
            Launch::Spectate { host, password },
        ];
        // No STUN server asked, no relay: nothing here may leave the machine.
        let network = NetworkSettings {
            rendezvous: "127.0.0.1:7480".into(),
            stun: Vec::new(),
            ..NetworkSettings::default()
        };
        for launch in &launches {
            let record = match mode_of(launch, 1, "eve", &network).expect("a mode") {
                Mode::Host(options) => options.record,
                Mode::Join(options) => options.record,
                Mode::Spectate { record, .. } => record,
                Mode::Dial(CodeDial { then: AfterDial::Join(options), .. }) => options.record,
                _ => None,
            };
            let record = record.unwrap_or_else(|| panic!("{launch:?} is not recorded"));
            assert!(record.starts_with(replays_dir()), "{}", record.display());
        }
    }
}
