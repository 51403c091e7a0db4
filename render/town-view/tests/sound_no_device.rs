//! Without a sound device the game plays on silent, never panics, and says why once. The
//! soundscape is opened on an ALSA device that does not exist, three times, in a child
//! process whose log (its tracing events, printed on stderr as a program prints them) is
//! read: one line, "sound: off: …". ALSA's null device, which takes
//! samples and plays none, shows the audio thread running and stopping.

mod sound_common;

use std::process::Command;

use fixstep_audio::output::device::{DEVICE_ENV, DEVICE_OFF};
use fixstep_audio::{DeviceSettings, SoundError};
use fixstep_town_view::sound::TownSoundscape;
use sound_common::{Drawn, WALK_AND_RUN, play_held, sounds, town};

/// Set in the child process: it plays instead of checking.
const CHILD: &str = "FIXSTEP_AUDIO_TEST_CHILD";

/// Opens the soundscape on `device` three times and plays a second of the town on each.
fn play_on(device: &DeviceSettings, frames: &[Drawn]) -> Vec<Option<String>> {
    let level = town();
    let sounds = sounds();
    (0..3)
        .map(|_| {
            let mut sound = TownSoundscape::open(&level, &sounds, device);
            sound.set_volumes(0.8, 1.0, 0.7);
            for drawn in frames {
                sound.update(&drawn.frame, drawn.dt());
            }
            sound.click();
            sound.off().map(ToString::to_string)
        })
        .collect()
}

/// This test run again in a child process, with `env` set; its stderr.
fn child(test: &str, env: &[(&str, &str)]) -> String {
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .envs(env.iter().copied())
        .output()
        .expect("the child runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "the child failed:\n{stderr}");
    stderr
}

#[test]
fn without_a_device_the_town_plays_silent_and_says_so_once() {
    let test = "without_a_device_the_town_plays_silent_and_says_so_once";
    if std::env::var_os(CHILD).is_some() {
        // The events' messages alone, one a line, as the program's subscriber prints them.
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .without_time()
            .with_level(false)
            .with_target(false)
            .with_ansi(false)
            .init();
        let frames = play_held(&town(), WALK_AND_RUN, 1, 1);
        let device = DeviceSettings::from_env();
        for off in play_on(&device, &frames) {
            assert!(off.is_some(), "{device:?} should not open");
        }
        return;
    }
    for (device, why) in [
        ("fixstep-no-such-device", "sound: off: "),
        (DEVICE_OFF, "sound: off: turned off (FIXSTEP_AUDIO_DEVICE=off)"),
    ] {
        let stderr = child(test, &[(DEVICE_ENV, device)]);
        // Nothing else either: ALSA's own messages are kept quiet.
        let said: Vec<&str> = stderr.lines().collect();
        println!("{device}: {said:?}");
        assert_eq!(said.len(), 1, "said once, in one line, and nothing else:\n{stderr}");
        assert!(said[0].starts_with(why), "{}", said[0]);
    }
}

#[test]
fn on_alsa_null_device_the_audio_thread_renders_and_stops() {
    let level = town();
    let sounds = sounds();
    let mut sound = TownSoundscape::open(&level, &sounds, &DeviceSettings::named("null"));
    if let Some(SoundError::NoLibrary(why)) = sound.off() {
        println!("skipped: no ALSA library here ({why})");
        return;
    }
    assert!(sound.off().is_none(), "ALSA's null device opens: {:?}", sound.off());
    let frames = play_held(&level, WALK_AND_RUN, 1, 1);
    let started = std::time::Instant::now();
    for drawn in &frames {
        sound.update(&drawn.frame, drawn.dt());
        std::thread::sleep(std::time::Duration::from_micros(drawn.dt_micros));
    }
    let load = sound.load().expect("sounding");
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "null device: {:.3} s rendered in {elapsed:.3} s, busy {:.1} %",
        load.rendered_s,
        load.share() * 100.0
    );
    // Never ahead of real time by more than the latency (ALSA's null device would take
    // samples as fast as they come). An unoptimised build mixes slower than real time, so how
    // far behind is not judged here: the bench measures the mix's share of a core.
    assert!(load.rendered_s > 0.0 && load.rendered_s < elapsed + 0.1, "{load:?} in {elapsed} s");
    let stopping = std::time::Instant::now();
    drop(sound);
    let stopped = stopping.elapsed().as_secs_f64();
    assert!(stopped < 0.5, "the audio thread took {stopped} s to stop");
}
