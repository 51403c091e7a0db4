//! A spectator of a network game: no town of its own, only the poses it is sent, drawn
//! through the remote view, and the objects' transforms, drawn between their changes.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;

use anyhow::{Result, bail};
use fixstep_game::level::Level;
use fixstep_game::state::Role as CharacterRole;
use fixstep_net::{LinkStats, PeerLink};
use fixstep_runtime::Tick;
use fixstep_runtime::net::{PeerConfig, PeerEvent, PeerSession, Pose, Role};
use glam::Vec3;

use super::host_thread::SERVE_MICROS;
use super::peer::identity_of;
use super::poses::{object_view_of, role_of_code};
use crate::present::frame::ObjectDraw;
use crate::present::remote::{Measurement, Motion, RemoteFrame, RemoteObjects, RemoteView};
use crate::present::samples::ObjectSample;

/// How often a spectator tells the host where its camera looks, microseconds: every tick,
/// as the host chooses each tick what is near.
const CAMERA_REPORT_MICROS: u64 = fixstep_runtime::tick::TICK_MICROS;

/// Millimetres in a metre.
const MM_PER_M: f32 = 1_000.0;

/// A binary angle unit in radians.
const RADIANS_PER_UNIT: f32 = std::f32::consts::TAU / 4_294_967_296.0;

/// A pose as the remote view measures it: world metres (x east, y up, z south), radians.
#[must_use]
pub fn measurement_of(pose: &Pose, tick: Tick) -> (Motion, Measurement) {
    let m = |v: i32| v as f32 / MM_PER_M;
    let pos = Vec3::new(m(pose.pos_mm[0]), 0.0, -m(pose.pos_mm[1]));
    let vel = Vec3::new(m(pose.vel_mm_s[0]), 0.0, -m(pose.vel_mm_s[1]));
    // Signed, so the heading is in (−π, π].
    let yaw = pose.yaw as i32 as f32 * RADIANS_PER_UNIT;
    let measurement = Measurement {
        tick: tick.0,
        pos,
        vel,
        yaw,
        at_rest: pose.at_rest,
        tier: pose.tier,
        jumps: pose.jumps,
    };
    (if pose.vehicle { Motion::Vehicle } else { Motion::Walker }, measurement)
}

/// What a spectator knows of a character besides its motion: who it is, and its health at the
/// ticks it changed (drawn at the view's render tick, as its motion is, not ahead of it).
#[derive(Clone, Debug, Default)]
struct Person {
    role: Option<CharacterRole>,
    health: VecDeque<(u32, i32)>,
    /// The tick it left the town, once told.
    gone_at: Option<u32>,
}

/// Who the characters a spectator draws are, and their health; see [`NetSpectator::draw`].
#[derive(Clone, Debug, Default)]
pub struct People {
    by_id: BTreeMap<u64, Person>,
}

impl People {
    /// Who entity `id` is, if the host said (and said it in a code this game knows).
    #[must_use]
    pub fn role(&self, id: u64) -> Option<CharacterRole> {
        self.by_id.get(&id).and_then(|p| p.role)
    }

    /// Entity `id`'s health at `render_tick`: the latest change at or before it (the first one
    /// known, before that), if it has any.
    #[must_use]
    pub fn health_at(&self, id: u64, render_tick: f64) -> Option<i32> {
        let changes = &self.by_id.get(&id)?.health;
        let reached = changes.iter().rev().find(|(tick, _)| f64::from(*tick) <= render_tick);
        reached.or_else(|| changes.front()).map(|&(_, health)| health)
    }

    fn measured(&mut self, pose: &Pose, tick: Tick) {
        let person = self.by_id.entry(pose.id).or_default();
        person.gone_at = None;
        if person.health.back().is_none_or(|&(_, h)| h != pose.health) {
            if person.health.len() >= HEALTH_CHANGES_KEPT {
                person.health.pop_front();
            }
            person.health.push_back((tick.0, pose.health));
        }
    }

