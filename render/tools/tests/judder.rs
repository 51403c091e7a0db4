//! `fixstep judder`'s measures on synthetic truth and drawn logs written by the test itself:
//! a perfect drawing, the classic faults one at a time, the local-play extensions, and bad
//! input.

use std::path::{Path, PathBuf};

use fixstep_tools::judder::{
    DrawnEntity, DrawnFrame, JudderArgs, JudderReport, TruthEntity, TruthLine, run_judder,
    write_drawn_log, write_truth,
};

/// Real time of frame `i` at 60 Hz (ms).
fn at_ms(i: u32) -> f64 {
    f64::from(i) * 1000.0 / 60.0
}

/// How far behind real time the synthetic client draws (ms).
const DELAY_MS: f64 = 100.0;

/// The tick a frame drawn at `at` shows, and the host time that tick means (as the judder
/// computes it, so a perfect drawing lands exactly on the truth's time).
fn shown(at: f64) -> (f64, f64) {
    let tick = (at - DELAY_MS) / 100.0;
    (tick, 100.0 * tick)
}

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("judder").join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The workspace's assets, whose font letters the plots.
fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// A truth entity with `leg` equal to `jumps`, as a trace's truth file has it.
fn truth_entity(id: u64, pos: [f64; 3], yaw: f64, speed: f64, jumps: u32) -> TruthEntity {
    TruthEntity { id, pos, yaw, speed, jumps, leg: Some(jumps) }
}

/// Truth lines every `step_ms` over `[0, end_ms]`, each from `entities(t)`.
fn truth(end_ms: u32, step_ms: u32, entities: impl Fn(f64) -> Vec<TruthEntity>) -> Vec<TruthLine> {
    (0..=end_ms / step_ms)
        .map(|k| {
            let t = f64::from(k * step_ms);
            TruthLine { t_ms: t, entities: entities(t) }
        })
        .collect()
}

/// Frames `first..=last` at 60 Hz, frame `i` drawing `entities(i, tick, t)`.
fn frames(
    first: u32,
    last: u32,
    entities: impl Fn(u32, f64, f64) -> Vec<DrawnEntity>,
) -> Vec<DrawnFrame> {
    (first..=last)
        .map(|i| {
            let at = at_ms(i);
            let (tick, t) = shown(at);
            DrawnFrame {
                at_ms: at,
                render_tick: tick,
                input_ms: None,
                camera: None,
                entities: entities(i, tick, t),
            }
        })
        .collect()
}

/// Writes the logs and measures them, with no trace and no plot.
fn judge(name: &str, truth: &[TruthLine], drawn: &[DrawnFrame]) -> JudderReport {
    let dir = dir(name);
    let (truth_path, drawn_path) = (dir.join("truth.jsonl"), dir.join("drawn.jsonl"));
    write_truth(&truth_path, truth).unwrap();
    write_drawn_log(&drawn_path, drawn).unwrap();
    let args = JudderArgs {
        drawn: drawn_path,
        truth: Some(truth_path),
        trace: None,
        plot: None,
        worst: 4,
        assets: assets(),
    };
    let report = run_judder(&args).unwrap();
    println!("{report}");
    report
}

/// Walking speed of the synthetic walker (m/s).
const WALK_M_S: f64 = 1.4;

fn walker_x(t: f64) -> f64 {
    WALK_M_S * t / 1000.0
}

fn with_kind(mut entity: DrawnEntity, kind: &str) -> DrawnEntity {
    entity.kind = Some(kind.to_owned().into());
    entity
}

