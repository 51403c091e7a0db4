//! What a replay costs: its bytes, the recorder's share of a tick, and how long a seek takes,
//! with keyframes and without.
//!
//! A replay keeps every tick's changed commands and hash, and a keyframe (the whole state,
//! packed) every so many ticks, so that a seek restores the last keyframe at or before its
//! tick and runs at most an interval of ticks from there. The interval trades the file's size
//! against the longest seek; this bench gives both sides of that trade.
//!
//! Setup, before anything is timed, prints once:
//! - for an hour of the town (36,000 ticks, 8 bots walking, seed 1), recorded with a keyframe
//!   every 300 ticks and with none after the start: each file's size (bytes, and MB an hour,
//!   1 MB being 10^6 bytes), its keyframes' average size, and the time a tick took with the
//!   recording against the same hour played without it (bots, tick and state hash in both, as
//!   every game hashes its ticks; the fastest of five passes each, taken in turn): the ratio,
//!   and the recorder's own µs a tick, timed around its calls in the same pass, which a shared
//!   machine disturbs least;
//! - for the stress level (10,000 pedestrians, 1,000 taxis, 2,000 objects, 8 bots), recorded
//!   for 2,000 ticks with a keyframe every 100, 300 and 1,000 ticks: one keyframe's size, and
//!   MB an hour extrapolated for each interval.
//!
//! Criterion then times, every seek into one simulation made before the timed loop and reused
//! (a seek replaces its state whatever it held, so making one is not part of a seek):
//! - `town_hour_seek/keyframes_300/tick_N`: a seek to tick 0, the middle (18,000), the worst
//!   case (35,999: 299 ticks after a keyframe) and the end (36,000) of the hour. Ticks 0,
//!   18,000 and 36,000 fall on keyframes, so they time restoring one alone;
//! - `town_hour_seek_slow/no_keyframes/tick_36000`: a seek to the end of the hour without
//!   keyframes, which runs every tick of it;
//! - `town_hour_open/*`: [`ReplayFile::open`] of each hour, the reader's pass that checks
//!   every record;
//! - `stress_seek/keyframes_I/tick_T`: a seek on the stress level to the worst case of each
//!   interval I (T = 2I - 1, the tick before the third keyframe: I - 1 ticks after the second),
//!   and to the keyframe at tick 100 alone.
//!
//! Run with `cargo bench -p fixstep-town-view --bench replay_seek`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::replay::{
    KEYFRAME_EVERY_TICKS, RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder,
};
use fixstep_runtime::{Bot as _, Player, Rules as _, Simulation, StateHasher, Tick, TickRecord};
use fixstep_town::level::{Level, load_clips, stress_level};
use fixstep_town::{PlayerCommand, TownSim};
use fixstep_town_view::Town;

/// Players, each driven by a bot: a full room of friends.
const PLAYERS: usize = 8;

/// Seed of the simulation's random numbers, as `fixstep sim` defaults to.
const SEED: u64 = 1;

/// Ticks in an hour of play: 3,600 s at 100 ms a tick.
const HOUR_TICKS: u32 = 36_000;

/// The middle of the hour, ticks: half of [`HOUR_TICKS`].
const MIDDLE_TICK: u32 = HOUR_TICKS / 2;

/// Keyframe interval, ticks, that writes no keyframe after the start's: a replay as the
/// formats before keyframes were, which a seek plays from the start.
const NO_KEYFRAMES: u32 = u32::MAX;

/// The town's level file, under the assets.
const TOWN_LEVEL: &str = "levels/town.ron";

/// The animation clips the stress level is built with, under the assets.
const CLIP_FILE: &str = "animations/humanoid.ron";

/// Ticks of the stress level recorded, 200 s: twice the longest interval in
/// [`STRESS_INTERVALS`], so every interval has a keyframe after the start's with a whole
/// interval of ticks after it. At about 2 ms a tick the setup plays it in a few seconds.
const STRESS_TICKS: u32 = 2_000;

/// Keyframe intervals tried on the stress level, ticks: 10 s, the default 30 s, and 100 s.
const STRESS_INTERVALS: [u32; 3] = [100, KEYFRAME_EVERY_TICKS, 1_000];

/// A keyframe of the stress level seeked to alone, tick: the second of the 100-tick
/// interval's, a state 10 s in rather than the start's.
const STRESS_KEYFRAME_TICK: u32 = 100;

/// Times the hour of the town is played each way for the recording's cost, the fastest
/// counting: a pass takes about 0.2 s, and the machine may be shared.
const TIMING_PASSES: usize = 5;

