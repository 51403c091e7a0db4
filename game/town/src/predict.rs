//! The own character, ahead of the ticks: the rules' half of latency hiding.
//!
//! A player's command for a tick is what the player held **over that tick**, not at one
//! instant: [`InputAccumulator`] integrates the held keys over the tick's 100 ms (a key pressed
//! 70 ms in walks the last 30 %, a key released 40 ms in walked the first 40 %) and rounds the
//! sum to a [`PlayerCommand`] when the tick is due. So the authoritative motion of a tick is
//! the motion the player asked for during it, and a drawing that moves the character from the
//! moment of the key, by exactly what the key asks, agrees with the rules when the tick comes.
//!
//! [`OwnMovement`] runs the rules' movement on a **copy** of the own character, never on the
//! state: whole ticks of commands that the authoritative state has not executed yet
//! ([`OwnMovement::step`]), then the part of a tick held so far ([`OwnMovement::partial`]), walls
//! and buildings included. The presentation draws the result and blends away what the
//! authoritative ticks later say differently (another character in the way, a knockback).
//! Nothing here touches the simulation: the state, its commands and its hashes never see a
//! prediction.

use std::sync::Arc;

use fixstep_runtime::input::share_of_tick;
use fixstep_runtime::math::{Angle, Fx, Vec2, fx};
use fixstep_runtime::tick::TICK_MICROS;
use fixstep_runtime::{Command, EntityId, HeldInput, Player, Simulation};

use crate::characters::{apply_knockback, drive_player};
use crate::collision::{RectIndex, keep_out, level_solids, standing_area};
use crate::command::PlayerCommand;
use crate::geom::Rect;
use crate::level::Level;
use crate::state::{Character, MoveMode};
use crate::tuning::{GRID_CELL, MAX_MOVE_PERCENT, MAX_TURN_PER_TICK, RUN_SPEED, WALK_SPEED};
use crate::{AnimState, TownSim};

/// Full speed as a command carries it, percent.
const FULL_PERCENT: i64 = MAX_MOVE_PERCENT as i64;

/// What a player held over part of a tick, integrated: the input of a tick so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartialInput {
    /// The displacement asked for so far, metres, in the character's own frame: `x` forward,
    /// `y` to its right (the rules turn first, then move along the new facing).
    pub wish: Vec2,
    /// The turn asked for so far, angle units (2^32 a turn).
    pub turn: i32,
    /// The share of the tick held so far, 0 to 1.
    pub share: Fx,
    /// Whether any of it ran.
    pub ran: bool,
    /// What is held now: the keys, and the key turn per tick.
    pub held: PlayerCommand,
}

impl PartialInput {
    /// Nothing held yet.
    pub const NONE: Self = Self {
        wish: Vec2::ZERO,
        turn: 0,
        share: Fx::ZERO,
        ran: false,
        held: PlayerCommand { forward: 0, strafe: 0, turn: 0, run: false, interact: false },
    };
}

/// Integrates a player's held input over each tick into that tick's command; see the
/// [module documentation](self). All integer and fixed-point arithmetic on times the caller
/// passes in, so the same key timings give the same commands everywhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputAccumulator {
    /// Microseconds of the tick held so far, at most [`TICK_MICROS`].
    micros: u64,
    /// The displacement asked for so far, metres in the character's frame.
    wish: Vec2,
    /// The turn asked for so far times [`TICK_MICROS`] (key turning is a rate per tick), so
    /// that a sub-unit remainder carries to the next tick instead of being lost.
    turn_micros: i64,
    ran: bool,
    interact: bool,
    held: PlayerCommand,
}

impl InputAccumulator {
    /// Nothing held.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            micros: 0,
            wish: Vec2::ZERO,
            turn_micros: 0,
            ran: false,
            interact: false,
            held: PartialInput::NONE.held,
        }
    }
}

/// Integrates the held keys over each tick, as the [module documentation](self) says.
impl HeldInput for InputAccumulator {
    type Command = PlayerCommand;
    type Partial = PartialInput;

