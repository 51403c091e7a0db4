//! A whole presentation for games whose entities are simple shapes on a ground plane: discs,
//! pucks, boxes. Such a game lists its entities as [`ShapePose`]s in the simulation's own
//! fixed-point numbers ([`ShapeGame`]), says what each kind looks like ([`Look`]) and where its
//! camera stands, and [`ShapePresentation`] does the rest: every entity's previous and current
//! samples, drawn between ticks at the frame's alpha, reset at jumps, new entities drawn from
//! their first tick; the player's own shape from its prediction ([`crate::own`]) by the
//! game's own movement rule, so a key shows on the next frame; names over the players; the
//! game's status line. Its frames
//! ([`ShapeFrame`]) are what `fixstep-gpu`'s shape renderer draws.
//!
//! The game itself stays free of floats: its looks are integers (millimetres, sRGB bytes), its
//! poses fixed point. The conversion happens here, as everywhere, in [`crate::convert`].

use std::sync::Arc;

use fixstep_runtime::math::{Angle, Vec2, Vec3 as FxVec3};
use fixstep_runtime::{Player, Tick};
use glam::Vec3;

use crate::camera::{CameraDraw, CameraRig};
use crate::convert::{TICKS_PER_SECOND_F32, f, ground, radians, world};
use crate::format::{DrawnEntity, DrawnFrame};
use crate::game::{CommandOf, Game, PartialOf, Presentation, SnapshotOf};
use crate::interp::{drawn_speed, lerp_angle, lerp_vec};
use crate::own::{OwnPrediction, OwnRules};
use crate::remote::Motion;
use crate::track::{Sample, Track};

/// One entity of a shape game at a tick, in the simulation's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapePose {
    /// Its id, stable for its life: the id of the drawn log and the truth.
    pub id: u64,
    /// Its kind, an index into [`ShapeGame::kinds`].
    pub kind: u16,
    /// Where it is on the ground, metres (x east, y north).
    pub pos: Vec2,
    /// Its heading.
    pub yaw: Angle,
    /// Its velocity, metres per tick (for a spectator's pose, and the truth's speed).
    pub velocity: Vec2,
    /// Counts the times the rules put it somewhere new: never drawn in between.
    pub jumps: u32,
    /// The player it belongs to, if any: named over its head.
    pub player: Option<Player>,
}

/// A shape, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An upright cylinder standing on the ground (a disc, a puck, a post).
    Cylinder {
        /// Radius.
        radius_mm: u32,
        /// Height.
        height_mm: u32,
    },
    /// A box standing on the ground, its length along the heading.
    Block {
        /// Length (along the heading), width and height.
        size_mm: [u32; 3],
    },
}

/// What a kind of entity, or a piece of scenery, looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Its shape.
    pub shape: Shape,
    /// Its colour, sRGB bytes.
    pub colour: [u8; 3],
}

/// A kind of entity: its name (the drawn log's and the report's), how it is drawn, and how it
/// moves between two measurements when a spectator is sent it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeKind {
    /// Its name.
    pub name: &'static str,
    /// Its look.
    pub look: Look,
    /// How it moves.
    pub motion: Motion,
}

/// A piece of the scenery: something that never moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scenery {
    /// Where it stands, metres on the ground.
    pub at: Vec2,
    /// Its heading.
    pub yaw: Angle,
    /// Its look.
    pub look: Look,
}

/// Where a shape game's camera stands: fixed, over the play area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeCamera {
    /// The eye, metres (x east, y up, z south).
    pub eye: FxVec3,
    /// The point looked at.
    pub target: FxVec3,
}

/// A game drawn as shapes; see the [module documentation](self).
pub trait ShapeGame: Game {
    /// The movement rule of a player's own shape, run ahead of the ticks on a copy of it
    /// ([`Game::Own`]) when the player's input is held keys.
    type OwnRules: OwnRules<Command = CommandOf<Self>, Body = Self::Own, Partial = PartialOf<Self>>;

    /// The own-shape movement rule of `content`.
    fn own_rules(content: &Arc<Self::Content>) -> Self::OwnRules;

    /// Every kind of entity, by [`ShapePose::kind`].
    fn kinds() -> &'static [ShapeKind];

