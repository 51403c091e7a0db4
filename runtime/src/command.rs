//! Players' commands, and the input of a player whose command for a tick is missing.
//!
//! In a network game the host fixes every tick's commands on a schedule; a peer whose command
//! has not arrived in time does not stop the game. It is taken to keep holding what it held
//! (a direction, a key down), but not to repeat what it did once (a press): the held input of
//! its last command, [`Command::held`]. [`HeldInputs`] fills a tick's commands that way.

use serde::{Serialize, de::DeserializeOwned};

use crate::Player;
use crate::error::Error;

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

/// Each player's command for the next tick as they arrive, and every player's last command:
/// [`take`](Self::take) gives the next tick's commands, a missing one replaced by the held
/// input of that player's last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldInputs<C> {
    /// Each player's command for the tick before the next.
    last: Vec<C>,
    /// Each player's command for the next tick, if it arrived.
    next: Vec<Option<C>>,
}

impl<C: Command> HeldInputs<C> {
    /// Inputs for `players` players, none of whom has sent anything yet.
    #[must_use]
    pub fn new(players: usize) -> Self {
        Self { last: vec![C::default(); players], next: vec![None; players] }
    }

    /// The number of players.
    #[must_use]
    pub fn players(&self) -> usize {
        self.last.len()
    }

    /// Whether player `player`'s command for the next tick has arrived.
    #[must_use]
    pub fn arrived(&self, player: Player) -> bool {
        self.next.get(player.index()).is_some_and(Option::is_some)
    }

    /// Adds a player, who has sent nothing yet; returns its number.
    ///
    /// # Errors
    ///
    /// [`Error::PlayerLimit`] past the numbers a player can have.
    pub fn add_player(&mut self) -> Result<Player, Error> {
        let player = Player::from_index(self.last.len())
            .ok_or(Error::PlayerLimit { max: usize::from(u16::MAX) })?;
        self.last.push(C::default());
        self.next.push(None);
        Ok(player)
    }

    /// Player `player`'s command for the next tick; a second one for the same tick replaces
    /// the first.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchPlayer`] for a player that is not in the game.
    pub fn set(&mut self, player: Player, command: C) -> Result<(), Error> {
        let players = self.players();
        let slot =
            self.next.get_mut(player.index()).ok_or(Error::NoSuchPlayer { player, players })?;
        *slot = Some(command);
        Ok(())
    }

    /// The next tick's commands into `out`, one per player: the one that arrived, or the held
    /// input of the player's last command. Returns how many were missing; the next tick then
    /// starts with none arrived.
    pub fn take(&mut self, out: &mut Vec<C>) -> usize {
        out.clear();
        let mut missing = 0;
        for (last, next) in self.last.iter_mut().zip(&mut self.next) {
            let command = match next.take() {
                Some(command) => command,
                None => {
                    missing += 1;
                    last.held()
                }
            };
            out.push(command.clone());
            *last = command;
        }
        missing
    }
}