    fn micros(&self) -> u64 {
        self.micros
    }

    /// `held.forward` and `held.strafe` are the keys (percent of full speed), `held.turn` the
    /// key turn per tick, `held.run` the run key; `held.interact` is a press, counted once per
    /// tick.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "micros is at most a tick, 100,000 microseconds"
    )]
    fn hold(&mut self, held: &PlayerCommand, micros: u64) {
        let micros = micros.min(TICK_MICROS - self.micros);
        self.held = held.held();
        self.interact |= held.interact;
        if micros == 0 {
            return;
        }
        self.micros += micros;
        let share = share_of_tick(micros);
        let unit = (Vec2::new(Fx::from_num(held.forward), Fx::from_num(held.strafe))
            / fx(MAX_MOVE_PERCENT.into()))
        .clamp_length(Fx::ONE);
        if unit != Vec2::ZERO {
            let speed = if held.run { RUN_SPEED } else { WALK_SPEED };
            self.wish += unit * (speed * share);
            self.ran |= held.run;
        }
        // At most a quarter turn per tick times 10^5 microseconds: far inside an i64.
        self.turn_micros += i64::from(held.turn) * i64::from(micros as u32);
    }

    /// Turns by `units` of a command's turn (2^-16 of a turn) at once: a mouse movement.
    fn turn_by(&mut self, units: i32) {
        self.turn_micros += i64::from(units) * TICK_MICROS as i64;
    }

    fn partial(&self) -> PartialInput {
        PartialInput {
            wish: self.wish,
            turn: clamp_turn(self.turn_micros / TICK_MICROS as i64) << 16,
            share: share_of_tick(self.micros),
            ran: self.ran,
            held: self.held,
        }
    }

    /// What was held over the tick, rounded to a command's units (the rest of a turn beyond a
    /// command's limit, and a turn's fraction of a unit, carry to the next tick).
    fn take(&mut self) -> PlayerCommand {
        let speed = if self.ran { RUN_SPEED } else { WALK_SPEED };
        #[expect(
            clippy::cast_possible_truncation,
            reason = "FULL_PERCENT is 100, and the percent is clamped to ±FULL_PERCENT"
        )]
        let percent = |metres: Fx| -> i8 {
            let scaled = (metres * fx(FULL_PERCENT as i32) / speed).round().to_num::<i64>();
            scaled.clamp(-FULL_PERCENT, FULL_PERCENT) as i8
        };
        let turn = clamp_turn(self.turn_micros / TICK_MICROS as i64);
        self.turn_micros -= i64::from(turn) * TICK_MICROS as i64;
        #[expect(
            clippy::cast_possible_truncation,
            reason = "turn is clamped to ±MAX_TURN_PER_TICK, an i16"
        )]
        let command = PlayerCommand {
            forward: percent(self.wish.x),
            strafe: percent(self.wish.y),
            // Within ±MAX_TURN_PER_TICK, an i16.
            turn: turn as i16,
            run: self.ran,
            interact: self.interact,
        };
        *self = Self { turn_micros: self.turn_micros, held: self.held, ..Self::new() };
        command
    }
}

/// A turn in a command's units, within the largest a command may carry.
#[expect(
    clippy::cast_possible_truncation,
    reason = "clamped to ±MAX_TURN_PER_TICK (16,384), inside an i32"
)]
fn clamp_turn(units: i64) -> i32 {
    let limit = i64::from(MAX_TURN_PER_TICK);
    // Clamped to ±16,384: an i32.
    units.clamp(-limit, limit) as i32
}

/// A copy of a player's character, as the prediction moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnBody {
    /// The character, as the rules keep it.
    pub character: Character,
    /// Its id.
    pub id: EntityId,
    /// Whether it watches a cutscene (which ignores its input).
    pub frozen: bool,
    /// Whether it is talking (its clip is the talk clip).
    pub talking: bool,
}

