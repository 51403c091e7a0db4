//! Reading files nobody vouches for: levels, replays, scripts, logs, settings, secrets.
//!
//! Every file the program reads goes through here. A file is read only if it is a regular
//! file (a FIFO, a device, a socket or a directory is refused before a byte is read, and again
//! on the opened handle, which is opened without blocking so that a FIFO swapped in between
//! cannot hold the open), and only up to its kind's limit: a file whose length is over the
//! limit is refused from its length, and at most limit + 1 bytes are read whatever the length
//! says (a file in `/proc` says 0, a growing file says less than it will be). Each kind of file
//! is a [`FileKind`], a name and a limit, declared as a constant next to the code that reads
//! it, with the reason for its limit.
//!
//! A path that a file names (a replay's level, a level's clips) is a [`content_path`]:
//! relative to the content folder, never absolute, never climbing out with `..`, and never
//! leading out through a link; it is checked before anything is opened.
//!
//! ```
//! use fixstep_runtime::file::{FileKind, read_text};
//!
//! const NOTE: FileKind = FileKind::new("note", 1_000);
//! let error = read_text(std::path::Path::new("/dev/zero"), NOTE).unwrap_err();
//! assert_eq!(error.to_string(), "/dev/zero: a character device, not a file");
//! ```

mod bundle;
pub(crate) use bundle::inflate_words;
mod content;
mod error;
mod lines;
mod open;
mod size;

pub use bundle::{
    ContentFiles, ContentReadError, ContentReader, MAX_CONTENT_FILES_BYTES, UnpackError,
};
pub use content::{
    ContentPathError, MAX_CONTENT_PATH_BYTES, check_content_name, content_path, shown_path,
};
pub use error::{NodeKind, ReadError};
pub use lines::{LineError, LineReader};
pub use open::{Bounded, open, read_bytes, read_text};
pub use size::ByteSize;

/// A kind of file and the most bytes one may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// What the file is, in words, without an article: `"level"`, `"input script"`.
    pub name: &'static str,
    /// The most bytes a file of the kind may hold.
    pub limit_bytes: u64,
}

impl FileKind {
    /// A kind named `name` (without an article) whose files hold at most `limit_bytes`.
    #[must_use]
    pub const fn new(name: &'static str, limit_bytes: u64) -> Self {
        Self { name, limit_bytes }
    }

    /// The name with its indefinite article: `"a level"`, `"an input script"`.
    #[must_use]
    pub fn with_article(&self) -> String {
        let vowel = self.name.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {}", if vowel { "an" } else { "a" }, self.name)
    }
}
