//! `fixstep lan`: lists the games hosted on the local network (see [`fixstep_net::lan`]).

use std::fmt::Write as _;
use std::net::IpAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use fixstep_net::lan::{LAN_PORTS, LAN_TARGETS, LanHost, discover};

/// `fixstep lan`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct LanArgs {
    /// A port to ask on (repeatable; default: 7465 to 7474).
    #[arg(long = "port")]
    pub ports: Vec<u16>,
    /// An address to ask (repeatable; default: the local network's broadcast address and
    /// this machine).
    #[arg(long = "to")]
    pub targets: Vec<IpAddr>,
    /// How long to wait for answers, milliseconds.
    #[arg(long, default_value_t = 500,
          value_parser = clap::value_parser!(u64).range(0..=super::bounds::MAX_LAN_WAIT_MS))]
    pub wait_ms: u64,
}

/// Runs `fixstep lan`; returns the list to print.
///
/// # Errors
///
/// If no socket can be bound.
pub fn run(args: &LanArgs) -> Result<String> {
    let ports: Vec<u16> =
        if args.ports.is_empty() { LAN_PORTS.collect() } else { args.ports.clone() };
    let targets = if args.targets.is_empty() { LAN_TARGETS.to_vec() } else { args.targets.clone() };
    let found = discover(&targets, &ports, Duration::from_millis(args.wait_ms))
        .context("cannot ask the local network")?;
    Ok(listing(&found))
}

/// A line per game: where, which game and content, its players and seats, and whether it
/// wants a password.
fn listing(found: &[LanHost]) -> String {
    if found.is_empty() {
        return "no game answered\n".to_owned();
    }
    let mut text = String::new();
    for LanHost { address, answer } in found {
        let lock = if answer.sealed { ", password" } else { "" };
        let _ = writeln!(
            text,
            "{address}  {} \"{}\"  {}/{} players{lock}",
            answer.game, answer.title, answer.players, answer.max_players
        );
    }
    text
}
