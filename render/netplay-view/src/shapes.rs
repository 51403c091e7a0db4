//! Network play of a game drawn as shapes (`fixstep_present::shapes`), whole: the host sends
//! spectators the ground poses of every shape ([`ShapeFeed`], on [`ground`](crate::ground)'s
//! feed: near the camera every tick, farther ones less often), and a spectator draws them
//! through the remote view into the same frames a player draws ([`ShapeSpectator`]). A shape
//! game's [`NetRules`](crate::NetRules) and [`NetGame`] are then a few lines that name these.

use std::sync::Arc;

use fixstep_present::format::DrawnFrame;
use fixstep_present::remote::Motion;
use fixstep_present::shapes::{
    ShapeDraw, ShapeFrame, ShapeGame, ShapePose, ShapeSample, camera_of,
};
use fixstep_present::{CameraDraw, SnapshotOf};
use fixstep_runtime::Player;
use fixstep_runtime::math::Vec2;
use glam::Vec3;

use serde::{Deserialize, Serialize};

use crate::ground::{
    EntityRole, GroundFeed, GroundPoint, GroundSource, GroundUpdate, GroundView, Pose,
    mm_per_second, mm2,
};
use crate::{NetGame, Spectator};

/// What a spectator of a shape game is sent of a tick: the shapes' ground poses due, and the
/// game's status line when it changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeUpdate {
    /// The poses due.
    pub ground: GroundUpdate,
    /// The status line, if it changed since the last update (a score, a clock).
    pub status: Option<String>,
}

/// Where a shape's player sits in its role code: above the 16 bits of its kind, plus one
/// (zero is no player).
const PLAYER_SHIFT: u32 = 16;

/// The role code of a shape: its kind, and its player if it has one.
#[must_use]
pub fn role_code(kind: u16, player: Option<Player>) -> u64 {
    u64::from(kind) | (player.map_or(0, |p| u64::from(p.0) + 1) << PLAYER_SHIFT)
}

/// The kind and player a role code stands for (a host's code is checked, never trusted: one
/// whose player part is beyond a `u16` is none).
#[must_use]
pub fn of_role_code(code: u64) -> Option<(u16, Option<Player>)> {
    let kind = (code & u64::from(u16::MAX)) as u16;
    let player = match code >> PLAYER_SHIFT {
        0 => None,
        p => Some(Player(u16::try_from(p - 1).ok()?)),
    };
    Some((kind, player))
}

/// Every shape's pose and role after a tick, and the status line: what each spectator's
/// update is cut from, gathered once a tick.
#[derive(Clone, Debug, Default)]
pub struct ShapeSource {
    ground: GroundSource,
    /// The poses gathered the time before, in id order: what a shape moved from.
    before: Vec<Pose>,
    status: String,
}

impl ShapeSource {
    /// Gathers the shapes and the status line of `snapshot`.
    ///
    /// A shape stands still when it has no velocity and has not moved since the poses
    /// gathered before: a disc pushed out of another one is moved without a velocity of its
    /// own, and sent as resting at its new place it would be drawn stepping there at once (two
    /// rests in two places are the host putting it somewhere), where it slid there over the
    /// tick.
    pub fn fill<G: ShapeGame>(&mut self, snapshot: &SnapshotOf<G>) {
        core::mem::swap(&mut self.before, &mut self.ground.poses);
        self.ground.start(G::tick_of(snapshot));
        let kinds = G::kinds();
        let (ground, before) = (&mut self.ground, &self.before);
        // Both lists in id order: one walk along the poses before finds each shape's.
        let mut next_before = 0;
        G::shapes(snapshot, &mut |s: ShapePose| {
            let vehicle =
                kinds.get(usize::from(s.kind)).is_some_and(|k| k.motion == Motion::Vehicle);
            let pos_mm = mm2(s.pos);
            while before.get(next_before).is_some_and(|p| p.id < s.id) {
                next_before += 1;
            }
            let moved = before.get(next_before).is_some_and(|p| p.id == s.id && p.pos_mm != pos_mm);
            ground.poses.push(Pose {
                id: s.id,
                vehicle,
                pos_mm,
                vel_mm_s: mm_per_second(s.velocity),
                yaw: s.yaw.0,
                at_rest: s.velocity == Vec2::ZERO && !moved,
                tier: 1,
                jumps: s.jumps,
                health: 0,
            });
            ground.roles.push(EntityRole { id: s.id, role: role_code(s.kind, s.player) });
        });
        self.status.clear();
        G::status(snapshot, &mut self.status);
    }
}

