//! Loading and validating level files.
//!
//! [`load_level`] reads a level file (`assets/levels/*.ron`, in the format of [`model`]) and
//! every file it refers to (the animation clips, dialogue and cutscene scripts, the images of
//! the cutscenes), checks all of it, and converts it into a [`Level`]: centimetres become
//! fixed-point metres, degrees binary angles, string ids indices.
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

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Component, Path, PathBuf};

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3};
use fixstep_runtime::tick::TICKS_PER_SECOND;
use serde::de::DeserializeOwned;

use super::model::{
    self, CircleCm, ClipFile, CutsceneFile, DialogueFile, LevelFile, ObjectKind, PointCm, RectCm,
};
use super::{
    BuildingDef, CameraKeyDef, ClipDef, ClipIndex, Clips, CutsceneDef, CutsceneTriggerDef,
    DialogueDef, DoorDef, LampDef, Level, LiftDef, LineDef, ObjectDef, ObjectDefKind,
    PedestrianDef, SignDef, SpawnDef, TalkerDef, TaxiDef, TeleportDef, TeleportEndDef,
    WaypointIndex,
};
use crate::AnimState;
use crate::geom::{Circle, Rect};

/// A path to a value: `path!["pedestrians", i, "route", j]`.
macro_rules! path {
    ($($seg:expr),* $(,)?) => { [$(Seg::from($seg)),*] };
}

/// Centimetres in a metre: level files measure lengths in whole centimetres (exact, and no
/// float to parse), the rules in fixed-point metres.
const CM_PER_M: i64 = 100;

/// Divisor from centimetres per second to metres per tick: 100 cm in a metre times
/// [`TICKS_PER_SECOND`], because speeds in files are per second and the rules move per tick.
const CM_PER_S_PER_M_PER_TICK: i64 = CM_PER_M * TICKS_PER_SECOND as i64;

/// Minutes in a day: `start_minute` must be below it, and `day_minutes` (the length of the
/// game's day in real minutes) at most it, so that a game day is never longer than a real one.
const MINUTES_PER_DAY: u32 = 1440;

/// Ticks in a real minute (60 s of [`TICKS_PER_SECOND`]), to turn `day_minutes` into ticks.
const TICKS_PER_MINUTE: u32 = 60 * TICKS_PER_SECOND;

/// How far a door's hinge may lie from its building's outline, centimetres. Hinges are
/// placed by hand in whole centimetres, and a hinge within a wall's thickness of the
/// outline is still on the wall.
const HINGE_TOLERANCE_CM: i64 = 10;

/// Largest door swing either way, degrees: at 180° or more the direction of the swing is
/// ambiguous and the leaf folds back through its own wall.
const MAX_DOOR_SWING_DEG: i32 = 179;

/// Highest clip rate, frames per second. Real clips play at 24 to 60 fps; the bound rejects
/// typos and keeps `frames_per_tick` far inside the range of [`Fx`].
const MAX_CLIP_FPS: u32 = 1000;

/// Full scale of the per-mille fields of a cutscene image: positions and opacity run from 0
/// to this, by their documentation in [`model::ImagePose`].
const PERMILLE_FULL: i32 = 1000;

/// Deepest nesting of brackets the position scanner follows. Level files nest about six
/// deep; the bound (ron's own recursion limit) keeps a hostile file from exhausting the stack.
const MAX_SCAN_DEPTH: u32 = 128;

// ---------------------------------------------------------------------------------------------
// Errors

/// One problem found in a level or in a file it refers to, located like a compiler error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelProblem {
    /// The file the problem is in: the level file as given, or the assets root joined with
    /// the path under which the level names the file.
    pub file: PathBuf,
    /// Line of the offending value, counted from 1; 0 when there is no text to point into
    /// (a file that could not be read, a generated level).
    pub line: u32,
    /// Column of the offending value in characters, counted from 1; 0 as for `line`.
    pub column: u32,
    /// What is wrong, naming the item by its id or name.
    pub message: String,
}

impl fmt::Display for LevelProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A problem with no place in the text (an unreadable file) names the file alone.
        if self.line == 0 {
            return write!(f, "{}: {}", self.file.display(), self.message);
        }
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.column, self.message)
    }
}

/// Everything wrong with a level and the files it refers to: every problem found, not just
/// the first, in file order and then text order. Its `Display` prints one problem a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", display_lines(.problems))]
pub struct LevelError {
    /// The problems, at least one.
    pub problems: Vec<LevelProblem>,
}

