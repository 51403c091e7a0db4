//! The checks of the files a level refers to: the animation clip file, dialogue scripts, and
//! cutscene scripts with the images they show.

use fixstep_runtime::file::{ContentReadError, ContentReader};

use super::Checker;
use crate::AnimState;
use crate::level::ClipIndex;
use crate::level::load::locate::Seg;
use crate::level::load::read::CUTSCENE_IMAGE_FILE;
use crate::level::model::{ClipFile, CutsceneFile, DialogueFile};

/// Highest clip rate, frames per second. Real clips play at 24 to 60 fps; the bound rejects
/// typos and keeps `frames_per_tick` far inside the range of [`Fx`].
///
/// [`Fx`]: fixstep_runtime::math::Fx
const MAX_CLIP_FPS: u32 = 1000;

/// Most frames in a clip: 100,000 frames is over 25 minutes at 60 fps, beyond any clip of a
/// character, and keeps the frame count, which the rules hold as an `Fx`, far below 2^31.
const MAX_CLIP_FRAMES: u32 = 100_000;

/// Full scale of the per-mille fields of a cutscene image: positions and opacity run from 0
/// to this, by their documentation in [`model::ImagePose`].
///
/// [`model::ImagePose`]: crate::level::model::ImagePose
const PERMILLE_FULL: i32 = 1000;

/// Checks a clip file: sizes, rates, and a clip for every animation state.
pub(in crate::level::load) fn check_clip_file(file: &ClipFile, c: &mut Checker<'_>) {
    let names = c.unique("clip", file.clips.iter().map(|clip| clip.name.as_str()), |i| {
        path!["clips", i, "name"].to_vec()
    });
    for (i, clip) in file.clips.iter().enumerate() {
        let who = format!("clip {:?}", clip.name);
        c.positive_at_most(
            &path!["clips", i, "frames"],
            &who,
            clip.frames.into(),
            MAX_CLIP_FRAMES.into(),
            "over 25 minutes at 60 fps",
        );
        c.positive(&path!["clips", i, "fps"], &who, clip.fps.into());
        if clip.fps > MAX_CLIP_FPS {
            c.report(
                &path!["clips", i, "fps"],
                format!("{who}: fps is {}; it must be at most {MAX_CLIP_FPS}", clip.fps),
            );
        }
    }
    if file.clips.len() > usize::from(ClipIndex::MAX) + 1 {
        c.report(
            &path!["clips"],
            format!("{} clips: a clip file holds at most {}", file.clips.len(), ClipIndex::MAX),
        );
    }
    for state in AnimState::ALL {
        if !names.contains_key(state.clip_name()) {
            c.report(
                &path!["clips"],
                format!(
                    "no clip named {:?}: the {state:?} animation state plays it",
                    state.clip_name()
                ),
            );
        }
    }
}

/// Checks a dialogue script.
pub(in crate::level::load) fn check_dialogue(file: &DialogueFile, c: &mut Checker<'_>) {
    if file.lines.is_empty() {
        c.report(&path!["lines"], "the dialogue has no lines: it needs at least one");
    }
    for (i, line) in file.lines.iter().enumerate() {
        c.duration(
            &path!["lines", i, "duration_ticks"],
            &format!("line {i} ({:?})", line.speaker),
            line.duration_ticks,
        );
    }
}

/// Checks a cutscene script (not its images' files: [`check_images`]).
pub(in crate::level::load) fn check_cutscene(file: &CutsceneFile, c: &mut Checker<'_>) {
    let duration = file.duration_ticks;
    c.duration(&path!["duration_ticks"], "the cutscene", duration);
    if file.camera.is_empty() {
        c.report(&path!["camera"], "the cutscene has no camera keys: it needs at least one");
    }
    let mut previous: Option<u32> = None;
    for (i, key) in file.camera.iter().enumerate() {
        if key.at_tick > duration {
            c.report(
                &path!["camera", i, "at_tick"],
                format!(
                    "camera key {i} at tick {} is after the end of the cutscene ({duration} ticks)",
                    key.at_tick
                ),
            );
        }
        if let Some(previous) = previous
            && key.at_tick <= previous
        {
            c.report(
                &path!["camera", i, "at_tick"],
                format!(
                    "camera key {i} at tick {} is out of time order: it must come after the key \
                     before it, at tick {previous}",
                    key.at_tick
                ),
            );
        }
        previous = Some(key.at_tick);
        let who = format!("camera key {i}");
        c.point(&path!["camera", i, "eye"], &format!("{who}: eye"), key.eye);
        c.coordinate(&path!["camera", i, "eye_height_cm"], &who, key.eye_height_cm);
        c.point(&path!["camera", i, "target"], &format!("{who}: target"), key.target);
    }
    for (i, subtitle) in file.subtitles.iter().enumerate() {
        let who = format!("subtitle {i} ({:?})", subtitle.text);
        check_span(c, &path!["subtitles", i], &who, subtitle.from_tick, subtitle.to_tick, duration);
    }
    for (i, image) in file.images.iter().enumerate() {
        let who = format!("image {i} ({:?})", image.image);
        check_span(c, &path!["images", i], &who, image.from_tick, image.to_tick, duration);
        for (pose_name, pose) in [("from_pose", &image.from_pose), ("to_pose", &image.to_pose)] {
            for (field, value) in [
                ("x_permille", pose.x_permille),
                ("y_permille", pose.y_permille),
                ("opacity_permille", pose.opacity_permille),
            ] {
                if !(0..=PERMILLE_FULL).contains(&value) {
                    c.report(
                        &path!["images", i, pose_name, field],
                        format!("{who}: {field} is {value}; it must be 0..={PERMILLE_FULL}"),
                    );
                }
            }
            c.positive(
                &path!["images", i, pose_name, "scale_permille"],
                &who,
                pose.scale_permille.into(),
            );
        }
    }
    if u64::from(file.fade_ticks) * 2 > u64::from(duration) {
        c.report(
            &path!["fade_ticks"],
            format!(
                "fade_ticks is {}: a fade in and a fade out do not fit in the cutscene's \
                 {duration} ticks",
                file.fade_ticks
            ),
        );
    }
}

/// Checks that a subtitle's or image's ticks lie within the cutscene, in order.
fn check_span(c: &mut Checker<'_>, item: &[Seg], who: &str, from: u32, to: u32, duration: u32) {
    let mut to_path = item.to_vec();
    to_path.push(Seg::Field("to_tick"));
    if to <= from {
        c.report(
            &to_path,
            format!("{who}: to_tick {to} is not after from_tick {from}: it would never show"),
        );
    } else if to > duration {
        c.report(
            &to_path,
            format!("{who}: to_tick {to} is after the end of the cutscene ({duration} ticks)"),
        );
    }
}

/// Checks that the images a cutscene shows can be read, reading each through `reader`, which
/// keeps their bytes with the level's files (what a replay carries and the renderer draws).
pub(in crate::level::load) fn check_images(
    file: &CutsceneFile,
    reader: &ContentReader,
    c: &mut Checker<'_>,
) {
    for (i, image) in file.images.iter().enumerate() {
        match reader.read_bytes(&image.image, CUTSCENE_IMAGE_FILE) {
            Ok(_) => {}
            Err(ContentReadError::Path(error)) => {
                c.report(&path!["images", i, "image"], format!("image file path {error}"));
            }
            Err(ContentReadError::Read(error)) => {
                c.report(&path!["images", i, "image"], error.with_causes());
            }
        }
    }
}
