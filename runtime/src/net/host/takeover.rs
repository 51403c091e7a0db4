//! A host that took its match over from the host before it, and a host that hands its match
//! over or finds it was succeeded; see [`Takeover`].

use super::{
    Dropped, Holder, HostConfig, HostEvent, HostSession, Joined, Slot, TICK_MEMORY, UnservedClaim,
    Waiting,
};
use crate::net::PeerId;
use crate::net::peer::HOST_SILENCE_MICROS;
use crate::net::takeover::{TAKEOVER_GATHER_MICROS, Takeover};
use crate::net::wire::{
    Delivery, GameData, Goodbye, HostMessage, Refusal, RejoinSecret, Resume, Role, valid_name,
};
use crate::seats::SeatChanges;
use crate::tick::TICK_MICROS;
use crate::{Player, Tick, TickRecord};

/// A successor waiting for the players of its succession to claim their seats.
#[derive(Clone, Debug)]
pub(super) struct Gather {
    /// When it stops waiting, microseconds.
    pub(super) until_micros: u64,
    /// The seats not claimed yet.
    pub(super) waiting: Vec<Player>,
}

impl<D: GameData> HostSession<D> {
    /// The host a player becomes when it takes its match over at `now_micros`: at the
    /// takeover's epoch, its own seat its local player (fed by
    /// [`local_input`](Self::local_input)), every other named seat waiting for its player
    /// (as a departed player's does, for `config.seat_grace_micros`), the ticks the player
    /// ran kept to send to whoever lacks them. It fixes no tick while it is
    /// [`gathering`](Self::gathering). `config.local_players` is not used: the seats are the
    /// match's.
    #[must_use]
    pub fn succeed(
        mut config: HostConfig,
        takeover: Takeover<D::Command>,
        now_micros: u64,
    ) -> Self {
        let next = takeover.next_tick();
        let Takeover { epoch, seat, names, ticks, inputs, expected, apart } = takeover;
        config.local_players = 0;
        let mut host = Self::new(config, next);
        let away = Holder::Away { since_micros: now_micros };
        let last = ticks.last().map(|r| r.commands.clone()).unwrap_or_default();
        for (index, command) in last.into_iter().enumerate() {
            let name = names.get(index).filter(|n| valid_name(n)).cloned().unwrap_or_default();
            let taken = host.slots.iter().any(|s| !name.is_empty() && s.name == name);
            let (name, holder) = match name {
                _ if index == seat.index() && !apart => (name, Holder::Local),
                name if name.is_empty() || taken => (String::new(), Holder::Free),
                name => (name, away),
            };
            let mut slot = Slot::new(name, holder, None);
            slot.last = command;
            host.slots.push(slot);
        }
        if let Some(own) = host.slots.get_mut(seat.index()).filter(|_| !apart) {
            own.inputs = inputs.into_iter().map(|(tick, c)| (tick, (c, now_micros))).collect();
        }
        for record in &ticks {
            host.remember(record);
        }
        host.epoch = epoch;
        host.own_seat = apart.then_some(seat);
        host.now_micros = now_micros;
        host.fixed_micros = Some(now_micros);
        // The players of the old succession keep their precedence in the new one.
        host.welcomes = expected.len() as u64;
        host.ranks.clone_from(&expected);
        host.gather = Some(Gather {
            until_micros: now_micros.saturating_add(TAKEOVER_GATHER_MICROS),
            waiting: expected,
        });
        host
    }

    /// Makes the match end with this host: no player's offer makes a succession, so when the
    /// host goes its players have nobody to turn to.
    pub fn forbid_takeovers(&mut self) {
        self.takeovers = false;
        self.update_succession();
    }

    /// Its epoch: 0 for the host that started the match, one more for each takeover since.
    #[must_use]
    pub const fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Whether it is a successor still waiting for players of the succession to claim their
    /// seats (for at most [`TAKEOVER_GATHER_MICROS`] from the takeover): until then it fixes
    /// no tick, so that it goes on from the newest tick any of them ran.
    #[must_use]
    pub fn gathering(&self) -> bool {
        self.gather
            .as_ref()
            .is_some_and(|g| !g.waiting.is_empty() && self.now_micros < g.until_micros)
    }

