//! A level read from the files it was loaded from, as a replay carries them: the same level on
//! a machine without the assets, and every broken or crafted carried file refused as a file on
//! disk is, named under what carries it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::file::{ContentFiles, ContentReader};
use fixstep_town::level::{self, Level, LevelError, LevelProblem};

/// The workspace's assets.
fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// What the carried files are shown under in problems: a replay's path, which need not exist.
const SHOWN_AS: &str = "replays/carried.fxr";

/// The town's level file, by its name under the assets.
const TOWN: &str = "levels/town.ron";

/// An empty folder of its own, removed when dropped.
struct EmptyFolder(PathBuf);

impl EmptyFolder {
    fn new(name: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("fixstep-carried-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).expect("a scratch folder");
        Self(root)
    }

    /// Whether nothing was written into it.
    fn is_empty(&self) -> bool {
        fs::read_dir(&self.0).expect("the scratch folder").next().is_none()
    }
}

impl Drop for EmptyFolder {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The town, loaded from the assets.
fn town() -> Level {
    let assets = assets();
    level::load_level(&assets, &assets.join(TOWN)).unwrap_or_else(|e| panic!("{e}"))
}

/// Reads a level from `files` alone, shown under [`SHOWN_AS`]; the level file named is under
/// an empty folder, so nothing can come from disk.
fn read_carried(files: ContentFiles, name: &str) -> Result<Level, LevelError> {
    let empty = EmptyFolder::new(name);
    let reader = ContentReader::files(Arc::new(files), Path::new(SHOWN_AS));
    let read = level::read_level(&reader, &empty.0.join(TOWN));
    assert!(empty.is_empty(), "reading carried files wrote nothing");
    read
}

/// `files` with `name` holding `bytes` (or left out, for `None`), and `main` as given.
fn edited(files: &ContentFiles, main: &str, name: &str, bytes: Option<&[u8]>) -> ContentFiles {
    let mut out = ContentFiles::new(main.to_owned());
    for kept in files.names().filter(|&n| n != name) {
        out.insert(kept.to_owned(), files.get(kept).expect("listed").to_vec());
    }
    if let Some(bytes) = bytes {
        out.insert(name.to_owned(), bytes.to_vec());
    }
    out
}

/// The problems of carried files that must not load.
fn problems(files: ContentFiles, name: &str) -> Vec<LevelProblem> {
    match read_carried(files, name) {
        Ok(_) => panic!("the broken carried files loaded"),
        Err(error) => error.problems,
    }
}

/// Line and column (from 1) of the first `needle` in `text`.
fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let offset = text.find(needle).expect("the needle is in the text");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (u32::try_from(line).expect("small"), u32::try_from(column).expect("small"))
}

/// The text of the carried file `name`.
fn text_of(files: &ContentFiles, name: &str) -> String {
    String::from_utf8(files.get(name).expect("carried").to_vec()).expect("text")
}

#[test]
fn the_town_keeps_every_file_it_was_read_from() {
    let town = town();
    let names: Vec<&str> = town.files.names().collect();
    assert_eq!(
        names,
        [
            "animations/humanoid.ron",
            "cutscenes/fountain.ron",
            "dialogue/mayor.ron",
            "images/fountain_postcard.png",
            TOWN,
        ]
    );
    assert_eq!(town.files.main, TOWN);
    for name in names {
        let on_disk = fs::read(assets().join(name)).expect("the asset");
        assert_eq!(town.files.get(name), Some(on_disk.as_slice()), "{name} as read");
    }
}

#[test]
fn the_town_read_from_its_packed_files_in_an_empty_folder_is_the_town() {
    let town = town();
    let packed = town.files.pack().expect("the files pack");
    let unpacked = ContentFiles::unpack(&packed).expect("the files unpack");
    assert_eq!(unpacked, *town.files);
    let carried = read_carried(unpacked, "round-trip").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(carried.digest(), town.digest());
    assert_eq!(carried.files, town.files);
    assert_eq!(carried.source, TOWN);
    assert_eq!(carried, town, "the same level, field for field");
}

#[test]
fn levels_made_in_code_and_from_text_keep_what_they_have() {
    let assets = assets();
    let clips = level::load_clips(&assets, "animations/humanoid.ron").expect("the clips load");
    assert_eq!(*level::stress_level(clips.clone()).files, ContentFiles::default());
    assert_eq!(*level::crowd_level(clips).files, ContentFiles::default());
    let text = fs::read_to_string(assets.join(TOWN)).expect("the town's text");
    let from_text =
        level::load_level_str(&text, &assets.join(TOWN), &assets).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(from_text.files, town().files);
}

#[test]
fn carried_files_without_the_clip_file_are_refused_naming_it() {
    let town = town();
    let files = edited(&town.files, TOWN, "animations/humanoid.ron", None);
    let found = problems(files, "no-clips");
    assert_eq!(found.len(), 1, "{found:?}");
    let level_text = text_of(&town.files, TOWN);
    let (line, column) = position_of(&level_text, "\"animations/humanoid.ron\"");
    let problem = &found[0];
    assert_eq!(problem.file, Path::new(SHOWN_AS).join(TOWN));
    assert_eq!((problem.line, problem.column), (line, column));
    let missing = Path::new(SHOWN_AS).join("animations/humanoid.ron");
    assert!(problem.message.contains("cannot read clip file"), "{problem}");
    assert!(problem.message.contains(&missing.display().to_string()), "{problem}");
    assert!(problem.message.contains("holds no such file"), "{problem}");
}

#[test]
fn a_damaged_carried_dialogue_file_is_refused_naming_it() {
    let town = town();
    let dialogue = text_of(&town.files, "dialogue/mayor.ron");
    let cut = &dialogue[..dialogue.len() / 2];
    let found = problems(
        edited(&town.files, TOWN, "dialogue/mayor.ron", Some(cut.as_bytes())),
        "cut-dialogue",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].file, Path::new(SHOWN_AS).join("dialogue/mayor.ron"));
    assert!(found[0].line > 0, "a syntax error has its place: {}", found[0]);

