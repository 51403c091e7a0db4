//! The number of a player's seat in a match.

use bytemuck::NoUninit;
use serde::{Deserialize, Serialize};

use crate::Canonical;

/// A player's number: the seat it holds in a match, from 0, in the order of the commands a
/// tick runs. A newcomer takes the lowest free seat, so numbers stay small; a game's players
/// number fewer than `u16::MAX`, two bytes on the wire, in a replay and in a state hash.
///
/// ```
/// use fixstep_runtime::Player;
///
/// let third = Player(2);
/// assert_eq!(third.index(), 2);
/// assert_eq!(Player::from_index(2), Some(third));
/// assert_eq!(Player::from_index(70_000), None);
/// assert_eq!(third.to_string(), "2");
/// ```
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Canonical,
    NoUninit,
)]
#[serde(transparent)]
#[canonical(pod)]
#[repr(transparent)]
pub struct Player(pub u16);

impl Player {
    /// The first seat: the player of a game alone.
    pub const FIRST: Self = Self(0);

    /// The player's place in a tick's commands and in any per-player list.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player at `index` in a tick's commands; `None` past the numbers a player can have.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Self> {
        u16::try_from(index).ok().map(Self)
    }

    /// Every player of a match of `players`, in seat order.
    pub fn all(players: usize) -> impl Iterator<Item = Self> {
        (0..players).map_while(Self::from_index)
    }
}

impl core::fmt::Display for Player {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}
