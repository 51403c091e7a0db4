//! The arena's movement rule for its player's own pusher, predicted ahead of the ticks: the
//! rules' own [`drive`], put to the presentation's [`OwnRules`].
//!
//! An arena tick's command is the stick held when the tick is due ([`SampledInput`]), so the
//! tick under way goes where the stick held now takes it: the prediction draws that tick's
//! step `share` of the way along, and a key moves the pusher on the next frame. What the
//! pusher meets (another pusher, a puck) it cannot know ahead; the ticks say it, and the
//! difference eases out.
//!
//! [`SampledInput`]: fixstep_runtime::input::SampledInput

use std::sync::Arc;

use fixstep_arena::{ArenaCommand, Layout, Pusher, drive};
use fixstep_present::{OwnPose, OwnRules};
use fixstep_runtime::input::SampledPartial;
use fixstep_runtime::math::Fx;

/// What the arena's own-pusher prediction runs: the rink's walls and the rules' pusher
/// movement.
#[derive(Clone, Debug)]
pub struct PusherRules {
    layout: Arc<Layout>,
}

impl PusherRules {
    /// The pusher movement of `layout`.
    #[must_use]
    pub fn new(layout: &Arc<Layout>) -> Self {
        Self { layout: Arc::clone(layout) }
    }
}

impl OwnRules for PusherRules {
    type Command = ArenaCommand;
    type Body = Pusher;
    type Partial = SampledPartial<ArenaCommand>;
    /// A pusher is a disc with no animation.
    type Anim = ();

    /// A tick takes the stick held when it is due.
    const WHOLE_TICK_INPUT: bool = true;

    fn step(&self, body: &mut Pusher, command: &ArenaCommand) {
        drive(&self.layout, body, command);
    }

    /// The tick under way as the stick held now drives it, `share` of the way along; facing
    /// where that stick points, at once, as the rules turn it.
    fn pose(&self, body: &Pusher, partial: &Self::Partial) -> OwnPose<()> {
        let mut next = *body;
        drive(&self.layout, &mut next, &partial.held);
        OwnPose {
            pos: body.pos + (next.pos - body.pos) * partial.share,
            facing: next.facing,
            anim: (),
            enabled: true,
            jumps: body.seated_at.0,
        }
    }

    /// Nothing knocks a pusher that its own velocity does not carry: what it meets is eased
    /// out, and a newcomer in its seat (a new seating tick) is drawn afresh as a jump.
    fn knocked(&self, _before: &Pusher, _after: &Pusher) -> bool {
        false
    }

    fn share(partial: &Self::Partial) -> Fx {
        partial.share
    }

    /// The stick stays held; a dash was spent in the tick that took it.
    fn fresh(partial: &Self::Partial) -> Self::Partial {
        use fixstep_runtime::Command as _;
        SampledPartial { held: partial.held.held(), share: Fx::ZERO }
    }

    /// Any other stick or a dash is a new input; time passing changes nothing else.
    fn continued(last: &Self::Partial, now: &Self::Partial) -> Option<Self::Partial> {
        (last.held != now.held).then_some(SampledPartial { held: last.held, share: now.share })
    }

    /// One still frame.
    fn clip(&self, (): ()) -> (u32, bool, Fx) {
        (1, true, Fx::ZERO)
    }
}
