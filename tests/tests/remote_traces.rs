//! The remote view (network clock, remote buffers, update-gap delay) over every generated
//! network scenario (`fixstep_tools::tracegen`): each is generated into a scratch directory,
//! run through `fixstep trace`'s library function, measured by `fixstep judder`'s against its
//! truth, and held to what the remote view promises a client in that situation (the measures
//! of `docs/FORMATS.md`, and the network clock's, the remote buffers' and the update-gap
//! delay's behaviour and constants at 100 ms ticks, as their module documentation states
//! them). A failure lists every expectation missed, then the
//! judder report.
//!
//! Two more tests hold the generator itself to account: it is deterministic, and its truth
//! and trace agree (every measurement is the truth at its tick, sent by the host's rules).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{BufReader, BufWriter};

use fixstep_present::format::{TraceEventLine, TraceHeaderLine};
use fixstep_present::remote::{BLEND_MAX_TICKS, BLEND_PACE_SHARE, MAX_EXTRAPOLATION_TICKS};
use fixstep_runtime::clock::{
    CLOCK_CATCH_UP_TICKS, CLOCK_SLACK, CLOCK_WINDOW_TICKS, INTERP_DELAY_TICKS, RENDER_DRIFT,
};
use fixstep_tests::Scratch;
use fixstep_tests::processes::shared_machine;
use fixstep_tests::workspace_root;
use fixstep_tools::judder::{
    DrawnFrame, EntityStats, JudderArgs, JudderReport, MOVING_M_S, MS_PER_S, OFF_PACE, POP_M,
    SLIDE_M, Summary, TruthLine, read_drawn_log, run_judder,
};
use fixstep_tools::trace::run_trace;
use fixstep_tools::tracegen::{
    APPEARS_AT_TICK, AWAY_TICKS, Entity, GOES_AT_TICK, Generated, Kind, Scenario, TICK_MS,
    TRUTH_STEP_MS, generate, scenario, scenarios,
};

/// Vehicles: the most frames off pace, % of the paced ones. Drawn on Hermite curves through
/// measured velocities, a car's pace is right to well under 5 % at every frame; 1 % leaves
/// room for the moments no client can know (a stop between two far-tier measurements).
const VEHICLE_OFF_PACE_PERCENT: f64 = 1.0;

/// Vehicles: the 99th percentile of position error, metres: 5 cm, what a Hermite curve
/// misses of a car's smooth motion between measurements a tenth to four tenths of a second
/// apart.
const VEHICLE_ERROR_P99_M: f64 = 0.05;

/// Walkers: the most frames off pace, % of the paced ones. A walker is drawn at each
/// segment's average speed (the remote buffer's rules), which departs from the truth while it starts,
/// stops or changes pace within a segment: two or three ticks in every few seconds of walking.
const WALKER_OFF_PACE_PERCENT: f64 = 5.0;

/// Walkers in the tier-changes scenario: the most frames off pace, %. Relaxed from
/// [`WALKER_OFF_PACE_PERCENT`]: every tier change slews the walker's delay at `RENDER_DRIFT`
/// (3 % of a tick a tick; the remote buffer's rules ask for a slew, never a jump) for up to 10 s,
/// every frame of a slew is 3 % off pace before any segment-average error adds to it, and with changes every
/// few seconds a walker slews most of the time (half of the walkers' off-pace frames there
/// fall in slews). Unlike the vehicles', the walkers' frames outside slews are too few for a
/// share of their own: a tier-4 walker changing pace once gives sixteen.
const TIER_CHANGE_WALKER_OFF_PACE_PERCENT: f64 = 6.0;

/// How far the median render delay may exceed its design (ms): the rounding of frame times
/// and the clock's first slews, well under a frame.
const RENDER_DELAY_TOLERANCE_MS: f64 = 5.0;

/// How far an entity's median extra delay may be from its tier's (ticks): the tier delay is
/// exact once settled, so only rounding is allowed.
const TIER_DELAY_TOLERANCE_TICKS: f64 = 0.05;

/// How much faster than its average a correction blend moves at its peak: a smoothstep's 1.5
/// (the remote buffer's correction eases in and out). With `BLEND_PACE_SHARE` it says how
/// long a catch-up must last.
const SMOOTHSTEP_PEAK: f64 = 1.5;

/// The fastest any vehicle of the generated towns drives, m/s (the generator's cruising
/// range tops at 20).
const TOP_VEHICLE_SPEED_M_S: f64 = 20.0;