/// What the host last sent one spectator of a shape game.
#[derive(Clone, Debug, Default)]
pub struct ShapeFeed {
    ground: GroundFeed,
    status: Option<String>,
}

impl ShapeFeed {
    /// The update of the tick gathered in `source` for a spectator looking at `camera`.
    pub fn update(&mut self, source: &ShapeSource, camera: GroundPoint) -> ShapeUpdate {
        let ground = self.ground.update_from(&source.ground, camera);
        let status = (self.status.as_deref() != Some(source.status.as_str())).then(|| {
            self.status = Some(source.status.clone());
            source.status.clone()
        });
        ShapeUpdate { ground, status }
    }
}

/// Gathers what spectators of shape game `G` are sent of the tick `sim` just ran: the
/// [`NetRules::spectator_source`](crate::NetRules::spectator_source) of a shape game.
pub fn spectator_source<G: ShapeGame>(sim: &G::Sim, source: &mut ShapeSource) {
    source.fill::<G>(fixstep_runtime::Simulation::snapshot(sim));
}

/// A spectator's view of a shape game: the remote view of the shapes it is sent, drawn into
/// shape frames.
#[derive(Debug)]
pub struct ShapeSpectator<G> {
    view: GroundView,
    frame: ShapeFrame,
    fixed_camera: CameraDraw,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: ShapeGame> ShapeSpectator<G> {
    /// A view of a game of `content` that has been sent nothing.
    #[must_use]
    pub fn of(content: &G::Content) -> Self {
        Self {
            view: GroundView::new(),
            frame: ShapeFrame::default(),
            fixed_camera: camera_of::<G>(content),
            game: std::marker::PhantomData,
        }
    }
}

impl<G> Spectator<G> for ShapeSpectator<G>
where
    G: ShapeGame + NetGame<SpectatorUpdate = ShapeUpdate, SpectatorView = GroundPoint>,
    G: fixstep_present::Game<Presentation = fixstep_present::shapes::ShapePresentation<G>>,
{
    type Frame = ShapeFrame;

    fn new(content: &Arc<G::Content>) -> Self {
        Self::of(content)
    }

    fn advance(&mut self, elapsed_micros: u64) {
        self.view.advance(elapsed_micros);
    }

    fn host_changed(&mut self) {
        self.view.host_changed();
    }

    fn update(&mut self, update: ShapeUpdate) {
        self.view.update(&update.ground);
        if let Some(status) = update.status {
            self.frame.status = status;
        }
    }

    /// The shapes are seen from the game's own camera, wherever the spectator's keys move
    /// theirs: the tiers are measured from where it looks.
    fn view(&self, _target: Vec3) -> GroundPoint {
        GroundPoint::under(self.fixed_camera.target)
    }

    /// A shape game's camera stands where the game says, whatever the spectator's keys.
    fn draw(&mut self, _camera: &CameraDraw, _dt_seconds: f32) -> &ShapeFrame {
        // Who each shape is comes with its role, and is kept as long as the remote view
        // still draws it (past its leaving, until the render tick reaches that).
        let (remote, people) = self.view.draw();
        let frame = &mut self.frame;
        frame.render_tick = if remote.render_tick.is_finite() { remote.render_tick } else { 0.0 };
        frame.camera = self.fixed_camera;
        frame.shapes.clear();
        for e in &remote.entities {
            let Some((kind, player)) = people.role(e.id).and_then(of_role_code) else { continue };
            let s = &e.sample;
            frame.shapes.push(ShapeDraw {
                id: e.id,
                kind,
                sample: ShapeSample { pos: s.pos, yaw: s.yaw, jumps: s.jumps },
                speed: s.speed,
                player,
                // A spectator has no shape of its own.
                local: false,
            });
        }
        frame.shapes.sort_unstable_by_key(|s| s.id);
        &self.frame
    }

    fn frame(&self) -> &ShapeFrame {
        &self.frame
    }

    fn render_tick(&self) -> f64 {
        self.view.view().frame().render_tick
    }

    fn entities(&self) -> usize {
        self.view.view().len()
    }

    fn set_player_names(&mut self, names: &[String]) {
        self.frame.set_player_names(names);
    }

    fn record(&self, line: &mut DrawnFrame) {
        self.view.view().frame().record(line);
    }
}
