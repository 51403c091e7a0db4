//! Loading and validating level files.
//!
//! [`load_level`] reads a level file (`assets/levels/*.ron`, in the format of [`model`]) and
//! every file it refers to (the animation clips, dialogue and cutscene scripts, the images of
//! the cutscenes), checks all of it, and converts it into a [`Level`]: centimetres become
//! fixed-point metres, degrees binary angles, string ids indices. Every file is read through a
//! [`ContentReader`] ([`read_level`]): from the assets on disk, or from the files a replay
//! carries, checked the same way either way; the level keeps the files it was read from
//! ([`Level::files`]).
//!
//! It never stops at the first problem. A [`LevelError`] lists every problem found, each as
//! `FILE:LINE:COLUMN: MESSAGE`, the way a compiler reports errors. RON reports positions for
//! syntax and type errors only, so for the rules the loader checks itself (duplicate ids,
//! dangling references, zero sizes, shapes that overlap, ...) it scans the text a second time
//! into a tree of value positions, and points at the offending value by its path in that
//! tree (`pedestrians[3].route[2]`); where the path cannot be followed it points at the
//! nearest enclosing value, and failing that at 1:1.
//!
//! The checks run on the file model, in exact integer centimetres, so the generated stress
//! level ([`super::stress_level_file`]) is checked by the very same code
//! ([`validate_level_file`]).
//!
//! The loader is split by stage: `problems` holds the error types, `read` reads and parses
//! files, `locate` finds a value's line and column in a text, `check` applies the rules and
//! `convert` turns a checked file model into a [`Level`].
//!
//! [`model`]: super::model

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::file::ContentReader;

use super::model::{CutsceneFile, DialogueFile, LevelFile};
use super::{Clips, Level, StressScale};
use check::{Checker, check_cutscene, check_dialogue, check_images, check_level_file};
use convert::{cutscene_def, dialogue_def};
use locate::{Doc, Seg};
pub use read::{CLIP_FILE, CUTSCENE_FILE, CUTSCENE_IMAGE_FILE, DIALOGUE_FILE, LEVEL_FILE};
use read::{Referrer, load_clip_file, parse_ron, read_ron, source_name, unread_main};

/// A path to a value: `path!["pedestrians", i, "route", j]`.
macro_rules! path {
    ($($seg:expr),* $(,)?) => { [$(Seg::from($seg)),*] };
}

/// Minutes in a day: `start_minute` must be below it, and `day_minutes` (the length of the
/// game's day in real minutes) at most it, so that a game day is never longer than a real one.
const MINUTES_PER_DAY: u32 = 1440;

mod check;
mod convert;
mod locate;
mod problems;
mod read;

pub(super) use convert::level_from_file;
pub use problems::{LevelError, LevelProblem, MAX_LISTED_PROBLEMS};

/// Loads, checks and converts a level file and every file it refers to.
///
/// `level_file` is absolute or relative to the current directory; the files the level names
/// (clips, dialogue, cutscenes, images) are relative to `assets_root`, and may not leave it
/// (no absolute path, no `..`, no link out of it): a path that does is a problem at the value
/// that names it, and nothing is opened there. Every file is read within its kind's limit
/// ([`LEVEL_FILE`], [`CLIP_FILE`], [`DIALOGUE_FILE`], [`CUTSCENE_FILE`],
/// [`CUTSCENE_IMAGE_FILE`]). The level's [`Level::source`] is `level_file` relative to
/// `assets_root` when it lies under it. It is [`read_level`] from the folder `assets_root`.
///
/// A `level_file` of `stress` or `stress:SCALE` is the generated stress level at that scale
/// ([`super::StressScale`]), its clips read from `assets_root`; a level file of that name is
/// given as `./stress`.
///
/// # Errors
///
/// A [`LevelError`] listing every problem found: unreadable files, RON syntax and type errors,
/// and every broken rule of the level format.
pub fn load_level(assets_root: &Path, level_file: &Path) -> Result<Level, LevelError> {
    read_level(&ContentReader::folder(assets_root), level_file)
}

/// Loads, checks and converts a level and every file it refers to, each read through
/// `reader`, which keeps them: they become the level's [`Level::files`].
///
/// From a folder, as [`load_level`] with the folder as the assets root. From files a replay
/// carries, the level is the file they call their own (`level_file` is unused), the files it
/// names are looked up among them by the same names and checked by the same rules, and
/// problems name each file under what carries them; [`Level::source`] is the name of the
/// level's own file there. Carried files whose own is named `stress` or `stress:SCALE` are a
/// generated stress level's ([`super::read_stress_level`]): it is made again, with their clips.
///
/// # Errors
///
/// As [`load_level`]; a file the level names that is not among the carried files is a
/// problem at the value that names it, as a missing file on disk is.
pub fn read_level(reader: &ContentReader, level_file: &Path) -> Result<Level, LevelError> {
    // The stress level is made, not read: by its name where a level file would be named, or
    // as the carried files' own.
    let named = reader.main().or_else(|| level_file.to_str()).unwrap_or_default();
    if let Some(scale) = StressScale::from_name(named) {
        let scale = scale.map_err(|e| LevelError {
            problems: vec![LevelProblem {
                file: PathBuf::from(named),
                line: 0,
                column: 0,
                message: e.to_string(),
            }],
        })?;
        return super::read_stress_level(reader, scale);
    }
    let name = reader.root().map_or_else(String::new, |root| source_name(root, level_file));
    let (label, text) = reader
        .read_main(level_file, &name, LEVEL_FILE)
        .map_err(|error| LevelError { problems: vec![unread_main(reader, &error)] })?;
    let source = reader.main().map_or(name, str::to_owned);
    let mut level = level_from_text(reader, &text, &label, source)?;
    level.files = Arc::new(reader.files_read());
    Ok(level)
}

