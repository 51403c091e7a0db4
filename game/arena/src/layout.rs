//! The arena's content: its size, its goals, where the pucks and players start, loaded from a
//! RON file under the assets and checked, every problem named with the file and its line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::Canonical;
use fixstep_runtime::file::{ContentFiles, ContentReadError, ContentReader, FileKind};

use crate::rules::{MAX_PLAYERS, MM_PER_M};
use fixstep_runtime::math::{Fx, Vec2, fx_ratio};
use serde::Deserialize;

/// The largest side an arena may have, millimetres: a kilometre, far beyond a rink and well
/// inside what fixed-point positions and their squares hold.
const MAX_SIDE_MM: i32 = 1_000_000;

/// A rink file: the arena's is under 1 kB (a name, three sizes and a dozen points); a
/// thousand times that is more pucks and spawns than any rink holds.
pub const RINK_FILE: FileKind = FileKind::new("rink file", 1_000_000);

/// The most pucks a rink may hold. Each tick checks every pair of pucks and every pusher
/// against every puck: 32 pucks are 496 pairs and 512 pusher checks, a few tens of microseconds,
/// where a rink plays well with a handful.
pub const MAX_PUCKS: usize = 32;

/// The most spawns a team may have: as many as its players (a team is every other player of
/// [`MAX_PLAYERS`]), since player `p` starts at its team's spawn `p / 2` and a spawn beyond the
/// last player would never be used.
pub const MAX_SPAWNS_PER_TEAM: usize = MAX_PLAYERS / 2;

/// A validated arena, in fixed-point metres. Its canonical bytes (without its path and its
/// files) are its content digest.
#[derive(Clone, Debug, PartialEq, Eq, Canonical)]
pub struct Layout {
    /// Its name.
    pub name: String,
    /// Where it was loaded from, under the assets. Not content: the same rink from elsewhere
    /// is the same rink.
    #[canonical(skip)]
    pub source: String,
    /// The file it was read from, by its name under the assets: what a replay carries, so
    /// the rink loads where the assets differ or are missing. Not content either: the digest
    /// is of the values read, not of the text.
    #[canonical(skip)]
    pub files: Arc<ContentFiles>,
    /// Half its length (east to west), metres.
    pub half_length: Fx,
    /// Half its width (north to south), metres.
    pub half_width: Fx,
    /// Half a goal's width, metres.
    pub goal_half_width: Fx,
    /// Where the pucks start and come back after a goal: at least one, at most [`MAX_PUCKS`].
    pub pucks: Vec<Vec2>,
    /// Where each team's players start, in the order they join: at least one each, at most
    /// [`MAX_SPAWNS_PER_TEAM`].
    pub spawns: [Vec<Vec2>; 2],
}

