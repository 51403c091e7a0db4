//! `fixstep join`: plays in a network game, headless (for tests and bots) or in a window.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use fixstep_net::WallClock;
use fixstep_net::join_code::JoinCode;
use fixstep_net::rendezvous::Dialled;
use fixstep_netplay::{HostOffer, InputLatency, NetPeer, PeerOptions};
use fixstep_netplay_view::PlayerFrames;
use fixstep_present::CommandOf;
use fixstep_runtime::math::Fx;
use fixstep_runtime::{Bot, Simulation};

use super::secret::{PasswordArgs, rejoin_file};
use super::{
    Logs, NetLogArgs, Paths, bad_input, held_at, held_mark, read_input_script, sleep_until,
};
use crate::games::Playable;

/// How long a headless peer without a drawn log sleeps between looks at its socket,
/// microseconds: 2 ms.
const POLL_MICROS: u64 = 2_000;

/// How long a peer waits for the host's welcome before it gives up, microseconds: ten
/// seconds, far longer than a handshake over any link worth playing on.
const WELCOME_TIMEOUT_MICROS: u64 = 10_000_000;

/// `fixstep join`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct JoinArgs {
    /// The host, `HOST:PORT`, or a match's join code (`KQ7-4PX`, looked up at
    /// `--rendezvous`).
    pub host: String,
    /// The player's name: a player coming back under the same name gets its character back.
    #[arg(long, default_value = "player")]
    pub name: String,
    /// The content file (default: the game's); it must be the host's.
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Where desync reports are written.
    #[arg(long, default_value = "desync-reports")]
    pub reports: PathBuf,
    /// The session's password.
    /// Record the match as a replay into this file, from the moment the host lets this
    /// player in (see `fixstep replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub password: PasswordArgs,
    /// The UDP port this player would host the match on if its host went (default: one the
    /// system gives): a port forwarded on a router, say.
    #[arg(long, value_name = "PORT")]
    pub host_port: Option<u16>,
    /// The address the other players are told to reach this player at if it hosts the match
    /// after its host, `HOST:PORT` (default: this machine's address towards the host, with
    /// the port above).
    #[arg(long, value_name = "HOST:PORT")]
    pub offer_at: Option<String>,
    #[command(flatten)]
    pub rendezvous: super::rendezvous::RendezvousChoice,
    #[command(flatten)]
    pub stun: super::rendezvous::StunChoice,
    /// A TURN relay this player allocates on if it hosts the match after its host (for the
    /// players whose routers let nothing direct through to it).
    #[command(flatten)]
    pub turn: super::rendezvous::TurnChoice,
    /// What the headless runs do and log.
    #[command(flatten)]
    pub logs: NetLogArgs,
    /// Tests only: differ from the host on purpose after this tick (the game's own
    /// perturbation of the player's character), to see the desync reported.
    #[arg(long, hide = true)]
    pub perturb_at: Option<u32>,
}

/// The first address `text` names: a host to reach, so its port is not 0.
///
/// # Errors
///
/// If it names none, or names port 0 (which no host listens on), as bad input.
pub fn resolve(text: &str) -> Result<SocketAddr> {
    let address = text
        .to_socket_addrs()
        .with_context(|| format!("`{text}` is not HOST:PORT"))
        .map_err(bad_input)?
        .next()
        .with_context(|| format!("`{text}` names no address"))
        .map_err(bad_input)?;
    if address.port() == 0 {
        return Err(bad_input(anyhow::anyhow!("`{text}` names port 0, which no host listens on")));
    }
    Ok(address)
}

/// The join code `host` is, if it is one (text without a colon, which every `HOST:PORT`
/// has).
///
/// # Errors
///
/// Text that is neither an address nor a code, as bad input.
pub fn code_of(host: &str) -> Result<Option<JoinCode>> {
    if host.contains(':') {
        return Ok(None);
    }
    host.parse().map(Some).map_err(|e| bad_input(anyhow::Error::new(e)))
}

