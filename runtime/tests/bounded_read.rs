//! The bounded file reader (`fixstep_runtime::file`): what is not a regular file is refused
//! before it is read, a file over its kind's limit is refused from its length, and no more
//! than the limit and a byte is ever read.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use fixstep_runtime::file::{
    FileKind, LineReader, NodeKind, ReadError, open, read_bytes, read_text,
};

/// A kind with a small limit, so the tests write little.
const NOTE: FileKind = FileKind::new("note", 1_000);

/// A scratch directory of this test process, removed at the end of each test.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir()
            .join(format!("fixstep-bounded-read-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Self(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("scratch file");
        path
    }
}

/// The error `read` ended in; if it read bytes instead, panics saying how many (not what they
/// were: a file read past its limit is long).
fn refused<T: AsRef<[u8]>>(read: Result<T, ReadError>, what: &str) -> ReadError {
    match read {
        Ok(bytes) => panic!("{what}: {} bytes read", bytes.as_ref().len()),
        Err(error) => error,
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_file_within_its_limit_is_read_whole() {
    let dir = Scratch::new("within");
    let exact = dir.write("exact.txt", &[b'x'; 1_000]);
    assert_eq!(read_bytes(&exact, NOTE).expect("at the limit").len(), 1_000);
    let text = dir.write("text.txt", "hello\n".as_bytes());
    assert_eq!(read_text(&text, NOTE).expect("text"), "hello\n");
}

#[test]
fn a_file_one_byte_over_is_refused_from_its_length_naming_both_sizes() {
    let dir = Scratch::new("over");
    let path = dir.write("over.txt", &[b'x'; 1_001]);
    let error = refused(read_bytes(&path, NOTE), "over the limit");
    assert!(matches!(error, ReadError::TooLarge { size: Some(1_001), limit: 1_000, .. }));
    assert_eq!(
        error.to_string(),
        format!("{}: 1,001 bytes is over the 1,000 bytes a note may be", path.display())
    );
}

#[test]
fn a_sparse_file_of_ten_gigabytes_is_refused_without_reading_it() {
    let dir = Scratch::new("sparse");
    let path = dir.0.join("sparse.bin");
    File::create(&path).and_then(|f| f.set_len(10 << 30)).expect("a sparse file");
    let error = refused(read_bytes(&path, NOTE), "far over");
    assert_eq!(
        error.to_string(),
        format!("{}: 10 GB is over the 1 kB a note may be", path.display())
    );
}

#[cfg(unix)]
#[test]
fn devices_directories_and_fifos_are_refused_before_a_byte_is_read() {
    let dir = Scratch::new("nodes");
    let fifo = dir.0.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    // A FIFO with no writer: opening it for reading would block, reading it would wait.
    let cases: [(&Path, NodeKind, &str); 3] = [
        (Path::new("/dev/zero"), NodeKind::CharDevice, "a character device"),
        (&dir.0, NodeKind::Directory, "a directory"),
        (&fifo, NodeKind::Fifo, "a FIFO"),
    ];
    for (path, node, words) in cases {
        let error = refused(read_bytes(path, NOTE), "not a file");
        assert!(
            matches!(&error, ReadError::NotAFile { node: n, .. } if *n == node),
            "{}: {error}",
            path.display()
        );
        assert_eq!(error.to_string(), format!("{}: {words}, not a file", path.display()));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_that_says_it_is_empty_is_still_read_no_further_than_its_limit() {
    // Files under /proc say they hold 0 bytes; this one holds more than 10.
    let tiny = FileKind::new("status file", 10);
    let status = Path::new("/proc/self/status");
    let error = refused(read_bytes(status, tiny), "more than it says");
    assert!(matches!(error, ReadError::TooLarge { size: None, .. }), "{error}");
    assert_eq!(
        error.to_string(),
        "/proc/self/status: it holds more than the 10 bytes a status file may be"
    );
    let mut opened = open(status, tiny).expect("opens");
    let mut sink = Vec::new();
    assert!(opened.read_to_end(&mut sink).is_err());
    assert_eq!(opened.bytes_read(), 11, "the limit and one byte, never more");
}

#[test]
fn a_missing_file_keeps_its_io_error_as_the_source() {
    let dir = Scratch::new("missing");
    let error = refused(read_bytes(&dir.0.join("nothing"), NOTE), "missing");
    assert!(error.is_not_found());
    let source = std::error::Error::source(&error).expect("the io error");
    assert!(source.downcast_ref::<std::io::Error>().is_some());
    assert!(error.to_string().starts_with("cannot read note "), "{error}");
}

#[test]
fn bytes_that_are_not_utf8_are_refused_as_text_at_their_place() {
    let dir = Scratch::new("binary");
    let path = dir.write("binary", b"ok\xff");
    let error = refused(read_text(&path, NOTE), "not text");
    assert!(matches!(error, ReadError::NotText { at: 2, .. }), "{error}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_stream_read_in_lines_stops_at_its_kind_limit() {
    // Files under /proc say they hold 0 bytes: only the count of what is read stops them.
    let tiny = FileKind::new("status file", 40);
    let status = Path::new("/proc/self/status");
    let mut lines =
        LineReader::new(std::io::BufReader::new(open(status, tiny).expect("opens")), 100);
    let mut read = 0;
    let error = loop {
        match lines.next_line() {
            Ok(Some(line)) => read += line.len() + 1,
            Ok(None) => panic!("the whole file was read: {read} bytes"),
            Err(e) => break e,
        }
    };
    assert!(read <= 40, "{read} bytes of lines read past a 40-byte limit");
    let source = std::error::Error::source(&error).expect("the io error");
    let over = source.downcast_ref::<std::io::Error>().and_then(|e| e.get_ref());
    assert!(
        over.is_some_and(|e| e.to_string().contains("more than the 40 bytes a status file may be")),
        "{error}: {over:?}"
    );
}
