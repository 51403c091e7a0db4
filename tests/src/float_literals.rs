//! Finding float literals in Rust source.
//!
//! Clippy's ban of `f32` and `f64` (the simulation crates' `clippy.toml`) catches float types
//! and float arithmetic, but not a literal whose type is inferred: `Fx::from_num(0.5)` converts
//! a float at run time and passes clippy. This scanner finds every float literal in a source
//! text, outside comments and strings, the way the Rust lexer reads numbers: `0.5`, `1.`,
//! `2e3`, `1_000f64`, `3.0_f32` are floats; `1..2`, `x.0`, `1.max(2)`, `0x1e3` and `5u32` are
//! not.

use std::path::{Path, PathBuf};

/// A float literal found in a source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatLiteral {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// The literal as written.
    pub text: String,
}

/// Every float literal in `source`, in text order.
#[must_use]
pub fn float_literals(source: &str) -> Vec<FloatLiteral> {
    let chars: Vec<char> = source.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    let (mut line, mut line_start) = (1, 0);
    // Counts the newlines of a skipped stretch, so positions stay right after it.
    let advance_lines = |from: usize, to: usize, line: &mut usize, line_start: &mut usize| {
        for (k, &c) in chars.iter().enumerate().take(to).skip(from) {
            if c == '\n' {
                *line += 1;
                *line_start = k + 1;
            }
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let end = if c == '/' && next == Some('/') {
            skip_line_comment(&chars, i)
        } else if c == '/' && next == Some('*') {
            skip_block_comment(&chars, i)
        } else if let Some(end) = skip_string(&chars, i) {
            end
        } else if c == '\'' {
            skip_char_or_lifetime(&chars, i)
        } else if c.is_ascii_digit() && !continues_word_or_field(&chars, i) {
            let (end, is_float) = scan_number(&chars, i);
            if is_float {
                found.push(FloatLiteral {
                    line,
                    column: i - line_start + 1,
                    text: chars[i..end].iter().collect(),
                });
            }
            end
        } else if is_ident_char(c) {
            // An identifier such as `x1e5` or `f64`: its digits are not a number.
            let mut end = i;
            while end < chars.len() && is_ident_char(chars[end]) {
                end += 1;
            }
            end
        } else {
            i + 1
        };
        advance_lines(i, end, &mut line, &mut line_start);
        i = end;
    }
    found
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Whether the digit at `i` is part of a word (`x1`) or a tuple field (`pair.0`), not a number.
fn continues_word_or_field(chars: &[char], i: usize) -> bool {
    match i.checked_sub(1).map(|p| chars[p]) {
        Some(p) if is_ident_char(p) => true,
        // `pair.0` is a field; `1..2` is a range whose end is a number.
        Some('.') => !(i >= 2 && chars[i - 2] == '.'),
        _ => false,
    }
}

/// The end of a number starting at `i`, and whether it is a float literal.
fn scan_number(chars: &[char], i: usize) -> (usize, bool) {
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let mut k = i;
    if at(k) == '0' && matches!(at(k + 1), 'x' | 'o' | 'b') {
        // Hexadecimal, octal, binary: integers (`0x1e3` has no exponent).
        k += 2;
        while is_ident_char(at(k)) {
            k += 1;
        }
        return (k, false);
    }
    let digits = |mut k: usize| {
        while at(k).is_ascii_digit() || at(k) == '_' {
            k += 1;
        }
        k
    };
    k = digits(k);
    let mut float = false;
    let after_dot = at(k + 1);
    if at(k) == '.' && after_dot != '.' && (after_dot.is_ascii_digit() || !is_ident_char(after_dot))
    {
        // `1.5` or `1.`: a float. (`1..` is a range, `1.max()` a method call.)
        float = true;
        k = digits(k + 1);
    }
    if matches!(at(k), 'e' | 'E') {
        let sign = usize::from(matches!(at(k + 1), '+' | '-'));
        if at(k + 1 + sign).is_ascii_digit() || at(k + 1 + sign) == '_' {
            float = true;
            k = digits(k + 1 + sign);
        }
    }
    // A suffix: `f32`/`f64` makes a float, `u8`, `i64`, ... an integer.
    let suffix_start = k;
    while is_ident_char(at(k)) {
        k += 1;
    }
    let suffix: String = chars[suffix_start..k].iter().collect();
    let suffix = suffix.trim_start_matches('_');
    if suffix == "f32" || suffix == "f64" {
        float = true;
    }
    (k, float)
}

fn skip_line_comment(chars: &[char], i: usize) -> usize {
    let mut k = i;
    while k < chars.len() && chars[k] != '\n' {
        k += 1;
    }
    k
}

fn skip_block_comment(chars: &[char], i: usize) -> usize {
    let mut depth = 0usize;
    let mut k = i;
    while k < chars.len() {
        if chars[k] == '/' && chars.get(k + 1) == Some(&'*') {
            depth += 1;
            k += 2;
        } else if chars[k] == '*' && chars.get(k + 1) == Some(&'/') {
            depth -= 1;
            k += 2;
            if depth == 0 {
                return k;
            }
        } else {
            k += 1;
        }
    }
    k
}

/// The end of a string literal (plain, byte, C or raw) starting at `i`, if one starts there.
fn skip_string(chars: &[char], i: usize) -> Option<usize> {
    if i > 0 && is_ident_char(chars[i - 1]) {
        return None;
    }
    let mut k = i;
    if matches!(chars[k], 'b' | 'c') {
        k += 1;
    }
    if chars.get(k) == Some(&'r') {
        let mut hashes = 0;
        k += 1;
        while chars.get(k) == Some(&'#') {
            hashes += 1;
            k += 1;
        }
        if chars.get(k) != Some(&'"') {
            return None;
        }
        k += 1;
        while k < chars.len() {
            if chars[k] == '"' && (1..=hashes).all(|h| chars.get(k + h) == Some(&'#')) {
                return Some(k + 1 + hashes);
            }
            k += 1;
        }
        return Some(k);
    }
    if chars.get(k) != Some(&'"') {
        return None;
    }
    k += 1;
    while k < chars.len() {
        match chars[k] {
            '\\' => k += 2,
            '"' => return Some(k + 1),
            _ => k += 1,
        }
    }
    Some(k)
}

/// The end of a char literal (`'a'`, `'\n'`, `'\u{1F600}'`) or of a lifetime's quote.
fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    if at(i + 1) == '\\' {
        let mut k = i + 2;
        while k < chars.len() && chars[k] != '\'' {
            k += 1;
        }
        return k + 1;
    }
    if at(i + 2) == '\'' {
        return i + 3;
    }
    // A lifetime or label: the quote alone; its name is read as an identifier.
    i + 1
}

/// Every float literal in the `.rs` files under `dir` (but not in crates nested in it),
/// skipping files that declare their use
/// of floats to clippy (`#![expect(clippy::disallowed_types, ...)]`: tests and benchmarks
/// that measure fixed-point math against f64). Each is given with its file.
///
/// # Errors
///
/// A directory or file that cannot be read.
pub fn float_literals_under(dir: &Path) -> std::io::Result<Vec<(PathBuf, FloatLiteral)>> {
    let mut found = Vec::new();
    // Crates of their own inside (the derive macro, the network transport, which meets real
    // time and the transport's measures) are not the simulation's sources.
    for path in rust_files_under(dir, false)? {
        let text = std::fs::read_to_string(&path)?;
        if declares_floats(&text) {
            continue;
        }
        found.extend(float_literals(&text).into_iter().map(|f| (path.clone(), f)));
    }
    Ok(found)
}

/// Every `.rs` file under `dir` in path order, skipping build output, and crates nested in it
/// unless `nested`.
///
/// # Errors
///
/// A directory that cannot be read.
pub fn rust_files_under(dir: &Path, nested: bool) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            let skipped = path.file_name().is_some_and(|n| n == "target")
                || (!nested && path.join("Cargo.toml").is_file());
            if !skipped {
                files.extend(rust_files_under(&path, nested)?);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(files)
}

/// Whether a file exempts itself from the float ban with an inner `expect` of the lint.
fn declares_floats(text: &str) -> bool {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    compact.contains("#![expect(clippy::disallowed_types")
}