/// The problems, one a line, for [`LevelError`]'s `Display`.
fn display_lines(problems: &[LevelProblem]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

impl LevelError {
    /// The error of these problems, sorted by file (in order of first appearance), line and
    /// column; `None` when there are none.
    fn from_problems(mut problems: Vec<LevelProblem>) -> Option<Self> {
        if problems.is_empty() {
            return None;
        }
        let mut files: Vec<PathBuf> = Vec::new();
        for problem in &problems {
            if !files.contains(&problem.file) {
                files.push(problem.file.clone());
            }
        }
        problems.sort_by_key(|p| {
            (files.iter().position(|f| *f == p.file).unwrap_or(usize::MAX), p.line, p.column)
        });
        Some(Self { problems })
    }
}

// ---------------------------------------------------------------------------------------------
// Public entry points

/// Loads, checks and converts a level file and every file it refers to.
///
/// `level_file` is absolute or relative to the current directory; the files the level names
/// (clips, dialogue, cutscenes, images) are relative to `assets_root`. The level's
/// [`Level::source`] is `level_file` relative to `assets_root` when it lies under it.
///
/// # Errors
///
/// A [`LevelError`] listing every problem found: unreadable files, RON syntax and type errors,
/// and every broken rule of the level format.
pub fn load_level(assets_root: &Path, level_file: &Path) -> Result<Level, LevelError> {
    match fs::read_to_string(level_file) {
        Ok(text) => load_level_str(&text, level_file, assets_root),
        Err(error) => Err(LevelError {
            problems: vec![LevelProblem {
                file: level_file.to_path_buf(),
                line: 0,
                column: 0,
                message: format!("cannot read the level file: {error}"),
            }],
        }),
    }
}

/// Checks and converts the text of a level file. `label` names the file in problems (and,
/// relative to `assets_root` when it lies under it, becomes [`Level::source`]); the files
/// the level refers to are read from under `assets_root`.
///
/// # Errors
///
/// As [`load_level`].
pub fn load_level_str(source: &str, label: &Path, assets_root: &Path) -> Result<Level, LevelError> {
    let file: LevelFile =
        parse_ron(source, label).map_err(|problem| LevelError { problems: vec![problem] })?;
    let level_doc = Doc::with_text(label, source);
    let mut problems = Vec::new();
    check_level_file(&file, &mut Checker { doc: &level_doc, problems: &mut problems });

    let clips = load_clip_file(
        assets_root,
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
            &assets_root.join(&talker.dialogue),
            "dialogue",
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
            &assets_root.join(&trigger.cutscene),
            "cutscene",
            Some(referrer),
            &mut problems,
        );
        if let Some((cutscene, doc)) = read {
            let mut checker = Checker { doc: &doc, problems: &mut problems };
            check_cutscene(&cutscene, &mut checker);
            check_images(&cutscene, assets_root, &mut checker);
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
    Ok(level_from_file(&file, source_name(assets_root, label), clips, dialogues, cutscenes))
}

/// Loads and checks an animation clip file (`clip_file` relative to `assets_root`, such as
/// `"animations/humanoid.ron"`), with a clip for every [`AnimState`].
///
/// # Errors
///
/// A [`LevelError`] listing every problem of the file.
pub fn load_clips(assets_root: &Path, clip_file: &str) -> Result<Clips, LevelError> {
    let mut problems = Vec::new();
    let clips = load_clip_file(assets_root, clip_file, None, &mut problems);
    match (LevelError::from_problems(problems), clips) {
        (None, Some(clips)) => Ok(clips),
        (Some(error), _) => Err(error),
        (None, None) => Err(LevelError {
            problems: vec![LevelProblem {
                file: assets_root.join(clip_file),
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

// ---------------------------------------------------------------------------------------------
// Reading files

/// Where a file was named: the document and the path of the value that names it.
#[derive(Clone, Copy)]
struct Referrer<'a> {
    /// The referring file.
    doc: &'a Doc,
    /// The value naming the file.
    path: &'a [Seg],
}

/// Parses RON text into `T`, or the problem at ron's own position with ron's own message.
fn parse_ron<T: DeserializeOwned>(text: &str, file: &Path) -> Result<T, LevelProblem> {
    ron::Options::default().from_str(text).map_err(|error| LevelProblem {
        file: file.to_path_buf(),
        line: u32::try_from(error.span.start.line).unwrap_or(u32::MAX),
        column: u32::try_from(error.span.start.col).unwrap_or(u32::MAX),
        message: error.code.to_string(),
    })
}

/// Reads and parses a RON file, or records why it could not: an unreadable file as a
/// problem at the value that named it (if any), a syntax error in the file itself.
fn read_ron<T: DeserializeOwned>(
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
fn load_clip_file(
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
fn source_name(assets_root: &Path, label: &Path) -> String {
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

// ---------------------------------------------------------------------------------------------
// Locating values in the text

/// One step of a path to a value in a file: a struct field by name, or an element of a list
/// or tuple by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seg {
    /// A field of a struct (or of a struct inside an enum variant).
    Field(&'static str),
    /// An element of a list or tuple.
    Index(usize),
}

impl From<&'static str> for Seg {
    fn from(name: &'static str) -> Self {
        Self::Field(name)
    }
}

impl From<usize> for Seg {
    fn from(index: usize) -> Self {
        Self::Index(index)
    }
}

/// The position of a value in a text, and of the values inside it.
#[derive(Debug)]
struct Node {
    /// Line of its first character, from 1.
    line: u32,
    /// Column of its first character, from 1.
    column: u32,
    /// What is inside it.
    shape: Shape,
}

/// The inside of a [`Node`].
#[derive(Debug)]
enum Shape {
    /// A number, string, identifier or other single token.
    Atom,
    /// A list, tuple, map (its values) or unnamed contents of an enum variant.
    Seq(Vec<Node>),
    /// A struct's fields, by name.
    Fields(Vec<(String, Node)>),
}

impl Node {
    /// The position of the value at `path`, or of the deepest value on the way to it that
    /// exists. A field step passes through a one-element tuple (a newtype enum variant such
    /// as `Door((...))`).
    fn locate(&self, path: &[Seg]) -> (u32, u32) {
        let mut node = self;
        'steps: for seg in path {
            loop {
                let next = match (seg, &node.shape) {
                    (Seg::Field(name), Shape::Fields(fields)) => {
                        fields.iter().find(|(field, _)| field == name).map(|(_, n)| n)
                    }
                    (Seg::Index(i), Shape::Seq(items)) => items.get(*i),
                    (Seg::Field(_), Shape::Seq(items)) if items.len() == 1 => {
                        // Into the newtype, then take the same step again.
                        match items.first() {
                            Some(inner) => {
                                node = inner;
                                continue;
                            }
                            None => None,
                        }
                    }
                    _ => None,
                };
                match next {
                    Some(next) => {
                        node = next;
                        continue 'steps;
                    }
                    None => break 'steps,
                }
            }
        }
        (node.line, node.column)
    }
}

/// A place in the text, to go back to after looking ahead.
#[derive(Clone, Copy)]
struct Mark {
    /// Index into the characters.
    pos: usize,
    /// Line there.
    line: u32,
    /// Column there.
    column: u32,
}

/// A scanner of RON text into a [`Node`] tree. It only needs to follow valid RON (the text
/// has already parsed), and gives up (`None`) on anything it does not understand.
struct Scanner {
    /// The text.
    chars: Vec<char>,
    /// Where it is.
    at: Mark,
    /// Current bracket nesting.
    depth: u32,
}

impl Scanner {
    /// A scanner at the start of `text`.
    fn new(text: &str) -> Self {
        Self { chars: text.chars().collect(), at: Mark { pos: 0, line: 1, column: 1 }, depth: 0 }
    }

    /// The tree of `text`, if it scans.
    fn scan(text: &str) -> Option<Node> {
        Self::new(text).value()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at.pos.checked_add(ahead)?).copied()
    }

    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at.pos = self.at.pos.saturating_add(1);
        if c == '\n' {
            self.at.line = self.at.line.saturating_add(1);
            self.at.column = 1;
        } else {
            self.at.column = self.at.column.saturating_add(1);
        }
        Some(c)
    }

    /// Consumes `expected`, or gives up.
    fn expect(&mut self, expected: char) -> Option<()> {
        (self.bump()? == expected).then_some(())
    }

    /// Skips whitespace, comments and `#![...]` attributes.
    fn skip_trivia(&mut self) -> Option<()> {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                (Some('/'), Some('*')) => self.block_comment()?,
                (Some('#'), _) => self.attribute()?,
                _ => return Some(()),
            }
        }
    }

    /// Skips a (possibly nested) block comment.
    fn block_comment(&mut self) -> Option<()> {
        self.bump();
        self.bump();
        let mut depth = 1_u32;
        loop {
            match (self.bump()?, self.peek()) {
                ('*', Some('/')) => {
                    self.bump();
                    depth -= 1;
                    if depth == 0 {
                        return Some(());
                    }
                }
                ('/', Some('*')) => {
                    self.bump();
                    depth = depth.saturating_add(1);
                }
                _ => {}
            }
        }
    }

    /// Skips an attribute such as `#![enable(unwrap_variant_newtypes)]`.
    fn attribute(&mut self) -> Option<()> {
        self.bump();
        if self.peek() == Some('!') {
            self.bump();
        }
        self.expect('[')?;
        let mut depth = 1_u32;
        while depth > 0 {
            match self.bump()? {
                '[' => depth = depth.saturating_add(1),
                ']' => depth -= 1,
                _ => {}
            }
        }
        Some(())
    }

    /// One value and its position.
    fn value(&mut self) -> Option<Node> {
        self.skip_trivia()?;
        if self.depth >= MAX_SCAN_DEPTH {
            return None;
        }
        self.depth += 1;
        let Mark { line, column, .. } = self.at;
        let shape = self.shape();
        self.depth -= 1;
        Some(Node { line, column, shape: shape? })
    }

    fn shape(&mut self) -> Option<Shape> {
        match (self.peek()?, self.peek_at(1)) {
            ('(', _) => {
                self.bump();
                self.parens()
            }
            ('[', _) => {
                self.bump();
                self.elements(']')
            }
            ('{', _) => self.map(),
            ('"', _) => self.string().map(|()| Shape::Atom),
            ('\'', _) => self.char_literal().map(|()| Shape::Atom),
            ('b', Some('"')) => {
                self.bump();
                self.string().map(|()| Shape::Atom)
            }
            ('b', Some('\'')) => {
                self.bump();
                self.char_literal().map(|()| Shape::Atom)
            }
            ('b', Some('r')) if self.raw_string_ahead(2) => {
                self.bump();
                self.raw_string().map(|()| Shape::Atom)
            }
            ('r', _) if self.raw_string_ahead(1) => self.raw_string().map(|()| Shape::Atom),
            _ => {
                let word = self.word();
                if word.is_empty() {
                    return None;
                }
                let after_word = self.at;
                self.skip_trivia()?;
                if starts_identifier(&word) && self.peek() == Some('(') {
                    self.bump();
                    self.parens()
                } else {
                    self.at = after_word;
                    Some(Shape::Atom)
                }
            }
        }
    }

    /// Whether a raw string's hashes and opening quote start `ahead` characters on.
    fn raw_string_ahead(&self, ahead: usize) -> bool {
        let mut k = ahead;
        while self.peek_at(k) == Some('#') {
            k = k.saturating_add(1);
        }
        self.peek_at(k) == Some('"')
    }

    /// A word: an identifier or a number.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || matches!(c, '_' | '-' | '+' | '.' | '#') {
                word.push(c);
                self.bump();
            } else {
                break;
            }
        }
        word
    }

    fn string(&mut self) -> Option<()> {
        self.expect('"')?;
        loop {
            match self.bump()? {
                '\\' => {
                    self.bump()?;
                }
                '"' => return Some(()),
                _ => {}
            }
        }
    }

    fn char_literal(&mut self) -> Option<()> {
        self.expect('\'')?;
        loop {
            match self.bump()? {
                '\\' => {
                    self.bump()?;
                }
                '\'' => return Some(()),
                _ => {}
            }
        }
    }

    fn raw_string(&mut self) -> Option<()> {
        self.expect('r')?;
        let mut hashes = 0_usize;
        while self.peek() == Some('#') {
            self.bump();
            hashes = hashes.saturating_add(1);
        }
        self.expect('"')?;
        loop {
            if self.bump()? == '"' {
                let mut closing = 0_usize;
                while closing < hashes && self.peek() == Some('#') {
                    self.bump();
                    closing += 1;
                }
                if closing == hashes {
                    return Some(());
                }
            }
        }
    }

    /// The inside of parentheses (the opening one consumed): a struct's fields or a tuple.
    fn parens(&mut self) -> Option<Shape> {
        self.skip_trivia()?;
        let start = self.at;
        let word = self.word();
        self.skip_trivia()?;
        let fields =
            starts_identifier(&word) && self.peek() == Some(':') && self.peek_at(1) != Some(':');
        self.at = start;
        if fields { self.fields() } else { self.elements(')') }
    }

    fn fields(&mut self) -> Option<Shape> {
        let mut fields = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.peek()? == ')' {
                self.bump();
                return Some(Shape::Fields(fields));
            }
            let name = self.word();
            if name.is_empty() {
                return None;
            }
            self.skip_trivia()?;
            self.expect(':')?;
            let node = self.value()?;
            let name = name.strip_prefix("r#").map_or_else(|| name.clone(), str::to_owned);
            fields.push((name, node));
            self.skip_trivia()?;
            match self.peek()? {
                ',' => {
                    self.bump();
                }
                ')' => {}
                _ => return None,
            }
        }
    }

    /// Values up to `close` (the opening bracket consumed).
    fn elements(&mut self, close: char) -> Option<Shape> {
        let mut items = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.peek()? == close {
                self.bump();
                return Some(Shape::Seq(items));
            }
            items.push(self.value()?);
            self.skip_trivia()?;
            match self.peek()? {
                ',' => {
                    self.bump();
                }
                c if c == close => {}
                _ => return None,
            }
        }
    }

    /// A map; its values become the elements of a sequence.
    fn map(&mut self) -> Option<Shape> {
        self.expect('{')?;
        let mut values = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.peek()? == '}' {
                self.bump();
                return Some(Shape::Seq(values));
            }
            self.value()?;
            self.skip_trivia()?;
            self.expect(':')?;
            values.push(self.value()?);
            self.skip_trivia()?;
            match self.peek()? {
                ',' => {
                    self.bump();
                }
                '}' => {}
                _ => return None,
            }
        }
    }
}

