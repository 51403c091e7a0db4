//! Scripts of players' commands written as text, for headless runs, bots and tests.
//!
//! A **command script** has one line per change of a player's command, `TICK PLAYER FIELDS`,
//! where the fields are the game's own ([`TextCommand`]) and `#` starts a comment. A line sets
//! that player's command from its tick on, until a later line changes it, so a walk of a
//! hundred ticks is one line; what the command does once (a press) applies to the line's own
//! tick only (the held input, [`Command::held`], is repeated after it).
//!
//! An **input script** ([`InputScript`]) is what the local player holds at real times, for a
//! headless run that plays it as a window would: `MS 0 FIELDS`, held from its line on.
//!
//! ```
//! use fixstep_runtime::script::{CommandScript, TextCommand};
//! use fixstep_runtime::{Command, Player, Tick};
//! use serde::{Deserialize, Serialize};
//!
//! /// A push of some strength, and a jump pressed once.
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
//! struct Push { strength: i8, jump: bool }
//!
//! impl Command for Push {
//!     fn held(&self) -> Self { Self { jump: false, ..*self } }
//!     fn merge_presses(&mut self, other: &Self) { self.jump |= other.jump; }
//! }
//!
//! impl TextCommand for Push {
//!     const FIELDS: &'static str = "STRENGTH [jump]";
//!     const MIN_FIELDS: usize = 1;
//!     fn from_words(words: &[&str]) -> Result<Self, String> {
//!         let (first, flags) = words.split_first().ok_or("no strength")?;
//!         let strength = first.parse().map_err(|_| format!("strength `{first}` is not a number"))?;
//!         Ok(Self { strength, jump: flags == ["jump"] })
//!     }
//! }
//!
//! let script = CommandScript::<Push>::parse("0 0 5\n10 0 7 jump\n").expect("two good lines");
//! assert_eq!(script.command(Player(0), Tick(3)), Push { strength: 5, jump: false });
//! assert_eq!(script.command(Player(0), Tick(10)), Push { strength: 7, jump: true });
//! assert_eq!(script.command(Player(0), Tick(11)), Push { strength: 7, jump: false }, "pressed once");
//! ```

use std::collections::BTreeMap;

use crate::Player;
use crate::command::Command;
use crate::file::FileKind;
use crate::tick::Tick;

/// A command script: a line is about 15 bytes and sets one player's command from a tick on,
/// so this is a quarter of a million changes, more than anyone writes by hand or a test
/// generates; parsed, each line takes a few times its bytes.
pub const COMMAND_SCRIPT_FILE: FileKind = FileKind::new("command script", 4_000_000);

/// An input script: as a command script, a line a change of what is held.
pub const INPUT_SCRIPT_FILE: FileKind = FileKind::new("input script", 4_000_000);

/// A command that a script line can write: the fields after the line's time and player.
pub trait TextCommand: Command {
    /// The fields, named as a message about a bad line names them (`FORWARD STRAFE TURN
    /// [run] [interact]`).
    const FIELDS: &'static str;

    /// The fewest fields a command is written with: a line with fewer is refused, naming
    /// [`FIELDS`](Self::FIELDS).
    const MIN_FIELDS: usize;

    /// The command these words (a line's fields after its time and player) write.
    ///
    /// # Errors
    ///
    /// What is wrong with them, in words: a missing or extra field, a number out of range.
    fn from_words(words: &[&str]) -> Result<Self, String>;
}

/// A problem with a script line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ScriptError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A parsed command script; see the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandScript<C> {
    /// (tick, player) → the command set there.
    entries: BTreeMap<(u32, Player), C>,
    players: usize,
    /// Each player's first line, for messages about the player.
    first_lines: BTreeMap<Player, usize>,
}

impl<C> Default for CommandScript<C> {
    fn default() -> Self {
        Self { entries: BTreeMap::new(), players: 0, first_lines: BTreeMap::new() }
    }
}