/// Where the prediction puts the own character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnPose {
    /// Position on the ground, metres.
    pub pos: Vec2,
    /// Facing.
    pub facing: Angle,
    /// How it moves.
    pub mode: MoveMode,
    /// What its animation shows.
    pub anim: AnimState,
    /// Whether it is in the world.
    pub enabled: bool,
    /// Its jump counter.
    pub jumps: u32,
}

/// The rules' movement for the own character's prediction: the level's walls, and the very
/// functions the rules move players with.
#[derive(Clone, Debug)]
pub struct OwnMovement {
    solids: Vec<Rect>,
    inner: Rect,
    index: RectIndex,
}

impl OwnMovement {
    /// The movement rules of `level`.
    #[must_use]
    pub fn new(level: &Arc<Level>) -> Self {
        let solids = level_solids(level);
        let index = RectIndex::new(&solids, &level.ground, GRID_CELL);
        Self { solids, inner: standing_area(&level.ground), index }
    }

    /// A copy of player `player`'s character as `sim` has it now, if the player has one.
    #[must_use]
    pub fn body(sim: &TownSim, player: Player) -> Option<OwnBody> {
        let state = sim.state();
        let &id = state.players.get(player.index())?;
        let character = *state.characters.get(id)?;
        Some(OwnBody {
            character,
            id,
            frozen: state.cutscenes.iter().any(|c| c.player == player),
            talking: state.dialogues.iter().any(|d| d.player == player),
        })
    }

    /// One tick of `command` for the body, as the rules move a player (its own input, its
    /// knockback, the walls; not other characters, which it cannot know ahead).
    pub fn step(&self, body: &mut OwnBody, command: &PlayerCommand) {
        let command = if command.validate().is_ok() { *command } else { PlayerCommand::default() };
        let c = &mut body.character;
        let before = c.pos;
        drive_player(c, &command, body.frozen);
        apply_knockback(c);
        if c.enabled {
            c.pos = keep_out(c.pos, &self.solids, &self.inner, &self.index);
        }
        c.stagger = c.stagger.saturating_sub(1);
        c.velocity = c.pos - before;
    }

    /// Where `partial` of a tick takes the body: turned by what was turned so far, moved by
    /// what was asked so far along the facing the tick ends at if the turn held now goes on,
    /// carried by the share of its knockback, and kept out of the walls.
    #[must_use]
    pub fn partial(&self, body: &OwnBody, partial: &PartialInput) -> OwnPose {
        let c = &body.character;
        let free = !body.frozen && c.enabled && c.stagger == 0;
        let mut pos = c.pos;
        let mut facing = c.facing;
        let mut mode = MoveMode::Idle;
        if free {
            facing = facing.rotated(partial.turn);
            // The rules turn first and then step straight along the tick's final facing, so
            // the step so far goes that way: the facing the tick ends at if the turn held now
            // goes on to its end. Held steady, that is exactly the tick's chord.
            let rest = Fx::ONE - partial.share;
            let turn_rest =
                (Fx::from_num(i32::from(partial.held.turn) << 16) * rest).to_num::<i32>();
            let heading = facing.rotated(turn_rest);
            let forward = Vec2::from_angle(heading);
            let right = Vec2::from_angle(heading - Angle::QUARTER);
            pos += forward * partial.wish.x + right * partial.wish.y;
            if partial.held.moves() {
                mode = if partial.held.run { MoveMode::Run } else { MoveMode::Walk };
            }
        }
        if c.enabled {
            pos += c.knockback * partial.share;
            pos = keep_out(pos, &self.solids, &self.inner, &self.index);
        }
        let anim = if c.stagger > 0 {
            AnimState::Hit
        } else if body.talking {
            AnimState::Talk
        } else {
            match mode {
                MoveMode::Idle => AnimState::Idle,
                MoveMode::Walk => AnimState::Walk,
                MoveMode::Run => AnimState::Run,
            }
        };
        OwnPose { pos, facing, mode, anim, enabled: c.enabled, jumps: c.jumps }
    }
}