/// The largest position error a lost snapshot may cause, metres. A loss resent after 200 ms
/// holds the newest measurement back by about two ticks, which the two ticks of interpolation
/// delay nearly cover: the render tick passes the newest measurement by about a tick at most,
/// and extrapolation misses under a tick's worth of a car's hardest acceleration (½ · 5.25
/// m/s² · (0.1 s)² ≈ 3 cm). Bursts of three losses come back one after another, each within
/// the same margin.
const LOSS_ERROR_MAX_M: f64 = 0.1;

/// How long after a burst's arrival a catch-up pop may be drawn (ms): the frame that takes
/// the burst, and one more of a 60 Hz client for its rounding.
const POP_WINDOW_MS: f64 = 2.0 * 1000.0 / 60.0;

/// A change of an entity's delay behind the render tick between two frames larger than
/// this (ticks) is a slew: far below the 3 % of a 7 ms frame a slew moves it by, far above
/// rounding.
const SLEW_EPSILON_TICKS: f64 = 1e-4;

/// How much faster than `RENDER_DRIFT` a delay may seem to slew (ticks a tick): the
/// rounding of the drawn log's times and ticks over one short frame.
const DRIFT_TOLERANCE: f64 = 1e-3;

/// The fewest paced frames a scenario must judge: a 40 s town at 60 Hz has over ten thousand,
/// so fewer means the run drew far less than it should have.
const MIN_PACED_FRAMES: usize = 5_000;

/// The fewest paced frames of each kind a scenario must judge, so that each kind's off-pace
/// share is a share of something: every scenario moves its walkers and vehicles for most of
/// 40 s, and the fewest of either kind judged, link-stalls' walkers with the stalls left out,
/// number about 4,500. Fewer means a kind was mostly not drawn, not moving, or not judged,
/// where a kind with none would count as 0 % off pace.
const MIN_PACED_FRAMES_PER_KIND: usize = 4_000;

/// A scenario generated, drawn and measured.
struct Run {
    scenario: Scenario,
    generated: Generated,
    frames: Vec<DrawnFrame>,
    report: JudderReport,
}

fn run(name: &str) -> Run {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let scenario = scenario(name).unwrap_or_else(|| panic!("no scenario {name}"));
    let generated = generate(&scenario);
    let scratch = Scratch::new("remote-traces", name);
    generated.write_dir(scratch.dir()).expect("the scenario can be written");
    let drawn = scratch.path("drawn.jsonl");
    let input = BufReader::new(fs::File::open(scratch.path("trace.jsonl")).expect("trace"));
    let output = BufWriter::new(fs::File::create(&drawn).expect("drawn log"));
    run_trace(input, output).expect("the generated trace is valid");
    let frames = read_drawn_log(&drawn).expect("the drawn log reads back");
    let report = run_judder(&JudderArgs {
        drawn,
        truth: None,
        trace: Some(scratch.dir().to_path_buf()),
        plot: None,
        worst: 4,
        assets: workspace_root().join("assets"),
    })
    .expect("judder measures the drawn log");
    Run { scenario, generated, frames, report }
}

/// A span of client time, ms, `[from, to]`.
type Span = (f64, f64);

fn within(spans: &[Span], at_ms: f64) -> bool {
    spans.iter().any(|&(from, to)| at_ms >= from && at_ms <= to)
}

/// What a scenario must meet beyond what every scenario must (no reversals, no frame
/// misplaced around a jump, none drawn before its first measurement or after it was gone,
/// slides only where a walker's stop cannot be known, every entity drawn).
struct Expect {
    vehicle_off_pace_percent: f64,
    vehicle_error_p99_m: f64,
    walker_off_pace_percent: f64,
    /// The median render delay in client time (ms, from the end of the clock's first window):
    /// at least, at most.
    render_delay_ms: Span,
    /// Every entity keeps one tier: its median extra delay must be its tier's.
    fixed_tiers: bool,
    /// Client time left out of the pace and error percentiles above: stalls and their
    /// recovery.
    recovering: Vec<Span>,
    /// Vehicles' frames in which their delay slews to a new tier's are left out of the pace
    /// and error percentiles above.
    vehicles_skip_slews: bool,
    /// Client time in which each entity may pop once: a catch-up the blend cannot make.
    pops_allowed: Vec<Span>,
    /// The largest position error of any frame, metres, if bounded tighter than by pops.
    error_max_m: Option<f64>,
}

