//! Whether a state from outside fits the town's rules and its level, before it is restored.
//!
//! The ticks index the level's lists by what the state says (a taxi's target, a pedestrian's
//! route point, an object's definition, a clip by animation state), walk sorted lists side by
//! side, and add and multiply positions and speeds in fixed point, whose overflow panics. A
//! state the rules computed keeps every relation below; a crafted one (a replay's keyframe, a
//! host's welcome) that breaks one is refused here, with the field, instead of panicking a tick
//! later.

use fixstep_runtime::math::{Fx, Vec2, Vec3, fx};
use fixstep_runtime::{EntityId, StateError};

use crate::level::{Level, ObjectDefKind};
use crate::sim::{MAX_PLAYERS, time_of_day};
use crate::state::{
    Character, GameState, Leg, ObjectPhase, ObjectState, RoleKind, TaskKind, TaxiState,
};
use crate::tuning::{
    HIT_STAGGER_TICKS, MAX_HEALTH, RESPAWN_DELAY_TICKS, TAXI_MAX_STEER, TELEPORT_COOLDOWN_TICKS,
};

/// The farthest from the origin any position, offset or other length of the state may be,
/// metres (100 km): twenty times the farthest a level's coordinates reach (5 km, the level
/// check's limit), so that no state the rules computed is refused, and small enough that the
/// ticks' sums and products (a position plus a step, the difference of two positions, a step
/// times a speed) stay far inside the 2^31 m a fixed-point number holds.
const MAX_STATE_LENGTH: Fx = fx(100_000);

/// The most transform tasks an object may run at once: twice the most the rules start
/// together (a sign fading in runs its fade and its scale), so that no state they computed is
/// refused, while a crafted list of millions, which every tick walks and shortens, is.
const MAX_OBJECT_TASKS: usize = 4;

/// The latest tick a state may be at: half the ticks a tick number counts (6.8 years of play),
/// since the ticks set phases and cooldowns to end at the tick plus a level's duration (at
/// most 864,000 ticks), and that sum must not overflow.
const MAX_STATE_TICK: u32 = u32::MAX / 2;

/// Refuses `field` for `problem`.
fn refuse(field: impl Into<String>, problem: impl Into<String>) -> StateError {
    StateError::new(field, problem)
}

/// Whether `value` is within [`MAX_STATE_LENGTH`] either way (compared, not taken absolute:
/// the absolute value of the most negative number overflows).
fn within(value: Fx) -> bool {
    (-MAX_STATE_LENGTH..=MAX_STATE_LENGTH).contains(&value)
}

/// Refuses a length or position component beyond [`MAX_STATE_LENGTH`].
fn length(field: impl FnOnce() -> String, value: Fx) -> Result<(), StateError> {
    if !within(value) {
        return Err(refuse(field(), format!("{value} is beyond {MAX_STATE_LENGTH} m")));
    }
    Ok(())
}

fn vec2(field: impl Fn() -> String, v: Vec2) -> Result<(), StateError> {
    length(|| format!("{}.x", field()), v.x)?;
    length(|| format!("{}.y", field()), v.y)
}

fn vec3(field: impl Fn() -> String, v: Vec3) -> Result<(), StateError> {
    length(|| format!("{}.x", field()), v.x)?;
    length(|| format!("{}.y", field()), v.y)?;
    length(|| format!("{}.z", field()), v.z)
}

/// Whether `state` fits `level`: see [`fixstep_runtime::Simulation::check_state`].
pub(crate) fn check_state(state: &GameState, level: &Level) -> Result<(), StateError> {
    if state.next_tick.0 > MAX_STATE_TICK {
        return Err(refuse(
            "next_tick",
            format!(
                "{} is past the latest tick a state may be at, {MAX_STATE_TICK}",
                state.next_tick
            ),
        ));
    }
    let expected = time_of_day(level, state.next_tick);
    if state.time_of_day != expected {
        return Err(refuse(
            "time_of_day",
            format!(
                "is {}, where the level's clock says {expected} at tick {}",
                state.time_of_day, state.next_tick
            ),
        ));
    }
    check_seats(state)?;
    check_characters(state, level)?;
    check_taxis(state, level)?;
    check_objects(state, level)?;
    check_zones(state, level)?;
    check_dialogues(state, level)?;
    check_cutscenes(state, level)
}