    /// The scenery of `content`, drawn under everything: its floor first.
    fn scenery(content: &Self::Content) -> Vec<Scenery>;

    /// Where the camera stands over `content`.
    fn camera(content: &Self::Content) -> ShapeCamera;

    /// The tick a snapshot shows: ticks run so far.
    fn tick_of(snapshot: &SnapshotOf<Self>) -> Tick;

    /// Hands `each` every entity of `snapshot`, in id order.
    fn shapes(snapshot: &SnapshotOf<Self>, each: &mut dyn FnMut(ShapePose));

    /// The line the game shows over the picture (a score, a clock), written into `out`.
    fn status(snapshot: &SnapshotOf<Self>, out: &mut String);
}

/// The visual values of one shape at a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeSample {
    /// Where it stands, world metres.
    pub pos: Vec3,
    /// Its heading, radians.
    pub yaw: f32,
    /// Its jump counter.
    pub jumps: u32,
}

impl ShapeSample {
    /// The sample of a pose.
    #[must_use]
    pub fn of(pose: &ShapePose) -> Self {
        Self { pos: ground(pose.pos, 0.0), yaw: radians(pose.yaw), jumps: pose.jumps }
    }
}

impl Sample for ShapeSample {
    type Key = u32;
    type Context = ();

    fn key(&self) -> u32 {
        self.jumps
    }

    fn blend(previous: &Self, current: &Self, t: f32, (): &(), out: &mut Self) {
        *out = Self {
            pos: lerp_vec(previous.pos, current.pos, t),
            yaw: lerp_angle(previous.yaw, current.yaw, t),
            jumps: current.jumps,
        };
    }
}

/// One shape as a frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDraw {
    /// Its id.
    pub id: u64,
    /// Its kind.
    pub kind: u16,
    /// Its drawn values.
    pub sample: ShapeSample,
    /// The speed it is drawn moving at, metres a second.
    pub speed: f32,
    /// The player it belongs to.
    pub player: Option<Player>,
    /// Whether it is the local player's own shape, drawn from its prediction (or marked to
    /// compare with one).
    pub local: bool,
}

/// A piece of scenery as the renderer draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneryDraw {
    /// Where it stands, world metres.
    pub at: Vec3,
    /// Its heading, radians.
    pub yaw: f32,
    /// Its look.
    pub look: Look,
}

/// What a frame of a shape game draws.
#[derive(Clone, Debug, Default)]
pub struct ShapeFrame {
    /// The fractional tick drawn.
    pub render_tick: f64,
    /// The camera.
    pub camera: CameraDraw,
    /// Every shape drawn, in id order.
    pub shapes: Vec<ShapeDraw>,
    /// The game's status line.
    pub status: String,
    /// Players' names by number, where known.
    pub player_names: Vec<String>,
    /// The local player, highlighted, if there is one.
    pub local_player: Option<Player>,
    /// The predicted tick the own shape is drawn at, ahead of `render_tick`, when it is
    /// predicted.
    pub own_tick: Option<f64>,
}

impl ShapeFrame {
    /// Names the players, by number (only when they changed: a frame's names are its own).
    pub fn set_player_names(&mut self, names: &[String]) {
        if self.player_names != names {
            self.player_names = names.to_vec();
        }
    }
}

/// A shape in the presentation: its track and who it is.
#[derive(Clone, Debug)]
struct Tracked {
    id: u64,
    kind: u16,
    player: Option<Player>,
    track: Track<ShapeSample>,
}

/// The presentation of a [`ShapeGame`]; see the [module documentation](self).
pub struct ShapePresentation<G: ShapeGame> {
    content: Arc<G::Content>,
    camera: CameraRig,
    fixed_camera: CameraDraw,
    /// Tracks in id order.
    tracked: Vec<Tracked>,
    /// The tracks of the tick before, while the new ones are made (kept for its room).
    spare: Vec<Tracked>,
    latest_tick: Option<Tick>,
    first_tick: Tick,
    frame: ShapeFrame,
    /// The own shape's prediction, when the local player's input is held keys.
    own: Option<OwnPrediction<G::OwnRules>>,
    /// What has been held of the tick under way, for the prediction.
    own_partial: PartialOf<G>,
    /// Whether the own shape is marked in the frames without being predicted.
    mark_local: bool,
}