/// Dials `code` at `rendezvous`, telling it and the host where the STUN servers of `stun` see
/// this player too: the socket the path was opened from, and where and how the host
/// answered.
///
/// # Errors
///
/// No rendezvous named, or no path to the host.
pub fn dial_code(
    code: JoinCode,
    rendezvous: &super::rendezvous::RendezvousChoice,
    stun: &super::rendezvous::StunChoice,
) -> Result<(std::net::UdpSocket, Dialled)> {
    let rendezvous = rendezvous.address()?;
    let stun = stun.addresses(rendezvous);
    let (socket, dialled) = fixstep_net::rendezvous::dial_anew(rendezvous, code, stun)
        .with_context(|| format!("cannot reach the match {code}"))?;
    tracing::info!(
        code = %code,
        path = %dialled.host.kind,
        host = %dialled.host.address,
        millis = dialled.took.as_millis(),
        "the host of {code} answered at {} ({} path) after {} ms",
        dialled.host.address,
        dialled.host.kind,
        dialled.took.as_millis()
    );
    Ok((socket, dialled))
}

/// What a window does for `then` (a join or a watch) reached by `code`, if there is one: it
/// opens on the front screen's form dialling the code at `rendezvous` (the screen keeps
/// drawing meanwhile, and says what went wrong there), then plays as `then` says.
///
/// # Errors
///
/// No rendezvous named.
pub fn windowed_by(
    code: Option<JoinCode>,
    rendezvous: &super::rendezvous::RendezvousChoice,
    stun: &super::rendezvous::StunChoice,
    then: super::play::Windowed,
) -> Result<super::play::Windowed> {
    let Some(code) = code else { return Ok(then) };
    let rendezvous = rendezvous.address()?;
    let stun = stun.addresses(rendezvous);
    Ok(super::play::Windowed::ByCode { code, rendezvous, stun, then: Box::new(then) })
}