    /// Forgets what the drawing at `render_tick` has passed: the departed, and changes of
    /// health before the latest one reached.
    fn drawn_to(&mut self, render_tick: f64) {
        self.by_id.retain(|_, p| p.gone_at.is_none_or(|gone| f64::from(gone) > render_tick));
        for person in self.by_id.values_mut() {
            while person.health.get(1).is_some_and(|&(tick, _)| f64::from(tick) <= render_tick) {
                person.health.pop_front();
            }
        }
    }
}

/// The most changes of health kept for one character: a second and a half of changes every
/// tick, more than a view ever draws behind the newest.
const HEALTH_CHANGES_KEPT: usize = 16;

/// A spectator; see the [module documentation](super).
pub struct NetSpectator {
    link: PeerLink<fixstep_game::PlayerCommand>,
    view: RemoteView,
    objects: RemoteObjects,
    /// Where the camera looks, millimetres on the ground.
    camera_mm: [i32; 2],
    since_camera: u64,
    snapshots: u64,
    people: People,
    names: Vec<String>,
}

impl std::fmt::Debug for NetSpectator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetSpectator").field("link", &self.link).finish_non_exhaustive()
    }
}

impl NetSpectator {
    /// A spectator named `name` of the game on `level` hosted at `host`.
    ///
    /// # Errors
    ///
    /// If no socket can be bound.
    pub fn connect(level: &Level, host: SocketAddr, name: &str) -> Result<Self> {
        let config = PeerConfig {
            identity: identity_of(level),
            name: name.to_owned(),
            role: Role::Spectator,
        };
        Ok(Self {
            link: PeerLink::connect(host, PeerSession::new(config))?,
            view: RemoteView::new(),
            objects: RemoteObjects::new(),
            camera_mm: [0, 0],
            since_camera: 0,
            snapshots: 0,
            people: People::default(),
            names: Vec::new(),
        })
    }

    /// The remote view.
    #[must_use]
    pub const fn view(&self) -> &RemoteView {
        &self.view
    }

    /// Pose snapshots received.
    #[must_use]
    pub const fn snapshots(&self) -> u64 {
        self.snapshots
    }

    /// Every player's name, by player number, as the host last said.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The link to the host.
    #[must_use]
    pub fn link(&self) -> LinkStats {
        self.link.stats()
    }

    /// Serves the socket from a thread every [`SERVE_MICROS`] from now on, however slowly
    /// the frames come (see [`PeerLink`]).
    pub fn serve_from_thread(&mut self) {
        self.link.serve_from_thread(std::time::Duration::from_micros(SERVE_MICROS));
    }

    /// Points the camera at `at` (world metres): the host sends what is near it every tick.
    pub fn look_at(&mut self, at: Vec3) {
        // Metres to millimetres, well inside an i32 for any level.
        self.camera_mm = [(at.x * MM_PER_M) as i32, (-at.z * MM_PER_M) as i32];
    }

    /// Advances the view's clock by a frame's `elapsed_micros`, then hands it what arrived.
    ///
    /// # Errors
    ///
    /// If the connection fails or the host refuses the spectator.
    pub fn receive(&mut self, elapsed_micros: u64) -> Result<()> {
        self.view.advance(elapsed_micros);
        if self.link.ended().is_some() {
            return Ok(());
        }
        let elapsed = std::time::Duration::from_micros(elapsed_micros);
        self.link.receive(elapsed)?;
        let events: Vec<PeerEvent<fixstep_game::PlayerCommand>> =
            self.link.session().drain_events().collect();
        for event in events {
            match event {
                PeerEvent::Refused { reason } => bail!("the host refused this spectator: {reason}"),
                PeerEvent::Poses(snapshot) => {
                    self.snapshots += 1;
                    self.view.snapshot_arrived(snapshot.tick);
                    for pose in &snapshot.poses {
                        let (motion, measurement) = measurement_of(pose, snapshot.tick);
                        self.view.measure(pose.id, motion, &measurement);
                        if !pose.vehicle {
                            self.people.measured(pose, snapshot.tick);
                        }
                    }
                    for role in &snapshot.roles {
                        self.people.by_id.entry(role.id).or_default().role =
                            role_of_code(role.role);
                    }
                    for object in &snapshot.objects {
                        let sample = ObjectSample::of(&object_view_of(object));
                        self.objects.measure(object.index as usize, snapshot.tick.0, sample);
                    }
                    for &id in &snapshot.gone {
                        self.view.gone(id, snapshot.tick);
                        if let Some(person) = self.people.by_id.get_mut(&id) {
                            person.gone_at = Some(snapshot.tick.0);
                        }
                    }
                }
                PeerEvent::Roster(names) => self.names = names,
                _ => {}
            }
        }
        self.since_camera += elapsed_micros;
        if self.since_camera >= CAMERA_REPORT_MICROS {
            let mut session = self.link.session();
            if session.is_welcomed() {
                self.since_camera = 0;
                session.report_camera(self.camera_mm);
            }
        }
        Ok(())
    }

