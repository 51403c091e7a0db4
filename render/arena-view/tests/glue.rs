//! What the arena is above its rules: how seats taken and freed are drawn, and how a desync
//! report names a disc. The rules themselves are tested in `game/arena/tests/`.

use std::path::Path;
use std::sync::Arc;

use fixstep_arena::{ArenaCommand, ArenaSim, ArenaState, Layout};
use fixstep_arena_view::Arena;
use fixstep_netplay::NetRules;
use fixstep_present::shapes::ShapeGame;
use fixstep_runtime::math::{Fx, Vec2};
use fixstep_runtime::{Player, Rules as _, Simulation};

fn rink() -> Arc<Layout> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let layout = Arena::load_content(&assets, &Arena::default_content(&assets));
    Arc::new(layout.expect("the rink loads"))
}

fn step(sim: &mut ArenaSim, commands: &[ArenaCommand]) {
    sim.step(sim.next_tick(), commands).expect("a command a player, in order");
}

/// A freed seat's pusher is not drawn, and the newcomer who takes the seat is drawn afresh:
/// its jump counter is the tick it was seated, so it is never blended from the one who left.
#[test]
fn a_freed_seat_is_not_drawn_and_its_newcomer_is_drawn_afresh() {
    let east = ArenaCommand { x: 100, y: 0, dash: false };
    let mut sim = ArenaSim::new(rink(), 1, 2);
    for _ in 0..20 {
        step(&mut sim, &[east, east]);
    }
    sim.free_seat(Player(1)).expect("seated");
    let mut drawn = Vec::new();
    Arena::shapes(sim.snapshot(), &mut |pose| drawn.push(pose.player));
    assert!(drawn.contains(&Some(Player(0))), "the other pusher is drawn: {drawn:?}");
    assert!(!drawn.contains(&Some(Player(1))), "its pusher is not drawn: {drawn:?}");
    step(&mut sim, &[east, east]);
    let seated_at = sim.next_tick();
    sim.seat_player(Player(1)).expect("a free seat");
    let mut jumps = Vec::new();
    Arena::shapes(sim.snapshot(), &mut |pose| jumps.push((pose.player, pose.jumps)));
    assert!(jumps.contains(&(Some(Player(1)), seated_at.0)), "drawn afresh: {jumps:?}");
}

/// A desync report names the pusher or puck a field lies in.
#[test]
fn a_report_names_the_disc_of_a_field() {
    let state = ArenaSim::new(rink(), 1, 4).state().clone();
    assert_eq!(
        Arena::entity_at(&state, "pushers[3].pos.x").as_deref(),
        Some("pusher 3 (player 3)")
    );
    assert_eq!(Arena::entity_at(&state, "pucks[1].vel.y").as_deref(), Some("puck 1"));
    assert_eq!(Arena::entity_at(&state, "score[0]"), None);
}

/// The rink's content is read through a reader and keeps its file: read again from that file
/// alone, with no assets, it is the same rink.
#[test]
fn the_rink_read_from_its_own_files_is_the_same_rink() {
    use fixstep_runtime::file::ContentReader;
    let rink = rink();
    let files = Arena::content_files(&rink);
    assert_eq!(files.main, "arena/arena.ron");
    let reader = ContentReader::files(Arc::new(files.clone()), Path::new("carried"));
    let again = Arena::read_content(&reader, Path::new("no/such/file.ron")).expect("it reads");
    assert_eq!(Arena::content_digest(&again), Arena::content_digest(&rink));
    assert_eq!(Arena::content_source(&again), "arena/arena.ron");
    assert_eq!(Arena::content_files(&again), files);
    assert_eq!(reader.into_files(), *files, "the reader kept what it read");
}

/// A puck pushed out of another disc is moved without a velocity of its own. Sent as resting
/// at its new place, a spectator would draw it stepping there (two rests in two places are
/// the host putting it somewhere): the tick it moved it is sent as moving, and resting again
/// the tick after, so it is drawn sliding over the tick as it went.
#[test]
fn a_puck_pushed_without_a_velocity_is_sent_moving_for_the_tick_it_moved() {
    use fixstep_netplay_view::ground::GroundPoint;
    use fixstep_netplay_view::shapes::{ShapeFeed, ShapeSource};

    let sim = ArenaSim::new(rink(), 1, 1);
    let mut state = (**sim.snapshot()).clone();
    assert!(state.pucks.iter().all(|p| p.vel == Vec2::ZERO), "the pucks start at rest");
    let camera = GroundPoint { at_mm: [0, 0] };
    let (mut source, mut feed) = (ShapeSource::default(), ShapeFeed::default());
    // The first puck's id: the first shape that is nobody's pusher (pushers, then pucks).
    let mut ids = Vec::new();
    Arena::shapes(&state, &mut |pose| ids.extend(pose.player.is_none().then_some(pose.id)));
    let puck_id = ids[0];
    let mut puck_sent = |state: &ArenaState| {
        source.fill::<Arena>(state);
        let update = feed.update(&source, camera);
        update.ground.poses.into_iter().find(|p| p.id == puck_id)
    };
    assert!(puck_sent(&state).is_some_and(|p| p.at_rest), "first sent at rest");
    state.pucks[0].pos += Vec2::new(Fx::from_num(0.6), Fx::ZERO);
    let pushed = puck_sent(&state).expect("sent the tick it moved");
    assert!(!pushed.at_rest, "moving the tick it was pushed: {pushed:?}");
    let resting = puck_sent(&state).expect("sent the tick it stopped");
    assert!(resting.at_rest, "at rest again where it was pushed: {resting:?}");
    assert_eq!(puck_sent(&state), None, "and not sent again while it rests");
}
