//! What the window plays: a local game, or one side of a network game. Each takes a frame's
//! real time and what the player holds, runs what that time owes, and draws the frame.

use fixstep_net::rendezvous::PathKind;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use fixstep_gpu::{Agreement, DesyncCount, HostChange, HostingLine, Hud, NetworkLine, PlayingLine};
use fixstep_net::{Admission, WallClock};
use fixstep_netplay::resume::Resumed;
use fixstep_netplay::{HostOptions, NetHost, NetPeer, PeerOptions};
use fixstep_netplay_view::{HostThread, NetGame, NetSpectator, PlayerFrames, Spectator};
use fixstep_present::camera::{CameraRig, FreeLook};
use fixstep_present::convert::{TICK_SECONDS_F32, radians_of_turn_units, seconds_of_micros};
use fixstep_present::format::DrawnFrame;
use fixstep_present::{Controls, FrameOf, Game, LocalGame, Presentation};
use fixstep_runtime::math::Fx;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{HeldInput, Player, Simulation, Tick};
use glam::Vec3;
use winit::keyboard::KeyCode;

use crate::PlayError;
use crate::replay::Timeline;

/// The clock offsets the F3 graph shows, newest last: as many as frame times.
const OFFSET_SAMPLES: usize = fixstep_gpu::overlay::GRAPH_SAMPLES;

/// Milliseconds in a second: the HUD graphs the clock's offset in milliseconds.
const MS_PER_S: f32 = 1_000.0;

/// The spectator camera's distance from what it looks at, metres: the street and the houses
/// on both sides of it in view.
const SPECTATOR_DISTANCE_M: f32 = 30.0;

/// Full deflection of a control, percent.
const FULL_PERCENT: f32 = 100.0;

/// A game the window plays.
pub trait PlaySession<G: Game> {
    /// Runs what `elapsed_micros` of real time owes with `controls` held (and `mouse_turn` of
    /// a command's turn units turned), and draws the frame.
    ///
    /// # Errors
    ///
    /// If the game cannot go on (a tick refused, the connection lost).
    fn frame(
        &mut self,
        elapsed_micros: u64,
        controls: &Controls,
        mouse_turn: i32,
    ) -> Result<(), PlayError>;

    /// The frame drawn last.
    fn drawn(&self) -> &FrameOf<G>;

    /// Writes what the frame drawn last shows into a drawn-log line.
    fn record(&self, line: &mut DrawnFrame);

    /// The camera's zoom.
    fn camera(&mut self) -> &mut CameraRig;

    /// Fills in the HUD's numbers.
    fn hud(&self, hud: &mut Hud);

    /// The player whose character is the window's own, if it plays one.
    fn local_player(&self) -> Option<Player>;

    /// The game is closing (say goodbye): a host hands the match over to the next one.
    fn close(&mut self) {}

    /// A host ends the match for everyone (say so); others only leave it.
    fn end_match(&mut self) {
        self.close();
    }

    /// Whether this hosts the match: its pause menu offers to end it for everyone.
    fn hosts(&self) -> bool {
        false
    }

    /// What is played, in a few words for the pause menu: where friends join a host.
    fn describe(&self) -> String;

    /// Whether it still waits for the host to let it in: the front screen shows meanwhile.
    fn connecting(&self) -> bool {
        false
    }

    /// Whether this only watches: the keys move a camera, not a character.
    fn is_spectator(&self) -> bool {
        false
    }

    /// Whether the game goes on while the window is not drawn (a network game, which others
    /// play too); a game played alone waits.
    fn plays_on_unseen(&self) -> bool {
        true
    }

    /// A key went down: a replay's viewer takes its own keys (play, pause, seek, speed,
    /// follow). Returns whether it took it; the others go on to the controls.
    ///
    /// # Errors
    ///
    /// A seek that does not run.
    fn key(&mut self, code: KeyCode) -> Result<bool, PlayError> {
        let _ = code;
        Ok(false)
    }

    /// Where a replay's viewer is in the match, for the timeline drawn at the bottom; `None`
    /// for a game played live.
    fn timeline(&self) -> Option<Timeline> {
        None
    }

