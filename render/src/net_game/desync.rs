//! Desync reports: when a peer's state hash of a tick differs from the host's, both write a
//! folder with the tick, both states in readable RON, the partial hashes, and the first entity
//! and field where the states differ ([`entity_at`] names the entity). `fixstep desync-diff` compares two such states.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use fixstep_game::state::GameState;
use fixstep_runtime::{HashRecord, Tick};
use ron::Value;

/// The most differences `fixstep desync-diff` lists before it says how many more there are.
pub const MAX_LISTED_DIFFERENCES: usize = 50;

/// A state in readable RON.
///
/// # Errors
///
/// If it does not serialize (it always does: every state type is serde).
pub fn state_ron(state: &GameState) -> Result<String> {
    let config = ron::ser::PrettyConfig::new().depth_limit(8).struct_names(false);
    ron::ser::to_string_pretty(state, config).context("the state does not serialize to RON")
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
        _ => out.push(Difference { path: path.to_owned(), a: value_text(a), b: value_text(b) }),
    }
}

/// The places where two RON states differ, in the order of the first's fields, at most
/// `limit`.
///
/// # Errors
///
/// If either is not RON.
pub fn differences(a: &str, b: &str, limit: usize) -> Result<Vec<Difference>> {
    let va: Value = ron::from_str(a).context("the first state is not RON")?;
    let vb: Value = ron::from_str(b).context("the second state is not RON")?;
    let mut out = Vec::new();
    walk("", &va, &vb, &mut out, limit);
    Ok(out)
}

/// The entity a difference's `path` lies in, named as a reader of the report looks for it:
/// `character 12v0 (player 1)`, `taxi 3`, `object 2`; `None` for state outside any entity
/// (the clock, the random numbers).
#[must_use]
pub fn entity_at(path: &str, state: &GameState) -> Option<String> {
    let index_after = |prefix: &str| -> Option<usize> {
        let rest = path.strip_prefix(prefix)?;
        rest[..rest.find(']')?].parse().ok()
    };
    if let Some(slot) = index_after("characters.values[") {
        let id = state.characters.ids().find(|id| id.index as usize == slot)?;
        let role = state
            .players
            .iter()
            .position(|p| *p == id)
            .map_or_else(|| "an NPC".to_owned(), |player| format!("player {player}"));
        return Some(format!("character {id} ({role})"));
    }
    if let Some(index) = index_after("taxis[") {
        return Some(format!("taxi {index}"));
    }
    index_after("objects[").map(|index| format!("object {index}"))
}

/// Who wrote a report, and of whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The host, of a peer that differs.
    Host,
    /// A peer, told by the host that it differs.
    Peer,
}

/// Writes a desync report under `root`: a folder `desync-tick-T-player-P` holding
/// `summary.txt` (the tick, the partial hashes side by side under their subsystems'
/// `part_names`, the first difference), `host.ron` and `peer.ron` (both states), and returns
/// the folder.
///
/// # Errors
///
/// If the folder or a file cannot be written, or a state does not decode.
pub fn write_report(
    root: &Path,
    tick: Tick,
    player: Option<u16>,
    host: (&[u8], &HashRecord),
    peer: (&[u8], &HashRecord),
    part_names: &[&str],
    written_by: Side,
) -> Result<PathBuf> {
    let decode = |bytes: &[u8], whose: &str| -> Result<GameState> {
        postcard::from_bytes(bytes).with_context(|| format!("the {whose}'s state does not decode"))
    };
    let host_state = decode(host.0, "host")?;
    let host_ron = state_ron(&host_state)?;
    let peer_ron = state_ron(&decode(peer.0, "peer")?)?;
    let who = player.map_or_else(|| "spectator".to_owned(), |p| format!("player-{p}"));
    let dir = root.join(format!("desync-tick-{}-{who}", tick.0));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the desync report {}", dir.display()))?;
    let first = differences(&host_ron, &peer_ron, 1)?;
    let mut summary = String::new();
    let by = match written_by {
        Side::Host => "the host",
        Side::Peer => "the peer",
    };
    let _ = writeln!(summary, "desync at tick {} ({who}), written by {by}", tick.0);
    let _ = writeln!(summary, "total      host {:016x}  peer {:016x}", host.1.total, peer.1.total);
    for (i, name) in part_names.iter().enumerate() {
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
            if let Some(entity) = entity_at(&d.path, &host_state) {
                let field = d.path.split_once("].").map_or("", |(_, f)| f);
                let _ = writeln!(summary, "in {entity}, field {field}");
            }
        }
        None => {
            let _ = writeln!(summary, "the states are equal: the hashes differ over equal states");
        }
    }
    let write = |name: &str, text: &str| -> Result<()> {
        std::fs::write(dir.join(name), text)
            .with_context(|| format!("cannot write {}", dir.join(name).display()))
    };
    write("summary.txt", &summary)?;
    write("host.ron", &host_ron)?;
    write("peer.ron", &peer_ron)?;
    Ok(dir)
}