/// Bytes in a megabyte (decimal, as file sizes are given).
const BYTES_PER_MB: f64 = 1e6;

/// Samples per benchmark: the fewest criterion takes, as the slowest seeks take seconds.
const SAMPLES: usize = 10;

/// Warm-up before each benchmark, seconds.
const WARM_UP: Duration = Duration::from_secs(2);

/// Measurement time of the fast benchmarks (a keyframe's restore, an open), seconds: ten
/// samples of many iterations each.
const MEASUREMENT: Duration = Duration::from_secs(4);

/// Measurement time of the seeks that run an hour of ticks or a stress interval, seconds:
/// ten samples of one iteration each, at up to about 2 s an iteration.
const SLOW_MEASUREMENT: Duration = Duration::from_secs(20);

/// A match as the setup played it.
struct Played {
    /// One replay for each interval asked for, in that order.
    replays: Vec<Vec<u8>>,
    /// The total of the state's hash at each tick (index t: the state whose next tick is t),
    /// from the start to the end: what a seek must land on.
    hashes: Vec<u64>,
    /// The whole pass: bots, ticks, hashes and recorders.
    elapsed: Duration,
    /// Each recorder's time over the whole pass (its tick records and keyframes).
    recording: Vec<Duration>,
    /// Each recorder's longest tick: one that wrote a keyframe.
    longest: Vec<Duration>,
}

/// Plays `ticks` ticks of `level` with a bot in each of [`PLAYERS`] seats, hashing every
/// tick, and records it into one replay for each keyframe interval in `intervals` (none when
/// it is empty, for the time the match takes unrecorded).
fn play(level: &Arc<Level>, files: &ContentFiles, ticks: u32, intervals: &[u32]) -> Played {
    let started = Instant::now();
    let mut sim = Town::new_sim(level, SEED, PLAYERS);
    let mut bots: Vec<_> = Player::all(PLAYERS).map(|p| Town::bot(level, p)).collect();
    let header =
        ReplayHeader::of(&sim, Town::content_title(level), Some(SEED), RecordedBy::Local, 0);
    let mut recorders: Vec<ReplayRecorder<TownSim, Vec<u8>>> = intervals
        .iter()
        .map(|&every| {
            ReplayRecorder::start(Vec::new(), &header, files, &sim, every).expect("records")
        })
        .collect();
    let mut recording = vec![Duration::ZERO; intervals.len()];
    let mut longest = vec![Duration::ZERO; intervals.len()];
    let mut hashes = vec![sim.state_hash().total()];
    let mut hasher = StateHasher::new();
    let mut commands: Vec<PlayerCommand> = Vec::with_capacity(PLAYERS);
    for _ in 0..ticks {
        let tick = sim.next_tick();
        commands.clear();
        commands.extend(bots.iter_mut().map(|bot| bot.command(sim.snapshot())));
        sim.step(tick, &commands).expect("a tick runs");
        sim.hash_state(&mut hasher);
        let hash = hasher.finish_reuse().total();
        hashes.push(hash);
        for ((recorder, total), max) in recorders.iter_mut().zip(&mut recording).zip(&mut longest) {
            let before = Instant::now();
            let record = TickRecord::new(tick, commands.clone());
            recorder.tick(&record, hash, &sim).expect("records");
            let took = before.elapsed();
            *total += took;
            *max = (*max).max(took);
        }
    }
    let replays = recorders.into_iter().map(|r| r.finish().expect("written")).collect();
    Played { replays, hashes, elapsed: started.elapsed(), recording, longest }
}

/// The hour of the town played [`TIMING_PASSES`] times each unrecorded, recorded with a
/// keyframe every [`KEYFRAME_EVERY_TICKS`] and recorded with none, in turn so that whatever
/// else the machine runs falls on all three alike: the fastest pass of each.
fn fastest_hours(level: &Arc<Level>, files: &ContentFiles) -> [Played; 3] {
    let mut fastest: [Option<Played>; 3] = [None, None, None];
    for _ in 0..TIMING_PASSES {
        for (best, intervals) in
            fastest.iter_mut().zip([&[][..], &[KEYFRAME_EVERY_TICKS], &[NO_KEYFRAMES]])
        {
            let played = play(level, files, HOUR_TICKS, intervals);
            if best.as_ref().is_none_or(|b| played.elapsed < b.elapsed) {
                *best = Some(played);
            }
        }
    }
    fastest.map(|p| p.expect("at least one pass"))
}

