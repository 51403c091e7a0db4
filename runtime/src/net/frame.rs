//! The steady traffic of a match, one frame per tick each way.
//!
//! A peer and the host exchange a frame a tick, sent without reliability. A frame repeats
//! whatever the other end has not acknowledged: the host's frame carries every fixed tick the
//! peer has not confirmed, the peer's frame every input and hash the host has not. A lost
//! frame costs nothing but the tick it was lost in: the next one carries the same and more.
//! This is the old lockstep way of surviving loss without resend timers, and it keeps the wire
//! at one small datagram a tick each way.
//!
//! Commands repeat far more than they change (a key is held for many ticks), so:
//! - a tick goes as the commands that differ from the tick before's ([`TickPiece::Delta`]);
//! - a peer's inputs go as runs of one command over consecutive ticks ([`InputRuns`]).

use serde::{Deserialize, Serialize};

use super::wire::{MAX_INPUTS_PER_MESSAGE, MAX_ROSTER, Refusal};
use crate::Player;
use crate::command::Command;
use crate::seats::SeatChanges;
use crate::tick::Tick;

/// The most hash checks one frame carries: the host remembers no more of its own
/// ([`super::HASH_MEMORY_TICKS`]), so older ones could not be compared anyway.
pub const MAX_HASHES_PER_FRAME: usize = 64;

/// The most ticks one host frame carries. A peer that lacks more than this catches up over
/// several frames, a tick apart each: the host keeps 64 ticks ([`super::TICK_MEMORY`]) and
/// sends at most a few frames a tick to one peer.
pub const MAX_TICKS_PER_FRAME: usize = 64;

/// One fixed tick in a host frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TickPiece<C> {
    /// The commands that differ from the tick before's, by player number in ascending order;
    /// players who join before the tick start from the default command.
    Delta {
        /// Seats freed and taken before the tick runs (`None`: no one joins or leaves, as on
        /// almost every tick, in one byte).
        seats: Option<SeatChanges>,
        /// The changed commands.
        changes: Vec<(Player, C)>,
    },
    /// The tick whole, for a peer that lacks the tick before (a late joiner's first): the
    /// commands that differ from the default, of `players` players.
    Whole {
        /// Seats freed and taken before the tick runs.
        seats: Option<SeatChanges>,
        /// Every seat the tick has, after the changes.
        players: u16,
        /// The commands that are not the default.
        changes: Vec<(Player, C)>,
    },
    /// Too large for a frame (hundreds of players all changing at once): the tick comes
    /// reliably, as a whole record.
    Reliable,
}

/// A run of fixed ticks from `first` on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickRun<C> {
    /// The first tick.
    pub first: Tick,
    /// Each tick, in order.
    pub pieces: Vec<TickPiece<C>>,
}

/// How the host found the peer's inputs when it fixed a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputStatus {
    /// The tick fixed.
    pub tick: Tick,
    /// The first tick whose input of the peer the host still lacks: every input before it has
    /// arrived (or its tick is fixed), so the peer need not send it again.
    pub missing: Tick,
    /// How many of its inputs, for ticks after `tick`, were waiting.
    pub queued: u32,
    /// How long before `tick` was fixed its input arrived, microseconds on the host's clock:
    /// the margin the peer's tick-rate nudge holds steady. `None`: the input was late, and its
    /// held input stood in.
    pub early_micros: Option<u32>,
}

/// What the host sends a player every tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostFrame<C> {
    /// The fixed ticks the peer has not confirmed (or the first of them, if they do not fit).
    pub ticks: Option<TickRun<C>>,
    /// How its inputs stood at the newest tick fixed.
    pub input: Option<InputStatus>,
    /// The first tick whose hash the host still awaits from the peer: it need not send the
    /// earlier ones again.
    pub hashes_from: Tick,
    /// The stamp of the latest frame the peer sent, and how long the host held it before this
    /// frame, milliseconds: the peer's round trip is the time since it stamped it, less that.
    pub echo: Option<(u16, u16)>,
}

/// A tick in a peer's frame, as its distance from the frame's `received` tick: a byte on the
/// wire, where the tick itself takes two or three (three after half an hour of play), and a
/// frame names two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Near(pub i32);

impl Near {
    /// `tick`, told from `received`.
    #[must_use]
    pub fn of(tick: Tick, received: Tick) -> Self {
        // Ticks of one match differ by far less than 2^31.
        #[expect(clippy::cast_possible_truncation, reason = "clamped to the range of an i32")]
        Self(tick.since(received).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
    }

    /// The tick it names, told from `received` (`None` past the ends of the tick numbers).
    #[must_use]
    pub fn tick(self, received: Tick) -> Option<Tick> {
        received.0.checked_add_signed(self.0).map(Tick)
    }
}

/// A peer's commands from `first` on, as runs of one command over consecutive ticks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputRuns<C> {
    /// The tick of the first command.
    pub first: Near,
    /// (ticks, command): the command for that many ticks in a row.
    pub runs: Vec<(u16, C)>,
}

