//! What a host's operator is told as a game goes: who joined, watched, left or was refused,
//! which seats came free, desyncs and their reports. Each is a type a program can act on (a
//! fleet is told the players again only when the seats changed) and says itself in the
//! words a log line shows.

use std::fmt;
use std::path::PathBuf;

use fixstep_runtime::net::{Goodbye, Role};
use fixstep_runtime::{Player, Tick};

/// Who left a host's game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leaver {
    /// A player, in its seat.
    Player {
        /// Its name.
        name: String,
        /// Its seat.
        player: Player,
    },
    /// A spectator.
    Spectator {
        /// Its name.
        name: String,
    },
}

/// Something that happened in a host's game; see the documentation of its module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostNews {
    /// A player took a seat, or came back to its own.
    Joined {
        /// Its name.
        name: String,
        /// Its seat.
        player: Player,
        /// Whether it came back to a seat kept for it.
        rejoined: bool,
    },
    /// A spectator started watching.
    Watching {
        /// Its name.
        name: String,
    },
    /// A player or spectator left, saying why or timed out.
    Left {
        /// Who.
        who: Leaver,
        /// Why, if it said (or the host said).
        goodbye: Option<Goodbye>,
    },
    /// A departed player's grace ran out: its seat is free for a newcomer.
    SeatFree {
        /// The name that held it.
        name: String,
        /// The seat.
        player: Player,
    },
    /// A peer was refused before it played.
    Refused {
        /// What it asked to be.
        role: Role,
        /// The name it gave.
        name: String,
        /// Why.
        goodbye: Goodbye,
    },
    /// A peer's state differed from the host's after this tick.
    Desync {
        /// The tick.
        tick: Tick,
    },
    /// A desynced peer was sent the host's state to go on from, before this tick.
    Resynced {
        /// The tick it goes on from.
        tick: Tick,
    },
    /// A desync report was written.
    Report {
        /// Its folder.
        dir: PathBuf,
    },
}

impl HostNews {
    /// Whether the seats taken changed (a join, a departure, a seat freed): what a fleet's
    /// list of players follows.
    #[must_use]
    pub const fn seats_changed(&self) -> bool {
        matches!(self, Self::Joined { .. } | Self::Left { .. } | Self::SeatFree { .. })
    }
}

impl fmt::Display for Leaver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Player { name, player } => write!(f, "{name} (player {player})"),
            Self::Spectator { name } => write!(f, "{name} (spectator)"),
        }
    }
}

/// The words of a log line: `ada joined as player 1`, `bob (player 2) left: ...`.
impl fmt::Display for HostNews {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Joined { name, player, rejoined } => {
                let how = if *rejoined { "came back as" } else { "joined as" };
                write!(f, "{name} {how} player {player}")
            }
            Self::Watching { name } => write!(f, "{name} is watching"),
            Self::Left { who, goodbye: Some(goodbye) } => write!(f, "{who} left: {goodbye}"),
            Self::Left { who, goodbye: None } => write!(f, "{who} left"),
            Self::SeatFree { name, player } => write!(f, "{name}'s seat (player {player}) is free"),
            Self::Refused { role, name, goodbye } => {
                write!(f, "refused {role} {name:?}: {goodbye}")
            }
            Self::Desync { tick } => write!(f, "desync at tick {}", tick.0),
            Self::Resynced { tick } => write!(f, "resynced at tick {}", tick.0),
            Self::Report { dir } => write!(f, "desync report {}", dir.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_says_itself_as_the_log_always_did_and_knows_a_change_of_seats() {
        let left = HostNews::Left {
            who: Leaver::Player { name: "bob".into(), player: Player(2) },
            goodbye: Some(Goodbye::TimedOut),
        };
        assert_eq!(
            left.to_string(),
            "bob (player 2) left: the host heard nothing from this peer for too long (timed out)"
        );
        assert!(left.seats_changed());
        let joined = HostNews::Joined { name: "ada".into(), player: Player(1), rejoined: true };
        assert_eq!(joined.to_string(), "ada came back as player 1");
        let refused = HostNews::Refused {
            role: Role::Spectator,
            name: "eve".into(),
            goodbye: Goodbye::MatchEnded,
        };
        assert_eq!(refused.to_string(), "refused spectator \"eve\": the host ended the match");
        assert!(!HostNews::Desync { tick: Tick(7) }.seats_changed());
        assert!(!HostNews::Watching { name: "cy".into() }.seats_changed());
    }
}
