//! Players leaving the town and newcomers taking their seats: the departed character leaves
//! the world with everything it took part in, the seat keeps its number, and a town whose
//! players come and go for a long time holds no more than it did with its first players.

use crate::common;

use common::{INTERACT, idle, run, sim, step, v};
use fixstep_runtime::math::Angle;
use fixstep_runtime::replay::{
    KEYFRAME_EVERY_TICKS, RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder, verify,
};
use fixstep_runtime::{Error, Player, SeatChanges, Simulation, Tick, TickRecord};
use fixstep_town::{PlayerCommand, TownSim};

/// Puts player `player` at `(x, y)`, facing west.
fn place(town: &mut TownSim, player: Player, x: i32, y: i32) {
    let mut state = town.state().clone();
    let me = state.players[player.index()];
    let character = state.characters.get_mut(me).expect("seated");
    character.pos = v(x, y);
    character.facing = Angle::HALF;
    town.restore(&state);
}

/// A player who leaves mid-dialogue, just after a teleport and after a cutscene of its own
/// takes all of it along: its character is gone from the world and the snapshot, its dialogue
/// and cutscene end, and the zones hold nothing of it. The seat stays, its commands ignored.
#[test]
fn a_player_who_leaves_takes_its_character_dialogue_cutscene_and_zone_memory_along() {
    let mut town = sim(3);
    // Player 1 talks to the mayor; player 2 walks through the cutscene trigger and then the
    // teleport, so that the zones remember it.
    place(&mut town, Player(1), -8, 0);
    place(&mut town, Player(2), 0, 40);
    step(&mut town, &[PlayerCommand::default(), INTERACT, PlayerCommand::default()]);
    place(&mut town, Player(2), 0, -20);
    step(&mut town, &idle(3));
    let before = town.state().clone();
    assert_eq!(before.dialogues.len(), 1, "player 1 talks");
    assert_eq!(before.cutscenes.iter().filter(|c| c.player == Player(2)).count(), 1, "2 watches");
    let gone = before.players[2];
    assert!(before.zones.cooldowns.iter().any(|&(id, _)| id == gone), "a teleport cooldown");
    assert!(before.zones.played.iter().any(|&(id, _)| id == gone), "a cutscene played");

    let hash = town.state_hash();
    town.free_seat(Player(1)).expect("player 1 is seated");
    town.free_seat(Player(2)).expect("player 2 is seated");
    assert_ne!(town.state_hash(), hash, "leaving is state");
    let after = town.state();
    assert_eq!(town.players(), 3, "the seats stay");
    assert_eq!(after.characters.len(), before.characters.len() - 2, "two characters left");
    assert!(after.dialogues.is_empty() && after.cutscenes.is_empty(), "{after:?}");
    assert!(after.zones.cooldowns.iter().all(|&(id, _)| id != gone), "no cooldown of it");
    assert!(after.zones.played.iter().all(|&(id, _)| id != gone), "no cutscene of it");
    assert!(town.snapshot().player_character(Player(1)).is_none(), "not drawn");
    assert_eq!(town.seated(Player(1)), None);
    // A free seat's command moves nothing and starts nothing.
    let busy = PlayerCommand { forward: 100, interact: true, ..PlayerCommand::default() };
    let characters = town.snapshot().characters.len();
    run(&mut town, 20, &[PlayerCommand::default(), busy, busy]);
    assert_eq!(town.snapshot().characters.len(), characters, "nobody came back");
    assert!(town.state().dialogues.is_empty(), "nobody talks from a free seat");
}

/// A newcomer takes a free seat at that seat's spawn point, as a new character (a new id, so
/// that nothing is blended from the one who left); a seat taken cannot be taken again, a free
/// one cannot be freed, and a seat beyond the next is neither.
#[test]
fn a_newcomer_takes_a_free_seat_as_a_new_character_at_its_spawn() {
    let mut town = sim(2);
    run(&mut town, 10, &[PlayerCommand { forward: 100, ..PlayerCommand::default() }; 2]);
    let old = town.seated(Player(1)).expect("seated");
    town.free_seat(Player(1)).expect("seated");
    assert!(matches!(
        town.free_seat(Player(1)),
        Err(Error::SeatFree { seat: Player(1), seats: 2 })
    ));
    assert!(matches!(town.free_seat(Player(5)), Err(Error::SeatFree { seat: Player(5), .. })));
    run(&mut town, 5, &idle(2));
    town.seat_player(Player(1)).expect("a free seat");
    let new = town.seated(Player(1)).expect("seated again");
    assert_ne!(new, old, "a new character");
    let spawn = town.level().spawns[1 % town.level().spawns.len()];
    assert_eq!(town.snapshot().player_character(Player(1)).expect("drawn").pos, spawn.at);
    assert!(matches!(
        town.seat_player(Player(1)),
        Err(Error::SeatTaken { seat: Player(1), seats: 2 })
    ));
    assert!(matches!(town.seat_player(Player(0)), Err(Error::SeatTaken { seat: Player(0), .. })));
    assert!(matches!(
        town.seat_player(Player(3)),
        Err(Error::SeatTaken { seat: Player(3), seats: 2 })
    ));
    town.seat_player(Player(2)).expect("the next one after the last");
    assert_eq!(town.players(), 3);
}

/// A thousand players come and go through three seats: the town ends with the characters,
/// the entity slots and the zone memory it had with its first three, and a replay of it all
/// reproduces every hash, those of its keyframes too.
#[test]
fn players_coming_and_going_leave_nothing_behind_and_replay_bit_for_bit() {
    const TICKS: u32 = 3_000;
    let mut town = sim(3);
    let header = ReplayHeader::of(&town, "fixture", Some(7), RecordedBy::Local, 0);
    let mut recorder = ReplayRecorder::start(
        Vec::new(),
        &header,
        &town.level().files,
        &town,
        KEYFRAME_EVERY_TICKS,
    )
    .expect("the replay starts");
    let walk = PlayerCommand { forward: 100, turn: 400, interact: true, ..Default::default() };
    let (characters, slots) = (town.state().characters.len(), town.state().characters.slots());
    for t in 0..TICKS {
        let tick = Tick(t);
        // Every third tick one of the seats changes hands: freed, then taken a tick later.
        let seat = Player((t / 3 % 3) as u16);
        let seats = match t % 3 {
            0 => SeatChanges { freed: vec![seat], joined: vec![] },
            1 => SeatChanges { freed: vec![], joined: vec![seat] },
            _ => SeatChanges::NONE,
        };
        seats.apply(&mut town).expect("a seat to free and then to take");
        let commands = vec![walk; 3];
        town.step(tick, &commands).expect("in order");
        let record = TickRecord { tick, seats, commands };
        recorder.tick(&record, town.state_hash().total(), &town).expect("recorded");
    }
    let state = town.state();
    assert_eq!(state.characters.len(), characters, "as many characters as at the start");
    assert_eq!(state.characters.slots(), slots, "no slot more than at the start");
    assert!(state.zones.cooldowns.len() <= 3 && state.zones.played.len() <= 3, "{state:?}");
    let bytes = recorder.finish().expect("written");
    let replay = ReplayFile::<PlayerCommand>::open(bytes).expect("reads");
    let report = verify(&mut sim(3), &replay).expect("the same rules");
    // Every tick's total, the start's and every later keyframe's.
    let hashes = TICKS + TICKS / KEYFRAME_EVERY_TICKS + 1;
    assert_eq!((report.ticks, report.hashes_checked, report.first_mismatch), (TICKS, hashes, None));
    assert_eq!(report.final_hash, town.state_hash());
}
