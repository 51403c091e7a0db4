//! Doors and the lift sound when their drawn motion starts and when it ends: the onsets of the
//! mixed samples against the frames on which an object's drawn offset or rotation starts and
//! stops changing. Doors: the town played by a bot that opens one (the local player, so the
//! camera is at the door), drawn at 60 Hz from 2 s before it does. The lift: the local player
//! walking across the plaza while it rises. Only the objects are heard: the frames keep them
//! alone, and the ambience volume is zero.

mod sound_common;

use fixstep_runtime::Tick;
use fixstep_town::level::ObjectDefKind;
use fixstep_town_view::record::object_position;
use sound_common::{
    Drawn, EFFECTS_ONLY, WALK_AND_RUN, keep_only, match_onsets, onsets, play_bot_from, play_held,
    quantile, render, sounds, town,
};

/// The tick before which the bot starts to open its first door, less 2 s.
const DRAW_FROM_TICK: u32 = 331;

/// A drawn change of offset (m) or rotation (quaternion length) that is motion.
const STILL: f32 = 1e-5;

/// Checks that every start and end of motion drawn in `frames` within hearing is heard, and
/// nothing else; returns what moved, as (object index, "starts" or "ends", ms).
fn motions_heard(frames: &[Drawn]) -> Vec<(usize, &'static str, f64)> {
    let level = town();
    let sounds = sounds();
    let mix = render(&level, &sounds, EFFECTS_ONLY, frames, |_, f| keep_only(f, "o"));

    // From the frames: every start and end of motion of a door or the lift within hearing.
    let mut events = Vec::new();
    let mut kinds = Vec::new();
    let mut moving = vec![false; level.objects.len()];
    for (k, pair) in frames.windows(2).enumerate() {
        let (before, now) = (&pair[0].frame, &pair[1].frame);
        for (b, o) in before.objects.iter().zip(&now.objects) {
            let far = match level.objects[o.index].kind {
                ObjectDefKind::Door(_) => sounds.doors.distances_m.1,
                ObjectDefKind::Lift(_) => sounds.lift.distances_m.1,
                ObjectDefKind::Sign(_) => continue,
            };
            let turned = (o.rotation - b.rotation).length().min((o.rotation + b.rotation).length());
            let moves = (o.offset - b.offset).length() > STILL || turned > STILL;
            let at = object_position(&level, o.index, o.offset, o.rotation);
            if moves != moving[o.index] && (at - now.camera.eye).length() < far - 1.0 {
                events.push(mix.starts[k + 1]);
                kinds.push((
                    o.index,
                    if moves { "starts" } else { "ends" },
                    sound_common::ms(mix.starts[k + 1] as f64),
                ));
            }
            moving[o.index] = moves;
        }
    }
    // The lowest partial is 85 Hz: look back further than its period.
    let heard = onsets(&mix.energy(), 1e-10, 4.0, 15);
    let mut m = match_onsets(&events, &heard, 5.0);
    let max = quantile(&mut m.offsets_ms, 1.0);
    println!(
        "objects: {} motions drawn {kinds:?}, {} onsets heard, offset max {max:.3} ms",
        events.len(),
        heard.len()
    );
    assert!(
        m.unexplained_ms.is_empty(),
        "onsets no drawn motion explains (ms): {:?}",
        m.unexplained_ms
    );
    assert!(m.missing_ms.is_empty(), "motions not heard (ms): {:?}", m.missing_ms);
    kinds
}

#[test]
fn a_door_sounds_as_its_drawn_swing_starts_and_ends() {
    let level = town();
    let frames = play_bot_from(&level, |s| s.tick >= Tick(DRAW_FROM_TICK), 10);
    let moved = motions_heard(&frames);
    let doors =
        moved.iter().filter(|(i, _, _)| matches!(level.objects[*i].kind, ObjectDefKind::Door(_)));
    assert!(doors.count() >= 4, "a door should open and close within hearing: {moved:?}");
}

#[test]
fn the_lift_sounds_as_its_drawn_travel_starts_and_ends() {
    let level = town();
    let frames = play_held(&level, WALK_AND_RUN, 3, 10);
    let moved = motions_heard(&frames);
    let lift =
        moved.iter().filter(|(i, _, _)| matches!(level.objects[*i].kind, ObjectDefKind::Lift(_)));
    assert!(lift.count() >= 2, "the lift should start and stop within hearing: {moved:?}");
}