    /// Whether it was succeeded ([`HostEvent::Superseded`]): it must fix no more ticks.
    #[must_use]
    pub const fn superseded(&self) -> bool {
        self.superseded
    }

    /// The ticks resuming players sent that it lacked ([`HostEvent::TicksRecovered`]), in
    /// order, for its game to run before the next tick is fixed.
    pub fn take_recovered(&mut self) -> Vec<TickRecord<D::Command>> {
        core::mem::take(&mut self.recovered)
    }

    /// Leaves the match to the next host of the succession: every player is sent the ticks
    /// it has not confirmed and told [`Goodbye::HandedOver`], and goes on with the successor
    /// at once (without waiting out the host's silence). With nobody to hand it to, it ends
    /// the match instead ([`end_match`](Self::end_match)); whether it handed it over.
    pub fn hand_over(&mut self) -> bool {
        let handed = !self.succession.is_empty();
        self.close_all(&if handed { Goodbye::HandedOver } else { Goodbye::MatchEnded });
        self.superseded |= handed;
        handed
    }

    /// Notices a host that fixed no tick for [`HOST_SILENCE_MICROS`] while players offered to
    /// host (a successor: since it stopped gathering): its players took it for gone, and the
    /// first of them took the match over.
    pub(super) fn notice_stop(&mut self) {
        let gathered = self.gather.as_ref().map(|g| g.until_micros);
        let stopped = self
            .fixed_micros
            .max(gathered)
            .is_some_and(|at| self.now_micros.saturating_sub(at) >= HOST_SILENCE_MICROS);
        let successors = self.fixed_with_successors || !self.succession.is_empty();
        // A host that ended its match (or handed it over) stops fixing ticks on purpose:
        // its players were told, and nobody takes over.
        if stopped && !self.superseded && !self.closing && successors && !self.gathering() {
            self.supersede();
        }
    }

    /// While it gathers the players' claims, a successor fixes no tick; it sends the players
    /// it seated a frame a tick all the same, so that none of them takes it for gone.
    pub(super) fn heartbeat(&mut self) {
        let due = self.now_micros.saturating_sub(self.heartbeat_micros) >= TICK_MICROS;
        if !self.gathering() || !due {
            return;
        }
        self.heartbeat_micros = self.now_micros;
        for peer in self.joined_peers(|joined| matches!(joined, Joined::Player(_))) {
            self.send_frames(peer, None);
        }
    }

    fn supersede(&mut self) {
        self.superseded = true;
        self.events.push(HostEvent::Superseded { epoch: self.epoch });
    }

    /// A hello that claims a seat of a successor ([`Resume`]); whether it was dealt with. One
    /// that is not (a player this host has no seat waiting for, or one whose ticks it can no
    /// longer send) is a hello like any other: it is sent the host's state.
    pub(super) fn claim(&mut self, peer: PeerId, name: &str, role: Role, resume: Resume) -> bool {
        if resume.epoch != self.epoch {
            if resume.epoch > self.epoch && !self.superseded {
                self.supersede();
            }
            let goodbye = Goodbye::Superseded { ours: self.epoch, theirs: resume.epoch };
            self.refuse(peer, name, role, goodbye);
            return true;
        }
        let waits =
            self.slots.iter().any(|s| s.name == name && matches!(s.holder, Holder::Away { .. }));
        let asked_already = self
            .peers
            .values()
            .any(|p| p.waiting.as_ref().is_some_and(|w| w.role == Role::Player && w.name == name));
        let next = self.next_tick;
        let oldest = self.history.front().map(|f| f.record.tick);
        // Ticks it ran that this host fixed too, itself: compared before it is seated.
        let compare_from = self.own_from.filter(|&own| resume.next_tick > own);
        let first_sent = compare_from.unwrap_or(resume.next_tick);
        let sendable = oldest.is_some_and(|o| first_sent >= o)
            && (resume.next_tick <= next || self.gathering());
        if role != Role::Player {
            return false;
        }
        let unserved = if !waits {
            Some(UnservedClaim::NoSeatWaiting)
        } else if asked_already {
            Some(UnservedClaim::AlreadyClaimed)
        } else if !sendable {
            Some(UnservedClaim::TicksNotKept { claimed: resume.next_tick, oldest, next })
        } else {
            None
        };
        if let Some(why) = unserved {
            self.events.push(HostEvent::ClaimUnserved { peer, name: name.to_owned(), why });
            return false;
        }
        let Some(p) = self.peers.get_mut(&peer) else { return true };
        p.name = name.to_owned();
        p.waiting =
            Some(Waiting { role, name: name.to_owned(), replaces: None, resume: Some(resume) });
        if let Some(from) = compare_from.filter(|_| resume.next_tick <= next) {
            self.send(peer, Delivery::Reliable, &HostMessage::<D>::TicksWanted { from });
        } else if resume.next_tick > next {
            self.send(peer, Delivery::Reliable, &HostMessage::<D>::TicksWanted { from: next });
        } else {
            self.events.push(HostEvent::ResumeWanted { peer });
        }
        true
    }

