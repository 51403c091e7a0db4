//! What a host sends a spectator of a ground game: tiers by distance from its camera (with
//! hysteresis at the edges), poses only when they are due, roles with first poses, changes of
//! health at once, departures once.

use fixstep_netplay_view::ground::{
    EntityRole, GroundFeed, GroundPoint, MIDDLE_TIER_M, NEAR_TIER_M, Pose,
    TIER_HYSTERESIS_PERMILLE, tier_at,
};
use fixstep_runtime::Tick;

/// Millimetres in a metre.
const MM: i32 = 1_000;

/// Two roles, as a game codes them: who a character is.
const ADA: u64 = 1;
const MAYOR: u64 = 7;

/// A camera looking at `mm` on the ground.
fn at(mm: [i32; 2]) -> GroundPoint {
    GroundPoint { at_mm: mm }
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
    let mut feed = GroundFeed::default();
    let far = MIDDLE_TIER_M + 50;
    // First sight: sent whatever the tick.
    let first = feed.update(Tick(1), &[walker(far, true)], &[], at([0, 0]));
    assert_eq!(first.poses.len(), 1);
    assert_eq!(first.poses[0].tier, 4, "told its tier");
    // Tier 4: every fourth tick only.
    for tick in 2..8 {
        let sent = feed.update(Tick(tick), &[walker(far, true)], &[], at([0, 0]));
        assert_eq!(sent.poses.len(), usize::from(tick % 4 == 0), "tick {tick}");
    }
    // A stop goes at once, off its turn; standing, it is not sent again on its turns.
    assert_eq!(feed.update(Tick(9), &[walker(far, false)], &[], at([0, 0])).poses.len(), 1);
    assert!(feed.update(Tick(12), &[walker(far, false)], &[], at([0, 0])).poses.is_empty());
    // The camera comes near: a tier change goes at once.
    let near = feed.update(Tick(13), &[walker(far, false)], &[], at([far * MM, 0]));
    assert_eq!(near.poses.len(), 1);
    assert_eq!(near.poses[0].tier, 1);
    // Gone from the town: said once.
    assert_eq!(feed.update(Tick(14), &[], &[], at([0, 0])).gone, [3]);
    assert!(feed.update(Tick(15), &[], &[], at([0, 0])).gone.is_empty());
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
    let ada = EntityRole { id: 7, role: ADA };
    let mut feed = GroundFeed::default();
    let first = feed.update(Tick(1), &[walker(100)], &[ada], at([0, 0]));
    assert_eq!(first.roles, [ada], "told who it is with its first pose");
    let quiet = feed.update(Tick(2), &[walker(100)], &[ada], at([0, 0]));
    assert!(quiet.poses.is_empty() && quiet.roles.is_empty(), "nothing new: {quiet:?}");
    let hurt = feed.update(Tick(3), &[walker(60)], &[ada], at([0, 0]));
    assert_eq!(hurt.poses.len(), 1, "a strike shows at once, not on the fourth tick");
    assert_eq!(hurt.poses[0].health, 60);
    let mayor = EntityRole { id: 7, role: MAYOR };
    assert_eq!(feed.update(Tick(4), &[walker(60)], &[mayor], at([0, 0])).roles, [mayor]);
    // Gone and back: told again.
    assert!(feed.update(Tick(5), &[], &[], at([0, 0])).roles.is_empty());
    assert_eq!(feed.update(Tick(6), &[walker(60)], &[ada], at([0, 0])).roles, [ada]);
}