/// The seats: at most [`MAX_PLAYERS`], each taken one naming its own player's character.
fn check_seats(state: &GameState) -> Result<(), StateError> {
    if state.players.len() > MAX_PLAYERS {
        return Err(refuse(
            "players",
            format!("{} seats, more than a town's {MAX_PLAYERS}", state.players.len()),
        ));
    }
    for (seat, &id) in state.players.iter().enumerate() {
        // A free seat keeps an id that names no live character.
        let Some(character) = state.characters.get(id) else { continue };
        if character.kind != RoleKind::Player || character.index as usize != seat {
            return Err(refuse(
                format!("players[{seat}]"),
                format!("names character {id}, which is not seat {seat}'s player"),
            ));
        }
    }
    Ok(())
}

/// Each character: who it is (a seat's player, a pedestrian or talker of the level, each of
/// those once and all of them there), and values within what the ticks reach.
fn check_characters(state: &GameState, level: &Level) -> Result<(), StateError> {
    let most = level.pedestrians.len() + level.talkers.len() + state.players.len();
    if state.characters.slots() > most {
        return Err(refuse(
            "characters",
            format!(
                "{} slots, more than the level's pedestrians and talkers and the seats ({most})",
                state.characters.slots()
            ),
        ));
    }
    let mut pedestrians = vec![false; level.pedestrians.len()];
    let mut talkers = vec![false; level.talkers.len()];
    for (id, c) in state.characters.iter() {
        let field = |name: &str| format!("characters[{id}].{name}");
        let index = c.index as usize;
        match c.kind {
            RoleKind::Player => {
                if state.players.get(index) != Some(&id) {
                    return Err(refuse(
                        field("index"),
                        format!("a player character of seat {index}, which does not name it"),
                    ));
                }
            }
            RoleKind::Pedestrian => check_pedestrian(id, c, level, &mut pedestrians)?,
            RoleKind::Talker => match talkers.get_mut(index) {
                Some(seen @ false) => *seen = true,
                Some(true) => return Err(refuse(field("index"), format!("talker {index} twice"))),
                None => {
                    return Err(refuse(
                        field("index"),
                        format!("talker {index}, of a level with {}", level.talkers.len()),
                    ));
                }
            },
        }
        if c.kind != RoleKind::Pedestrian && c.leg != Leg::default() {
            return Err(refuse(field("leg"), "is set for a character that walks no route"));
        }
        check_character_values(id, c, level)?;
    }
    if let Some(missing) = pedestrians.iter().position(|&seen| !seen) {
        return Err(refuse("characters", format!("has no character of pedestrian {missing}")));
    }
    if let Some(missing) = talkers.iter().position(|&seen| !seen) {
        return Err(refuse("characters", format!("has no character of talker {missing}")));
    }
    Ok(())
}

