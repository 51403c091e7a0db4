//! A state from outside (a replay's keyframe, a host's welcome) is checked against the level
//! before it is restored: each broken invariant is refused with the field it lies in, and a
//! replay whose keyframe holds such a state, with that state's own hash, is refused when sought
//! instead of panicking a tick later.

use crate::common;

use common::{idle, run, sim};
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3, fx};
use fixstep_runtime::replay::{RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder};
use fixstep_runtime::{EntityId, Player, ReplayError, Simulation, Tick, TickRecord};
use fixstep_town::state::{
    CutsceneState, DialogueState, GameState, ObjectPhase, RoleKind, Task, TaskEasing, TaskKind,
};
use fixstep_town::{PlayerCommand, TownSim};

/// A town some ticks in, with a dialogue and a cutscene under way: every part of the state
/// holds something to break.
fn town() -> (TownSim, GameState) {
    let mut town = sim(2);
    run(&mut town, 20, &idle(2));
    let mut state = town.state().clone();
    let talker = id_of(&state, RoleKind::Talker);
    state.dialogues.push(DialogueState {
        player: Player(0),
        talker,
        dialogue: 0,
        line: 0,
        line_started: Tick(19),
    });
    state.cutscenes.push(CutsceneState { player: Player(1), cutscene: 0, started: Tick(18) });
    let me = state.players[0];
    state.zones.cooldowns.push((me, Tick(25)));
    state.zones.played.push((me, 0));
    state.objects[0].tasks.push(Task {
        kind: TaskKind::Rotate { from: Angle::ZERO, by: 1 << 20 },
        start: Tick(19),
        duration: 5,
        easing: TaskEasing::Linear,
    });
    state.objects[0].phase = ObjectPhase::Opening;
    town.check_state(&state).expect("a state the rules could reach");
    (town, state)
}

fn id_of(state: &GameState, kind: RoleKind) -> EntityId {
    state.characters.iter().find(|(_, c)| c.kind == kind).expect("one of the kind").0
}

/// The refusal of the valid state broken by `breaking`.
fn refusal(breaking: impl FnOnce(&mut GameState)) -> String {
    let (town, mut state) = town();
    breaking(&mut state);
    town.check_state(&state).expect_err("a broken state").to_string()
}

#[track_caller]
fn refused_at(field: &str, breaking: impl FnOnce(&mut GameState)) {
    let message = refusal(breaking);
    assert!(message.starts_with(field), "refused as `{message}`, not at {field}");
}

#[test]
fn a_state_the_rules_computed_passes_at_every_tick() {
    let mut town = sim(3);
    let walk = PlayerCommand { forward: 100, turn: 300, interact: true, ..Default::default() };
    for t in 0_u32..400 {
        let commands = if t.is_multiple_of(7) { vec![walk; 3] } else { idle(3) };
        run(&mut town, 1, &commands);
        town.check_state(town.state()).expect("the rules' own state fits");
    }
}

#[test]
fn seats_and_characters_must_name_each_other() {
    refused_at("players[0]", |s| s.players[0] = id_of(s, RoleKind::Pedestrian));
    refused_at("players", |s| {
        let extra = s.players[0];
        s.players.resize(fixstep_town::MAX_PLAYERS + 1, extra);
    });
    refused_at("players[1]", |s| {
        let me = s.players[1];
        s.characters.get_mut(me).expect("seated").index = 7;
    });
    let message = refusal(|s| {
        let walker = id_of(s, RoleKind::Pedestrian);
        let c = s.characters.get_mut(walker).expect("walks");
        (c.kind, c.index, c.leg) = (RoleKind::Player, 1, Default::default());
    });
    assert!(message.ends_with("a player character of seat 1, which does not name it"), "{message}");
    refused_at("characters", |s| {
        let talker = id_of(s, RoleKind::Talker);
        s.characters.remove(talker);
        s.dialogues.clear();
    });
}

#[test]
fn pedestrians_and_talkers_must_be_the_levels() {
    let message = refusal(|s| {
        let walker = id_of(s, RoleKind::Pedestrian);
        s.characters.get_mut(walker).expect("walks").index = 40;
    });
    assert!(message.ends_with("pedestrian 40, of a level with 1"), "{message}");
    refused_at("characters[", |s| {
        let walker = id_of(s, RoleKind::Pedestrian);
        s.characters.get_mut(walker).expect("walks").leg.target = 1_000;
    });
    refused_at("characters[", |s| {
        let walker = id_of(s, RoleKind::Pedestrian);
        s.characters.get_mut(walker).expect("walks").leg.wait = u32::MAX;
    });
    refused_at("characters[", |s| {
        let walker = id_of(s, RoleKind::Pedestrian);
        s.characters.get_mut(walker).expect("walks").leg.dir = Vec2::new(Fx::MAX, Fx::ZERO);
    });
    let message = refusal(|s| {
        let talker = id_of(s, RoleKind::Talker);
        s.characters.get_mut(talker).expect("talks").kind = RoleKind::Pedestrian;
    });
    assert!(message.contains("pedestrian 0 twice"), "{message}");
}

#[test]
fn a_characters_values_must_be_within_what_the_ticks_reach() {
    let field = |name: &'static str, change: fn(&mut fixstep_town::state::Character)| {
        let message = refusal(|s| {
            let me = s.players[0];
            change(s.characters.get_mut(me).expect("seated"));
        });
        assert!(message.contains(&format!("].{name}")), "{name}: {message}");
    };
    field("frame", |c| c.frame = Fx::MAX);
    field("frame", |c| c.frame = -Fx::ONE);
    field("health", |c| c.health = i32::MIN);
    field("stagger", |c| c.stagger = u32::MAX);
    field("down", |c| c.down = u32::MAX);
    field("pos.x", |c| c.pos.x = Fx::MAX);
    field("knockback.y", |c| c.knockback.y = Fx::MIN);
    field("leg", |c| c.leg.target = 3);
}

