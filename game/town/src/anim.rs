//! Animation states and the fractional frame the rules advance every tick.

use bytemuck::NoUninit;
use fixstep_runtime::Canonical;
use fixstep_runtime::math::{Fx, fx};
use serde::{Deserialize, Serialize};

use crate::level::{ClipDef, Clips};

/// What a character is doing, as far as its animation goes. Each state plays one clip
/// ([`Clips::by_state`]); a change of state restarts the clip at frame 0.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Canonical, NoUninit,
)]
#[canonical(pod)]
#[repr(u8)]
pub enum AnimState {
    /// Standing.
    #[default]
    Idle,
    /// Walking.
    Walk,
    /// Running.
    Run,
    /// Waving (pedestrians at their stops).
    Wave,
    /// Talking (in a dialogue).
    Talk,
    /// Struck by a taxi and staggering.
    Hit,
}

impl AnimState {
    /// Number of states: the length of [`Clips::by_state`].
    pub const COUNT: usize = 6;

    /// Every state, in index order.
    pub const ALL: [Self; Self::COUNT] =
        [Self::Idle, Self::Walk, Self::Run, Self::Wave, Self::Talk, Self::Hit];

    /// The clip name a clip file must provide for this state.
    #[must_use]
    pub const fn clip_name(self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Walk => "walk",
            Self::Run => "run",
            Self::Wave => "wave",
            Self::Talk => "talk",
            Self::Hit => "hit",
        }
    }

    /// This state's index into [`Clips::by_state`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Clips {
    /// The clip that `state` plays.
    #[must_use]
    pub fn clip(&self, state: AnimState) -> &ClipDef {
        &self.defs[usize::from(self.by_state[state.index()])]
    }
}

/// `frame` advanced by one tick of `clip`: a looping clip wraps from past its last frame
/// back into [0, frames), a one-shot clip holds at its last frame.
#[must_use]
pub fn advance_frame(clip: &ClipDef, frame: Fx) -> Fx {
    // Level validation keeps clips far below 2^31 frames: the conversion of a whole number,
    // without the general one's checks, every character every tick.
    let frames = fx(i32::try_from(clip.frames).unwrap_or(i32::MAX));
    let next = frame + clip.frames_per_tick;
    if clip.looping {
        if next >= frames { next - frames * (next / frames).int() } else { next }
    } else {
        next.min(frames - Fx::ONE)
    }
}