/// A pedestrian: one of the level's, once, on a point of its route, waiting no longer than a
/// stop lets it, stepping no farther than its route reaches.
fn check_pedestrian(
    id: EntityId,
    c: &Character,
    level: &Level,
    seen: &mut [bool],
) -> Result<(), StateError> {
    let field = |name: &str| format!("characters[{id}].{name}");
    let index = c.index as usize;
    let Some(def) = level.pedestrians.get(index) else {
        return Err(refuse(
            field("index"),
            format!("pedestrian {index}, of a level with {}", level.pedestrians.len()),
        ));
    };
    if std::mem::replace(&mut seen[index], true) {
        return Err(refuse(field("index"), format!("pedestrian {index} twice")));
    }
    let leg = &c.leg;
    if leg.target as usize >= def.route.len() {
        return Err(refuse(
            field("leg.target"),
            format!("route point {}, of a route of {}", leg.target, def.route.len()),
        ));
    }
    // A stop waits its pause and up to a quarter more.
    let longest = def.pause_ticks.saturating_add(def.pause_ticks / 4);
    if leg.wait > longest {
        return Err(refuse(
            field("leg.wait"),
            format!("{} ticks, longer than its stops' {longest}", leg.wait),
        ));
    }
    vec2(|| field("leg.at"), leg.at)?;
    // A tick steps `dir` times the speed: that step is no longer than the route reaches.
    for (axis, component) in [("x", leg.dir.x), ("y", leg.dir.y)] {
        let step = component.checked_mul(def.speed);
        if !step.is_some_and(within) {
            return Err(refuse(
                field(&format!("leg.dir.{axis}")),
                format!("{component} times its speed is a step beyond {MAX_STATE_LENGTH} m"),
            ));
        }
    }
    Ok(())
}

/// A character's values: where it is and how it moves within the lengths, its frame within its
/// clip, its health and counters within what the rules set.
fn check_character_values(id: EntityId, c: &Character, level: &Level) -> Result<(), StateError> {
    let field = |name: &str| format!("characters[{id}].{name}");
    vec2(|| field("pos"), c.pos)?;
    vec2(|| field("velocity"), c.velocity)?;
    vec2(|| field("knockback"), c.knockback)?;
    let frames = level.clips.clip(c.anim).frames;
    if c.frame < Fx::ZERO || c.frame >= fx(i32::try_from(frames).unwrap_or(i32::MAX)) {
        return Err(refuse(
            field("frame"),
            format!("{} is outside its clip's {frames} frames", c.frame),
        ));
    }
    if !(0..=MAX_HEALTH).contains(&c.health) {
        return Err(refuse(field("health"), format!("{} is outside 0..={MAX_HEALTH}", c.health)));
    }
    if c.stagger > HIT_STAGGER_TICKS {
        return Err(refuse(
            field("stagger"),
            format!("{} ticks, longer than a strike's {HIT_STAGGER_TICKS}", c.stagger),
        ));
    }
    if c.down > RESPAWN_DELAY_TICKS {
        return Err(refuse(
            field("down"),
            format!("{} ticks, longer than a respawn's {RESPAWN_DELAY_TICKS}", c.down),
        ));
    }
    Ok(())
}

/// The taxis: one per taxi of the level, each driving to a point of its route, standing no
/// longer than its stand, no faster than its top speed, steering within the lock, its forward
/// vector its yaw's.
fn check_taxis(state: &GameState, level: &Level) -> Result<(), StateError> {
    if state.taxis.len() != level.taxis.len() {
        return Err(refuse(
            "taxis",
            format!("{} taxis, where the level has {}", state.taxis.len(), level.taxis.len()),
        ));
    }
    for (i, (taxi, def)) in state.taxis.iter().zip(&level.taxis).enumerate() {
        let field = |name: &str| format!("taxis[{i}].{name}");
        let TaxiState { pos, forward, speed, yaw, steer, target, standing, reserved, .. } = *taxi;
        if target as usize >= def.route.len() {
            return Err(refuse(
                field("target"),
                format!("route point {target}, of a route of {}", def.route.len()),
            ));
        }
        if standing > def.stand_ticks {
            return Err(refuse(
                field("standing"),
                format!("{standing} ticks, longer than its stand's {}", def.stand_ticks),
            ));
        }
        if speed < Fx::ZERO || speed > def.max_speed {
            return Err(refuse(
                field("speed"),
                format!("{speed} is outside 0..={} m a tick", def.max_speed),
            ));
        }
        if steer.signed_units().unsigned_abs() > TAXI_MAX_STEER.0 {
            return Err(refuse(field("steer"), "turns the wheels past their lock"));
        }
        if forward != Vec2::from_angle(yaw) {
            return Err(refuse(field("forward"), "is not the unit vector of its yaw"));
        }
        if reserved != 0 {
            return Err(refuse(field("reserved"), format!("is {reserved}, where it is always 0")));
        }
        vec2(|| field("pos"), pos)?;
    }
    Ok(())
}