#[test]
fn a_perfect_walker_is_perfect() {
    let truth = truth(3000, 5, |t| {
        vec![
            truth_entity(1, [walker_x(t), 0.0, 2.0], 0.0, WALK_M_S, 0),
            truth_entity(2, [5.0, 0.0, 5.0], 1.0, 0.0, 0),
        ]
    });
    // Frames 6..=180 show host times 0..=2900 ms.
    let drawn = frames(6, 180, |_, tick, t| {
        vec![
            with_kind(
                DrawnEntity::new(1, tick, [walker_x(t), 0.0, 2.0], 0.0, WALK_M_S),
                "character",
            ),
            with_kind(DrawnEntity::new(2, tick, [5.0, 0.0, 5.0], 1.0, 0.0), "object"),
        ]
    });
    let report = judge("perfect", &truth, &drawn);

    let walker = &report.kind("character").unwrap().tally;
    assert_eq!(report.kind("character").unwrap().entities, 1);
    assert_eq!(walker.frames, 174);
    assert_eq!(walker.paced, 174);
    assert_eq!(walker.off_pace, 0);
    assert_eq!((walker.pops, walker.reversals, walker.slides, walker.misplaced), (0, 0, 0, 0));
    assert_eq!((walker.long_way_turns, walker.anim_backsteps, walker.unmatched), (0, 0, 0));
    // A drawn log holds positions at single precision, the precision they are drawn at.
    let single = f64::from(f32::EPSILON) * 10.0;
    assert!(walker.position_errors_m.iter().all(|&e| e < single), "{:?}", walker.position_errors_m);
    assert!(walker.delays_ms.iter().all(|&d| (d - DELAY_MS).abs() < 1e-9));

    let still = &report.kind("object").unwrap().tally;
    assert_eq!((still.frames, still.paced, still.slides), (174, 0, 0));
    assert_eq!(report.all.entities, 2);
    assert_eq!(report.all.tally.frames, 348);
    assert_eq!(report.kinds.len(), 2);

    let table = report.to_string();
    assert!(table.contains("character"), "{table}");
    assert!(table.contains("object"), "{table}");
    let all = table.lines().find(|l| l.starts_with("all ")).unwrap();
    let cells: Vec<&str> = all.split_whitespace().collect();
    // kind, entities, frames, off-pace count and %, error p50/p99/max, delay p50/min/max,
    // pops, reversals, slides, misplaced, early, long-way, anim-back.
    assert_eq!(
        cells,
        [
            "all", "2", "348", "0", "0.0", "0.000", "0.000", "0.000", "100.0", "100.0", "100.0",
            "0", "0", "0", "0", "0", "0", "0"
        ]
    );
}

/// Acceleration of the accelerating entity (m/s²) and the span of host time that a client
/// draws one straight segment over (ms), as for an entity snapshotted every fourth tick.
const ACCEL_M_S2: f64 = 4.0;
const SEGMENT_MS: f64 = 400.0;

fn accelerating_x(t: f64) -> f64 {
    let s = t / 1000.0;
    0.5 * ACCEL_M_S2 * s * s
}

#[test]
fn drawing_a_segments_average_speed_is_off_pace() {
    let truth = truth(3000, 5, |t| {
        vec![truth_entity(1, [accelerating_x(t), 0.0, 0.0], 0.0, ACCEL_M_S2 * t / 1000.0, 0)]
    });
    let exact = frames(6, 180, |_, tick, t| {
        vec![DrawnEntity::new(1, tick, [accelerating_x(t), 0.0, 0.0], 0.0, 0.0)]
    });
    let averaged = frames(6, 180, |_, tick, t| {
        let start = (t / SEGMENT_MS).floor() * SEGMENT_MS;
        let f = (t - start) / SEGMENT_MS;
        let (a, b) = (accelerating_x(start), accelerating_x(start + SEGMENT_MS));
        vec![DrawnEntity::new(1, tick, [a + f * (b - a), 0.0, 0.0], 0.0, 0.0)]
    });

    let exact = judge("accelerating-exact", &truth, &exact).all.tally;
    assert!(exact.paced > 150, "{exact:?}");
    assert_eq!(exact.off_pace, 0);
    assert_eq!((exact.pops, exact.reversals, exact.slides), (0, 0, 0));

    let averaged = judge("accelerating-averaged", &truth, &averaged).all.tally;
    assert_eq!(averaged.paced, exact.paced);
    assert!(averaged.off_pace > averaged.paced / 2, "{averaged:?}");
    assert_eq!((averaged.pops, averaged.reversals, averaged.slides), (0, 0, 0));
}

