//! Command scripts: players' commands written as text, for headless runs and tests.
//!
//! One command per line, `TICK PLAYER FORWARD STRAFE TURN [run] [interact]`, with `#` starting
//! a comment. A line sets that player's command from its tick on, until a later line changes
//! it, so a walk of a hundred ticks is one line; `interact` applies to its own tick only.
//!
//! ```text
//! # tick player forward strafe turn  flags
//! 0       0      100     0       0
//! 50      0      100     0       2048  run
//! 80      0      0       0       0     interact
//! ```

use std::collections::BTreeMap;

use fixstep_runtime::Tick;

use crate::command::PlayerCommand;

/// A problem with a script line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ScriptError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A parsed command script.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandScript {
    /// (tick, player) → the command set there.
    entries: BTreeMap<(u32, u16), PlayerCommand>,
    players: usize,
    /// Each player's first line, for messages about the player.
    first_lines: BTreeMap<u16, usize>,
}

impl CommandScript {
    /// Parses a script.
    ///
    /// # Errors
    ///
    /// The first malformed line: a missing or non-numeric field, an unknown flag, a value out of
    /// a command's range, two lines for one player and tick, or ticks of a player out of order.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        Self::parse_timed(text, "TICK", "tick")
    }

    /// Parses a script whose first field is a time called `time` (`name` in messages).
    fn parse_timed(text: &str, time: &str, name: &str) -> Result<Self, ScriptError> {
        let mut script = Self::default();
        let mut last_tick: BTreeMap<u16, u32> = BTreeMap::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let fail = |message: String| ScriptError { line, message };
            let fields: Vec<&str> = content.split_whitespace().collect();
            if fields.len() < 5 {
                return Err(fail(format!(
                    "expected {time} PLAYER FORWARD STRAFE TURN [run] [interact], found {} fields",
                    fields.len()
                )));
            }
            let tick: u32 = number(fields[0], name).map_err(fail)?;
            let player: u16 = number(fields[1], "player").map_err(fail)?;
            let mut command = PlayerCommand {
                forward: number(fields[2], "forward").map_err(fail)?,
                strafe: number(fields[3], "strafe").map_err(fail)?,
                turn: number(fields[4], "turn").map_err(fail)?,
                run: false,
                interact: false,
            };
            for flag in &fields[5..] {
                match *flag {
                    "run" => command.run = true,
                    "interact" => command.interact = true,
                    other => {
                        return Err(fail(format!(
                            "unknown flag `{other}` (expected run or interact)"
                        )));
                    }
                }
            }
            command.validate().map_err(|e| fail(e.to_string()))?;
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
            script.players = script.players.max(usize::from(player) + 1);
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
    pub fn drives(&self, player: usize) -> bool {
        self.entries.keys().any(|&(_, p)| usize::from(p) == player)
    }

    /// The command of `player` at `tick`: the latest line at or before it, with `interact` only
    /// on the line's own tick; no input before its first line.
    #[must_use]
    pub fn command(&self, player: usize, tick: Tick) -> PlayerCommand {
        let Ok(player) = u16::try_from(player) else { return PlayerCommand::default() };
        self.entries
            .range(..=(tick.0, u16::MAX))
            .rev()
            .find(|((_, p), _)| *p == player)
            .map(|(&(at, _), &command)| PlayerCommand {
                interact: command.interact && at == tick.0,
                ..command
            })
            .unwrap_or_default()
    }
}

fn number<T: core::str::FromStr>(field: &str, what: &str) -> Result<T, String> {
    field.parse().map_err(|_| format!("{what} `{field}` is not a number in range"))
}

/// A script of what the local player holds, for headless runs that play it as a window
/// would: one line per change, `MS PLAYER FORWARD STRAFE TURN [run] [interact]`, where `MS` is
/// the real time in milliseconds from the start, `PLAYER` is 0 (the local player), `TURN` is
/// the turn per tick while held (as Q and E hold it), and `interact` presses once at that time.
/// The input is held from its line on, until a later line changes it.
///
/// ```text
/// # ms   player forward strafe turn  flags
/// 0      0      0       0      0
/// 1050   0      100     0      0
/// 2230   0      100     0      2048  run
/// 2700   0      0       0      0     interact
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputScript {
    script: CommandScript,
}

impl InputScript {
    /// Parses a script.
    ///
    /// # Errors
    ///
    /// The first malformed line, as for a command script (with times for ticks), or a line
    /// for a player other than 0.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        let script = CommandScript::parse_timed(text, "MS", "time")?;
        if let Some((&player, &line)) = script.first_lines.iter().find(|&(&p, _)| p != 0) {
            return Err(ScriptError {
                line,
                message: format!(
                    "player {player}: an input script drives the local player, player 0"
                ),
            });
        }
        Ok(Self { script })
    }

    /// What is held at `ms`: the latest line at or before it, without its interact.
    #[must_use]
    pub fn held(&self, ms: u64) -> PlayerCommand {
        let at = Tick(u32::try_from(ms).unwrap_or(u32::MAX));
        PlayerCommand { interact: false, ..self.script.command(0, at) }
    }

    /// What a frame from `before_ms` to `now_ms` holds: the keys held at its end, and an
    /// interact if one was pressed during it.
    #[must_use]
    pub fn frame(&self, before_ms: u64, now_ms: u64) -> PlayerCommand {
        PlayerCommand { interact: self.pressed(before_ms, now_ms), ..self.held(now_ms) }
    }

    /// The time of the latest line at or before `ms` (the last change of the input).
    #[must_use]
    pub fn changed_at(&self, ms: u64) -> Option<u64> {
        let at = u32::try_from(ms).unwrap_or(u32::MAX);
        self.script.entries.range(..=(at, u16::MAX)).next_back().map(|(&(t, _), _)| u64::from(t))
    }

    /// Whether a line with `interact` lies after `after_ms` and at or before `until_ms`.
    #[must_use]
    pub fn pressed(&self, after_ms: u64, until_ms: u64) -> bool {
        let clamp = |ms: u64| u32::try_from(ms).unwrap_or(u32::MAX);
        let (after, until) = (clamp(after_ms), clamp(until_ms));
        after < until
            && self
                .script
                .entries
                .range((after + 1, 0)..=(until, u16::MAX))
                .any(|(_, command)| command.interact)
    }
}