    /// Follows player `player`'s character, or with `None` lets the camera go free (a click on
    /// a replay's roster); a game played live ignores it.
    fn follow(&mut self, player: Option<Player>) {
        let _ = player;
    }

    /// Goes to `tick` of a replay (a click on its timeline); a game played live ignores it.
    ///
    /// # Errors
    ///
    /// A seek that does not run.
    fn seek_to(&mut self, tick: Tick) -> Result<(), PlayError> {
        let _ = tick;
        Ok(())
    }
}

/// Moves a free camera by what the keys and the mouse held for `dt_seconds`.
pub(crate) fn steer(look: &mut FreeLook, controls: &Controls, mouse_turn: i32, dt_seconds: f32) {
    let axis = |percent: i8| f32::from(percent) / FULL_PERCENT;
    let turned = radians_of_turn_units(mouse_turn);
    let (forward, strafe, turn) =
        (axis(controls.forward), axis(controls.strafe), axis(controls.turn));
    look.steer(forward, strafe, turn, turned, dt_seconds);
}

/// Real time as a tick's share, from a scheduler.
fn alpha_of(scheduler: &FrameScheduler) -> f32 {
    scheduler.alpha_millionths() as f32 / 1_000_000.0
}

/// What a local game is, as the pause menu says it: alone, or with how many bots.
fn playing_with(bots: usize) -> String {
    match bots {
        0 => "Playing alone".to_owned(),
        1 => "Playing with a bot".to_owned(),
        bots => format!("Playing with {bots} bots"),
    }
}

/// A game played at the keys, alone or with bots.
pub struct LocalPlay<G: Game> {
    game: LocalGame<G>,
    scheduler: FrameScheduler,
    input: G::Input,
    /// Bots playing beside the player, for the pause menu's line.
    bots: usize,
}

impl<G: Game> LocalPlay<G> {
    /// A game of `content`, played at the keys, with `bots` bots.
    #[must_use]
    pub fn new(content: &Arc<G::Content>, seed: u64, bots: usize) -> Self {
        Self {
            game: LocalGame::held_by_player(content, seed, bots),
            scheduler: FrameScheduler::new(),
            input: G::Input::default(),
            bots,
        }
    }
}

impl<G: Game> PlaySession<G> for LocalPlay<G> {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        controls: &Controls,
        mouse_turn: i32,
    ) -> Result<(), PlayError> {
        self.input.turn_by(mouse_turn);
        let game = &mut self.game;
        let held = G::held(controls);
        self.input.run_frame(&mut self.scheduler, elapsed_micros, &held, |command, partial| {
            game.step_own(&command, partial)
        })?;
        self.game.presentation.own_input(&self.input.partial());
        self.game.presentation.draw(alpha_of(&self.scheduler), seconds_of_micros(elapsed_micros));
        Ok(())
    }

    fn drawn(&self) -> &FrameOf<G> {
        self.game.presentation.frame()
    }

    fn record(&self, line: &mut DrawnFrame) {
        self.game.presentation.record(line);
    }

    fn camera(&mut self) -> &mut CameraRig {
        self.game.presentation.camera()
    }

    fn hud(&self, hud: &mut Hud) {
        hud.tick = self.game.tick().0;
        hud.hash = Some(self.game.hash());
        hud.network = None;
    }

    fn local_player(&self) -> Option<Player> {
        Some(Player(0))
    }

    fn describe(&self) -> String {
        playing_with(self.bots)
    }

    fn plays_on_unseen(&self) -> bool {
        false
    }
}

/// The host of a network game, playing player 0. Its socket is served from a thread of its own
/// ([`HostThread`]): the window runs the ticks on its frames while they come, and the thread
/// stands in when they do not.
pub struct HostPlay<G: NetGame> {
    host: HostThread<G>,
    presentation: G::Presentation,
    input: G::Input,
    /// The players' names as last given to the presentation.
    names: Vec<String>,
    /// Where friends join it.
    address: SocketAddr,
    /// Where its desync reports go, as the HUD names it.
    reports: PathBuf,
}

