//! The records after a replay's header and content: ticks, keyframes and roster changes.

use serde::{Deserialize, Serialize};

use crate::hash::HashRecord;
use crate::player::Player;
use crate::seats::SeatChanges;
use crate::tick::Tick;

/// The longest name a roster change keeps, bytes: a player's name on the screen is far
/// shorter, and a crafted replay cannot hand a list of replays a page of text.
pub const MAX_ROSTER_NAME_BYTES: usize = 64;

/// A record after the header and the content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Entry<C> {
    /// The next tick.
    Tick(TickEntry<C>),
    /// A state the match was in, to start from.
    Keyframe(Keyframe<C>),
    /// Someone came or went.
    Roster(RosterEvent),
}

/// A tick, with its commands as they changed since the tick before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TickEntry<C> {
    /// Seats freed and taken before the tick runs.
    pub(crate) seats: SeatChanges,
    /// The commands that differ from the same seat's in the tick before (a seat just taken
    /// compares with the default command), in seat order, each with the number of seats
    /// skipped since the last one listed: most ticks list few seats or none.
    pub(crate) changed: Vec<(u16, C)>,
    /// The total of the state's hash after the tick.
    pub(crate) hash: u64,
}

/// A state of the match, packed: where a reader may start instead of from the first tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Keyframe<C> {
    /// The state's next tick.
    pub(crate) tick: Tick,
    /// Whether the state replaced the one the ticks before led to (the host sent it, after a
    /// desync), rather than being the state they led to.
    pub(crate) replaced: bool,
    /// Every seat's command in the tick before: what the next tick's changes are against.
    pub(crate) commands: Vec<C>,
    /// The state's hash, with its partial hashes.
    pub(crate) hash: HashRecord,
    /// The state, as postcard, deflated.
    pub(crate) state: serde_bytes::ByteBuf,
}

/// Someone came or went in a network match: the seats change with the ticks; this says who.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterEvent {
    /// The first tick it is true for.
    pub tick: Tick,
    /// The seat.
    pub player: Player,
    /// What happened.
    pub change: RosterChange,
}

/// What happened to a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RosterChange {
    /// A player took the seat, under this name.
    Joined {
        /// The name it gave, at most [`MAX_ROSTER_NAME_BYTES`].
        name: String,
    },
    /// Its player went (a goodbye or silence); the seat is kept for a while.
    Left,
    /// Its player came back to it.
    Rejoined,
    /// The seat was freed: its character left the world.
    Freed,
    /// A spectator was sent the match's state after a desync.
    Resynced,
    /// The seat's player hosts the match from this tick on: its host went, and it took the
    /// match over, at this epoch (one more for each takeover).
    Hosts {
        /// The takeover's epoch.
        epoch: u32,
    },
}

impl<C: Clone + Default + PartialEq> TickEntry<C> {
    /// The entry of a tick whose commands are `commands`, after a tick whose were
    /// `previous`.
    pub(crate) fn between(previous: &[C], seats: SeatChanges, commands: &[C], hash: u64) -> Self {
        let default = C::default();
        let mut changed = Vec::new();
        let mut next_unlisted = 0_usize;
        for (seat, command) in commands.iter().enumerate() {
            if previous.get(seat).unwrap_or(&default) != command {
                // Seats are `u16`s: a replay holds at most 65,535.
                let skipped = u16::try_from(seat - next_unlisted).unwrap_or(u16::MAX);
                changed.push((skipped, command.clone()));
                next_unlisted = seat + 1;
            }
        }
        Self { seats, changed, hash }
    }

    /// The tick's commands, from the tick before's (`commands`, made the tick's in place) and
    /// its seats after the changes: `None` if a change names a seat past them.
    pub(crate) fn apply(&self, commands: &mut Vec<C>, seats: usize) -> Option<()> {
        commands.resize(seats, C::default());
        let mut seat = 0_usize;
        for (skipped, command) in &self.changed {
            seat += usize::from(*skipped);
            *commands.get_mut(seat)? = command.clone();
            seat += 1;
        }
        Some(())
    }
}
