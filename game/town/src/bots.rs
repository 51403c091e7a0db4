//! Scripted bot players: deterministic stand-ins for people at the keyboard, for headless runs
//! and tests. Each bot walks, runs, opens doors, talks and takes teleports, on a plan made
//! from the level, and turns what it sees in the snapshot into the same [`PlayerCommand`]s a
//! player would send. Bots are not simulation state: their commands are what a replay records.

use fixstep_runtime::Player;
use fixstep_runtime::math::{Angle, Fx, Vec2, fx, fx_ratio};

use crate::command::PlayerCommand;
use crate::level::{Level, ObjectDefKind};
use crate::sim::TownSim;
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

/// Spacing of the points at which a bot checks a straight walk for buildings, metres.
const BOT_SIGHT_STEP: Fx = fx_ratio(1, 2);

/// Clearance a bot keeps from buildings when judging a straight walk clear, metres: a
/// character's radius and a margin for the corners.
const BOT_CLEARANCE: Fx = fx_ratio(6, 10);

/// A scripted player.
#[derive(Clone, Debug)]
pub struct TownBot {
    player: Player,
    plan: Vec<Goal>,
    step: usize,
    waited: u32,
    best_distance: Fx,
    patience: u32,
    /// Points still to pass on the way to the current goal, last first.
    path: Vec<Vec2>,
    /// Whether `path` was planned for the current goal.
    planned: bool,
    /// The street graph, walkable both ways: neighbours of each waypoint.
    streets: Vec<Vec<u32>>,
    waypoints: Vec<Vec2>,
    solids: Vec<crate::geom::Rect>,
}

impl TownBot {
    /// The bot playing player `player` in `level`. Bots of different players take the
    /// level's doors, teleports and talkers in different orders.
    #[must_use]
    pub fn new(player: Player, level: &Level) -> Self {
        let mut streets = vec![Vec::new(); level.waypoints.len()];
        for &(a, b) in &level.lanes {
            for (from, to) in [(a, b), (b, a)] {
                if let Some(list) = streets.get_mut(from as usize)
                    && !list.contains(&to)
                {
                    list.push(to);
                }
            }
        }
        Self {
            player,
            plan: plan(player, level),
            step: 0,
            waited: 0,
            best_distance: Fx::MAX,
            patience: 0,
            path: Vec::new(),
            planned: false,
            streets,
            waypoints: level.waypoints.clone(),
            solids: level.buildings.iter().map(|b| b.footprint.grown(BOT_CLEARANCE)).collect(),
        }
    }

    /// Whether a straight walk from `a` to `b` passes no building.
    fn clear(&self, a: Vec2, b: Vec2) -> bool {
        let offset = b - a;
        let steps = (offset.length() / BOT_SIGHT_STEP).to_num::<i64>().clamp(1, 4_000);
        // Every point of the walk lies in the box of its ends: only the solids that box touches
        // can hold one, a few of a large town's thousands.
        let (low, high) =
            (Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)));
        let near: Vec<&crate::geom::Rect> = self
            .solids
            .iter()
            .filter(|r| {
                r.min.x <= high.x && r.max.x >= low.x && r.min.y <= high.y && r.max.y >= low.y
            })
            .collect();
        near.is_empty()
            || (0..=steps).all(|i| {
                let p = a + offset * (Fx::from_num(i) / Fx::from_num(steps));
                !near.iter().any(|r| r.contains(p))
            })
    }

    /// The waypoint nearest to `p` that `p` can walk to straight, if any (the first of the
    /// nearest, by index). Tried nearest first, so a town of thousands of waypoints costs a
    /// sort and a walk or two, not a walk to every waypoint nearer than the best so far.
    fn nearest_waypoint(&self, p: Vec2) -> Option<usize> {
        let mut by_distance: Vec<(Fx, usize)> =
            self.waypoints.iter().enumerate().map(|(i, &w)| ((w - p).length(), i)).collect();
        by_distance.sort_unstable();
        by_distance.into_iter().find(|&(_, i)| self.clear(p, self.waypoints[i])).map(|(_, i)| i)
    }

    /// Plans the way from `from` to `to`: straight if clear, else along the streets (a
    /// breadth-first search of the street graph between the waypoints nearest each end).
    fn plan_path(&mut self, from: Vec2, to: Vec2) {
        self.path.clear();
        self.path.push(to);
        if self.clear(from, to) {
            return;
        }
        let (Some(start), Some(end)) = (self.nearest_waypoint(from), self.nearest_waypoint(to))
        else {
            return;
        };
        let mut came_from = vec![usize::MAX; self.waypoints.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        came_from[start] = start;
        while let Some(w) = queue.pop_front() {
            if w == end {
                break;
            }
            for &next in &self.streets[w] {
                if came_from[next as usize] == usize::MAX {
                    came_from[next as usize] = w;
                    queue.push_back(next as usize);
                }
            }
        }
        if came_from[end] == usize::MAX {
            return;
        }
        let mut w = end;
        loop {
            self.path.push(self.waypoints[w]);
            if w == start {
                break;
            }
            w = came_from[w];
        }
    }

    /// The bot's plan, in order; it starts again from the top when done.
    #[must_use]
    pub fn plan(&self) -> &[Goal] {
        &self.plan
    }

    fn next_goal(&mut self) {
        self.planned = false;
        self.path.clear();
        self.step = (self.step + 1) % self.plan.len().max(1);
        self.waited = 0;
        self.best_distance = Fx::MAX;
        self.patience = 0;
    }
}