/// Whether `word` is an identifier (a struct or variant name, a field), not a number.
fn starts_identifier(word: &str) -> bool {
    word.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// A file that problems point into.
struct Doc {
    /// The file, as problems name it.
    file: PathBuf,
    /// Its text's tree of positions: `None` without text (a generated level), `Some(None)`
    /// when the text did not scan (problems then point at 1:1).
    tree: Option<Option<Node>>,
}

impl Doc {
    fn with_text(file: &Path, text: &str) -> Self {
        Self { file: file.to_path_buf(), tree: Some(Scanner::scan(text)) }
    }

    fn without_text(file: &Path) -> Self {
        Self { file: file.to_path_buf(), tree: None }
    }

    /// Line and column of the value at `path`; `None` without text.
    fn position(&self, path: &[Seg]) -> Option<(u32, u32)> {
        match &self.tree {
            None => None,
            Some(None) => Some((1, 1)),
            Some(Some(tree)) => Some(tree.locate(path)),
        }
    }

    /// A problem at the value at `path`.
    fn problem(&self, path: &[Seg], message: impl Into<String>) -> LevelProblem {
        let (line, column) = self.position(path).unwrap_or((0, 0));
        LevelProblem { file: self.file.clone(), line, column, message: message.into() }
    }
}

// ---------------------------------------------------------------------------------------------
// Checking

/// Collects the problems of one file.
struct Checker<'a> {
    /// The file checked.
    doc: &'a Doc,
    /// Where problems go.
    problems: &'a mut Vec<LevelProblem>,
}