/// A problem of an arena file: `FILE:LINE:COLUMN: MESSAGE`, or `FILE: MESSAGE` for the file
/// as a whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.located())]
pub struct LayoutError {
    /// The file.
    pub file: String,
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl LayoutError {
    fn located(&self) -> String {
        match self.line {
            0 => format!("{}: {}", self.file, self.message),
            line => format!("{}:{line}:{}: {}", self.file, self.column, self.message),
        }
    }
}

/// Points as written: millimetres east and north of the centre.
type PointsMm = Vec<(i32, i32)>;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutFile {
    name: String,
    length_mm: i32,
    width_mm: i32,
    goal_width_mm: i32,
    pucks: PointsMm,
    spawns: (PointsMm, PointsMm),
}

fn metres(mm: i32) -> Fx {
    fx_ratio(mm, MM_PER_M)
}

fn point((x, y): (i32, i32)) -> Vec2 {
    Vec2::new(metres(x), metres(y))
}

/// Loads the arena in `file`, named in errors by its path under `assets` where it is there:
/// [`read_layout`] from the folder `assets`.
///
/// # Errors
///
/// A file that cannot be read, is not an arena in RON, or whose numbers make no rink.
pub fn load_layout(assets: &Path, file: &Path) -> Result<Layout, LayoutError> {
    read_layout(&ContentReader::folder(assets), file)
}

/// Loads an arena through `reader`, which keeps the file: from a folder, the file `file`
/// (as [`load_layout`]); from files a replay carries, the one they call their own (`file` is
/// then unused), named in errors under what carries it, and whose name becomes the layout's
/// [`Layout::source`].
///
/// # Errors
///
/// A file that cannot be read (or a carried one whose name is no name under the assets), is
/// not an arena in RON, or whose numbers make no rink.
pub fn read_layout(reader: &ContentReader, file: &Path) -> Result<Layout, LayoutError> {
    let name = reader.root().map_or_else(String::new, |root| source_of(root, file));
    let (shown, text) = reader.read_main(file, &name, RINK_FILE).map_err(|e| match e {
        ContentReadError::Read(e) => LayoutError {
            file: e.path().display().to_string(),
            line: 0,
            column: 0,
            message: e.reason(),
        },
        ContentReadError::Path(e) => LayoutError {
            // What carries the files: an empty name joins as a trailing separator, which the
            // components leave out. The name refused is quoted in the message instead.
            file: reader.shown("").components().collect::<PathBuf>().display().to_string(),
            line: 0,
            column: 0,
            message: format!("{} path {e}", RINK_FILE.name),
        },
    })?;
    let source = reader.main().map_or(name, str::to_owned);
    let layout = parse_layout(&text, &shown.display().to_string(), source)?;
    Ok(Layout { files: Arc::new(reader.files_read()), ..layout })
}

/// Where `file` is under `assets`, with `/` separators, or `file` as given where it is not.
fn source_of(assets: &Path, file: &Path) -> String {
    file.strip_prefix(assets)
        .map_or_else(|_| file.display().to_string(), |p| p.display().to_string().replace('\\', "/"))
}

/// Checks and converts the text of an arena file, as [`load_layout`] does once it has read
/// `file`, which names it in errors (by its path under `assets` where it is there). The
/// layout's [`Layout::files`] hold `text` as its own file, by that name.
///
/// # Errors
///
/// Text that is not an arena in RON, or whose numbers make no rink.
pub fn layout_from_str(text: &str, assets: &Path, file: &Path) -> Result<Layout, LayoutError> {
    let source = source_of(assets, file);
    let layout = parse_layout(text, &file.display().to_string(), source.clone())?;
    let mut files = ContentFiles::new(source.clone());
    files.insert(source, text.as_bytes().to_vec());
    Ok(Layout { files: Arc::new(files), ..layout })
}

/// Checks and converts `text`, the arena file shown as `label` in errors, into a layout that
/// goes by `source`, with no files (for the caller to give).
fn parse_layout(text: &str, label: &str, source: String) -> Result<Layout, LayoutError> {
    let fail = |line: usize, column: usize, message: String| LayoutError {
        file: label.to_owned(),
        line,
        column,
        message,
    };
    let parsed: LayoutFile = ron::from_str(text)
        .map_err(|e| fail(e.span.start.line, e.span.start.col, e.code.to_string()))?;
    // Semantic problems name the field's line.
    let at = |field: &str, message: String| {
        let line =
            text.lines().position(|l| l.trim_start().starts_with(field)).map_or(0, |i| i + 1);
        fail(line, 1, format!("{field}: {message}"))
    };
    let side = |field: &str, mm: i32| {
        if (MM_PER_M..=MAX_SIDE_MM).contains(&mm) {
            Ok(mm)
        } else {
            Err(at(field, format!("{mm} is not from {MM_PER_M} to {MAX_SIDE_MM} millimetres")))
        }
    };
    let (length, width) =
        (side("length_mm", parsed.length_mm)?, side("width_mm", parsed.width_mm)?);
    let goal = side("goal_width_mm", parsed.goal_width_mm)?;
    if goal >= width {
        return Err(at(
            "goal_width_mm",
            format!("a goal {goal} mm wide does not fit a rink {width} mm wide"),
        ));
    }
    // Unsigned: the most negative millimetre has no positive of its own.
    let inside = |p: &(i32, i32)| {
        p.0.unsigned_abs() < length.unsigned_abs() / 2
            && p.1.unsigned_abs() < width.unsigned_abs() / 2
    };
    if parsed.pucks.is_empty() {
        return Err(at("pucks", "an arena needs a puck".to_owned()));
    }
    if parsed.pucks.len() > MAX_PUCKS {
        let count = parsed.pucks.len();
        return Err(at("pucks", format!("{count} pucks is over the {MAX_PUCKS} a rink may hold")));
    }
    if let Some(p) = parsed.pucks.iter().find(|p| !inside(p)) {
        return Err(at("pucks", format!("({}, {}) is outside the rink", p.0, p.1)));
    }
    for (team, spawns) in [&parsed.spawns.0, &parsed.spawns.1].into_iter().enumerate() {
        if spawns.is_empty() {
            return Err(at("spawns", format!("team {team} has nowhere to start")));
        }
        if spawns.len() > MAX_SPAWNS_PER_TEAM {
            return Err(at(
                "spawns",
                format!(
                    "team {team} has {} spawns, over the {MAX_SPAWNS_PER_TEAM} a team may have \
                     (one for each of its players)",
                    spawns.len()
                ),
            ));
        }
        if let Some(p) = spawns.iter().find(|p| !inside(p)) {
            return Err(at("spawns", format!("({}, {}) is outside the rink", p.0, p.1)));
        }
    }
    Ok(Layout {
        name: parsed.name,
        source,
        files: Arc::default(),
        half_length: metres(length) / Fx::from_num(2),
        half_width: metres(width) / Fx::from_num(2),
        goal_half_width: metres(goal) / Fx::from_num(2),
        pucks: parsed.pucks.into_iter().map(point).collect(),
        spawns: [
            parsed.spawns.0.into_iter().map(point).collect(),
            parsed.spawns.1.into_iter().map(point).collect(),
        ],
    })
}
