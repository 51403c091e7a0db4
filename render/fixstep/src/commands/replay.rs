//! `fixstep replay`: watches a recorded match in the window; with `--info`, says what it
//! holds; with `--verify`, re-simulates it and checks its hashes; with `--at TICK --hash`,
//! prints the state's hash after that tick, and with `--at TICK --screenshot OUT`, draws that
//! state offscreen into a PNG.
//!
//! A replay carries its content, so none of this reads the assets: a replay plays on a
//! machine whose assets differ or are missing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use fixstep_present::{CommandOf, Game};
use fixstep_runtime::file::read_bytes;
use fixstep_runtime::replay::{
    CutRecord, DesyncNote, LoadedReplay, REPLAY_FILE, RecordedBy, ReplayFile, ReplayHeader,
    RosterChange, verify,
};
use fixstep_runtime::{ReplayError, Simulation, Tick};

use super::{Paths, bad_input};
use crate::games::{GameName, Playable};

/// `fixstep replay`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct ReplayArgs {
    /// The replay file.
    pub file: PathBuf,
    /// Re-simulate every tick and compare every recorded hash.
    #[arg(long, conflicts_with = "at")]
    pub verify: bool,
    /// A tick of the match: the state after it ran, as a hash log's line for it says.
    #[arg(long, value_name = "TICK")]
    pub at: Option<u32>,
    /// Print the state's hash at `--at`'s tick, as a hash log line (`TICK HASH`).
    #[arg(long, requires = "at")]
    pub hash: bool,
    /// Print one line of what the replay holds, instead of watching it.
    #[arg(long, conflicts_with_all = ["verify", "at"])]
    pub info: bool,
    /// Draw the state at `--at`'s tick offscreen (no window) into this PNG.
    #[arg(long, value_name = "OUT.png", requires = "at", conflicts_with = "hash")]
    pub screenshot: Option<PathBuf>,
    /// The picture's size with `--screenshot`, WIDTHxHEIGHT pixels.
    #[arg(long, default_value = "1280x720", value_parser = super::screenshot::parse_size)]
    pub size: (u32, u32),
}

/// What `fixstep replay` found.
#[derive(Debug)]
pub enum Replayed {
    /// What the replay holds, or that every recorded hash was reproduced: the line to print.
    Ok(String),
    /// A hash differed, as the message says.
    Mismatch(String),
}

/// The game that recorded the replay at `file`, by its header; `None` if the file does not
/// read as a replay (the game's own reader then says why) or names neither game.
#[must_use]
pub fn recorded_game(file: &Path) -> Option<GameName> {
    let bytes = read_bytes(file, REPLAY_FILE).ok()?;
    let header = ReplayHeader::from_bytes(&bytes).ok()?;
    let town = <<fixstep_town_view::Town as fixstep_runtime::Rules>::Sim as Simulation>::NAME;
    let arena = <<fixstep_arena_view::Arena as fixstep_runtime::Rules>::Sim as Simulation>::NAME;
    match header.sim.as_str() {
        name if name == town => Some(GameName::Town),
        name if name == arena => Some(GameName::Arena),
        _ => None,
    }
}

/// The replay at `path`, read as game `G`'s.
///
/// # Errors
///
/// An unreadable, damaged or foreign replay, as a [`super::BadInput`] naming the file.
pub fn open<G: Game>(path: &Path) -> Result<ReplayFile<CommandOf<G>>> {
    let bytes = read_bytes(path, REPLAY_FILE).map_err(bad_input)?;
    // Another game's replay is refused by name, before its commands are read as this game's.
    match ReplayFile::open_for::<G::Sim>(bytes) {
        Err(ReplayError::OtherSimulation { recorded, running }) => Err(bad_input(anyhow!(
            "replay {} was recorded by {recorded}, and the {} runs {running}",
            path.display(),
            G::NAME
        ))),
        read => read.with_context(|| format!("replay {}", path.display())).map_err(bad_input),
    }
}