impl Checker<'_> {
    fn report(&mut self, path: &[Seg], message: impl Into<String>) {
        let problem = self.doc.problem(path, message);
        self.problems.push(problem);
    }

    /// Reports a value that repeats an earlier one at `first`, saying where that one is.
    fn report_repeat(&mut self, path: &[Seg], first: &[Seg], message: String) {
        let message = match self.doc.position(first) {
            Some((line, column)) => format!("{message} (first at line {line}, column {column})"),
            None => message,
        };
        self.report(path, message);
    }

    /// Reports `value` unless it is greater than 0; the field's name is the last step of
    /// `path`.
    fn positive(&mut self, path: &[Seg], who: &str, value: i64) {
        if value <= 0 {
            let field = field_name(path);
            self.report(path, format!("{who}: {field} is {value}; it must be greater than 0"));
        }
    }

    /// Checks that ids are non-empty and unique; returns each id's first index.
    fn unique<'f>(
        &mut self,
        kind: &str,
        ids: impl Iterator<Item = &'f str>,
        path_of: impl Fn(usize) -> Vec<Seg>,
    ) -> BTreeMap<&'f str, usize> {
        let mut first = BTreeMap::new();
        for (i, id) in ids.enumerate() {
            if id.is_empty() {
                self.report(&path_of(i), format!("{kind} {i} has an empty id"));
            } else if let Some(&earlier) = first.get(id) {
                self.report_repeat(
                    &path_of(i),
                    &path_of(earlier),
                    format!("duplicate {kind} id {id:?}: {kind} {earlier} has it too"),
                );
            } else {
                first.insert(id, i);
            }
        }
        first
    }
}

/// The name of the field at the end of `path`.
fn field_name(path: &[Seg]) -> &'static str {
    match path.last() {
        Some(Seg::Field(name)) => name,
        _ => "value",
    }
}

/// A point as `(x, y)`, centimetres.
fn pt(p: PointCm) -> String {
    format!("({}, {})", p.0, p.1)
}

/// Whether `r` has a positive width and depth.
fn rect_has_area(r: &RectCm) -> bool {
    r.min.0 < r.max.0 && r.min.1 < r.max.1
}

/// Whether `p` is inside `r` or on its edge.
fn rect_contains(r: &RectCm, p: PointCm) -> bool {
    p.0 >= r.min.0 && p.0 <= r.max.0 && p.1 >= r.min.1 && p.1 <= r.max.1
}

/// Whether `inner` lies within `outer` (edges may touch).
fn rect_within(inner: &RectCm, outer: &RectCm) -> bool {
    rect_contains(outer, inner.min) && rect_contains(outer, inner.max)
}

/// The squared distance between two points, square centimetres.
fn distance_squared(a: PointCm, b: PointCm) -> i128 {
    let dx = i128::from(b.0) - i128::from(a.0);
    let dy = i128::from(b.1) - i128::from(a.1);
    dx * dx + dy * dy
}

/// Whether `p` is inside the circle or on its edge.
fn circle_contains(c: &CircleCm, p: PointCm) -> bool {
    let r = i128::from(c.radius_cm);
    distance_squared(c.centre, p) <= r * r
}

/// Whether two circles share area: their centres are closer than the sum of their radii.
fn circles_overlap(a: &CircleCm, b: &CircleCm) -> bool {
    let reach = i128::from(a.radius_cm) + i128::from(b.radius_cm);
    distance_squared(a.centre, b.centre) < reach * reach
}

/// The squared distance from `p` to the outline (the edges) of `r`, square centimetres.
fn distance_to_outline_squared(r: &RectCm, p: PointCm) -> i128 {
    let (x, y) = (i128::from(p.0), i128::from(p.1));
    let (x0, y0, x1, y1) =
        (i128::from(r.min.0), i128::from(r.min.1), i128::from(r.max.0), i128::from(r.max.1));
    if rect_contains(r, p) {
        let d = (x - x0).min(x1 - x).min(y - y0).min(y1 - y);
        d * d
    } else {
        let dx = (x0 - x).max(0).max(x - x1);
        let dy = (y0 - y).max(0).max(y - y1);
        dx * dx + dy * dy
    }
}

/// The sign of the turn from `a→b` to `a→c`: positive counter-clockwise.
fn orientation(a: PointCm, b: PointCm, c: PointCm) -> i128 {
    let (abx, aby) = (i128::from(b.0) - i128::from(a.0), i128::from(b.1) - i128::from(a.1));
    let (acx, acy) = (i128::from(c.0) - i128::from(a.0), i128::from(c.1) - i128::from(a.1));
    (abx * acy - aby * acx).signum()
}

/// Whether `p`, known to be on the line through `a` and `b`, is on the segment between them.
fn within_segment_box(a: PointCm, b: PointCm, p: PointCm) -> bool {
    p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether the closed segments `a–b` and `c–d` share a point.
fn segments_intersect(a: PointCm, b: PointCm, c: PointCm, d: PointCm) -> bool {
    let (d1, d2) = (orientation(c, d, a), orientation(c, d, b));
    let (d3, d4) = (orientation(a, b, c), orientation(a, b, d));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && within_segment_box(c, d, a))
        || (d2 == 0 && within_segment_box(c, d, b))
        || (d3 == 0 && within_segment_box(a, b, c))
        || (d4 == 0 && within_segment_box(a, b, d))
}

/// Whether the segment `a–b` touches or enters the rectangle `r`.
fn segment_touches_rect(a: PointCm, b: PointCm, r: &RectCm) -> bool {
    if a.0.max(b.0) < r.min.0
        || a.0.min(b.0) > r.max.0
        || a.1.max(b.1) < r.min.1
        || a.1.min(b.1) > r.max.1
    {
        return false;
    }
    if rect_contains(r, a) || rect_contains(r, b) {
        return true;
    }
    let corners = [r.min, (r.max.0, r.min.1), r.max, (r.min.0, r.max.1)];
    (0..4).any(|k| segments_intersect(a, b, corners[k], corners[(k + 1) % 4]))
}

/// What things must stand clear of: the ground's edge and the buildings.
struct Site<'f> {
    /// The ground, if it is a proper rectangle.
    ground: Option<RectCm>,
    /// Buildings with a proper footprint: id and footprint.
    buildings: Vec<(&'f str, RectCm)>,
}

impl Site<'_> {
    /// Why `p` is not a place to stand, if it is not.
    fn misplaced(&self, p: PointCm) -> Option<String> {
        if let Some(ground) = &self.ground
            && !rect_contains(ground, p)
        {
            return Some(format!("is outside the ground {} to {}", pt(ground.min), pt(ground.max)));
        }
        self.buildings
            .iter()
            .find(|(_, footprint)| rect_contains(footprint, p))
            .map(|(id, _)| format!("is inside building {id:?}"))
    }

    /// Checks that `p` is on the ground and outside every building.
    fn check_point(&self, c: &mut Checker<'_>, path: &[Seg], who: &str, p: PointCm) {
        if let Some(why) = self.misplaced(p) {
            c.report(path, format!("{who} at {} {why}", pt(p)));
        }
    }
}

