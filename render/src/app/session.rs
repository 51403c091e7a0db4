//! What the window plays: a local game, or one side of a network game. Each takes a frame's
//! real time and what the player holds, runs what that time owes, and draws the frame.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use fixstep_game::PlayerCommand;
use fixstep_game::level::Level;
use fixstep_game::predict::{InputAccumulator, OwnRules};
use fixstep_net::WallClock;
use fixstep_runtime::math::Fx;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{Simulation, Tick};
use glam::Vec3;

use crate::gpu::Hud;
use crate::local_game::LocalGame;
use crate::net_game::{HostOptions, HostThread, NetHost, NetPeer, NetSpectator, PlayerFrames};
use crate::present::camera::CameraRig;
use crate::present::convert::{TICK_SECONDS_F32, TICKS_PER_SECOND_F32, f};
use crate::present::frame::{CharacterDraw, STRANGER, TaxiDraw};
use crate::present::remote::Motion;
use crate::present::samples::{CharacterSample, TaxiSample};
use crate::present::{DrawFrame, LocalPresentation};

/// The clock offsets the F3 graph shows, newest last: as many as frame times.
const OFFSET_SAMPLES: usize = crate::gpu::overlay::GRAPH_SAMPLES;

/// A game the window plays.
pub trait PlaySession {
    /// Runs what `elapsed_micros` of real time owes with `held` held (and `mouse_turn` of a
    /// command's turn units turned), and draws the frame.
    ///
    /// # Errors
    ///
    /// If the game cannot go on (a tick refused, the connection lost).
    fn frame(
        &mut self,
        elapsed_micros: u64,
        held: &PlayerCommand,
        mouse_turn: i32,
    ) -> Result<&DrawFrame>;

    /// The frame drawn last.
    fn drawn(&self) -> &DrawFrame;

    /// The camera's zoom.
    fn camera(&mut self) -> &mut CameraRig;

    /// Fills in the HUD's numbers.
    fn hud(&self, hud: &mut Hud);

    /// The level played.
    fn level(&self) -> &Arc<Level>;

    /// The game is closing (say goodbye).
    fn close(&mut self) {}

    /// Whether this only watches: the keys move a camera, not a character.
    fn is_spectator(&self) -> bool {
        false
    }

    /// Whether the game goes on while the window is not drawn (a network game, which others
    /// play too); a game played alone waits.
    fn plays_on_unseen(&self) -> bool {
        true
    }
}

/// Real time as a tick's share, in millionths, from a scheduler.
fn alpha_of(scheduler: &FrameScheduler) -> f32 {
    scheduler.alpha_millionths() as f32 / 1_000_000.0
}

fn seconds(micros: u64) -> f32 {
    micros as f32 / 1e6
}

/// A game played alone.
pub struct LocalPlay {
    game: LocalGame,
    scheduler: FrameScheduler,
    input: InputAccumulator,
}

impl LocalPlay {
    /// The town of `level`, played alone.
    #[must_use]
    pub fn new(level: Arc<Level>, seed: u64) -> Self {
        Self {
            game: LocalGame::held_by_player(level, seed),
            scheduler: FrameScheduler::new(),
            input: InputAccumulator::new(),
        }
    }
}

impl PlaySession for LocalPlay {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        held: &PlayerCommand,
        mouse_turn: i32,
    ) -> Result<&DrawFrame> {
        self.input.turn_by(mouse_turn);
        let game = &mut self.game;
        self.input.run_frame(&mut self.scheduler, elapsed_micros, held, |command, partial| {
            game.step_own(command, partial)
        })?;
        self.game.presentation.own_input(&self.input.partial());
        Ok(self.game.presentation.draw(alpha_of(&self.scheduler), seconds(elapsed_micros)))
    }

    fn drawn(&self) -> &DrawFrame {
        self.game.presentation.frame()
    }

    fn camera(&mut self) -> &mut CameraRig {
        &mut self.game.presentation.camera
    }

    fn hud(&self, hud: &mut Hud) {
        hud.tick = self.game.tick();
        hud.hash = Some(self.game.hash());
        hud.network = None;
    }

    fn plays_on_unseen(&self) -> bool {
        false
    }

    fn level(&self) -> &Arc<Level> {
        self.game.presentation.level()
    }
}

