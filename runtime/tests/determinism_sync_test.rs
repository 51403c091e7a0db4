//! The determinism self-test, on a good simulation and on two broken ones.

mod common;

use std::sync::Arc;

use common::{Drift, DriftCommand, DriftSnapshot, DriftState, scripted_commands};
use fixstep_runtime::sync_test::{SyncTestConfig, sync_test};
use fixstep_runtime::{
    Error, Player, Simulation, StateError, StateHasher, SyncCheck, SyncTestError, Tick,
};

const CONFIG: SyncTestConfig = SyncTestConfig { ticks: 300, roundtrip_every: 25 };

#[test]
fn a_deterministic_simulation_passes_and_matches_a_plain_run() {
    let mut sim = Drift::new(5, 2);
    let report = sync_test(&mut sim, || Drift::new(5, 2), |t| scripted_commands(t, 2), CONFIG)
        .expect("deterministic");
    assert_eq!(report.hashes.len(), 300);
    let mut plain = Drift::new(5, 2);
    for (t, &hash) in report.hashes.iter().enumerate() {
        let tick = Tick(t as u32);
        plain.step(tick, &scripted_commands(tick, 2)).expect("in order");
        assert_eq!(plain.state_hash().total(), hash, "tick {t}");
    }
}

/// A simulation that keeps a counter outside its state: stepping a tick twice gives two
/// different results, which the rollback check must catch on the first tick.
struct HiddenCounter {
    inner: Drift,
    hidden: u32,
}

impl Simulation for HiddenCounter {
    const NAME: &'static str = "HiddenCounter";
    type Command = DriftCommand;
    type State = DriftState;
    type Snapshot = DriftSnapshot;
    const VERSION: u32 = 1;
    fn next_tick(&self) -> Tick {
        self.inner.next_tick()
    }
    fn players(&self) -> usize {
        self.inner.players()
    }
    fn seat_player(&mut self, seat: Player) -> Result<(), Error> {
        self.inner.seat_player(seat)
    }
    fn free_seat(&mut self, seat: Player) -> Result<(), Error> {
        self.inner.free_seat(seat)
    }
    fn content_digest(&self) -> fixstep_runtime::ContentDigest {
        self.inner.content_digest()
    }
    fn advance(&mut self, commands: &[DriftCommand]) {
        self.hidden += 1;
        self.inner.advance(commands);
        self.inner.state.rng = fixstep_runtime::rng::SimRng::new(u64::from(self.hidden), 0);
    }
    fn snapshot(&self) -> &Arc<DriftSnapshot> {
        self.inner.snapshot()
    }
    fn state(&self) -> &DriftState {
        self.inner.state()
    }
    fn check_state(&self, state: &DriftState) -> Result<(), StateError> {
        self.inner.check_state(state)
    }
    fn restore(&mut self, state: &DriftState) {
        self.inner.restore(state);
    }
    fn hash_state(&self, hasher: &mut StateHasher) {
        self.inner.hash_state(hasher);
    }
}

#[test]
fn state_outside_the_saved_state_is_a_rollback_desync_naming_the_subsystem() {
    let mut sim = HiddenCounter { inner: Drift::new(5, 2), hidden: 0 };
    let fresh = || HiddenCounter { inner: Drift::new(5, 2), hidden: 0 };
    let err = sync_test(&mut sim, fresh, |t| scripted_commands(t, 2), CONFIG).expect_err("caught");
    let SyncTestError::Desync(desync) = err else { panic!("not a desync: {err}") };
    assert_eq!(desync.tick, Tick(0));
    assert_eq!(desync.check, SyncCheck::Rollback);
    assert_eq!(desync.subsystems(), ["rng"]);
    assert!(desync.to_string().starts_with("desync at tick 0 (restoring the saved state"));
}

/// A simulation whose restore forgets the players' movers, as a state field marked
/// `#[serde(skip)]` would: fine when restoring a clone of the state, wrong after the wire.
struct LossyRestore(Drift);

impl Simulation for LossyRestore {
    const NAME: &'static str = "LossyRestore";
    type Command = DriftCommand;
    type State = DriftState;
    type Snapshot = DriftSnapshot;
    const VERSION: u32 = 1;
    fn next_tick(&self) -> Tick {
        self.0.next_tick()
    }
    fn players(&self) -> usize {
        self.0.players()
    }
    fn seat_player(&mut self, seat: Player) -> Result<(), Error> {
        self.0.seat_player(seat)
    }
    fn free_seat(&mut self, seat: Player) -> Result<(), Error> {
        self.0.free_seat(seat)
    }
    fn content_digest(&self) -> fixstep_runtime::ContentDigest {
        self.0.content_digest()
    }
    fn advance(&mut self, commands: &[DriftCommand]) {
        self.0.advance(commands);
    }
    fn snapshot(&self) -> &Arc<DriftSnapshot> {
        self.0.snapshot()
    }
    fn state(&self) -> &DriftState {
        self.0.state()
    }
    fn check_state(&self, state: &DriftState) -> Result<(), StateError> {
        self.0.check_state(state)
    }
    fn restore(&mut self, state: &DriftState) {
        // Keeps its own movers list when the restored one comes from a fresh build: the
        // fresh simulation's players have none, so their input goes nowhere.
        let keep = self.0.state.player_movers.clone();
        self.0.restore(state);
        if keep.iter().all(Option::is_none) {
            self.0.state.player_movers = keep;
        }
    }
    fn hash_state(&self, hasher: &mut StateHasher) {
        self.0.hash_state(hasher);
    }
}

#[test]
fn state_lost_on_the_way_through_serialization_is_a_roundtrip_desync() {
    let mut sim = LossyRestore(Drift::new(5, 2));
    let fresh = || LossyRestore(Drift::new(5, 2));
    let err = sync_test(&mut sim, fresh, |t| scripted_commands(t, 2), CONFIG).expect_err("caught");
    let SyncTestError::Desync(desync) = err else { panic!("not a desync: {err}") };
    assert_eq!(desync.check, SyncCheck::Roundtrip);
    assert!(desync.subsystems().contains(&"players"), "{desync}");
    // The players spawn on tick 0 and 1 of the script; the copy made at tick 25 has them.
    assert!(desync.tick.0 >= 25, "{desync}");
}

#[test]
fn stepping_out_of_order_or_with_missing_commands_changes_nothing() {
    let mut sim = Drift::new(5, 2);
    let before = sim.state_hash();
    let err = sim.step(Tick(1), &scripted_commands(Tick(1), 2)).expect_err("tick 0 comes first");
    assert_eq!(err.to_string(), "tick 1 is out of order: the simulation expects tick 0 next");
    let err = sim.step(Tick(0), &[DriftCommand::default()]).expect_err("two players");
    assert_eq!(err.to_string(), "tick 0 has commands for 1 players; the simulation has 2");
    assert_eq!(sim.state_hash(), before);
}
