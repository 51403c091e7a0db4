//! A menu click sounds at once: in the first milliseconds of the next render.

mod sound_common;

use fixstep_audio::{OfflineBackend, OfflineSettings};
use fixstep_town_view::DrawFrame;
use fixstep_town_view::sound::TownSoundscape;
use sound_common::{SAMPLES_PER_MS, onsets, sounds, town};

#[test]
fn a_click_sounds_at_once_and_only_when_asked() {
    let level = town();
    let sounds = sounds();
    let mut sound =
        TownSoundscape::<OfflineBackend>::new(&level, &sounds, OfflineSettings).expect("mixer");
    // Nothing but the click: the ambience off, and a frame with nothing in it.
    sound.set_volumes(1.0, 1.0, 0.0);
    let frame = DrawFrame::default();
    let mut samples = Vec::new();
    let render = |sound: &mut TownSoundscape<OfflineBackend>, samples: &mut Vec<f32>| {
        sound.update(&frame, 1.0 / 60.0);
        sound.backend_mut().expect("sounding").render(800, samples);
    };
    render(&mut sound, &mut samples);
    sound.click();
    render(&mut sound, &mut samples);
    render(&mut sound, &mut samples);
    let energy: Vec<f32> = samples.chunks_exact(2).map(|s| s[0] * s[0] + s[1] * s[1]).collect();
    assert!(energy[..800].iter().all(|&e| e == 0.0), "silent before the click");
    let heard = onsets(&energy, 1e-10, 4.0, 3);
    assert_eq!(heard.len(), 1, "one click: {heard:?}");
    assert!(
        (800..800 + SAMPLES_PER_MS).contains(&heard[0]),
        "within 1 ms of the next frame: {heard:?}"
    );
    let after = 800 + sounds.click.length_ms as usize * SAMPLES_PER_MS + SAMPLES_PER_MS;
    assert!(energy[after..].iter().all(|&e| e == 0.0), "and only a click");
}

/// The window's front screen: before any frame of a game (and after the game is left, its
/// soundscape hushed) a click is heard and the town's loops are not; a frame of the town
/// brings them back.
#[test]
fn a_click_is_heard_on_a_front_screen_where_the_town_is_hushed() {
    let level = town();
    let sounds = sounds();
    let mut sound =
        TownSoundscape::<OfflineBackend>::new(&level, &sounds, OfflineSettings).expect("mixer");
    let mut samples = Vec::new();
    let frames = |samples: &[f32], from: usize, to: usize| -> f32 {
        samples[from * 2..to * 2].iter().map(|s| s * s).sum()
    };
    // Before any game: silence, then the click alone.
    sound.backend_mut().expect("sounding").render(800, &mut samples);
    sound.click();
    sound.backend_mut().expect("sounding").render(800, &mut samples);
    assert_eq!(frames(&samples, 0, 800), 0.0, "nothing before the click");
    assert!(frames(&samples, 800, 1600) > 0.0, "the click is heard before any game");
    // A game: the fountain and the birds or crickets are heard, by a frame of the town.
    let frame = DrawFrame { time_of_day: 0.5, ..DrawFrame::default() };
    for _ in 0..30 {
        sound.update(&frame, 1.0 / 60.0);
        sound.backend_mut().expect("sounding").render(800, &mut samples);
    }
    let playing = frames(&samples, samples.len() / 2 - 800, samples.len() / 2);
    assert!(playing > 0.0, "the town's loops play in a game");
    // Left: a second of render later the loops have faded out.
    sound.hush();
    for _ in 0..60 {
        sound.backend_mut().expect("sounding").render(800, &mut samples);
    }
    let hushed = frames(&samples, samples.len() / 2 - 800, samples.len() / 2);
    assert_eq!(hushed, 0.0, "hushed after the game ({playing} before)");
}
