//! A match that outlives its host. The host goes silent (killed, or stopped), or hands the
//! match over as it quits; the first player of the succession takes the match over from its
//! own state and the others claim their seats there with theirs. Every survivor's ticks run
//! on without a gap or a repeat, all to the same hashes, through a second takeover and down
//! to a single player, and past a successor that died with its host; a host that was only
//! stopped finds it was succeeded and fixes no more.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use super::*;
use fixstep_runtime::net::HOST_SILENCE_MICROS;

/// Where a player offers to host: an address per player (the sessions never open it).
fn offer(id: u64) -> SocketAddr {
    SocketAddr::from(([192, 168, 1, 10], 7_000 + id as u16))
}

/// How long before the kill the players the tests make deaf hear nothing from the host,
/// microseconds: four ticks, which the others run and they lack.
const DEAF_MICROS: u64 = 400_000;

/// The links between a late survivor and its successor: 0.1 s there, so that its claim comes
/// before another's ticks, and 0.85 s back, so that it hears the successor ask for its ticks
/// within the host silence and its answer comes after the second the successor gathers.
const LATE_ANSWER: (LinkConditions, LinkConditions) = {
    let to =
        LinkConditions { delay_micros: 100_000, jitter_micros: 0, loss_percent: 0, ..BAD_LINK };
    (to, LinkConditions { delay_micros: 850_000, ..to })
};

/// A match on [`BAD_LINK`]s whose hosts come and go, on the test's clock.
struct Table {
    host: Option<Host>,
    /// The players, each under its name.
    peers: Vec<Peer>,
    /// Players on their way to the successor with this seat, to connect once it hosts.
    waiting: Vec<(usize, Player)>,
    /// When each player (by name) ran each tick, microseconds, and its hash.
    logs: BTreeMap<String, Vec<(Tick, u64, u64)>>,
    /// Whose the host is, by name.
    hosted_by: Option<String>,
    /// The first tick each successor fixed of its own, by epoch.
    first_fixed: BTreeMap<u32, Tick>,
    /// The links (to and from) between a player, by name, and its successors, when not
    /// [`BAD_LINK`]s.
    to_successor: BTreeMap<String, (LinkConditions, LinkConditions)>,
    now: u64,
}

impl Table {
    /// A dedicated host (no player of its own) and players `names`, each offering to host.
    fn new(names: &[&str]) -> Self {
        let (host, mut peers) = connected_on_a_bad_link(names);
        for peer in &mut peers {
            peer.session.offer_to_host(vec![offer(peer.id.0)]);
        }
        Self {
            host: Some(host),
            peers,
            waiting: Vec::new(),
            logs: BTreeMap::new(),
            hosted_by: None,
            first_fixed: BTreeMap::new(),
            to_successor: BTreeMap::new(),
            now: 0,
        }
    }

    fn name(peer: &Peer) -> String {
        let seat = peer.session.player().map_or(usize::MAX, Player::index);
        peer.names.get(seat).cloned().unwrap_or_default()
    }

    /// Runs the table until `until` (microseconds on the test's clock).
    fn run_until(&mut self, until: u64) {
        while self.now < until {
            self.now += STEP_MICROS;
            let now = self.now;
            let before: Vec<usize> = self.peers.iter().map(|p| p.hashes.len()).collect();
            let hosted = self.host.as_ref().map_or(0, |h| h.hashes.len());
            if let Some(host) = &mut self.host {
                if !host.session.superseded() {
                    host.step(STEP_MICROS, now);
                }
                if let Some(first) = host.first_fixed {
                    self.first_fixed.entry(host.session.epoch()).or_insert(first);
                }
                exchange(host, &mut self.peers, now);
            }
            for peer in &mut self.peers {
                peer.step(now);
            }
            if let Some(host) = &mut self.host {
                exchange(host, &mut self.peers, now);
            }
            for (peer, before) in self.peers.iter().zip(before) {
                let log = self.logs.entry(Self::name(peer)).or_default();
                log.extend(peer.hashes[before..].iter().map(|&(t, h)| (t, h, now)));
            }
            if let (Some(host), Some(name)) = (&self.host, &self.hosted_by) {
                let log = self.logs.entry(name.clone()).or_default();
                log.extend(host.hashes[hosted..].iter().map(|&(t, h)| (t, h, now)));
            }
            self.follow_successors();
        }
    }