impl<G: NetGame> HostPlay<G> {
    /// Hosts `content` as `options` say, playing a character of its own.
    ///
    /// # Errors
    ///
    /// If the socket cannot be bound or the thread serving it started.
    pub fn new(content: &Arc<G::Content>, options: &HostOptions) -> Result<Self, PlayError> {
        Self::starting(content, options, None)
    }

    /// Hosts `content` as `options` say, playing the first seat's character, from `resumed`
    /// (a replay's moment, its seats waiting for their players) or from the start.
    ///
    /// # Errors
    ///
    /// If the socket cannot be bound or the thread serving it started.
    pub fn starting(
        content: &Arc<G::Content>,
        options: &HostOptions,
        resumed: Option<Resumed<G>>,
    ) -> Result<Self, PlayError> {
        let options = HostOptions { own_player: true, ..options.clone() };
        let host = NetHost::<G>::bind_starting(content, &options, resumed)?;
        let port = host.local_addr().map_or(options.bind.port(), |a| a.port());
        let ip = fixstep_net::lan::lan_address().unwrap_or(options.bind.ip());
        let mut presentation = G::presentation(content, Player(0));
        presentation.predict_own();
        presentation.observe(host.sim().snapshot(), G::own(host.sim(), Player(0)));
        Ok(Self {
            host: HostThread::start(host, WallClock::new())?,
            presentation,
            input: G::Input::default(),
            names: Vec::new(),
            address: SocketAddr::new(ip, port),
            reports: options.reports.clone(),
        })
    }
}

impl<G: NetGame> PlaySession<G> for HostPlay<G> {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        controls: &Controls,
        mouse_turn: i32,
    ) -> Result<(), PlayError> {
        let now = self.host.clock().now_micros();
        let mut served = self.host.lock();
        if let Some(failure) = served.take_failure() {
            return Err(PlayError::HostStopped(failure));
        }
        self.input.turn_by(mouse_turn);
        // The schedule is copied out for the frame (the closure borrows the rest of `served`)
        // and put back after it; the lock is held throughout, so the thread sees it whole.
        let mut schedule = served.schedule;
        let presentation = &mut self.presentation;
        let held = G::held(controls);
        let scheduler = schedule.run_due(now, &mut self.input, &held, |command, partial| {
            presentation.own_command(served.host.sim().next_tick(), &command, partial);
            served.run_tick(Some(command))
        })?;
        served.schedule = schedule;
        served.host.send();
        for tick in served.drain_completed() {
            self.presentation.observe(&tick.snapshot, tick.own);
        }
        if served.host.names().ne(self.names.iter().map(String::as_str)) {
            self.names = served.host.names().map(str::to_owned).collect();
            self.presentation.set_player_names(&self.names);
        }
        drop(served);
        self.presentation.own_input(&self.input.partial());
        self.presentation.draw(alpha_of(&scheduler), seconds_of_micros(elapsed_micros));
        Ok(())
    }

    fn drawn(&self) -> &FrameOf<G> {
        self.presentation.frame()
    }

    fn record(&self, line: &mut DrawnFrame) {
        self.presentation.record(line);
    }

    fn camera(&mut self) -> &mut CameraRig {
        self.presentation.camera()
    }

    fn hud(&self, hud: &mut Hud) {
        let served = self.host.lock();
        let host = &served.host;
        hud.tick = host.sim().next_tick().0;
        hud.hash = Some(host.hash().total());
        let stats = host.stats();
        let worst_rtt = host.links().iter().filter_map(|(_, _, rtt)| *rtt).max();
        let desyncs = (stats.desyncs > 0).then(|| DesyncCount {
            desyncs: stats.desyncs,
            resyncs: stats.resyncs,
            reports: self.reports.clone(),
        });
        hud.network = Some(NetworkLine::Hosting(HostingLine {
            address: self.address,
            host_tick: host.sim().next_tick().0,
            peers: stats.peers,
            worst_rtt_ms: worst_rtt.map(|r| r / 1000),
            late_inputs: stats.late_inputs,
            stood_in: served.schedule.stood_in(),
            desyncs,
            public: host.public_words(),
            code: host.join_code().map(|c| c.to_string()),
            relayed: host.relayed_peers(),
        }));
    }

    fn local_player(&self) -> Option<Player> {
        Some(Player(0))
    }

    fn close(&mut self) {
        self.host.hand_over();
    }

    fn end_match(&mut self) {
        self.host.shut_down();
    }

    fn hosts(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        let served = self.host.lock();
        let elsewhere = match (served.host.join_code(), served.host.public_words()) {
            (Some(code), Some(public)) => format!("with code {code} or at {public}; "),
            (Some(code), None) => format!("with code {code}; "),
            (None, Some(public)) => format!("at {public}; "),
            (None, None) => String::new(),
        };
        // The address on this network comes last: what a friend here types.
        match elsewhere.as_str() {
            "" => format!("Hosting: friends join at {}", self.address),
            _ => format!("Hosting: friends elsewhere join {elsewhere}here at {}", self.address),
        }
    }
}