#[test]
fn a_two_metre_pop_is_a_pop() {
    let truth =
        truth(3000, 5, |t| vec![truth_entity(1, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S, 0)]);
    let drawn = frames(6, 180, |i, tick, t| {
        let offset = if i >= 100 { 2.0 } else { 0.0 };
        vec![DrawnEntity::new(1, tick, [walker_x(t) + offset, 0.0, 0.0], 0.0, WALK_M_S)]
    });
    let report = judge("pop", &truth, &drawn);
    let tally = &report.all.tally;
    assert_eq!(tally.pops, 1);
    assert_eq!(tally.off_pace, 1);
    assert_eq!((tally.reversals, tally.slides, tally.misplaced), (0, 0, 0));
    assert_eq!(report.all.kind, "all");
    assert_eq!(report.kinds[0].kind, "entity");
    assert!(tally.position_errors_m.iter().copied().fold(0.0, f64::max) > 1.99);
}

#[test]
fn a_step_back_is_a_reversal_and_a_step_while_standing_is_a_slide() {
    let truth = truth(3000, 5, |t| {
        vec![
            truth_entity(1, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S, 0),
            truth_entity(2, [0.0, 0.0, 0.0], 0.0, 0.0, 0),
        ]
    });
    let drawn = frames(6, 180, |i, tick, t| {
        let back = if i == 50 { -0.05 } else { 0.0 };
        let creep = if i >= 120 { 0.02 * f64::from(i - 119) } else { 0.0 };
        vec![
            DrawnEntity::new(1, tick, [walker_x(t) + back, 0.0, 0.0], 0.0, WALK_M_S),
            DrawnEntity::new(2, tick, [creep, 0.0, 0.0], 0.0, 0.0),
        ]
    });
    let report = judge("reversal-slide", &truth, &drawn);
    let walker = &report.entity(1).unwrap().tally;
    assert_eq!(walker.reversals, 1);
    // Frame 50 steps back, frame 51 catches up twice as fast.
    assert_eq!(walker.off_pace, 2);
    assert_eq!((walker.pops, walker.slides), (0, 0));
    let still = &report.entity(2).unwrap().tally;
    assert_eq!(still.slides, 61);
    assert_eq!((still.paced, still.reversals, still.pops), (0, 0, 0));
}

/// Where the jumping walker is: walking along x, put at x = 50 m at host time 1 s.
fn jumping_x(t: f64) -> f64 {
    if t < 1000.0 { walker_x(t) } else { 50.0 + walker_x(t - 1000.0) }
}

fn jumping_truth(step_ms: u32, with_leg: bool) -> Vec<TruthLine> {
    truth(3000, step_ms, |t| {
        let jumps = u32::from(t >= 1000.0);
        let mut entity = truth_entity(1, [jumping_x(t), 0.0, 0.0], 0.0, WALK_M_S, jumps);
        if !with_leg {
            entity.leg = None;
        }
        vec![entity]
    })
}

/// A client that snaps across the jump, and one that draws the last tick before it moving
/// to the place after it.
fn jumping_drawn(snap: bool) -> Vec<DrawnFrame> {
    frames(6, 180, |_, tick, t| {
        let x = if !snap && t > 900.0 && t < 1000.0 {
            let f = (t - 900.0) / 100.0;
            jumping_x(900.0) + f * (jumping_x(1000.0) - jumping_x(900.0))
        } else {
            jumping_x(t)
        };
        vec![DrawnEntity::new(1, tick, [x, 0.0, 0.0], 0.0, WALK_M_S)]
    })
}