impl Expect {
    /// A smooth client on a path whose fastest arrival takes `min_latency_ms`: the render
    /// tick two ticks and the clock's slack behind the host's tick as the fastest arrivals
    /// tell it.
    fn smooth(min_latency_ms: f64) -> Self {
        let design = min_latency_ms + interp_delay_ms() + slack_ms();
        Self {
            vehicle_off_pace_percent: VEHICLE_OFF_PACE_PERCENT,
            vehicle_error_p99_m: VEHICLE_ERROR_P99_M,
            walker_off_pace_percent: WALKER_OFF_PACE_PERCENT,
            render_delay_ms: (
                design - RENDER_DELAY_TOLERANCE_MS,
                design + RENDER_DELAY_TOLERANCE_MS,
            ),
            fixed_tiers: true,
            recovering: Vec::new(),
            vehicles_skip_slews: false,
            pops_allowed: Vec::new(),
            error_max_m: None,
        }
    }
}

fn interp_delay_ms() -> f64 {
    f64::from(INTERP_DELAY_TICKS * TICK_MS)
}

fn slack_ms() -> f64 {
    CLOCK_SLACK.to_num::<f64>() * f64::from(TICK_MS)
}

/// Expectations that fail, gathered so a failure lists them all.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.0.push(what());
        }
    }
}

/// One frame pair of one entity, as judder measured it.
struct Pair<'a> {
    entity: &'a EntityStats,
    at_ms: f64,
    /// Real time since the frame before, ms.
    dt_ms: f64,
    drawn_m: f64,
    true_m: f64,
    jumped: bool,
    error_m: f64,
    /// The host tick the later frame drew the entity at.
    tick: f64,
    /// How much the entity's delay behind the render tick changed from the frame before,
    /// ticks: nothing, unless it slews to a new tier's (or a gap delay moves).
    delay_step_ticks: f64,
}

impl Pair<'_> {
    fn slewing(&self) -> bool {
        self.delay_step_ticks.abs() > SLEW_EPSILON_TICKS
    }
}

/// Every measured frame pair of every entity, with its frame interval and drawn tick from
/// the drawn log. Judder keeps an entity's errors in the order of its speed points (one of
/// each per measured pair), which this relies on and checks.
fn pairs<'a>(run: &'a Run) -> Vec<Pair<'a>> {
    let times: Vec<f64> = run.frames.iter().map(|f| f.at_ms).collect();
    let mut out = Vec::new();
    for entity in &run.report.entities {
        let errors = &entity.tally.position_errors_m;
        assert_eq!(errors.len(), entity.speeds.len(), "one error per speed point");
        for (point, &error_m) in entity.speeds.iter().zip(errors) {
            let index = times.partition_point(|&t| t < point.at_ms);
            assert!(index > 0 && index < times.len(), "a measured pair's frame is in the log");
            let dt_ms = times[index] - times[index - 1];
            let extra = |frame: &DrawnFrame| {
                frame
                    .entities
                    .iter()
                    .find(|e| e.id == entity.id)
                    .map_or((f64::NAN, f64::NAN), |e| (e.tick, frame.render_tick - e.tick))
            };
            let (tick, delay) = extra(&run.frames[index]);
            let (_, delay_before) = extra(&run.frames[index - 1]);
            out.push(Pair {
                entity,
                at_ms: point.at_ms,
                dt_ms,
                drawn_m: point.drawn_m_s * dt_ms / MS_PER_S,
                true_m: point.true_m_s * dt_ms / MS_PER_S,
                jumped: point.jumped,
                error_m,
                tick,
                delay_step_ticks: delay - delay_before,
            });
        }
    }
    out
}

/// The ticks at which the host measured each entity coming to a stop (at rest after a
/// measurement in motion).
fn stops(generated: &Generated) -> BTreeMap<u64, Vec<u32>> {
    let mut moving: BTreeMap<u64, bool> = BTreeMap::new();
    let mut out: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    for snapshot in &generated.snapshots {
        for m in &snapshot.entities {
            let rest = m.state.at_rest();
            if rest && moving.get(&m.id) == Some(&true) {
                out.entry(m.id).or_default().push(snapshot.tick);
            }
            moving.insert(m.id, !rest);
        }
    }
    out
}

