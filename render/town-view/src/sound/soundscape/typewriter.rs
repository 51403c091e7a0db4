//! The dialogue typewriter's blips: one for each frame that shows new letters of the line,
//! no closer together than the sounds file allows.

use std::sync::Arc;

use crate::present::frame::DialogueDraw;

/// The line shown, and how far.
#[derive(Clone, Debug, Default)]
pub struct Typewriter {
    line: Option<(Arc<str>, usize)>,
    since_blip_s: f32,
}

impl Typewriter {
    /// No line shown yet.
    #[must_use]
    pub fn new() -> Self {
        Self { line: None, since_blip_s: f32::INFINITY }
    }

    /// This frame shows `dialogue`, `dt` seconds after the frame before. Returns the letter to
    /// blip for: the last new letter that is not a space, when this frame shows one and the
    /// last blip was at least `min_interval_s` ago.
    pub fn drawn(
        &mut self,
        dialogue: Option<&DialogueDraw>,
        dt: f32,
        min_interval_s: f32,
    ) -> Option<char> {
        self.since_blip_s += dt.max(0.0);
        let Some(dialogue) = dialogue else {
            self.line = None;
            return None;
        };
        // Letters shown before on this line; a new line, or the same line started again,
        // shows every letter anew.
        let before = match &self.line {
            Some((text, shown))
                if (Arc::ptr_eq(text, &dialogue.text) || **text == *dialogue.text)
                    && *shown <= dialogue.shown_chars =>
            {
                *shown
            }
            _ => 0,
        };
        self.line = Some((Arc::clone(&dialogue.text), dialogue.shown_chars));
        let letter = dialogue
            .text
            .chars()
            .skip(before)
            .take(dialogue.shown_chars.saturating_sub(before))
            .filter(|c| !c.is_whitespace())
            .last()?;
        if self.since_blip_s < min_interval_s {
            return None;
        }
        self.since_blip_s = 0.0;
        Some(letter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &Arc<str>, shown: usize) -> DialogueDraw {
        DialogueDraw { speaker: "Mayor".into(), text: Arc::clone(text), shown_chars: shown }
    }

    #[test]
    fn each_new_letter_blips_but_spaces_do_not() {
        let text: Arc<str> = "Hi there".into();
        let mut t = Typewriter::new();
        let dt = 1.0 / 60.0;
        let got: Vec<Option<char>> =
            [0, 1, 2, 3, 3, 4].iter().map(|&n| t.drawn(Some(&line(&text, n)), dt, 0.012)).collect();
        assert_eq!(got, [None, Some('H'), Some('i'), None, None, Some('t')]);
    }

    #[test]
    fn a_frame_showing_many_letters_blips_once_and_the_interval_holds() {
        let text: Arc<str> = "Welcome".into();
        let mut t = Typewriter::new();
        assert_eq!(t.drawn(Some(&line(&text, 5)), 0.2, 0.012), Some('o'));
        assert_eq!(t.drawn(Some(&line(&text, 6)), 0.005, 0.012), None, "too soon");
        assert_eq!(t.drawn(Some(&line(&text, 7)), 0.01, 0.012), Some('e'));
    }

    #[test]
    fn a_new_line_starts_over() {
        let (a, b): (Arc<str>, Arc<str>) = ("One".into(), "Two".into());
        let mut t = Typewriter::new();
        assert_eq!(t.drawn(Some(&line(&a, 3)), 0.1, 0.0), Some('e'));
        assert_eq!(t.drawn(Some(&line(&b, 1)), 0.1, 0.0), Some('T'));
        assert_eq!(t.drawn(None, 0.1, 0.0), None);
        assert_eq!(t.drawn(Some(&line(&b, 1)), 0.1, 0.0), Some('T'), "talked to again");
    }
}