/// The host of a network game, playing player 0. Its socket is served from a thread of its own
/// ([`HostThread`]): the window runs the ticks on its frames while they come, and the thread
/// stands in when they do not.
pub struct HostPlay {
    host: HostThread,
    presentation: LocalPresentation,
    input: InputAccumulator,
}

impl HostPlay {
    /// Hosts `level` as `options` say, playing a character of its own.
    ///
    /// # Errors
    ///
    /// If the socket cannot be bound or the thread serving it started.
    pub fn new(level: Arc<Level>, options: &HostOptions) -> Result<Self> {
        let options = HostOptions { own_player: true, ..options.clone() };
        let host = NetHost::bind(Arc::clone(&level), &options)?;
        let mut presentation = LocalPresentation::new(level, 0);
        presentation.observe(host.sim().snapshot());
        presentation.predict_own();
        presentation.observe_own(OwnRules::body(host.sim(), 0));
        Ok(Self {
            host: HostThread::start(host, WallClock::new())?,
            presentation,
            input: InputAccumulator::new(),
        })
    }
}

impl PlaySession for HostPlay {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        held: &PlayerCommand,
        mouse_turn: i32,
    ) -> Result<&DrawFrame> {
        let now = self.host.clock().now_micros();
        let mut served = self.host.lock();
        if let Some(failure) = served.take_failure() {
            return Err(failure.context("the host stopped"));
        }
        self.input.turn_by(mouse_turn);
        // The schedule is copied out for the frame (the closure borrows the rest of `served`)
        // and put back after it; the lock is held throughout, so the thread sees it whole.
        let mut schedule = served.schedule;
        let presentation = &mut self.presentation;
        let scheduler = schedule.window_frame(now, &mut self.input, held, |command, partial| {
            presentation.own_command(served.host.sim().next_tick(), command, partial);
            served.run_tick(Some(command))
        })?;
        served.schedule = schedule;
        served.host.send();
        for tick in served.drain_completed() {
            self.presentation.observe(&tick.snapshot);
            self.presentation.observe_own(tick.own);
        }
        self.presentation.set_player_names(served.host.names());
        drop(served);
        self.presentation.own_input(&self.input.partial());
        Ok(self.presentation.draw(alpha_of(&scheduler), seconds(elapsed_micros)))
    }

    fn drawn(&self) -> &DrawFrame {
        self.presentation.frame()
    }

    fn camera(&mut self) -> &mut CameraRig {
        &mut self.presentation.camera
    }

    fn hud(&self, hud: &mut Hud) {
        let served = self.host.lock();
        let host = &served.host;
        hud.tick = host.sim().next_tick().0;
        hud.hash = Some(host.hash().total());
        let stats = host.stats();
        let worst_rtt = host.links().iter().filter_map(|(_, _, l)| l.map(|l| l.rtt_micros)).max();
        let mut line = format!(
            "hosting: host tick {}   peers {}   rtt {}   late inputs {}",
            host.sim().next_tick().0,
            stats.peers,
            worst_rtt.map_or_else(|| "-".to_owned(), |r| format!("{} ms", r / 1000)),
            stats.late_inputs,
        );
        let stood_in = served.schedule.stood_in();
        if stood_in > 0 {
            line.push_str(&format!("   ticks run without the window {stood_in}"));
        }
        if stats.desyncs > 0 {
            line.push_str(&format!("   DESYNC x{} (see desync-reports/)", stats.desyncs));
        }
        hud.network = Some(line);
    }

    fn level(&self) -> &Arc<Level> {
        self.presentation.level()
    }

    fn close(&mut self) {
        self.host.shut_down();
    }
}

