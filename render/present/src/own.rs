//! The player's own character, drawn from a visual-only prediction so a key shows on the
//! next frame (latency hiding).
//!
//! Everything else is drawn between two ticks the simulation completed. The own character
//! cannot wait for them: a key pressed now reaches the rules at the next tick (in network
//! play, after the round trip to the host as well), and drawing it only then would show the
//! press 100 ms or more late. So the own character is drawn where the rules **will** put it:
//! the latest authoritative copy of it, moved by the own commands the authoritative state has
//! not executed yet (the next tick has not come, or the host has not confirmed them), and by
//! what has been held of the tick under way, with the game's own movement rule ([`OwnRules`]).
//! The tick it is drawn at is that predicted time, ahead of the interpolated world.
//!
//! When a tick completes, or a command is fixed, the prediction is made again from the new
//! basis, and compared with the old one at the same instant. A difference no bigger than
//! [`PREDICT_SNAP_M`] (the rounding of a command, another character the prediction could not
//! know in the way) becomes an offset that eases out with a half-life of
//! [`PREDICT_HALFLIFE_MS`]; a bigger one, any jump (teleport, respawn), a knockback and a
//! switch on or off are drawn at once. The authoritative state never sees any of it.
//!
//! A change of what is held within a tick is drawn as the game's command takes it. Where a
//! tick's command integrates what was held over it (the town), only where the tick's step is
//! heading changes, and that difference eases out like any other. Where a tick's command is
//! what is held when it is due ([`OwnRules::WHOLE_TICK_INPUT`], the arena), the whole tick
//! under way is re-aimed at once: the drawing heads from where it is to where the new input
//! ends the tick, arriving as the tick does, so the key shows as a change of pace on the next
//! frame and nothing hops.

use std::collections::VecDeque;

use fixstep_runtime::math::{Angle, Fx, Vec2};
use fixstep_runtime::{Command, Tick};
use glam::Vec3;

use crate::convert::{TICK_SECONDS_F32, f, ground, radians};
use crate::interp::{angle_delta, wrap_angle};

/// The largest difference between two predictions that is eased out rather than drawn at
/// once, metres: one metre. A command's rounding is millimetres and another character in the
/// way pushes a step (0.14 m walking, 0.4 m running) at most; a teleport (tens of metres) or a
/// respawn is far beyond, and one metre leaves a margin on both sides.
pub const PREDICT_SNAP_M: f32 = 1.0;

/// The half-life of an eased difference, milliseconds: 50. Half of a step-sized correction is
/// gone in three frames at 60 Hz, so a push by another character reads as a bump, not a slide;
/// and the rounding of a command (a few millimetres) is gone within a frame or two.
pub const PREDICT_HALFLIFE_MS: f32 = 50.0;

/// A heading difference eased out rather than taken at once, radians: a quarter turn. A
/// command turns a quarter turn at most, so no rounding or push turns the prediction further.
pub const PREDICT_SNAP_RAD: f32 = std::f32::consts::FRAC_PI_2;

/// Milliseconds in a second.
const MS_PER_SECOND: f32 = 1000.0;

/// A game's movement rule for its players' own characters, which the prediction runs ahead of
/// the ticks on a copy of the character ([`OwnRules::Body`]), never on the state. It must be
/// the very rule the simulation moves a player by, so that what is drawn ahead agrees with
/// what the ticks later say.
pub trait OwnRules {
    /// A player's command.
    type Command: Command;
    /// A copy of the own character, as the simulation keeps it.
    type Body: Copy + core::fmt::Debug;
    /// What has been held of the tick under way.
    type Partial: Copy + PartialEq + core::fmt::Debug;
    /// The game's animation states.
    type Anim: Copy + PartialEq + Default + core::fmt::Debug;

    /// One tick of `command` for the body, as the simulation moves a player.
    fn step(&self, body: &mut Self::Body, command: &Self::Command);

    /// Where `partial` of a tick takes the body.
    fn pose(&self, body: &Self::Body, partial: &Self::Partial) -> OwnPose<Self::Anim>;

    /// Whether the body was knocked between `before` and `after` (by something the prediction
    /// could not know, such as a collision): drawn at once, never eased.
    fn knocked(&self, before: &Self::Body, after: &Self::Body) -> bool;

