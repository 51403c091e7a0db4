//! Characters: players' movement from their commands, pedestrians on their routes, animation,
//! health and respawn.

use fixstep_runtime::math::{Angle, Fx, Vec2, fx};
use fixstep_runtime::rng::SimRng;

use crate::command::PlayerCommand;
use crate::level::Level;
use crate::state::{Character, Leg, MoveMode, Role, RoleKind};
use crate::tuning::{
    KNOCKBACK_DECAY, MAX_HEALTH, PEDESTRIAN_ARRIVE_RADIUS, REGEN_DELAY_TICKS, REGEN_INTERVAL_TICKS,
    RESPAWN_DELAY_TICKS, RUN_SPEED, WALK_SPEED,
};
use crate::{AnimState, advance_frame};

/// Knockback slower than this, metres per tick (about 0.24 mm per tick), counts as spent: it
/// ends the halving series instead of carrying invisible motion for dozens of ticks.
const KNOCKBACK_REST: Fx = Fx::from_bits(1 << 20);

/// A new character standing at `pos`; a pedestrian's leg starts toward `leg.target`.
#[must_use]
pub fn new_character(role: Role, pos: Vec2, facing: Angle, leg: Leg) -> Character {
    let (kind, index) = match role {
        Role::Player(p) => (RoleKind::Player, u32::from(p.0)),
        Role::Pedestrian(i) => (RoleKind::Pedestrian, i),
        Role::Talker(i) => (RoleKind::Talker, i),
    };
    Character {
        pos,
        velocity: Vec2::ZERO,
        knockback: Vec2::ZERO,
        frame: Fx::ZERO,
        leg,
        facing,
        health: MAX_HEALTH,
        jumps: 0,
        stagger: 0,
        since_hit: u32::MAX,
        down: 0,
        index,
        kind,
        mode: MoveMode::Idle,
        anim: AnimState::Idle,
        enabled: true,
    }
}

/// The displacement a player's command asks for this tick, walking or running along the
/// facing after its turn (forward) and to its right (strafe).
#[must_use]
pub fn commanded_step(command: &PlayerCommand, facing: Angle) -> (Vec2, MoveMode) {
    if !command.moves() {
        return (Vec2::ZERO, MoveMode::Idle);
    }
    let forward = Vec2::from_angle(facing);
    let right = Vec2::from_angle(facing - Angle::QUARTER);
    let wish = forward * Fx::from_num(command.forward) + right * Fx::from_num(command.strafe);
    let wish = (wish / fx(100)).clamp_length(Fx::ONE);
    let (speed, mode) =
        if command.run { (RUN_SPEED, MoveMode::Run) } else { (WALK_SPEED, MoveMode::Walk) };
    (wish * speed, mode)
}

/// Moves a player's character by its command. `frozen` (watching a cutscene) ignores the
/// command; a staggering or downed character ignores it too.
pub fn drive_player(character: &mut Character, command: &PlayerCommand, frozen: bool) {
    let mut step = Vec2::ZERO;
    character.mode = MoveMode::Idle;
    if !frozen && character.enabled && character.stagger == 0 {
        character.facing = command.turned(character.facing);
        let (wish, mode) = commanded_step(command, character.facing);
        step = wish;
        character.mode = mode;
    }
    character.pos += step;
}

/// Moves a pedestrian along its route: toward its target point at its speed, waiting (and
/// waving) at its stops. `rng` adds a little to each wait so a crowd does not move in step.
///
/// A leg is planned once (a direction, a facing and a distance: one square root and one
/// arctangent) and then walked with additions only; it is planned again if something moved
/// the pedestrian off it. A crowd of ten thousand walks cheaply this way.
///
/// `speeds` holds every pedestrian's speed (the level's, by pedestrian) apart from the rest of
/// its definition, which a walker on its way never reads: a tick then reads 8 bytes of each
/// walker's definition, not the 80 of its whole, which on a large town come from memory.
pub fn drive_pedestrian(
    character: &mut Character,
    (level, speeds): (&Level, &[Fx]),
    rng: &mut SimRng,
) {
    let Role::Pedestrian(def) = character.role() else {
        return;
    };
    let (Some(route), Some(&speed)) =
        (level.pedestrians.get(def as usize), speeds.get(def as usize))
    else {
        return;
    };
    let Leg { dir, at, left, target, wait } = &mut character.leg;
    character.mode = MoveMode::Idle;
    if !character.enabled || character.stagger > 0 {
        return;
    }
    if *wait > 0 {
        *wait -= 1;
        return;
    }
    // The target is always on the route (it wraps when it advances): no division per walker.
    // Read only when planning or arriving: a walker on its way needs no route point.
    let goal = |target: u32| match route.route.get(target as usize) {
        Some(&goal) => goal,
        None => route.route[target as usize % route.route.len()],
    };
    let on_its_way = character.pos == *at && *left != Fx::ZERO;
    if !on_its_way {
        let to_goal = goal(*target) - character.pos;
        // Pushed a little off the leg: aim at the goal again, measuring the distance along the
        // old way (no square root); the facing stays, the turn being a few degrees at most.
        let moved = character.pos != *at;
        let along = if *left > Fx::ZERO && moved { to_goal.dot(*dir) } else { Fx::ZERO };
        if along > speed {
            *left = along;
            *dir = to_goal / along;
        } else {
            *left = to_goal.length();
            *dir = if *left == Fx::ZERO { Vec2::ZERO } else { to_goal / *left };
            if *left > PEDESTRIAN_ARRIVE_RADIUS {
                character.facing = to_goal.angle();
            }
        }
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a route of a level, far shorter than 2^32 points"
    )]
    if *left <= PEDESTRIAN_ARRIVE_RADIUS.max(speed) {
        character.pos = goal(*target);
        if route.stops.get(*target as usize).copied().unwrap_or(false) {
            *wait = route.pause_ticks + rng.below(route.pause_ticks / 4 + 1);
        }
        *target = (*target + 1) % route.route.len() as u32;
        *left = Fx::ZERO;
    } else {
        character.pos += *dir * speed;
        *left -= speed;
        character.mode = MoveMode::Walk;
    }
    *at = character.pos;
}

