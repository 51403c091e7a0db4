//! Desync reports: when a peer's state hash of a tick differs from the host's, both write a
//! folder with the tick, both states in readable RON, the partial hashes, and the first entity
//! and field where the states differ (the game's [`NetRules::entity_at`] names the entity).
//! `fixstep desync-diff` compares two such states.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::math::Fx;
use fixstep_runtime::replay::{DesyncNote, RecordedBy, ReplayHeader, ReplayRecorder};
use fixstep_runtime::rules::{CommandOf, StateOf};
use fixstep_runtime::{HashRecord, Player, Tick};
use ron::Value;
use ron::value::Number;
use serde::Serialize;

use crate::{NetPlayError, NetRules, RecentStates, RecentTicks};

/// The index in brackets right after `prefix` at the start of a field's `path`
/// (`index_after("pucks[2].pos.x", "pucks[")` is 2), for a game naming the entity of a field
/// ([`NetRules::entity_at`]).
#[must_use]
pub fn index_after(path: &str, prefix: &str) -> Option<usize> {
    let rest = path.strip_prefix(prefix)?;
    rest[..rest.find(']')?].parse().ok()
}

/// The most differences `fixstep desync-diff` lists before it says how many more there are.
pub const MAX_LISTED_DIFFERENCES: usize = 50;

/// A state in readable RON.
///
/// # Errors
///
/// If it does not serialize (a state type whose serde cannot be RON).
pub fn state_ron(state: &impl Serialize) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new().depth_limit(8).struct_names(false);
    ron::ser::to_string_pretty(state, config)
}

/// Why two state dumps cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    /// A file cannot be read, is not a file, or is over the limit of a state dump.
    #[error(transparent)]
    Read(#[from] fixstep_runtime::file::ReadError),
    /// A file is not a state of this game in RON.
    #[error("{path}:{line}:{column}: not a state of {game}: {message}")]
    NotAState {
        /// The file.
        path: PathBuf,
        /// Where, 1-based.
        line: usize,
        /// Where, 1-based.
        column: usize,
        /// The game whose state was expected.
        game: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// A state dump: a diff reads two of them as the game's state and again as trees of values,
/// which may take twenty times their text (a number of two bytes is a value of forty), so this
/// keeps `desync-diff` inside the program's memory budget.
pub const STATE_DUMP_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("state dump", 4_000_000);

/// Reads a state dump (a desync report's `host.ron` or `peer.ron`) of game `G`: its text and
/// the state it holds.
///
/// # Errors
///
/// A file that cannot be read, or that is not a state of `G` (named with its line and column).
pub fn read_state_dump<G: NetRules>(path: &Path) -> Result<(String, StateOf<G>), DumpError> {
    let text = fixstep_runtime::file::read_text(path, STATE_DUMP_FILE)?;
    let state = ron::from_str(&text).map_err(|e| DumpError::NotAState {
        path: path.to_path_buf(),
        line: e.span.start.line,
        column: e.span.start.col,
        game: G::NAME,
        message: e.code.to_string(),
    })?;
    Ok((text, state))
}

/// One place where two states differ: its path (`characters.values[12].pos.x`) and the two
/// values there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Where.
    pub path: String,
    /// The first state's value (RON).
    pub a: String,
    /// The second state's value (RON).
    pub b: String,
}

fn value_text(v: &Value) -> String {
    ron::ser::to_string(v).unwrap_or_else(|_| format!("{v:?}"))
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => value_text(other),
    }
}

fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<Difference>, limit: usize) {
    if out.len() >= limit || a == b {
        return;
    }
    match (a, b) {
        (Value::Map(ma), Value::Map(mb)) => {
            for (key, va) in ma.iter() {
                let name = key_text(key);
                let sub = if path.is_empty() { name } else { format!("{path}.{name}") };
                match mb.get(key) {
                    Some(vb) => walk(&sub, va, vb, out, limit),
                    None => {
                        out.push(Difference { path: sub, a: value_text(va), b: "(none)".into() });
                    }
                }
            }
            for (key, vb) in mb.iter() {
                if !ma.iter().any(|(k, _)| k == key) {
                    let name = key_text(key);
                    let sub = if path.is_empty() { name } else { format!("{path}.{name}") };
                    out.push(Difference { path: sub, a: "(none)".into(), b: value_text(vb) });
                }
            }
        }
        (Value::Seq(sa), Value::Seq(sb)) => {
            for (i, (va, vb)) in sa.iter().zip(sb).enumerate() {
                walk(&format!("{path}[{i}]"), va, vb, out, limit);
            }
            if sa.len() != sb.len() {
                out.push(Difference {
                    path: format!("{path}.len()"),
                    a: sa.len().to_string(),
                    b: sb.len().to_string(),
                });
            }
        }
        (Value::Option(Some(va)), Value::Option(Some(vb))) => walk(path, va, vb, out, limit),
        _ => out.push(match (path.strip_suffix(".bits"), fixed_text(a), fixed_text(b)) {
            // A fixed-point number is written as its bits: said as the number it is.
            (Some(field), Some(a), Some(b)) => Difference { path: field.to_owned(), a, b },
            _ => Difference { path: path.to_owned(), a: value_text(a), b: value_text(b) },
        }),
    }
}