    /// Draws every remote entity and every object at the clock's render tick, with who the
    /// characters are.
    pub fn draw(&mut self) -> (&RemoteFrame, &[ObjectDraw], &People) {
        let frame = self.view.draw();
        self.people.drawn_to(frame.render_tick);
        let objects = self.objects.draw(frame.render_tick);
        (frame, objects, &self.people)
    }

    /// Sends what the session has to send.
    ///
    /// # Errors
    ///
    /// If the socket fails.
    pub fn send(&mut self) -> Result<()> {
        Ok(self.link.send()?)
    }

    /// The host's goodbye, if the host ended the game (it stopped, or its match is over).
    #[must_use]
    pub fn ended(&self) -> Option<&str> {
        self.link.ended()
    }

    /// Says goodbye.
    pub fn disconnect(&mut self) {
        self.link.disconnect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walker's pose at rest with `health`.
    fn walker(id: u64, health: i32) -> Pose {
        Pose {
            id,
            vehicle: false,
            pos_mm: [0, 0],
            vel_mm_s: [0, 0],
            yaw: 0,
            at_rest: true,
            tier: 1,
            jumps: 0,
            health,
        }
    }

    /// Health is drawn at the view's render tick, as motion is: a change told at tick 10 shows
    /// from render tick 10 on, not before, and the older value is forgotten once the view
    /// has drawn past it.
    #[test]
    fn a_change_of_health_is_drawn_at_its_tick_and_the_older_forgotten_once_drawn_past() {
        let mut people = People::default();
        people.measured(&walker(4, 100), Tick(5));
        people.measured(&walker(4, 100), Tick(6));
        people.measured(&walker(4, 60), Tick(10));
        assert_eq!(people.health_at(4, 4.0), Some(100), "before its first pose: its first health");
        assert_eq!(people.health_at(4, 9.9), Some(100));
        assert_eq!(people.health_at(4, 10.0), Some(60));
        assert_eq!(people.by_id[&4].health.len(), 2, "a repeated health is no change");
        people.drawn_to(11.0);
        assert_eq!(people.by_id[&4].health.len(), 1, "the change drawn past is forgotten");
        assert_eq!(people.health_at(4, 11.0), Some(60));
        assert_eq!(people.health_at(5, 11.0), None, "nobody told of");
    }

    /// Someone who left is forgotten once the view has drawn past the tick they left at, and
    /// a pose after that brings them back.
    #[test]
    fn someone_gone_is_forgotten_once_the_view_draws_past_their_leaving() {
        let mut people = People::default();
        people.measured(&walker(7, 80), Tick(3));
        people.by_id.entry(7).or_default().gone_at = Some(8);
        people.drawn_to(7.5);
        assert_eq!(people.health_at(7, 7.5), Some(80), "still drawn before the tick they left");
        people.drawn_to(8.0);
        assert_eq!(people.health_at(7, 8.0), None);
        people.measured(&walker(7, 90), Tick(12));
        assert_eq!(people.health_at(7, 12.0), Some(90));
    }
}
