//! Content as the files it was read from: read from a folder on disk, or from files a replay
//! carries, through one reader that keeps what it read.
//!
//! A game loads its content (a level and the files it names) through a [`ContentReader`].
//! Reading from a folder, it applies the folder's rules (regular files within their kind's
//! limit, named paths inside the folder) and keeps a copy of every file it read, by the name
//! it was asked for: the content's [`ContentFiles`]. A replay stores those files, compressed,
//! and a reader built on them loads the same content on a machine whose assets differ or are
//! missing, through the same checks: a crafted replay's content is as untrusted as a
//! downloaded level, and is refused the same way.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{ContentPathError, FileKind, ReadError, check_content_name, content_path, read_bytes};

/// The most bytes the files of one content may hold together once unpacked: a level and
/// everything it names are each at most 1 MB, and the town's are 25 kB; 16 MiB holds any
/// content this program loads, and a crafted replay cannot make its reader unpack more.
pub const MAX_CONTENT_FILES_BYTES: usize = 16 << 20;

/// The deflate level content is packed with: the best ratio, as content is packed once a
/// match and is tens of kilobytes.
const PACK_LEVEL: u8 = 9;

/// The files content was read from, by the names its files call each other (paths under the
/// content folder, with `/`), and which of them is the content's own file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentFiles {
    /// The content's own file (the level), by its name here.
    pub main: String,
    /// Every file read, by name.
    files: BTreeMap<String, serde_bytes::ByteBuf>,
}

/// Why packed content files cannot be unpacked.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// The bytes are not deflate, or unpack to more than [`MAX_CONTENT_FILES_BYTES`].
    #[error("the content's files do not unpack: {0}")]
    Inflate(String),
    /// The unpacked bytes are not a list of files.
    #[error("the content's files do not decode")]
    Decode(#[source] postcard::Error),
}

impl ContentFiles {
    /// No files yet; `main` names the content's own file.
    #[must_use]
    pub fn new(main: String) -> Self {
        Self { main, files: BTreeMap::new() }
    }

    /// Keeps `bytes` as the file `name`.
    pub fn insert(&mut self, name: String, bytes: Vec<u8>) {
        self.files.insert(name, serde_bytes::ByteBuf::from(bytes));
    }

    /// The file `name`, if it was read.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(|bytes| bytes.as_slice())
    }

    /// The names of the files, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// Bytes of all files together.
    #[must_use]
    pub fn total_bytes(&self) -> usize {
        self.files.values().map(|bytes| bytes.len()).sum()
    }

    /// The files packed for a file of their own: postcard, then deflate.
    ///
    /// # Errors
    ///
    /// A file too large for postcard's length (never for content that loaded).
    pub fn pack(&self) -> Result<Vec<u8>, postcard::Error> {
        let plain = postcard::to_stdvec(self)?;
        Ok(miniz_oxide::deflate::compress_to_vec(&plain, PACK_LEVEL))
    }

    /// Files that [`pack`](Self::pack) packed, unpacking at most [`MAX_CONTENT_FILES_BYTES`].
    ///
    /// # Errors
    ///
    /// [`UnpackError`] for bytes that are not packed files, or unpack to too many.
    pub fn unpack(packed: &[u8]) -> Result<Self, UnpackError> {
        let plain =
            miniz_oxide::inflate::decompress_to_vec_with_limit(packed, MAX_CONTENT_FILES_BYTES)
                .map_err(|e| UnpackError::Inflate(inflate_words(&e)))?;
        postcard::from_bytes(&plain).map_err(UnpackError::Decode)
    }
}

/// What went wrong inflating, in words.
pub(crate) fn inflate_words(error: &miniz_oxide::inflate::DecompressError) -> String {
    use miniz_oxide::inflate::TINFLStatus;
    match error.status {
        TINFLStatus::HasMoreOutput => "it unpacks to more than its limit".to_owned(),
        TINFLStatus::FailedCannotMakeProgress => "it is cut short".to_owned(),
        _ => "it is not deflate data".to_owned(),
    }
}

/// Where content's files come from.
#[derive(Clone, Debug)]
enum Source {
    /// A folder on disk.
    Folder(PathBuf),
    /// Files carried elsewhere (by a replay), and what errors call their folder.
    Files { files: Arc<ContentFiles>, shown_as: PathBuf },
}