/// The replay at `path` with the content it carries (loaded and checked as content from disk
/// is, against the digest it recorded), and a simulation of it as it starts.
///
/// # Errors
///
/// An unreadable, damaged or foreign replay, content that does not load or is not what was
/// recorded, more seats than the game holds: as a [`super::BadInput`] naming the file.
pub fn load<G: Game>(path: &Path) -> Result<(LoadedReplay<G>, G::Sim)> {
    let loaded = LoadedReplay::<G>::load(path, CutRecord::Refused).map_err(bad_input)?;
    let sim = loaded.start_sim().map_err(bad_input)?;
    Ok((loaded, sim))
}

/// Runs `fixstep replay`.
///
/// # Errors
///
/// An unreadable, damaged or foreign replay, content that does not load, a tick not in it.
pub fn run<G: Playable>(args: &ReplayArgs, paths: &Paths) -> Result<Replayed> {
    let path = &args.file;
    if !args.verify && args.at.is_none() && (args.info || !cfg!(feature = "window")) {
        // Without a window, what it holds is all there is to show.
        return Ok(Replayed::Ok(summary(&open::<G>(path)?)));
    }
    let (loaded, mut sim) = load::<G>(path)?;
    let (replay, content) = (&loaded.replay, &loaded.content);
    if !args.verify && args.at.is_none() {
        let level_file = paths.content_file::<G>(None);
        let mode = super::play::Windowed::Replay(path.clone());
        super::play::window::<G>(paths, &level_file, content, &mode)?;
        return Ok(Replayed::Ok(String::new()));
    }
    if let Some(at) = args.at {
        let after = Tick(at.saturating_add(1));
        replay
            .seek(&mut sim, after)
            .with_context(|| format!("replay {}: --at {at}", path.display()))
            .map_err(bad_input)?;
        if let Some(out) = &args.screenshot {
            return picture::<G>(paths, content, &sim, args.size, out).map(Replayed::Ok);
        }
        return Ok(Replayed::Ok(format!("{at} {}\n", sim.state_hash())));
    }
    if let Some(note) = replay.header().desync {
        return desync_verdict::<G>(path, replay, &mut sim, note);
    }
    let report = verify(&mut sim, replay)
        .with_context(|| format!("replay {}", path.display()))
        .map_err(bad_input)?;
    Ok(match report.first_mismatch {
        None => Replayed::Ok(format!(
            "verified {} ticks, {} hashes match{}; final hash {}\n",
            report.ticks,
            report.hashes_checked,
            match report.replaced {
                0 => String::new(),
                n => format!(" ({n} states the host sent restored)"),
            },
            report.final_hash
        )),
        Some(mismatch) => {
            let parts = mismatch
                .computed
                .parts()
                .iter()
                .map(|p| format!("{} {:016x}", p.name, p.hash))
                .collect::<Vec<_>>()
                .join(", ");
            Replayed::Mismatch(format!(
                "replay {} does not verify: {mismatch} (computed parts: {parts})",
                path.display()
            ))
        }
    })
}

/// Draws `sim`'s state (the state after a tick of a replay) offscreen at `size` into `out`,
/// seen by the first player as the window would draw it; returns the line to print.
///
/// # Errors
///
/// No GPU, or a PNG that cannot be written.
#[cfg(feature = "window")]
fn picture<G: Playable>(
    paths: &Paths,
    content: &Arc<G::Content>,
    sim: &G::Sim,
    size: (u32, u32),
    out: &Path,
) -> Result<String> {
    use fixstep_present::Presentation;
    use fixstep_runtime::Player;

    use super::screenshot::{Picture, draw_png};

    let mut presentation = G::presentation(content, Player::FIRST);
    presentation.observe(sim.snapshot(), G::own(sim, Player::FIRST));
    let frame = presentation.draw(1.0, 0.0).clone();
    let tick = sim.next_tick();
    let setup = crate::games::drawn::RenderSetup {
        assets: paths.assets.clone(),
        content_file: paths.content_file::<G>(None),
        cpu_skinning: false,
    };
    let hash = sim.state_hash().total();
    let render_tick = f64::from(tick.0.saturating_sub(1));
    let picture = Picture { size, render_tick, hud: false, tick: tick.0, hash };
    draw_png::<G>(content, &setup, &frame, &picture, None, out)?;
    Ok(format!(
        "wrote {} ({}x{}, the state after tick {}, {})\n",
        out.display(),
        size.0,
        size.1,
        tick.0.saturating_sub(1),
        G::describe_frame(&frame)
    ))
}

