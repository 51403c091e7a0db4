//! What a player sends each tick.

use fixstep_runtime::Command;
use fixstep_runtime::math::Angle;
use fixstep_runtime::script::{TextCommand, number};
use serde::{Deserialize, Serialize};

use crate::tuning::{MAX_MOVE_PERCENT, MAX_TURN_PER_TICK};

/// One player's input for one tick. It never names a character: the rules apply it to the
/// sender's own character, so no command can move anyone else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerCommand {
    /// Forward (+) or back (-), percent of full speed: -100..=100.
    pub forward: i8,
    /// Right (+) or left (-), percent of full speed: -100..=100.
    pub strafe: i8,
    /// Turn this tick, in 2^-16 of a turn, counter-clockwise positive; at most a quarter turn.
    pub turn: i16,
    /// Run instead of walk.
    pub run: bool,
    /// Open or close a door, talk, or advance a dialogue line.
    pub interact: bool,
}

/// Why a command was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// `forward` or `strafe` beyond ±100.
    #[error("movement {0} is outside -100..=100")]
    MoveOutOfRange(i8),
    /// `turn` beyond a quarter turn.
    #[error("turn {0} is more than a quarter turn in one tick")]
    TurnOutOfRange(i16),
}

impl Command for PlayerCommand {
    /// Movement, running and turning are held (keys held down, a mouse drag going on); an
    /// interact is a press, done once: repeated, it would open a door and shut it again, or
    /// skip a line of dialogue.
    fn held(&self) -> Self {
        Self { interact: false, ..*self }
    }

    /// An interact pressed in `other` is pressed here too.
    fn merge_presses(&mut self, other: &Self) {
        self.interact |= other.interact;
    }
}

impl PlayerCommand {
    /// Checks the command's ranges.
    ///
    /// # Errors
    ///
    /// The first value out of range.
    pub fn validate(&self) -> Result<(), CommandError> {
        for value in [self.forward, self.strafe] {
            if !(-MAX_MOVE_PERCENT..=MAX_MOVE_PERCENT).contains(&value) {
                return Err(CommandError::MoveOutOfRange(value));
            }
        }
        if self.turn.unsigned_abs() > MAX_TURN_PER_TICK.unsigned_abs() {
            return Err(CommandError::TurnOutOfRange(self.turn));
        }
        Ok(())
    }

    /// The turn as a signed count of angle units.
    #[must_use]
    pub fn turn_units(&self) -> i32 {
        i32::from(self.turn) << 16
    }

    /// Whether it asks to move at all.
    #[must_use]
    pub fn moves(&self) -> bool {
        self.forward != 0 || self.strafe != 0
    }

    /// A turn of `angle` expressed in a command's units (rounded toward zero, clamped to the
    /// largest turn a command may carry).
    #[must_use]
    #[expect(clippy::cast_possible_truncation, reason = "clamped to ±MAX_TURN_PER_TICK, an i16")]
    pub fn turn_for(angle_delta: i32) -> i16 {
        let units = angle_delta >> 16;
        units.clamp(-i32::from(MAX_TURN_PER_TICK), i32::from(MAX_TURN_PER_TICK)) as i16
    }

    /// The facing after this command's turn.
    #[must_use]
    pub fn turned(&self, facing: Angle) -> Angle {
        facing.rotated(self.turn_units())
    }
}

/// A command in a script line: `FORWARD STRAFE TURN [run] [interact]`, forward and strafe in
/// percent of full speed, the turn in 2^-16 of a turn (per tick).
///
/// ```text
/// # tick player forward strafe turn  flags
/// 0       0      100     0       0
/// 50      0      100     0       2048  run
/// 80      0      0       0       0     interact
/// ```
impl TextCommand for PlayerCommand {
    const FIELDS: &'static str = "FORWARD STRAFE TURN [run] [interact]";
    const MIN_FIELDS: usize = 3;

    fn from_words(words: &[&str]) -> Result<Self, String> {
        let [forward, strafe, turn, flags @ ..] = words else {
            return Err(format!("expected {}", Self::FIELDS));
        };
        let mut command = Self {
            forward: number(forward, "forward")?,
            strafe: number(strafe, "strafe")?,
            turn: number(turn, "turn")?,
            run: false,
            interact: false,
        };
        for flag in flags {
            match *flag {
                "run" => command.run = true,
                "interact" => command.interact = true,
                other => return Err(format!("unknown flag `{other}` (expected run or interact)")),
            }
        }
        command.validate().map_err(|e| e.to_string())?;
        Ok(command)
    }
}