/// Why a file content names was not read.
#[derive(Debug, thiserror::Error)]
pub enum ContentReadError {
    /// Its name breaks the rules of names (absolute, climbing out, too long).
    #[error(transparent)]
    Path(#[from] ContentPathError),
    /// It cannot be read.
    #[error(transparent)]
    Read(#[from] ReadError),
}

/// Reads content's files from a folder, or from files a replay carries, and keeps a copy of
/// each it read, by the name it was asked for: the content's [`ContentFiles`].
///
/// Reading from a folder, it applies the folder's rules (regular files within their kind's
/// limit, named paths inside the folder). Reading carried files, it applies the same checks
/// to their names and sizes: a crafted replay's content is as untrusted as a downloaded
/// level, and is refused the same way.
#[derive(Debug)]
pub struct ContentReader {
    source: Source,
    read: RefCell<ContentFiles>,
}

impl ContentReader {
    /// Reads from the folder `root`.
    #[must_use]
    pub fn folder(root: &Path) -> Self {
        Self { source: Source::Folder(root.to_path_buf()), read: RefCell::default() }
    }

    /// Reads from `files`; errors show a file as `shown_as` joined with its name (the replay
    /// that carries them, say).
    #[must_use]
    pub fn files(files: Arc<ContentFiles>, shown_as: &Path) -> Self {
        Self {
            source: Source::Files { files, shown_as: shown_as.to_path_buf() },
            read: RefCell::default(),
        }
    }

    /// The content folder, for what still reads beside the content (a renderer's own files):
    /// `None` when the files are carried by something else.
    #[must_use]
    pub fn root(&self) -> Option<&Path> {
        match &self.source {
            Source::Folder(root) => Some(root),
            Source::Files { .. } => None,
        }
    }

    /// The content's own file, as the files carried name it (`None` for a folder, where the
    /// user names it).
    #[must_use]
    pub fn main(&self) -> Option<&str> {
        match &self.source {
            Source::Folder(_) => None,
            Source::Files { files, .. } => Some(&files.main),
        }
    }

    /// Where the file `name` is shown in errors: under the folder, or under what carries the
    /// files.
    #[must_use]
    pub fn shown(&self, name: &str) -> PathBuf {
        match &self.source {
            Source::Folder(root) => root.join(name),
            Source::Files { shown_as, .. } => shown_as.join(name),
        }
    }

    /// Reads the file `name`, a path under the content folder, of `kind`; keeps a copy.
    /// Returns the path errors show it by, and its bytes.
    ///
    /// # Errors
    ///
    /// [`ContentReadError::Path`] for a name that leaves the folder (nothing is opened), and
    /// [`ContentReadError::Read`] for a file that cannot be read within its kind's limit.
    pub fn read_bytes(
        &self,
        name: &str,
        kind: FileKind,
    ) -> Result<(PathBuf, Vec<u8>), ContentReadError> {
        let (path, bytes) = match &self.source {
            Source::Folder(root) => {
                let path = content_path(root, name)?;
                let bytes = read_bytes(&path, kind)?;
                (path, bytes)
            }
            Source::Files { files, shown_as } => {
                // The names carried were checked when they were read from a folder; checking
                // again keeps a crafted name from being shown or looked up unchecked.
                check_content_name(name)?;
                let path = shown_as.join(name);
                let bytes = carried(files, name, &path, kind)?.to_vec();
                (path, bytes)
            }
        };
        self.read.borrow_mut().insert(name.to_owned(), bytes.clone());
        Ok((path, bytes))
    }

    /// Reads the file `name` as UTF-8 text; see [`read_bytes`](Self::read_bytes).
    ///
    /// # Errors
    ///
    /// As [`read_bytes`](Self::read_bytes), and [`ReadError::NotText`].
    pub fn read_text(
        &self,
        name: &str,
        kind: FileKind,
    ) -> Result<(PathBuf, String), ContentReadError> {
        let (path, bytes) = self.read_bytes(name, kind)?;
        let text = String::from_utf8(bytes).map_err(|e| ReadError::NotText {
            path: path.clone(),
            at: e.utf8_error().valid_up_to(),
        })?;
        Ok((path, text))
    }

    /// Reads the content's own file: from a folder, the file the user named at `file` (which
    /// may lie outside the folder) kept as `name` (as its file name, if `name` is no name
    /// under the folder); from carried files, the one they call their
    /// own (`file` and `name` unused).
    ///
    /// # Errors
    ///
    /// As [`read_text`](Self::read_text).
    pub fn read_main(
        &self,
        file: &Path,
        name: &str,
        kind: FileKind,
    ) -> Result<(PathBuf, String), ContentReadError> {
        match &self.source {
            Source::Folder(_) => {
                let text = super::read_text(file, kind)?;
                // A file outside the folder is kept under its own name: names the files carry
                // stay inside the folder, where a reader of them looks.
                let name = match check_content_name(name) {
                    Ok(()) => name.to_owned(),
                    Err(_) => file
                        .file_name()
                        .map_or_else(|| "content".to_owned(), |n| n.to_string_lossy().into_owned()),
                };
                let mut read = self.read.borrow_mut();
                read.main.clone_from(&name);
                read.insert(name, text.clone().into_bytes());
                Ok((file.to_path_buf(), text))
            }
            Source::Files { files, .. } => {
                let main = files.main.clone();
                self.read.borrow_mut().main.clone_from(&main);
                self.read_text(&main, kind)
            }
        }
    }

    /// The files read so far, with the content's own file named.
    #[must_use]
    pub fn into_files(self) -> ContentFiles {
        self.read.into_inner()
    }

    /// A copy of the files read so far, with the content's own file named: what content read
    /// through a borrowed reader (as [`Rules::read_content`](crate::Rules::read_content) is
    /// given) keeps, where [`into_files`](Self::into_files) needs the reader itself.
    #[must_use]
    pub fn files_read(&self) -> ContentFiles {
        self.read.borrow().clone()
    }
}

/// The carried file `name` (shown as `path`), within `kind`'s limit.
fn carried<'a>(
    files: &'a ContentFiles,
    name: &str,
    path: &Path,
    kind: FileKind,
) -> Result<&'a [u8], ReadError> {
    let bytes = files.get(name).ok_or_else(|| ReadError::Io {
        path: path.to_path_buf(),
        what: kind.name,
        source: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "the content carried with it holds no such file",
        ),
    })?;
    if bytes.len() as u64 > kind.limit_bytes {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            size: Some(bytes.len() as u64),
            limit: kind.limit_bytes,
            what: kind.with_article(),
        });
    }
    Ok(bytes)
}