/// Runs `fixstep join`; returns the summary to print, and whether the host dropped this
/// peer from the game (its game ended badly, though it has a summary).
///
/// # Errors
///
/// A bad host address, level or script; a connection refused, lost or never made.
pub fn run<G: Playable>(args: &JoinArgs, paths: &Paths) -> Result<(String, bool)> {
    let level_file = paths.content_file::<G>(args.level.as_deref());
    let content = paths.load::<G>(&level_file)?;
    let offer_at = args.offer_at.as_deref().map(resolve).transpose()?;
    let code = code_of(&args.host)?;
    // Dialled once everything else was read, so that the path the probes opened is used at
    // once; a window dials from its front screen.
    let dialled = match code.filter(|_| args.logs.headless) {
        Some(code) => Some(dial_code(code, &args.rendezvous, &args.stun)?),
        None => None,
    };
    let host = match (&dialled, code) {
        (Some((_, dialled)), _) => dialled.host.address,
        // The window's dial gives it.
        (None, Some(_)) => SocketAddr::from((std::net::Ipv4Addr::UNSPECIFIED, 0)),
        (None, None) => resolve(&args.host)?,
    };
    let options = PeerOptions {
        host,
        name: args.name.clone(),
        admission: args.password.admission()?,
        reports: args.reports.clone(),
        rejoin_file: rejoin_file(&args.host, &args.name),
        record: args.record.clone(),
        // A player that joined by code plays across routers: its router is asked to forward
        // the port it would host on, once it does.
        offer: HostOffer {
            port: args.host_port,
            at: offer_at,
            map_port: code.is_some(),
            turn: args.turn.server()?,
        },
    };
    if !args.logs.headless {
        let join = super::play::Windowed::Join(options);
        let mode = windowed_by(code, &args.rendezvous, &args.stun, join)?;
        super::play::window::<G>(paths, &level_file, &content, &mode)?;
        return Ok((String::new(), false));
    }
    // Every file is read before the host is dialled: a bad one is said at once.
    let script = read_input_script::<G>(args.logs.input_script.as_deref())?;
    let mut peer = match dialled {
        Some((socket, _)) => NetPeer::<G>::connect_on(Arc::clone(&content), &options, socket)?,
        None => NetPeer::<G>::connect(Arc::clone(&content), &options)?,
    };
    if let Some(tick) = args.perturb_at {
        peer.perturb_at(fixstep_runtime::Tick(tick));
    }
    let mut bot: Option<G::Bot> = None;
    let mut logs = Logs::<G>::of(&args.logs, &content)?;
    // A drawn log means frames, drawn at their rate from the prediction and the playout.
    let frames = logs.draws().then(|| args.logs.frame_micros());
    // A bot reads the town, not keys: only a script's keys are predicted.
    let mut player_frames = PlayerFrames::<G>::new(Arc::clone(&content), script.is_some());
    let clock = WallClock::new();
    let mut last = clock.now_micros();
    loop {
        let now = clock.now_micros();
        let elapsed = now - last;
        last = now;
        peer.receive(elapsed)?;
        // The game is over, not broken: the ticks that came before the goodbye are still
        // run, and the logs and the summary written.
        let goodbye = peer.ended().map(str::to_owned);
        let Some(player) = peer.player() else {
            // Before the welcome no game of this peer's is over: it never got in (its welcome
            // lost, the host gone meanwhile), which is a failure, as a refusal is.
            if let Some(goodbye) = goodbye {
                bail!("{goodbye}, before welcoming this player");
            }
            if now > WELCOME_TIMEOUT_MICROS {
                bail!(
                    "no welcome from the host at {host} in {} s",
                    WELCOME_TIMEOUT_MICROS / 1_000_000
                );
            }
            peer.send()?;
            sleep_until(&clock, now + POLL_MICROS);
            continue;
        };
        if player_frames.start(&peer)
            && let Some(sim) = peer.sim()
        {
            logs.truth(sim.next_tick(), sim.snapshot())?;
            bot = args.logs.bot.then(|| G::bot(&content, player));
        }
        // Inputs, on the input clock the host's reports nudge.
        let held = held_at(script.as_ref(), now, elapsed);
        player_frames.send_inputs(&mut peer, elapsed, &held, |peer, command| match bot.as_mut() {
            Some(bot) => {
                peer.sim().map_or_else(CommandOf::<G>::default, |s| bot.command(s.snapshot()))
            }
            None => command,
        });
        // Ticks, when the drawn time reaches them (or as they come, drawing nothing).
        let render = peer.clock().render_tick();
        let drawn = frames.is_some() && goodbye.is_none();
        let limit = if drawn { Some(render.unwrap_or(Fx::MIN)) } else { None };
        let mut failure = None;
        let mut ran_to = None;
        player_frames.run_ticks(&mut peer, limit, |sim, hash| {
            let tick = fixstep_runtime::Tick(sim.next_tick().0 - 1);
            if let Err(e) = logs.tick(tick, hash, sim.snapshot()) {
                failure.get_or_insert(e);
            }
            ran_to = Some(sim.next_tick());
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        if let Some(goodbye) = goodbye {
            tracing::info!("{goodbye}");
            break;
        }
        if let Some(frame_micros) = frames
            && player_frames.draw(render, elapsed).is_some()
            && let Some(presentation) = player_frames.presentation()
        {
            let mark = held_mark::<G>(script.as_ref(), now, &held);
            logs.frame(now as f64 / 1000.0, presentation, mark.as_ref())?;
            peer.send()?;
            if args.logs.ticks.is_some_and(|t| ran_to.is_some_and(|r| r.0 >= t)) {
                break;
            }
            sleep_until(&clock, now + frame_micros);
        } else {
            peer.send()?;
            if args.logs.ticks.is_some_and(|t| ran_to.is_some_and(|r| r.0 >= t)) {
                break;
            }
            sleep_until(&clock, now + POLL_MICROS);
        }
    }
    peer.send()?;
    peer.disconnect();
    logs.finish()?;
    let stats = peer.stats();
    let mut out = format!(
        "player {} tick {} hash {} late inputs {} desync {} resynced {}\n",
        peer.player().map_or_else(|| "-".to_owned(), |p| p.to_string()),
        peer.sim().map_or(0, |s| s.next_tick().0),
        peer.hash().map_or_else(|| "-".to_owned(), ToString::to_string),
        stats.late_inputs,
        stats.desync.map_or_else(|| "none".to_owned(), |t| t.0.to_string()),
        stats.resynced.map_or_else(|| "never".to_owned(), |t| t.0.to_string()),
    );
    let link = peer.link();
    let ms = |samples: &[u64]| {
        InputLatency::median_ms(samples).map_or_else(|| "-".to_owned(), |m| format!("{m:.0} ms"))
    };
    out.push_str(&format!(
        "link rtt {} ms; input to the host's tick p50 {}, to this peer's p50 {}; inputs arrive \
         {} early (aim {})\nwire {}\n",
        link.rtt_micros / 1000,
        ms(&stats.latency.to_host),
        ms(&stats.latency.to_own_tick),
        stats.margin_micros.map_or_else(|| "-".to_owned(), |(m, _)| format!("{} ms", m / 1000)),
        stats.margin_micros.map_or_else(|| "-".to_owned(), |(_, t)| format!("{} ms", t / 1000)),
        link.wire,
    ));
    Ok((out, peer.dropped()))
}