/// Checks everything `expect` and every scenario ask of `run`; panics with every failure and
/// the report if anything fails, and prints the report either way.
fn assert_meets(run: &Run, expect: &Expect) {
    let report = &run.report;
    let mut failures = Failures::default();
    let pairs = pairs(run);
    let world = &run.generated.world;

    // Pace and position error, outside the recovery spans.
    for (kind, limit) in [
        (Kind::Vehicle, expect.vehicle_off_pace_percent),
        (Kind::Walker, expect.walker_off_pace_percent),
    ] {
        let judged: Vec<&Pair> = pairs
            .iter()
            .filter(|p| p.entity.kind == kind.as_str() && !within(&expect.recovering, p.at_ms))
            .filter(|p| !(kind == Kind::Vehicle && expect.vehicles_skip_slews && p.slewing()))
            .collect();
        let paced: Vec<&&Pair> = judged
            .iter()
            .filter(|p| !p.jumped && p.true_m / p.dt_ms * MS_PER_S > MOVING_M_S)
            .collect();
        let off = paced.iter().filter(|p| (p.drawn_m / p.true_m - 1.0).abs() > OFF_PACE).count();
        failures.check(paced.len() >= MIN_PACED_FRAMES_PER_KIND, || {
            format!(
                "only {} paced {} frames judged (at least {MIN_PACED_FRAMES_PER_KIND})",
                paced.len(),
                kind.as_str()
            )
        });
        let percent = 100.0 * off as f64 / paced.len().max(1) as f64;
        failures.check(percent <= limit, || {
            format!(
                "{} off pace {percent:.2} % ({off} of {}) > {limit} %",
                kind.as_str(),
                paced.len()
            )
        });
        if kind == Kind::Vehicle {
            let errors: Vec<f64> = judged.iter().map(|p| p.error_m).collect();
            let p99 = Summary::of(&errors).map_or(f64::INFINITY, |s| s.p99);
            failures.check(p99 <= expect.vehicle_error_p99_m, || {
                format!("vehicle position error p99 {p99:.4} m > {} m", expect.vehicle_error_p99_m)
            });
        }
    }
    let all = &report.all.tally;
    failures.check(all.paced >= MIN_PACED_FRAMES, || {
        format!("only {} paced frames judged (at least {MIN_PACED_FRAMES})", all.paced)
    });
    if let Some(limit) = expect.error_max_m {
        let max = Summary::of(&all.position_errors_m).map_or(f64::INFINITY, |s| s.max);
        failures.check(max <= limit, || format!("position error max {max:.3} m > {limit} m"));
    }

    // Pops: only where a catch-up cannot be blended, once per entity.
    let pops: Vec<&Pair> =
        pairs.iter().filter(|p| !p.jumped && p.drawn_m > p.true_m + POP_M).collect();
    failures.check(pops.len() == all.pops, || {
        format!("{} pops located, judder counts {}", pops.len(), all.pops)
    });
    let mut popped: BTreeSet<(u64, usize)> = BTreeSet::new();
    for pop in &pops {
        let span = expect.pops_allowed.iter().position(|&(f, t)| pop.at_ms >= f && pop.at_ms <= t);
        let once = span.is_some_and(|s| popped.insert((pop.entity.id, s)));
        failures.check(once, || {
            format!(
                "{} {} pops at {:.1} ms (tick {:.2}): drawn step {:.3} m, true {:.3} m{}",
                pop.entity.kind,
                pop.entity.id,
                pop.at_ms,
                pop.tick,
                pop.drawn_m,
                pop.true_m,
                if span.is_some() { ", a second time" } else { "" },
            )
        });
    }

    // Slides: only a walker drawn at its segment's average speed through the last tick
    // before its stop's measurement. The host sends a stop at the first tick it sees the
    // walker standing, so it stopped at an unknown moment of the tick before; a straight
    // segment at the average speed (the remote buffer's rules) still moves where the truth already
    // stands, a centimetre a frame for the last few frames. No other slide is allowed.
    let stops = stops(&run.generated);
    let slides: Vec<&Pair> =
        pairs.iter().filter(|p| !p.jumped && p.drawn_m > SLIDE_M && p.true_m == 0.0).collect();
    failures.check(slides.len() == all.slides, || {
        format!("{} slides located, judder counts {}", slides.len(), all.slides)
    });
    for slide in &slides {
        let walker_stop = slide.entity.kind == Kind::Walker.as_str()
            && stops.get(&slide.entity.id).is_some_and(|ticks| {
                ticks
                    .iter()
                    .any(|&s| slide.tick >= f64::from(s) - 1.0 && slide.tick <= f64::from(s))
            });
        failures.check(walker_stop, || {
            format!(
                "{} {} slides {:.4} m at {:.1} ms (tick {:.2}) while the truth stands",
                slide.entity.kind, slide.entity.id, slide.drawn_m, slide.at_ms, slide.tick
            )
        });
    }

    // An entity's delay never jumps: it slews at RENDER_DRIFT at most (the remote buffer's rules), and
    // an entity that arrives at its tier's period gets no gap delay, whose faster slew
    // (GAP_SLEW_TICKS_PER_SECOND) would show here.
    let drift = RENDER_DRIFT.to_num::<f64>();
    let fastest = pairs
        .iter()
        .map(|p| (p, p.delay_step_ticks.abs() / (p.dt_ms / f64::from(TICK_MS))))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((pair, rate)) = fastest {
        failures.check(rate <= drift + DRIFT_TOLERANCE, || {
            format!(
                "{} {}'s delay changes at {rate:.3} ticks a tick at {:.1} ms (at most {drift})",
                pair.entity.kind, pair.entity.id, pair.at_ms
            )
        });
    }
    failures.check(all.reversals == 0, || format!("{} steps against the motion", all.reversals));
    failures.check(all.misplaced == 0, || {
        format!("{} frames more than a metre off within a second of a jump", all.misplaced)
    });
    failures.check(all.early == 0, || {
        format!("{} frames drawn before the first measurement or after gone", all.early)
    });
    failures.check(report.all.entities == world.entities.len(), || {
        format!("{} of the {} entities drawn", report.all.entities, world.entities.len())
    });

    // The render tick's delay in the client's time, once the clock's first window is over.
    let link = &run.scenario.link;
    let settled_ms =
        run.generated.arrivals[0].at_us as f64 / MS_PER_S + f64::from(CLOCK_WINDOW_TICKS * TICK_MS);
    let delays: Vec<f64> = run
        .frames
        .iter()
        .filter(|f| f.at_ms >= settled_ms && !f.entities.is_empty())
        .map(|f| f.at_ms - link.client_ms_of_tick(f.render_tick))
        .collect();
    let render_delay = Summary::of(&delays).map_or(f64::NAN, |s| s.p50);
    let (least, most) = expect.render_delay_ms;
    failures.check(render_delay >= least && render_delay <= most, || {
        format!("median render delay {render_delay:.1} ms outside [{least:.1}, {most:.1}] ms")
    });

    // Each entity drawn its tier's delay behind the render tick, and no more (no gap delay
    // for an entity that arrives at its tier's period).
    if expect.fixed_tiers {
        for entity in &world.entities {
            let extra: Vec<f64> = run
                .frames
                .iter()
                .filter(|f| f.at_ms >= settled_ms)
                .filter_map(|f| {
                    f.entities.iter().find(|e| e.id == entity.id).map(|e| f.render_tick - e.tick)
                })
                .collect();
            let median = Summary::of(&extra).map_or(f64::NAN, |s| s.p50);
            let tier_delay = f64::from(entity.tier_at(0)) - 1.0;
            failures.check((median - tier_delay).abs() <= TIER_DELAY_TOLERANCE_TICKS, || {
                format!(
                    "entity {} (tier {}) is drawn {median:.3} ticks behind the render tick, not {tier_delay}",
                    entity.id,
                    entity.tier_at(0)
                )
            });
        }
    }

    let summary = numbers(run, render_delay);
    if failures.0.is_empty() {
        println!("{}: {}\n{summary}\n{report}", run.scenario.name, run.scenario.about);
    } else {
        panic!(
            "{} ({}): {} expectations failed:\n  - {}\n\n{summary}\n{report}",
            run.scenario.name,
            run.scenario.about,
            failures.0.len(),
            failures.0.join("\n  - "),
        );
    }
}