/// A player of a network game.
pub struct JoinPlay {
    peer: NetPeer,
    level: Arc<Level>,
    frames: PlayerFrames,
    offsets: std::collections::VecDeque<f32>,
    first_offset: Option<Fx>,
    empty: DrawFrame,
    camera: CameraRig,
}

impl JoinPlay {
    /// A player named `name` of the game hosted at `host`, its socket served from a thread
    /// (a window's frames come when the window system lets them).
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn new(level: Arc<Level>, host: SocketAddr, name: &str, reports: PathBuf) -> Result<Self> {
        let mut peer = NetPeer::connect(Arc::clone(&level), host, name, reports)?;
        peer.serve_from_thread();
        Ok(Self {
            peer,
            frames: PlayerFrames::new(Arc::clone(&level), true),
            level,
            offsets: std::collections::VecDeque::with_capacity(OFFSET_SAMPLES),
            first_offset: None,
            empty: DrawFrame::default(),
            camera: CameraRig::default(),
        })
    }
}

impl PlaySession for JoinPlay {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        held: &PlayerCommand,
        mouse_turn: i32,
    ) -> Result<&DrawFrame> {
        // Once the host has ended the game, its last picture stays.
        self.peer.receive(elapsed_micros)?;
        if self.peer.ended().is_some() {
            return Ok(self.drawn());
        }
        if self.peer.player().is_none() {
            self.peer.send()?;
            return Ok(&self.empty);
        }
        if self.frames.start(&self.peer)
            && let Some(p) = self.frames.presentation_mut()
        {
            p.camera = self.camera;
        }
        self.frames.input_mut().turn_by(mouse_turn);
        self.frames.send_inputs(&mut self.peer, elapsed_micros, held, |_, command| command);
        let render = self.peer.clock().render_tick();
        self.frames.run_ticks(&mut self.peer, Some(render.unwrap_or(Fx::MIN)), |_, _| {})?;
        self.peer.send()?;
        if let Some(offset) = self.peer.clock().estimate_offset() {
            let first = *self.first_offset.get_or_insert(offset);
            if self.offsets.len() == OFFSET_SAMPLES {
                self.offsets.pop_front();
            }
            let ticks = (offset - first).to_num::<f32>();
            self.offsets.push_back(ticks * TICK_SECONDS_F32 * MS_PER_S);
        }
        if let Some(p) = self.frames.presentation_mut() {
            p.set_player_names(self.peer.names().iter().map(String::as_str));
        }
        Ok(self.frames.draw(render, elapsed_micros).unwrap_or(&self.empty))
    }

    fn drawn(&self) -> &DrawFrame {
        self.frames.presentation().map_or(&self.empty, LocalPresentation::frame)
    }

    fn camera(&mut self) -> &mut CameraRig {
        match self.frames.presentation_mut() {
            Some(p) => &mut p.camera,
            None => &mut self.camera,
        }
    }

    fn hud(&self, hud: &mut Hud) {
        hud.tick = self.peer.sim().map_or(0, |s| s.next_tick().0);
        hud.hash = self.peer.hash().map(fixstep_runtime::StateHash::total);
        let stats = self.peer.stats();
        let link = self.peer.link();
        let mut line = format!(
            "host tick {}   rtt {} ms   input queue {}, margin {}   late inputs {}   last hash {}",
            stats.host_tick.map_or_else(|| "-".to_owned(), |t: Tick| t.0.to_string()),
            link.rtt_micros / 1000,
            stats.queued,
            stats.margin_micros.map_or_else(
                || "-".to_owned(),
                |(margin, target)| format!("{} ms (aim {})", margin / 1000, target / 1000)
            ),
            stats.late_inputs,
            stats
                .hashed
                .map_or_else(|| "-".to_owned(), |(t, h)| format!("{} {:08x}", t.0, h >> 32)),
        );
        match stats.desync {
            Some(tick) => line.push_str(&format!("   DESYNC at tick {}", tick.0)),
            None if stats.hashed.is_some() => line.push_str(" (agrees)"),
            None => {}
        }
        if self.peer.player().is_none() {
            line = "connecting...".to_owned();
        }
        if let Some(ended) = self.peer.ended() {
            line = format!("{ended}: {ENDED_HINT}");
        }
        hud.network = Some(line);
        hud.clock_offsets.clear();
        if hud.show_graph {
            hud.clock_offsets.extend(self.offsets.iter().copied());
        }
    }

    fn level(&self) -> &Arc<Level> {
        &self.level
    }

    fn close(&mut self) {
        let _ = self.peer.send();
        self.peer.disconnect();
    }
}

