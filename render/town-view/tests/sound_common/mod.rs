//! What the sound tests share: the real town played headlessly (its bots, and a local player
//! holding keys), drawn at 60 Hz by its presentation; each drawn frame heard by the
//! soundscape and rendered offline for exactly the frame's duration, so frame `k` is shown at
//! the first sample of its block; and reading the mixed samples back (onsets, levels).
//!
//! Each test binary uses a different part of this module.
#![expect(dead_code, reason = "each test binary uses part of the shared helpers")]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_audio::{OfflineBackend, OfflineSettings, SAMPLE_RATE_HZ};
use fixstep_present::{Controls, Game, LocalGame, Presentation};
use fixstep_runtime::input::HeldInput as _;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_runtime::{Bot as _, Player, Simulation as _};
use fixstep_town::bots::TownBot;
use fixstep_town::level::Level;
use fixstep_town::predict::InputAccumulator;
use fixstep_town_view::assets::{default_level, load_level_file};
use fixstep_town_view::sound::{Sounds, TownSoundscape};
use fixstep_town_view::{DrawFrame, Town};

/// Frames a second the tests draw at: a common display.
pub const FPS: u64 = 60;

/// Microseconds in a second.
const MICROS: u64 = 1_000_000;

/// Samples in a millisecond.
pub const SAMPLES_PER_MS: usize = SAMPLE_RATE_HZ as usize / 1000;

/// The workspace's assets.
pub fn assets_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("assets")
}

/// The town's level.
pub fn town() -> Arc<Level> {
    let root = assets_root();
    Arc::new(load_level_file(&root, &default_level(&root)).expect("the town loads"))
}

/// The town's sounds.
pub fn sounds() -> Sounds {
    Sounds::load(&assets_root()).expect("the sounds load")
}

/// One drawn frame and the real time since the frame before.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// What it drew.
    pub frame: DrawFrame,
    /// Microseconds since the frame before.
    pub dt_micros: u64,
}

impl Drawn {
    /// [`Self::dt_micros`] in seconds.
    pub fn dt(&self) -> f32 {
        self.dt_micros as f32 / MICROS as f32
    }
}

/// The length of frame `k` at [`FPS`], µs: whole microseconds that add up to exact seconds.
fn frame_micros(k: u64) -> u64 {
    (k + 1) * MICROS / FPS - k * MICROS / FPS
}

/// What the local player holds from a time on: (ms, forward %, turn %, run).
pub type HeldFrom = (u64, i8, i8, bool);

/// A local player's held keys through a run: walks, turns, runs, stops.
pub const WALK_AND_RUN: &[HeldFrom] = &[
    (0, 0, -100, false),
    (700, 100, 0, false),
    (3500, 100, 0, true),
    (6500, 100, 40, false),
    (8200, 0, 0, false),
    (8900, 100, 0, true),
];

/// Plays the town for `seconds` with a local player holding `script` and `bots` bots, drawn
/// at [`FPS`] from the first frame on.
pub fn play_held(level: &Arc<Level>, script: &[HeldFrom], bots: usize, seconds: u64) -> Vec<Drawn> {
    let mut game = LocalGame::<Town>::held_by_player(level, 1, bots);
    let mut scheduler = FrameScheduler::new();
    let mut input = InputAccumulator::default();
    let mut out = Vec::new();
    let mut now_ms = 0;
    for k in 0..seconds * FPS {
        let dt = frame_micros(k);
        let held = script.iter().rev().find(|h| h.0 <= now_ms).copied().unwrap_or_default();
        let controls =
            Controls { forward: held.1, strafe: 0, turn: held.2, run: held.3, interact: false };
        let command = Town::held(&controls);
        input
            .run_frame(&mut scheduler, dt, &command, |command, partial| {
                game.step_own(&command, partial)
            })
            .expect("a tick runs");
        Presentation::<Town>::own_input(&mut game.presentation, &input.partial());
        let alpha = scheduler.alpha_millionths() as f32 / 1_000_000.0;
        let frame = game.presentation.draw(alpha, dt as f32 / MICROS as f32).clone();
        out.push(Drawn { frame, dt_micros: dt });
        now_ms += dt / 1000;
    }
    out
}