/// The objects: one per object of the level, in a phase of its kind's cycle, running few tasks
/// whose values the ticks can ease between.
fn check_objects(state: &GameState, level: &Level) -> Result<(), StateError> {
    if state.objects.len() != level.objects.len() {
        return Err(refuse(
            "objects",
            format!("{} objects, where the level has {}", state.objects.len(), level.objects.len()),
        ));
    }
    for (i, (object, def)) in state.objects.iter().zip(&level.objects).enumerate() {
        let field = |name: &str| format!("objects[{i}].{name}");
        let fits = match def.kind {
            ObjectDefKind::Door(_) => matches!(
                object.phase,
                ObjectPhase::Closed
                    | ObjectPhase::Opening
                    | ObjectPhase::Open
                    | ObjectPhase::Closing
            ),
            ObjectDefKind::Lift(_) => matches!(
                object.phase,
                ObjectPhase::AtBottom
                    | ObjectPhase::Rising
                    | ObjectPhase::AtTop
                    | ObjectPhase::Falling
            ),
            ObjectDefKind::Sign(_) => matches!(
                object.phase,
                ObjectPhase::Shown
                    | ObjectPhase::FadingOut
                    | ObjectPhase::Hidden
                    | ObjectPhase::FadingIn
            ),
        };
        if !fits {
            return Err(refuse(
                field("phase"),
                format!("{:?} is not a phase of this kind of object", object.phase),
            ));
        }
        check_object_values(i, object)?;
    }
    Ok(())
}

fn check_object_values(i: usize, object: &ObjectState) -> Result<(), StateError> {
    let field = |name: &str| format!("objects[{i}].{name}");
    vec3(|| field("offset"), object.offset)?;
    length(|| field("scale"), object.scale)?;
    length(|| field("opacity"), object.opacity)?;
    if object.tasks.len() > MAX_OBJECT_TASKS {
        return Err(refuse(
            field("tasks"),
            format!("{} tasks, more than an object's {MAX_OBJECT_TASKS}", object.tasks.len()),
        ));
    }
    for (t, task) in object.tasks.iter().enumerate() {
        let field = |name: &str| format!("objects[{i}].tasks[{t}].{name}");
        match task.kind {
            TaskKind::Move { from, to } => {
                vec3(|| field("from"), from)?;
                vec3(|| field("to"), to)?;
            }
            // The turn is eased as a fixed-point number: it must fit one's whole part.
            TaskKind::Rotate { by, .. } => {
                if i32::try_from(by).is_err() {
                    return Err(refuse(field("by"), format!("{by} is half a turn or more")));
                }
            }
            TaskKind::Scale { from, to } | TaskKind::Fade { from, to } => {
                length(|| field("from"), from)?;
                length(|| field("to"), to)?;
            }
        }
    }
    Ok(())
}

/// `list`'s keys strictly increasing, the order the ticks' merges and binary searches read.
fn sorted<T: Ord + Copy>(field: &str, list: impl Iterator<Item = T>) -> Result<(), StateError> {
    let mut before = None;
    for (i, key) in list.enumerate() {
        if before.is_some_and(|b| b >= key) {
            return Err(refuse(format!("{field}[{i}]"), "is out of order or repeated"));
        }
        before = Some(key);
    }
    Ok(())
}

