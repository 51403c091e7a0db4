//! Locating values in the text: a scanner that turns RON text into a tree of value positions,
//! and [`Doc`], which points a problem at the value at a path in that tree.

use std::path::{Path, PathBuf};

use super::problems::LevelProblem;

/// Deepest nesting of brackets the position scanner follows. Level files nest about six
/// deep; the bound (ron's own recursion limit) keeps a hostile file from exhausting the stack.
const MAX_SCAN_DEPTH: u32 = 128;

/// One step of a path to a value in a file: a struct field by name, or an element of a list
/// or tuple by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seg {
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
pub(super) struct Doc {
    /// The file, as problems name it.
    file: PathBuf,
    /// Its text's tree of positions: `None` without text (a generated level), `Some(None)`
    /// when the text did not scan (problems then point at 1:1).
    tree: Option<Option<Node>>,
}

impl Doc {
    pub(super) fn with_text(file: &Path, text: &str) -> Self {
        Self { file: file.to_path_buf(), tree: Some(Scanner::scan(text)) }
    }

    pub(super) fn without_text(file: &Path) -> Self {
        Self { file: file.to_path_buf(), tree: None }
    }

    /// Line and column of the value at `path`; `None` without text.
    pub(super) fn position(&self, path: &[Seg]) -> Option<(u32, u32)> {
        match &self.tree {
            None => None,
            Some(None) => Some((1, 1)),
            Some(Some(tree)) => Some(tree.locate(path)),
        }
    }

    /// A problem at the value at `path`.
    pub(super) fn problem(&self, path: &[Seg], message: impl Into<String>) -> LevelProblem {
        let (line, column) = self.position(path).unwrap_or((0, 0));
        LevelProblem { file: self.file.clone(), line, column, message: message.into() }
    }
}
