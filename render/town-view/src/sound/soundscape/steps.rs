//! When a drawn character puts a foot down: its drawn animation frame passed one of its clip's
//! contact frames between the frame drawn before and this one.

use std::collections::BTreeMap;

use crate::present::samples::CharacterSample;
use fixstep_town::level::Level;

/// A move of a looping clip's frame by more than this share of the clip counts as a move
/// back, not forward: a correction of the own character's prediction can draw its frame a
/// little earlier, which taken forward would be most of a stride and a step or two.
const MOST_OF_A_LOOP: f32 = 0.75;

/// One clip's contact frames, and what is needed to tell which were passed.
#[derive(Clone, Debug, Default, PartialEq)]
struct Clip {
    contacts: Vec<f32>,
    frames: f32,
    looping: bool,
}

/// The contact frames of every clip of a level, by clip index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FootContacts {
    clips: Vec<Clip>,
}

impl FootContacts {
    /// The contact frames `contacts` gives by clip name, for the clips of `level` (a clip it
    /// does not name has none).
    #[must_use]
    pub fn new(level: &Level, contacts: &BTreeMap<String, Vec<f32>>) -> Self {
        let clips = level
            .clips
            .defs
            .iter()
            .map(|clip| Clip {
                contacts: contacts.get(&clip.name).cloned().unwrap_or_default(),
                frames: clip.frames as f32,
                looping: clip.looping,
            })
            .collect();
        Self { clips }
    }

    /// How many feet went down from `previous` to `current`, two drawings of one character.
    /// None when the two are not one continuous motion: another clip or animation state
    /// (which restarts its clip), a jump, or being switched on or off.
    #[must_use]
    pub fn steps(&self, previous: &CharacterSample, current: &CharacterSample) -> usize {
        let continuous = previous.clip == current.clip
            && previous.anim == current.anim
            && previous.jumps == current.jumps
            && previous.enabled == current.enabled;
        let Some(clip) = self.clips.get(usize::from(current.clip)) else { return 0 };
        if !continuous || clip.contacts.is_empty() {
            return 0;
        }
        let (from, to) = (previous.frame, current.frame);
        if clip.looping {
            let forward = (to - from).rem_euclid(clip.frames);
            if forward > clip.frames * MOST_OF_A_LOOP {
                return 0;
            }
            // A contact is passed when it lies in (from, from + forward], round the loop.
            clip.contacts
                .iter()
                .filter(|&&c| {
                    let ahead = (c - from).rem_euclid(clip.frames);
                    ahead > 0.0 && ahead <= forward
                })
                .count()
        } else {
            clip.contacts.iter().filter(|&&c| from < c && c <= to).count()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixstep_town::AnimState;
    use glam::Vec3;

    fn contacts() -> FootContacts {
        let clip = |contacts: &[f32], frames, looping| Clip {
            contacts: contacts.to_vec(),
            frames,
            looping,
        };
        FootContacts {
            clips: vec![
                clip(&[], 60.0, true),
                clip(&[0.0, 12.0], 24.0, true),
                clip(&[5.0], 18.0, false),
            ],
        }
    }

    fn at(clip: u16, frame: f32) -> CharacterSample {
        CharacterSample {
            pos: Vec3::ZERO,
            facing: 0.0,
            anim: AnimState::Walk,
            clip,
            frame,
            enabled: true,
            jumps: 0,
            health: 100.0,
        }
    }

    #[test]
    fn passing_a_contact_is_a_step_and_landing_on_it_counts_once() {
        let c = contacts();
        assert_eq!(c.steps(&at(1, 11.5), &at(1, 12.2)), 1);
        assert_eq!(c.steps(&at(1, 11.5), &at(1, 12.0)), 1, "reaching it is putting it down");
        assert_eq!(c.steps(&at(1, 12.0), &at(1, 12.6)), 0, "already down");
        assert_eq!(c.steps(&at(1, 12.5), &at(1, 13.0)), 0);
        assert_eq!(c.steps(&at(1, 3.0), &at(1, 3.0)), 0, "standing still");
    }

    #[test]
    fn the_loop_wraps_through_frame_zero() {
        let c = contacts();
        assert_eq!(c.steps(&at(1, 23.5), &at(1, 0.4)), 1);
        assert_eq!(c.steps(&at(1, 23.5), &at(1, 0.0)), 1);
        assert_eq!(c.steps(&at(1, 10.0), &at(1, 1.0)), 2, "a long frame passes both feet");
        assert_eq!(c.steps(&at(1, 12.4), &at(1, 12.1)), 0, "a small step back is no stride");
    }

    #[test]
    fn a_reset_or_another_clip_is_never_a_step() {
        let c = contacts();
        let mut jumped = at(1, 12.5);
        jumped.jumps = 1;
        assert_eq!(c.steps(&at(1, 11.5), &jumped), 0);
        let mut off = at(1, 12.5);
        off.enabled = false;
        assert_eq!(c.steps(&at(1, 11.5), &off), 0);
        assert_eq!(c.steps(&at(0, 11.5), &at(1, 12.5)), 0);
        let mut ran = at(1, 12.5);
        ran.anim = AnimState::Run;
        assert_eq!(c.steps(&at(1, 11.5), &ran), 0);
    }

    #[test]
    fn a_one_shot_clip_does_not_wrap() {
        let c = contacts();
        assert_eq!(c.steps(&at(2, 4.0), &at(2, 6.0)), 1);
        assert_eq!(c.steps(&at(2, 17.0), &at(2, 17.0)), 0);
        assert_eq!(c.steps(&at(0, 1.0), &at(0, 50.0)), 0, "a clip without contacts");
    }
}
