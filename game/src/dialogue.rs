//! Interaction (doors and talkers) and dialogues.

use fixstep_runtime::math::{Fx, Vec2, fx};
use fixstep_runtime::{EntityId, EntityStore, Tick};

use crate::level::{Level, ObjectDefKind};
use crate::objects::interact_door;
use crate::state::{Character, DialogueState, ObjectState, Role};
use crate::tuning::{DOOR_REACH, TALK_LEAVE_RANGE, TALK_RANGE};

/// What a player's interact reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Talker(EntityId, u32),
    Door(usize),
}

/// The nearest thing `pos` can interact with: talkers within [`TALK_RANGE`], doors within
/// [`DOOR_REACH`] of the middle of their leaf. On a tie the talker, then the first door, wins.
fn nearest_reach(pos: Vec2, characters: &EntityStore<Character>, level: &Level) -> Option<Reach> {
    let mut best: Option<(Fx, Reach)> = None;
    let mut consider = |distance: Fx, reach: Reach| {
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, reach));
        }
    };
    for (id, character) in characters.iter() {
        if let Role::Talker(index) = character.role() {
            let distance = character.pos.distance(pos);
            if character.enabled && distance <= TALK_RANGE {
                consider(distance, Reach::Talker(id, index));
            }
        }
    }
    for (index, object) in level.objects.iter().enumerate() {
        if let ObjectDefKind::Door(door) = &object.kind {
            let middle = (door.hinge + door.leaf_end) / fx(2);
            let distance = middle.distance(pos);
            if distance <= DOOR_REACH {
                consider(distance, Reach::Door(index));
            }
        }
    }
    best.map(|(_, reach)| reach)
}

/// A player pressed interact: in a dialogue it advances the line (ending the dialogue after
/// the last); otherwise it talks to the nearest free talker or opens or closes the nearest
/// door.
pub fn interact(
    player: u16,
    character: EntityId,
    characters: &EntityStore<Character>,
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
    let Some(me) = characters.get(character).filter(|c| c.enabled) else { return };
    match nearest_reach(me.pos, characters, level) {
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
        let me = players.get(usize::from(d.player)).and_then(|&id| characters.get(id));
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
            players.get(usize::from(d.player)).and_then(|&id| characters.get(id)).map(|c| c.pos)
        else {
            continue;
        };
        if let Some(talker) = characters.get_mut(d.talker) {
            talker.facing = (me - talker.pos).angle();
        }
    }
}