#[test]
fn taxis_must_be_the_levels_on_their_routes() {
    refused_at("taxis", |s| s.taxis.push(s.taxis[0]));
    refused_at("taxis", |s| s.taxis.clear());
    refused_at("taxis[0].target", |s| s.taxis[0].target = 1_000);
    refused_at("taxis[0].standing", |s| s.taxis[0].standing = u32::MAX);
    refused_at("taxis[0].speed", |s| s.taxis[0].speed = -Fx::ONE);
    refused_at("taxis[0].speed", |s| s.taxis[0].speed = fx(1_000));
    refused_at("taxis[0].steer", |s| s.taxis[0].steer = Angle::QUARTER);
    refused_at("taxis[0].forward", |s| s.taxis[0].forward = Vec2::ZERO);
    refused_at("taxis[0].reserved", |s| s.taxis[0].reserved = 1);
    refused_at("taxis[0].pos.y", |s| s.taxis[0].pos.y = Fx::MIN);
}

#[test]
fn objects_must_be_the_levels_in_their_cycles() {
    refused_at("objects", |s| s.objects.truncate(1));
    refused_at("objects[0].phase", |s| s.objects[0].phase = ObjectPhase::Rising);
    refused_at("objects[1].phase", |s| s.objects[1].phase = ObjectPhase::Shown);
    refused_at("objects[0].tasks", |s| {
        let task = s.objects[0].tasks[0];
        s.objects[0].tasks.resize(1_000, task);
    });
    refused_at("objects[0].tasks[0].by", |s| {
        s.objects[0].tasks[0].kind = TaskKind::Rotate { from: Angle::ZERO, by: i64::MAX };
    });
    refused_at("objects[0].offset.z", |s| {
        s.objects[0].offset = Vec3::new(Fx::ZERO, Fx::ZERO, Fx::MAX);
    });
}

#[test]
fn the_zones_memory_must_be_sorted_and_of_the_living() {
    refused_at("zones.cooldowns[1]", |s| {
        let entry = s.zones.cooldowns[0];
        s.zones.cooldowns.push(entry);
    });
    refused_at("zones.cooldowns[0]", |s| {
        s.zones.cooldowns[0].0 = EntityId { index: 999, generation: 0 };
    });
    refused_at("zones.cooldowns[0]", |s| s.zones.cooldowns[0].1 = Tick(u32::MAX));
    refused_at("zones.played[0]", |s| s.zones.played[0].1 = 5);
    refused_at("zones.inside_triggers[0]", |s| {
        s.zones.inside_triggers.push((EntityId { index: 999, generation: 3 }, 0));
    });
}

#[test]
fn dialogues_and_cutscenes_must_be_of_seated_players_and_the_levels_scripts() {
    refused_at("dialogues[0].dialogue", |s| s.dialogues[0].dialogue = 3);
    refused_at("dialogues[0].line", |s| s.dialogues[0].line = 99);
    refused_at("dialogues[0].talker", |s| s.dialogues[0].talker = s.players[1]);
    refused_at("dialogues[0].player", |s| s.dialogues[0].player = Player(9));
    refused_at("dialogues[0].line_started", |s| s.dialogues[0].line_started = Tick(500));
    refused_at("dialogues[1]", |s| {
        let again = s.dialogues[0].clone();
        s.dialogues.push(again);
    });
    refused_at("cutscenes[0].cutscene", |s| s.cutscenes[0].cutscene = 1);
    refused_at("cutscenes[0].player", |s| s.cutscenes[0].player = Player(2));
    refused_at("cutscenes[0].started", |s| s.cutscenes[0].started = Tick(20));
}

#[test]
fn the_clock_must_be_the_levels_at_the_tick() {
    refused_at("time_of_day", |s| s.time_of_day = s.time_of_day.wrapping_add(1));
    refused_at("next_tick", |s| s.next_tick = Tick(u32::MAX));
}

/// A replay whose keyframe holds a taxi driving to a route point its route does not have, with
/// that state's own hash (as a crafted file would carry), opens, and refuses the seek that
/// restores the keyframe, naming the record and the field, where the tick after it would have
/// indexed past the taxi's route and panicked.
#[test]
fn a_replay_keyframe_with_a_broken_state_is_refused_when_sought() {
    let mut town = sim(1);
    let header = ReplayHeader::of(&town, "fixture", Some(7), RecordedBy::Local, 0);
    let mut recorder =
        ReplayRecorder::start(Vec::new(), &header, &town.level().files, &town, 1_000)
            .expect("the replay starts");
    let record = |t: u32| TickRecord::new(Tick(t), idle(1));
    for t in 0..10 {
        record(t).run(&mut town).expect("runs");
        recorder.tick(&record(t), town.state_hash().total(), &town).expect("records");
    }
    let mut broken = town.state().clone();
    broken.taxis[0].target = 1_000;
    // `restore` trusts what it is given: this is how a crafted keyframe gets its own hash.
    town.restore(&broken);
    recorder.replaced(&town).expect("records the state");
    let bytes = recorder.finish().expect("written");

    let replay = ReplayFile::<PlayerCommand>::open(bytes).expect("the records frame and index");
    replay.seek(&mut sim(1), Tick(5)).expect("before the broken keyframe");
    let error = replay.seek(&mut sim(1), Tick(10)).expect_err("the broken keyframe");
    assert!(matches!(error, ReplayError::ReplayMalformed { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("does not fit the rules: taxis[0].target"), "{message}");
}
