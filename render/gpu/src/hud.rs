//! What the HUD shows, as data: the window and its game fill a [`Hud`], and the overlay
//! ([`crate::overlay::Overlay::hud`]) formats it into the lines drawn, once a frame, into a
//! buffer it keeps. Tests read the fields, not the words.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

/// What the HUD shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hud {
    /// Whether to draw the HUD at all (screenshots for image tests leave it off, since frame
    /// rates vary).
    pub visible: bool,
    /// The latest completed tick.
    pub tick: u32,
    /// Frames per second, averaged.
    pub fps: f32,
    /// The latest frame's time, milliseconds.
    pub frame_ms: f32,
    /// The state hash of the latest tick; `None` where no simulation is run (a spectator, a
    /// peer before its welcome).
    pub hash: Option<u64>,
    /// Whether the frame-time graph (F3) shows.
    pub show_graph: bool,
    /// Recent frame times, milliseconds, oldest first, for the graph.
    pub frame_times: Vec<f32>,
    /// A line of help or status under the numbers, if any.
    pub note: Option<String>,
    /// In network play, how the link and the lockstep stand.
    pub network: Option<NetworkLine>,
    /// In network play, how the network clock's estimate of the host moved since it started,
    /// milliseconds, oldest first, drawn over the frame-time graph.
    pub clock_offsets: Vec<f32>,
}

/// The network line of the HUD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkLine {
    /// A windowed host, playing in its own game.
    Hosting(HostingLine),
    /// A player not yet welcomed.
    Connecting,
    /// A player in the game.
    Playing(PlayingLine),
    /// A spectator.
    Watching {
        /// How far behind the match it watches, whole seconds (the host's spectator delay
        /// and the link's).
        behind_s: u32,
        /// Entities it draws.
        entities: usize,
        /// Updates the host sent it.
        snapshots: u64,
        /// The round trip to the host, milliseconds.
        rtt_ms: u64,
    },
    /// The game ended for this window, in words (the host's goodbye, a lost link).
    Ended(String),
    /// A recorded match being watched.
    Replay(ReplayLine),
}

/// A replay's line: where the viewer is in the match, how fast it plays, who it follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayLine {
    /// The tick the state shown is at (ticks run since the match began).
    pub tick: u32,
    /// The first tick the replay holds.
    pub first_tick: u32,
    /// The tick after the last one it holds.
    pub end_tick: u32,
    /// The speed, as a power of two: 0 plays in real time, -2 at a quarter, 4 sixteen times
    /// as fast.
    pub speed_shift: i8,
    /// Whether playback is paused.
    pub paused: bool,
    /// The player the camera follows, by name; `None` when the camera is free.
    pub following: Option<String>,
}

/// Ticks in a minute of a match, for a replay's M:SS.
const TICKS_PER_MINUTE: u32 = 600;

/// Ticks in a second of a match, for a replay's M:SS.
const TICKS_PER_SECOND: u32 = 10;

/// `ticks` of 100 ms as the match's clock, `M:SS`.
#[must_use]
pub fn match_clock(ticks: u32) -> String {
    format!("{}:{:02}", ticks / TICKS_PER_MINUTE, ticks / TICKS_PER_SECOND % 60)
}

/// A replay's speed as a player reads it: `1/4x` to `16x`.
#[must_use]
pub fn speed_words(speed_shift: i8) -> String {
    if speed_shift >= 0 {
        format!("{}x", 1_u32 << speed_shift.unsigned_abs().min(31))
    } else {
        format!("1/{}x", 1_u32 << speed_shift.unsigned_abs().min(31))
    }
}

impl fmt::Display for ReplayLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let length = self.end_tick.saturating_sub(self.first_tick);
        write!(
            f,
            "replay {} / {}   tick {}   {}   {}",
            match_clock(self.tick.saturating_sub(self.first_tick)),
            match_clock(length),
            self.tick,
            speed_words(self.speed_shift),
            if self.paused { "paused" } else { "playing" },
        )?;
        match &self.following {
            Some(name) => write!(f, "   following {name}"),
            None => write!(f, "   free camera"),
        }
    }
}

