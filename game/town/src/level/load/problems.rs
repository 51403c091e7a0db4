//! The errors of loading: a [`LevelProblem`] is one problem, located like a compiler error; a
//! [`LevelError`] is every problem found in a level and the files it refers to.

use std::fmt;
use std::path::PathBuf;

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

/// The most problems an error lists: far more than anyone mends at once, and a hostile level
/// with a problem every few bytes would otherwise print (and hold) hundreds of thousands.
pub const MAX_LISTED_PROBLEMS: usize = 100;

/// Everything wrong with a level and the files it refers to: every problem found, not just
/// the first (up to [`MAX_LISTED_PROBLEMS`], then how many more), in file order and then text
/// order. Its `Display` prints one problem a line.
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
    pub(super) fn from_problems(mut problems: Vec<LevelProblem>) -> Option<Self> {
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
        if problems.len() > MAX_LISTED_PROBLEMS {
            let more = problems.len() - MAX_LISTED_PROBLEMS;
            problems.truncate(MAX_LISTED_PROBLEMS);
            let file = problems.last().map(|p| p.file.clone()).unwrap_or_default();
            let message = format!("and {more} more problems");
            problems.push(LevelProblem { file, line: 0, column: 0, message });
        }
        Some(Self { problems })
    }
}