/// A player of a network game.
pub struct JoinPlay<G: NetGame> {
    peer: NetPeer<G>,
    /// The host joined.
    host: SocketAddr,
    /// How the path to the host runs, when it was found by code.
    path: Option<PathKind>,
    frames: PlayerFrames<G>,
    offsets: VecDeque<f32>,
    first_offset: Option<Fx>,
    empty: FrameOf<G>,
    camera: CameraRig,
}

impl<G: NetGame> JoinPlay<G> {
    /// A player connecting as `options` say, its socket served from a thread (a window's
    /// frames come when the window system lets them).
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn new(content: &Arc<G::Content>, options: &PeerOptions) -> Result<Self, PlayError> {
        let peer = NetPeer::connect(Arc::clone(content), options)?;
        Ok(Self::with(content, peer, options.host, None))
    }

    /// A player connecting as `options` say on `socket`, whose path to the host a join code's
    /// dial opened (`path` says how it runs).
    ///
    /// # Errors
    ///
    /// If netcode refuses the setup.
    pub fn new_on(
        content: &Arc<G::Content>,
        options: &PeerOptions,
        socket: std::net::UdpSocket,
        path: PathKind,
    ) -> Result<Self, PlayError> {
        let peer = NetPeer::connect_on(Arc::clone(content), options, socket)?;
        Ok(Self::with(content, peer, options.host, Some(path)))
    }

    fn with(
        content: &Arc<G::Content>,
        mut peer: NetPeer<G>,
        host: SocketAddr,
        path: Option<PathKind>,
    ) -> Self {
        peer.serve_from_thread();
        Self {
            peer,
            host,
            path,
            frames: PlayerFrames::new(Arc::clone(content), true),
            offsets: VecDeque::with_capacity(OFFSET_SAMPLES),
            first_offset: None,
            empty: FrameOf::<G>::default(),
            camera: CameraRig::default(),
        }
    }

    /// The match's latest change of host, while it is news: until [`HOST_CHANGE_NEWS_MICROS`]
    /// after the match went on.
    fn host_change(&self) -> Option<HostChange> {
        let moved = self.peer.stats().host_moved.as_ref()?;
        let now = self.peer.clock().local_micros();
        // The match went on when the pause ended: its first tick under the new host.
        let over = moved.pause_micros.map(|pause| moved.stopped_at_micros.saturating_add(pause));
        if over.is_some_and(|at| now.saturating_sub(at) > HOST_CHANGE_NEWS_MICROS) {
            return None;
        }
        Some(HostChange {
            left: moved.left.clone(),
            hosts: moved.hosts.clone(),
            pause_ms: moved.pause_micros.map(|p| p / 1_000),
        })
    }
}

/// How long a change of host stays in a player's HUD after the match went on, microseconds:
/// ten seconds, time to read it and see the game go on.
const HOST_CHANGE_NEWS_MICROS: u64 = 10_000_000;