    // Not text at all: at the value naming it, naming the byte.
    let found = problems(
        edited(&town.files, TOWN, "dialogue/mayor.ron", Some(&[b'(', 0xff, b')'])),
        "binary-dialogue",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].file, Path::new(SHOWN_AS).join(TOWN));
    assert!(found[0].message.contains("not UTF-8 text (byte 1 is not)"), "{}", found[0]);
    let shown = Path::new(SHOWN_AS).join("dialogue/mayor.ron");
    assert!(found[0].message.contains(&shown.display().to_string()), "{}", found[0]);
}

#[test]
fn carried_files_over_their_kind_s_limit_or_without_an_image_are_refused() {
    let town = town();
    let huge = vec![b' '; 1_000_001];
    let found = problems(edited(&town.files, TOWN, "cutscenes/fountain.ron", Some(&huge)), "huge");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message.contains("is over the 1,000,000 bytes a cutscene file may be"),
        "{}",
        found[0]
    );

    let found = problems(edited(&town.files, TOWN, "images/fountain_postcard.png", None), "image");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].file, Path::new(SHOWN_AS).join("cutscenes/fountain.ron"));
    assert!(found[0].message.contains("cannot read image file"), "{}", found[0]);

    // The level file itself missing is a problem of the level file.
    let found = problems(edited(&town.files, TOWN, TOWN, None), "no-level");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].file, Path::new(SHOWN_AS).join(TOWN));
    assert!(found[0].message.contains("cannot read the level file"), "{}", found[0]);
}

#[test]
fn carried_names_that_leave_the_content_folder_are_refused() {
    let town = town();
    let level_text = text_of(&town.files, TOWN);

    // The level's own file, named by an absolute path or one that climbs: refused at what
    // carries the files, the name quoted, nothing read.
    for (main, rule) in [("/etc/hostname", "is absolute"), ("../levels/town.ron", "climbs out")] {
        let files = edited(&town.files, main, main, Some(level_text.as_bytes()));
        let found = problems(files, "bad-main");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].file, Path::new(SHOWN_AS));
        assert!(found[0].message.contains(&format!("{main:?} {rule}")), "{}", found[0]);
    }

    // A file the level names, by such a name, carried under it: refused at the value naming it.
    let clips = town.files.get("animations/humanoid.ron").expect("carried");
    for (name, rule) in [
        ("/animations/humanoid.ron", "is absolute"),
        ("../assets/animations/humanoid.ron", "climbs out"),
    ] {
        let text =
            level_text.replace("clips: \"animations/humanoid.ron\"", &format!("clips: {name:?}"));
        let files = edited(&town.files, TOWN, TOWN, Some(text.as_bytes()));
        let files = edited(&files, TOWN, name, Some(clips));
        let found = problems(files, "bad-name");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].file, Path::new(SHOWN_AS).join(TOWN));
        assert_eq!((found[0].line, found[0].column), position_of(&text, &format!("{name:?}")));
        assert!(
            found[0].message.contains(&format!("clip file path {name:?} {rule}")),
            "{}",
            found[0]
        );
    }
}
