//! Teleport zones and cutscene triggers.

use fixstep_runtime::{EntityId, EntityStore, Tick};

use crate::level::Level;
use crate::state::{Character, CutsceneState, ZoneState};
use crate::tuning::TELEPORT_COOLDOWN_TICKS;

/// Teleport zones whose bounding squares the crowd is first checked against: levels have a
/// handful (the town two pairs); a level with more checks every zone in full.
const MAX_TELEPORT_SQUARES: usize = 8;

/// Sends every enabled character standing in a teleport zone to the paired exit, unless it
/// teleported within [`TELEPORT_COOLDOWN_TICKS`]. A teleport is a jump: the character's jump
/// counter goes up, so nothing is ever drawn between the two places.
pub fn teleport(
    characters: &mut EntityStore<Character>,
    zones: &mut ZoneState,
    level: &Level,
    tick: Tick,
) {
    zones.cooldowns.retain(|&(_, until)| until > tick);
    if level.teleports.is_empty() {
        return;
    }
    // The cooldowns are sorted by character, as the characters are: one walk along both finds
    // each character's, where a search per character would cost the crowd times the list.
    // (Entries added below are for characters already passed.)
    let cooling = zones.cooldowns.len();
    let mut next = 0;
    // Each zone's bounding square, in raw bits: most of the crowd is outside all of them, which
    // four integer comparisons a zone tell.
    let mut squares = [(0i64, 0i64, 0i64, 0i64); MAX_TELEPORT_SQUARES];
    let zones_listed = level.teleports.iter().flat_map(|pair| &pair.ends);
    for (square, end) in squares.iter_mut().zip(zones_listed) {
        let (c, r) = (end.zone.centre, end.zone.radius);
        *square =
            ((c.x - r).to_bits(), (c.x + r).to_bits(), (c.y - r).to_bits(), (c.y + r).to_bits());
    }
    let listed = (level.teleports.len() * 2).min(MAX_TELEPORT_SQUARES);
    let few = level.teleports.len() * 2 <= MAX_TELEPORT_SQUARES;
    for (id, character) in characters.iter_mut() {
        while next < cooling && zones.cooldowns[next].0 < id {
            next += 1;
        }
        let cooling_down = next < cooling && zones.cooldowns[next].0 == id;
        if !character.enabled || cooling_down {
            continue;
        }
        let (x, y) = (character.pos.x.to_bits(), character.pos.y.to_bits());
        let near =
            |&(x0, x1, y0, y1): &(i64, i64, i64, i64)| x0 <= x && x <= x1 && y0 <= y && y <= y1;
        if few && !squares[..listed].iter().any(near) {
            continue;
        }
        let destination = level.teleports.iter().find_map(|pair| {
            (0..2).find(|&i| pair.ends[i].zone.contains(character.pos)).map(|i| pair.ends[1 - i])
        });
        if let Some(exit) = destination {
            character.pos = exit.exit;
            character.facing = exit.exit_facing;
            character.knockback = fixstep_runtime::math::Vec2::ZERO;
            character.jumps = character.jumps.wrapping_add(1);
            zones.cooldowns.push((id, Tick(tick.0 + TELEPORT_COOLDOWN_TICKS)));
        }
    }
    zones.cooldowns.sort_unstable();
}

/// Starts a cutscene for each player character that entered a trigger zone this tick (and has
/// not played it, for a `once` trigger), unless it is already watching one. Only the players
/// are visited (in id order, which keeps the memory sorted), not the whole crowd; `scratch`
/// holds their ids, `inside` last tick's memory, and `watching` whether each player watches a
/// cutscene (as `cutscenes` says, kept up to date here), all reused every tick.
pub fn trigger_cutscenes(
    characters: &EntityStore<Character>,
    players: &[EntityId],
    zones: &mut ZoneState,
    cutscenes: &mut Vec<CutsceneState>,
    level: &Level,
    tick: Tick,
    (scratch, inside, watching): (&mut Vec<EntityId>, &mut Vec<(EntityId, u32)>, &mut [bool]),
) {
    inside.clear();
    scratch.clear();
    scratch.extend_from_slice(players);
    scratch.sort_unstable();
    // The `once` triggers played for the first time, added to the memory after the walk: a
    // key is looked up there only by its own character, before it is added, so one merge
    // does what an insertion each (a shift of the whole memory each) would.
    let played_before = zones.played.len();
    for &id in scratch.iter() {
        let Some(character) = characters.get(id) else { continue };
        let Some(player) = character.player() else { continue };
        if !character.enabled {
            continue;
        }
        for (index, trigger) in level.cutscene_triggers.iter().enumerate() {
            if !trigger.zone.contains(character.pos) {
                continue;
            }
            #[expect(
                clippy::cast_possible_truncation,
                reason = "at most MAX_ZONES (32) cutscene triggers"
            )]
            let key = (id, index as u32);
            inside.push(key);
            let entered = zones.inside_triggers.binary_search(&key).is_err();
            let played = zones.played[..played_before].binary_search(&key).is_ok();
            let watches = watching.get(player.index()).copied().unwrap_or(false);
            if entered && !watches && !(trigger.once && played) {
                cutscenes.push(CutsceneState { player, cutscene: trigger.cutscene, started: tick });
                if let Some(watches) = watching.get_mut(player.index()) {
                    *watches = true;
                }
                if trigger.once {
                    zones.played.push(key);
                }
            }
        }
    }
    if zones.played.len() > played_before {
        zones.played.sort_unstable();
    }
    cutscenes.sort_by_key(|c| c.player);
    core::mem::swap(&mut zones.inside_triggers, inside);
}

/// Ends the cutscenes whose time is up.
pub fn end_cutscenes(cutscenes: &mut Vec<CutsceneState>, level: &Level, tick: Tick) {
    cutscenes.retain(|c| {
        let duration = level.cutscenes.get(c.cutscene as usize).map_or(0, |s| s.duration_ticks);
        tick.since(c.started) + 1 < i64::from(duration)
    });
}