impl<G: NetGame> PlaySession<G> for JoinPlay<G> {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        controls: &Controls,
        mouse_turn: i32,
    ) -> Result<(), PlayError> {
        // Once the host has ended the game, its last picture stays.
        self.peer.receive(elapsed_micros)?;
        if self.peer.ended().is_some() {
            return Ok(());
        }
        if self.peer.player().is_none() {
            self.peer.send()?;
            return Ok(());
        }
        if self.frames.start(&self.peer)
            && let Some(p) = self.frames.presentation_mut()
        {
            *p.camera() = self.camera;
        }
        self.frames.input_mut().turn_by(mouse_turn);
        let held = G::held(controls);
        self.frames.send_inputs(&mut self.peer, elapsed_micros, &held, |_, command| command);
        let render = self.peer.clock().render_tick();
        self.frames.run_ticks(&mut self.peer, Some(render.unwrap_or(Fx::MIN)), |_, _| {})?;
        self.peer.send()?;
        if let Some(offset) = self.peer.clock().estimate_offset() {
            let first = *self.first_offset.get_or_insert(offset);
            if self.offsets.len() == OFFSET_SAMPLES {
                self.offsets.pop_front();
            }
            let ticks = fixstep_present::convert::f(offset - first);
            self.offsets.push_back(ticks * TICK_SECONDS_F32 * MS_PER_S);
        }
        if let Some(p) = self.frames.presentation_mut() {
            p.set_player_names(self.peer.names());
        }
        self.frames.draw(render, elapsed_micros);
        Ok(())
    }

    fn drawn(&self) -> &FrameOf<G> {
        self.frames.presentation().map_or(&self.empty, Presentation::frame)
    }

    fn record(&self, line: &mut DrawnFrame) {
        if let Some(p) = self.frames.presentation() {
            p.record(line);
        }
    }

    fn camera(&mut self) -> &mut CameraRig {
        match self.frames.presentation_mut() {
            Some(p) => p.camera(),
            None => &mut self.camera,
        }
    }

    fn hud(&self, hud: &mut Hud) {
        hud.tick = self.peer.sim().map_or(0, |s| s.next_tick().0);
        hud.hash = self.peer.hash().map(fixstep_runtime::StateHash::total);
        let stats = self.peer.stats();
        let link = self.peer.link();
        let agreement = match (stats.desync, stats.resynced) {
            (_, Some(tick)) => Agreement::Resynced(tick.0),
            (Some(tick), None) => Agreement::Desync(tick.0),
            (None, None) if stats.hashed.is_some() => Agreement::Agrees,
            (None, None) => Agreement::Unknown,
        };
        let line = if let Some(ended) = self.peer.ended() {
            NetworkLine::Ended(ended.to_owned())
        } else if self.peer.player().is_none() {
            NetworkLine::Connecting
        } else {
            NetworkLine::Playing(PlayingLine {
                host_tick: stats.host_tick.map(|t| t.0),
                rtt_ms: link.rtt_micros / 1000,
                queued: stats.queued,
                margin_ms: stats.margin_micros.map(|(margin, aim)| (margin / 1000, aim / 1000)),
                late_inputs: stats.late_inputs,
                hashed: stats.hashed.map(|(t, h)| (t.0, h)),
                agreement,
                host_change: self.host_change(),
                // The path the code found, the first host's until the host changes.
                path: match self.peer.stats().host_moved {
                    Some(_) => self.peer.code_path(),
                    None => self.path,
                }
                .map(|p| p.to_string()),
            })
        };
        hud.network = Some(line);
        hud.clock_offsets.clear();
        if hud.show_graph {
            hud.clock_offsets.extend(self.offsets.iter().copied());
        }
    }

    fn local_player(&self) -> Option<Player> {
        self.peer.player()
    }

    fn close(&mut self) {
        let _ = self.peer.send();
        self.peer.disconnect();
    }

    fn describe(&self) -> String {
        format!("Playing at {}", self.host)
    }

    fn connecting(&self) -> bool {
        self.peer.player().is_none() && self.peer.ended().is_none()
    }
}

/// A spectator of a network game: what it is sent, drawn by its game's spectator, through a
/// camera the keys move.
pub struct SpectatePlay<G: NetGame> {
    spectator: NetSpectator<G>,
    /// A free camera: WASD move it, Q/E and the mouse turn it.
    camera: CameraRig,
    /// The host watched.
    host: SocketAddr,
}

