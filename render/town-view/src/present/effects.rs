//! Presentation that runs on real time, once per render frame: the teleport zones' stars, the
//! dialogue typewriter and the cutscene timers. None of it touches simulation state; the
//! typewriter and cutscenes are anchored at the authoritative tick their line or scene
//! started, and advance with the frame's render time, so they are smooth instead of stepping
//! every 100 ms.

use std::f32::consts::TAU;
use std::sync::Arc;

use fixstep_town::level::{CutsceneDef, Level};
use glam::Vec3;

use fixstep_present::convert::{TICK_SECONDS_F32, f, ground, world};
use fixstep_present::interp::{lerp, lerp_vec, wrapped_clock};

use super::frame::{CutsceneDraw, DialogueDraw, ImageDraw};

/// Stars circling each teleport zone: enough to read as a swirl, few enough to cost nothing.
pub const STARS_PER_ZONE: usize = 24;

/// How fast the stars circle, radians per second (a turn every 4 s).
pub const STAR_SPIN: f32 = TAU / 4.0;

/// How fast the stars rise, metres per second.
pub const STAR_RISE: f32 = 0.6;

/// Height at which a star wraps back to the ground, metres.
pub const STAR_HEIGHT: f32 = 2.4;

/// The stars' clock wraps after this many seconds: one turn of their spin, which is also one
/// rise from the ground to [`STAR_HEIGHT`] (4 s each), so the swirl is the same after the wrap
/// and the clock keeps its precision in a session of any length.
pub const STAR_PERIOD_S: f32 = TAU / STAR_SPIN;

/// Characters the typewriter reveals per second: a comfortable reading pace.
pub const TYPEWRITER_CHARS_PER_SECOND: f32 = 40.0;

/// The per-frame presentation state.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    /// Real seconds the stars have run.
    star_clock: f32,
    /// The dialogue lines' texts as shared strings, built once per level.
    lines: Vec<Vec<(Arc<str>, Arc<str>)>>,
    /// The cutscenes' subtitle and image strings, built once per level.
    cutscene_text: Vec<CutsceneText>,
}

/// A cutscene's strings as shared strings, so drawing it clones no text.
#[derive(Clone, Debug, Default)]
struct CutsceneText {
    subtitles: Vec<Arc<str>>,
    images: Vec<Arc<str>>,
}

impl Effects {
    /// Effects for `level`.
    #[must_use]
    pub fn new(level: &Level) -> Self {
        let lines = level
            .dialogues
            .iter()
            .map(|d| {
                d.lines
                    .iter()
                    .map(|l| (Arc::from(l.speaker.as_str()), Arc::from(l.text.as_str())))
                    .collect()
            })
            .collect();
        let cutscene_text = level
            .cutscenes
            .iter()
            .map(|c| CutsceneText {
                subtitles: c.subtitles.iter().map(|s| Arc::from(s.text.as_str())).collect(),
                images: c.images.iter().map(|i| Arc::from(i.image.as_str())).collect(),
            })
            .collect();
        Self { star_clock: 0.0, lines, cutscene_text }
    }

