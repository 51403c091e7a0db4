//! `fixstep spectate`: watches a network game without simulating it, headless or in a window.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use fixstep_net::WallClock;
use fixstep_netplay_view::{NetSpectator, Spectator};
use fixstep_present::CameraRig;
use glam::Vec3;

use super::join::resolve;
use super::secret::PasswordArgs;
use super::{Logs, Paths, frame_micros, sleep_until};
use crate::games::Playable;

/// How long a spectator waits for its first snapshot before it gives up, microseconds.
const FIRST_SNAPSHOT_TIMEOUT_MICROS: u64 = 10_000_000;

/// `fixstep spectate`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct SpectateArgs {
    /// The host, `HOST:PORT`, or a match's join code (looked up at `--rendezvous`).
    pub host: String,
    #[command(flatten)]
    pub rendezvous: super::rendezvous::RendezvousChoice,
    #[command(flatten)]
    pub stun: super::rendezvous::StunChoice,
    /// The spectator's name.
    #[arg(long, default_value = "spectator")]
    pub name: String,
    /// The content file (default: the game's).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Run without a window.
    #[arg(long)]
    pub headless: bool,
    /// Stop once the game has run to this tick (the host's count from the match's start, as
    /// `join --ticks` and the hash logs count, whenever this spectator came).
    #[arg(long, requires = "headless",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(super::bounds::MAX_TICKS)))]
    pub ticks: Option<u32>,
    /// Write what every frame drew (the trace format's drawn log).
    #[arg(long, requires = "headless")]
    pub drawn_log: Option<PathBuf>,
    /// Frames a second.
    #[arg(long, default_value_t = 60.0, value_parser = super::bounds::frames_per_second)]
    pub fps: f64,
    /// Record the match it watches as a replay into this file, from the moment the host lets
    /// this spectator in, as spectators see it (held back by the host's spectator delay).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The session's password.
    #[command(flatten)]
    pub password: PasswordArgs,
}

/// Runs `fixstep spectate`; returns the summary to print, and whether the host dropped this
/// spectator from the game (its game ended badly, though it has a summary).
///
/// # Errors
///
/// A bad host address or level; a connection refused, lost or never made.
pub fn run<G: Playable>(args: &SpectateArgs, paths: &Paths) -> Result<(String, bool)> {
    let level_file = paths.content_file::<G>(args.level.as_deref());
    let content = paths.load::<G>(&level_file)?;
    let admission = args.password.admission()?;
    let code = super::join::code_of(&args.host)?;
    // Dialled last, so that the path the probes opened is used at once; a window dials from
    // its front screen.
    let dialled = match code.filter(|_| args.headless) {
        Some(code) => Some(super::join::dial_code(code, &args.rendezvous, &args.stun)?),
        None => None,
    };
    let host = match (&dialled, code) {
        (Some((_, dialled)), _) => dialled.host.address,
        // The window's dial gives it.
        (None, Some(_)) => std::net::SocketAddr::from((std::net::Ipv4Addr::UNSPECIFIED, 0)),
        (None, None) => resolve(&args.host)?,
    };
    if !args.headless {
        let name = args.name.clone();
        let record = args.record.clone();
        let watch = super::play::Windowed::Spectate { host, name, admission, record };
        let mode = super::join::windowed_by(code, &args.rendezvous, &args.stun, watch)?;
        super::play::window::<G>(paths, &level_file, &content, &mode)?;
        return Ok((String::new(), false));
    }
    let record = args.record.clone();
    let mut spectator = match dialled {
        Some((socket, _)) => {
            NetSpectator::<G>::connect_on(&content, socket, host, &args.name, &admission, record)?
        }
        None => NetSpectator::<G>::connect(&content, host, &args.name, &admission, record)?,
    };
    spectator.look_at(Vec3::ZERO);
    let camera = CameraRig::default().behind(Vec3::ZERO, 0.0);
    let mut logs = Logs::<G>::open(None, None, args.drawn_log.as_deref(), &content)?;
    let frame_micros = frame_micros(args.fps);
    let clock = WallClock::new();
    let mut last = clock.now_micros();
    loop {
        let now = clock.now_micros();
        let elapsed = now - last;
        last = now;
        spectator.receive(elapsed)?;
        if let Some(goodbye) = spectator.ended() {
            // A spectator that never saw the game has watched nothing: its host ending (or
            // dropping it) meanwhile is a failure, as a refusal is, not a game that ended.
            if spectator.updates() == 0 {
                bail!("{goodbye}, before its first snapshot");
            }
            tracing::info!("{goodbye}");
            break;
        }
        if spectator.updates() == 0 && now > FIRST_SNAPSHOT_TIMEOUT_MICROS {
            bail!(
                "no snapshot from the host at {host} in {} s",
                FIRST_SNAPSHOT_TIMEOUT_MICROS / 1_000_000
            );
        }
        spectator.draw(&camera, fixstep_present::convert::seconds_of_micros(elapsed));
        let watched = spectator.spectator();
        let render_tick = watched.render_tick();
        logs.frame_with(now as f64 / 1000.0, |line| watched.record(line))?;
        spectator.send()?;
        if args.ticks.is_some_and(|t| render_tick >= f64::from(t)) {
            break;
        }
        sleep_until(&clock, now + frame_micros);
    }
    spectator.disconnect();
    logs.finish()?;
    let summary = format!(
        "watched {} snapshots of {} entities\nwire {}\n",
        spectator.updates(),
        spectator.spectator().entities(),
        spectator.link().wire,
    );
    Ok((summary, spectator.dropped()))
}
