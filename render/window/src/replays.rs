//! The player's replays: the folder a game hosted or joined from the front screen records
//! into, what the front screen's Replays page lists from it, and the names new recordings
//! take. Recordings are named by when they began (UTC), so their names sort by age, and only
//! the newest [`KEPT_REPLAYS`] are kept.

use std::path::{Path, PathBuf};

use fixstep_present::{CommandOf, Game};
use fixstep_runtime::file::read_bytes;
use fixstep_runtime::replay::{REPLAY_FILE, ReplayFile, ReplayHeader};

/// Recordings kept in the folder: a new one deletes the oldest beyond it. Fifty matches are
/// an evening's worth and more, and at about 1 MB an hour of the town with 8 players the folder
/// stays within tens of megabytes however long the player plays.
pub const KEPT_REPLAYS: usize = 50;

/// The extension of a replay file.
pub const REPLAY_EXTENSION: &str = "fxr";

/// Milliseconds in a second, for a recording's date.
const MS_PER_SECOND: u64 = 1_000;
/// Seconds in a day, for a recording's date.
const SECONDS_PER_DAY: u64 = 86_400;

/// Where the player's replays go: `replays` in the program's folder under the player's data
/// directory, beside its desync reports.
#[must_use]
pub fn replays_dir() -> PathBuf {
    dirs::data_dir()
        .map_or_else(|| PathBuf::from("replays"), |d| d.join("fixstep").join(REPLAYS_FOLDER))
}

/// The folder's name under the program's data folder.
pub const REPLAYS_FOLDER: &str = "replays";

/// A replay the Replays page lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayEntry {
    /// The file.
    pub path: PathBuf,
    /// The game's title as the replay names it (its content's title).
    pub game: String,
    /// When it began, milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// Players seated at its start.
    pub players: usize,
    /// Its length, ticks (`None` for another game's replay, which this window cannot read).
    pub ticks: Option<u32>,
    /// Whether this window's game can play it.
    pub playable: bool,
}

impl ReplayEntry {
    /// Its date, `YYYY-MM-DD HH:MM` UTC.
    #[must_use]
    pub fn date(&self) -> String {
        date_time(self.started_unix_ms).0
    }

    /// Its length as the match's clock, `M:SS`, or a dash.
    #[must_use]
    pub fn length(&self) -> String {
        self.ticks.map_or_else(|| "-".to_owned(), fixstep_gpu::match_clock)
    }
}

/// The replays in `dir` that read as replays, newest first; game `G`'s with their length and
/// players, another game's by its header alone. Files that are not replays are left out.
#[must_use]
pub fn list_replays<G: Game>(dir: &Path) -> Vec<ReplayEntry> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut entries: Vec<ReplayEntry> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == REPLAY_EXTENSION))
        .filter_map(|path| entry::<G>(&path))
        .collect();
    entries.sort_by(|a, b| {
        b.started_unix_ms.cmp(&a.started_unix_ms).then_with(|| b.path.cmp(&a.path))
    });
    entries
}

/// What the Replays page says of the replay at `path`, if it reads as one.
fn entry<G: Game>(path: &Path) -> Option<ReplayEntry> {
    let bytes = read_bytes(path, REPLAY_FILE).ok()?;
    let header = ReplayHeader::from_bytes(&bytes).ok()?;
    let ours = header.check_sim::<G::Sim>().is_ok();
    let (players, ticks) = if ours {
        let replay = ReplayFile::<CommandOf<G>>::open(bytes).ok()?;
        let ticks = u32::try_from(replay.end_tick().since(replay.first_tick())).unwrap_or(0);
        (replay.start_seats(), Some(ticks))
    } else {
        (0, None)
    };
    Some(ReplayEntry {
        path: path.to_path_buf(),
        game: header.content_title,
        started_unix_ms: header.started_unix_ms,
        players,
        ticks,
        playable: ours,
    })
}

/// Where a recording that begins at `now_unix_ms` goes in `dir`: named by its date and time,
/// after the oldest recordings beyond [`KEPT_REPLAYS`] (this one among them) are deleted.
/// A file that cannot be deleted is logged and left.
#[must_use]
pub fn new_recording(dir: &Path, now_unix_ms: u64) -> PathBuf {
    if let Err(e) = std::fs::create_dir_all(dir) {
        tracing::warn!("cannot create the replays folder {}: {e}", dir.display());
    }
    let mut old: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|read| {
            read.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == REPLAY_EXTENSION))
                .collect()
        })
        .unwrap_or_default();
    // Names are dates: sorted, the oldest come first.
    old.sort();
    let excess = (old.len() + 1).saturating_sub(KEPT_REPLAYS);
    for path in old.iter().take(excess) {
        if let Err(e) = std::fs::remove_file(path) {
            tracing::warn!("cannot delete the old replay {}: {e}", path.display());
        }
    }
    let (_, stamp) = date_time(now_unix_ms);
    let mut path = dir.join(format!("{stamp}.{REPLAY_EXTENSION}"));
    let mut again = 1;
    while path.exists() {
        again += 1;
        path = dir.join(format!("{stamp}-{again}.{REPLAY_EXTENSION}"));
    }
    path
}

/// The time now, milliseconds since the Unix epoch (0 if the clock is before it).
#[must_use]
pub fn now_unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `unix_ms` as `YYYY-MM-DD HH:MM` and as a file name, `YYYY-MM-DD_HH-MM-SS`, both UTC.
fn date_time(unix_ms: u64) -> (String, String) {
    let seconds = unix_ms / MS_PER_SECOND;
    let (days, in_day) = (seconds / SECONDS_PER_DAY, seconds % SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(i64::try_from(days).unwrap_or(0));
    let (h, m, s) = (in_day / 3600, in_day / 60 % 60, in_day % 60);
    (
        format!("{year:04}-{month:02}-{day:02} {h:02}:{m:02}"),
        format!("{year:04}-{month:02}-{day:02}_{h:02}-{m:02}-{s:02}"),
    )
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(date_time(0).0, "1970-01-01 00:00");
        // 2024-02-29 13:45:07 UTC, a leap day.
        assert_eq!(date_time(1_709_214_307_000).1, "2024-02-29_13-45-07");
    }

    #[test]
    fn a_new_recording_keeps_the_newest_and_names_itself_by_date() {
        let dir = std::env::temp_dir().join(format!("fixstep-replays-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        for i in 0..KEPT_REPLAYS + 3 {
            std::fs::write(dir.join(format!("2020-01-01_00-00-{i:02}.fxr")), b"x").expect("w");
        }
        let path = new_recording(&dir, 1_709_214_307_000);
        assert_eq!(path.file_name().and_then(|n| n.to_str()), Some("2024-02-29_13-45-07.fxr"));
        let left = std::fs::read_dir(&dir).expect("read").count();
        assert_eq!(left, KEPT_REPLAYS - 1, "room for the new one");
        assert!(!dir.join("2020-01-01_00-00-00.fxr").exists(), "the oldest went");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
