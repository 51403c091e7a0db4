//! The town's movement rule for its own character's prediction: the rules' half
//! (`fixstep_town::predict`) put to the presentation's [`OwnRules`].

use std::sync::Arc;

use fixstep_present::{OwnPose, OwnRules};
use fixstep_runtime::math::Fx;
use fixstep_town::level::Level;
use fixstep_town::predict::{self, OwnBody, PartialInput};
use fixstep_town::{AnimState, PlayerCommand};

/// A turn that differs from what the held turn rate explains by at most this is time passing,
/// not a new input, in angle units (2^32 a turn): the rounding of a command's turn unit (2^16
/// angle units) twice over.
const TURN_SLACK_UNITS: u32 = 1 << 17;

/// The town's own-character rules: the level's walls and the very functions the rules move
/// players with, and its clips.
#[derive(Clone, Debug)]
pub struct TownRules {
    rules: predict::OwnMovement,
    level: Arc<Level>,
}

impl TownRules {
    /// The rules of `level`.
    #[must_use]
    pub fn new(level: &Arc<Level>) -> Self {
        Self { rules: predict::OwnMovement::new(level), level: Arc::clone(level) }
    }
}

impl OwnRules for TownRules {
    type Command = PlayerCommand;
    type Body = OwnBody;
    type Partial = PartialInput;
    type Anim = AnimState;

    fn step(&self, body: &mut OwnBody, command: &PlayerCommand) {
        self.rules.step(body, command);
    }

    fn pose(&self, body: &OwnBody, partial: &PartialInput) -> OwnPose<AnimState> {
        let pose = self.rules.partial(body, partial);
        OwnPose {
            pos: pose.pos,
            facing: pose.facing,
            anim: pose.anim,
            enabled: pose.enabled,
            jumps: pose.jumps,
        }
    }

    /// A stagger that grew is a knock (a taxi): drawn at once.
    fn knocked(&self, before: &OwnBody, after: &OwnBody) -> bool {
        after.character.stagger > before.character.stagger
    }

    fn share(partial: &PartialInput) -> Fx {
        partial.share
    }

    fn fresh(partial: &PartialInput) -> PartialInput {
        PartialInput { held: partial.held, ..PartialInput::NONE }
    }

    /// The keys held turn the character at their rate as the tick goes on; anything else
    /// (another key, the mouse) is a change of input.
    fn continued(last: &PartialInput, now: &PartialInput) -> Option<PartialInput> {
        let elapsed = fixstep_present::convert::f64_of(now.share - last.share);
        let expected = last.turn + (f64::from(i32::from(last.held.turn) << 16) * elapsed) as i32;
        let turned_otherwise = (now.turn - expected).unsigned_abs() > TURN_SLACK_UNITS;
        (turned_otherwise || last.held.turn != now.held.turn).then_some(PartialInput {
            turn: expected,
            held: last.held,
            ..*now
        })
    }

    fn clip(&self, anim: AnimState) -> (u32, bool, Fx) {
        let clip = self.level.clips.clip(anim);
        (clip.frames, clip.looping, clip.frames_per_tick)
    }
}
