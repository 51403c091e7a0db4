//! A player whose host went: turning to the successor, claiming its seat there with the state
//! it has, or taking the match over itself (see [`Takeover`]).

use super::{PeerEvent, PeerSession};
use crate::net::succession::Successor;
use crate::net::takeover::Takeover;
use crate::net::wire::{
    Delivery, GameData, Goodbye, PeerMessage, Refusal, RejoinSecret, Resume, Role,
};
use crate::{Player, Tick};

impl<D: GameData> PeerSession<D> {
    /// Whether its host went in a way the match outlives: silent for the host silence
    /// ([`host_gone`](Self::host_gone)), or handing the match over; not ending it, nor
    /// dropping this peer. Then [`follow_successor`](Self::follow_successor).
    #[must_use]
    pub fn host_went(&self) -> bool {
        self.host_gone()
            && self.goodbye.as_ref().is_none_or(|goodbye| *goodbye == Goodbye::HandedOver)
    }

    /// Turns to the next host of the succession, its host having gone
    /// ([`host_gone`](Self::host_gone)): the first successor not tried yet, which it takes off
    /// its list. If that is this player, it takes the match over
    /// ([`takeover`](Self::takeover)); if not, its transport connects to the successor's
    /// addresses and [`connect`](Self::connect) says hello there, claiming this player's
    /// seat and the next tick it would run. A successor that does not answer within
    /// [`HOST_SILENCE_MICROS`](super::HOST_SILENCE_MICROS) is gone too: turn to the next.
    /// `None` when nobody is left to host: the match is over.
    pub fn follow_successor(&mut self) -> Option<Successor> {
        if self.succession.is_empty() || !self.is_welcomed() {
            return None;
        }
        let next = self.succession.remove(0);
        // Every successor tried is asked for the same epoch: one past the host that went.
        self.rehoming.get_or_insert(self.epoch.saturating_add(1));
        self.goodbye = None;
        // The successor's silence counts from now (a spectator's, from its first update: a
        // successor sends it none while it gathers the players' claims).
        self.heard_micros = Some(self.now_micros);
        self.watching = false;
        // What the old host sent of ticks not yet handed out is moot: the successor fixes
        // them anew.
        self.early.clear();
        self.round_trips.clear();
        self.round_trip_ms = 0;
        self.frames = 0;
        // The successor compares hashes of the ticks it runs, from its first on.
        self.hashes.clear();
        self.hashes_from = self.next_tick.unwrap_or(Tick::ZERO);
        self.hashes_sent_to = self.hashes_from;
        // Every input not acknowledged goes to the successor.
        self.inputs_sent_to = self.unacked_from;
        Some(next)
    }

    /// Whether it has turned to a successor that has not seated it yet.
    #[must_use]
    pub const fn rehoming(&self) -> bool {
        self.rehoming.is_some()
    }

    /// What this player hands the host session it becomes when it is the successor
    /// ([`follow_successor`](Self::follow_successor) named it): its seat, the ticks it ran,
    /// its inputs not yet fixed, and who it waits for; `names` are every seat's player's name,
    /// as the latest roster said (a free seat's empty). `None` for a spectator, and for a
    /// player that has run no tick yet (it knows the seats only from a tick).
    #[must_use]
    pub fn takeover(&self, names: Vec<String>) -> Option<Takeover<D::Command>> {
        let seat = self.player?;
        let next = self.next_tick?;
        if self.handed.back().is_none_or(|r| r.tick.next() != next) {
            return None;
        }
        let inputs = (self.unacked_from.0..)
            .map(Tick)
            .zip(self.unacked.iter().cloned())
            .filter(|(tick, _)| *tick >= next)
            .collect();
        let expected: Vec<Player> =
            self.succession.iter().map(|s| s.player).filter(|&p| p != seat).collect();
        Some(Takeover {
            epoch: self.rehoming.unwrap_or(self.epoch.saturating_add(1)),
            seat,
            names,
            ticks: self.handed.iter().cloned().collect(),
            inputs,
            expected,
            apart: false,
        })
    }

    /// What this player claims of a successor as it says hello: the epoch, and the next tick
    /// it would run. None unless it is a player on its way to a successor.
    pub(super) fn resume_claim(&self) -> Option<Resume> {
        let playing = self.config.role == Role::Player && self.player.is_some();
        let epoch = self.rehoming.filter(|_| playing)?;
        let next_tick = self.next_tick?;
        Some(Resume { epoch, next_tick })
    }

    /// Forgets the match as it ran here, for a welcome that brings the successor's state
    /// instead.
    pub(super) fn start_afresh(&mut self) {
        self.next_tick = None;
        self.base = None;
        self.early.clear();
        self.handed.clear();
        self.unacked.clear();
        self.hashes.clear();
        self.rehoming = None;
    }

    /// The successor asks for the ticks it lacks: every tick this player ran from `from` on.
    pub(super) fn send_ticks_from(&mut self, from: Tick) {
        if self.rehoming.is_none() || self.next_tick.is_none_or(|next| from >= next) {
            return self.drop_message(Refusal::Malformed);
        }
        let records = self.handed.iter().filter(|r| r.tick >= from).cloned().collect();
        self.send(Delivery::Reliable, &PeerMessage::<D>::Ticks { records });
    }

    /// The successor seated this player in its own seat, to play on from `tick`: the next
    /// tick it runs, as it claimed.
    pub(super) fn resumed(&mut self, player: Player, tick: Tick, epoch: u32, rejoin: RejoinSecret) {
        let claimed = self.rehoming.is_some_and(|e| e == epoch)
            && self.player == Some(player)
            && self.next_tick == Some(tick);
        if !claimed {
            return self.drop_message(Refusal::Malformed);
        }
        self.epoch = epoch;
        self.rehoming = None;
        self.config.rejoin = Some(rejoin);
        self.events.push(PeerEvent::Resumed { tick, epoch, rejoin });
        if !self.hosts_on.is_empty() {
            self.send_offer();
        }
    }
}