/// A windowed host's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostingLine {
    /// Where peers reach it.
    pub address: SocketAddr,
    /// The tick it runs next.
    pub host_tick: u32,
    /// Peers connected.
    pub peers: usize,
    /// The slowest peer's round trip, milliseconds, once measured.
    pub worst_rtt_ms: Option<u64>,
    /// Inputs that came too late for their tick.
    pub late_inputs: u64,
    /// Ticks its serving thread ran because the window fell behind.
    pub stood_in: u64,
    /// Desyncs found, if any, and where their reports are.
    pub desyncs: Option<DesyncCount>,
    /// Where friends on other networks reach it, and how (`198.51.100.4:7465 by UPnP`),
    /// once its router or a STUN server said.
    pub public: Option<String>,
    /// Its match's join code, once its rendezvous gave one.
    pub code: Option<String>,
    /// Peers whose packets its TURN relay carries.
    pub relayed: usize,
}

/// Desyncs a host found, and where it wrote their reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesyncCount {
    /// Peers told of a desync.
    pub desyncs: u64,
    /// Peers resynced.
    pub resyncs: u64,
    /// The folder of the reports (`--reports`, or the front screen's choice).
    pub reports: PathBuf,
}

/// A player's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayingLine {
    /// The host's latest tick, once one arrived.
    pub host_tick: Option<u32>,
    /// The round trip to the host, milliseconds.
    pub rtt_ms: u64,
    /// Inputs sent and not yet run.
    pub queued: u32,
    /// How long before its tick an input reaches the host, and the margin aimed at,
    /// milliseconds, once the host said.
    pub margin_ms: Option<(u32, u32)>,
    /// Inputs that came too late for their tick.
    pub late_inputs: u64,
    /// The last tick whose hash went to the host, and the hash.
    pub hashed: Option<(u32, u64)>,
    /// Whether the host found the hashes equal.
    pub agreement: Agreement,
    /// The match's latest change of host, while it is news.
    pub host_change: Option<HostChange>,
    /// How the path to the host runs when it was found by code: `direct`, `mapped`,
    /// `relayed` or `local`.
    pub path: Option<String>,
}

/// The match's host went and another took it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostChange {
    /// The old host's own player's name (empty for a host that played no character).
    pub left: String,
    /// The new host's player's name.
    pub hosts: String,
    /// How long the match paused for this player, milliseconds, once it went on.
    pub pause_ms: Option<u64>,
}

impl fmt::Display for HostChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.left.as_str() {
            "" => f.write_str("the host left")?,
            left => write!(f, "{left} left")?,
        }
        write!(f, "; {} hosts now", self.hosts)?;
        match self.pause_ms {
            Some(ms) => write!(f, " (the match paused {}.{} s)", ms / 1000, ms % 1000 / 100),
            None => f.write_str(" (waiting)"),
        }
    }
}

/// How a player's hashes stand with the host's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// No hash compared yet.
    Unknown,
    /// The hashes agree.
    Agrees,
    /// The host found a desync at this tick.
    Desync(u32),
    /// The host sent its state after a desync, and play went on from this tick.
    Resynced(u32),
}

/// What follows the words of a game that ended, in the network line.
const ENDED_HINT: &str = "Esc for the menu";

/// The least delay a spectator's line names, seconds: under it the delay is the link's
/// playout (a few ticks), which every network view has and is not worth a word.
const SHOWN_BEHIND_S: u32 = 2;

/// A hash shortened for the HUD: its top 32 bits in hex, enough to tell two apart by eye.
struct ShortHash(u64);

impl fmt::Display for ShortHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08x}", self.0 >> 32)
    }
}

/// A value the HUD may not have yet: its words, or `-`.
struct OrDash<T>(Option<T>);

impl<T: fmt::Display> fmt::Display for OrDash<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(value) => value.fmt(f),
            None => f.write_str("-"),
        }
    }
}