/// The measures of a run on one line per kind, for the test output.
fn numbers(run: &Run, render_delay_ms: f64) -> String {
    let mut out = format!("render delay p50 {render_delay_ms:.1} ms (client time)\n");
    for kind in ["vehicle", "walker"] {
        let Some(row) = run.report.kind(kind) else { continue };
        let t = &row.tally;
        let error = Summary::of(&t.position_errors_m);
        let delay = Summary::of(&t.delays_ms);
        out.push_str(&format!(
            "{kind}: off pace {:.2} %, error p50/p99/max {:.4}/{:.4}/{:.3} m, delay p50 {:.1} ms, \
             pops {}, slides {}, misplaced {}, early {}, reversals {}\n",
            t.off_pace_percent().unwrap_or(0.0),
            error.map_or(f64::NAN, |s| s.p50),
            error.map_or(f64::NAN, |s| s.p99),
            error.map_or(f64::NAN, |s| s.max),
            delay.map_or(f64::NAN, |s| s.p50),
            t.pops,
            t.slides,
            t.misplaced,
            t.early,
            t.reversals,
        ));
    }
    out
}

/// Holds `run` to the targets of a smooth client on its link.
fn assert_smooth(run: &Run) {
    assert_meets(run, &Expect::smooth(run.scenario.link.min_latency_ms));
}

fn smooth_scenario(name: &str) {
    assert_smooth(&run(name));
}

#[test]
fn steady_60() {
    smooth_scenario("steady-60");
}