impl<G: ShapeGame> std::fmt::Debug for ShapePresentation<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapePresentation")
            .field("game", &G::NAME)
            .field("shapes", &self.tracked.len())
            .finish_non_exhaustive()
    }
}

/// The camera of a shape game over `content`, in world metres.
#[must_use]
pub fn camera_of<G: ShapeGame>(content: &G::Content) -> CameraDraw {
    let camera = G::camera(content);
    let target = world(camera.target);
    CameraDraw { eye: world(camera.eye), target, shadow_centre: target }
}

/// The scenery of `content` as the renderer draws it.
#[must_use]
pub fn scenery_of<G: ShapeGame>(content: &G::Content) -> Vec<SceneryDraw> {
    G::scenery(content)
        .iter()
        .map(|s| SceneryDraw { at: ground(s.at, 0.0), yaw: radians(s.yaw), look: s.look })
        .collect()
}

impl<G: ShapeGame> ShapePresentation<G> {
    /// A presentation of `content` seen by `local_player`, if any.
    #[must_use]
    pub fn new(content: &Arc<G::Content>, local_player: Option<Player>) -> Self {
        let fixed_camera = camera_of::<G>(content);
        Self {
            content: Arc::clone(content),
            camera: CameraRig::default(),
            fixed_camera,
            tracked: Vec::new(),
            spare: Vec::new(),
            latest_tick: None,
            first_tick: Tick::ZERO,
            frame: ShapeFrame { local_player, ..ShapeFrame::default() },
            own: None,
            own_partial: PartialOf::<G>::default(),
            mark_local: false,
        }
    }

    /// The own shape's prediction, if it is predicted.
    #[must_use]
    pub const fn own(&self) -> Option<&OwnPrediction<G::OwnRules>> {
        self.own.as_ref()
    }
}

impl<G: ShapeGame> Presentation<G> for ShapePresentation<G> {
    type Frame = ShapeFrame;

    fn observe(&mut self, snapshot: &Arc<SnapshotOf<G>>, own: Option<G::Own>) {
        let tick = G::tick_of(snapshot);
        if self.latest_tick.is_some_and(|latest| tick <= latest) {
            // A restored state or a seek: drawn afresh, never blended backwards.
            self.tracked.clear();
            self.latest_tick = None;
        }
        if self.latest_tick.is_none() {
            self.first_tick = tick;
        }
        // Both lists are in id order: walk them together, keeping the tracks of the ids still
        // there and starting those of new ones.
        std::mem::swap(&mut self.tracked, &mut self.spare);
        let mut old = self.spare.drain(..).peekable();
        let tracked = &mut self.tracked;
        G::shapes(snapshot, &mut |pose: ShapePose| {
            while old.next_if(|t| t.id < pose.id).is_some() {}
            let sample = ShapeSample::of(&pose);
            tracked.push(match old.next_if(|t| t.id == pose.id) {
                Some(mut t) if t.kind == pose.kind => {
                    t.track.observe(tick, sample);
                    t.player = pose.player;
                    t
                }
                _ => Tracked {
                    id: pose.id,
                    kind: pose.kind,
                    player: pose.player,
                    track: Track::new(tick, sample),
                },
            });
        });
        drop(old);
        self.frame.status.clear();
        G::status(snapshot, &mut self.frame.status);
        self.latest_tick = Some(tick);
        if let (Some(prediction), Some(body)) = (self.own.as_mut(), own) {
            prediction.observe(tick, body, &self.own_partial);
        }
    }

    /// Draws the own shape from a prediction of its held input (see [`OwnPrediction`]) from
    /// the next snapshot on.
    fn predict_own(&mut self) {
        self.own = Some(OwnPrediction::new(G::own_rules(&self.content)));
    }

    fn mark_local(&mut self) {
        self.mark_local = true;
    }

