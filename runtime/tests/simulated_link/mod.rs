//! A simulated link between two ends, for testing and measuring the sessions without sockets:
//! delay, jitter, loss and duplicates from a seeded generator, so a test's link behaves the
//! same on every run.
//!
//! Reliable messages behave as a reliable, ordered transport makes them: each lost
//! transmission is sent again after [`LinkConditions::resend_micros`], and a message never
//! overtakes the one sent before it (so a loss holds back what follows, then lets it through
//! in a burst). Unreliable messages are lost, duplicated and reordered as the link pleases.

use fixstep_runtime::net::Delivery;
use fixstep_runtime::rng::SimRng;

/// The random-number stream of simulated links.
const LINK_RNG_STREAM: u64 = 0x6c69_6e6b;

/// Percent in one.
const PERCENT: u32 = 100;

/// How a simulated link treats what it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkConditions {
    /// One-way delay, microseconds.
    pub delay_micros: u64,
    /// Extra delay drawn evenly from 0 to this, microseconds, per transmission.
    pub jitter_micros: u64,
    /// Chance that a transmission is lost, percent.
    pub loss_percent: u32,
    /// Chance that an unreliable message arrives twice, percent.
    pub duplicate_percent: u32,
    /// How long a reliable sender waits before sending a lost message again, microseconds.
    pub resend_micros: u64,
}

impl LinkConditions {
    /// A perfect link: no delay, nothing lost.
    pub const PERFECT: Self = Self {
        delay_micros: 0,
        jitter_micros: 0,
        loss_percent: 0,
        duplicate_percent: 0,
        resend_micros: 0,
    };
}

/// Messages in flight one way; see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct SimulatedLink<T> {
    conditions: LinkConditions,
    rng: SimRng,
    /// (arrival time, order of sending, delivery, message).
    in_flight: Vec<(u64, u64, Delivery, T)>,
    sent: u64,
    /// When the last reliable message arrives: none arrives before it.
    reliable_arrives: u64,
    lost: u64,
}

impl<T: Clone> SimulatedLink<T> {
    /// A link with `conditions`, its chances drawn from `seed`.
    #[must_use]
    pub fn new(conditions: LinkConditions, seed: u64) -> Self {
        Self {
            conditions,
            rng: SimRng::new(seed, LINK_RNG_STREAM),
            in_flight: Vec::new(),
            sent: 0,
            reliable_arrives: 0,
            lost: 0,
        }
    }

    /// Transmissions lost so far.
    #[must_use]
    pub const fn lost(&self) -> u64 {
        self.lost
    }

    fn transit(&mut self) -> u64 {
        let c = self.conditions;
        let jitter =
            if c.jitter_micros == 0 { 0 } else { self.rng.next_u64() % (c.jitter_micros + 1) };
        c.delay_micros + jitter
    }

    fn chance(&mut self, percent: u32) -> bool {
        percent > 0 && self.rng.below(PERCENT) < percent
    }

    /// Sends `message` at `now_micros`.
    pub fn send(&mut self, now_micros: u64, delivery: Delivery, message: T) {
        self.sent += 1;
        let order = self.sent;
        match delivery {
            Delivery::Reliable => {
                let mut at = now_micros;
                // Each lost transmission costs a resend; the link gives up on nothing.
                while self.chance(self.conditions.loss_percent) {
                    self.lost += 1;
                    at += self.conditions.resend_micros;
                }
                let arrives = (at + self.transit()).max(self.reliable_arrives);
                self.reliable_arrives = arrives;
                self.in_flight.push((arrives, order, delivery, message));
            }
            Delivery::Unreliable => {
                if self.chance(self.conditions.loss_percent) {
                    self.lost += 1;
                    return;
                }
                let arrives = now_micros + self.transit();
                if self.chance(self.conditions.duplicate_percent) {
                    let again = now_micros + self.transit();
                    self.in_flight.push((again, order, delivery, message.clone()));
                }
                self.in_flight.push((arrives, order, delivery, message));
            }
        }
    }

    /// Everything that has arrived by `now_micros`, in the order it arrived.
    pub fn deliver(&mut self, now_micros: u64) -> Vec<(Delivery, T)> {
        let mut arrived: Vec<(u64, u64, Delivery, T)> = Vec::new();
        let mut i = 0;
        while i < self.in_flight.len() {
            if self.in_flight[i].0 <= now_micros {
                arrived.push(self.in_flight.swap_remove(i));
            } else {
                i += 1;
            }
        }
        arrived.sort_by_key(|&(at, order, _, _)| (at, order));
        arrived.into_iter().map(|(_, _, delivery, message)| (delivery, message)).collect()
    }
}