#[test]
fn drawing_between_the_places_of_a_jump_is_misplaced() {
    let snapped = judge("jump-snapped", &jumping_truth(5, true), &jumping_drawn(true)).all.tally;
    assert_eq!(
        (snapped.misplaced, snapped.pops, snapped.off_pace, snapped.reversals),
        (0, 0, 0, 0)
    );
    // The two frame pairs that touch the jump at 1000 ms are not paced.
    assert_eq!(snapped.paced, snapped.frames - 2);

    // Frames 61..=65 show 916.7..=983.3 ms, between the places, 8 to 40 m from the truth;
    // each steps 8 m while the truth has not jumped yet.
    let between = judge("jump-between", &jumping_truth(5, true), &jumping_drawn(false)).all.tally;
    assert_eq!(between.misplaced, 5);
    assert_eq!(between.pops, 5);
    assert_eq!(between.off_pace, 5);
    assert_eq!(between.reversals, 0);
}

#[test]
fn a_local_truth_without_leg_steps_at_its_jumps() {
    // One line per tick and no `leg`: `jumps` is the leg, and the truth holds the old place
    // until the line that shows the new one.
    let snapped =
        judge("local-snapped", &jumping_truth(100, false), &jumping_drawn(true)).all.tally;
    assert_eq!((snapped.misplaced, snapped.pops), (0, 0));
    let between =
        judge("local-between", &jumping_truth(100, false), &jumping_drawn(false)).all.tally;
    assert_eq!((between.misplaced, between.pops), (5, 5));
}

#[test]
fn a_turn_drawn_the_long_way_round_is_counted() {
    // Turning on the spot from 170° through 180° to -170° over the first 100 ms.
    let yaw = |t: f64| {
        let degrees = 170.0 + 20.0 * (t.min(100.0) / 100.0);
        let wrapped = if degrees > 180.0 { degrees - 360.0 } else { degrees };
        wrapped.to_radians()
    };
    let truth = truth(300, 5, |t| vec![truth_entity(1, [0.0, 0.0, 0.0], yaw(t), 0.0, 0)]);
    // Frames 100 ms behind at 0, 50 and 100 ms of host time, 50 ms apart.
    let turn = |yaws: [f64; 3]| -> Vec<DrawnFrame> {
        yaws.iter()
            .enumerate()
            .map(|(k, degrees)| {
                let at = DELAY_MS + 50.0 * k as f64;
                let (tick, _) = shown(at);
                DrawnFrame {
                    at_ms: at,
                    render_tick: tick,
                    input_ms: None,
                    camera: None,
                    entities: vec![DrawnEntity::new(
                        1,
                        tick,
                        [0.0, 0.0, 0.0],
                        f64::to_radians(*degrees),
                        0.0,
                    )],
                }
            })
            .collect()
    };
    let long = judge("turn-long", &truth, &turn([170.0, 0.0, -170.0])).all.tally;
    assert_eq!(long.frames, 2);
    assert_eq!(long.long_way_turns, 2);
    let short = judge("turn-short", &truth, &turn([170.0, 180.0, -170.0])).all.tally;
    assert_eq!(short.frames, 2);
    assert_eq!(short.long_way_turns, 0);
}

fn animated(id: u64, tick: f64, anim: &str, frame: f64, looping: bool) -> DrawnEntity {
    let mut entity = DrawnEntity::new(id, tick, [0.0, 0.0, 0.0], 0.0, 0.0);
    entity.anim = Some(anim.to_owned().into());
    entity.frame = Some(frame);
    entity.frames = Some(24.0);
    entity.looping = Some(looping);
    entity
}

#[test]
fn an_animation_stepping_back_is_counted_but_a_loop_wrap_is_not() {
    let truth = truth(1000, 5, |_| {
        (1..=4).map(|id| truth_entity(id, [0.0, 0.0, 0.0], 0.0, 0.0, 0)).collect()
    });
    let once = [8.0, 9.0, 10.0, 9.0, 10.0];
    let looped = [21.5, 22.5, 23.5, 0.7, 1.7];
    let drawn = frames(6, 10, |i, tick, _| {
        let k = (i - 6) as usize;
        vec![
            animated(1, tick, "wave", once[k], false),
            animated(2, tick, "walk", looped[k], true),
            // Backwards round a loop is still backwards.
            animated(3, tick, "walk", once[k], true),
            // A new animation starts wherever it starts.
            animated(
                4,
                tick,
                if k < 2 { "idle" } else { "walk" },
                [10.0, 11.0, 2.0, 3.0, 4.0][k],
                true,
            ),
        ]
    });
    let report = judge("anim", &truth, &drawn);
    let backsteps: Vec<usize> =
        (1..=4).map(|id| report.entity(id).unwrap().tally.anim_backsteps).collect();
    assert_eq!(backsteps, [1, 0, 1, 0]);
    assert_eq!(report.all.tally.anim_backsteps, 2);
}

