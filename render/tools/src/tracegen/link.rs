//! When each snapshot reaches the client.
//!
//! The host sends tick `k`'s snapshot when it measures it, at the client's time
//! `offset_ms + k * 100 / host_rate` (a host clock running fast has a rate above 1). The path
//! takes a latency between its least and its greatest. The channel is reliable and ordered:
//! a lost snapshot is sent again after the retransmission delay, and every later one waits
//! for it, so a loss shows up as a late snapshot and then a burst. A stall holds everything
//! for a while and lets it all through at its end.

use super::rng::Rng;
use super::world::TICK_MS;

/// Microseconds in a millisecond.
const MICROS_PER_MS: f64 = 1000.0;

/// Losses in bursts: Gilbert's two-state model, simplified to bursts of a random length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// The share of snapshots lost (0 to 1) in the long run.
    pub share: f64,
    /// The fewest snapshots a burst loses.
    pub burst_min: u32,
    /// The most snapshots a burst loses.
    pub burst_max: u32,
    /// How long after its first sending a lost snapshot is sent again, ms.
    pub retransmit_ms: f64,
}

/// A span of the client's time in which nothing arrives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stall {
    /// When it starts, client ms.
    pub at_ms: f64,
    /// How long it lasts, ms.
    pub for_ms: f64,
}

/// A network path from the host to the client, and the host's clock against the client's.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkSpec {
    /// The least one-way latency, ms.
    pub min_latency_ms: f64,
    /// The greatest one-way latency, ms; each snapshot's is uniform between the two.
    pub max_latency_ms: f64,
    /// Losses, if any.
    pub loss: Option<Loss>,
    /// Stalls, in order of time.
    pub stalls: Vec<Stall>,
    /// How fast the host's clock runs against the client's: 1.02 is 2 % fast.
    pub host_rate: f64,
    /// Client time at which the host measures tick 0, ms.
    pub offset_ms: f64,
}

impl LinkSpec {
    /// A path of `min_latency_ms` to `max_latency_ms`, nothing lost, no stall, both clocks
    /// at one rate, tick 0 measured at client time 0.
    #[must_use]
    pub const fn latency(min_latency_ms: f64, max_latency_ms: f64) -> Self {
        Self {
            min_latency_ms,
            max_latency_ms,
            loss: None,
            stalls: Vec::new(),
            host_rate: 1.0,
            offset_ms: 0.0,
        }
    }

    /// The client's time (ms) at which the host is at `tick` (fractional): when it measures
    /// and sends a whole tick's snapshot.
    #[must_use]
    pub fn client_ms_of_tick(&self, tick: f64) -> f64 {
        self.offset_ms + tick * f64::from(TICK_MS) / self.host_rate
    }
}

/// How one snapshot travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// When it reached the client, client microseconds.
    pub at_us: i64,
    /// Its first sending was lost.
    pub lost: bool,
    /// A stall held it.
    pub stalled: bool,
}

fn micros(ms: f64) -> i64 {
    // Client times here are under an hour, far inside an i64 of microseconds.
    (ms * MICROS_PER_MS).round() as i64
}

/// When the snapshots of ticks `0..=ticks` arrive, in tick order (and so in time order).
#[must_use]
pub fn arrivals(spec: &LinkSpec, ticks: u32, rng: &mut Rng) -> Vec<Arrival> {
    let mut out = Vec::with_capacity(ticks as usize + 1);
    let mut burst_left = 0;
    let mut latest_us = i64::MIN;
    for tick in 0..=ticks {
        let sent_ms = spec.client_ms_of_tick(f64::from(tick));
        let mut latency = rng.range(spec.min_latency_ms, spec.max_latency_ms);
        let mut lost = false;
        if let Some(loss) = spec.loss {
            if burst_left == 0 {
                let mean_burst = f64::from(loss.burst_min + loss.burst_max) / 2.0;
                if rng.chance(loss.share / mean_burst) {
                    burst_left = rng.range_u32(loss.burst_min, loss.burst_max);
                }
            }
            if burst_left > 0 {
                burst_left -= 1;
                lost = true;
                // Sent again, over the path again.
                latency = loss.retransmit_ms + rng.range(spec.min_latency_ms, spec.max_latency_ms);
            }
        }
        let mut at_ms = sent_ms + latency;
        let mut stalled = false;
        for stall in &spec.stalls {
            if at_ms >= stall.at_ms && at_ms < stall.at_ms + stall.for_ms {
                at_ms = stall.at_ms + stall.for_ms;
                stalled = true;
            }
        }
        // Reliable and ordered: nothing overtakes what was sent before it.
        latest_us = latest_us.max(micros(at_ms));
        out.push(Arrival { at_us: latest_us, lost, stalled });
    }
    out
}