    /// Ticks a resuming player ran ([`ToHost::Ticks`]): those this successor lacked are kept
    /// and handed to the game, to go on from the newest; those it has are compared with its
    /// own where it fixed them itself, and a player whose ticks differ is sent the host's
    /// state.
    ///
    /// [`ToHost::Ticks`]: crate::net::ToHost::Ticks
    pub(super) fn recover_ticks(&mut self, peer: PeerId, records: Vec<TickRecord<D::Command>>) {
        let claim = self.peers.get(&peer).and_then(|p| p.waiting.as_ref()).and_then(|w| w.resume);
        let Some(claim) = claim else {
            return self.drop_message(peer, Dropped::OutOfPlace);
        };
        if records.len() > TICK_MEMORY as usize {
            return self.drop_message(peer, Dropped::Refused(Refusal::Malformed));
        }
        let from = self.next_tick;
        // Where this host fixed ticks itself that the player ran too, the player's must be
        // the same, all of them, for it to play on from its own state.
        let compare_from = self.own_from.filter(|&own| claim.next_tick > own);
        if let Some(own) = compare_from.filter(|&own| records.first().is_none_or(|r| r.tick > own))
        {
            return self.claim_differs(peer, own);
        }
        let mut count = 0_u32;
        let mut expected = records.first().map(|r| r.tick);
        for record in records {
            let consecutive = expected == Some(record.tick);
            expected = Some(record.tick.next());
            if consecutive && record.tick < self.next_tick {
                if self.kept(record.tick) != Some(&record) {
                    return self.claim_differs(peer, record.tick);
                }
                continue;
            }
            let in_order =
                consecutive && record.tick == self.next_tick && record.tick < claim.next_tick;
            if !in_order || !self.seat_recovered(&record) {
                let name = self.peers.get(&peer).map(|p| p.name.clone()).unwrap_or_default();
                return self.refuse(peer, &name, Role::Player, Goodbye::Malformed);
            }
            self.next_tick = record.tick.next();
            self.remember(&record);
            self.recovered.push(record);
            count += 1;
        }
        for slot in &mut self.slots {
            let next = self.next_tick;
            slot.inputs.retain(|&tick, _| tick >= next);
        }
        if count > 0 {
            self.events.push(HostEvent::TicksRecovered { peer, from, count });
        }
        if self.next_tick >= claim.next_tick {
            // Its ticks reach the host's: it plays on from its own state, sent the ticks from
            // its claim on. The host may be past them already: another player brought the
            // ticks it lacked while this one's were on their way, and it went on once it
            // stopped gathering.
            self.events.push(HostEvent::ResumeWanted { peer });
        } else {
            // It did not bring what it claimed: it is sent the host's state instead.
            self.settle_for_state(peer);
        }
    }