#[test]
fn a_trace_gives_the_kinds_and_the_truth() {
    let dir = dir("trace");
    let truth = truth(1000, 5, |t| {
        vec![
            truth_entity(1, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S, 0),
            truth_entity(2, [0.0, 0.0, walker_x(t)], 0.0, WALK_M_S, 0),
            truth_entity(3, [1.0, 0.0, 1.0], 0.0, 0.0, 0),
        ]
    });
    write_truth(&dir.join("truth.jsonl"), &truth).unwrap();
    std::fs::write(
        dir.join("trace.jsonl"),
        concat!(
            "{\"header\":{\"format\":1,\"tick_ms\":100}}\n",
            "{\"at_ms\":40.0,\"snapshot\":{\"tick\":0,\"entities\":[",
            "{\"id\":1,\"kind\":\"vehicle\",\"pos\":[0,0,0],\"vel\":[0,0,0],\"yaw\":0.0,\"at_rest\":true,\"tier\":1,\"jumps\":0},",
            "{\"id\":2,\"kind\":\"walker\",\"pos\":[0,0,0],\"vel\":[0,0,0],\"yaw\":0.0,\"at_rest\":true,\"tier\":2,\"jumps\":0}",
            "],\"gone\":[]}}\n",
            "{\"at_ms\":50.0,\"frame\":{}}\n",
        ),
    )
    .unwrap();
    let drawn = frames(6, 60, |_, tick, t| {
        vec![
            with_kind(DrawnEntity::new(1, tick, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S), "taxi"),
            DrawnEntity::new(2, tick, [0.0, 0.0, walker_x(t)], 0.0, WALK_M_S),
            DrawnEntity::new(3, tick, [1.0, 0.0, 1.0], 0.0, 0.0),
        ]
    });
    write_drawn_log(&dir.join("drawn.jsonl"), &drawn).unwrap();
    let args = JudderArgs {
        drawn: dir.join("drawn.jsonl"),
        truth: None,
        trace: Some(dir.clone()),
        plot: None,
        worst: 4,
        assets: assets(),
    };
    let report = run_judder(&args).unwrap();
    let kinds: Vec<(&str, usize)> =
        report.kinds.iter().map(|row| (row.kind.as_str(), row.entities)).collect();
    assert_eq!(kinds, [("entity", 1), ("vehicle", 1), ("walker", 1)]);
    assert_eq!(report.truth, dir.join("truth.jsonl"));
    assert_eq!(report.all.tally.frames, 3 * 54);
}

