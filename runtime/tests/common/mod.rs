//! A small simulation for the runtime's own tests: movers on a square field. Players steer
//! their movers; the others steer toward the centre, and appear and vanish at random. It uses
//! every piece of the runtime (fixed-point vectors, trigonometry, square roots, entity
//! storage, random numbers, partial hashes) so the golden hash stream pins all of them.

#![allow(
    dead_code,
    reason = "each test file uses its own part of this module; what one leaves unused is not dead"
)]

use std::sync::Arc;

use fixstep_runtime::math::{Angle, Fx, Vec2, fx, fx_ratio};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::{
    Canonical, Command, ContentDigest, EntityId, EntityStore, Error, Player, Simulation,
    StateError, StateHasher, Tick,
};
use serde::{Deserialize, Serialize};

/// Half the width of the field, metres.
const FIELD_HALF_M: i32 = 100;
/// The fastest a mover goes, metres per tick.
const MAX_SPEED_M_PER_TICK: i32 = 3;
/// How far a non-player mover turns toward the centre each tick.
const NPC_TURN_PER_TICK: Angle = Angle::from_degrees(4);

/// One player's input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftCommand {
    /// -16..=16: sixteenths of a metre per tick of acceleration.
    pub thrust: i8,
    /// Degrees to turn this tick.
    pub turn: i8,
    /// Spawn this player's mover (again) at a random place.
    pub spawn: bool,
}

impl Command for DriftCommand {
    /// Thrust and turn are held; a spawn is a one-tick action.
    fn held(&self) -> Self {
        Self { spawn: false, ..*self }
    }

    fn merge_presses(&mut self, other: &Self) {
        self.spawn |= other.spawn;
    }
}

/// The test game's data on the wire: its command; spectators are sent nothing.
#[derive(Clone, Copy, Debug)]
pub struct DriftData;

impl fixstep_runtime::net::GameData for DriftData {
    type Command = DriftCommand;
    type SpectatorUpdate = ();
    type SpectatorView = ();
}

