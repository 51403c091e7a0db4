//! `fixstep netem`: a link conditioner on loopback, between peers and a host.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use fixstep_net::{Netem, NetemConfig};

/// `fixstep netem`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct NetemArgs {
    /// Where peers connect (give the host `--also-reachable-at` this address).
    #[arg(long)]
    pub listen: SocketAddr,
    /// Where datagrams go on: the host.
    #[arg(long)]
    pub forward: SocketAddr,
    /// Delay each way, milliseconds.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(super::bounds::MAX_NETEM_DELAY_MS)))]
    pub delay: u32,
    /// Extra delay drawn from 0 to this, milliseconds.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(super::bounds::MAX_NETEM_DELAY_MS)))]
    pub jitter: u32,
    /// Datagrams lost, percent.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub loss: u32,
    /// Datagrams sent twice, percent.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub duplicate: u32,
    /// Datagrams held back to be overtaken, percent.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub reorder: u32,
    /// Seed of its chances.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many seconds (default: until SIGTERM or Ctrl-C, which also print the
    /// counts).
    #[arg(long)]
    pub seconds: Option<u64>,
}

/// Runs `fixstep netem`.
///
/// # Errors
///
/// If a socket cannot be bound or fails.
pub fn run(args: &NetemArgs) -> Result<String> {
    let config = NetemConfig {
        delay_ms: args.delay,
        jitter_ms: args.jitter,
        loss_percent: args.loss,
        duplicate_percent: args.duplicate,
        reorder_percent: args.reorder,
        seed: args.seed,
    };
    let mut netem = Netem::bind(args.listen, args.forward, config)?;
    tracing::info!("netem on {} to {}", netem.local_addr()?, args.forward);
    let start = Instant::now();
    let limit = args.seconds.map(Duration::from_secs);
    // Told to stop, it stops as its time running out would: with its counts.
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    ctrlc::set_handler(move || stopping.store(true, Ordering::Relaxed))
        .context("cannot take the termination signals")?;
    netem.run(|| stop.load(Ordering::Relaxed) || limit.is_some_and(|l| start.elapsed() >= l))?;
    let c = netem.counts();
    Ok(format!(
        "forwarded {} lost {} duplicated {} reordered {}\nup {} datagrams {} B, down {} \
         datagrams {} B\n",
        c.forwarded,
        c.lost,
        c.duplicated,
        c.reordered,
        c.up.datagrams,
        c.up.bytes,
        c.down.datagrams,
        c.down.bytes,
    ))
}