/// Checks and converts the text of a level file. `label` names the file in problems (and,
/// relative to `assets_root` when it lies under it, becomes [`Level::source`]); the files
/// the level refers to are read from under `assets_root`. The level's [`Level::files`] hold
/// `source` as its own file, by its source name, and the files it names.
///
/// # Errors
///
/// As [`load_level`].
pub fn load_level_str(source: &str, label: &Path, assets_root: &Path) -> Result<Level, LevelError> {
    let reader = ContentReader::folder(assets_root);
    let name = source_name(assets_root, label);
    let mut level = level_from_text(&reader, source, label, name.clone())?;
    let mut files = reader.into_files();
    files.insert(name.clone(), source.as_bytes().to_vec());
    files.main = name;
    level.files = Arc::new(files);
    Ok(level)
}

/// Checks and converts `text`, the level file shown as `label`, reading the files it refers
/// to through `reader`; the level goes by `source`, and its [`Level::files`] are left empty
/// for the caller to fill.
fn level_from_text(
    reader: &ContentReader,
    text: &str,
    label: &Path,
    source: String,
) -> Result<Level, LevelError> {
    let file: LevelFile =
        parse_ron(text, label).map_err(|problem| LevelError { problems: vec![problem] })?;
    let level_doc = Doc::with_text(label, text);
    let mut problems = Vec::new();
    check_level_file(&file, &mut Checker { doc: &level_doc, problems: &mut problems });

    let clips = load_clip_file(
        reader,
        &file.clips,
        Some(Referrer { doc: &level_doc, path: &path!["clips"] }),
        &mut problems,
    );

    let mut dialogues = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, talker) in file.talkers.iter().enumerate() {
        if !seen.insert(talker.dialogue.as_str()) {
            continue;
        }
        let referrer = Referrer { doc: &level_doc, path: &path!["talkers", i, "dialogue"] };
        let read = read_ron::<DialogueFile>(
            reader,
            &talker.dialogue,
            DIALOGUE_FILE,
            Some(referrer),
            &mut problems,
        );
        if let Some((dialogue, doc)) = read {
            check_dialogue(&dialogue, &mut Checker { doc: &doc, problems: &mut problems });
            dialogues.push(dialogue_def(&talker.dialogue, dialogue));
        }
    }

    let mut cutscenes = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, trigger) in file.cutscene_triggers.iter().enumerate() {
        if !seen.insert(trigger.cutscene.as_str()) {
            continue;
        }
        let referrer =
            Referrer { doc: &level_doc, path: &path!["cutscene_triggers", i, "cutscene"] };
        let read = read_ron::<CutsceneFile>(
            reader,
            &trigger.cutscene,
            CUTSCENE_FILE,
            Some(referrer),
            &mut problems,
        );
        if let Some((cutscene, doc)) = read {
            let mut checker = Checker { doc: &doc, problems: &mut problems };
            check_cutscene(&cutscene, &mut checker);
            check_images(&cutscene, reader, &mut checker);
            cutscenes.push(cutscene_def(&trigger.cutscene, cutscene));
        }
    }

    if let Some(error) = LevelError::from_problems(problems) {
        return Err(error);
    }
    let Some(clips) = clips else {
        // Unreachable: a clip file that did not load left a problem. Kept as an error rather
        // than a panic, as every path of the loader.
        return Err(LevelError {
            problems: vec![level_doc.problem(&path!["clips"], "the clip file did not load")],
        });
    };
    Ok(level_from_file(&file, source, clips, dialogues, cutscenes, Arc::default()))
}

/// Loads and checks an animation clip file (`clip_file` relative to `assets_root`, such as
/// `"animations/humanoid.ron"`), with a clip for every [`AnimState`].
///
/// # Errors
///
/// A [`LevelError`] listing every problem of the file.
///
/// [`AnimState`]: crate::AnimState
pub fn load_clips(assets_root: &Path, clip_file: &str) -> Result<Clips, LevelError> {
    read_clips(&ContentReader::folder(assets_root), clip_file)
}

/// [`load_clips`] through `reader`, which keeps the file.
///
/// # Errors
///
/// As [`load_clips`].
pub(in crate::level) fn read_clips(
    reader: &ContentReader,
    clip_file: &str,
) -> Result<Clips, LevelError> {
    let mut problems = Vec::new();
    let clips = load_clip_file(reader, clip_file, None, &mut problems);
    match (LevelError::from_problems(problems), clips) {
        (None, Some(clips)) => Ok(clips),
        (Some(error), _) => Err(error),
        (None, None) => Err(LevelError {
            problems: vec![LevelProblem {
                file: reader.shown(clip_file),
                line: 0,
                column: 0,
                message: "the clip file did not load".to_owned(),
            }],
        }),
    }
}

/// Checks a level held as a file model, without its text and without the files it refers
/// to: the same rules [`load_level`] applies to a file, for levels made in code (such as
/// [`super::stress_level_file`]). Problems name `label` as their file, at line 0, column 0.
///
/// # Errors
///
/// A [`LevelError`] listing every broken rule.
pub fn validate_level_file(file: &LevelFile, label: &Path) -> Result<(), LevelError> {
    let doc = Doc::without_text(label);
    let mut problems = Vec::new();
    check_level_file(file, &mut Checker { doc: &doc, problems: &mut problems });
    LevelError::from_problems(problems).map_or(Ok(()), Err)
}