    /// Each player whose host is gone turns to the successor: takes the match over if it is
    /// the successor, or connects to it once it hosts. One still waiting for a successor
    /// that has not hosted after the host silence turns to the next.
    fn follow_successors(&mut self) {
        let now = self.now;
        let mut index = 0;
        while index < self.peers.len() {
            let peer = &mut self.peers[index];
            if !peer.session.host_gone() {
                index += 1;
                continue;
            }
            self.waiting.retain(|w| w.0 != index);
            let Some(next) = peer.session.follow_successor() else {
                panic!("{} has no successor left: {:?}", Self::name(peer), peer.session);
            };
            if Some(next.player) == peer.session.player() {
                let peer = self.peers.remove(index);
                self.take_over(peer);
                self.waiting.retain(|w| w.0 != index);
                for w in &mut self.waiting {
                    w.0 -= usize::from(w.0 > index);
                }
                continue;
            }
            // New links to the successor, under a new connection id.
            let (to, from) =
                self.to_successor.get(&Self::name(peer)).copied().unwrap_or((BAD_LINK, BAD_LINK));
            peer.id = PeerId(peer.id.0 + 100);
            peer.to_host = SimulatedLink::new(to, peer.id.0 * 2);
            peer.from_host = SimulatedLink::new(from, peer.id.0 * 2 + 1);
            self.waiting.push((index, next.player));
            index += 1;
        }
        let Some(host) = &mut self.host else { return };
        let hosting = host.local;
        let mut still = Vec::new();
        for (index, seat) in self.waiting.drain(..) {
            if Some(seat) == hosting && !host.session.superseded() {
                let peer = &mut self.peers[index];
                host.session.connect(peer.id, now);
                peer.session.connect();
                peer.hello_at = now;
            } else {
                still.push((index, seat));
            }
        }
        self.waiting = still;
    }

    fn take_over(&mut self, mut peer: Peer) {
        let name = Self::name(&peer);
        let takeover = peer.session.takeover(peer.names.clone()).expect("it ran ticks");
        let mut host = Host::new();
        let config = HostConfig {
            identity: identity(),
            max_players: 8,
            max_spectators: 8,
            local_players: 0,
            seat_grace_micros: DEFAULT_SEAT_GRACE_MICROS,
        };
        host.session = HostSession::succeed(config, takeover, self.now);
        host.sim = peer.sim.take().expect("a player's game");
        host.local = peer.session.player();
        // Its log goes on as the host's.
        host.hashes = Vec::new();
        self.host = Some(host);
        self.hosted_by = Some(name);
    }

    /// The host dies where it stands: nothing more from it, ever.
    fn kill_host(&mut self) {
        self.host = None;
        self.hosted_by = None;
    }

    /// Every log runs on tick by tick, without a gap or a repeat, and every log agrees with
    /// every other on every tick's hash.
    fn assert_agree(&self) {
        for (name, log) in &self.logs {
            for pair in log.windows(2) {
                assert_eq!(
                    pair[1].0,
                    pair[0].0.next(),
                    "{name} ran {} after {}",
                    pair[1].0,
                    pair[0].0
                );
            }
        }
        self.assert_hashes_agree();
    }

    /// Every log agrees with every other on the hash of every tick both ran.
    fn assert_hashes_agree(&self) {
        let mut hashes: BTreeMap<Tick, (u64, &str)> = BTreeMap::new();
        for (name, log) in &self.logs {
            for &(tick, hash, _) in log {
                let (first, by) = *hashes.entry(tick).or_insert((hash, name));
                assert_eq!(hash, first, "{name} and {by} differ at tick {tick}");
            }
        }
    }

    /// The index of the player first in the succession.
    fn successor(&self) -> usize {
        let first = self.peers[0].session.succession()[0].player;
        let successor = self.peers.iter().position(|p| p.session.player() == Some(first));
        successor.expect("the successor plays")
    }

    /// Runs the table `micros` on, players `deaf` hearing nothing from the host meanwhile (and
    /// what was on its way to them lost).
    fn run_deaf(&mut self, deaf: &[usize], micros: u64) {
        let until = self.now + micros;
        while self.now < until {
            for &player in deaf {
                self.peers[player].from_host = SimulatedLink::new(BAD_LINK, 1);
            }
            self.run_until(self.now + STEP_MICROS);
        }
        for &player in deaf {
            self.peers[player].from_host = SimulatedLink::new(BAD_LINK, 1);
        }
    }