/// The bytes a replay of `level` holds before its first tick: signature, header, content and
/// the start's keyframe.
fn start_bytes(level: &Arc<Level>, files: &ContentFiles) -> usize {
    let sim = Town::new_sim(level, SEED, PLAYERS);
    let header =
        ReplayHeader::of(&sim, Town::content_title(level), Some(SEED), RecordedBy::Local, 0);
    let recorder = ReplayRecorder::start(Vec::new(), &header, files, &sim, NO_KEYFRAMES);
    recorder.expect("records").finish().expect("written").len()
}

/// What a replay's bytes are made of, from a recording with keyframes and one without.
struct Sizes {
    /// Bytes before the first tick.
    start: usize,
    /// A tick's record, bytes on average: commands that changed and the hash.
    tick: f64,
    /// Keyframes after the start's.
    keyframes: usize,
    /// A keyframe's record, bytes on average.
    keyframe: f64,
}

impl Sizes {
    /// The sizes of `with` (keyframes) against `without` (none after the start), both of
    /// `ticks` ticks, the start being `start` bytes.
    fn of(start: usize, ticks: u32, with: &[u8], without: &[u8]) -> Self {
        let replay = ReplayFile::<PlayerCommand>::open(with.to_vec()).expect("opens");
        let keyframes = replay.keyframe_ticks().count() - 1;
        Self {
            start,
            tick: (without.len() - start) as f64 / f64::from(ticks),
            keyframes,
            keyframe: (with.len() - without.len()) as f64 / keyframes as f64,
        }
    }

    /// Megabytes an hour of play takes with a keyframe every `interval` ticks.
    fn mb_per_hour(&self, interval: u32) -> f64 {
        let keyframes = f64::from(HOUR_TICKS / interval);
        (self.start as f64 + self.tick * f64::from(HOUR_TICKS) + self.keyframe * keyframes)
            / BYTES_PER_MB
    }
}

/// Microseconds a tick, over `ticks` ticks taking `time`.
fn micros_per_tick(time: Duration, ticks: u32) -> f64 {
    time.as_secs_f64() * 1e6 / f64::from(ticks)
}

/// A simulation of `level`, put at `tick` of `replay`, checked against the hash played there.
fn check_seek(replay: &ReplayFile<PlayerCommand>, sim: &mut TownSim, tick: u32, hashes: &[u64]) {
    replay.seek(sim, Tick(tick)).expect("seeks");
    assert_eq!(sim.next_tick(), Tick(tick), "the seek lands on its tick");
    assert_eq!(sim.state_hash().total(), hashes[tick as usize], "tick {tick} as played");
}