    /// The share of the tick under way that `partial` has held, 0 to 1.
    fn share(partial: &Self::Partial) -> Fx;

    /// What is held as `partial` says, with nothing of the tick under way held yet: what the
    /// prediction starts from once a command has taken that tick.
    fn fresh(partial: &Self::Partial) -> Self::Partial;

    /// If `now` differs from `last` (an earlier partial input of the same tick) by more than
    /// the time passing between them (a key pressed, the mouse moved), what `last` would have
    /// become by `now`'s time had nothing changed; `None` if nothing changed. A game whose
    /// input re-aims the whole tick ([`WHOLE_TICK_INPUT`](Self::WHOLE_TICK_INPUT)) is also
    /// asked the other way round, through [`carried_back`](Self::carried_back).
    fn continued(last: &Self::Partial, now: &Self::Partial) -> Option<Self::Partial>;

    /// What `now`'s input would have been at `last`'s time (`last` an earlier partial input of
    /// the same tick), if `now` differs from `last` by more than the time passing between them;
    /// `None` if nothing changed. A game whose input re-aims the whole tick
    /// ([`WHOLE_TICK_INPUT`](Self::WHOLE_TICK_INPUT)) is asked it when the input changes: the
    /// prediction carries the new input back to the last frame's time and re-aims the tick
    /// from there, so the frame that saw the key already moves as the key asks. It is
    /// [`continued`](Self::continued) asked the other way round.
    fn carried_back(now: &Self::Partial, last: &Self::Partial) -> Option<Self::Partial> {
        Self::continued(now, last)
    }

    /// The clip of animation state `anim`: its frames, whether it loops, and the frames it
    /// advances per tick.
    fn clip(&self, anim: Self::Anim) -> (u32, bool, Fx);

    /// Whether a tick's command is what is held when it is due, so that a change of input
    /// re-aims the whole tick under way (see the [module documentation](self)); `false` for a
    /// command that integrates what was held over the tick.
    const WHOLE_TICK_INPUT: bool = false;
}

/// Where the prediction puts the own character, in the simulation's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnPose<A> {
    /// Position on the ground, metres (x east, y north).
    pub pos: Vec2,
    /// Facing.
    pub facing: Angle,
    /// What its animation shows.
    pub anim: A,
    /// Whether it is in the world.
    pub enabled: bool,
    /// Its jump counter.
    pub jumps: u32,
}

/// The own character as a frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OwnDraw<A> {
    /// The predicted tick it is drawn at (fractional).
    pub tick: f64,
    /// Feet, world metres.
    pub pos: Vec3,
    /// Facing, radians.
    pub facing: f32,
    /// Animation state.
    pub anim: A,
    /// Fractional frame in that state's clip.
    pub frame: f32,
    /// The speed it is drawn moving at, metres per second.
    pub speed: f32,
    /// Whether it is in the world.
    pub enabled: bool,
    /// Jump counter.
    pub jumps: u32,
}

/// What the prediction starts from: the authoritative copy of the own character at a tick,
/// and the own commands for that tick on that the authoritative state has not executed.
#[derive(Clone, Debug)]
struct Basis<B, C> {
    /// The tick the authoritative copy is at: the next tick the rules run.
    tick: Tick,
    body: B,
    /// Own commands for ticks from `tick` on, in tick order (a network peer's first ones start
    /// a round trip ahead of the basis; the host holds the input of the ticks between).
    pending: VecDeque<(Tick, C)>,
}

/// A predicted pose at an instant.
#[derive(Clone, Copy, Debug)]
struct Predicted<A> {
    pose: OwnPose<A>,
    tick: f64,
}

/// The own character's prediction, by the game's rules `R`; see the
/// [module documentation](self).
#[derive(Debug)]
pub struct OwnPrediction<R: OwnRules> {
    rules: R,
    basis: Option<Basis<R::Body, R::Command>>,
    /// Drawn minus predicted position, easing out.
    offset: Vec3,
    /// Drawn minus predicted facing, radians, easing out.
    offset_yaw: f32,
    /// Drawn minus predicted position after a change of input that re-aimed the tick under
    /// way ([`OwnRules::WHOLE_TICK_INPUT`]), as it was at share `aim_share` of the tick: it
    /// shrinks in step with what is left of the tick, to nothing at its end.
    aim: Vec3,
    aim_share: f32,
    /// The animation drawn and its frame, run on real time.
    anim: R::Anim,
    frame: f32,
    /// Where the last frame drew it, for its speed; `None` after a cut.
    last_pos: Option<Vec3>,
    /// What the last frame held of its tick, to tell a change of input (a key, the mouse)
    /// from time passing; `None` once the tick it belonged to is over.
    last_partial: Option<R::Partial>,
}

