//! `fixstep rendezvous`: where hosts list their matches under join codes and joiners look
//! them up (see `fixstep_net::rendezvous`): headless, small, for a group or a community.

use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use clap::Args;
use fixstep_net::relay::TurnServer;
use fixstep_net::rendezvous::{DEFAULT_RENDEZVOUS_PORT, RendezvousServer, serve};
use fixstep_net::stun::DEFAULT_STUN_SERVERS;

/// `fixstep rendezvous`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct RendezvousArgs {
    /// The UDP port to listen on.
    #[arg(long, default_value_t = DEFAULT_RENDEZVOUS_PORT)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: IpAddr,
}

/// Runs `fixstep rendezvous` until SIGTERM or Ctrl-C.
///
/// # Errors
///
/// If the port cannot be bound, or the socket fails.
pub fn run(args: &RendezvousArgs) -> Result<String> {
    let address = SocketAddr::new(args.bind, args.port);
    let socket = UdpSocket::bind(address).with_context(|| format!("cannot listen on {address}"))?;
    let bound = socket.local_addr().context("the socket has no address")?;
    tracing::info!(address = %bound, "rendezvous listening on {bound}");
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    ctrlc::set_handler(move || stopping.store(true, Ordering::Relaxed))
        .context("cannot take the termination signals")?;
    let mut server = RendezvousServer::default();
    serve(&socket, &mut server, &stop).context("the rendezvous's socket failed")?;
    Ok(format!("rendezvous stopped with {} matches listed\n", server.listed()))
}

/// The rendezvous a host lists its match at, or a joiner looks a code up at.
#[derive(Clone, Debug, Default, Args)]
pub struct RendezvousChoice {
    /// The rendezvous to list the match at or look a join code up at, `HOST:PORT` (see
    /// `fixstep rendezvous`).
    #[arg(long, value_name = "HOST:PORT")]
    pub rendezvous: Option<String>,
}

impl RendezvousChoice {
    /// The rendezvous's address.
    ///
    /// # Errors
    ///
    /// If none was named, or the name is no address, as bad input.
    pub fn address(&self) -> Result<SocketAddr> {
        let Some(text) = &self.rendezvous else {
            return Err(super::bad_input(anyhow::anyhow!(
                "a join code needs a rendezvous: give --rendezvous HOST:PORT (one that \
                 `fixstep rendezvous` runs)"
            )));
        };
        super::join::resolve(text)
    }
}

/// The STUN servers asked where this machine is seen from the internet.
#[derive(Clone, Debug, Default, Args)]
pub struct StunChoice {
    /// A STUN server to ask where the internet sees this machine, `HOST:PORT` (again for
    /// more; default: public ones). Not asked by a host on loopback, or a player dialling a
    /// rendezvous on loopback.
    #[arg(long, value_name = "HOST:PORT")]
    pub stun: Vec<String>,
    /// Ask no STUN server.
    #[arg(long, conflicts_with = "stun")]
    pub no_stun: bool,
}

impl StunChoice {
    /// The servers to ask: those named, the default ones, or none.
    #[must_use]
    pub fn servers(&self) -> Vec<String> {
        match (self.no_stun, self.stun.is_empty()) {
            (true, _) => Vec::new(),
            (false, true) => DEFAULT_STUN_SERVERS.map(str::to_owned).to_vec(),
            (false, false) => self.stun.clone(),
        }
    }

    /// The servers' addresses (IPv4, the family a joiner's socket has), those whose names do
    /// not resolve left out; none when `towards` is on loopback, which the internet's
    /// servers cannot see.
    #[must_use]
    pub fn addresses(&self, towards: SocketAddr) -> Vec<SocketAddr> {
        if towards.ip().is_loopback() {
            return Vec::new();
        }
        fixstep_net::stun::resolve(&self.servers())
    }
}

/// The TURN relay a host allocates an address on.
#[derive(Clone, Debug, Default, Args)]
pub struct TurnChoice {
    /// A TURN relay for friends whose routers let nothing direct through (symmetric NAT):
    /// `turn:HOST:PORT` or `HOST:PORT` (UDP; port 3478 if none).
    #[arg(long, value_name = "URL", requires_all = ["turn_user", "turn_password"])]
    pub turn: Option<String>,
    /// The relay's user name (its long-term credentials).
    #[arg(long, value_name = "USER", requires = "turn")]
    pub turn_user: Option<String>,
    /// The relay's password.
    #[arg(long, value_name = "PASSWORD", requires = "turn")]
    pub turn_password: Option<String>,
}

impl TurnChoice {
    /// The relay, if one was named.
    ///
    /// # Errors
    ///
    /// If its URL names no address, as bad input.
    pub fn server(&self) -> Result<Option<TurnServer>> {
        let (Some(url), Some(user), Some(password)) =
            (&self.turn, &self.turn_user, &self.turn_password)
        else {
            return Ok(None);
        };
        TurnServer::at(url, user, password)
            .map(Some)
            .map_err(|why| super::bad_input(anyhow::anyhow!(why)))
    }
}
