//! The typewriter blips once per newly shown letter: the onsets of the mixed samples against
//! the frames that show new letters (not spaces) of the local player's dialogue line. A bot
//! plays the local player and talks to the mayor; the town is drawn at 60 Hz from just before.
//! Only the dialogue is heard: the frames keep it alone, and the ambience volume is zero.

mod sound_common;

use sound_common::{
    EFFECTS_ONLY, keep_only, match_onsets, onsets, play_bot_from, quantile, render, sounds, town,
};

#[test]
fn the_typewriter_blips_once_for_each_letter_it_shows() {
    let level = town();
    let sounds = sounds();
    let frames = play_bot_from(&level, |s| !s.dialogues.is_empty(), 10);
    let mix = render(&level, &sounds, EFFECTS_ONLY, &frames, |_, f| keep_only(f, "d"));

    // From the frames: each frame that shows letters the frame before did not.
    let (mut blips, mut letters) = (Vec::new(), 0);
    let mut shown: Option<(std::sync::Arc<str>, usize)> = None;
    for (k, drawn) in frames.iter().enumerate() {
        let Some(d) = &drawn.frame.dialogue else {
            shown = None;
            continue;
        };
        let before = match &shown {
            Some((text, n)) if **text == *d.text => *n,
            _ => 0,
        };
        let new = d.text.chars().skip(before).take(d.shown_chars.saturating_sub(before));
        let new_letters = new.filter(|c| !c.is_whitespace()).count();
        letters += new_letters;
        if new_letters > 0 {
            blips.push(mix.starts[k]);
        }
        shown = Some((d.text.clone(), d.shown_chars));
    }
    let heard = onsets(&mix.energy(), 1e-10, 4.0, 3);
    let mut m = match_onsets(&blips, &heard, 5.0);
    let max = quantile(&mut m.offsets_ms, 1.0);
    println!(
        "dialogue: {letters} letters shown on {} frames, {} blips heard, offset max {max:.3} ms",
        blips.len(),
        heard.len()
    );
    assert!(letters > 40, "the mayor said too little: {letters} letters");
    assert_eq!(blips.len(), letters, "at 60 Hz no frame shows two letters, so a blip is a letter");
    assert!(m.unexplained_ms.is_empty(), "blips no letter explains (ms): {:?}", m.unexplained_ms);
    assert!(m.missing_ms.is_empty(), "letters not heard (ms): {:?}", m.missing_ms);
}
