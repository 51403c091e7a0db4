//! Reading files: the files a level names, read from disk and parsed as RON, with a problem
//! for each that cannot be read or parsed; and the clip file, read, checked and converted.

use std::fs;
use std::path::{Component, Path};

use serde::de::DeserializeOwned;

use super::check::{Checker, check_clip_file};
use super::convert::clips_from_file;
use super::locate::{Doc, Seg};
use super::problems::LevelProblem;
use crate::level::Clips;
use crate::level::model::ClipFile;

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

/// Reads and parses a RON file, or records why it could not: an unreadable file as a
/// problem at the value that named it (if any), a syntax error in the file itself.
pub(super) fn read_ron<T: DeserializeOwned>(
    file: &Path,
    what: &str,
    referrer: Option<Referrer<'_>>,
    problems: &mut Vec<LevelProblem>,
) -> Option<(T, Doc)> {
    let text = match fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) => {
            problems.push(match referrer {
                Some(r) => r.doc.problem(
                    r.path,
                    format!("cannot read {what} file {}: {error}", file.display()),
                ),
                None => LevelProblem {
                    file: file.to_path_buf(),
                    line: 0,
                    column: 0,
                    message: format!("cannot read {what} file: {error}"),
                },
            });
            return None;
        }
    };
    match parse_ron(&text, file) {
        Ok(value) => Some((value, Doc::with_text(file, &text))),
        Err(problem) => {
            problems.push(problem);
            None
        }
    }
}

/// Reads, checks and converts a clip file; `None` (with problems recorded) if anything is
/// wrong with it.
pub(super) fn load_clip_file(
    assets_root: &Path,
    clip_file: &str,
    referrer: Option<Referrer<'_>>,
    problems: &mut Vec<LevelProblem>,
) -> Option<Clips> {
    let (file, doc) =
        read_ron::<ClipFile>(&assets_root.join(clip_file), "clip", referrer, problems)?;
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
