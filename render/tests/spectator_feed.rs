//! What a host sends a spectator and how the spectator draws what it gets: tiers by distance
//! from its camera (with hysteresis at the edges), poses only when they are due, objects only
//! when they change, and objects drawn between their changes exactly as the host's ticks were.

use std::sync::Arc;

use fixstep_game::level::Level;
use fixstep_game::state::Role;
use fixstep_game::{TownSim, bots::Bot};
use fixstep_render::net_game::poses::{
    MIDDLE_TIER_M, NEAR_TIER_M, SpectatorFeed, TIER_HYSTERESIS_PERMILLE, object_poses_of,
    object_view_of, role_code, role_of_code, tier_at,
};
use fixstep_render::present::remote::RemoteObjects;
use fixstep_render::present::samples::ObjectSample;
use fixstep_runtime::net::{EntityRole, Pose};
use fixstep_runtime::{Simulation, Tick};

/// Millimetres in a metre.
const MM: i32 = 1_000;

fn town() -> TownSim {
    let assets = fixstep_render::assets::default_assets_root();
    let level =
        fixstep_render::assets::load(&assets, &fixstep_render::assets::default_level(&assets))
            .expect("the town loads");
    TownSim::new(Arc::new(level), 1, 1)
}

fn level_of(sim: &TownSim) -> Arc<Level> {
    Arc::clone(sim.level())
}

#[test]
fn tiers_follow_the_distance_from_the_camera_and_hold_a_tenth_past_each_edge() {
    let camera = [0, 0];
    let at = |m: i32| [m * MM, 0];
    assert_eq!(tier_at(at(NEAR_TIER_M), camera, None), 1, "the near edge is near");
    assert_eq!(tier_at(at(NEAR_TIER_M + 1), camera, None), 2);
    assert_eq!(tier_at(at(MIDDLE_TIER_M + 1), camera, None), 4);
    // Going out: a near entity stays near until a tenth past the edge.
    let out_near = NEAR_TIER_M * (1000 + TIER_HYSTERESIS_PERMILLE as i32) / 1000;
    assert_eq!(tier_at(at(out_near - 1), camera, Some(1)), 1, "just inside the widened edge");
    assert_eq!(tier_at(at(out_near + 1), camera, Some(1)), 2, "past it");
    // Coming in: a middle entity becomes near only a tenth inside the edge.
    let in_near = NEAR_TIER_M * (1000 - TIER_HYSTERESIS_PERMILLE as i32) / 1000;
    assert_eq!(tier_at(at(in_near + 1), camera, Some(2)), 2, "just outside the narrowed edge");
    assert_eq!(tier_at(at(in_near - 1), camera, Some(2)), 1, "inside it");
    // A far entity that jumps next to the camera is near at once, not a tier at a time.
    assert_eq!(tier_at(at(1), camera, Some(4)), 1);
}

#[test]
fn a_pose_is_sent_when_its_tier_is_due_or_it_starts_stops_or_changes_tier() {
    let walker = |x_m: i32, moving: bool| Pose {
        id: 3,
        vehicle: false,
        pos_mm: [x_m * MM, 0],
        vel_mm_s: [if moving { 1_400 } else { 0 }, 0],
        yaw: 0,
        at_rest: !moving,
        tier: 1,
        jumps: 0,
        health: 100,
    };
    let mut feed = SpectatorFeed::default();
    let far = MIDDLE_TIER_M + 50;
    // First sight: sent whatever the tick.
    let first = feed.snapshot(Tick(1), &[walker(far, true)], &[], &[], [0, 0]);
    assert_eq!(first.poses.len(), 1);
    assert_eq!(first.poses[0].tier, 4, "told its tier");
    // Tier 4: every fourth tick only.
    for tick in 2..8 {
        let sent = feed.snapshot(Tick(tick), &[walker(far, true)], &[], &[], [0, 0]);
        assert_eq!(sent.poses.len(), usize::from(tick % 4 == 0), "tick {tick}");
    }
    // A stop goes at once, off its turn; standing, it is not sent again on its turns.
    assert_eq!(feed.snapshot(Tick(9), &[walker(far, false)], &[], &[], [0, 0]).poses.len(), 1);
    assert!(feed.snapshot(Tick(12), &[walker(far, false)], &[], &[], [0, 0]).poses.is_empty());
    // The camera comes near: a tier change goes at once.
    let near = feed.snapshot(Tick(13), &[walker(far, false)], &[], &[], [far * MM, 0]);
    assert_eq!(near.poses.len(), 1);
    assert_eq!(near.poses[0].tier, 1);
    // Gone from the town: said once.
    assert_eq!(feed.snapshot(Tick(14), &[], &[], &[], [0, 0]).gone, [3]);
    assert!(feed.snapshot(Tick(15), &[], &[], &[], [0, 0]).gone.is_empty());
}