#[test]
fn a_trace_tells_frames_drawn_before_a_measurement_or_after_gone() {
    let dir = dir("early");
    let truth =
        truth(2000, 5, |t| vec![truth_entity(1, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S, 0)]);
    write_truth(&dir.join("truth.jsonl"), &truth).unwrap();
    // Entity 1 is first measured at tick 3, gone from tick 9, and measured again at 12.
    let snapshot = |at: u32, tick: u32, measured: bool, gone: bool| {
        let entities = if measured {
            "{\"id\":1,\"kind\":\"walker\",\"pos\":[0,0,0],\"vel\":[1,0,0],\"yaw\":0.0,\"at_rest\":false,\"tier\":1,\"jumps\":0}"
        } else {
            ""
        };
        let gone = if gone { "1" } else { "" };
        format!(
            "{{\"at_ms\":{at},\"snapshot\":{{\"tick\":{tick},\"entities\":[{entities}],\"gone\":[{gone}]}}}}\n"
        )
    };
    let trace = String::from("{\"header\":{\"format\":1,\"tick_ms\":100}}\n")
        + &snapshot(340, 3, true, false)
        + &snapshot(940, 9, false, true)
        + &snapshot(1240, 12, true, false);
    std::fs::write(dir.join("trace.jsonl"), trace).unwrap();
    // Drawn at every frame from tick 1 to tick 15: early before 3, and from 9 to before 12.
    let drawn = frames(12, 96, |_, tick, t| {
        vec![DrawnEntity::new(1, tick, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S)]
    });
    let early = drawn
        .iter()
        .filter(|f| f.render_tick < 3.0 || (9.0..12.0).contains(&f.render_tick))
        .count();
    assert!(early > 20);
    write_drawn_log(&dir.join("drawn.jsonl"), &drawn).unwrap();
    let args = JudderArgs {
        drawn: dir.join("drawn.jsonl"),
        truth: None,
        trace: Some(dir.clone()),
        plot: None,
        worst: 4,
        assets: assets(),
    };
    let report = run_judder(&args).unwrap();
    assert_eq!(report.all.tally.early, early, "{report}");
    assert!(report.to_string().contains("early"));
}