/// What a peer reports of a tick's state hash: the low 32 bits of its total, as four bytes
/// (a varint of a hash would take five, or ten for all 64 bits). A desync lasts tick after
/// tick, so it shows at once; a difference that these bits miss is one in four billion a
/// tick, and the next tick's shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashCheck(pub [u8; 4]);

impl HashCheck {
    /// The check of a state hash total.
    #[must_use]
    pub const fn of(total: u64) -> Self {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the low 32 bits of the total, on purpose: the check is a shortened hash"
        )]
        Self((total as u32).to_le_bytes())
    }
}

/// A peer's hash checks of consecutive ticks from `first` on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashRun {
    /// The first tick.
    pub first: Near,
    /// Each tick's check.
    pub checks: Vec<HashCheck>,
}

/// What a peer sends the host: every tick, and whenever a new input should not wait.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerFrame<C, V> {
    /// Every fixed tick before this one has arrived: the host need not send them again.
    pub received: Tick,
    /// The inputs the host has not acknowledged.
    pub inputs: Option<InputRuns<C>>,
    /// The hash checks the host has not acknowledged.
    pub hashes: Option<HashRun>,
    /// The round trip to the host as the peer measures it, milliseconds, for the host's
    /// display (0: not known yet, or not said in this frame).
    pub round_trip_ms: u16,
    /// The peer's clock when it sent the frame, milliseconds (wrapping), which the host echoes.
    pub stamp: u16,
    /// What a spectator looks at (the game's spectator view).
    pub view: Option<V>,
}

/// The changes from `before` to `after`, `after` being at least as long: players past the
/// end of `before` are compared with the default command.
fn changes<C: Command>(before: &[C], after: &[C]) -> Vec<(Player, C)> {
    let default = C::default();
    // Players number fewer than MAX_ROSTER (1,024): every one has a number.
    Player::all(after.len())
        .zip(after)
        .filter(|&(p, c)| before.get(p.index()).unwrap_or(&default) != c)
        .map(|(p, c)| (p, c.clone()))
        .collect()
}

impl<C: Command> TickPiece<C> {
    /// The piece of a tick whose commands are `commands`, after the changes of `seats`, coded
    /// against `before` (the tick before's commands), or whole with `None`.
    #[must_use]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "players number fewer than MAX_ROSTER (1,024): a u16 holds them"
    )]
    pub fn of(before: Option<&[C]>, seats: &SeatChanges, commands: &[C]) -> Self {
        let seats = (!seats.is_empty()).then(|| seats.clone());
        match before {
            Some(before) => Self::Delta { seats, changes: changes(before, commands) },
            None => Self::Whole {
                seats,
                players: commands.len() as u16,
                changes: changes(&[], commands),
            },
        }
    }

    /// The tick's seat changes and commands, from the commands of the tick before (`None`: the
    /// peer has not got it). `Ok(None)` for a piece that needs what the peer lacks, or comes
    /// reliably.
    ///
    /// # Errors
    ///
    /// [`Refusal::Malformed`] for a piece no host sends: changes out of order or past the
    /// players, seats that cannot be freed or taken, more players than a roster holds.
    pub fn commands(&self, before: Option<&[C]>) -> Result<Option<(SeatChanges, Vec<C>)>, Refusal> {
        let (seats, mut commands, changes) = match (self, before) {
            (Self::Reliable, _) | (Self::Delta { .. }, None) => return Ok(None),
            (Self::Delta { seats, changes }, Some(before)) => {
                let seats = seats.clone().unwrap_or_default();
                let players =
                    seats.seats_after(before.len(), MAX_ROSTER).ok_or(Refusal::Malformed)?;
                let mut commands = before.to_vec();
                commands.resize(players, C::default());
                (seats, commands, changes)
            }
            (Self::Whole { seats, players, changes }, _) => {
                let seats = seats.clone().unwrap_or_default();
                let players = usize::from(*players);
                let fits = players <= MAX_ROSTER
                    && seats.joined.iter().chain(&seats.freed).all(|s| s.index() < players);
                if !fits {
                    return Err(Refusal::Malformed);
                }
                (seats, vec![C::default(); players], changes)
            }
        };
        let mut last = None;
        for (player, command) in changes {
            let ascending = last.is_none_or(|l| l < *player);
            let slot = commands.get_mut(player.index()).filter(|_| ascending);
            let Some(slot) = slot else { return Err(Refusal::Malformed) };
            slot.clone_from(command);
            last = Some(*player);
        }
        Ok(Some((seats, commands)))
    }
}

impl<C: Command> InputRuns<C> {
    /// `commands` from `first` on, as runs, in a frame that says `received`.
    #[must_use]
    pub fn of(received: Tick, first: Tick, commands: &[C]) -> Self {
        let first = Near::of(first, received);
        let mut runs: Vec<(u16, C)> = Vec::new();
        for command in commands {
            match runs.last_mut() {
                // At most MAX_INPUTS_PER_MESSAGE ticks in all.
                Some((ticks, c)) if c == command && *ticks < u16::MAX => *ticks += 1,
                _ => runs.push((1, command.clone())),
            }
        }
        Self { first, runs }
    }