    /// How long after `killed` (microseconds) each survivor ran the first tick of epoch
    /// `epoch`'s host, by name.
    fn pauses(&self, killed: u64, epoch: u32) -> Vec<(String, u64)> {
        let first = self.first_fixed[&epoch];
        self.logs
            .iter()
            .filter_map(|(name, log)| {
                let at = log.iter().find(|(t, _, _)| *t == first)?.2;
                Some((name.clone(), at - killed))
            })
            .collect()
    }

    /// Asserts that `survivors` players ran epoch `epoch`'s first tick, each a pause after
    /// `killed` (microseconds) within `within`.
    fn assert_pauses(
        &self,
        killed: u64,
        epoch: u32,
        survivors: usize,
        within: std::ops::RangeInclusive<u64>,
    ) {
        let pauses = self.pauses(killed, epoch);
        println!("pauses to epoch {epoch}, µs: {pauses:?}");
        assert_eq!(pauses.len(), survivors, "{pauses:?}");
        for (name, pause) in &pauses {
            assert!(within.contains(pause), "{name} paused {pause} µs, not within {within:?}");
        }
    }

    fn epochs(&self) -> Vec<Vec<u32>> {
        self.peers.iter().map(|p| p.resumed.iter().map(|r| r.1).collect()).collect()
    }
}

#[test]
fn the_match_outlives_its_host_and_the_next_down_to_one_player() {
    let mut table = Table::new(&["ada", "bob", "cyd", "dee"]);
    table.run_until(8_000_000);
    let order: Vec<Player> = table.peers[0].session.succession().iter().map(|s| s.player).collect();
    assert_eq!(order.len(), 4, "every player offered");
    let killed = table.now;
    table.kill_host();
    table.run_until(killed + 6_000_000);
    assert_eq!(table.hosted_by.as_deref().map(str::len), Some(3), "a player hosts");
    let host = table.host.as_ref().expect("a successor");
    assert_eq!(host.local, Some(order[0]), "the first of the succession took over");
    assert_eq!(host.session.epoch(), 1);
    assert_eq!(host.session.players(), 4, "every seat is played again");
    // A second of silence, a claim and its answer over the link, then a tick on its way.
    table.assert_pauses(killed, 1, 4, HOST_SILENCE_MICROS..=3_000_000);
    assert!(table.epochs().iter().all(|e| e == &[1]), "{:?}", table.epochs());
    table.assert_agree();

    // The successor dies too: the next one takes over, and again, down to one player.
    for (epoch, players) in [(2, 3), (3, 2)] {
        let killed = table.now;
        table.kill_host();
        table.run_until(killed + 6_000_000);
        let host = table.host.as_ref().expect("a successor");
        assert_eq!(host.session.epoch(), epoch);
        assert_eq!(host.session.players(), 4, "the gone hosts' seats wait for them");
        assert_eq!(table.peers.len(), players - 1);
        for (name, pause) in table.pauses(killed, epoch) {
            assert!(pause <= 3_000_000, "{name} paused {pause} µs at epoch {epoch}");
        }
        table.assert_agree();
    }
    let killed = table.now;
    table.kill_host();
    table.run_until(killed + 4_000_000);
    let last = table.host.as_ref().expect("the last player hosts itself");
    assert_eq!(last.session.epoch(), 4);
    assert!(table.peers.is_empty());
    let ran = table.logs[table.hosted_by.as_deref().expect("hosted")].len();
    table.run_until(table.now + 2_000_000);
    let more = table.logs[table.hosted_by.as_deref().expect("hosted")].len() - ran;
    assert!((19..=21).contains(&more), "alone it runs 10 ticks a second: {more} in 2 s");
    table.assert_agree();
}

#[test]
fn a_successor_that_never_answers_is_passed_over_for_the_next() {
    let mut table = Table::new(&["ada", "bob", "cyd", "dee"]);
    table.run_until(8_000_000);
    let order: Vec<Player> = table.peers[0].session.succession().iter().map(|s| s.player).collect();
    // The host and its first successor die together: the others turn to that successor,
    // hear nothing from it for the host silence, and turn to the next.
    let first = table.peers.iter().position(|p| p.session.player() == Some(order[0]));
    table.peers.remove(first.expect("the first successor plays"));
    let killed = table.now;
    table.kill_host();
    table.run_until(killed + 8_000_000);
    let host = table.host.as_ref().expect("a successor");
    assert_eq!(host.local, Some(order[1]), "the second of the succession took over");
    assert_eq!(host.session.epoch(), 1, "the epoch after the host that went");
    // Two seconds of silence (the host's, then the first successor's), then as ever.
    table.assert_pauses(killed, 1, 3, 2 * HOST_SILENCE_MICROS..=4_000_000);
    table.assert_agree();
}