#[test]
fn the_plot_shows_the_worst_entities() {
    let dir = dir("plot");
    let truth = truth(3000, 5, |t| {
        vec![
            truth_entity(1, [walker_x(t), 0.0, 0.0], 0.0, WALK_M_S, 0),
            truth_entity(2, [accelerating_x(t), 0.0, 3.0], 0.0, ACCEL_M_S2 * t / 1000.0, 0),
            truth_entity(3, [jumping_x(t), 0.0, 6.0], 0.0, WALK_M_S, u32::from(t >= 1000.0)),
            truth_entity(4, [walker_x(t), 0.0, 9.0], 0.0, WALK_M_S, 0),
        ]
    });
    let between = jumping_drawn(false);
    let drawn = frames(6, 180, |i, tick, t| {
        let start = (t / SEGMENT_MS).floor() * SEGMENT_MS;
        let f = (t - start) / SEGMENT_MS;
        let (a, b) = (accelerating_x(start), accelerating_x(start + SEGMENT_MS));
        let jumper = between[(i - 6) as usize].entities[0].pos[0];
        vec![
            with_kind(
                DrawnEntity::new(
                    1,
                    tick,
                    [walker_x(t) + if i >= 100 { 2.0 } else { 0.0 }, 0.0, 0.0],
                    0.0,
                    0.0,
                ),
                "character",
            ),
            with_kind(DrawnEntity::new(2, tick, [a + f * (b - a), 0.0, 3.0], 0.0, 0.0), "taxi"),
            with_kind(DrawnEntity::new(3, tick, [jumper, 0.0, 6.0], 0.0, 0.0), "character"),
            with_kind(DrawnEntity::new(4, tick, [walker_x(t), 0.0, 9.0], 0.0, 0.0), "character"),
        ]
    });
    write_truth(&dir.join("truth.jsonl"), &truth).unwrap();
    write_drawn_log(&dir.join("drawn.jsonl"), &drawn).unwrap();
    let plot = dir.join("speeds.png");
    let args = JudderArgs {
        drawn: dir.join("drawn.jsonl"),
        truth: Some(dir.join("truth.jsonl")),
        trace: None,
        plot: Some(plot.clone()),
        worst: 3,
        assets: assets(),
    };
    let report = run_judder(&args).unwrap();
    println!("{report}");
    let worst: Vec<u64> = report.worst_entities().iter().map(|e| e.id).collect();
    // The jumper: 5 off pace + 10 × (5 pops + 5 misplaced) = 105; the averaged taxi is off
    // pace on most frames; the popping walker: 1 + 10 × 1 = 11; the good walker: 0.
    assert_eq!(report.entity(3).unwrap().tally.score(), 105);
    assert_eq!(report.entity(1).unwrap().tally.score(), 11);
    assert_eq!(report.entity(4).unwrap().tally.score(), 0);
    assert!(report.entity(2).unwrap().tally.score() > 11);
    assert_eq!(worst.len(), 3);
    assert!(worst[..2].contains(&2) && worst[..2].contains(&3) && worst[2] == 1, "{worst:?}");
    assert_eq!(report.plot.as_deref(), Some(plot.as_path()));
    let png = std::fs::read(&plot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(png.len() > 10_000, "a picture of 3 charts is more than {} bytes", png.len());
}

/// Writes a drawn log and a truth file as given and runs the judder, which must fail: the
/// directory and the error's full text.
fn judge_error(name: &str, drawn: &str, truth: &str) -> (PathBuf, String) {
    let dir = dir(name);
    std::fs::write(dir.join("drawn.jsonl"), drawn).unwrap();
    std::fs::write(dir.join("truth.jsonl"), truth).unwrap();
    let args = JudderArgs {
        drawn: dir.join("drawn.jsonl"),
        truth: Some(dir.join("truth.jsonl")),
        trace: None,
        plot: None,
        worst: 4,
        assets: assets(),
    };
    let error = run_judder(&args).unwrap_err();
    (dir, format!("{error:#}"))
}

const GOOD_TRUTH: &str = concat!(
    "{\"t_ms\":0.0,\"entities\":[{\"id\":1,\"pos\":[0.0,0.0,0.0],\"yaw\":0.0,\"speed\":0.0,\"jumps\":0,\"leg\":0}]}\n",
    "{\"t_ms\":100.0,\"entities\":[{\"id\":1,\"pos\":[0.0,0.0,0.0],\"yaw\":0.0,\"speed\":0.0,\"jumps\":0}]}\n",
);

fn drawn_line(at_ms: f64, entity: &str) -> String {
    format!("{{\"at_ms\":{at_ms:?},\"render_tick\":0.5,\"entities\":[{entity}]}}\n")
}

const GOOD_ENTITY: &str = "{\"id\":1,\"tick\":0.5,\"pos\":[0.0,0.0,0.0],\"yaw\":0.0,\"speed\":0.0}";

#[test]
fn malformed_input_names_the_file_and_line() {
    let good = drawn_line(10.0, GOOD_ENTITY) + &drawn_line(20.0, GOOD_ENTITY);

    let truncated = good.clone() + "{\"at_ms\":30.0,\"render_tick\"\n";
    let (dir, error) = judge_error("bad-json", &truncated, GOOD_TRUTH);
    let file = dir.join("drawn.jsonl");
    assert!(error.starts_with(&format!("drawn log {}, line 3: ", file.display())), "{error}");
    assert!(error.contains("EOF while parsing"), "{error}");

    let no_tick = drawn_line(10.0, GOOD_ENTITY)
        + &drawn_line(20.0, "{\"id\":1,\"pos\":[0,0,0],\"yaw\":0,\"speed\":0}");
    let (dir, error) = judge_error("no-tick", &no_tick, GOOD_TRUTH);
    assert_eq!(
        error,
        format!(
            "drawn log {}, line 2: missing field `tick` (column 84)",
            dir.join("drawn.jsonl").display()
        )
    );

    let backwards = good.clone() + &drawn_line(20.0, GOOD_ENTITY);
    let (dir, error) = judge_error("backwards", &backwards, GOOD_TRUTH);
    assert_eq!(
        error,
        format!(
            "drawn log {}, line 3: at_ms 20 is not after the previous line's 20",
            dir.join("drawn.jsonl").display()
        )
    );

    let twice = drawn_line(10.0, &format!("{GOOD_ENTITY},{GOOD_ENTITY}"));
    let (_, error) = judge_error("twice", &twice, GOOD_TRUTH);
    assert!(error.ends_with("line 1: entity 1 is drawn twice"), "{error}");

    let bad_frames = drawn_line(
        10.0,
        "{\"id\":7,\"tick\":0.5,\"pos\":[0,0,0],\"yaw\":0,\"speed\":0,\"frames\":0}",
    );
    let (_, error) = judge_error("bad-frames", &bad_frames, GOOD_TRUTH);
    assert!(error.ends_with("line 1: entity 7: frames 0 is not a positive frame count"), "{error}");

    let short_pos = drawn_line(10.0, "{\"id\":1,\"tick\":0.5,\"pos\":[0,0],\"yaw\":0,\"speed\":0}");
    let (_, error) = judge_error("short-pos", &short_pos, GOOD_TRUTH);
    assert!(error.contains("line 1: invalid length 2"), "{error}");

    let blank = drawn_line(10.0, GOOD_ENTITY) + "\n" + &drawn_line(20.0, GOOD_ENTITY);
    let (_, error) = judge_error("blank", &blank, GOOD_TRUTH);
    assert!(error.ends_with("line 2: empty line"), "{error}");

    let (dir, error) = judge_error("empty", "", GOOD_TRUTH);
    assert_eq!(error, format!("drawn log {}: no frames", dir.join("drawn.jsonl").display()));

    let no_jumps = GOOD_TRUTH.replace(",\"jumps\":0}", "}");
    let (dir, error) = judge_error("truth-no-jumps", &good, &no_jumps);
    assert_eq!(
        error,
        format!(
            "truth {}, line 2: missing field `jumps` (column 76)",
            dir.join("truth.jsonl").display()
        )
    );

    let truth_backwards = GOOD_TRUTH.replace("\"t_ms\":100.0", "\"t_ms\":0.0");
    let (dir, error) = judge_error("truth-backwards", &good, &truth_backwards);
    assert_eq!(
        error,
        format!(
            "truth {}, line 2: t_ms 0 is not after the previous line's 0",
            dir.join("truth.jsonl").display()
        )
    );
}

#[test]
fn missing_files_and_missing_truth_are_errors() {
    let dir = dir("missing");
    let args = JudderArgs {
        drawn: dir.join("nope.jsonl"),
        truth: None,
        trace: None,
        plot: None,
        worst: 4,
        assets: assets(),
    };
    let error = format!("{:#}", run_judder(&args).unwrap_err());
    assert!(error.starts_with("no truth to measure against"), "{error}");

    let args = JudderArgs { truth: Some(dir.join("truth.jsonl")), ..args };
    let error = format!("{:#}", run_judder(&args).unwrap_err());
    assert!(
        error.starts_with(&format!("cannot read drawn log {}", dir.join("nope.jsonl").display())),
        "{error}"
    );

    std::fs::write(dir.join("drawn.jsonl"), drawn_line(10.0, GOOD_ENTITY)).unwrap();
    std::fs::write(
        dir.join("trace.jsonl"),
        "{\"header\":{}}\n{\"snapshot\":{\"entities\":[{\"id\":1}]}}\n",
    )
    .unwrap();
    std::fs::write(dir.join("truth.jsonl"), GOOD_TRUTH).unwrap();
    let args = JudderArgs {
        drawn: dir.join("drawn.jsonl"),
        truth: None,
        trace: Some(dir.clone()),
        plot: None,
        worst: 4,
        assets: assets(),
    };
    let error = format!("{:#}", run_judder(&args).unwrap_err());
    assert!(
        error.starts_with(&format!(
            "trace {}, line 2: missing field `kind`",
            dir.join("trace.jsonl").display()
        )),
        "{error}"
    );

    let bytes = [GOOD_TRUTH.as_bytes(), b"{\"t_ms\":\xff}\n"].concat();
    std::fs::write(dir.join("truth.jsonl"), bytes).unwrap();
    let args = JudderArgs { trace: None, truth: Some(dir.join("truth.jsonl")), ..args };
    let error = format!("{:#}", run_judder(&args).unwrap_err());
    assert!(
        error.starts_with(&format!(
            "truth {}, line 3: not UTF-8",
            dir.join("truth.jsonl").display()
        )),
        "{error}"
    );
}
