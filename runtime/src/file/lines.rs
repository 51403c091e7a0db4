//! Reading a stream a line at a time, each line within a limit: a line without end (a file of
//! zeros, a JSON line that never closes) costs the limit, never more.

use std::io::{self, BufRead};

/// Why the next line was not read.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The line is longer than the limit.
    #[error("line {line} is longer than {} bytes", .limit)]
    TooLong {
        /// Its 1-based number.
        line: usize,
        /// The limit, bytes.
        limit: usize,
    },
    /// The line is not UTF-8 text.
    #[error("line {line} is not UTF-8 text")]
    NotText {
        /// Its 1-based number.
        line: usize,
    },
    /// The stream cannot be read (or, from a [`super::Bounded`] file, holds more than its
    /// kind may: the source is then a [`super::ReadError`]).
    #[error("cannot read line {line}")]
    Io {
        /// The 1-based number of the line being read.
        line: usize,
        /// Why.
        source: io::Error,
    },
}

/// Lines of a stream, each at most a number of bytes (without its `\n`, or `\r\n`).
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    max_line_bytes: usize,
    line: usize,
    buffer: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Reads `input` in lines of at most `max_line_bytes`.
    #[must_use]
    pub const fn new(input: R, max_line_bytes: usize) -> Self {
        Self { input, max_line_bytes, line: 0, buffer: Vec::new(), failed: false }
    }

    /// The 1-based number of the line read last (0 before the first).
    #[must_use]
    pub const fn line(&self) -> usize {
        self.line
    }

    /// The next line, without its end, or `None` at the end of the stream. After an error,
    /// every later call gives `None`.
    ///
    /// # Errors
    ///
    /// [`LineError`]: a line too long, not text, or a stream that cannot be read.
    pub fn next_line(&mut self) -> Result<Option<String>, LineError> {
        if self.failed {
            return Ok(None);
        }
        let result = self.read_line();
        self.failed = result.is_err();
        result
    }

    fn read_line(&mut self) -> Result<Option<String>, LineError> {
        self.buffer.clear();
        let number = self.line + 1;
        let mut ended = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(source) => return Err(LineError::Io { line: number, source }),
            };
            if available.is_empty() {
                break;
            }
            let (taken, found) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (available.len(), false),
            };
            // Room for a `\r` before the `\n`, which is not counted.
            if self.buffer.len() + taken > self.max_line_bytes + 1 {
                return Err(LineError::TooLong { line: number, limit: self.max_line_bytes });
            }
            self.buffer.extend_from_slice(&available[..taken]);
            self.input.consume(taken + usize::from(found));
            if found {
                ended = true;
                break;
            }
        }
        if !ended && self.buffer.is_empty() {
            return Ok(None);
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        if self.buffer.len() > self.max_line_bytes {
            return Err(LineError::TooLong { line: number, limit: self.max_line_bytes });
        }
        self.line = number;
        match String::from_utf8(core::mem::take(&mut self.buffer)) {
            Ok(text) => Ok(Some(text)),
            Err(_) => Err(LineError::NotText { line: number }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LineError, LineReader};

    fn all(text: &[u8], limit: usize) -> Vec<Result<String, String>> {
        let mut reader = LineReader::new(std::io::BufReader::with_capacity(4, text), limit);
        let mut out = Vec::new();
        loop {
            match reader.next_line() {
                Ok(Some(line)) => out.push(Ok(line)),
                Ok(None) => return out,
                Err(e) => out.push(Err(e.to_string())),
            }
        }
    }

    #[test]
    fn lines_come_without_their_ends() {
        let lines = all(b"one\r\ntwo\n\nthree", 8);
        let expected = ["one", "two", "", "three"].map(|s| Ok(s.to_owned()));
        assert_eq!(lines, expected);
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read_and_one_longer_is_refused_by_number() {
        assert_eq!(all(b"12345678\n", 8), [Ok("12345678".to_owned())]);
        assert_eq!(all(b"12345678\r\n", 8), [Ok("12345678".to_owned())]);
        assert_eq!(
            all(b"ok\n123456789\nnever read\n", 8),
            [Ok("ok".to_owned()), Err("line 2 is longer than 8 bytes".to_owned())]
        );
    }

    #[test]
    fn an_endless_line_costs_the_limit_and_ends_the_reading() {
        use std::io::Read as _;
        // 64 MiB of zeros without a line end; a line may be 1 KiB.
        let total = 64 << 20;
        let mut zeros = std::io::BufReader::new(std::io::repeat(0).take(total));
        let mut reader = LineReader::new(&mut zeros, 1 << 10);
        assert!(matches!(reader.next_line(), Err(LineError::TooLong { line: 1, .. })));
        assert!(matches!(reader.next_line(), Ok(None)), "nothing more after an error");
        let read = total - zeros.get_ref().limit();
        assert!(read <= 16 << 10, "{read} bytes read for a line of at most 1 KiB");
    }

    #[test]
    fn a_line_that_is_not_text_is_named() {
        assert_eq!(all(b"ok\n\xff\xfe\n", 8)[1], Err("line 2 is not UTF-8 text".to_owned()));
    }
}
