//! Plays the town in real time on the sound card, for a number of seconds (10 unless given):
//! three bots and a local player walking and running, drawn at 60 Hz with nothing on screen.
//! Prints how busy the audio thread was: the time it spent mixing over the time it played,
//! and its CPU time as the system counts it.
//!
//! `FIXSTEP_AUDIO_DEVICE` names the ALSA device (`default` unless set); on a machine without
//! a sound card, `FIXSTEP_AUDIO_DEVICE=null` runs the audio thread as a sound card would,
//! into ALSA's device that plays nothing:
//!
//! ```text
//! FIXSTEP_AUDIO_DEVICE=null cargo run --release -p fixstep-town-view --features sound --example listen -- 10
//! ```

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fixstep_audio::DeviceSettings;
use fixstep_present::{Controls, Game, LocalGame, Presentation};
use fixstep_runtime::input::HeldInput as _;
use fixstep_runtime::tick::FrameScheduler;
use fixstep_town::predict::InputAccumulator;
use fixstep_town_view::Town;
use fixstep_town_view::assets::{default_level, load_level_file};
use fixstep_town_view::sound::{Sounds, TownSoundscape};

/// Frames a second drawn.
const FPS: u32 = 60;

/// Clock ticks a second of Linux's per-thread CPU times (`USER_HZ`).
const USER_HZ: f64 = 100.0;

/// The CPU seconds (user and system) of this process's thread named `name`, from /proc.
fn thread_cpu_s(name: &str) -> Option<f64> {
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    for task in tasks.flatten() {
        let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
        let (comm, rest) = stat.split_once(") ")?;
        if comm.ends_with(&format!("({name}")) {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // After the state: utime and stime are the 12th and 13th fields.
            let ticks: f64 = fields.get(11..13)?.iter().filter_map(|f| f.parse::<f64>().ok()).sum();
            return Some(ticks / USER_HZ);
        }
    }
    None
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: u32 = std::env::args().nth(1).map_or(Ok(10), |s| s.parse())?;
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let level = Arc::new(load_level_file(&assets, &default_level(&assets))?);
    let sounds = Sounds::load(&assets)?;
    let device = DeviceSettings::from_env();
    let mut sound = TownSoundscape::open(&level, &sounds, &device);
    if sound.off().is_some() {
        return Ok(());
    }
    let mut game = LocalGame::<Town>::held_by_player(&level, 1, 3);
    let mut scheduler = FrameScheduler::new();
    let mut input = InputAccumulator::default();
    let frame_time = Duration::from_micros(1_000_000 / u64::from(FPS));
    let started = Instant::now();
    let mut last = started;
    for k in 0..seconds * FPS {
        let controls = Controls { forward: 100, run: k > 3 * FPS, turn: 20, ..Controls::default() };
        let dt = last.elapsed();
        last = Instant::now();
        let command = Town::held(&controls);
        let micros = u64::try_from(dt.as_micros())?;
        input.run_frame(&mut scheduler, micros, &command, |c, p| game.step_own(&c, p))?;
        Presentation::<Town>::own_input(&mut game.presentation, &input.partial());
        let alpha = scheduler.alpha_millionths() as f32 / 1e6;
        let frame = game.presentation.draw(alpha, dt.as_secs_f32());
        sound.update(frame, dt.as_secs_f32());
        if let Some(rest) = (started + frame_time * (k + 1)).checked_duration_since(Instant::now())
        {
            std::thread::sleep(rest);
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = thread_cpu_s("fixstep-audio");
    let load = sound.load().unwrap_or_default();
    println!(
        "sound on {:?}: {:.2} s played in {wall:.2} s; mixing took {:.2} % of a core; the audio \
         thread's CPU time {}",
        device.device,
        load.rendered_s,
        load.share() * 100.0,
        cpu.map_or("unknown".into(), |c| format!(
            "{:.2} s, {:.2} % of a core",
            c,
            c / wall * 100.0
        )),
    );
    Ok(())
}