/// Plays the town with a bot as player 0 (the local player: it opens a door, takes a
/// teleport, talks to the mayor, ...), ticking headlessly until `start(snapshot)` holds, then
/// drawn at [`FPS`] for `seconds`.
pub fn play_bot_from(
    level: &Arc<Level>,
    start: impl Fn(&fixstep_town::GameSnapshot) -> bool,
    seconds: u64,
) -> Vec<Drawn> {
    let mut game = LocalGame::<Town>::new(level, 1, 1, Player(0));
    let mut bot = TownBot::new(Player(0), level);
    let step = |game: &mut LocalGame<Town>, bot: &mut TownBot| {
        let command = bot.command(game.sim.snapshot());
        game.step(&[command]).expect("a tick runs");
    };
    for _ in 0..20_000 {
        if start(game.sim.snapshot()) {
            break;
        }
        step(&mut game, &mut bot);
    }
    assert!(start(game.sim.snapshot()), "the bot never got there");
    let mut scheduler = FrameScheduler::new();
    let mut out = Vec::new();
    for k in 0..seconds * FPS {
        let dt = frame_micros(k);
        for _ in 0..scheduler.advance(dt).run {
            step(&mut game, &mut bot);
        }
        let alpha = scheduler.alpha_millionths() as f32 / 1_000_000.0;
        let frame = game.presentation.draw(alpha, dt as f32 / MICROS as f32).clone();
        out.push(Drawn { frame, dt_micros: dt });
    }
    out
}

/// The three volumes.
#[derive(Clone, Copy, Debug)]
pub struct Volumes {
    pub master: f32,
    pub effects: f32,
    pub ambience: f32,
}

/// Everything at full volume.
pub const FULL: Volumes = Volumes { master: 1.0, effects: 1.0, ambience: 1.0 };

/// Effects only: the ambience (the fountain, birds, crickets) at zero.
pub const EFFECTS_ONLY: Volumes = Volumes { master: 1.0, effects: 1.0, ambience: 0.0 };

/// A rendered mix: interleaved stereo samples, and the first sample of each frame.
#[derive(Clone, Debug)]
pub struct Mix {
    /// Left, right, left, right...
    pub samples: Vec<f32>,
    /// Frame `k` is shown at stereo frame `starts[k]`.
    pub starts: Vec<usize>,
}

impl Mix {
    /// Each stereo frame's energy: left² + right².
    pub fn energy(&self) -> Vec<f32> {
        self.samples.chunks_exact(2).map(|s| s[0] * s[0] + s[1] * s[1]).collect()
    }

    /// Stereo frames.
    pub fn len(&self) -> usize {
        self.samples.len() / 2
    }

    /// The mix minus `other`, sample by sample.
    pub fn minus(&self, other: &Self) -> Self {
        assert_eq!(self.samples.len(), other.samples.len());
        let samples = self.samples.iter().zip(&other.samples).map(|(a, b)| a - b).collect();
        Self { samples, starts: self.starts.clone() }
    }

    /// Left and right averaged.
    pub fn mono(&self) -> Vec<f32> {
        self.samples.chunks_exact(2).map(|s| 0.5 * (s[0] + s[1])).collect()
    }
}

/// Hears `frames` with `sounds` at `volumes`, each frame first passed through `edit` (which
/// may leave out what a test does not listen to), and renders each frame's duration.
pub fn render(
    level: &Arc<Level>,
    sounds: &Sounds,
    volumes: Volumes,
    frames: &[Drawn],
    mut edit: impl FnMut(usize, &mut DrawFrame),
) -> Mix {
    let mut sound = TownSoundscape::<OfflineBackend>::new(level, sounds, OfflineSettings)
        .expect("the mixer starts");
    sound.set_volumes(volumes.master, volumes.effects, volumes.ambience);
    let mut samples = Vec::new();
    let mut starts = Vec::with_capacity(frames.len());
    let mut micros = 0;
    let mut frame = DrawFrame::default();
    for (k, drawn) in frames.iter().enumerate() {
        frame.clone_from(&drawn.frame);
        edit(k, &mut frame);
        sound.update(&frame, drawn.dt());
        let start = samples.len() / 2;
        starts.push(start);
        micros += drawn.dt_micros;
        let end = (micros * u64::from(SAMPLE_RATE_HZ) / MICROS) as usize;
        sound.backend_mut().expect("sounding").render(end - start, &mut samples);
    }
    Mix { samples, starts }
}