impl fmt::Display for NetworkLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hosting(line) => line.fmt(f),
            Self::Connecting => f.write_str("connecting..."),
            Self::Playing(line) => line.fmt(f),
            Self::Watching { behind_s, entities, snapshots, rtt_ms } => {
                if *behind_s >= SHOWN_BEHIND_S {
                    write!(f, "watching {behind_s} s behind: ")?;
                } else {
                    write!(f, "watching: ")?;
                }
                write!(f, "{entities} entities   {snapshots} snapshots   rtt {rtt_ms} ms")
            }
            Self::Ended(words) => write!(f, "{words}: {ENDED_HINT}"),
            Self::Replay(line) => line.fmt(f),
        }
    }
}

impl fmt::Display for HostingLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hosting at {}", self.address)?;
        if let Some(public) = &self.public {
            write!(f, ", public {public}")?;
        }
        if let Some(code) = &self.code {
            write!(f, ", code {code}")?;
        }
        write!(f, ": host tick {}   peers {}", self.host_tick, self.peers)?;
        if self.relayed > 0 {
            write!(f, " ({} relayed)", self.relayed)?;
        }
        f.write_str("   rtt ")?;
        match self.worst_rtt_ms {
            Some(ms) => write!(f, "{ms} ms")?,
            None => f.write_str("-")?,
        }
        write!(f, "   late inputs {}", self.late_inputs)?;
        if self.stood_in > 0 {
            write!(f, "   ticks run without the window {}", self.stood_in)?;
        }
        if let Some(d) = &self.desyncs {
            write!(
                f,
                "   DESYNC x{}, resynced x{} (see {})",
                d.desyncs,
                d.resyncs,
                d.reports.display()
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for PlayingLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(change) = &self.host_change {
            write!(f, "{change}   ")?;
        }
        write!(f, "host tick {}   rtt {} ms", OrDash(self.host_tick), self.rtt_ms)?;
        if let Some(path) = &self.path {
            write!(f, " ({path})")?;
        }
        write!(f, "   input queue {}, margin ", self.queued)?;
        match self.margin_ms {
            Some((margin, aim)) => write!(f, "{margin} ms (aim {aim})")?,
            None => f.write_str("-")?,
        }
        write!(f, "   late inputs {}   last hash ", self.late_inputs)?;
        match self.hashed {
            Some((tick, hash)) => write!(f, "{tick} {}", ShortHash(hash))?,
            None => f.write_str("-")?,
        }
        match self.agreement {
            Agreement::Resynced(tick) => write!(f, "   resynced at tick {tick}"),
            Agreement::Desync(tick) => write!(f, "   DESYNC at tick {tick}"),
            Agreement::Agrees => f.write_str(" (agrees)"),
            Agreement::Unknown => Ok(()),
        }
    }
}