impl fixstep_runtime::Bot<TownSim> for TownBot {
    /// This tick's command, from what the latest snapshot shows.
    fn command(&mut self, snapshot: &GameSnapshot) -> PlayerCommand {
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
            Goal::Walk(goal_at) | Goal::Run(goal_at) => {
                if !self.planned {
                    self.plan_path(me.pos, goal_at);
                    self.planned = true;
                }
                // Pass the waypoints of the path one by one; the last point is the goal.
                while self.path.len() > 1
                    && self
                        .path
                        .last()
                        .is_some_and(|&p| (p - me.pos).length() <= BOT_ARRIVE_RADIUS * 2)
                {
                    self.path.pop();
                    self.best_distance = Fx::MAX;
                }
                let to = self.path.last().copied().unwrap_or(goal_at);
                let offset = to - me.pos;
                let distance = offset.length();
                if self.path.len() <= 1 && distance <= BOT_ARRIVE_RADIUS {
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
/// talk to a talker through its lines, watch a cutscene, run back to the spawn; each bot
/// starts with a different errand, at a different door, teleport and talker.
fn plan(player: Player, level: &Level) -> Vec<Goal> {
    let pick = |len: usize| if len == 0 { None } else { Some(player.index() % len) };
    let mut errands: Vec<Vec<Goal>> = Vec::new();
    let doors = door_approaches(level);
    if let Some(i) = pick(doors.len()) {
        errands.push(vec![Goal::Walk(doors[i]), Goal::Interact, Goal::Wait(15)]);
    }
    if let Some(i) = pick(level.teleports.len()) {
        let side = player.index() / level.teleports.len() % 2;
        let (enter, arrive) = (level.teleports[i].ends[side], level.teleports[i].ends[1 - side]);
        let away = Vec2::from_angle(arrive.exit_facing) * fx(3);
        errands.push(vec![
            Goal::Run(enter.zone.centre),
            Goal::Wait(5),
            Goal::Walk(arrive.exit + away),
            Goal::Wait(10),
        ]);
    }
    if let Some(i) = pick(level.talkers.len()) {
        let talker = &level.talkers[i];
        let stand = talker.at + Vec2::from_angle(talker.facing) * BOT_TALK_STANDOFF;
        errands.push(vec![
            Goal::Walk(stand),
            Goal::Interact,
            Goal::Wait(20),
            Goal::Interact,
            Goal::Wait(20),
            Goal::Interact,
            Goal::Wait(10),
        ]);
    }
    if let Some(i) = pick(level.cutscene_triggers.len()) {
        // Into the trigger zone and wait out the cutscene (the bot's input is ignored meanwhile).
        let trigger = &level.cutscene_triggers[i];
        let length = level.cutscenes.get(trigger.cutscene as usize).map_or(0, |c| c.duration_ticks);
        errands.push(vec![Goal::Walk(trigger.zone.centre), Goal::Wait(length + 5)]);
    }
    let spawn = level.spawns[player.index() % level.spawns.len()];
    errands.push(vec![Goal::Run(spawn.at), Goal::Wait(10)]);
    // Each bot starts on a different errand, so a few bots soon do everything at once.
    let start = player.index() % errands.len();
    errands.rotate_left(start);
    errands.concat()
}
