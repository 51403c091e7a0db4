//! A rink read from the file it was loaded from, as a replay carries it: the same rink on a
//! machine without the assets, and a broken or crafted carried file refused naming it under
//! what carries it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_arena::{Layout, LayoutError, layout_from_str, load_layout, read_layout};
use fixstep_runtime::ContentDigest;
use fixstep_runtime::file::{ContentFiles, ContentReader};

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// The rink's file, by its name under the assets.
const RINK: &str = "arena/arena.ron";

/// What the carried file is shown under in errors: a replay's path, which need not exist.
const SHOWN_AS: &str = "replays/carried.fxr";

fn rink() -> Layout {
    load_layout(&assets(), &assets().join(RINK)).unwrap_or_else(|e| panic!("{e}"))
}

/// Reads a rink from `files` alone; the file named is under an empty folder, so nothing can
/// come from disk.
fn read_carried(files: ContentFiles, name: &str) -> Result<Layout, LayoutError> {
    let empty =
        std::env::temp_dir().join(format!("fixstep-arena-carried-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&empty);
    fs::create_dir_all(&empty).expect("a scratch folder");
    let reader = ContentReader::files(Arc::new(files), Path::new(SHOWN_AS));
    let read = read_layout(&reader, &empty.join(RINK));
    let untouched = fs::read_dir(&empty).expect("the scratch folder").next().is_none();
    let _ = fs::remove_dir_all(&empty);
    assert!(untouched, "reading a carried file wrote nothing");
    read
}

/// Files holding `text` as their own file, `main`.
fn carrying(main: &str, text: &str) -> ContentFiles {
    let mut files = ContentFiles::new(main.to_owned());
    files.insert(main.to_owned(), text.as_bytes().to_vec());
    files
}

#[test]
fn the_rink_read_from_its_packed_file_in_an_empty_folder_is_the_rink() {
    let rink = rink();
    assert_eq!(rink.files.main, RINK);
    assert_eq!(rink.files.names().collect::<Vec<_>>(), [RINK]);
    let on_disk = fs::read(assets().join(RINK)).expect("the rink's file");
    assert_eq!(rink.files.get(RINK), Some(on_disk.as_slice()));

    let packed = rink.files.pack().expect("the file packs");
    let unpacked = ContentFiles::unpack(&packed).expect("the file unpacks");
    assert_eq!(unpacked, *rink.files);
    let carried = read_carried(unpacked, "round-trip").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ContentDigest::of(&carried), ContentDigest::of(&rink));
    assert_eq!(carried.files, rink.files);
    assert_eq!(carried.source, RINK);
    assert_eq!(carried, rink, "the same rink, field for field");
}

#[test]
fn the_rink_s_files_are_not_its_content() {
    let rink = rink();
    let text = String::from_utf8(rink.files.get(RINK).expect("carried").to_vec()).expect("text");
    // The same rink from other text (a comment more) is the same content.
    let commented = format!("// another copy\n{text}");
    let other = layout_from_str(&commented, &assets(), &assets().join(RINK)).expect("it loads");
    assert_ne!(other.files, rink.files);
    assert_eq!(other.files.get(RINK), Some(commented.as_bytes()));
    assert_eq!(ContentDigest::of(&other), ContentDigest::of(&rink));
}

#[test]
fn a_damaged_or_missing_carried_rink_is_refused_naming_it() {
    let rink = rink();
    let text = String::from_utf8(rink.files.get(RINK).expect("carried").to_vec()).expect("text");
    let shown = Path::new(SHOWN_AS).join(RINK).display().to_string();

    let cut = &text[..text.len() / 2];
    let error = read_carried(carrying(RINK, cut), "cut").expect_err("a cut rink");
    assert_eq!(error.file, shown);
    assert!(error.line > 0, "a syntax error has its place: {error}");

    let wide = text.replace("goal_width_mm: ", "goal_width_mm: 9");
    let error = read_carried(carrying(RINK, &wide), "wide").expect_err("a goal too wide");
    assert!(error.to_string().starts_with(&format!("{shown}:")), "{error}");

    let mut files = ContentFiles::new(RINK.to_owned());
    files.insert("arena/other.ron".to_owned(), text.into_bytes());
    let error = read_carried(files, "missing").expect_err("no such file");
    assert_eq!(error.file, shown);
    assert!(error.message.contains("holds no such file"), "{error}");
}

#[test]
fn a_carried_rink_named_outside_the_content_folder_is_refused() {
    let text = String::from_utf8(rink().files.get(RINK).expect("carried").to_vec()).expect("text");
    for (main, rule) in [("/etc/hostname", "is absolute"), ("../arena/arena.ron", "climbs out")] {
        let error = read_carried(carrying(main, &text), "outside").expect_err("refused");
        assert_eq!(error.file, SHOWN_AS);
        assert!(error.message.contains(&format!("{main:?} {rule}")), "{error}");
    }
}