impl Hud {
    /// Writes the HUD's lines into `out` (cleared first): the tick, frame rate and time, the
    /// state hash, the time of day of a game that has one (`HH:MM` and its phase, given), the
    /// network line and the note.
    ///
    /// # Errors
    ///
    /// Never: writing to a `String` does not fail.
    pub fn write_lines(&self, out: &mut String, time_of_day: Option<(u32, &str)>) -> fmt::Result {
        use fmt::Write as _;
        out.clear();
        write!(out, "tick {}   {:.0} fps   {:.1} ms\nhash ", self.tick, self.fps, self.frame_ms)?;
        match self.hash {
            Some(hash) => write!(out, "{}", ShortHash(hash))?,
            None => out.push_str("-       "),
        }
        if let Some((minutes, phase)) = time_of_day {
            write!(out, "   {:02}:{:02} {phase}", minutes / 60, minutes % 60)?;
        }
        if let Some(network) = &self.network {
            write!(out, "\n{network}")?;
        }
        if let Some(note) = &self.note {
            write!(out, "\n{note}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hosts_line_names_the_folder_the_desync_reports_went_to() {
        let reports = PathBuf::from("/home/ada/.local/share/fixstep/desync-reports");
        let line = HostingLine {
            address: SocketAddr::from(([192, 168, 1, 20], 7777)),
            host_tick: 120,
            peers: 2,
            worst_rtt_ms: None,
            late_inputs: 3,
            stood_in: 0,
            desyncs: Some(DesyncCount { desyncs: 2, resyncs: 1, reports }),
            public: None,
            code: None,
            relayed: 0,
        };
        assert_eq!(
            NetworkLine::Hosting(line.clone()).to_string(),
            "hosting at 192.168.1.20:7777: host tick 120   peers 2   rtt -   late inputs 3   \
             DESYNC x2, resynced x1 (see /home/ada/.local/share/fixstep/desync-reports)"
        );
        let reached = HostingLine {
            public: Some("198.51.100.4:7777 by UPnP".into()),
            code: Some("KQ7-4PX".into()),
            relayed: 1,
            desyncs: None,
            ..line
        };
        assert_eq!(
            NetworkLine::Hosting(reached).to_string(),
            "hosting at 192.168.1.20:7777, public 198.51.100.4:7777 by UPnP, code KQ7-4PX: host \
             tick 120   peers 2 (1 relayed)   rtt -   late inputs 3"
        );
    }

    #[test]
    fn a_players_line_says_what_it_knows_and_dashes_what_it_does_not() {
        let line = PlayingLine {
            host_tick: Some(40),
            rtt_ms: 82,
            queued: 2,
            margin_ms: None,
            late_inputs: 0,
            hashed: Some((38, 0xdead_beef_0123_4567)),
            agreement: Agreement::Agrees,
            host_change: None,
            path: None,
        };
        assert_eq!(
            NetworkLine::Playing(line.clone()).to_string(),
            "host tick 40   rtt 82 ms   input queue 2, margin -   late inputs 0   last hash 38 \
             deadbeef (agrees)"
        );
        let relayed = PlayingLine { path: Some("relayed".into()), ..line.clone() };
        assert!(
            NetworkLine::Playing(relayed)
                .to_string()
                .starts_with("host tick 40   rtt 82 ms (relayed)   "),
            "the path beside its round trip"
        );
        let change = HostChange { left: "ada".into(), hosts: "bob".into(), pause_ms: Some(1_340) };
        let moved = PlayingLine { host_change: Some(change), ..line };
        assert!(
            NetworkLine::Playing(moved).to_string().starts_with(
                "ada left; bob hosts now (the match paused 1.3 s)   host tick 40   rtt 82 ms"
            ),
            "the news comes first"
        );
        let ended = NetworkLine::Ended("the host at 10.0.0.2:7777 ended the match".to_owned());
        assert_eq!(
            ended.to_string(),
            "the host at 10.0.0.2:7777 ended the match: Esc for the menu"
        );
    }

    #[test]
    fn a_replays_line_says_the_match_time_speed_and_who_is_followed() {
        let line = ReplayLine {
            tick: 754,
            first_tick: 0,
            end_tick: 3000,
            speed_shift: -2,
            paused: true,
            following: Some("Ada".to_owned()),
        };
        assert_eq!(
            NetworkLine::Replay(line).to_string(),
            "replay 1:15 / 5:00   tick 754   1/4x   paused   following Ada"
        );
        assert_eq!(speed_words(4), "16x");
        assert_eq!(speed_words(0), "1x");
    }

    #[test]
    fn the_lines_are_written_into_the_buffer_given() {
        let hud = Hud {
            tick: 7,
            fps: 59.6,
            frame_ms: 16.74,
            hash: None,
            network: Some(NetworkLine::Connecting),
            note: Some("WASD move".to_owned()),
            ..Hud::default()
        };
        let mut out = String::from("last frame's");
        hud.write_lines(&mut out, Some((13 * 60 + 5, "day"))).expect("a String takes it");
        assert_eq!(
            out,
            "tick 7   60 fps   16.7 ms\nhash -          13:05 day\nconnecting...\nWASD move"
        );
    }
}
