//! Players' commands, and the input of a player whose command for a tick is missing.
//!
//! In a network game the host fixes every tick's commands on a schedule; a peer whose command
//! has not arrived in time does not stop the game. It is taken to keep holding what it held
//! (a direction, a key down), but not to repeat what it did once (a press): the held input of
//! its last command, [`Command::held`]. The host's session fills a tick's commands that way
//! ([`crate::net::HostSession::fix_tick`]).

use serde::Serialize;
use serde::de::DeserializeOwned;

/// One player's input for one tick, in the game's own serde type. `Default` is the input of a
/// player who never sent anything.
pub trait Command:
    Clone + Default + core::fmt::Debug + PartialEq + Serialize + DeserializeOwned
{
    /// The input a player is taken to send for a tick whose input is missing, when `self` was
    /// its input for the tick before: what it holds (movement, a key held down), without the
    /// one-tick actions (a press such as interact), which a late packet must not repeat.
    /// `held` of a held input is that input again.
    #[must_use]
    fn held(&self) -> Self;

    /// Adds the one-tick actions of `other` (its presses) to this command: a key pressed and
    /// released between two looks at the keys, or a script line's press within a frame, is
    /// pressed once even though the command that goes on is the one held last. A command
    /// without presses does nothing here, as by default.
    fn merge_presses(&mut self, other: &Self) {
        let _ = other;
    }
}