#[test]
fn the_newest_tick_any_survivor_ran_wins() {
    let mut table = Table::new(&["ada", "bob", "cyd"]);
    table.run_until(6_000_000);
    // The successor hears nothing for the host's last 400 ms: the others ran ticks it lacks.
    let successor = table.successor();
    table.run_deaf(&[successor], DEAF_MICROS);
    let killed = table.now;
    let lacked = table.logs.values().map(|l| l.last().map_or(0, |e| e.0.0)).max().unwrap_or(0)
        - table.peers[successor].hashes.last().map_or(0, |e| e.0.0);
    assert!(lacked >= 2, "the successor lacks {lacked} ticks");
    table.kill_host();
    table.run_until(killed + 5_000_000);
    let host = table.host.as_ref().expect("a successor");
    // What the others had at the kill, and what was on its way to them then.
    let recovered = host.recovered;
    assert!(recovered >= lacked, "it ran {recovered} ticks of a survivor's, lacked {lacked}");
    table.assert_agree();
}

/// A survivor the successor asked for the ticks it lacked, whose answer comes only after the
/// successor stopped waiting and went on: the other survivor brought those ticks meanwhile,
/// so the late one is seated on its claim and plays on from its own state, its log without a
/// gap, not sent the match's state as a newcomer.
#[test]
fn a_survivor_whose_ticks_come_after_the_successor_went_on_is_seated_on_its_claim() {
    let mut table = Table::new(&["ada", "bob", "cyd"]);
    table.run_until(6_000_000);
    // The successor hears nothing for the host's last 400 ms: the others ran ticks it lacks.
    let successor = table.successor();
    let late = usize::from(successor == 0);
    let late_name = Table::name(&table.peers[late]);
    table.to_successor.insert(late_name.clone(), LATE_ANSWER);
    table.run_deaf(&[successor], DEAF_MICROS);
    let killed = table.now;
    table.kill_host();
    table.run_until(killed + 6_000_000);
    let host = table.host.as_ref().expect("a successor");
    assert!(host.recovered >= 2, "the successor ran {} ticks of a survivor's", host.recovered);
    table.assert_agree();
    let late = table.peers.iter().find(|p| Table::name(p) == late_name).expect("it plays on");
    assert_eq!(late.resumed.iter().map(|r| r.1).collect::<Vec<_>>(), [1], "seated on its claim");
    let ran = &table.logs[&late_name];
    assert!(ran.last().is_some_and(|l| l.0 > host.first_fixed.expect("fixed")), "it played on");
}

/// As above, but nobody else brought the ticks the successor lacked: it fixed them anew
/// once it stopped gathering (the late survivor's inputs for them, which the old host had
/// taken, are held), and the late survivor had run the old host's. Its ticks differ from the
/// successor's: it is sent the match's state rather than seated on its own, and no two
/// players ever differ on a tick.
#[test]
fn a_survivor_whose_ticks_the_successor_fixed_otherwise_is_sent_the_state() {
    let mut table = Table::new(&["ada", "bob", "cyd"]);
    table.run_until(6_000_000);
    let successor = table.successor();
    let others: Vec<usize> = (0..table.peers.len()).filter(|&i| i != successor).collect();
    let (deaf, late) = (others[0], others[1]);
    let late_name = Table::name(&table.peers[late]);
    table.to_successor.insert(late_name.clone(), LATE_ANSWER);
    // The successor and one other hear nothing for the host's last 400 ms.
    table.run_deaf(&[successor, deaf], DEAF_MICROS);
    let killed = table.now;
    table.kill_host();
    table.run_until(killed + 6_000_000);
    let host = table.host.as_ref().expect("a successor");
    assert_eq!(host.recovered, 0, "nobody brought the ticks it lacked in time");
    let late = table.peers.iter().find(|p| Table::name(p) == late_name).expect("it plays on");
    assert!(late.resumed.is_empty(), "not seated on ticks the host fixed otherwise");
    table.assert_hashes_agree();
    let ran = &table.logs[&late_name];
    assert!(ran.last().is_some_and(|l| l.0 > host.first_fixed.expect("fixed")), "it played on");
}

