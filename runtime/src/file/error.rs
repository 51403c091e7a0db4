//! Why a file was not read.

use core::fmt;
use std::path::PathBuf;

use super::ByteSize;

/// What a path that is not a regular file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A directory.
    Directory,
    /// A named pipe, which could be read forever or block forever.
    Fifo,
    /// A character device (`/dev/zero`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// Anything else that is not a regular file.
    Other,
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Directory => "a directory",
            Self::Fifo => "a FIFO",
            Self::CharDevice => "a character device",
            Self::BlockDevice => "a block device",
            Self::Socket => "a socket",
            Self::Other => "not a regular file",
        })
    }
}

/// Why a file was not read. Every message names the file; none shows any of its contents.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be opened or read.
    #[error("cannot read {what} {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What it was to be (`"level"`).
        what: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// The path is not a regular file.
    #[error("{}: {node}, not a file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is.
        node: NodeKind,
    },
    /// The file holds more than its kind may.
    #[error("{}: {}", path.display(), over(*size, *limit, what))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its length, when it said one; `None` when it held more than it said.
        size: Option<u64>,
        /// Its kind's limit, bytes.
        limit: u64,
        /// Its kind, with an article (`"a level"`).
        what: String,
    },
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text (byte {at} is not)", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
        /// The first byte that is not part of UTF-8 text.
        at: usize,
    },
}

/// "3.1 GB is over the 16 MB a level may be", or "more than ..." without a size.
fn over(size: Option<u64>, limit: u64, what: &str) -> String {
    match size {
        Some(size) => {
            let (size, limit) = ByteSize(size).pair(ByteSize(limit));
            format!("{size} is over the {limit} {what} may be")
        }
        None => format!("it holds more than the {} {what} may be", ByteSize(limit)),
    }
}

impl ReadError {
    /// The error of reading `path`, a `what`, that failed with `error`: the [`ReadError`] a
    /// [`super::Bounded`] file wraps in it, or the io error itself.
    #[must_use]
    pub fn from_io(path: &std::path::Path, what: &'static str, error: std::io::Error) -> Self {
        match error.downcast::<Self>() {
            Ok(inner) => inner,
            Err(source) => Self::Io { path: path.to_path_buf(), what, source },
        }
    }

    /// Whether the file is not there (a missing file is often no error: defaults are used).
    #[must_use]
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }

    /// The message with its causes, one after another: for a report that holds text only.
    #[must_use]
    pub fn with_causes(&self) -> String {
        match self {
            Self::Io { source, .. } => format!("{self}: {source}"),
            _ => self.to_string(),
        }
    }

    /// What is wrong, with its causes, without the path: for a report that names the file
    /// itself (`FILE: REASON`).
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            Self::Io { what, source, .. } => format!("cannot read the {what}: {source}"),
            Self::NotAFile { node, .. } => format!("{node}, not a file"),
            Self::TooLarge { size, limit, what, .. } => over(*size, *limit, what),
            Self::NotText { at, .. } => format!("not UTF-8 text (byte {at} is not)"),
        }
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &std::path::Path {
        match self {
            Self::Io { path, .. }
            | Self::NotAFile { path, .. }
            | Self::TooLarge { path, .. }
            | Self::NotText { path, .. } => path,
        }
    }
}