/// A spectator labels everyone as a player does: each character's role goes with its first
/// pose and again only if it changes (an id taken by someone new), and a change of health
/// goes at once, off the entity's turn.
#[test]
fn roles_go_with_first_poses_and_health_changes_go_at_once() {
    let walker = |health: i32| Pose {
        id: 7,
        vehicle: false,
        pos_mm: [(MIDDLE_TIER_M + 50) * MM, 0],
        vel_mm_s: [0, 0],
        yaw: 0,
        at_rest: true,
        tier: 1,
        jumps: 0,
        health,
    };
    let ada = EntityRole { id: 7, role: role_code(Role::Player(0)) };
    let mut feed = SpectatorFeed::default();
    let first = feed.snapshot(Tick(1), &[walker(100)], &[ada], &[], [0, 0]);
    assert_eq!(first.roles, [ada], "told who it is with its first pose");
    let quiet = feed.snapshot(Tick(2), &[walker(100)], &[ada], &[], [0, 0]);
    assert!(quiet.poses.is_empty() && quiet.roles.is_empty(), "nothing new: {quiet:?}");
    let hurt = feed.snapshot(Tick(3), &[walker(60)], &[ada], &[], [0, 0]);
    assert_eq!(hurt.poses.len(), 1, "a strike shows at once, not on the fourth tick");
    assert_eq!(hurt.poses[0].health, 60);
    let mayor = EntityRole { id: 7, role: role_code(Role::Talker(0)) };
    assert_eq!(feed.snapshot(Tick(4), &[walker(60)], &[mayor], &[], [0, 0]).roles, [mayor]);
    // Gone and back: told again.
    assert!(feed.snapshot(Tick(5), &[], &[], &[], [0, 0]).roles.is_empty());
    assert_eq!(feed.snapshot(Tick(6), &[walker(60)], &[ada], &[], [0, 0]).roles, [ada]);
}

/// A role's code is read back as the role it was made of, and a code no host of this game
/// makes reads as no role at all rather than as some wrong one.
#[test]
fn role_codes_read_back_and_foreign_codes_read_as_none() {
    for role in [Role::Player(0), Role::Player(u16::MAX), Role::Pedestrian(41), Role::Talker(3)] {
        assert_eq!(role_of_code(role_code(role)), Some(role));
    }
    assert_eq!(role_of_code(3 << 32), None, "an unknown kind");
    assert_eq!(role_of_code(u64::from(u16::MAX) + 1), None, "a player number beyond a u16");
}

#[test]
fn objects_are_sent_all_at_first_then_only_when_they_change_and_arrive_bit_for_bit() {
    let mut sim = town();
    let level = level_of(&sim);
    let mut feed = SpectatorFeed::default();
    let objects = object_poses_of(sim.snapshot());
    assert!(!objects.is_empty(), "the town has doors, a lift and a sign");
    let first = feed.snapshot(Tick(0), &[], &[], &objects, [0, 0]);
    assert_eq!(first.objects, objects, "every object at first");
    for (pose, view) in objects.iter().zip(&sim.snapshot().objects) {
        assert_eq!(&object_view_of(pose), view, "an object pose is its view, bit for bit");
    }
    // A bot walks about the town, opening doors and riding the lift; each snapshot carries
    // exactly the objects that differ from the last one sent.
    let mut bot = Bot::new(0, &level);
    let mut sent_changes = 0;
    let mut last = objects;
    for tick in 1..600 {
        let command = bot.command(sim.snapshot());
        let next = sim.next_tick();
        sim.step(next, std::slice::from_ref(&command)).expect("a tick runs");
        let now = object_poses_of(sim.snapshot());
        let snapshot = feed.snapshot(Tick(tick), &[], &[], &now, [0, 0]);
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
    let mut objects = RemoteObjects::new();
    // Sent at tick 10 (at 0 m) and next at tick 14 (at 2 m): it stood until tick 13 and moved
    // over the last tick, as the host's ticks had it.
    objects.measure(0, 10, sample_at(0.0));
    objects.measure(0, 14, sample_at(2.0));
    let x = |objects: &mut RemoteObjects, tick: f64| objects.draw(tick)[0].offset.x;
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
    let mut feed = SpectatorFeed::default();
    let mut remote = RemoteObjects::new();
    let mut bot = Bot::new(0, &level);
    let mut history: Vec<Vec<ObjectSample>> = Vec::new();
    let mut moved = 0;
    for tick in 0..600u32 {
        if tick > 0 {
            let command = bot.command(sim.snapshot());
            let next = sim.next_tick();
            sim.step(next, std::slice::from_ref(&command)).expect("a tick runs");
        }
        let objects = object_poses_of(sim.snapshot());
        for object in feed.snapshot(Tick(tick), &[], &[], &objects, [0, 0]).objects {
            remote.measure(object.index as usize, tick, ObjectSample::of(&object_view_of(&object)));
        }
        history.push(sim.snapshot().objects.iter().map(ObjectSample::of).collect());
        let Some(a) = (tick as usize).checked_sub(DRAWN_BEHIND_TICKS) else { continue };
        for quarter in 0..4u8 {
            let t = f32::from(quarter) / 4.0;
            let drawn = remote.draw(a as f64 + f64::from(t)).to_vec();
            assert_eq!(drawn.len(), history[a].len(), "every object drawn");
            for (i, object) in drawn.iter().enumerate() {
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
