//! What a host sends a spectator of the town beside the ground poses, and how the spectator
//! draws it: roles coded and read back, objects only when they change, and objects drawn
//! between their changes exactly as the host's ticks were.

use std::sync::Arc;

use fixstep_netplay_view::ground::GroundPoint;
use fixstep_present::remote::RemoteObjects;
use fixstep_runtime::{Bot as _, Player, Rules as _, Simulation, Tick};
use fixstep_town::bots::TownBot;
use fixstep_town::level::Level;
use fixstep_town::state::Role;
use fixstep_town_view::present::samples::ObjectSample;
use fixstep_town_view::wire::{ObjectPose, object_view_of, role_code, role_of_code};
use fixstep_town_view::{Town, TownFeed, TownSource};

fn town() -> Sim {
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let level =
        Town::load_content(&assets, &Town::default_content(&assets)).expect("the town loads");
    Town::new_sim(&Arc::new(level), 1, 1)
}

fn level_of(sim: &Sim) -> Arc<Level> {
    Arc::clone(sim.level())
}

/// The update a spectator at the centre of the town is sent of `sim`'s latest tick, gathered
/// in `source` as a host gathers it; and every object gathered.
fn update_at_centre(
    feed: &mut TownFeed,
    source: &mut TownSource,
    tick: u32,
    sim: &Sim,
) -> (fixstep_town_view::TownUpdate, Vec<ObjectPose>) {
    source.fill(Tick(tick), sim.snapshot());
    (feed.update(source, CENTRE), source.objects().to_vec())
}

/// A camera at the centre of the town.
const CENTRE: GroundPoint = GroundPoint { at_mm: [0, 0] };

/// A role's code is read back as the role it was made of, and a code no host of this game
/// makes reads as no role at all rather than as some wrong one.
#[test]
fn role_codes_read_back_and_foreign_codes_read_as_none() {
    for role in [
        Role::Player(Player(0)),
        Role::Player(Player(u16::MAX)),
        Role::Pedestrian(41),
        Role::Talker(3),
    ] {
        assert_eq!(role_of_code(role_code(role)), Some(role));
    }
    assert_eq!(role_of_code(3 << 32), None, "an unknown kind");
    assert_eq!(role_of_code(u64::from(u16::MAX) + 1), None, "a player number beyond a u16");
}

#[test]
fn objects_are_sent_all_at_first_then_only_when_they_change_and_arrive_bit_for_bit() {
    let mut sim = town();
    let level = level_of(&sim);
    let (mut feed, mut source) = (TownFeed::default(), TownSource::default());
    let (first, objects) = update_at_centre(&mut feed, &mut source, 0, &sim);
    assert!(!objects.is_empty(), "the town has doors, a lift and a sign");
    assert_eq!(first.objects, objects, "every object at first");
    for (pose, view) in objects.iter().zip(&sim.snapshot().objects) {
        assert_eq!(&object_view_of(pose), view, "an object pose is its view, bit for bit");
    }
    // A bot walks about the town, opening doors and riding the lift; each snapshot carries
    // exactly the objects that differ from the last one sent.
    let mut bot = TownBot::new(Player(0), &level);
    let mut sent_changes = 0;
    let mut last = objects;
    for tick in 1..600 {
        let command = bot.command(sim.snapshot());
        let next = sim.next_tick();
        sim.step(next, std::slice::from_ref(&command)).expect("a tick runs");
        let (snapshot, now) = update_at_centre(&mut feed, &mut source, tick, &sim);
        let changed: Vec<_> =
            now.iter().zip(&last).filter(|(a, b)| a != b).map(|(a, _)| *a).collect();
        assert_eq!(snapshot.objects, changed, "tick {tick}");
        sent_changes += changed.len();
        last = now;
    }
    assert!(sent_changes > 0, "something moved in a minute of the town");
}

/// An object sample whose offset is `x` metres east.
fn sample_at(x: f32) -> ObjectSample {
    ObjectSample {
        offset: glam::Vec3::new(x, 0.0, 0.0),
        rotation: glam::Quat::IDENTITY,
        scale: 1.0,
        opacity: 1.0,
        jumps: 0,
    }
}