#[test]
fn jitter_144() {
    smooth_scenario("jitter-144");
}

#[test]
fn loss_bursts() {
    let run = run("loss-bursts");
    let lost = run.generated.arrivals.iter().filter(|a| a.lost).count();
    assert!(lost >= 10, "the scenario loses snapshots ({lost})");
    let mut expect = Expect::smooth(run.scenario.link.min_latency_ms);
    expect.error_max_m = Some(LOSS_ERROR_MAX_M);
    assert_meets(&run, &expect);
}

#[test]
fn link_stalls() {
    let run = run("link-stalls");
    let link = &run.scenario.link;
    let mut expect = Expect::smooth(link.min_latency_ms);
    // How far past the newest measurement a stall leaves the render tick (ticks): the stall,
    // less the render delay's lead over the fastest arrival, less the extrapolation, which
    // carries the entity on (the remote buffer's rules) before it holds.
    let lead_ticks = (interp_delay_ms() + slack_ms() - link.min_latency_ms) / f64::from(TICK_MS);
    let blend_ticks = BLEND_MAX_TICKS;
    for stall in &link.stalls {
        let end = stall.at_ms + stall.for_ms;
        // Held back, every entity blends its difference away over up to BLEND_MAX_TICKS:
        // its pace is off meanwhile, and during the stall it extrapolates and holds, as
        // specified. The rest of the trace must be as smooth as ever.
        expect.recovering.push((stall.at_ms, end + blend_ticks * f64::from(TICK_MS)));
        let held_ticks =
            stall.for_ms / f64::from(TICK_MS) - lead_ticks - f64::from(MAX_EXTRAPOLATION_TICKS);
        // A blend at no more than BLEND_PACE_SHARE over the entity's pace, eased in and out,
        // needs this long; past BLEND_MAX_TICKS the difference is taken at once
        // (the remote buffer takes a difference of metres at once), a pop no client
        // within those rules avoids.
        let catch_up_ticks = SMOOTHSTEP_PEAK * held_ticks / f64::from(BLEND_PACE_SHARE);
        if catch_up_ticks > blend_ticks {
            expect.pops_allowed.push((end, end + POP_WINDOW_MS));
        }
    }
    assert_eq!(expect.pops_allowed.len(), 1, "only the 1.5 s stall is too long to blend");
    // Never further off than what the longest stall withheld beyond the extrapolation.
    let longest = link.stalls.iter().map(|s| s.for_ms).fold(0.0, f64::max);
    let held_s = (longest / f64::from(TICK_MS) - f64::from(MAX_EXTRAPOLATION_TICKS))
        * f64::from(TICK_MS)
        / MS_PER_S;
    expect.error_max_m = Some(TOP_VEHICLE_SPEED_M_S * held_s);
    assert_meets(&run, &expect);
}

#[test]
fn host_clock_fast() {
    let run = run("host-clock-fast");
    let mut expect = Expect::smooth(run.scenario.link.min_latency_ms);
    // A host clock faster than the clock's slow rise (CLOCK_SLEW, 0.5 %) leaves the
    // estimate behind until it is CLOCK_CATCH_UP_TICKS below the band, where it rises at
    // RENDER_DRIFT: it hovers up to that much later than the design.
    expect.render_delay_ms.1 += CLOCK_CATCH_UP_TICKS.to_num::<f64>() * f64::from(TICK_MS);
    assert_meets(&run, &expect);
}

#[test]
fn host_clock_slow() {
    let run = run("host-clock-slow");
    let mut expect = Expect::smooth(run.scenario.link.min_latency_ms);
    // With the host's clock slow, the oldest observation of the clock's window is the
    // largest offset, so the top of the window runs ahead of the host by the drift over the
    // window (4 s at 2 %: 80 ms) and the render delay is that much shorter than designed.
    // It must still leave a tick between the render tick and the fastest arrival, so that a
    // measurement lies beyond every tier-1 entity's drawn tick.
    expect.render_delay_ms.0 = run.scenario.link.min_latency_ms + f64::from(TICK_MS);
    assert_meets(&run, &expect);
}

#[test]
fn tier_changes() {
    let run = run("tier-changes");
    let changes: usize = run.generated.world.entities.iter().map(|e| e.tiers.len() - 1).sum();
    assert!(changes >= 18, "six entities change tier at least three times each ({changes})");
    let mut expect = Expect::smooth(run.scenario.link.min_latency_ms);
    // A tier change slews the entity's delay at RENDER_DRIFT, 3 % of a tick a tick, for up
    // to 10 s (the remote buffer's rules): every frame of a slew is 3 % off pace, and while the delay
    // is still short of a farther tier's the entity is drawn past its newest measurement for
    // part of every gap, extrapolated and then corrected. Those frames are what the
    // specification asks for; the vehicles' other frames (two of the five never change
    // tier) must be as smooth as ever.
    expect.vehicles_skip_slews = true;
    expect.walker_off_pace_percent = TIER_CHANGE_WALKER_OFF_PACE_PERCENT;
    expect.fixed_tiers = false;
    assert_meets(&run, &expect);
}