#[test]
fn a_host_that_hands_over_pauses_the_match_for_well_under_a_second() {
    let mut table = Table::new(&["ada", "bob", "cyd"]);
    table.run_until(6_000_000);
    let left = table.now;
    let host = table.host.as_mut().expect("hosting");
    assert!(host.session.hand_over());
    exchange(host, &mut table.peers, left);
    table.host = None;
    table.run_until(left + 3_000_000);
    for (name, pause) in table.pauses(left, 1) {
        // No silence to wait out: the goodbye says the host went.
        assert!(pause < 800_000, "{name} paused {pause} µs");
    }
    table.assert_agree();
}

#[test]
fn a_stopped_host_finds_it_was_succeeded_and_fixes_no_more() {
    let mut table = Table::new(&["ada", "bob"]);
    table.run_until(6_000_000);
    let stopped = table.now;
    let mut frozen = table.host.take().expect("hosting");
    table.run_until(stopped + 3_000_000);
    assert_eq!(table.host.as_ref().map(|h| h.session.epoch()), Some(1), "taken over");
    // It runs again: its transport says its players left (they closed their connections as
    // they turned to the successor), and it finds it fixed nothing for longer than its
    // players wait, and stops.
    for id in 1..=2 {
        frozen.session.disconnect(PeerId(id));
    }
    let fixed = frozen.session.next_tick();
    frozen.step(STEP_MICROS, table.now);
    assert!(frozen.session.superseded());
    assert_eq!(frozen.session.next_tick(), fixed, "it fixed nothing after it woke");
    table.run_until(table.now + 2_000_000);
    table.assert_agree();
}

/// A host that ended its match stops fixing ticks on purpose: however long it then waits
/// for its goodbyes to get through, it does not take itself for succeeded (which would leave
/// its join code listed for a successor that never comes).
#[test]
fn a_host_that_ended_its_match_is_not_taken_for_succeeded() {
    let mut table = Table::new(&["ada", "bob"]);
    table.run_until(6_000_000);
    let host = table.host.as_mut().expect("hosting");
    host.session.end_match();
    host.step(STEP_MICROS, table.now + 3_000_000);
    assert!(!host.session.superseded());
}

/// A fresh host (epoch 0) that peer 5, "bob", said hello to, claiming its seat of the host of
/// `epoch` from tick `next_tick` on.
fn claimed_by_bob(epoch: u32, next_tick: Tick) -> Host {
    let mut host = Host::new();
    host.session.connect(PeerId(5), 0);
    let hello = fixstep_runtime::net::ToHost::<DriftCommand, ()>::Hello {
        identity: identity(),
        name: "bob".into(),
        role: Role::Player,
        rejoin: None,
        resume: Some(fixstep_runtime::net::Resume { epoch, next_tick }),
        view: None,
    };
    let bytes = fixstep_runtime::net::wire::encode(&hello);
    host.session.receive(PeerId(5), Delivery::Reliable, &bytes, 0);
    host
}

#[test]
fn a_host_asked_to_host_a_later_epoch_knows_it_was_succeeded() {
    let mut host = claimed_by_bob(1, Tick(40));
    assert!(host.session.superseded());
    let events: Vec<HostEvent> = host.session.drain_events().collect();
    assert!(events.contains(&HostEvent::Superseded { epoch: 0 }), "{events:?}");
    let told = host.session.drain_outgoing().any(|(_, _, b)| {
        let goodbye = Goodbye::Superseded { ours: 0, theirs: 1 };
        b == fixstep_runtime::net::wire::encode(
            &fixstep_runtime::net::ToPeer::<DriftCommand, ()>::Goodbye(goodbye),
        )
    });
    assert!(told, "the peer is told why");
}

/// A claim a host cannot serve is a hello like any other (the claimer is sent the match's
/// state), and the host says why: here no seat of that name waits.
#[test]
fn a_claim_that_cannot_be_served_says_why_and_gets_the_state() {
    let mut host = claimed_by_bob(0, Tick(0));
    let events: Vec<HostEvent> = host.session.drain_events().collect();
    let why = fixstep_runtime::net::UnservedClaim::NoSeatWaiting;
    let unserved = HostEvent::ClaimUnserved { peer: PeerId(5), name: "bob".into(), why };
    assert!(events.contains(&unserved), "{events:?}");
    assert!(events.contains(&HostEvent::StateWanted { peer: PeerId(5) }), "{events:?}");
    assert_eq!(why.to_string(), "no seat of that name waits for its player");
}