/// Without the window feature there is no renderer: says so.
///
/// # Errors
///
/// Always, as a bad input.
#[cfg(not(feature = "window"))]
fn picture<G: Playable>(
    _paths: &Paths,
    _content: &Arc<G::Content>,
    _sim: &G::Sim,
    _size: (u32, u32),
    _out: &Path,
) -> Result<String> {
    Err(bad_input(anyhow!(
        "this fixstep is a headless build, without a renderer: build it with its default \
         features to draw pictures"
    )))
}

/// Which side of a desync this machine takes: the replay of a desync report re-simulated to
/// the tick that differed, its hash against the host's and the peer's.
fn desync_verdict<G: Game>(
    path: &Path,
    replay: &ReplayFile<CommandOf<G>>,
    sim: &mut G::Sim,
    note: DesyncNote,
) -> Result<Replayed> {
    replay
        .seek(sim, note.tick.next())
        .with_context(|| format!("replay {}", path.display()))
        .map_err(bad_input)?;
    let ours = sim.state_hash().total();
    let tick = note.tick;
    let said = format!("the desync at tick {tick} re-simulated here computes {ours:016x}");
    Ok(if ours == note.host {
        Replayed::Ok(format!("{said}: the host's hash (the peer's was {:016x})\n", note.peer))
    } else if ours == note.peer {
        Replayed::Ok(format!("{said}: the peer's hash (the host's was {:016x})\n", note.host))
    } else {
        Replayed::Mismatch(format!(
            "replay {}: {said}: neither the host's {:016x} nor the peer's {:016x}",
            path.display(),
            note.host,
            note.peer
        ))
    })
}

/// One line of what a replay holds.
fn summary<C: fixstep_runtime::Command>(replay: &ReplayFile<C>) -> String {
    let h = replay.header();
    let by = match h.recorded_by {
        RecordedBy::Local => "a local game".to_owned(),
        RecordedBy::Host => "the host".to_owned(),
        RecordedBy::Player(p) => format!("player {}", u32::from(p.0) + 1),
        RecordedBy::Spectator => "a spectator".to_owned(),
    };
    let ticks = replay.end_tick().since(replay.first_tick());
    // Who played, as the replay's roster names them, each once (a damaged roster names none).
    let mut names: Vec<String> = Vec::new();
    let mut takeovers = 0;
    for event in replay.roster().unwrap_or_default() {
        match event.change {
            RosterChange::Joined { name } if !names.contains(&name) => names.push(name),
            RosterChange::Hosts { .. } => takeovers += 1,
            _ => {}
        }
    }
    let played_by =
        if names.is_empty() { String::new() } else { format!(" ({})", names.join(", ")) };
    let taken_over = match takeovers {
        0 => String::new(),
        1 => ", taken over by a player once".to_owned(),
        n => format!(", taken over by a player {n} times"),
    };
    format!(
        "replay of {} (simulation version {}), recorded by {by}: ticks {} to {} ({ticks} ticks, \
         {}), {} players at the start{played_by}{taken_over}, {} keyframes, {} bytes\n",
        h.content_title,
        h.sim_version,
        replay.first_tick(),
        replay.end_tick(),
        match_time(ticks),
        replay.start_seats(),
        replay.keyframe_ticks().count(),
        replay.bytes().len(),
    )
}

/// `ticks` of 100 ms as `M:SS.T`.
fn match_time(ticks: i64) -> String {
    let tenths = ticks.max(0);
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}
