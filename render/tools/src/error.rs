//! What can go wrong reading, measuring and plotting.

use std::path::PathBuf;

/// Why a tool could not do its work: every message names the file, and the line where there
/// is one.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// A file cannot be read, is not a file, or is over its kind's limit.
    #[error(transparent)]
    Read(#[from] fixstep_runtime::file::ReadError),
    /// A file cannot be written.
    #[error("cannot write {what} {path}: {source}")]
    Write {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of a file is not what its format says.
    #[error("{what} {path}, line {line}: {message}")]
    Line {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A file has nothing to measure.
    #[error("{what} {path}: {message}")]
    Empty {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// What it lacks.
        message: &'static str,
    },
    /// Neither a truth file nor a trace was given.
    #[error("no truth to measure against: give a truth file or a trace directory")]
    NoTruth,
    /// The plot cannot be drawn.
    #[error("cannot draw the plot {path}: {message}")]
    Plot {
        /// The picture.
        path: PathBuf,
        /// Why.
        message: String,
    },
}
