//! Opening and reading a file within its kind's limit.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

use super::{FileKind, NodeKind, ReadError};

/// Bytes read in one go while a file is read whole: the buffer grows by this much at most
/// past what the file said it holds, so a file that lies about its length costs memory only
/// as it delivers bytes.
const READ_CHUNK_BYTES: u64 = 64 << 10;

/// What `metadata` says the path is, if not a regular file.
fn not_a_file(metadata: &Metadata) -> Option<NodeKind> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some(NodeKind::Fifo);
        }
        if kind.is_char_device() {
            return Some(NodeKind::CharDevice);
        }
        if kind.is_block_device() {
            return Some(NodeKind::BlockDevice);
        }
        if kind.is_socket() {
            return Some(NodeKind::Socket);
        }
    }
    Some(if kind.is_dir() { NodeKind::Directory } else { NodeKind::Other })
}

/// Refuses what `metadata` says is not a regular file of `kind`'s size.
fn check(path: &Path, kind: FileKind, metadata: &Metadata) -> Result<(), ReadError> {
    if let Some(node) = not_a_file(metadata) {
        return Err(ReadError::NotAFile { path: path.to_path_buf(), node });
    }
    if metadata.len() > kind.limit_bytes {
        return Err(too_large(path, kind, Some(metadata.len())));
    }
    Ok(())
}

fn too_large(path: &Path, kind: FileKind, size: Option<u64>) -> ReadError {
    ReadError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit: kind.limit_bytes,
        what: kind.with_article(),
    }
}

/// Opens `path` for reading without waiting: a FIFO opened for reading would block until a
/// writer came. Regular files ignore the flag.
fn open_without_blocking(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A file opened for reading, which gives at most its kind's limit of bytes: reading past it
/// fails with [`ReadError::TooLarge`] (as an [`io::Error`] of kind `Other`, whose inner error
/// it is).
#[derive(Debug)]
pub struct Bounded<R> {
    inner: R,
    path: std::path::PathBuf,
    kind: FileKind,
    read: u64,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // One byte past the limit is asked for, to tell a file of exactly the limit from a
        // longer one.
        let left = (self.kind.limit_bytes + 1).saturating_sub(self.read);
        let want = usize::try_from(left).unwrap_or(usize::MAX).min(buf.len());
        let n = self.inner.read(&mut buf[..want])?;
        self.read += n as u64;
        if self.read > self.kind.limit_bytes {
            return Err(io::Error::other(too_large(&self.path, self.kind, None)));
        }
        Ok(n)
    }
}

impl<R> Bounded<R> {
    /// Bytes read so far.
    #[must_use]
    pub const fn bytes_read(&self) -> u64 {
        self.read
    }
}

/// Opens `path`, a file of `kind`, refusing what is not a regular file or is over the kind's
/// limit, before reading and again on the opened handle.
///
/// # Errors
///
/// [`ReadError::Io`] if it cannot be opened, [`ReadError::NotAFile`] for a FIFO, a device, a
/// socket or a directory, [`ReadError::TooLarge`] for a file over the limit.
pub fn open(path: &Path, kind: FileKind) -> Result<Bounded<File>, ReadError> {
    let io = |source| ReadError::Io { path: path.to_path_buf(), what: kind.name, source };
    check(path, kind, &std::fs::metadata(path).map_err(io)?)?;
    let file = open_without_blocking(path).map_err(io)?;
    // The path may have been swapped between the look and the open.
    check(path, kind, &file.metadata().map_err(io)?)?;
    Ok(Bounded { inner: file, path: path.to_path_buf(), kind, read: 0 })
}

/// Reads the whole of `path`, a file of `kind`.
///
/// # Errors
///
/// As [`open`], and [`ReadError::TooLarge`] for a file that holds more than its limit
/// whatever its length says.
pub fn read_bytes(path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
    let mut file = open(path, kind)?;
    let said = file.inner.metadata().map_or(0, |m| m.len()).min(kind.limit_bytes);
    let mut bytes = Vec::with_capacity(usize::try_from(said + 1).unwrap_or(0));
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a chunk of 64 KiB, and usize has at least 32 bits wherever std reads files"
    )]
    let mut chunk = vec![0; READ_CHUNK_BYTES as usize];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::from_io(path, kind.name, e)),
        }
    }
}

/// Reads the whole of `path`, a file of `kind`, as UTF-8 text.
///
/// # Errors
///
/// As [`read_bytes`], and [`ReadError::NotText`] for bytes that are not UTF-8.
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, ReadError> {
    String::from_utf8(read_bytes(path, kind)?).map_err(|e| ReadError::NotText {
        path: path.to_path_buf(),
        at: e.utf8_error().valid_up_to(),
    })
}