#[test]
fn vsync_missed() {
    smooth_scenario("vsync-missed");
}

#[test]
fn hitching_frames() {
    smooth_scenario("hitching-frames");
}

#[test]
fn uneven_frames() {
    smooth_scenario("uneven-frames");
}

#[test]
fn teleports_and_placements() {
    let run = run("teleports-and-placements");
    let jumps: u32 =
        run.generated.world.entities.iter().map(|e| e.states.last().map_or(0, |s| s.leg)).sum();
    assert!(jumps >= 8, "the town's entities jump and are placed ({jumps} legs)");
    assert_smooth(&run);
}

#[test]
fn appear_go_return() {
    let run = run("appear-go-return");
    // Judder's `early` counts frames drawn before a measurement or after gone; these say the
    // same of the three lives directly.
    let drawn_ticks = |id: u64| -> Vec<f64> {
        run.frames
            .iter()
            .filter_map(|f| f.entities.iter().find(|e| e.id == id))
            .map(|e| e.tick)
            .collect()
    };
    let appearing = drawn_ticks(9);
    assert!(
        appearing.first().is_some_and(|&t| t >= f64::from(APPEARS_AT_TICK)),
        "vehicle 9 is drawn from its first measurement at tick {APPEARS_AT_TICK} on: {:?}",
        appearing.first()
    );
    let going = drawn_ticks(8);
    assert!(
        going.iter().all(|&t| t < f64::from(GOES_AT_TICK)),
        "walker 8 is not drawn from tick {GOES_AT_TICK} on"
    );
    let returning = drawn_ticks(4);
    let (away, back) = (f64::from(AWAY_TICKS.0), f64::from(AWAY_TICKS.1));
    assert!(
        returning.iter().all(|&t| t < away || t >= back),
        "vehicle 4 is not drawn while it is away (ticks {away} to {back})"
    );
    assert!(returning.iter().any(|&t| t >= back), "vehicle 4 is drawn again once it is back");
    assert_smooth(&run);
}

/// Every scenario's generator output, twice: the same bytes. Different seeds, different
/// bytes.
#[test]
fn the_generator_is_deterministic() {
    let bytes = |s: &Scenario| {
        let generated = generate(s);
        let (mut trace, mut truth) = (Vec::new(), Vec::new());
        generated.write_trace(&mut trace).expect("writing to memory works");
        generated.write_truth(&mut truth).expect("writing to memory works");
        (trace, truth)
    };
    // One scenario of each random part: the town's tiers, the link's losses, the frames.
    for name in ["tier-changes", "loss-bursts", "uneven-frames"] {
        let s = scenario(name).expect("a scenario");
        let first = bytes(&s);
        let second = bytes(&s);
        assert!(first.0 == second.0, "{name}: two runs wrote different traces");
        assert!(first.1 == second.1, "{name}: two runs wrote different truths");
        let reseeded = Scenario { seed: s.seed ^ 1, ..s };
        assert!(bytes(&reseeded).0 != first.0, "{name}: another seed wrote the same trace");
    }
    let names: BTreeSet<&str> = scenarios().iter().map(|s| s.name).collect();
    assert_eq!(names.len(), scenarios().len(), "scenario names are unique");
}

/// What the files may differ by where one rounds a product of rounded numbers: a few
/// millionths.
const ROUNDING_TOLERANCE: f64 = 5e-6;

