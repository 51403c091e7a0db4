//! A match taken over: what a player hands the host session it becomes when its host goes.
//!
//! Every player holds the match's state and the latest ticks it ran, so when the host goes
//! (silent for [`HOST_SILENCE_MICROS`](super::HOST_SILENCE_MICROS), or handing the match over
//! as it quits) the first player of the succession becomes the host, at the next epoch, from
//! where it stands: its game as it is, the ticks it ran as the ticks it can send again, the
//! seats as the roster named them. The other players come to it with a claim
//! ([`Resume`](super::Resume)): their names, the epoch, and the next tick each would run. A
//! player that ran ticks the successor lacks sends them; the successor runs them and sends
//! them to whoever lacks them, so that no tick is lost, skipped or run twice. Until every
//! player of the succession has claimed its seat (or [`TAKEOVER_GATHER_MICROS`] have passed)
//! the successor fixes no tick, so that the newest tick any survivor ran is the one it goes on
//! from.

use crate::{Player, Tick, TickRecord};

/// How long a successor waits for the players of the succession to claim their seats before
/// it fixes its first tick, microseconds: half a second. Each player notices the silence
/// within a link's jitter of the others (tens of milliseconds) and its claim takes a round
/// trip and a resend or two on a lossy link to come; a player slower than this is seated as
/// it comes (with the successor's state if it ran ticks the successor has fixed anew since).
/// Longer would lengthen every takeover's pause for a player that is gone too.
pub const TAKEOVER_GATHER_MICROS: u64 = 1_000_000;

/// What a player that takes its match over hands the host session it becomes
/// ([`HostSession::succeed`](super::HostSession::succeed)): made by
/// [`PeerSession::takeover`](super::PeerSession::takeover) from what it holds, so that it is
/// whole and consistent.
#[derive(Clone, Debug, PartialEq)]
pub struct Takeover<C> {
    /// The epoch it hosts: one past its host's.
    pub(super) epoch: u32,
    /// Its own seat.
    pub(super) seat: Player,
    /// Every seat's player's name, by seat; a free seat's is empty.
    pub(super) names: Vec<String>,
    /// The latest ticks it ran, oldest first, contiguous, the newest the one before its next.
    pub(super) ticks: Vec<TickRecord<C>>,
    /// Its own inputs for ticks it has not run, from the first.
    pub(super) inputs: Vec<(Tick, C)>,
    /// The other players of the succession: the seats it waits for.
    pub(super) expected: Vec<Player>,
    /// The successor hosts apart from its own player, which claims its seat as the others do.
    pub(super) apart: bool,
}

impl<C> Takeover<C> {
    /// The epoch the successor hosts.
    #[must_use]
    pub const fn epoch(&self) -> u32 {
        self.epoch
    }

    /// The same takeover by a successor that hosts apart from its player (a host of its own,
    /// on a thread or in another process): its seat waits for its player to claim it, as the
    /// others' do, instead of being the host's own.
    #[must_use]
    pub fn hosted_apart(mut self) -> Self {
        if !self.apart {
            self.apart = true;
            self.expected.push(self.seat);
        }
        self
    }

    /// The next tick the successor fixes: the one after the newest it ran.
    #[must_use]
    pub fn next_tick(&self) -> Tick {
        self.ticks.last().map_or(Tick::ZERO, |r| r.tick.next())
    }
}