/// Checks every rule of a level file that does not need other files.
fn check_level_file(file: &LevelFile, c: &mut Checker<'_>) {
    // The ground and the clock.
    let ground_ok = rect_has_area(&file.ground);
    if !ground_ok {
        c.report(
            &path!["ground"],
            format!(
                "ground: min {} is not south-west of max {}",
                pt(file.ground.min),
                pt(file.ground.max)
            ),
        );
    }
    if !(1..=MINUTES_PER_DAY).contains(&file.day_minutes) {
        c.report(
            &path!["day_minutes"],
            format!("day_minutes is {}; it must be 1..={MINUTES_PER_DAY}", file.day_minutes),
        );
    }
    if file.start_minute >= MINUTES_PER_DAY {
        c.report(
            &path!["start_minute"],
            format!("start_minute is {}; it must be below {MINUTES_PER_DAY}", file.start_minute),
        );
    }

    // Buildings first: everything else must stand clear of them.
    c.unique("building", file.buildings.iter().map(|b| b.id.as_str()), |i| {
        path!["buildings", i, "id"].to_vec()
    });
    for (i, b) in file.buildings.iter().enumerate() {
        let who = format!("building {:?}", b.id);
        if !rect_has_area(&b.footprint) {
            c.report(
                &path!["buildings", i, "footprint"],
                format!(
                    "{who}: footprint min {} is not south-west of max {}: it has no area",
                    pt(b.footprint.min),
                    pt(b.footprint.max)
                ),
            );
        } else if ground_ok && !rect_within(&b.footprint, &file.ground) {
            c.report(
                &path!["buildings", i, "footprint"],
                format!("{who}: footprint reaches outside the ground"),
            );
        }
        c.positive(&path!["buildings", i, "height_cm"], &who, i64::from(b.height_cm));
    }
    let site = Site {
        ground: ground_ok.then_some(file.ground),
        buildings: file
            .buildings
            .iter()
            .filter(|b| rect_has_area(&b.footprint))
            .map(|b| (b.id.as_str(), b.footprint))
            .collect(),
    };
    let building_index: BTreeMap<&str, usize> =
        file.buildings.iter().enumerate().rev().map(|(i, b)| (b.id.as_str(), i)).collect();

    // The street graph.
    let waypoints = &file.streets.waypoints;
    let waypoint_index = c.unique("waypoint", waypoints.iter().map(|w| w.id.as_str()), |i| {
        path!["streets", "waypoints", i, "id"].to_vec()
    });
    for (i, w) in waypoints.iter().enumerate() {
        site.check_point(
            c,
            &path!["streets", "waypoints", i, "at"],
            &format!("waypoint {:?}", w.id),
            w.at,
        );
    }
    let mut lanes = BTreeSet::new();
    for (i, (from, to)) in file.streets.lanes.iter().enumerate() {
        let who = format!("lane {i} ({from:?} to {to:?})");
        let from_index = waypoint_index.get(from.as_str()).copied();
        let to_index = waypoint_index.get(to.as_str()).copied();
        if from_index.is_none() {
            c.report(
                &path!["streets", "lanes", i, 0_usize],
                format!("{who}: waypoint {from:?} does not exist"),
            );
        }
        if to_index.is_none() {
            c.report(
                &path!["streets", "lanes", i, 1_usize],
                format!("{who}: waypoint {to:?} does not exist"),
            );
        }
        if let (Some(a), Some(b)) = (from_index, to_index) {
            let same_place = match (waypoints.get(a), waypoints.get(b)) {
                (Some(wa), Some(wb)) => wa.at == wb.at,
                _ => false,
            };
            if same_place {
                c.report(
                    &path!["streets", "lanes", i],
                    format!("{who}: the lane has no length: both ends are at the same point"),
                );
            }
            lanes.insert((a, b));
        }
    }

    // Spawns.
    if file.spawns.is_empty() {
        c.report(&path!["spawns"], "no spawns: a level needs at least one player spawn");
    }
    for (i, spawn) in file.spawns.iter().enumerate() {
        let who = format!("spawn {i}");
        site.check_point(c, &path!["spawns", i, "at"], &who, spawn.at);
        for (pair, end, zone) in teleport_zones(file) {
            if zone.radius_cm > 0 && circle_contains(&zone, spawn.at) {
                c.report(
                    &path!["spawns", i, "at"],
                    format!(
                        "{who} at {} is inside zone {end} of teleport {:?}",
                        pt(spawn.at),
                        pair
                    ),
                );
            }
        }
    }

    // Objects.
    c.unique("object", file.objects.iter().map(|o| o.id.as_str()), |i| {
        path!["objects", i, "id"].to_vec()
    });
    for (i, object) in file.objects.iter().enumerate() {
        match &object.kind {
            ObjectKind::Door(door) => {
                let who = format!("door {:?}", object.id);
                let building = building_index.get(door.building.as_str()).copied();
                match building.and_then(|b| file.buildings.get(b)) {
                    None => c.report(
                        &path!["objects", i, "kind", "building"],
                        format!("{who}: building {:?} does not exist", door.building),
                    ),
                    Some(b) if rect_has_area(&b.footprint) => {
                        let off = distance_to_outline_squared(&b.footprint, door.hinge);
                        let tolerance = i128::from(HINGE_TOLERANCE_CM);
                        if off > tolerance * tolerance {
                            c.report(
                                &path!["objects", i, "kind", "hinge"],
                                format!(
                                    "{who}: hinge {} is not on the outline of building {:?}: \
                                     it is {} cm away (at most {HINGE_TOLERANCE_CM})",
                                    pt(door.hinge),
                                    b.id,
                                    off.unsigned_abs().isqrt()
                                ),
                            );
                        }
                    }
                    Some(_) => {}
                }
                if door.hinge == door.leaf_end {
                    c.report(
                        &path!["objects", i, "kind", "leaf_end"],
                        format!(
                            "{who}: the leaf has no length: leaf_end {} is the hinge",
                            pt(door.leaf_end)
                        ),
                    );
                }
                c.positive(&path!["objects", i, "kind", "height_cm"], &who, door.height_cm.into());
                if door.open_deg == 0
                    || door.open_deg.unsigned_abs() > MAX_DOOR_SWING_DEG.unsigned_abs()
                {
                    c.report(
                        &path!["objects", i, "kind", "open_deg"],
                        format!(
                            "{who}: door without a swing: open_deg is {}; it must be \
                             -{MAX_DOOR_SWING_DEG}..={MAX_DOOR_SWING_DEG} and not 0",
                            door.open_deg
                        ),
                    );
                }
                c.positive(
                    &path!["objects", i, "kind", "swing_ticks"],
                    &who,
                    door.swing_ticks.into(),
                );
                c.positive(
                    &path!["objects", i, "kind", "stay_open_ticks"],
                    &who,
                    door.stay_open_ticks.into(),
                );
            }
            ObjectKind::Lift(lift) => {
                let who = format!("lift {:?}", object.id);
                if !rect_has_area(&lift.footprint) {
                    c.report(
                        &path!["objects", i, "kind", "footprint"],
                        format!(
                            "{who}: footprint min {} is not south-west of max {}: it has no area",
                            pt(lift.footprint.min),
                            pt(lift.footprint.max)
                        ),
                    );
                } else if ground_ok && !rect_within(&lift.footprint, &file.ground) {
                    c.report(
                        &path!["objects", i, "kind", "footprint"],
                        format!("{who}: footprint reaches outside the ground"),
                    );
                }
                if lift.top_cm <= lift.bottom_cm {
                    c.report(
                        &path!["objects", i, "kind", "top_cm"],
                        format!(
                            "{who}: top_cm {} is not above bottom_cm {}",
                            lift.top_cm, lift.bottom_cm
                        ),
                    );
                }
                c.positive(
                    &path!["objects", i, "kind", "travel_ticks"],
                    &who,
                    lift.travel_ticks.into(),
                );
                c.positive(
                    &path!["objects", i, "kind", "wait_ticks"],
                    &who,
                    lift.wait_ticks.into(),
                );
            }
            ObjectKind::Sign(sign) => {
                let who = format!("sign {:?}", object.id);
                if let Some(ground) = &site.ground
                    && !rect_contains(ground, sign.at)
                {
                    c.report(
                        &path!["objects", i, "kind", "at"],
                        format!("{who} at {} is outside the ground", pt(sign.at)),
                    );
                }
                c.positive(&path!["objects", i, "kind", "height_cm"], &who, sign.height_cm.into());
                c.positive(
                    &path!["objects", i, "kind", "fade_ticks"],
                    &who,
                    sign.fade_ticks.into(),
                );
                c.positive(
                    &path!["objects", i, "kind", "hold_ticks"],
                    &who,
                    sign.hold_ticks.into(),
                );
            }
        }
    }

    // Teleports and cutscene triggers: their zones must not overlap, and a teleport's exits
    // must lie outside every teleport zone.
    c.unique("teleport", file.teleports.iter().map(|t| t.id.as_str()), |i| {
        path!["teleports", i, "id"].to_vec()
    });
    for (i, pair) in file.teleports.iter().enumerate() {
        for (end_name, end) in [("a", &pair.a), ("b", &pair.b)] {
            let who = format!("teleport {:?} end {end_name}", pair.id);
            c.positive(
                &path!["teleports", i, end_name, "zone", "radius_cm"],
                &who,
                end.zone.radius_cm.into(),
            );
            if let Some(ground) = &site.ground
                && !rect_contains(ground, end.zone.centre)
            {
                c.report(
                    &path!["teleports", i, end_name, "zone", "centre"],
                    format!("{who}: zone centre {} is outside the ground", pt(end.zone.centre)),
                );
            }
            site.check_point(
                c,
                &path!["teleports", i, end_name, "exit"],
                &format!("{who}: exit"),
                end.exit,
            );
            for (other, other_end, zone) in teleport_zones(file) {
                if zone.radius_cm > 0 && circle_contains(&zone, end.exit) {
                    c.report(
                        &path!["teleports", i, end_name, "exit"],
                        format!(
                            "{who}: exit {} is inside zone {other_end} of teleport {other:?}",
                            pt(end.exit)
                        ),
                    );
                }
            }
        }
    }
    c.unique("cutscene trigger", file.cutscene_triggers.iter().map(|t| t.id.as_str()), |i| {
        path!["cutscene_triggers", i, "id"].to_vec()
    });
    for (i, trigger) in file.cutscene_triggers.iter().enumerate() {
        let who = format!("cutscene trigger {:?}", trigger.id);
        c.positive(
            &path!["cutscene_triggers", i, "zone", "radius_cm"],
            &who,
            trigger.zone.radius_cm.into(),
        );
        if let Some(ground) = &site.ground
            && !rect_contains(ground, trigger.zone.centre)
        {
            c.report(
                &path!["cutscene_triggers", i, "zone", "centre"],
                format!("{who}: zone centre {} is outside the ground", pt(trigger.zone.centre)),
            );
        }
    }
    let zones = all_zones(file);
    for (j, (path_j, name_j, zone_j)) in zones.iter().enumerate() {
        for (path_i, name_i, zone_i) in zones.iter().take(j) {
            if zone_i.radius_cm > 0 && zone_j.radius_cm > 0 && circles_overlap(zone_i, zone_j) {
                c.report_repeat(
                    path_j,
                    path_i,
                    format!("{name_j} overlaps {name_i}: zones must not overlap"),
                );
            }
        }
    }

    // Characters: names unique among pedestrians and talkers.
    let mut names: BTreeMap<&str, Vec<Seg>> = BTreeMap::new();
    let character_names = file
        .pedestrians
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), path!["pedestrians", i, "name"].to_vec()))
        .chain(
            file.talkers
                .iter()
                .enumerate()
                .map(|(i, t)| (t.name.as_str(), path!["talkers", i, "name"].to_vec())),
        );
    for (name, path) in character_names {
        if name.is_empty() {
            c.report(&path, "a character has an empty name");
        } else if let Some(first) = names.get(name) {
            c.report_repeat(&path, first, format!("duplicate character name {name:?}"));
        } else {
            names.insert(name, path);
        }
    }

    for (i, ped) in file.pedestrians.iter().enumerate() {
        let who = format!("pedestrian {:?}", ped.name);
        let n = ped.route.len();
        if n < 2 {
            let what = if n == 0 { "is empty".to_owned() } else { format!("has {n} point") };
            c.report(
                &path!["pedestrians", i, "route"],
                format!("{who}: route {what}; it needs at least 2 points"),
            );
        }
        for (j, &p) in ped.route.iter().enumerate() {
            site.check_point(
                c,
                &path!["pedestrians", i, "route", j],
                &format!("{who}: route point {j}"),
                p,
            );
        }
        let segments = if n > 2 { n } else { n.saturating_sub(1) };
        for j in 0..segments {
            let k = (j + 1) % n;
            let (Some(&a), Some(&b)) = (ped.route.get(j), ped.route.get(k)) else { continue };
            if a == b {
                c.report(
                    &path!["pedestrians", i, "route", k],
                    format!("{who}: route points {j} and {k} are the same point {}", pt(a)),
                );
                continue;
            }
            let crossed = site.buildings.iter().find(|(_, footprint)| {
                !rect_contains(footprint, a)
                    && !rect_contains(footprint, b)
                    && segment_touches_rect(a, b, footprint)
            });
            if let Some((id, _)) = crossed {
                c.report(
                    &path!["pedestrians", i, "route", j],
                    format!(
                        "{who}: the route from point {j} {} to point {k} {} passes through \
                         building {id:?}",
                        pt(a),
                        pt(b)
                    ),
                );
            }
        }
        for (k, &stop) in ped.stops.iter().enumerate() {
            if stop >= n {
                c.report(
                    &path!["pedestrians", i, "stops", k],
                    format!(
                        "{who}: stop {stop} is not a route point: the route has {n} points \
                         (0..{n})"
                    ),
                );
            }
        }
        c.positive(&path!["pedestrians", i, "pause_ticks"], &who, ped.pause_ticks.into());
        c.positive(&path!["pedestrians", i, "speed_cm_per_s"], &who, ped.speed_cm_per_s.into());
    }

    // Taxis.
    c.unique("taxi", file.taxis.iter().map(|t| t.id.as_str()), |i| {
        path!["taxis", i, "id"].to_vec()
    });
    for (i, taxi) in file.taxis.iter().enumerate() {
        let who = format!("taxi {:?}", taxi.id);
        let n = taxi.route.len();
        if n < 2 {
            let what = if n == 0 { "is empty".to_owned() } else { format!("has {n} waypoint") };
            c.report(
                &path!["taxis", i, "route"],
                format!("{who}: route {what}; it needs at least 2 waypoints"),
            );
        }
        let mut resolved = Vec::with_capacity(n);
        for (j, id) in taxi.route.iter().enumerate() {
            let index = waypoint_index.get(id.as_str()).copied();
            if index.is_none() {
                c.report(
                    &path!["taxis", i, "route", j],
                    format!("{who}: route waypoint {id:?} does not exist"),
                );
            }
            resolved.push(index);
        }
        if n >= 2 {
            for j in 0..n {
                let k = (j + 1) % n;
                if let (Some(Some(a)), Some(Some(b))) = (resolved.get(j), resolved.get(k))
                    && !lanes.contains(&(*a, *b))
                {
                    let (from, to) = (&taxi.route[j], &taxi.route[k]);
                    c.report(
                        &path!["taxis", i, "route", k],
                        format!(
                            "{who}: no lane from {from:?} to {to:?} (route steps {j} to {k}): \
                             a taxi route must follow lanes, the last waypoint back to the first"
                        ),
                    );
                }
            }
        }
        for (k, stand) in taxi.stands.iter().enumerate() {
            if !waypoint_index.contains_key(stand.as_str()) {
                c.report(
                    &path!["taxis", i, "stands", k],
                    format!("{who}: stand waypoint {stand:?} does not exist"),
                );
            } else if !taxi.route.contains(stand) {
                c.report(
                    &path!["taxis", i, "stands", k],
                    format!("{who}: stand {stand:?} is not on its route"),
                );
            }
        }
        c.positive(&path!["taxis", i, "stand_ticks"], &who, taxi.stand_ticks.into());
        c.positive(&path!["taxis", i, "max_speed_cm_per_s"], &who, taxi.max_speed_cm_per_s.into());
    }

    // Talkers and lamps.
    for (i, talker) in file.talkers.iter().enumerate() {
        site.check_point(
            c,
            &path!["talkers", i, "at"],
            &format!("talker {:?}", talker.name),
            talker.at,
        );
    }
    for (i, lamp) in file.lamps.iter().enumerate() {
        let who = format!("lamp {i}");
        site.check_point(c, &path!["lamps", i, "at"], &who, lamp.at);
        c.positive(&path!["lamps", i, "height_cm"], &who, lamp.height_cm.into());
    }
}