impl<G: NetGame> SpectatePlay<G> {
    /// A spectator named `name` of the game hosted at `host`, its socket served from a
    /// thread, recording what it watches into `record` if given.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn new(
        content: &Arc<G::Content>,
        host: SocketAddr,
        name: &str,
        admission: &Admission,
        record: Option<PathBuf>,
    ) -> Result<Self, PlayError> {
        let spectator = NetSpectator::connect(content, host, name, admission, record)?;
        Ok(Self::with(spectator, host))
    }

    /// The same on `socket`, whose path to the host a join code's dial opened.
    ///
    /// # Errors
    ///
    /// If netcode refuses the setup.
    pub fn new_on(
        content: &Arc<G::Content>,
        socket: std::net::UdpSocket,
        host: SocketAddr,
        name: &str,
        admission: &Admission,
        record: Option<PathBuf>,
    ) -> Result<Self, PlayError> {
        let spectator = NetSpectator::connect_on(content, socket, host, name, admission, record)?;
        Ok(Self::with(spectator, host))
    }

    fn with(mut spectator: NetSpectator<G>, host: SocketAddr) -> Self {
        spectator.serve_from_thread();
        Self {
            spectator,
            camera: CameraRig {
                distance: SPECTATOR_DISTANCE_M,
                free: Some(FreeLook { target: Vec3::ZERO, facing: std::f32::consts::FRAC_PI_2 }),
            },
            host,
        }
    }
}

impl<G: NetGame> PlaySession<G> for SpectatePlay<G> {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        controls: &Controls,
        mouse_turn: i32,
    ) -> Result<(), PlayError> {
        let dt = seconds_of_micros(elapsed_micros);
        // The keys move and turn the camera, not a character.
        let look = self.camera.free.get_or_insert(FreeLook { target: Vec3::ZERO, facing: 0.0 });
        steer(look, controls, mouse_turn, dt);
        self.spectator.look_at(look.target);
        // Once the host has ended the game, its last picture stays.
        self.spectator.receive(elapsed_micros)?;
        if self.spectator.ended().is_some() {
            return Ok(());
        }
        let camera = self.camera.free_draw().unwrap_or_default();
        self.spectator.draw(&camera, dt);
        self.spectator.send()?;
        Ok(())
    }

    fn drawn(&self) -> &FrameOf<G> {
        self.spectator.spectator().frame()
    }

    fn record(&self, line: &mut DrawnFrame) {
        self.spectator.spectator().record(line);
    }

    fn camera(&mut self) -> &mut CameraRig {
        &mut self.camera
    }

    fn hud(&self, hud: &mut Hud) {
        let render_tick = self.spectator.spectator().render_tick();
        hud.tick = if render_tick.is_finite() { render_tick.max(0.0) as u32 } else { 0 };
        let link = self.spectator.link();
        hud.network = Some(self.spectator.ended().map_or_else(
            || NetworkLine::Watching {
                // Whole seconds; a delay under one is the link's, and not shown.
                behind_s: self.spectator.behind_seconds().map_or(0, |s| s as u32),
                entities: self.spectator.spectator().entities(),
                snapshots: self.spectator.updates(),
                rtt_ms: link.rtt_micros / 1000,
            },
            |ended| NetworkLine::Ended(ended.to_owned()),
        ));
    }

    fn local_player(&self) -> Option<Player> {
        None
    }

    fn is_spectator(&self) -> bool {
        true
    }

    fn close(&mut self) {
        let _ = self.spectator.send();
        self.spectator.disconnect();
    }

    fn describe(&self) -> String {
        format!("Watching {}", self.host)
    }

    fn connecting(&self) -> bool {
        !self.spectator.is_welcomed() && self.spectator.ended().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::playing_with;

    #[test]
    fn the_pause_menu_says_alone_only_when_no_bot_plays() {
        assert_eq!(playing_with(0), "Playing alone");
        assert_eq!(playing_with(1), "Playing with a bot");
        assert_eq!(playing_with(3), "Playing with 3 bots");
    }
}