/// Onsets: where the energy of a 1 ms window rises above `floor` and to at least
/// `rise` times the loudest of the `lookback_ms` windows before it (longer than a period of
/// the lowest note listened for, so a low tone's own swell is no onset), refined to the first sample of
/// the window (or the one before) that reaches a fifth of the loudest sample of the 2 ms from
/// there. Stereo frame indices.
pub fn onsets(energy: &[f32], floor: f32, rise: f32, lookback_ms: usize) -> Vec<usize> {
    let w = SAMPLES_PER_MS;
    let windows: Vec<f32> = energy.chunks(w).map(|c| c.iter().sum::<f32>() / w as f32).collect();
    let mut out = Vec::new();
    let mut last: Option<usize> = None;
    for i in 0..windows.len() {
        let before = windows[i.saturating_sub(lookback_ms)..i].iter().copied().fold(0.0, f32::max);
        if windows[i] <= floor || windows[i] < rise * before {
            continue;
        }
        // One onset per rise: the windows after a rise keep rising for a sample or two.
        if last.is_some_and(|l| i <= l + lookback_ms) {
            continue;
        }
        last = Some(i);
        let from = i.saturating_sub(1) * w;
        let peak =
            energy[from..(from + 3 * w).min(energy.len())].iter().copied().fold(0.0, f32::max);
        let at = (from..energy.len()).find(|&s| energy[s] >= peak / 25.0).unwrap_or(from);
        out.push(at);
    }
    out
}

/// The `q` quantile of `values` (sorted in place).
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    if values.is_empty() {
        return 0.0;
    }
    values[((values.len() - 1) as f64 * q).round() as usize]
}

/// Milliseconds in `samples` stereo frames.
pub fn ms(samples: f64) -> f64 {
    samples / SAMPLES_PER_MS as f64
}

/// Onsets heard against events drawn, both as stereo frame indices.
#[derive(Clone, Debug, Default)]
pub struct Matched {
    /// How far each onset heard was from its nearest event, ms.
    pub offsets_ms: Vec<f64>,
    /// Onsets with no event within the tolerance (ms from the start).
    pub unexplained_ms: Vec<f64>,
    /// Events with no onset within the tolerance (ms from the start).
    pub missing_ms: Vec<f64>,
}

/// Matches `heard` onsets with `drawn` events, each within `within_ms`.
pub fn match_onsets(drawn: &[usize], heard: &[usize], within_ms: f64) -> Matched {
    let tolerance = within_ms * SAMPLES_PER_MS as f64;
    let gap = |a: usize, b: usize| (a as f64 - b as f64).abs();
    let mut m = Matched::default();
    for &h in heard {
        match drawn.iter().map(|&d| gap(h, d)).min_by(f64::total_cmp) {
            Some(g) if g <= tolerance => m.offsets_ms.push(ms(g)),
            _ => m.unexplained_ms.push(ms(h as f64)),
        }
    }
    for &d in drawn {
        if !heard.iter().any(|&h| gap(h, d) <= tolerance) {
            m.missing_ms.push(ms(d as f64));
        }
    }
    m
}

/// Leaves only what `keep` says in a frame: `'c'` characters, `'t'` taxis, `'o'` objects,
/// `'d'` the dialogue.
pub fn keep_only(frame: &mut DrawFrame, keep: &str) {
    if !keep.contains('c') {
        frame.characters.clear();
    }
    if !keep.contains('t') {
        frame.taxis.clear();
    }
    if !keep.contains('o') {
        frame.objects.clear();
    }
    if !keep.contains('d') {
        frame.dialogue = None;
    }
}
