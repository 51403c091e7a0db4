//! Paths that files name: relative to the content folder, and inside it.

use std::path::{Component, Path, PathBuf};

/// The longest path a file may name, bytes: Linux's `PATH_MAX`. No asset path comes near it,
/// and a longer one is refused before it is shown or looked up.
pub const MAX_CONTENT_PATH_BYTES: usize = 4_096;

/// The most characters of a refused path an error shows: enough to recognise it, and a
/// hostile file cannot fill a screen through one.
const MAX_SHOWN_PATH_CHARS: usize = 120;

/// Why a path that a file names was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContentPathError {
    /// It is empty.
    #[error("an empty path names no file")]
    Empty,
    /// It is longer than [`MAX_CONTENT_PATH_BYTES`].
    #[error("a path of {bytes} bytes is longer than the {MAX_CONTENT_PATH_BYTES} a path may be")]
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// It is absolute.
    #[error("{shown} is absolute: a path a file names is relative to its content folder")]
    Absolute {
        /// The path, quoted and shortened.
        shown: String,
    },
    /// It climbs out with `..`.
    #[error("{shown} climbs out with `..`: a path a file names stays in its content folder")]
    Climbs {
        /// The path, quoted and shortened.
        shown: String,
    },
    /// It leads out of the content folder through a link.
    #[error("{shown} leads out of the content folder through a link")]
    Escapes {
        /// The path, quoted and shortened.
        shown: String,
    },
}

/// `path` as an error shows it: quoted, with control characters escaped (so it stays on its
/// line), and cut short past `MAX_SHOWN_PATH_CHARS`.
#[must_use]
pub fn shown_path(path: &str) -> String {
    let mut cut: String = path.chars().take(MAX_SHOWN_PATH_CHARS).collect();
    if cut.len() < path.len() {
        cut.push_str("...");
    }
    format!("{cut:?}")
}

/// Where `name`, a path a file of the content under `root` names, is: `root` joined with it,
/// if it is relative, has no `..`, and leads nowhere outside `root` through a link. Nothing is
/// opened; links are followed only as far as the path exists (a missing file is left for its
/// reader to report).
///
/// # Errors
///
/// [`ContentPathError`] says which rule the path breaks.
pub fn content_path(root: &Path, name: &str) -> Result<PathBuf, ContentPathError> {
    check_content_name(name)?;
    let shown = || shown_path(name);
    let joined = root.join(name);
    let Ok(real_root) = std::fs::canonicalize(root) else {
        // No content folder: nothing under it exists, and the reader says so.
        return Ok(joined);
    };
    // The deepest part of the path that exists, with its links resolved.
    let real = joined.ancestors().find_map(|p| std::fs::canonicalize(p).ok());
    match real {
        Some(real) if real.starts_with(&real_root) => Ok(joined),
        _ => Err(ContentPathError::Escapes { shown: shown() }),
    }
}

/// Whether `name` is a path a file may name, by its text alone: not empty, not too long, not
/// absolute, and no `..`. Links are for [`content_path`] to follow, on disk.
///
/// # Errors
///
/// [`ContentPathError`] says which rule the name breaks.
pub fn check_content_name(name: &str) -> Result<(), ContentPathError> {
    if name.is_empty() {
        return Err(ContentPathError::Empty);
    }
    if name.len() > MAX_CONTENT_PATH_BYTES {
        return Err(ContentPathError::TooLong { bytes: name.len() });
    }
    let shown = || shown_path(name);
    let relative = Path::new(name);
    for component in relative.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => {
                return Err(ContentPathError::Absolute { shown: shown() });
            }
            Component::ParentDir => return Err(ContentPathError::Climbs { shown: shown() }),
            Component::CurDir | Component::Normal(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{ContentPathError, content_path};

    fn root() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    use std::path::Path;

    #[test]
    fn a_relative_path_is_under_the_root() {
        assert_eq!(content_path(&root(), "file/mod.rs"), Ok(root().join("file/mod.rs")));
        assert_eq!(content_path(&root(), "./no/such/file"), Ok(root().join("./no/such/file")));
    }

    #[test]
    fn absolute_paths_and_climbs_are_refused_quoting_the_path() {
        assert_eq!(
            content_path(&root(), "/etc/hostname"),
            Err(ContentPathError::Absolute { shown: "\"/etc/hostname\"".to_owned() })
        );
        assert!(matches!(content_path(&root(), "a/../../x"), Err(ContentPathError::Climbs { .. })));
        assert!(matches!(
            content_path(&root(), "../src/lib.rs"),
            Err(ContentPathError::Climbs { .. })
        ));
        assert_eq!(content_path(&root(), ""), Err(ContentPathError::Empty));
        let long = "a/".repeat(3_000);
        assert_eq!(content_path(&root(), &long), Err(ContentPathError::TooLong { bytes: 6_000 }));
    }

    #[test]
    fn a_shown_path_stays_on_one_short_line() {
        let error = content_path(&root(), &format!("/etc\nforged line {}", "x".repeat(500)))
            .expect_err("absolute");
        let text = error.to_string();
        assert!(!text.contains('\n'), "{text}");
        assert!(text.len() < 300, "{text}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_root_is_refused() {
        let dir = std::env::temp_dir().join(format!("fixstep-content-path-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("inside")).expect("scratch");
        std::os::unix::fs::symlink("/etc", dir.join("out")).expect("link");
        std::os::unix::fs::symlink("inside", dir.join("in")).expect("link");
        let linked = content_path(&dir, "out/hostname");
        let missing_beyond = content_path(&dir, "out/no/such/file");
        let inside = content_path(&dir, "in/no-such-file");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(matches!(linked, Err(ContentPathError::Escapes { .. })), "{linked:?}");
        assert!(matches!(missing_beyond, Err(ContentPathError::Escapes { .. })));
        assert!(inside.is_ok(), "{inside:?}");
    }
}