/// The most players a field holds: owners are `u16`.
pub const MAX_DRIFT_PLAYERS: usize = u16::MAX as usize;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Mover {
    pub pos: Vec2,
    pub heading: Angle,
    pub speed: Fx,
    pub owner: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct DriftState {
    pub next: Tick,
    pub rng: SimRng,
    pub movers: EntityStore<Mover>,
    pub player_movers: Vec<Option<EntityId>>,
}

/// The snapshot: every mover's id and position.
pub type DriftSnapshot = Vec<(EntityId, Vec2)>;

pub struct Drift {
    pub state: DriftState,
    snapshot: Arc<DriftSnapshot>,
}

impl Drift {
    pub fn new(seed: u64, players: usize) -> Self {
        let mut rng = SimRng::new(seed, 0);
        let mut movers = EntityStore::new();
        for _ in 0..20 {
            let pos = random_point(&mut rng);
            let heading = Angle(rng.next_u32());
            movers.insert(Mover { pos, heading, speed: fx_ratio(1, 2), owner: None });
        }
        let state =
            DriftState { next: Tick::ZERO, rng, movers, player_movers: vec![None; players] };
        let snapshot = Arc::new(publish(&state));
        Self { state, snapshot }
    }
}

fn random_point(rng: &mut SimRng) -> Vec2 {
    Vec2::new(
        rng.range_fx(fx(-FIELD_HALF_M), fx(FIELD_HALF_M)),
        rng.range_fx(fx(-FIELD_HALF_M), fx(FIELD_HALF_M)),
    )
}

fn publish(state: &DriftState) -> DriftSnapshot {
    state.movers.iter().map(|(id, m)| (id, m.pos)).collect()
}

impl Simulation for Drift {
    type Command = DriftCommand;
    type State = DriftState;
    type Snapshot = DriftSnapshot;
    /// 8: entity stores hash their slots as parallel runs (generations, occupancy, values).
    const NAME: &'static str = "Drift";
    const VERSION: u32 = 8;

    fn next_tick(&self) -> Tick {
        self.state.next
    }

    fn players(&self) -> usize {
        self.state.player_movers.len()
    }

    /// A seat is free for all the field knows when it has no mover: its player left, or has
    /// not spawned one yet.
    fn seat_player(&mut self, seat: Player) -> Result<(), Error> {
        let seats = self.state.player_movers.len();
        match self.state.player_movers.get(seat.index()) {
            Some(None) => Ok(()),
            Some(Some(_)) => Err(Error::SeatTaken { seat, seats }),
            None if seat.index() == seats && seats >= MAX_DRIFT_PLAYERS => {
                Err(Error::PlayerLimit { max: MAX_DRIFT_PLAYERS })
            }
            None if seat.index() == seats => {
                self.state.player_movers.push(None);
                Ok(())
            }
            None => Err(Error::SeatTaken { seat, seats }),
        }
    }

    fn free_seat(&mut self, seat: Player) -> Result<(), Error> {
        let seats = self.state.player_movers.len();
        let Some(mover) = self.state.player_movers.get_mut(seat.index()) else {
            return Err(Error::SeatFree { seat, seats });
        };
        if let Some(id) = mover.take() {
            self.state.movers.remove(id);
        }
        self.snapshot = Arc::new(publish(&self.state));
        Ok(())
    }

    fn content_digest(&self) -> ContentDigest {
        // The field is built in code: its size and its crowd are its whole content.
        ContentDigest::of(&("drift field", FIELD_HALF_M, MAX_SPEED_M_PER_TICK))
    }

    fn advance(&mut self, commands: &[DriftCommand]) {
        let s = &mut self.state;
        for (player, command) in commands.iter().enumerate() {
            if command.spawn {
                if let Some(old) = s.player_movers[player].take() {
                    s.movers.remove(old);
                }
                let pos = random_point(&mut s.rng);
                let owner = Some(player as u16);
                s.player_movers[player] = Some(s.movers.insert(Mover {
                    pos,
                    heading: Angle::ZERO,
                    speed: Fx::ZERO,
                    owner,
                }));
            }
            let Some(mover) = s.player_movers[player].and_then(|id| s.movers.get_mut(id)) else {
                continue;
            };
            mover.heading = mover.heading + Angle::from_degrees(i32::from(command.turn));
            let thrust = fx_ratio(i32::from(command.thrust.clamp(-16, 16)), 16);
            mover.speed = (mover.speed + thrust).clamp(Fx::ZERO, fx(MAX_SPEED_M_PER_TICK));
        }
        let limit = fx(FIELD_HALF_M);
        for (_, mover) in s.movers.iter_mut() {
            if mover.owner.is_none() {
                let to_centre = (-mover.pos).angle();
                mover.heading = mover.heading.turned_toward(to_centre, NPC_TURN_PER_TICK.0);
                // Slower near the centre: a use of the square root that the hash stream pins.
                let distance = mover.pos.length();
                mover.speed = (distance / fx(40)).clamp(fx_ratio(1, 4), fx(2));
            }
            mover.pos += Vec2::from_angle(mover.heading) * mover.speed;
            if mover.pos.x.abs() > limit {
                mover.pos.x = mover.pos.x.clamp(-limit, limit);
                mover.heading = Angle::HALF - mover.heading;
            }
            if mover.pos.y.abs() > limit {
                mover.pos.y = mover.pos.y.clamp(-limit, limit);
                mover.heading = -mover.heading;
            }
        }
        if s.rng.chance(1, 10) {
            let pos = random_point(&mut s.rng);
            let heading = Angle(s.rng.next_u32());
            s.movers.insert(Mover { pos, heading, speed: Fx::ONE, owner: None });
        }
        let npcs: Vec<EntityId> =
            s.movers.iter().filter(|(_, m)| m.owner.is_none()).map(|(id, _)| id).collect();
        if !npcs.is_empty() && s.rng.chance(1, 12) {
            let victim = npcs[s.rng.below(npcs.len() as u32) as usize];
            s.movers.remove(victim);
        }
        s.next = s.next.next();
        self.snapshot = Arc::new(publish(s));
    }

    fn snapshot(&self) -> &Arc<DriftSnapshot> {
        &self.snapshot
    }

    fn state(&self) -> &DriftState {
        &self.state
    }

    fn check_state(&self, state: &DriftState) -> Result<(), StateError> {
        if state.player_movers.len() > MAX_DRIFT_PLAYERS {
            return Err(StateError::new(
                "player_movers",
                format!("{} seats, more than {MAX_DRIFT_PLAYERS}", state.player_movers.len()),
            ));
        }
        let limit = fx(FIELD_HALF_M);
        for (id, mover) in state.movers.iter() {
            if mover.pos.x.abs() > limit || mover.pos.y.abs() > limit {
                return Err(StateError::new(format!("movers[{id}].pos"), "is off the field"));
            }
            if mover.speed < Fx::ZERO || mover.speed > fx(MAX_SPEED_M_PER_TICK) {
                return Err(StateError::new(format!("movers[{id}].speed"), "is out of range"));
            }
            if mover.owner.is_some_and(|p| usize::from(p) >= state.player_movers.len()) {
                return Err(StateError::new(format!("movers[{id}].owner"), "names no seat"));
            }
        }
        Ok(())
    }

    fn restore(&mut self, state: &DriftState) {
        self.state = state.clone();
        self.snapshot = Arc::new(publish(state));
    }

    fn hash_state(&self, hasher: &mut StateHasher) {
        hasher
            .part("tick", &self.state.next)
            .part("movers", &self.state.movers)
            .part("players", &self.state.player_movers)
            .part("rng", &self.state.rng);
    }
}

/// The scripted input of the golden runs: a pattern every player follows, shifted per player,
/// that spawns, thrusts, brakes and turns both ways.
pub fn scripted_commands(tick: Tick, players: usize) -> Vec<DriftCommand> {
    (0..players)
        .map(|p| {
            let t = tick.0 as usize + p * 37;
            DriftCommand {
                thrust: [4, 4, 0, -2, 16, -16, 1][t % 7],
                turn: [0, 5, -5, 90, -120, 0, 0, 3, 0, 0, -1][t % 11],
                spawn: t % 200 == p,
            }
        })
        .collect()
}