    /// The commands, one a tick.
    ///
    /// # Errors
    ///
    /// [`Refusal::Malformed`] for an empty run, or more than [`MAX_INPUTS_PER_MESSAGE`]
    /// commands in all (checked before any is expanded).
    pub fn commands(&self) -> Result<Vec<C>, Refusal> {
        let total: usize = self.runs.iter().map(|(ticks, _)| usize::from(*ticks)).sum();
        if total > MAX_INPUTS_PER_MESSAGE || self.runs.iter().any(|(ticks, _)| *ticks == 0) {
            return Err(Refusal::Malformed);
        }
        let mut commands = Vec::with_capacity(total);
        for (ticks, command) in &self.runs {
            commands.extend(core::iter::repeat_n(command, usize::from(*ticks)).cloned());
        }
        Ok(commands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Key(u8);

    impl Command for Key {
        fn held(&self) -> Self {
            self.clone()
        }
    }

    fn keys(values: &[u8]) -> Vec<Key> {
        values.iter().copied().map(Key).collect()
    }

    #[test]
    fn a_delta_carries_only_what_changed_and_restores_the_tick() {
        let before = keys(&[1, 2, 3]);
        let after = keys(&[1, 5, 3, 0, 7]);
        let seats = SeatChanges::arrivals(3, 2);
        let piece = TickPiece::of(Some(&before), &seats, &after);
        let changes = vec![(Player(1), Key(5)), (Player(4), Key(7))];
        assert_eq!(piece, TickPiece::Delta { seats: Some(seats.clone()), changes });
        assert_eq!(piece.commands(Some(&before)), Ok(Some((seats.clone(), after.clone()))));
        let whole = TickPiece::of(None, &seats, &after);
        assert_eq!(whole.commands(None), Ok(Some((seats, after))));
        assert_eq!(piece.commands(None), Ok(None), "a delta needs the tick before");
    }

    #[test]
    fn a_seat_freed_and_taken_again_keeps_the_number_of_commands() {
        let before = keys(&[1, 2, 3]);
        let after = keys(&[1, 9, 3]);
        let seats = SeatChanges { freed: vec![Player(1)], joined: vec![Player(1)] };
        let piece = TickPiece::of(Some(&before), &seats, &after);
        assert_eq!(piece.commands(Some(&before)), Ok(Some((seats, after))));
        let quiet = TickPiece::of(Some(&before), &SeatChanges::NONE, &before);
        assert_eq!(quiet, TickPiece::Delta { seats: None, changes: vec![] });
    }

    #[test]
    fn changes_out_of_order_or_past_the_players_are_refused() {
        let before = keys(&[0, 0]);
        let twice = TickPiece::Delta {
            seats: None,
            changes: vec![(Player(1), Key(1)), (Player(1), Key(2))],
        };
        assert_eq!(twice.commands(Some(&before)), Err(Refusal::Malformed));
        let past = TickPiece::Delta { seats: None, changes: vec![(Player(2), Key(1))] };
        assert_eq!(past.commands(Some(&before)), Err(Refusal::Malformed));
        let huge = TickPiece::<Key>::Whole { seats: None, players: u16::MAX, changes: vec![] };
        assert_eq!(huge.commands(None), Err(Refusal::Malformed));
        let gap = SeatChanges { freed: vec![], joined: vec![Player(5)] };
        let skipped = TickPiece::<Key>::Delta { seats: Some(gap), changes: vec![] };
        assert_eq!(skipped.commands(Some(&before)), Err(Refusal::Malformed), "seats 2 to 4");
        let nobody = SeatChanges { freed: vec![Player(2)], joined: vec![] };
        let freed = TickPiece::<Key>::Delta { seats: Some(nobody), changes: vec![] };
        assert_eq!(freed.commands(Some(&before)), Err(Refusal::Malformed), "no seat 2");
    }

    #[test]
    fn held_inputs_go_as_one_run() {
        let commands = keys(&[4, 4, 4, 9, 9]);
        let runs = InputRuns::of(Tick(9), Tick(7), &commands);
        assert_eq!(runs.first.tick(Tick(9)), Some(Tick(7)));
        assert_eq!(runs.runs, vec![(3, Key(4)), (2, Key(9))]);
        assert_eq!(runs.commands(), Ok(commands));
        let long = InputRuns { first: Near(0), runs: vec![(u16::MAX, Key(1))] };
        assert_eq!(long.commands(), Err(Refusal::Malformed), "checked before it is expanded");
        let empty = InputRuns { first: Near(0), runs: vec![(0, Key(1))] };
        assert_eq!(empty.commands(), Err(Refusal::Malformed));
    }
}
