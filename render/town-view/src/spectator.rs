//! A spectator's view of the town: no town of its own, only the poses it is sent, drawn
//! through the remote view, and the objects' transforms, drawn between their changes; made
//! into the same frames a player draws, so one renderer draws both.

use std::collections::BTreeMap;
use std::sync::Arc;

use fixstep_netplay_view::Spectator;
use fixstep_netplay_view::ground::{GroundPoint, GroundView};
use fixstep_present::CameraDraw;
use fixstep_present::convert::{TICKS_PER_SECOND_F32, day_fraction, f};
use fixstep_present::format::DrawnFrame;
use fixstep_present::remote::{Motion, RemoteObjects};
use fixstep_runtime::{EntityId, Tick};
use fixstep_town::level::Level;
use fixstep_town::{AnimState, tuning};

use crate::Town;
use crate::present::frame::{CharacterDraw, DrawFrame, ObjectDraw, STRANGER, TaxiDraw};
use crate::present::samples::{CharacterSample, ObjectSample, TaxiSample};
use crate::record::{ObjectMotion, TAXI_ID_BASE, record_remote};
use crate::wire::{TownUpdate, object_view_of, role_of_code};

/// Walkers faster than this are drawn running, metres a second.
const RUN_DRAWN_M_S: f32 = 2.5;

/// Walkers slower than this are drawn standing, metres a second.
const WALK_DRAWN_M_S: f32 = 0.2;

/// What a spectator draws a character's health as until the host has said: full, the health
/// every character starts with.
const UNTOLD_HEALTH: f32 = tuning::MAX_HEALTH as f32;

/// A spectator's view of the town; see the [module documentation](self).
#[derive(Debug)]
pub struct TownSpectator {
    level: Arc<Level>,
    view: GroundView,
    objects: RemoteObjects<ObjectSample>,
    object_motion: ObjectMotion,
    drawn_seconds: f64,
    frame: DrawFrame,
    /// Each walker's animation frame and each taxi's wheel turn, by id, with the count of
    /// the frame that last drew it (those not drawn on a frame are forgotten).
    phases: BTreeMap<u64, (f32, u64)>,
    /// Frames drawn.
    frames: u64,
}

impl TownSpectator {
    /// A view of `level` that has been sent nothing.
    #[must_use]
    pub fn new(level: &Arc<Level>) -> Self {
        Self {
            level: Arc::clone(level),
            view: GroundView::new(),
            objects: RemoteObjects::default(),
            object_motion: ObjectMotion::new(),
            drawn_seconds: 0.0,
            frame: DrawFrame::default(),
            phases: BTreeMap::new(),
            frames: 0,
        }
    }

    /// Draws the frame through `camera`, `dt` seconds after the last.
    fn draw_frame(&mut self, camera: &CameraDraw, dt: f32) -> &DrawFrame {
        self.drawn_seconds += f64::from(dt.max(0.0));
        let clips = &self.level.clips;
        let (remote, people) = self.view.draw();
        let frame = &mut self.frame;
        frame.render_tick = if remote.render_tick.is_finite() { remote.render_tick } else { 0.0 };
        frame.characters.clear();
        frame.taxis.clear();
        frame.objects.clear();
        frame.objects.extend(
            self.objects.draw(frame.render_tick).iter().map(|(i, s)| ObjectDraw::of(*i, s)),
        );
        self.object_motion.drawn(self.drawn_seconds, &self.level, &frame.objects);
        for e in &remote.entities {
            let s = &e.sample;
            match e.motion {
                Motion::Walker => {
                    let anim = if s.speed > RUN_DRAWN_M_S {
                        AnimState::Run
                    } else if s.speed > WALK_DRAWN_M_S {
                        AnimState::Walk
                    } else {
                        AnimState::Idle
                    };
                    let clip = clips.clip(anim);
                    let rate = f(clip.frames_per_tick) * TICKS_PER_SECOND_F32;
                    let (phase, drawn) = self.phases.entry(e.id).or_insert((0.0, 0));
                    *drawn = self.frames;
                    *phase = (*phase + dt * rate).rem_euclid(clip.frames as f32);
                    let health = people.health_at(e.id, frame.render_tick);
                    frame.characters.push(CharacterDraw {
                        id: EntityId { index: e.id as u32, generation: 0 },
                        role: people.role(e.id).and_then(role_of_code).unwrap_or(STRANGER),
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
                    let index = e.id.saturating_sub(TAXI_ID_BASE) as usize;
                    let (wheel, drawn) = self.phases.entry(e.id).or_insert((0.0, 0));
                    *drawn = self.frames;
                    // Rolling, at the rules' wheel size.
                    *wheel += s.speed * dt / f(tuning::TAXI_WHEEL_RADIUS);
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
        frame.camera = *camera;
        let tick = Tick(frame.render_tick.max(0.0) as u32);
        frame.time_of_day = day_fraction(fixstep_town::time_of_day(&self.level, tick));
        &self.frame
    }
}

impl Spectator<Town> for TownSpectator {
    type Frame = DrawFrame;

    fn new(content: &Arc<Level>) -> Self {
        Self::new(content)
    }

    fn advance(&mut self, elapsed_micros: u64) {
        self.view.advance(elapsed_micros);
    }

    fn host_changed(&mut self) {
        self.view.host_changed();
    }

    fn update(&mut self, update: TownUpdate) {
        self.view.update(&update.ground);
        for object in &update.objects {
            let sample = ObjectSample::of(&object_view_of(object));
            self.objects.measure(object.index as usize, update.ground.tick.0, sample);
        }
    }

    fn view(&self, target: glam::Vec3) -> GroundPoint {
        GroundPoint::under(target)
    }

    fn draw(&mut self, camera: &CameraDraw, dt_seconds: f32) -> &DrawFrame {
        self.draw_frame(camera, dt_seconds)
    }

    fn frame(&self) -> &DrawFrame {
        &self.frame
    }

    fn render_tick(&self) -> f64 {
        self.view.view().frame().render_tick
    }

    fn entities(&self) -> usize {
        self.view.view().len()
    }

    fn set_player_names(&mut self, names: &[String]) {
        self.frame.set_player_names(names.iter().map(String::as_str));
    }

    fn record(&self, line: &mut DrawnFrame) {
        record_remote(self.view.view().frame(), &self.frame.objects, &self.object_motion, line);
    }
}