#[test]
fn an_object_is_drawn_still_until_the_tick_before_its_next_measurement_then_moving_to_it() {
    let mut objects = RemoteObjects::default();
    // Sent at tick 10 (at 0 m) and next at tick 14 (at 2 m): it stood until tick 13 and moved
    // over the last tick, as the host's ticks had it.
    objects.measure(0, 10, sample_at(0.0));
    objects.measure(0, 14, sample_at(2.0));
    let x = |objects: &mut RemoteObjects<ObjectSample>, tick: f64| objects.draw(tick)[0].1.offset.x;
    assert_eq!(x(&mut objects, 9.0), 0.0, "before its first measurement: as first measured");
    assert_eq!(x(&mut objects, 12.5), 0.0, "standing");
    assert_eq!(x(&mut objects, 13.0), 0.0);
    assert!((x(&mut objects, 13.5) - 1.0).abs() < 1e-6, "half way over the last tick");
    assert_eq!(x(&mut objects, 14.0), 2.0);
    // Past the newest measurement it is held, never guessed on.
    assert_eq!(x(&mut objects, 17.0), 2.0);
    // A jump is never blended: the old place until the jump's tick, then the new.
    let mut jumped = sample_at(50.0);
    jumped.jumps = 1;
    objects.measure(0, 18, jumped);
    assert_eq!(x(&mut objects, 17.9), 2.0);
    assert_eq!(x(&mut objects, 18.0), 50.0);
    // An old measurement arriving late changes nothing.
    objects.measure(0, 16, sample_at(-5.0));
    assert_eq!(x(&mut objects, 18.5), 50.0);
}

/// How far behind the newest measurement the spectator draws in the test below, ticks: the
/// interpolation delay.
const DRAWN_BEHIND_TICKS: usize = 2;

#[test]
fn a_spectators_objects_are_the_hosts_drawn_at_the_same_ticks() {
    // The town's objects as a spectator gets them (changes only) and as the host's own
    // presentation samples them: at every quarter tick they are drawn alike.
    let mut sim = town();
    let level = level_of(&sim);
    let (mut feed, mut source) = (TownFeed::default(), TownSource::default());
    let mut remote = RemoteObjects::default();
    let mut bot = TownBot::new(Player(0), &level);
    let mut history: Vec<Vec<ObjectSample>> = Vec::new();
    let mut moved = 0;
    for tick in 0..600u32 {
        if tick > 0 {
            let command = bot.command(sim.snapshot());
            let next = sim.next_tick();
            sim.step(next, std::slice::from_ref(&command)).expect("a tick runs");
        }
        for object in update_at_centre(&mut feed, &mut source, tick, &sim).0.objects {
            remote.measure(object.index as usize, tick, ObjectSample::of(&object_view_of(&object)));
        }
        history.push(sim.snapshot().objects.iter().map(ObjectSample::of).collect());
        let Some(a) = (tick as usize).checked_sub(DRAWN_BEHIND_TICKS) else { continue };
        for quarter in 0..4u8 {
            let t = f32::from(quarter) / 4.0;
            let drawn = remote.draw(a as f64 + f64::from(t)).to_vec();
            assert_eq!(drawn.len(), history[a].len(), "every object drawn");
            for (i, (_, object)) in drawn.iter().enumerate() {
                let (from, to) = (&history[a][i], &history[a + 1][i]);
                if from.jumps != to.jumps {
                    continue;
                }
                moved += usize::from(from.offset != to.offset || from.rotation != to.rotation);
                let expect = from.offset.lerp(to.offset, t);
                let turn = from.rotation.slerp(to.rotation, t);
                let same_turn = object.rotation.abs_diff_eq(turn, 1e-5)
                    || object.rotation.abs_diff_eq(-turn, 1e-5);
                assert!(
                    object.offset.abs_diff_eq(expect, 1e-5) && same_turn,
                    "object {i} at tick {a} + {t}: drawn {:?} {:?}, the host's {expect:?} {:?} (from {:?} to {:?})",
                    object.offset,
                    object.rotation,
                    from.rotation.slerp(to.rotation, t),
                    from.rotation,
                    to.rotation
                );
            }
        }
    }
    assert!(moved > 100, "objects moved in the minute ({moved} quarter-tick samples)");
}

/// The town's simulation, as its game names it.
type Sim = <Town as fixstep_runtime::Rules>::Sim;