impl<R: OwnRules> OwnPrediction<R> {
    /// A prediction by `rules`, with nothing observed yet.
    #[must_use]
    pub fn new(rules: R) -> Self {
        Self {
            rules,
            basis: None,
            offset: Vec3::ZERO,
            offset_yaw: 0.0,
            aim: Vec3::ZERO,
            aim_share: 0.0,
            anim: R::Anim::default(),
            frame: 0.0,
            last_pos: None,
            last_partial: None,
        }
    }

    /// The rules it predicts by.
    #[must_use]
    pub const fn rules(&self) -> &R {
        &self.rules
    }

    /// Whether it has anything to draw.
    #[must_use]
    pub const fn is_ready(&self) -> bool {
        self.basis.is_some()
    }

    /// The own commands the authoritative state has not executed yet.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.basis.as_ref().map_or(0, |b| b.pending.len())
    }

    fn predict(
        &self,
        basis: &Basis<R::Body, R::Command>,
        partial: &R::Partial,
    ) -> Predicted<R::Anim> {
        let mut body = basis.body;
        let mut tick = basis.tick;
        // The ticks without an own command run on the held input, as the host runs them.
        let mut held = R::Command::default();
        for (at, command) in &basis.pending {
            while tick < *at {
                self.rules.step(&mut body, &held);
                tick = tick.next();
            }
            self.rules.step(&mut body, command);
            held = command.held();
            tick = tick.next();
        }
        let pose = self.rules.pose(&body, partial);
        Predicted { pose, tick: f64::from(tick.0) + f64::from(f(R::share(partial))) }
    }

    /// The authoritative copy of the own character at `tick` (the next tick the rules run),
    /// with `partial` held of the tick under way. Commands for ticks before `tick` have been
    /// executed and are forgotten. A tick at or before the basis's (a restored state, a seek)
    /// starts the prediction afresh, drawn at once.
    pub fn observe(&mut self, tick: Tick, body: R::Body, partial: &R::Partial) {
        let Some(mut basis) = self.basis.take() else {
            self.restart(tick, body);
            return;
        };
        if tick <= basis.tick {
            self.restart(tick, body);
            return;
        }
        self.settle_aim(partial);
        let before = self.predict(&basis, partial);
        basis.pending.retain(|&(at, _)| at >= tick);
        let knocked = self.rules.knocked(&basis.body, &body);
        basis.tick = tick;
        basis.body = body;
        let after = self.predict(&basis, partial);
        self.basis = Some(basis);
        self.rebase(&before, &after, knocked);
        self.last_partial = None;
    }

    /// The own command for `tick` is fixed (the tick is about to run, or the command was sent
    /// to the host); `partial` is what was held of it, which the command now stands for.
    /// Ticks come in order; one at or before a pending one starts the pending afresh.
    pub fn command(&mut self, tick: Tick, command: R::Command, partial: &R::Partial) {
        let Some(mut basis) = self.basis.take() else { return };
        self.settle_aim(partial);
        let before = self.predict(&basis, partial);
        if basis.pending.back().is_some_and(|&(at, _)| at >= tick) {
            basis.pending.clear();
        }
        if tick >= basis.tick {
            basis.pending.push_back((tick, command));
        }
        let after = self.predict(&basis, &R::fresh(partial));
        self.basis = Some(basis);
        self.rebase(&before, &after, false);
        self.last_partial = None;
    }

    fn restart(&mut self, tick: Tick, body: R::Body) {
        self.basis = Some(Basis { tick, body, pending: VecDeque::new() });
        self.offset = Vec3::ZERO;
        self.offset_yaw = 0.0;
        self.aim = Vec3::ZERO;
        self.last_pos = None;
    }

    /// What is left of a re-aimed tick's offset at share `share` of it.
    fn aim_left(&self, share: f32) -> Vec3 {
        if self.aim_share >= 1.0 {
            return Vec3::ZERO;
        }
        self.aim * ((1.0 - share) / (1.0 - self.aim_share)).clamp(0.0, 1.0)
    }

    /// The tick under way is over as far as a re-aim goes (its command is fixed, or a new
    /// basis came): what is left of it eases out like any other difference.
    fn settle_aim(&mut self, partial: &R::Partial) {
        self.offset += self.aim_left(f(R::share(partial)));
        self.aim = Vec3::ZERO;
    }

    /// A change of input re-aimed the tick under way: at share `share` (the last frame's),
    /// the old input had the drawing at `before` and the new one at `after`; from there the
    /// drawing heads to where the new input ends the tick.
    fn reaim(&mut self, before: &Predicted<R::Anim>, after: &Predicted<R::Anim>, share: f32) {
        let moved = ground(before.pose.pos, 0.0) - ground(after.pose.pos, 0.0);
        let aim = self.aim_left(share) + moved;
        if (self.offset + aim).length() > PREDICT_SNAP_M {
            self.offset = Vec3::ZERO;
            self.offset_yaw = 0.0;
            self.aim = Vec3::ZERO;
            self.last_pos = None;
        } else {
            self.aim = aim;
            self.aim_share = share;
        }
    }

    /// The drawing moved from `before` to `after` with no motion of its own: ease the
    /// difference out, or take it at once.
    fn rebase(&mut self, before: &Predicted<R::Anim>, after: &Predicted<R::Anim>, knocked: bool) {
        let (b, a) = (&before.pose, &after.pose);
        let moved = ground(b.pos, 0.0) - ground(a.pos, 0.0);
        let turned = angle_delta(radians(a.facing), radians(b.facing));
        let cut = knocked
            || b.jumps != a.jumps
            || b.enabled != a.enabled
            || (self.offset + moved).length() > PREDICT_SNAP_M
            || (self.offset_yaw + turned).abs() > PREDICT_SNAP_RAD;
        if cut {
            self.offset = Vec3::ZERO;
            self.offset_yaw = 0.0;
            self.last_pos = None;
        } else {
            self.offset += moved;
            self.offset_yaw += turned;
        }
    }

    /// Draws the own character `dt` seconds after the last frame, with `partial` held of the
    /// tick under way. `None` before anything was observed.
    pub fn draw(&mut self, partial: &R::Partial, dt: f32) -> Option<OwnDraw<R::Anim>> {
        let basis = self.basis.as_ref()?;
        // A change of what is held (or a mouse turn) changes where the tick's step is heading
        // at once: drawn as it happened, that would be a hop sideways. It is eased out like any
        // other difference between two predictions; or, where the change re-aims the whole
        // tick, the drawing heads from where the last frame drew it to where the tick now ends.
        if let Some(last) = self.last_partial
            && R::share(partial) >= R::share(&last)
            && let Some(continued) = R::continued(&last, partial)
        {
            if R::WHOLE_TICK_INPUT {
                // The new input carried back to the last frame's time: from there on, the
                // frame that saw the key already moves as it asks.
                let back = R::carried_back(partial, &last).unwrap_or(continued);
                let before = self.predict(basis, &last);
                let after = self.predict(basis, &back);
                self.reaim(&before, &after, f(R::share(&last)));
            } else {
                let before = self.predict(basis, &continued);
                let after = self.predict(basis, partial);
                // Only where the step is heading: the new facing shows at once, as a key or
                // the mouse asks.
                let before = Predicted {
                    pose: OwnPose { facing: after.pose.facing, ..before.pose },
                    ..before
                };
                self.rebase(&before, &after, false);
            }
        }
        self.last_partial = Some(*partial);
        let basis = self.basis.as_ref()?;
        let predicted = self.predict(basis, partial);
        let keep = 0.5_f32.powf(dt.max(0.0) * MS_PER_SECOND / PREDICT_HALFLIFE_MS);
        self.offset *= keep;
        self.offset_yaw *= keep;
        let pose = predicted.pose;
        let pos = ground(pose.pos, 0.0) + self.offset + self.aim_left(f(R::share(partial)));
        let facing = wrap_angle(radians(pose.facing) + self.offset_yaw);
        let (frames, looping, frames_per_tick) = self.rules.clip(pose.anim);
        let frames = frames as f32;
        if pose.anim == self.anim {
            // Frames per tick, over a tick's seconds, times the frame's seconds.
            let advanced = self.frame + f(frames_per_tick) * dt.max(0.0) / TICK_SECONDS_F32;
            self.frame =
                if looping { advanced.rem_euclid(frames) } else { advanced.min(frames - 1.0) };
        } else {
            self.anim = pose.anim;
            self.frame = 0.0;
        }
        let speed = match self.last_pos {
            Some(last) if dt > 0.0 => (pos - last).length() / dt,
            _ => 0.0,
        };
        self.last_pos = Some(pos);
        Some(OwnDraw {
            tick: predicted.tick,
            pos,
            facing,
            anim: self.anim,
            frame: self.frame,
            speed,
            enabled: pose.enabled,
            jumps: pose.jumps,
        })
    }
}