/// A spectator of a network game: the remote view drawn as the town.
pub struct SpectatePlay {
    spectator: NetSpectator,
    level: Arc<Level>,
    frame: DrawFrame,
    camera: CameraRig,
    /// Where the camera looks, world metres; WASD move it, Q/E turn the view.
    target: Vec3,
    facing: f32,
    /// Each walker's animation frame and each taxi's wheel turn, by id, with the count of
    /// the frame that last drew it (those not drawn on a frame are forgotten).
    phases: std::collections::BTreeMap<u64, (f32, u64)>,
    /// Frames drawn.
    frames: u64,
}

/// What the HUD adds when the host has ended the game: the window stays on its last picture
/// until the player closes it.
const ENDED_HINT: &str = "Esc quits";

/// Milliseconds in a second: the HUD graphs the clock's offset in milliseconds.
const MS_PER_S: f32 = 1_000.0;

/// How fast the spectator's camera moves with the movement keys, metres a second.
const SPECTATOR_PAN_M_S: f32 = 12.0;

/// How fast it turns with Q and E, radians a second.
const SPECTATOR_TURN_RAD_S: f32 = 1.5;

/// Walkers faster than this are drawn running, metres a second.
const RUN_DRAWN_M_S: f32 = 2.5;

/// Walkers slower than this are drawn standing, metres a second.
const WALK_DRAWN_M_S: f32 = 0.2;

/// A command's turn unit in radians: commands turn in 2^-16 of a turn, and so does the mouse.
const RADIANS_PER_TURN_UNIT: f32 = std::f32::consts::TAU / 65_536.0;

/// What a spectator draws a character's health as until the host has said: full, the health
/// every character starts with.
const UNTOLD_HEALTH: f32 = fixstep_game::tuning::MAX_HEALTH as f32;

impl SpectatePlay {
    /// A spectator named `name` of the game hosted at `host`, its socket served from a
    /// thread.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn new(level: Arc<Level>, host: SocketAddr, name: &str) -> Result<Self> {
        let mut spectator = NetSpectator::connect(&level, host, name)?;
        spectator.serve_from_thread();
        Ok(Self {
            spectator,
            level,
            frame: DrawFrame::default(),
            camera: CameraRig { distance: 30.0 },
            target: Vec3::ZERO,
            facing: std::f32::consts::FRAC_PI_2,
            phases: std::collections::BTreeMap::new(),
            frames: 0,
        })
    }
}