impl<C: TextCommand> CommandScript<C> {
    /// Parses a script.
    ///
    /// # Errors
    ///
    /// The first malformed line: a missing or non-numeric time or player, fields the command
    /// refuses, two lines for one player and tick, or ticks of a player out of order.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        Self::parse_timed(text, "TICK", "tick")
    }

    /// Parses a script whose first field is a time called `time` (`name` in messages).
    fn parse_timed(text: &str, time: &str, name: &str) -> Result<Self, ScriptError> {
        let mut script = Self::default();
        let mut last_tick: BTreeMap<Player, u32> = BTreeMap::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let fail = |message: String| ScriptError { line, message };
            let fields: Vec<&str> = content.split_whitespace().collect();
            let (at, player, words) = match fields.as_slice() {
                [at, player, words @ ..] if words.len() >= C::MIN_FIELDS => (at, player, words),
                _ => {
                    return Err(fail(format!(
                        "expected {time} PLAYER {}, found {} fields",
                        C::FIELDS,
                        fields.len()
                    )));
                }
            };
            let tick: u32 = number(at, name).map_err(fail)?;
            let player = Player(number(player, "player").map_err(fail)?);
            let command = C::from_words(words).map_err(fail)?;
            if let Some(&previous) = last_tick.get(&player)
                && tick <= previous
            {
                return Err(fail(format!(
                    "{name} {tick} for player {player} does not come after its {name} {previous}"
                )));
            }
            last_tick.insert(player, tick);
            script.first_lines.entry(player).or_insert(line);
            script.entries.insert((tick, player), command);
            script.players = script.players.max(player.index() + 1);
        }
        Ok(script)
    }

    /// Number of players the script drives (one more than the highest player number).
    #[must_use]
    pub const fn players(&self) -> usize {
        self.players
    }

    /// Whether the script has any line for `player`.
    #[must_use]
    pub fn drives(&self, player: Player) -> bool {
        self.entries.keys().any(|&(_, p)| p == player)
    }

    /// The command of `player` at `tick`: the latest line at or before it, its presses only
    /// on the line's own tick (its held input after); no input before its first line.
    #[must_use]
    pub fn command(&self, player: Player, tick: Tick) -> C {
        self.entries
            .range(..=(tick.0, Player(u16::MAX)))
            .rev()
            .find(|((_, p), _)| *p == player)
            .map(|(&(at, _), command)| if at == tick.0 { command.clone() } else { command.held() })
            .unwrap_or_default()
    }
}

/// The number `field` of a command's words, `what` naming it in the error (a game's
/// [`TextCommand::from_words`] reads its numbers with this, so every game says it alike).
///
/// # Errors
///
/// A field that is not a number of type `T`.
pub fn number<T: core::str::FromStr>(field: &str, what: &str) -> Result<T, String> {
    field.parse().map_err(|_| format!("{what} `{field}` is not a number in range"))
}

/// A script of what the local player holds, for headless runs that play it as a window
/// would: one line per change, `MS PLAYER FIELDS`, where `MS` is the real time in
/// milliseconds from the start and `PLAYER` is 0 (the local player). The input is held from
/// its line on, until a later line changes it; a press is pressed once, at its line's time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputScript<C> {
    script: CommandScript<C>,
}

impl<C> Default for InputScript<C> {
    fn default() -> Self {
        Self { script: CommandScript::default() }
    }
}

impl<C: TextCommand> InputScript<C> {
    /// Parses a script.
    ///
    /// # Errors
    ///
    /// The first malformed line, as for a command script (with times for ticks), or a line
    /// for a player other than 0.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        let script = CommandScript::parse_timed(text, "MS", "time")?;
        if let Some((&player, &line)) =
            script.first_lines.iter().find(|&(&p, _)| p != Player::FIRST)
        {
            return Err(ScriptError {
                line,
                message: format!(
                    "player {player}: an input script drives the local player, player 0"
                ),
            });
        }
        Ok(Self { script })
    }

    /// What is held at `ms`: the latest line at or before it, without its presses.
    #[must_use]
    pub fn held(&self, ms: u64) -> C {
        let at = Tick(u32::try_from(ms).unwrap_or(u32::MAX));
        self.script.command(Player::FIRST, at).held()
    }

    /// What a frame from `before_ms` to `now_ms` holds: what is held at its end, with the
    /// presses of the lines during it.
    #[must_use]
    pub fn frame(&self, before_ms: u64, now_ms: u64) -> C {
        let mut held = self.held(now_ms);
        let clamp = |ms: u64| u32::try_from(ms).unwrap_or(u32::MAX);
        let (after, until) = (clamp(before_ms), clamp(now_ms));
        if after < until {
            for (_, pressed) in
                self.script.entries.range((after + 1, Player::FIRST)..=(until, Player(u16::MAX)))
            {
                held.merge_presses(pressed);
            }
        }
        held
    }

    /// The time of the latest line at or before `ms` (the last change of the input).
    #[must_use]
    pub fn changed_at(&self, ms: u64) -> Option<u64> {
        let at = u32::try_from(ms).unwrap_or(u32::MAX);
        self.script
            .entries
            .range(..=(at, Player(u16::MAX)))
            .next_back()
            .map(|(&(t, _), _)| u64::from(t))
    }
}