/// The zones' memory: sorted, of live characters, of the level's triggers, cooldowns no longer
/// than a teleport's.
fn check_zones(state: &GameState, level: &Level) -> Result<(), StateError> {
    let zones = &state.zones;
    sorted("zones.cooldowns", zones.cooldowns.iter().map(|&(id, _)| id))?;
    sorted("zones.inside_triggers", zones.inside_triggers.iter().copied())?;
    sorted("zones.played", zones.played.iter().copied())?;
    let latest = u64::from(state.next_tick.0) + u64::from(TELEPORT_COOLDOWN_TICKS);
    for (i, &(id, until)) in zones.cooldowns.iter().enumerate() {
        if !state.characters.contains(id) {
            return Err(refuse(format!("zones.cooldowns[{i}]"), format!("{id} is no character")));
        }
        if u64::from(until.0) > latest {
            return Err(refuse(
                format!("zones.cooldowns[{i}]"),
                format!("ends at tick {until}, more than a cooldown from tick {}", state.next_tick),
            ));
        }
    }
    let triggers = level.cutscene_triggers.len();
    for (name, list) in [("inside_triggers", &zones.inside_triggers), ("played", &zones.played)] {
        for (i, &(id, trigger)) in list.iter().enumerate() {
            if !state.characters.contains(id) {
                return Err(refuse(format!("zones.{name}[{i}]"), format!("{id} is no character")));
            }
            if trigger as usize >= triggers {
                return Err(refuse(
                    format!("zones.{name}[{i}]"),
                    format!("trigger {trigger}, of a level with {triggers}"),
                ));
            }
        }
    }
    Ok(())
}

/// The dialogues: one a seated player at most, in player order, each with a talker of its
/// own, on a line of one of the level's scripts, started before the next tick.
fn check_dialogues(state: &GameState, level: &Level) -> Result<(), StateError> {
    sorted("dialogues", state.dialogues.iter().map(|d| d.player))?;
    // By the talker's index among the level's, which the characters' check found in range.
    let mut talking = vec![false; level.talkers.len()];
    for (i, d) in state.dialogues.iter().enumerate() {
        let field = |name: &str| format!("dialogues[{i}].{name}");
        seated(state, d.player.index(), || field("player"))?;
        let talker = state.characters.get(d.talker).filter(|c| c.kind == RoleKind::Talker);
        let Some(seen) = talker.and_then(|c| talking.get_mut(c.index as usize)) else {
            return Err(refuse(field("talker"), format!("{} is no talker", d.talker)));
        };
        if std::mem::replace(seen, true) {
            return Err(refuse(field("talker"), format!("{} talks in two dialogues", d.talker)));
        }
        let Some(script) = level.dialogues.get(d.dialogue as usize) else {
            return Err(refuse(
                field("dialogue"),
                format!("script {}, of a level with {}", d.dialogue, level.dialogues.len()),
            ));
        };
        if d.line as usize >= script.lines.len() {
            return Err(refuse(
                field("line"),
                format!("line {}, of a script of {}", d.line, script.lines.len()),
            ));
        }
        if d.line_started >= state.next_tick {
            return Err(refuse(
                field("line_started"),
                format!("tick {}, not before the next tick {}", d.line_started, state.next_tick),
            ));
        }
    }
    Ok(())
}

/// The cutscenes: one a seated player at most, in player order, each of the level's, started
/// before the next tick.
fn check_cutscenes(state: &GameState, level: &Level) -> Result<(), StateError> {
    sorted("cutscenes", state.cutscenes.iter().map(|c| c.player))?;
    for (i, c) in state.cutscenes.iter().enumerate() {
        let field = |name: &str| format!("cutscenes[{i}].{name}");
        seated(state, c.player.index(), || field("player"))?;
        if c.cutscene as usize >= level.cutscenes.len() {
            return Err(refuse(
                field("cutscene"),
                format!("cutscene {}, of a level with {}", c.cutscene, level.cutscenes.len()),
            ));
        }
        if c.started >= state.next_tick {
            return Err(refuse(
                field("started"),
                format!("tick {}, not before the next tick {}", c.started, state.next_tick),
            ));
        }
    }
    Ok(())
}

/// Refuses `field` unless seat `seat` holds a player.
fn seated(
    state: &GameState,
    seat: usize,
    field: impl FnOnce() -> String,
) -> Result<(), StateError> {
    match state.players.get(seat) {
        Some(&id) if state.characters.contains(id) => Ok(()),
        _ => Err(refuse(field(), format!("seat {seat} holds no player"))),
    }
}