    /// Advances the real-time clocks by a frame of `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        self.star_clock = wrapped_clock(self.star_clock, dt, STAR_PERIOD_S);
    }

    /// Writes the stars of every teleport zone into `out`.
    pub fn stars(&self, level: &Level, out: &mut Vec<Vec3>) {
        out.clear();
        for pair in &level.teleports {
            for end in &pair.ends {
                let centre = ground(end.zone.centre, 0.0);
                let radius = f(end.zone.radius);
                for i in 0..STARS_PER_ZONE {
                    let share = i as f32 / STARS_PER_ZONE as f32;
                    let angle = share * TAU + self.star_clock * STAR_SPIN;
                    let height =
                        (share * STAR_HEIGHT * 7.0 + self.star_clock * STAR_RISE) % STAR_HEIGHT;
                    let r = radius
                        * (0.55 + 0.4 * ((i * 7 % STARS_PER_ZONE) as f32 / STARS_PER_ZONE as f32));
                    out.push(centre + Vec3::new(angle.cos() * r, height, -angle.sin() * r));
                }
            }
        }
    }

    /// The dialogue box for line `line` of dialogue `dialogue`, which the tick `line_started`
    /// started (so the state has it from the next tick on), drawn at `render_tick`.
    #[must_use]
    pub fn dialogue(
        &self,
        dialogue: u32,
        line: u32,
        line_started: u32,
        render_tick: f64,
    ) -> Option<DialogueDraw> {
        let (speaker, text) = self.lines.get(dialogue as usize)?.get(line as usize)?;
        // The line is in the state from the tick after the one that started it: the
        // typewriter starts there, as the line first shows.
        let shown_from = f64::from(line_started) + 1.0;
        let seconds = ((render_tick - shown_from) as f32 * TICK_SECONDS_F32).max(0.0);
        let shown_chars = (seconds * TYPEWRITER_CHARS_PER_SECOND) as usize;
        Some(DialogueDraw {
            speaker: Arc::clone(speaker),
            text: Arc::clone(text),
            shown_chars: shown_chars.min(text.chars().count()),
        })
    }

    /// Fills `out` with cutscene `index` (started at tick `started`) as drawn at `render_tick`,
    /// and returns its camera (eye, target).
    pub fn cutscene(
        &self,
        level: &Level,
        index: u32,
        started: u32,
        render_tick: f64,
        out: &mut CutsceneDraw,
    ) -> Option<(Vec3, Vec3)> {
        let def = level.cutscenes.get(index as usize)?;
        let CutsceneText { subtitles, images } = self.cutscene_text.get(index as usize)?;
        let ticks =
            ((render_tick - f64::from(started)) as f32).clamp(0.0, def.duration_ticks as f32);
        out.elapsed = ticks * TICK_SECONDS_F32;
        out.subtitle = def
            .subtitles
            .iter()
            .zip(subtitles)
            .find(|(s, _)| ticks >= s.from_tick as f32 && ticks < s.to_tick as f32)
            .map(|(_, text)| Arc::clone(text));
        out.images.clear();
        for (image, name) in def.images.iter().zip(images) {
            let (from, to) = (image.from_tick as f32, image.to_tick as f32);
            if ticks < from || ticks >= to {
                continue;
            }
            let t = (ticks - from) / (to - from).max(1.0);
            let pose = |a: i32, b: i32| lerp(a as f32, b as f32, t) / 1000.0;
            out.images.push(ImageDraw {
                image: Arc::clone(name),
                centre: [
                    pose(image.from_pose.x_permille, image.to_pose.x_permille),
                    pose(image.from_pose.y_permille, image.to_pose.y_permille),
                ],
                scale: pose(image.from_pose.scale_permille, image.to_pose.scale_permille),
                opacity: pose(image.from_pose.opacity_permille, image.to_pose.opacity_permille),
            });
        }
        out.fade = fade(def, ticks);
        Some(camera_path(def, ticks))
    }
}

/// Opacity of the black fade `ticks` into a cutscene: fading in from black over its first
/// `fade_ticks`, out to black over its last.
fn fade(def: &CutsceneDef, ticks: f32) -> f32 {
    let length = def.fade_ticks as f32;
    if length <= 0.0 {
        return 0.0;
    }
    let from_start = ticks / length;
    let to_end = (def.duration_ticks as f32 - ticks) / length;
    (1.0 - from_start.min(to_end)).clamp(0.0, 1.0)
}

/// The camera `ticks` into a cutscene: between the keys around that time, eased so the camera
/// settles at each key.
fn camera_path(def: &CutsceneDef, ticks: f32) -> (Vec3, Vec3) {
    let keys = &def.camera;
    let Some(first) = keys.first() else { return (Vec3::new(0.0, 10.0, 10.0), Vec3::ZERO) };
    let mut from = first;
    let mut to = first;
    for key in keys {
        if key.at_tick as f32 <= ticks {
            from = key;
            to = key;
        } else {
            to = key;
            break;
        }
    }
    let span = (to.at_tick as f32 - from.at_tick as f32).max(1.0);
    let t = ((ticks - from.at_tick as f32) / span).clamp(0.0, 1.0);
    let t = t * t * (3.0 - 2.0 * t);
    (lerp_vec(world(from.eye), world(to.eye), t), lerp_vec(world(from.target), world(to.target), t))
}