impl PlaySession for SpectatePlay {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        held: &PlayerCommand,
        mouse_turn: i32,
    ) -> Result<&DrawFrame> {
        let dt = seconds(elapsed_micros);
        // The keys move and turn the camera, not a character.
        self.facing += (f32::from(held.turn.signum()) * SPECTATOR_TURN_RAD_S * dt)
            + mouse_turn as f32 * RADIANS_PER_TURN_UNIT;
        let forward = Vec3::new(self.facing.cos(), 0.0, -self.facing.sin());
        let right = Vec3::new(-forward.z, 0.0, forward.x);
        let step = (forward * f32::from(held.forward) + right * f32::from(held.strafe)) / 100.0;
        self.target += step * SPECTATOR_PAN_M_S * dt;
        self.spectator.look_at(self.target);
        // Once the host has ended the game, its last picture stays.
        self.spectator.receive(elapsed_micros)?;
        if self.spectator.ended().is_some() {
            return Ok(&self.frame);
        }
        let clips = &self.level.clips;
        let (remote, objects, people) = self.spectator.draw();
        let frame = &mut self.frame;
        frame.render_tick = if remote.render_tick.is_finite() { remote.render_tick } else { 0.0 };
        frame.characters.clear();
        frame.taxis.clear();
        frame.objects.clear();
        frame.objects.extend_from_slice(objects);
        for e in &remote.entities {
            let s = &e.sample;
            match e.motion {
                Motion::Walker => {
                    let anim = if s.speed > RUN_DRAWN_M_S {
                        fixstep_game::AnimState::Run
                    } else if s.speed > WALK_DRAWN_M_S {
                        fixstep_game::AnimState::Walk
                    } else {
                        fixstep_game::AnimState::Idle
                    };
                    let clip = clips.clip(anim);
                    let rate = clip.frames_per_tick.to_num::<f32>() * TICKS_PER_SECOND_F32;
                    let (phase, drawn) = self.phases.entry(e.id).or_insert((0.0, 0));
                    *drawn = self.frames;
                    *phase = (*phase + dt * rate).rem_euclid(clip.frames as f32);
                    let health = people.health_at(e.id, frame.render_tick);
                    frame.characters.push(CharacterDraw {
                        id: fixstep_runtime::EntityId { index: e.id as u32, generation: 0 },
                        role: people.role(e.id).unwrap_or(STRANGER),
                        sample: CharacterSample {
                            pos: s.pos,
                            facing: s.yaw,
                            anim,
                            clip: clips.by_state[anim.index()],
                            frame: *phase,
                            enabled: true,
                            jumps: s.jumps,
                            health: health.map_or(UNTOLD_HEALTH, |h| h as f32),
                        },
                        speed: s.speed,
                        tick: s.tick,
                        local: false,
                    });
                }
                Motion::Vehicle => {
                    let index = e.id.saturating_sub(crate::record::TAXI_ID_BASE) as usize;
                    let (wheel, drawn) = self.phases.entry(e.id).or_insert((0.0, 0));
                    *drawn = self.frames;
                    // Rolling, at the rules' wheel size.
                    *wheel += s.speed * dt / f(fixstep_game::tuning::TAXI_WHEEL_RADIUS);
                    frame.taxis.push(TaxiDraw {
                        index,
                        sample: TaxiSample {
                            pos: s.pos,
                            yaw: s.yaw,
                            steer: 0.0,
                            wheel: *wheel,
                            speed: s.speed,
                            jumps: s.jumps,
                        },
                    });
                }
            }
        }
        let this_frame = self.frames;
        self.phases.retain(|_, &mut (_, drawn)| drawn == this_frame);
        self.frames += 1;
        frame.camera = self.camera.behind(self.target, self.facing);
        frame.set_player_names(self.spectator.names().iter().map(String::as_str));
        let tick = Tick(frame.render_tick.max(0.0) as u32);
        frame.time_of_day = fixstep_game::time_of_day(&self.level, tick) as f32 / 4_294_967_296.0;
        self.spectator.send()?;
        Ok(&self.frame)
    }

    fn drawn(&self) -> &DrawFrame {
        &self.frame
    }

    fn camera(&mut self) -> &mut CameraRig {
        &mut self.camera
    }

    fn hud(&self, hud: &mut Hud) {
        hud.tick = self.frame.render_tick as u32;
        let link = self.spectator.link();
        hud.network = Some(self.spectator.ended().map_or_else(
            || {
                format!(
                    "watching: {} entities   {} snapshots   rtt {} ms",
                    self.spectator.view().len(),
                    self.spectator.snapshots(),
                    link.rtt_micros / 1000
                )
            },
            |ended| format!("{ended}: {ENDED_HINT}"),
        ));
    }

    fn is_spectator(&self) -> bool {
        true
    }

    fn level(&self) -> &Arc<Level> {
        &self.level
    }

    fn close(&mut self) {
        let _ = self.spectator.send();
        self.spectator.disconnect();
    }
}
