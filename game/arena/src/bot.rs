//! A scripted arena player: it skates behind the puck nearest to it, on the side away from the
//! goal it attacks, then drives through the puck at the goal, dashing when it is lined up.

use fixstep_runtime::math::{Fx, Vec2, fx, fx_ratio};
use fixstep_runtime::{Bot, Player};

use crate::layout::Layout;
use crate::rules::{ArenaCommand, ArenaSim, ArenaState, PUCK_RADIUS, PUSHER_RADIUS, team_of};

/// How close to its spot behind the puck a bot must be to drive at the goal, metres.
const LINED_UP_M: Fx = fx_ratio(3, 5);

/// How far behind the puck the bot takes its run, metres beyond touching it.
const RUN_UP_M: Fx = fx_ratio(3, 10);

/// How well lined up (the cosine between the bot-to-puck and puck-to-goal directions) a bot
/// must be to dash: within about 25°.
const DASH_ALIGNMENT: Fx = fx_ratio(9, 10);

/// A bot for one player.
#[derive(Clone, Debug)]
pub struct ArenaBot {
    player: Player,
    /// The centre of the goal it attacks.
    goal: Vec2,
}

impl ArenaBot {
    /// A bot for player `player` of `layout`.
    #[must_use]
    pub fn new(player: Player, layout: &Layout) -> Self {
        let east = if team_of(player) == 0 { layout.half_length } else { -layout.half_length };
        Self { player, goal: Vec2::new(east, Fx::ZERO) }
    }
}

/// Full stick towards `direction` (any length): a command's percents.
fn stick(direction: Vec2, dash: bool) -> ArenaCommand {
    let unit = direction.normalize_or_zero() * fx(100);
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a unit vector times 100: within ±100, an i8"
    )]
    ArenaCommand { x: unit.x.to_num::<i32>() as i8, y: unit.y.to_num::<i32>() as i8, dash }
}

impl Bot<ArenaSim> for ArenaBot {
    fn command(&mut self, state: &ArenaState) -> ArenaCommand {
        let Some(Some(me)) = state.pushers.get(self.player.index()) else {
            return ArenaCommand::default();
        };
        let nearest = state.pucks.iter().min_by_key(|p| (p.pos - me.pos).length_squared());
        let Some(puck) = nearest else { return ArenaCommand::default() };
        let to_goal = (self.goal - puck.pos).normalize_or_zero();
        let spot = puck.pos - to_goal * (PUSHER_RADIUS + PUCK_RADIUS + RUN_UP_M);
        if (spot - me.pos).length() > LINED_UP_M {
            return stick(spot - me.pos, false);
        }
        let at_puck = (puck.pos - me.pos).normalize_or_zero();
        stick(puck.pos - me.pos, at_puck.dot(to_goal) > DASH_ALIGNMENT)
    }
}