/// The bits of a fixed-point number (how `fixed` writes an [`Fx`] in RON) as that number in
/// decimal, exactly, with the bits after it.
fn fixed_text(v: &Value) -> Option<String> {
    let bits = match v {
        Value::Number(Number::I64(n)) => *n,
        Value::Number(Number::I32(n)) => i64::from(*n),
        Value::Number(Number::I16(n)) => i64::from(*n),
        Value::Number(Number::I8(n)) => i64::from(*n),
        Value::Number(Number::U32(n)) => i64::from(*n),
        Value::Number(Number::U16(n)) => i64::from(*n),
        Value::Number(Number::U8(n)) => i64::from(*n),
        Value::Number(Number::U64(n)) => i64::try_from(*n).ok()?,
        _ => return None,
    };
    Some(format!("{} (bits {bits})", Fx::from_bits(bits)))
}

/// The places where two RON states differ, in the order of the first's fields, at most
/// `limit`.
///
/// # Errors
///
/// If either is not RON.
pub fn differences(
    a: &str,
    b: &str,
    limit: usize,
) -> Result<Vec<Difference>, ron::error::SpannedError> {
    let va: Value = ron::from_str(a)?;
    let vb: Value = ron::from_str(b)?;
    let mut out = Vec::new();
    walk("", &va, &vb, &mut out, limit);
    Ok(out)
}

/// Who wrote a report, and of whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The host, of a peer that differs.
    Host,
    /// A peer, told by the host that it differs.
    Peer,
}

/// What the writer of a report kept of the match: its content, the names of its partial
/// hashes, and the states and ticks of the latest ticks (what the report's replay is made of).
pub struct Kept<'a, G: NetRules> {
    /// The names of the state hash's parts, in order.
    pub part_names: &'a [&'a str],
    /// The content the match is played on.
    pub content: &'a Arc<G::Content>,
    /// The states after the latest ticks, the writer's own.
    pub states: &'a RecentStates,
    /// The latest ticks as they were fixed.
    pub ticks: &'a RecentTicks<CommandOf<G>>,
}

/// The file of a report's replay, in its folder.
pub const REPORT_REPLAY: &str = "replay.fxr";