#[cfg(test)]
mod tests {
    use fixstep_runtime::math::Angle;
    use serde::{Deserialize, Serialize};

    use super::*;

    /// A command of metres east a tick, what is held when the tick is due.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Pace(i32);

    impl Command for Pace {
        fn held(&self) -> Self {
            *self
        }
    }

    /// What is held of the tick under way: the pace, and the share of the tick gone.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Held {
        pace: Pace,
        share: Fx,
    }

    /// A body that slides east at the pace held, re-aimed whole by a change of it (as the
    /// arena's pusher is).
    struct Sliding;

    impl OwnRules for Sliding {
        type Command = Pace;
        type Body = Vec2;
        type Partial = Held;
        type Anim = ();

        fn step(&self, body: &mut Vec2, command: &Pace) {
            body.x += Fx::from_num(command.0);
        }

        fn pose(&self, body: &Vec2, partial: &Held) -> OwnPose<()> {
            let east = body.x + Fx::from_num(partial.pace.0) * partial.share;
            let pos = Vec2::new(east, body.y);
            OwnPose { pos, facing: Angle::ZERO, anim: (), enabled: true, jumps: 0 }
        }

        fn knocked(&self, _before: &Vec2, _after: &Vec2) -> bool {
            false
        }

        fn share(partial: &Held) -> Fx {
            partial.share
        }

        fn fresh(partial: &Held) -> Held {
            Held { pace: partial.pace, share: Fx::ZERO }
        }

        fn continued(last: &Held, now: &Held) -> Option<Held> {
            (last.pace != now.pace).then_some(Held { pace: last.pace, share: now.share })
        }

        fn clip(&self, (): ()) -> (u32, bool, Fx) {
            (1, true, Fx::ZERO)
        }

        const WHOLE_TICK_INPUT: bool = true;
    }

    /// `pace` held, `quarters` quarters of the tick gone.
    fn held(pace: i32, quarters: i64) -> Held {
        Held { pace: Pace(pace), share: Fx::ONE * quarters / 4 }
    }

    /// A key pressed half way through a tick shows on the frame that sees it as a change of
    /// pace: the drawing heads from where the last frame drew it, a quarter into the tick, to
    /// where the new pace ends the tick (a metre east), arriving as the tick does; never a hop
    /// to where the new pace would have been had it been held from the tick's start.
    #[test]
    fn a_new_input_re_aims_the_tick_from_where_the_last_frame_drew_it() {
        assert_eq!(Sliding::carried_back(&held(1, 2), &held(0, 1)), Some(held(1, 1)));
        assert_eq!(Sliding::carried_back(&held(1, 2), &held(1, 1)), None, "nothing changed");
        let mut own = OwnPrediction::new(Sliding);
        own.observe(Tick(0), Vec2::ZERO, &held(0, 0));
        let frame = 1.0 / 60.0;
        let mut east = |partial| own.draw(&partial, frame).expect("observed").pos.x;
        assert!(east(held(0, 1)).abs() < 1e-4, "still");
        for (quarters, expected) in [(2, 1.0 / 3.0), (3, 2.0 / 3.0), (4, 1.0)] {
            let drawn = east(held(1, quarters));
            assert!(
                (drawn - expected).abs() < 1e-4,
                "{quarters} quarters into the tick the body is drawn {drawn} m east, not \
                 {expected} m"
            );
        }
    }
}
