//! Interaction (doors and talkers) and dialogues.

use fixstep_runtime::math::{Fx, Vec2, fx};
use fixstep_runtime::{EntityId, EntityStore, Player, Tick};

use crate::collision::RectIndex;
use crate::geom::Rect;
use crate::level::{Level, ObjectDefKind};
use crate::objects::interact_door;
use crate::state::{Character, DialogueState, ObjectState, Role};
use crate::tuning::{DOOR_REACH, GRID_CELL, TALK_LEAVE_RANGE, TALK_RANGE};

/// What a player's interact reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Talker(EntityId, u32),
    Door(usize),
}

/// What a player's interact may reach: the characters, the talkers among them (in id order),
/// and the doors.
#[derive(Clone, Copy, Debug)]
pub struct Reachable<'a> {
    /// Every character.
    pub characters: &'a EntityStore<Character>,
    /// The talkers' ids, in id order.
    pub talkers: &'a [EntityId],
    /// Where the doors are.
    pub doors: &'a Doors,
}

/// Where the level's doors are, for interactions: each door's object index and the middle of
/// its leaf, listed in the cells within [`DOOR_REACH`] of it, so that an interaction looks at
/// the doors near it and not at every object of the level. Built once per level.
#[derive(Clone, Debug, Default)]
pub struct Doors {
    index: RectIndex,
    /// Object index and leaf middle of each door, in level order.
    doors: Vec<(usize, Vec2)>,
}

impl Doors {
    /// The doors of `level`.
    #[must_use]
    pub fn new(level: &Level) -> Self {
        let doors: Vec<(usize, Vec2)> = level
            .objects
            .iter()
            .enumerate()
            .filter_map(|(index, object)| match &object.kind {
                ObjectDefKind::Door(door) => Some((index, (door.hinge + door.leaf_end) / fx(2))),
                _ => None,
            })
            .collect();
        let points: Vec<Rect> = doors.iter().map(|&(_, at)| Rect { min: at, max: at }).collect();
        let index = RectIndex::within(&points, DOOR_REACH, &level.ground, GRID_CELL);
        Self { index, doors }
    }
}

/// The nearest thing `pos` can interact with: talkers within [`TALK_RANGE`], doors within
/// [`DOOR_REACH`] of the middle of their leaf. On a tie the talker, then the first door, wins.
/// Only the talkers and the doors near are looked at, not the crowd or the level's objects.
fn nearest_reach(pos: Vec2, reachable: Reachable<'_>) -> Option<Reach> {
    let Reachable { characters, talkers, doors } = reachable;
    let mut best: Option<(Fx, Reach)> = None;
    let mut consider = |distance: Fx, reach: Reach| {
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, reach));
        }
    };
    for &id in talkers {
        let Some(character) = characters.get(id) else { continue };
        let offset = character.pos - pos;
        // Farther than the range along an axis is farther than the range: no square root.
        if offset.x.abs() > TALK_RANGE || offset.y.abs() > TALK_RANGE {
            continue;
        }
        if let Role::Talker(index) = character.role() {
            let distance = offset.length();
            if character.enabled && distance <= TALK_RANGE {
                consider(distance, Reach::Talker(id, index));
            }
        }
    }
    for &door in doors.index.near(pos) {
        let (index, middle) = doors.doors[door as usize];
        let distance = middle.distance(pos);
        if distance <= DOOR_REACH {
            consider(distance, Reach::Door(index));
        }
    }
    best.map(|(_, reach)| reach)
}

/// A player pressed interact: in a dialogue it advances the line (ending the dialogue after
/// the last); otherwise it talks to the nearest free talker or opens or closes the nearest
/// door.
pub fn interact(
    player: Player,
    character: EntityId,
    reachable: Reachable<'_>,
    objects: &mut [ObjectState],
    dialogues: &mut Vec<DialogueState>,
    level: &Level,
    tick: Tick,
) {
    if let Some(at) = dialogues.iter().position(|d| d.player == player) {
        let dialogue = &mut dialogues[at];
        // A dialogue started this tick is not advanced by the same press.
        if dialogue.line_started != tick {
            dialogue.line += 1;
            dialogue.line_started = tick;
            let lines =
                level.dialogues.get(dialogue.dialogue as usize).map_or(0, |d| d.lines.len());
            if dialogue.line as usize >= lines {
                dialogues.remove(at);
            }
        }
        return;
    }
    let Some(me) = reachable.characters.get(character).filter(|c| c.enabled) else { return };
    match nearest_reach(me.pos, reachable) {
        Some(Reach::Talker(talker, index)) => {
            if dialogues.iter().any(|d| d.talker == talker) {
                return;
            }
            let Some(def) = level.talkers.get(index as usize) else { return };
            dialogues.push(DialogueState {
                player,
                talker,
                dialogue: def.dialogue,
                line: 0,
                line_started: tick,
            });
            dialogues.sort_by_key(|d| d.player);
        }
        Some(Reach::Door(index)) => {
            interact_door(&mut objects[index], &level.objects[index], tick);
        }
        None => {}
    }
}

/// Advances lines whose time is up and ends dialogues that are over: after the last line, or
/// when the player walked away or went down.
pub fn run_dialogues(
    dialogues: &mut Vec<DialogueState>,
    characters: &EntityStore<Character>,
    players: &[EntityId],
    level: &Level,
    tick: Tick,
) {
    dialogues.retain_mut(|d| {
        let Some(script) = level.dialogues.get(d.dialogue as usize) else { return false };
        let Some(line) = script.lines.get(d.line as usize) else { return false };
        if tick.since(d.line_started) >= i64::from(line.duration_ticks) {
            d.line += 1;
            d.line_started = tick;
            if d.line as usize >= script.lines.len() {
                return false;
            }
        }
        let me = players.get(d.player.index()).and_then(|&id| characters.get(id));
        let talker = characters.get(d.talker);
        match (me, talker) {
            (Some(me), Some(talker)) => {
                me.enabled && me.pos.distance(talker.pos) <= TALK_LEAVE_RANGE
            }
            _ => false,
        }
    });
}

/// Turns each talker in a dialogue to face the player it talks to.
pub fn face_partners(
    dialogues: &[DialogueState],
    characters: &mut EntityStore<Character>,
    players: &[EntityId],
) {
    for d in dialogues {
        let Some(me) =
            players.get(d.player.index()).and_then(|&id| characters.get(id)).map(|c| c.pos)
        else {
            continue;
        };
        if let Some(talker) = characters.get_mut(d.talker) {
            talker.facing = (me - talker.pos).angle();
        }
    }
}