/// An hour of the town: its figures, its seeks and its open.
fn town_hour(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let level = Town::load_content(&assets, &assets.join(TOWN_LEVEL)).expect("the town loads");
    let level = Arc::new(level);
    let files = Town::content_files(&level);
    let [plain, keyed, bare] = fastest_hours(&level, files);
    assert_eq!(plain.hashes, keyed.hashes, "the same hour each time");
    assert_eq!(plain.hashes, bare.hashes, "the same hour each time");
    let (with, without) = (&keyed.replays[0], &bare.replays[0]);
    let sizes = Sizes::of(start_bytes(&level, files), HOUR_TICKS, with, without);
    let plain_us = micros_per_tick(plain.elapsed, HOUR_TICKS);
    let mut report = format!(
        "town, an hour ({HOUR_TICKS} ticks, {PLAYERS} bots), fastest of {TIMING_PASSES} passes \
         each:\n  start (header, content, first keyframe) {} B; a tick {:.1} B on average; a \
         keyframe {:.0} B on average ({} after the start's)\n  played without recording: \
         {plain_us:.2} µs a tick\n",
        sizes.start, sizes.tick, sizes.keyframe, sizes.keyframes,
    );
    for (name, played) in [("keyframes every 300", &keyed), ("no keyframes", &bare)] {
        let bytes = played.replays[0].len();
        let recorded_us = micros_per_tick(played.elapsed, HOUR_TICKS);
        let recorder_us = micros_per_tick(played.recording[0], HOUR_TICKS);
        writeln!(
            report,
            "  {name}: {bytes} B = {:.3} MB an hour; recorded {recorded_us:.2} µs a tick = \
             {:.3} x unrecorded; the recorder's own {recorder_us:.2} µs a tick = {:.3} x the \
             rest of the tick in the same pass, {:.0} µs its longest tick",
            bytes as f64 / BYTES_PER_MB,
            recorded_us / plain_us,
            recorder_us / (recorded_us - recorder_us),
            played.longest[0].as_secs_f64() * 1e6,
        )
        .expect("a string takes it");
    }
    println!("{report}");

    let with = ReplayFile::<PlayerCommand>::open(with.clone()).expect("opens");
    let without = ReplayFile::<PlayerCommand>::open(without.clone()).expect("opens");
    let worst = HOUR_TICKS - 1;
    let mut sim = Town::new_sim(&level, SEED, PLAYERS);
    for tick in [0, MIDDLE_TICK, worst, HOUR_TICKS] {
        check_seek(&with, &mut sim, tick, &plain.hashes);
    }
    check_seek(&without, &mut sim, HOUR_TICKS, &plain.hashes);

    let mut group = c.benchmark_group("town_hour_seek");
    for tick in [0, MIDDLE_TICK, worst, HOUR_TICKS] {
        group.bench_function(format!("keyframes_300/tick_{tick}"), |b| {
            b.iter(|| black_box(with.seek(&mut sim, black_box(Tick(tick))).expect("seeks")));
        });
    }
    group.finish();
    let mut group = c.benchmark_group("town_hour_seek_slow");
    group.sampling_mode(SamplingMode::Flat).measurement_time(SLOW_MEASUREMENT);
    group.bench_function(format!("no_keyframes/tick_{HOUR_TICKS}"), |b| {
        b.iter(|| black_box(without.seek(&mut sim, black_box(Tick(HOUR_TICKS))).expect("seeks")));
    });
    group.finish();
    let mut group = c.benchmark_group("town_hour_open");
    for (name, replay) in [("keyframes_300", &with), ("no_keyframes", &without)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || replay.bytes().to_vec(),
                |bytes| black_box(ReplayFile::<PlayerCommand>::open(bytes).expect("opens")),
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

/// The stress level: its keyframes' sizes and worst seeks at each interval.
fn stress(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let clips = load_clips(&assets, CLIP_FILE).expect("clips load");
    let level = Arc::new(stress_level(clips));
    // A generated level: no files to carry.
    let files = ContentFiles::default();
    let mut intervals = STRESS_INTERVALS.to_vec();
    intervals.push(NO_KEYFRAMES);
    let played = play(&level, &files, STRESS_TICKS, &intervals);
    let start = start_bytes(&level, &files);
    let without = &played.replays[STRESS_INTERVALS.len()];
    let mut report = format!(
        "stress level, {STRESS_TICKS} ticks, {PLAYERS} bots: {:.0} µs a tick played and \
         recorded four times over; start {start} B; without keyframes {} B\n",
        micros_per_tick(played.elapsed, STRESS_TICKS),
        without.len(),
    );
    let mut replays = Vec::new();
    for (i, &interval) in STRESS_INTERVALS.iter().enumerate() {
        let with = &played.replays[i];
        let sizes = Sizes::of(start, STRESS_TICKS, with, without);
        writeln!(
            report,
            "  keyframes every {interval}: {} B; a keyframe {:.0} B on average ({} after the \
             start's), a tick {:.1} B; {:.1} MB an hour extrapolated; the recorder's longest \
             tick {:.1} ms",
            with.len(),
            sizes.keyframe,
            sizes.keyframes,
            sizes.tick,
            sizes.mb_per_hour(interval),
            played.longest[i].as_secs_f64() * 1e3,
        )
        .expect("a string takes it");
        replays.push(ReplayFile::<PlayerCommand>::open(with.clone()).expect("opens"));
    }
    println!("{report}");

    let mut sim = Town::new_sim(&level, SEED, PLAYERS);
    check_seek(&replays[0], &mut sim, STRESS_KEYFRAME_TICK, &played.hashes);
    for (replay, interval) in replays.iter().zip(STRESS_INTERVALS) {
        check_seek(replay, &mut sim, 2 * interval - 1, &played.hashes);
    }
    let mut group = c.benchmark_group("stress_seek");
    group.bench_function(format!("keyframes_100/tick_{STRESS_KEYFRAME_TICK}"), |b| {
        b.iter(|| {
            black_box(
                replays[0].seek(&mut sim, black_box(Tick(STRESS_KEYFRAME_TICK))).expect("seeks"),
            )
        });
    });
    // The settings apply to the benchmarks after them: the worst seeks run up to an interval.
    group.sampling_mode(SamplingMode::Flat).measurement_time(SLOW_MEASUREMENT);
    for (replay, interval) in replays.iter().zip(STRESS_INTERVALS) {
        let tick = 2 * interval - 1;
        group.bench_function(format!("keyframes_{interval}/tick_{tick}"), |b| {
            b.iter(|| black_box(replay.seek(&mut sim, black_box(Tick(tick))).expect("seeks")));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(SAMPLES)
        .warm_up_time(WARM_UP)
        .measurement_time(MEASUREMENT);
    targets = town_hour, stress
}
criterion_main!(benches);