/// The written trace and truth of every scenario agree with each other and with the host's
/// rules: each measurement is the truth at its tick; an entity is sent at its tier's turns
/// while it moves, at once when it starts, stops, jumps, changes tier or appears, and not
/// while it rests; `gone` names those the truth loses; the truth steps only at ticks.
#[test]
fn truth_and_trace_agree() {
    for scenario in scenarios() {
        let name = scenario.name;
        let generated = generate(&scenario);
        let (mut trace, mut truth) = (Vec::new(), Vec::new());
        generated.write_trace(&mut trace).expect("writing to memory works");
        generated.write_truth(&mut truth).expect("writing to memory works");
        let truth: Vec<TruthLine> = std::str::from_utf8(&truth)
            .expect("UTF-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("a truth line"))
            .collect();
        let per_tick = (TICK_MS / TRUTH_STEP_MS) as usize;
        let at_tick = |tick: u32| &truth[tick as usize * per_tick];
        let tiers: BTreeMap<u64, &Entity> =
            generated.world.entities.iter().map(|e| (e.id, e)).collect();

        let mut lines = std::str::from_utf8(&trace).expect("UTF-8").lines();
        let header: Result<TraceHeaderLine, _> =
            serde_json::from_str(lines.next().expect("a header"));
        assert!(header.is_ok(), "{name}: the first line is the header");
        let (mut last_at, mut next_tick, mut frames) = (f64::NEG_INFINITY, 0, 0);
        for text in lines {
            let line: TraceEventLine = serde_json::from_str(text).expect("a trace line");
            let at_ms = line.at_ms;
            assert!(at_ms >= last_at, "{name}: events in time order");
            last_at = at_ms;
            if line.frame.is_some() {
                frames += 1;
                continue;
            }
            let snapshot = line.snapshot.expect("an event is a frame or a snapshot");
            let tick = snapshot.tick;
            assert_eq!(tick, next_tick, "{name}: one snapshot a tick, in order");
            next_tick += 1;
            let now = at_tick(tick);
            assert_eq!(now.t_ms, f64::from(tick * TICK_MS), "{name}: the truth has tick {tick}");
            let before = tick.checked_sub(1).map(at_tick);
            for e in &snapshot.entities {
                let truth = now.entities.iter().find(|t| t.id == e.id);
                let truth =
                    truth.unwrap_or_else(|| panic!("{name}: {} measured at {tick} exists", e.id));
                let what = format!("{name}: entity {} at tick {tick}", e.id);
                assert_eq!(e.pos, truth.pos, "{what}: position");
                assert!((e.yaw - truth.yaw).abs() <= ROUNDING_TOLERANCE, "{what}: yaw");
                assert_eq!(e.jumps, truth.jumps, "{what}: jumps");
                let speed = e.vel[0].hypot(e.vel[2]);
                assert!((speed - truth.speed).abs() <= ROUNDING_TOLERANCE, "{what}: speed");
                assert_eq!(e.at_rest, truth.speed == 0.0, "{what}: at rest");
                let along = [truth.speed * truth.yaw.cos(), 0.0, -truth.speed * truth.yaw.sin()];
                // The yaw is rounded too, which the speed multiplies.
                let tolerance = ROUNDING_TOLERANCE * (1.0 + truth.speed);
                for (v, a) in e.vel.iter().zip(along) {
                    assert!((v - a).abs() <= tolerance, "{what}: velocity along yaw");
                }
                let entity = tiers[&e.id];
                assert_eq!(e.tier, entity.tier_at(tick), "{what}: tier");
                assert_eq!(e.kind, entity.kind.as_str(), "{what}: kind");
            }
            // Who must be sent, and who must not.
            for t in &now.entities {
                let entity = tiers[&t.id];
                let sent = snapshot.entities.iter().any(|e| e.id == t.id);
                let was = before.and_then(|b| b.entities.iter().find(|p| p.id == t.id));
                let what = format!("{name}: entity {} at tick {tick}", t.id);
                let Some(was) = was else {
                    assert!(sent, "{what}: new, so sent at once");
                    continue;
                };
                let changed = (t.speed == 0.0) != (was.speed == 0.0)
                    || t.leg != was.leg
                    || entity.tier_at(tick) != entity.tier_at(tick - 1);
                let turn = t.speed != 0.0 && tick.is_multiple_of(u32::from(entity.tier_at(tick)));
                assert_eq!(sent, changed || turn, "{what}: sent by the host's rules");
            }
            let gone: Vec<u64> = before
                .map(|b| {
                    b.entities
                        .iter()
                        .filter(|p| !now.entities.iter().any(|t| t.id == p.id))
                        .map(|p| p.id)
                        .collect()
                })
                .unwrap_or_default();
            assert_eq!(snapshot.gone, gone, "{name}: gone at tick {tick}");
        }
        assert_eq!(next_tick, generated.world.ticks + 1, "{name}: every tick's snapshot");
        assert_eq!(frames, generated.frames_us.len(), "{name}: every frame");
        // The truth steps (a new leg) only on a tick's line.
        for (i, pair) in truth.windows(2).enumerate() {
            for t in &pair[1].entities {
                if let Some(p) = pair[0].entities.iter().find(|p| p.id == t.id)
                    && p.leg != t.leg
                {
                    assert_eq!((i + 1) % per_tick, 0, "{name}: entity {} steps off a tick", t.id);
                }
            }
        }
    }
}