    /// Takes a recovered tick's seats and commands as the slots' (whether they fit the
    /// seats: a seat joined is free or a new one, and there is a command for every seat).
    fn seat_recovered(&mut self, record: &TickRecord<D::Command>) -> bool {
        let SeatChanges { freed, joined } = &record.seats;
        let mut seats = self.slots.len();
        for seat in joined {
            let free = self.slots.get(seat.index()).is_some_and(|s| s.holder == Holder::Free);
            if seat.index() == seats {
                seats += 1;
            } else if !free {
                return false;
            }
        }
        let known = freed.iter().all(|s| s.index() < self.slots.len());
        if !known || record.commands.len() != seats {
            return false;
        }
        for seat in freed {
            self.slots[seat.index()] = Slot::new(String::new(), Holder::Free, None);
        }
        for seat in joined {
            // A player the successor had not heard of yet: its seat waits nameless, and is
            // freed when its grace is over.
            let away = Holder::Away { since_micros: self.now_micros };
            let slot = Slot::new(String::new(), away, None);
            match self.slots.get_mut(seat.index()) {
                Some(free) => *free = slot,
                None => self.slots.push(slot),
            }
        }
        for (slot, command) in self.slots.iter_mut().zip(&record.commands) {
            slot.last = command.clone();
        }
        true
    }

    /// A resuming player whose tick `tick` is not this host's: it is sent the host's state,
    /// and the host says why.
    fn claim_differs(&mut self, peer: PeerId, tick: Tick) {
        let name = self.peers.get(&peer).map(|p| p.name.clone()).unwrap_or_default();
        let why = UnservedClaim::TicksDiffer { tick };
        self.events.push(HostEvent::ClaimUnserved { peer, name, why });
        self.settle_for_state(peer);
    }

    /// A resuming player this host cannot seat on its own state is sent the host's.
    fn settle_for_state(&mut self, peer: PeerId) {
        if let Some(w) = self.peers.get_mut(&peer).and_then(|p| p.waiting.as_mut()) {
            w.resume = None;
            self.events.push(HostEvent::StateWanted { peer });
        }
    }

    /// Seats `peer`, a player whose host went, which asked with [`HostEvent::ResumeWanted`],
    /// in its own seat: it plays on from its own state and is sent the ticks from the one it
    /// claimed on. `fresh` is its secret for this host, as [`welcome`](Self::welcome)'s is.
    pub fn resume(&mut self, peer: PeerId, fresh: RejoinSecret) {
        let waiting = self.peers.get(&peer).and_then(|p| p.waiting.clone());
        let Some(Waiting { name, resume: Some(claim), .. }) = waiting else { return };
        let seat = self
            .slots
            .iter()
            .position(|s| s.name == name && matches!(s.holder, Holder::Away { .. }));
        let oldest = self.history.front().map(|f| f.record.tick);
        let sendable =
            oldest.is_some_and(|o| claim.next_tick >= o) && claim.next_tick <= self.next_tick;
        let why = if seat.is_none() {
            UnservedClaim::NoSeatWaiting
        } else {
            UnservedClaim::TicksNotKept { claimed: claim.next_tick, oldest, next: self.next_tick }
        };
        let (Some(seat), true) = (seat.and_then(Player::from_index), sendable) else {
            self.events.push(HostEvent::ClaimUnserved { peer, name, why });
            return self.settle_for_state(peer);
        };
        let rank = self.ranks.iter().position(|&p| p == seat);
        self.welcomes += 1;
        let order = rank.map_or(self.welcomes, |r| r as u64 + 1);
        if let Some(p) = self.peers.get_mut(&peer) {
            p.waiting = None;
            p.joined = Some(Joined::Player(seat));
            p.joined_order = order;
            p.received = claim.next_tick;
            p.welcomed_at = claim.next_tick;
            p.hashes_from = claim.next_tick;
        }
        let slot = &mut self.slots[seat.index()];
        slot.holder = Holder::Peer(peer);
        slot.inputs_from = None;
        slot.inputs.clear();
        let rejoin = *slot.secret.get_or_insert(fresh);
        let resumed = HostMessage::<D>::Resumed {
            player: seat,
            tick: claim.next_tick,
            epoch: self.epoch,
            rejoin,
        };
        self.send(peer, Delivery::Reliable, &resumed);
        self.announce(peer, Some(seat), name, true);
    }

    /// A player of the succession arrived: the successor waits for it no more.
    pub(super) fn arrived(&mut self, player: Player) {
        if let Some(gather) = &mut self.gather {
            gather.waiting.retain(|&p| p != player);
        }
    }
}
