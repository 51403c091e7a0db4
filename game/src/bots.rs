//! Scripted bot players: deterministic stand-ins for people at the keyboard, for headless runs
//! and tests. Each bot walks, runs, opens doors, talks and takes teleports, on a plan made
//! from the level, and turns what it sees in the snapshot into the same [`PlayerCommand`]s a
//! player would send. Bots are not simulation state: their commands are what a replay records.

use fixstep_runtime::math::{Angle, Fx, Vec2, fx, fx_ratio};

use crate::command::PlayerCommand;
use crate::level::{Level, ObjectDefKind};
use crate::snapshot::GameSnapshot;
use crate::tuning::MAX_TURN_PER_TICK;

/// How close a bot must come to a goal point to count it reached, metres.
const BOT_ARRIVE_RADIUS: Fx = fx_ratio(3, 4);

/// How far in front of a door a bot stands to open it, metres (inside [`crate::tuning::DOOR_REACH`]).
const BOT_DOOR_STANDOFF: Fx = fx_ratio(6, 5);

/// How far from a talker a bot stands to talk, metres (inside [`crate::tuning::TALK_RANGE`]).
const BOT_TALK_STANDOFF: Fx = fx_ratio(3, 2);

/// Ticks a bot may go without getting [`BOT_PROGRESS`] closer to its goal before it gives the
/// goal up (5 s): a bot blocked by a wall or a crowd moves on instead of pushing forever.
const BOT_PATIENCE_TICKS: u32 = 50;

/// The progress, metres, that resets a bot's patience.
const BOT_PROGRESS: Fx = fx_ratio(1, 2);

/// A heading error beyond which a bot turns on the spot before walking on (60°).
const BOT_TURN_FIRST: Angle = Angle::from_degrees(60);

/// One step of a bot's plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Walk to a point.
    Walk(Vec2),
    /// Run to a point.
    Run(Vec2),
    /// Press interact once.
    Interact,
    /// Stand still for a number of ticks.
    Wait(u32),
}

/// A scripted player.
#[derive(Clone, Debug)]
pub struct Bot {
    player: usize,
    plan: Vec<Goal>,
    step: usize,
    waited: u32,
    best_distance: Fx,
    patience: u32,
}

impl Bot {
    /// The bot playing player `player` in `level`. Bots of different players take the
    /// level's doors, teleports and talkers in different orders.
    #[must_use]
    pub fn new(player: usize, level: &Level) -> Self {
        Self {
            player,
            plan: plan(player, level),
            step: 0,
            waited: 0,
            best_distance: Fx::MAX,
            patience: 0,
        }
    }

    /// The bot's plan, in order; it starts again from the top when done.
    #[must_use]
    pub fn plan(&self) -> &[Goal] {
        &self.plan
    }

    fn next_goal(&mut self) {
        self.step = (self.step + 1) % self.plan.len().max(1);
        self.waited = 0;
        self.best_distance = Fx::MAX;
        self.patience = 0;
    }

    /// This tick's command, from what the latest snapshot shows.
    pub fn command(&mut self, snapshot: &GameSnapshot) -> PlayerCommand {
        let Some(me) = snapshot.player_character(self.player) else {
            return PlayerCommand::default();
        };
        let Some(&goal) = self.plan.get(self.step) else { return PlayerCommand::default() };
        match goal {
            Goal::Interact => {
                self.next_goal();
                PlayerCommand { interact: true, ..PlayerCommand::default() }
            }
            Goal::Wait(ticks) => {
                self.waited += 1;
                if self.waited >= ticks {
                    self.next_goal();
                }
                PlayerCommand::default()
            }
            Goal::Walk(to) | Goal::Run(to) => {
                let offset = to - me.pos;
                let distance = offset.length();
                if distance <= BOT_ARRIVE_RADIUS {
                    self.next_goal();
                    return PlayerCommand::default();
                }
                if distance + BOT_PROGRESS <= self.best_distance {
                    self.best_distance = distance;
                    self.patience = 0;
                } else {
                    self.patience += 1;
                    if self.patience >= BOT_PATIENCE_TICKS {
                        self.next_goal();
                        return PlayerCommand::default();
                    }
                }
                let delta = me.facing.shortest_delta(offset.angle());
                let turn =
                    PlayerCommand::turn_for(delta).clamp(-MAX_TURN_PER_TICK, MAX_TURN_PER_TICK);
                let forward = if delta.unsigned_abs() > BOT_TURN_FIRST.0 { 0 } else { 100 };
                PlayerCommand {
                    forward,
                    strafe: 0,
                    turn,
                    run: matches!(goal, Goal::Run(_)),
                    interact: false,
                }
            }
        }
    }
}

/// Where to stand to open each door: in front of the middle of its leaf, on the side away
/// from its building.
fn door_approaches(level: &Level) -> Vec<Vec2> {
    level
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            ObjectDefKind::Door(door) => {
                let middle = (door.hinge + door.leaf_end) / fx(2);
                let along = (door.leaf_end - door.hinge).normalize_or_zero();
                let normal = Vec2::new(-along.y, along.x);
                let inside =
                    level.buildings.get(door.building as usize).map(|b| b.footprint.centre());
                let outward = match inside {
                    Some(centre) if normal.dot(centre - middle) > Fx::ZERO => -normal,
                    _ => normal,
                };
                Some(middle + outward * BOT_DOOR_STANDOFF)
            }
            _ => None,
        })
        .collect()
}

/// The plan of player `player`'s bot: open a door, take a teleport and walk off its exit,
/// talk to a talker through its lines, run back to the spawn; each bot starts at a different
/// door, teleport and talker.
fn plan(player: usize, level: &Level) -> Vec<Goal> {
    let pick = |len: usize| if len == 0 { None } else { Some(player % len) };
    let mut plan = Vec::new();
    let doors = door_approaches(level);
    if let Some(i) = pick(doors.len()) {
        plan.extend([Goal::Walk(doors[i]), Goal::Interact, Goal::Wait(15)]);
    }
    if let Some(i) = pick(level.teleports.len()) {
        let end = level.teleports[i].ends[player / level.teleports.len() % 2];
        plan.extend([Goal::Run(end.zone.centre), Goal::Wait(5)]);
        let away = Vec2::from_angle(end.exit_facing) * fx(3);
        let other = level.teleports[i].ends[1 - player / level.teleports.len() % 2];
        plan.extend([Goal::Walk(other.exit + away), Goal::Wait(10)]);
    }
    if let Some(i) = pick(level.talkers.len()) {
        let talker = &level.talkers[i];
        let stand = talker.at + Vec2::from_angle(talker.facing) * BOT_TALK_STANDOFF;
        plan.extend([
            Goal::Walk(stand),
            Goal::Interact,
            Goal::Wait(20),
            Goal::Interact,
            Goal::Wait(20),
            Goal::Interact,
            Goal::Wait(10),
        ]);
    }
    let spawn = level.spawns[player % level.spawns.len()];
    plan.extend([Goal::Run(spawn.at), Goal::Wait(10)]);
    plan
}