/// Writes a desync report of game `G` under `root`: a folder `desync-tick-T-player-P` holding
/// `summary.txt` (the tick, the partial hashes side by side under their subsystems'
/// names in `kept`, the first difference), `host.ron` and `peer.ron` (both states), and, from
/// what `kept` holds, [`REPORT_REPLAY`]: the match from the oldest state the writer kept to the tick
/// (see [`write_report_replay`]). Returns the folder.
///
/// # Errors
///
/// If the folder or a file cannot be written, or a state does not decode.
pub fn write_report<G: NetRules>(
    root: &Path,
    tick: Tick,
    player: Option<Player>,
    host: (&[u8], &HashRecord),
    peer: (&[u8], &HashRecord),
    written_by: Side,
    kept: &Kept<'_, G>,
) -> Result<PathBuf, NetPlayError> {
    let decode = |bytes: &[u8], whose: &'static str| -> Result<StateOf<G>, NetPlayError> {
        postcard::from_bytes(bytes)
            .map_err(|e| NetPlayError::ReportState { whose, source: Box::new(e) })
    };
    let ron = |state: &StateOf<G>, whose: &'static str| {
        state_ron(state).map_err(|e| NetPlayError::ReportState { whose, source: Box::new(e) })
    };
    let host_state = decode(host.0, "host")?;
    let host_ron = ron(&host_state, "host")?;
    let peer_ron = ron(&decode(peer.0, "peer")?, "peer")?;
    let who = player.map_or_else(|| "spectator".to_owned(), |p| format!("player-{p}"));
    let dir = root.join(format!("desync-tick-{}-{who}", tick.0));
    std::fs::create_dir_all(&dir)
        .map_err(|source| NetPlayError::Report { path: dir.clone(), source })?;
    let first = differences(&host_ron, &peer_ron, 1)
        .map_err(|e| NetPlayError::ReportState { whose: "host", source: Box::new(e) })?;
    let mut summary = String::new();
    let by = match written_by {
        Side::Host => "the host",
        Side::Peer => "the peer",
    };
    let _ = writeln!(summary, "desync at tick {} ({who}), written by {by}", tick.0);
    let _ = writeln!(summary, "total      host {:016x}  peer {:016x}", host.1.total, peer.1.total);
    for (i, name) in kept.part_names.iter().enumerate() {
        let (h, p) = (host.1.parts.get(i), peer.1.parts.get(i));
        let mark = if h == p { "" } else { "  <- differs" };
        let _ = writeln!(
            summary,
            "{name:<10} host {:016x}  peer {:016x}{mark}",
            h.copied().unwrap_or(0),
            p.copied().unwrap_or(0)
        );
    }
    match first.first() {
        Some(d) => {
            let _ = writeln!(summary, "first difference: {}: host {} peer {}", d.path, d.a, d.b);
            if let Some(entity) = G::entity_at(&host_state, &d.path) {
                let field = d.path.split_once("].").map_or("", |(_, f)| f);
                let _ = writeln!(summary, "in {entity}, field {field}");
            }
        }
        None => {
            let _ = writeln!(summary, "the states are equal: the hashes differ over equal states");
        }
    }
    let write = |name: &str, text: &str| -> Result<(), NetPlayError> {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|source| NetPlayError::Report { path, source })
    };
    let note = DesyncNote { tick, host: host.1.total, peer: peer.1.total };
    let recorded_by = match written_by {
        Side::Host => RecordedBy::Host,
        Side::Peer => RecordedBy::Player(player.unwrap_or(Player(0))),
    };
    match write_report_replay(&dir.join(REPORT_REPLAY), kept, note, recorded_by) {
        Ok(from) => {
            let _ = writeln!(
                summary,
                "{REPORT_REPLAY}: ticks {} to {} from {by}'s state after tick {from}; \
                 `fixstep replay {REPORT_REPLAY} --verify` says which hash a machine computes",
                from.0 + 1,
                tick.0
            );
        }
        Err(error) => {
            let _ = writeln!(summary, "no {REPORT_REPLAY}: {error}");
        }
    }
    write("summary.txt", &summary)?;
    write("host.ron", &host_ron)?;
    write("peer.ron", &peer_ron)?;
    Ok(dir)
}

/// Why a report's replay was not written.
#[derive(Debug, thiserror::Error)]
pub enum ReportReplayError {
    /// The ticks from the oldest state kept to the desync's are not all kept.
    #[error("the ticks before tick {0} are no longer kept")]
    TicksGone(Tick),
    /// The oldest state kept does not restore.
    #[error(transparent)]
    State(#[from] Box<NetPlayError>),
    /// The file cannot be written.
    #[error(transparent)]
    Write(#[from] fixstep_runtime::ReplayError),
}

/// Writes the replay of a desync at `note`'s tick to `path`: a keyframe of the oldest state
/// the writer kept (up to [`crate::RECENT_STATES`] ticks before the desync), then every tick
/// to the desync's with the writer's own hashes, and `note` in its header. Re-simulated on
/// any machine, it says whether that machine computes the host's hash there, the peer's, or
/// neither. Returns the tick of the state it starts after.
///
/// # Errors
///
/// If the ticks are no longer all kept, the state does not restore, or the file cannot be
/// written.
pub fn write_report_replay<G: NetRules>(
    path: &Path,
    replay: &Kept<'_, G>,
    note: DesyncNote,
    recorded_by: RecordedBy,
) -> Result<Tick, ReportReplayError> {
    let (from, state, hash) =
        replay.states.oldest().ok_or(ReportReplayError::TicksGone(note.tick))?;
    let ticks =
        replay.ticks.between(from, note.tick).ok_or(ReportReplayError::TicksGone(note.tick))?;
    let sim = crate::peer::restore_state::<G>(replay.content, state, hash.total, from.next())
        .map_err(Box::new)?;
    let mut header = ReplayHeader::of(&sim, G::content_title(replay.content), None, recorded_by, 0);
    header.desync = Some(note);
    let file = std::fs::File::create(path).map_err(fixstep_runtime::ReplayError::Io)?;
    let files = G::content_files(replay.content);
    let mut recorder =
        ReplayRecorder::start(std::io::BufWriter::new(file), &header, files, &sim, u32::MAX)?;
    for record in ticks {
        let total = replay.states.get(record.tick).map_or(0, |(_, hash)| hash.total);
        recorder.tick(record, total, &sim)?;
    }
    recorder.finish()?;
    Ok(from)
}