/// Every teleport zone: the pair's id, which end, and the zone.
fn teleport_zones(file: &LevelFile) -> impl Iterator<Item = (&str, &'static str, CircleCm)> {
    file.teleports
        .iter()
        .flat_map(|t| [(t.id.as_str(), "a", t.a.zone), (t.id.as_str(), "b", t.b.zone)])
}

/// Every zone of the level, teleports then cutscene triggers: its path, a name for
/// messages, and the circle.
fn all_zones(file: &LevelFile) -> Vec<(Vec<Seg>, String, CircleCm)> {
    let mut zones = Vec::new();
    for (i, t) in file.teleports.iter().enumerate() {
        for (end_name, end) in [("a", &t.a), ("b", &t.b)] {
            zones.push((
                path!["teleports", i, end_name, "zone"].to_vec(),
                format!("zone {end_name} of teleport {:?}", t.id),
                end.zone,
            ));
        }
    }
    for (i, t) in file.cutscene_triggers.iter().enumerate() {
        zones.push((
            path!["cutscene_triggers", i, "zone"].to_vec(),
            format!("the zone of cutscene trigger {:?}", t.id),
            t.zone,
        ));
    }
    zones
}

/// Checks a clip file: sizes, rates, and a clip for every animation state.
fn check_clip_file(file: &ClipFile, c: &mut Checker<'_>) {
    let names = c.unique("clip", file.clips.iter().map(|clip| clip.name.as_str()), |i| {
        path!["clips", i, "name"].to_vec()
    });
    for (i, clip) in file.clips.iter().enumerate() {
        let who = format!("clip {:?}", clip.name);
        c.positive(&path!["clips", i, "frames"], &who, clip.frames.into());
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
fn check_dialogue(file: &DialogueFile, c: &mut Checker<'_>) {
    if file.lines.is_empty() {
        c.report(&path!["lines"], "the dialogue has no lines: it needs at least one");
    }
    for (i, line) in file.lines.iter().enumerate() {
        c.positive(
            &path!["lines", i, "duration_ticks"],
            &format!("line {i} ({:?})", line.speaker),
            line.duration_ticks.into(),
        );
    }
}

/// Checks a cutscene script (not its images' files: [`check_images`]).
fn check_cutscene(file: &CutsceneFile, c: &mut Checker<'_>) {
    let duration = file.duration_ticks;
    c.positive(&path!["duration_ticks"], "the cutscene", duration.into());
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

/// Checks that the images a cutscene shows exist.
fn check_images(file: &CutsceneFile, assets_root: &Path, c: &mut Checker<'_>) {
    for (i, image) in file.images.iter().enumerate() {
        let image_file = assets_root.join(&image.image);
        match fs::metadata(&image_file) {
            Ok(meta) if meta.is_file() => {}
            Ok(_) => c.report(
                &path!["images", i, "image"],
                format!("image file {} is not a file", image_file.display()),
            ),
            Err(error) => c.report(
                &path!["images", i, "image"],
                format!("cannot read image file {}: {error}", image_file.display()),
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Converting

/// Centimetres as fixed-point metres.
fn metres(cm: i32) -> Fx {
    Fx::from_num(cm) / CM_PER_M
}

/// A ground point in metres.
fn ground_point(p: PointCm) -> Vec2 {
    Vec2::new(metres(p.0), metres(p.1))
}

/// A ground point at a height, in the renderer's frame: x east, y up, z south.
fn space_point(p: PointCm, height_cm: i32) -> Vec3 {
    Vec3::new(metres(p.0), metres(height_cm), -metres(p.1))
}

fn rect(r: RectCm) -> Rect {
    Rect { min: ground_point(r.min), max: ground_point(r.max) }
}

fn circle(c: CircleCm) -> Circle {
    Circle { centre: ground_point(c.centre), radius: metres(c.radius_cm) }
}

/// Centimetres per second as metres per tick.
fn per_tick(cm_per_s: i32) -> Fx {
    Fx::from_num(cm_per_s) / CM_PER_S_PER_M_PER_TICK
}

/// An index as the `u32` a [`Level`] stores (level files hold far fewer than 2^32 items).
fn index_u32(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// The clips of a checked clip file.
fn clips_from_file(file: &ClipFile) -> Clips {
    let defs: Vec<ClipDef> = file
        .clips
        .iter()
        .map(|clip| ClipDef {
            name: clip.name.clone(),
            frames: clip.frames,
            frames_per_tick: Fx::saturating_from_num(clip.fps) / i64::from(TICKS_PER_SECOND),
            looping: clip.looping,
        })
        .collect();
    let by_state = AnimState::ALL.map(|state| {
        defs.iter()
            .position(|d| d.name == state.clip_name())
            .and_then(|i| ClipIndex::try_from(i).ok())
            .unwrap_or(0)
    });
    Clips { defs, by_state }
}

/// A checked dialogue script, named by its path under `assets/`.
fn dialogue_def(source: &str, file: DialogueFile) -> DialogueDef {
    DialogueDef {
        source: source.to_owned(),
        lines: file
            .lines
            .into_iter()
            .map(|l| LineDef { speaker: l.speaker, text: l.text, duration_ticks: l.duration_ticks })
            .collect(),
    }
}

/// A checked cutscene script, named by its path under `assets/`.
fn cutscene_def(source: &str, file: CutsceneFile) -> CutsceneDef {
    CutsceneDef {
        source: source.to_owned(),
        duration_ticks: file.duration_ticks,
        camera: file
            .camera
            .iter()
            .map(|k| CameraKeyDef {
                at_tick: k.at_tick,
                eye: space_point(k.eye, k.eye_height_cm),
                target: space_point(k.target, 0),
            })
            .collect(),
        subtitles: file.subtitles,
        images: file.images,
        fade_ticks: file.fade_ticks,
    }
}

/// Converts a checked level file into a [`Level`], with its clips and the dialogue and
/// cutscene scripts it names (found by their [`DialogueDef::source`] and
/// [`CutsceneDef::source`]). Only meaningful for a file that passed the checks: a reference
/// that does not resolve becomes index 0 rather than a panic.
pub(super) fn level_from_file(
    file: &LevelFile,
    source: String,
    clips: Clips,
    dialogues: Vec<DialogueDef>,
    cutscenes: Vec<CutsceneDef>,
) -> Level {
    let waypoint_index: BTreeMap<&str, WaypointIndex> = file
        .streets
        .waypoints
        .iter()
        .enumerate()
        .rev()
        .map(|(i, w)| (w.id.as_str(), index_u32(i)))
        .collect();
    let waypoint = |id: &str| waypoint_index.get(id).copied().unwrap_or(0);
    let building_index: BTreeMap<&str, u32> = file
        .buildings
        .iter()
        .enumerate()
        .rev()
        .map(|(i, b)| (b.id.as_str(), index_u32(i)))
        .collect();

    let minute = u128::from(file.start_minute % MINUTES_PER_DAY);
    let start_time_of_day =
        u32::try_from((minute << 32) / u128::from(MINUTES_PER_DAY)).unwrap_or(0);

    let objects = file
        .objects
        .iter()
        .map(|o| ObjectDef {
            id: o.id.clone(),
            kind: match &o.kind {
                ObjectKind::Door(d) => ObjectDefKind::Door(DoorDef {
                    building: building_index.get(d.building.as_str()).copied().unwrap_or(0),
                    hinge: ground_point(d.hinge),
                    leaf_end: ground_point(d.leaf_end),
                    height: metres(d.height_cm),
                    open_angle: Angle::from_degrees(d.open_deg),
                    swing_ticks: d.swing_ticks,
                    stay_open_ticks: d.stay_open_ticks,
                    easing: d.easing,
                }),
                ObjectKind::Lift(l) => ObjectDefKind::Lift(LiftDef {
                    footprint: rect(l.footprint),
                    bottom: metres(l.bottom_cm),
                    top: metres(l.top_cm),
                    travel_ticks: l.travel_ticks,
                    wait_ticks: l.wait_ticks,
                    easing: l.easing,
                }),
                ObjectKind::Sign(s) => ObjectDefKind::Sign(SignDef {
                    at: space_point(s.at, s.height_cm),
                    facing: Angle::from_degrees(s.facing_deg),
                    text: s.text.clone(),
                    fade_ticks: s.fade_ticks,
                    hold_ticks: s.hold_ticks,
                    easing: s.easing,
                }),
            },
        })
        .collect();

    let teleport_end = |e: &model::TeleportEnd| TeleportEndDef {
        zone: circle(e.zone),
        exit: ground_point(e.exit),
        exit_facing: Angle::from_degrees(e.exit_facing_deg),
    };

    Level {
        name: file.name.clone(),
        source,
        ground: rect(file.ground),
        ticks_per_day: file.day_minutes.saturating_mul(TICKS_PER_MINUTE),
        start_time_of_day,
        clips,
        waypoints: file.streets.waypoints.iter().map(|w| ground_point(w.at)).collect(),
        lanes: file.streets.lanes.iter().map(|(a, b)| (waypoint(a), waypoint(b))).collect(),
        buildings: file
            .buildings
            .iter()
            .map(|b| BuildingDef {
                id: b.id.clone(),
                footprint: rect(b.footprint),
                height: metres(b.height_cm),
            })
            .collect(),
        spawns: file
            .spawns
            .iter()
            .map(|s| SpawnDef { at: ground_point(s.at), facing: Angle::from_degrees(s.facing_deg) })
            .collect(),
        objects,
        teleports: file
            .teleports
            .iter()
            .map(|t| TeleportDef {
                id: t.id.clone(),
                ends: [teleport_end(&t.a), teleport_end(&t.b)],
            })
            .collect(),
        pedestrians: file
            .pedestrians
            .iter()
            .map(|p| PedestrianDef {
                name: p.name.clone(),
                route: p.route.iter().map(|&q| ground_point(q)).collect(),
                stops: (0..p.route.len()).map(|j| p.stops.contains(&j)).collect(),
                pause_ticks: p.pause_ticks,
                speed: per_tick(p.speed_cm_per_s),
            })
            .collect(),
        taxis: file
            .taxis
            .iter()
            .map(|t| TaxiDef {
                id: t.id.clone(),
                route: t.route.iter().map(|id| waypoint(id)).collect(),
                stands: t.route.iter().map(|id| t.stands.contains(id)).collect(),
                stand_ticks: t.stand_ticks,
                max_speed: per_tick(t.max_speed_cm_per_s),
            })
            .collect(),
        talkers: file
            .talkers
            .iter()
            .map(|t| TalkerDef {
                name: t.name.clone(),
                at: ground_point(t.at),
                facing: Angle::from_degrees(t.facing_deg),
                dialogue: index_u32(
                    dialogues.iter().position(|d| d.source == t.dialogue).unwrap_or(0),
                ),
            })
            .collect(),
        dialogues,
        cutscene_triggers: file
            .cutscene_triggers
            .iter()
            .map(|t| CutsceneTriggerDef {
                id: t.id.clone(),
                zone: circle(t.zone),
                cutscene: index_u32(
                    cutscenes.iter().position(|c| c.source == t.cutscene).unwrap_or(0),
                ),
                once: t.once,
            })
            .collect(),
        cutscenes,
        lamps: file
            .lamps
            .iter()
            .map(|l| LampDef { at: ground_point(l.at), height: metres(l.height_cm) })
            .collect(),
    }
}
