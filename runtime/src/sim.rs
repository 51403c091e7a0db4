//! The contract between the runtime and the game's rules.

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Player;
use crate::command::Command;
use crate::error::{Error, StateError};
use crate::hash::{ContentDigest, StateHash, StateHasher};
use crate::tick::Tick;

/// A deterministic simulation: the game's rules, stepped one exact tick at a time.
///
/// Everything that changes as it runs is its [`State`](Self::State), which can be saved,
/// restored and serialized; what it was built from (a level) is not state and is not hashed.
/// After every tick it publishes a completed, immutable [`Snapshot`](Self::Snapshot) for the
/// presentation, which never reads the state itself.
///
/// Implementors write [`advance`](Self::advance) and the accessors; callers use
/// [`step`](Self::step), which checks the tick and the player count first.
pub trait Simulation {
    /// One player's input for one tick, in the game's own serde type; its
    /// [`held`](Command::held) input stands in for a missing one.
    type Command: Command;
    /// Everything that changes as the simulation runs, including the next tick number.
    type State: Clone + Serialize + DeserializeOwned;
    /// What the presentation needs to draw one completed tick.
    type Snapshot;

    /// The rules' name (`TownSim`), as replays and golden files record it: a file of one
    /// game's rules is refused by another's by name. Written out, not derived from the type's
    /// path, so that it stays the same across compilers and moves.
    const NAME: &'static str;

    /// Version of the rules. Anything that changes the result of a tick changes it, so a replay
    /// recorded under other rules is refused instead of failing its hashes.
    const VERSION: u32;

    /// The tick [`step`](Self::step) runs next.
    fn next_tick(&self) -> Tick;

    /// The number of seats, taken or free: the length of every tick's command slice.
    fn players(&self) -> usize;

    /// Seats a new player at `seat`: a free seat (one whose player left, see
    /// [`free_seat`](Self::free_seat)) or the next one after the last, which from the next tick
    /// on makes [`step`](Self::step) take one more command. The new player is part of the
    /// state, so a serialized state carries it and the hash covers it. A host sequences joins
    /// like commands, before a tick ([`SeatChanges`](crate::SeatChanges)), and every peer
    /// seats the player before stepping that tick; replays record them the same way.
    ///
    /// # Errors
    ///
    /// [`Error::SeatTaken`] for a seat that is neither free nor the next one, and
    /// [`Error::PlayerLimit`] when the simulation holds no more players. Nothing changes then.
    fn seat_player(&mut self, seat: Player) -> Result<(), Error>;

    /// Frees `seat`: its player leaves the game before the next tick (its character leaves the
    /// world, and whatever it took part in ends), and the seat stands free, its commands
    /// ignored, until [`seat_player`](Self::seat_player) gives it to a newcomer. The number of
    /// seats, and so of commands a tick takes, stays the same.
    ///
    /// # Errors
    ///
    /// [`Error::SeatFree`] for a seat no player holds (or past the last). Nothing changes then.
    fn free_seat(&mut self, seat: Player) -> Result<(), Error>;

    /// Seats a new player after the last seat and returns its number: a game that players
    /// only join.
    ///
    /// # Errors
    ///
    /// As [`seat_player`](Self::seat_player).
    fn add_player(&mut self) -> Result<Player, Error> {
        let seat = Player::from_index(self.players())
            .ok_or(Error::PlayerLimit { max: usize::from(u16::MAX) })?;
        self.seat_player(seat)?;
        Ok(seat)
    }

    /// The digest of what the simulation was built from (its level), over its canonical bytes:
    /// replays record it and refuse to run on a changed level, and peers compare it before
    /// they play together.
    fn content_digest(&self) -> ContentDigest;

    /// Runs one tick with one command per player, in player order. Called only by
    /// [`step`](Self::step), after its checks.
    fn advance(&mut self, commands: &[Self::Command]);

    /// The snapshot published by the latest completed tick.
    fn snapshot(&self) -> &Arc<Self::Snapshot>;

    /// The current state.
    fn state(&self) -> &Self::State;

    /// Checks that `state` fits these rules and this simulation's content before it is
    /// [`restore`](Self::restore)d: every index within what it indexes, every reference to
    /// something there, every list as long as what it runs beside, every value within what the
    /// ticks can reach. A state from outside (a replay's keyframe, a host's welcome or resync)
    /// decodes and may carry its own correct hash and still break them, and the ticks after it
    /// would then panic, loop or allocate without bound; every caller that restores a state it
    /// did not compute itself checks it first. A state this simulation computed always passes.
    ///
    /// Written by every game, with no default: a check that says yes to everything would let
    /// a hostile file through the only place that stops it.
    ///
    /// # Errors
    ///
    /// A [`StateError`] naming the first field found wrong, and what is wrong with it.
    fn check_state(&self, state: &Self::State) -> Result<(), StateError>;

    /// Replaces the whole state (and so the next tick) with `state`, and republishes the
    /// snapshot to match it. A state from outside is [`check_state`](Self::check_state)ed
    /// first: this trusts it.
    fn restore(&mut self, state: &Self::State);

    /// Hashes every subsystem of the current state into `hasher`, one
    /// [`part`](StateHasher::part) each, always in the same order.
    fn hash_state(&self, hasher: &mut StateHasher);

    /// Runs `tick` with `commands`, one per player in player order, and returns the snapshot
    /// it publishes.
    ///
    /// # Errors
    ///
    /// [`Error::TickOutOfOrder`] unless `tick` is [`next_tick`](Self::next_tick), and
    /// [`Error::PlayerCount`] unless there is one command per player. Nothing changes then.
    fn step(
        &mut self,
        tick: Tick,
        commands: &[Self::Command],
    ) -> Result<&Arc<Self::Snapshot>, Error> {
        let expected = self.next_tick();
        if tick != expected {
            return Err(Error::TickOutOfOrder { expected, got: tick });
        }
        if commands.len() != self.players() {
            return Err(Error::PlayerCount { tick, expected: self.players(), got: commands.len() });
        }
        self.advance(commands);
        Ok(self.snapshot())
    }

    /// The hash of the current state. Callers that hash every tick keep a [`StateHasher`] and
    /// call [`hash_state`](Self::hash_state) and [`StateHasher::finish_reuse`] instead, which
    /// reuses its buffer.
    fn state_hash(&self) -> StateHash {
        let mut hasher = StateHasher::new();
        self.hash_state(&mut hasher);
        hasher.finish()
    }
}