/// Adds the knockback still carrying a character and lets it decay.
pub fn apply_knockback(character: &mut Character) {
    if character.knockback == Vec2::ZERO {
        return;
    }
    character.pos += character.knockback;
    character.knockback = character.knockback * KNOCKBACK_DECAY;
    if character.knockback.x.abs() < KNOCKBACK_REST && character.knockback.y.abs() < KNOCKBACK_REST
    {
        character.knockback = Vec2::ZERO;
    }
}

/// Health over time: a downed character counts down and then respawns where `respawn` says (a
/// new place: its jump counter goes up); a struck one regains health after a delay.
pub fn update_health(character: &mut Character, respawn: impl FnOnce(&Character) -> (Vec2, Angle)) {
    character.since_hit = character.since_hit.saturating_add(1);
    character.stagger = character.stagger.saturating_sub(1);
    if !character.enabled {
        character.down = character.down.saturating_sub(1);
        if character.down == 0 {
            let (at, facing) = respawn(character);
            character.enabled = true;
            character.health = MAX_HEALTH;
            character.pos = at;
            character.facing = facing;
            character.knockback = Vec2::ZERO;
            character.jumps = character.jumps.wrapping_add(1);
        }
        return;
    }
    if character.health <= 0 {
        character.enabled = false;
        character.down = RESPAWN_DELAY_TICKS;
        character.knockback = Vec2::ZERO;
        return;
    }
    if character.health < MAX_HEALTH
        && character.since_hit >= REGEN_DELAY_TICKS
        && character.since_hit.is_multiple_of(REGEN_INTERVAL_TICKS)
    {
        character.health += 1;
    }
}

/// Sets the animation state from what the character is doing and advances its frame. A
/// change of state starts the new clip at frame 0.
pub fn animate(character: &mut Character, level: &Level, talking: bool) {
    let waiting = character.kind == RoleKind::Pedestrian && character.leg.wait > 0;
    let state = if character.stagger > 0 {
        AnimState::Hit
    } else if talking {
        AnimState::Talk
    } else if waiting {
        AnimState::Wave
    } else {
        match character.mode {
            MoveMode::Idle => AnimState::Idle,
            MoveMode::Walk => AnimState::Walk,
            MoveMode::Run => AnimState::Run,
        }
    };
    if state == character.anim {
        character.frame = advance_frame(level.clips.clip(state), character.frame);
    } else {
        character.anim = state;
        character.frame = Fx::ZERO;
    }
}

/// Where a character respawns: players at their spawn point, pedestrians at the start of
/// their route, talkers where they stand.
#[must_use]
pub fn respawn_point(character: &Character, level: &Level) -> (Vec2, Angle) {
    match character.role() {
        Role::Player(player) => {
            let spawn = level.spawns[player.index() % level.spawns.len()];
            (spawn.at, spawn.facing)
        }
        Role::Pedestrian(def) => level
            .pedestrians
            .get(def as usize)
            .and_then(|p| p.route.first())
            .map_or((character.pos, character.facing), |&at| (at, character.facing)),
        Role::Talker(index) => level
            .talkers
            .get(index as usize)
            .map_or((character.pos, character.facing), |t| (t.at, t.facing)),
    }
}

/// A character struck for `damage`: it loses health, staggers and is knocked back with
/// `knockback`.
pub fn strike(character: &mut Character, damage: i32, knockback: Vec2) {
    character.health = (character.health - damage).max(0);
    character.stagger = crate::tuning::HIT_STAGGER_TICKS;
    character.since_hit = 0;
    character.knockback = knockback;
}