    fn own_command(&mut self, tick: Tick, command: &CommandOf<G>, partial: &PartialOf<G>) {
        if let Some(prediction) = self.own.as_mut() {
            prediction.command(tick, command.clone(), partial);
        }
        self.own_partial = G::OwnRules::fresh(partial);
    }

    fn own_input(&mut self, partial: &PartialOf<G>) {
        self.own_partial = *partial;
    }

    fn latest_tick(&self) -> Option<Tick> {
        self.latest_tick
    }

    fn draw(&mut self, alpha: f32, dt_seconds: f32) -> &ShapeFrame {
        let alpha = alpha.clamp(0.0, 1.0);
        let Some(latest) = self.latest_tick else { return &self.frame };
        let render_tick =
            (f64::from(latest.0) - 1.0 + f64::from(alpha)).max(f64::from(self.first_tick.0));
        let own_draw = self.own.as_mut().and_then(|own| own.draw(&self.own_partial, dt_seconds));
        let frame = &mut self.frame;
        frame.render_tick = render_tick;
        frame.own_tick = None;
        frame.shapes.clear();
        for t in &self.tracked {
            let own = t.player.is_some() && t.player == frame.local_player;
            let mut sample = *t.track.current();
            let (speed, local) = match own_draw {
                // The own shape is where its prediction puts it, ahead of the ticks.
                Some(drawn) if own && drawn.enabled => {
                    sample.pos = drawn.pos;
                    sample.yaw = drawn.facing;
                    frame.own_tick = Some(drawn.tick);
                    (drawn.speed, true)
                }
                _ => {
                    if render_tick < f64::from(t.track.first_tick().0) {
                        continue;
                    }
                    t.track.sample_into(alpha, &(), &mut sample);
                    let previous = t.track.previous().pos;
                    let speed = drawn_speed(previous, t.track.current().pos, t.track.was_reset());
                    (speed, own && self.mark_local)
                }
            };
            frame.shapes.push(ShapeDraw {
                id: t.id,
                kind: t.kind,
                sample,
                speed,
                player: t.player,
                local,
            });
        }
        frame.camera = self.camera.free_draw().unwrap_or_else(|| {
            let zoom = self.camera.distance / CameraRig::default().distance;
            let camera = &self.fixed_camera;
            CameraDraw { eye: camera.target + (camera.eye - camera.target) * zoom, ..*camera }
        });
        &self.frame
    }

    fn frame(&self) -> &ShapeFrame {
        &self.frame
    }

    fn set_player_names(&mut self, names: &[String]) {
        self.frame.set_player_names(names);
    }

    fn camera(&mut self) -> &mut CameraRig {
        &mut self.camera
    }

    fn drawn_camera(&self) -> CameraDraw {
        self.frame.camera
    }

    fn record(&self, line: &mut DrawnFrame) {
        let frame = &self.frame;
        line.render_tick = frame.render_tick;
        line.camera = Some(frame.camera.eye.as_dvec3().to_array());
        let kinds = G::kinds();
        for s in &frame.shapes {
            let p = s.sample.pos.as_dvec3().to_array();
            let tick = match frame.own_tick {
                Some(own_tick) if s.local => own_tick,
                _ => frame.render_tick,
            };
            let mut entity =
                DrawnEntity::new(s.id, tick, p, f64::from(s.sample.yaw), f64::from(s.speed));
            entity.kind = kinds.get(usize::from(s.kind)).map(|k| k.name.into());
            entity.local = s.local;
            line.entities.push(entity);
        }
    }
}

/// The truth of a shape game's snapshot: every shape where it is, at its speed, for a truth
/// log ([`Game::truth`] of a shape game can be this).
pub fn shape_truth<G: ShapeGame>(
    snapshot: &SnapshotOf<G>,
    out: &mut Vec<crate::format::TruthEntity>,
) {
    G::shapes(snapshot, &mut |pose: ShapePose| {
        let pos = ground(pose.pos, 0.0);
        out.push(crate::format::TruthEntity {
            id: pose.id,
            pos: pos.as_dvec3().to_array(),
            yaw: f64::from(radians(pose.yaw)),
            speed: f64::from(f(pose.velocity.length()) * TICKS_PER_SECOND_F32),
            jumps: pose.jumps,
            leg: None,
        });
    });
}
