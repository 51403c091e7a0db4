//! Teleport zones and cutscene triggers.

use fixstep_runtime::math::Vec2;
use fixstep_runtime::{EntityId, EntityStore, Tick};

use crate::level::Level;
use crate::state::{Character, CutsceneState, ZoneState};
use crate::tuning::TELEPORT_COOLDOWN_TICKS;

/// Teleport zones whose bounding squares the crowd is first checked against: levels have a
/// handful (the town two pairs); a level with more checks every zone in full.
const MAX_TELEPORT_SQUARES: usize = 8;

/// The bounding squares of a level's teleport zones, in raw bits: what tells, in four integer
/// comparisons a zone, that a character is nowhere near one, as most of a crowd is. Built once
/// per level.
#[derive(Clone, Debug, Default)]
pub struct TeleportSquares {
    squares: [(i64, i64, i64, i64); MAX_TELEPORT_SQUARES],
    /// How many of `squares` are the level's zones.
    listed: usize,
    /// The level has more zones than squares: anyone might be in one.
    too_many: bool,
}

impl TeleportSquares {
    /// The squares of `level`'s teleport zones.
    #[must_use]
    pub fn new(level: &Level) -> Self {
        let mut squares = [(0, 0, 0, 0); MAX_TELEPORT_SQUARES];
        let zones = level.teleports.iter().flat_map(|pair| &pair.ends);
        for (square, end) in squares.iter_mut().zip(zones) {
            let (c, r) = (end.zone.centre, end.zone.radius);
            *square = (
                (c.x - r).to_bits(),
                (c.x + r).to_bits(),
                (c.y - r).to_bits(),
                (c.y + r).to_bits(),
            );
        }
        let zones = level.teleports.len() * 2;
        Self {
            squares,
            listed: zones.min(MAX_TELEPORT_SQUARES),
            too_many: zones > MAX_TELEPORT_SQUARES,
        }
    }

    /// Whether a character at `pos` might stand in a teleport zone (a square holds it).
    #[must_use]
    #[inline]
    pub fn might_hold(&self, pos: Vec2) -> bool {
        let (x, y) = (pos.x.to_bits(), pos.y.to_bits());
        self.too_many
            || self.squares[..self.listed]
                .iter()
                .any(|&(x0, x1, y0, y1)| x0 <= x && x <= x1 && y0 <= y && y <= y1)
    }
}

/// Sends every enabled character standing in a teleport zone to the paired exit, unless it
/// teleported within [`TELEPORT_COOLDOWN_TICKS`]. A teleport is a jump: the character's jump
/// counter goes up, so nothing is ever drawn between the two places.
///
/// Only `candidates` are looked at: the enabled characters that [`TeleportSquares`] says might
/// be in a zone where they stand, in id order. The caller notes them as it puts each character
/// where it stands this tick, so that the teleports need no pass over the whole crowd.
pub fn teleport(
    characters: &mut EntityStore<Character>,
    candidates: &[EntityId],
    zones: &mut ZoneState,
    level: &Level,
    tick: Tick,
) {
    zones.cooldowns.retain(|&(_, until)| until > tick);
    if level.teleports.is_empty() {
        return;
    }
    // The cooldowns are sorted by character, as the candidates are: one walk along both finds
    // each character's, where a search per character would cost the candidates times the
    // list. (Entries added below are for characters already passed.)
    let cooling = zones.cooldowns.len();
    let mut next = 0;
    for &id in candidates {
        while next < cooling && zones.cooldowns[next].0 < id {
            next += 1;
        }
        let cooling_down = next < cooling && zones.cooldowns[next].0 == id;
        let Some(character) = characters.get_mut(id) else { continue };
        if !character.enabled || cooling_down {
            continue;
        }
        let destination = level.teleports.iter().find_map(|pair| {
            (0..2).find(|&i| pair.ends[i].zone.contains(character.pos)).map(|i| pair.ends[1 - i])
        });
        if let Some(exit) = destination {
            character.pos = exit.exit;
            character.facing = exit.exit_facing;
            character.knockback = Vec2::ZERO;
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
