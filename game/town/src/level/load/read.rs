//! Reading files: the files a level names, read through a [`ContentReader`] (from the assets
//! on disk, or from files a replay carries) and parsed as RON, with a problem for each that
//! cannot be read or parsed; and the clip file, read, checked and converted.

use std::fs;
use std::path::{Component, Path, PathBuf};

use fixstep_runtime::file::{ContentReadError, ContentReader, FileKind, ReadError};
use serde::de::DeserializeOwned;

use super::check::{Checker, check_clip_file};
use super::convert::clips_from_file;
use super::locate::{Doc, Seg};
use super::problems::LevelProblem;
use crate::level::Clips;
use crate::level::model::ClipFile;

/// A level file: the town's is 13 kB, so this is seventy-five towns. Parsed, and scanned for
/// the place of every value, a level takes up to 90 times its bytes (a route of 665,000
/// points in 4 MB took 323 MB, one of 166,000 in 1 MB 87 MB), so this keeps the worst level
/// inside the memory budget.
pub const LEVEL_FILE: FileKind = FileKind::new("level file", 1_000_000);

/// An animation clip file: the humanoid's is 8 kB; the loader allows 100,000 frames of a
/// clip, but no hand-made rig needs a file of more than a few hundred kB. Parsed as a level.
pub const CLIP_FILE: FileKind = FileKind::new("clip file", 1_000_000);

/// A dialogue script: the mayor's is 1 kB; a thousand times that is a book.
pub const DIALOGUE_FILE: FileKind = FileKind::new("dialogue file", 1_000_000);

/// A cutscene script: the fountain's is 1 kB; a thousand times that is a film.
pub const CUTSCENE_FILE: FileKind = FileKind::new("cutscene file", 1_000_000);

/// An image a cutscene shows, a PNG: the fountain's postcard is under 1 kB, and a picture
/// in a corner of the screen is a few hundred kB at most. Its bytes are kept with the level
/// (a replay carries them, and the renderer draws them from there), so the limit keeps a
/// few of them well inside the [`MAX_CONTENT_FILES_BYTES`] a replay's content may unpack to.
///
/// [`MAX_CONTENT_FILES_BYTES`]: fixstep_runtime::file::MAX_CONTENT_FILES_BYTES
pub const CUTSCENE_IMAGE_FILE: FileKind = FileKind::new("image file", 2_000_000);

/// A problem at the value `referrer` points at, or at the file itself.
fn problem_at(
    referrer: Option<Referrer<'_>>,
    file: &Path,
    located: String,
    alone: String,
) -> LevelProblem {
    match referrer {
        Some(r) => r.doc.problem(r.path, located),
        None => LevelProblem { file: file.to_path_buf(), line: 0, column: 0, message: alone },
    }
}

/// Where a file was named: the document and the path of the value that names it.
#[derive(Clone, Copy)]
pub(super) struct Referrer<'a> {
    /// The referring file.
    pub(super) doc: &'a Doc,
    /// The value naming the file.
    pub(super) path: &'a [Seg],
}

/// Parses RON text into `T`, or the problem at ron's own position with ron's own message.
pub(super) fn parse_ron<T: DeserializeOwned>(text: &str, file: &Path) -> Result<T, LevelProblem> {
    ron::Options::default().from_str(text).map_err(|error| LevelProblem {
        file: file.to_path_buf(),
        line: u32::try_from(error.span.start.line).unwrap_or(u32::MAX),
        column: u32::try_from(error.span.start.col).unwrap_or(u32::MAX),
        message: error.code.to_string(),
    })
}

/// Reads and parses the RON file `name` through `reader`, a file of `kind`, or records why it
/// could not: a path that leaves the content folder or a file that cannot be read as a problem
/// at the value that named it (if any), a syntax error in the file itself.
pub(super) fn read_ron<T: DeserializeOwned>(
    reader: &ContentReader,
    name: &str,
    kind: FileKind,
    referrer: Option<Referrer<'_>>,
    problems: &mut Vec<LevelProblem>,
) -> Option<(T, Doc)> {
    let (file, text) = match reader.read_text(name, kind) {
        Ok(read) => read,
        Err(error) => {
            problems.push(unread(reader, name, kind, referrer, &error));
            return None;
        }
    };
    match parse_ron(&text, &file) {
        Ok(value) => Some((value, Doc::with_text(&file, &text))),
        Err(problem) => {
            problems.push(problem);
            None
        }
    }
}

/// The problem of the file `name`, of `kind`, that `reader` did not read: at the value that
/// named it (if any), or at the file itself.
fn unread(
    reader: &ContentReader,
    name: &str,
    kind: FileKind,
    referrer: Option<Referrer<'_>>,
    error: &ContentReadError,
) -> LevelProblem {
    match error {
        ContentReadError::Path(error) => {
            let message = format!("{} path {error}", kind.name);
            problem_at(referrer, &reader.shown(name), message.clone(), message)
        }
        ContentReadError::Read(error) => {
            problem_at(referrer, error.path(), error.with_causes(), error.reason())
        }
    }
}

/// The problem of the level's own file that `reader` did not read: at the file itself.
pub(super) fn unread_main(reader: &ContentReader, error: &ContentReadError) -> LevelProblem {
    match error {
        ContentReadError::Read(error) => unreadable(error),
        ContentReadError::Path(error) => LevelProblem {
            file: carrier(reader),
            line: 0,
            column: 0,
            message: format!("{} path {error}", LEVEL_FILE.name),
        },
    }
}

/// What carries the files `reader` reads, as problems show it: the folder, or what carries
/// the files (a replay). The name of the level's own file is left out, as a name refused is
/// not shown but quoted in the message.
fn carrier(reader: &ContentReader) -> PathBuf {
    // An empty name joins as a trailing separator, which the components leave out.
    reader.shown("").components().collect()
}

/// The problem of a file the user named that cannot be read: at the file itself.
fn unreadable(error: &ReadError) -> LevelProblem {
    LevelProblem { file: error.path().to_path_buf(), line: 0, column: 0, message: error.reason() }
}

/// Reads (through `reader`), checks and converts a clip file; `None` (with problems recorded)
/// if anything is wrong with it.
pub(super) fn load_clip_file(
    reader: &ContentReader,
    clip_file: &str,
    referrer: Option<Referrer<'_>>,
    problems: &mut Vec<LevelProblem>,
) -> Option<Clips> {
    let (file, doc) = read_ron::<ClipFile>(reader, clip_file, CLIP_FILE, referrer, problems)?;
    let before = problems.len();
    check_clip_file(&file, &mut Checker { doc: &doc, problems });
    (problems.len() == before).then(|| clips_from_file(&file))
}

/// The level's [`Level::source`]: `label` relative to `assets_root`, with `/` separators,
/// when it lies under it; `label` as given otherwise.
///
/// [`Level::source`]: crate::level::Level::source
pub(super) fn source_name(assets_root: &Path, label: &Path) -> String {
    let relative = label.strip_prefix(assets_root).ok().map(Path::to_path_buf).or_else(|| {
        let root = fs::canonicalize(assets_root).ok()?;
        let file = fs::canonicalize(label).ok()?;
        file.strip_prefix(root).ok().map(Path::to_path_buf)
    });
    match relative {
        Some(relative) => relative
            .components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("/"),
        None => label.display().to_string(),
    }
}
