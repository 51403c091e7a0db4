//! The arena's rules: players steer pushers round a walled rink and knock pucks into the
//! other team's goal. Everything is fixed point; a tick is: pushers steer and dash, everything
//! moves and slows, pushers and pucks bounce off each other and the walls, and a puck in a
//! goal scores and comes back to its spot.

use std::sync::Arc;

use fixstep_runtime::math::{Angle, Fx, Vec2, fx, fx_ratio};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::script::TextCommand;
use fixstep_runtime::{
    Canonical, Command, ContentDigest, Error, Player, Simulation, StateError, StateHasher, Tick,
};
use serde::{Deserialize, Serialize};

use crate::layout::Layout;

/// Millimetres in a metre: the arena's sizes are written in millimetres.
pub const MM_PER_M: i32 = 1_000;

/// A pusher's radius, millimetres: a player's disc, big enough to steer a puck with.
pub const PUSHER_RADIUS_MM: i32 = 500;

/// A puck's radius, millimetres: a little smaller than a pusher, so a pusher can get behind
/// it.
pub const PUCK_RADIUS_MM: i32 = 350;

/// A pusher's radius, metres.
pub const PUSHER_RADIUS: Fx = fx_ratio(PUSHER_RADIUS_MM, MM_PER_M);

/// A puck's radius, metres.
pub const PUCK_RADIUS: Fx = fx_ratio(PUCK_RADIUS_MM, MM_PER_M);

/// What a pusher's velocity keeps of itself each tick: ice, not mud (a pusher let go coasts
/// to a stop in about a second).
const PUSHER_DRAG: Fx = fx_ratio(3, 4);

/// What a puck's velocity keeps each tick: it slides far, but not for ever.
const PUCK_DRAG: Fx = fx_ratio(49, 50);

/// A pusher's push per tick at full stick, metres per tick per tick: with the drag, a top
/// speed of about 6 m/s.
const PUSHER_ACCEL: Fx = fx_ratio(3, 20);

/// The fastest a pusher goes, metres per tick (9 m/s): a dash's top.
const PUSHER_MAX_SPEED: Fx = fx_ratio(9, 10);

/// A dash's burst, metres per tick, in the held direction.
const DASH_SPEED: Fx = fx_ratio(1, 2);

/// Ticks between two dashes: one and a half seconds.
const DASH_COOLDOWN_TICKS: u16 = 15;

/// The fastest a puck goes, metres per tick (7 m/s): with a pusher's top speed the two close
/// by at most 1.6 m in a tick, under twice their reach (1.7 m), so no puck passes through a
/// pusher between two ticks.
pub const PUCK_MAX_SPEED: Fx = fx_ratio(7, 10);

/// The share of a pusher-puck collision's push the pusher takes: a puck is light, and a
/// pusher drives through it barely slowed.
const PUSHER_PUCK_SHARE: Fx = fx_ratio(1, 10);

/// What a bounce keeps of the speed along its normal: lively boards.
const RESTITUTION: Fx = fx_ratio(4, 5);

/// The most players an arena holds: two teams of eight.
pub const MAX_PLAYERS: usize = 16;

/// How far past the rink's walls a disc's centre may be in a state, metres: more than a puck
/// put back on its spot is moved off it (a quarter of a metre), so that no state the rules
/// computed is refused, where a disc far outside would never come back.
const STATE_WALL_MARGIN: Fx = Fx::ONE;

/// The fastest anything may move in a state, metres per tick (1 km a tick): far beyond what
/// the caps and bounces give (a few metres a tick), and small enough that the ticks' sums and
/// products of velocities stay far inside the 2^31 a fixed-point number holds.
const MAX_STATE_SPEED: Fx = fx(1_000);

/// The latest tick a state may be at: half the ticks a tick number counts (6.8 years of play),
/// far from the overflow of the tick after it.
const MAX_STATE_TICK: u32 = u32::MAX / 2;

/// The stream of the arena's random numbers.
const RNG_STREAM: u64 = 0x61_72_65_6e_61;

/// Full stick, percent, as a command carries it.
const FULL_PERCENT: i32 = 100;

/// One player's input for a tick: where the stick points on the ground (east and north, in
/// percent of full), and a dash pressed once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaCommand {
    /// East (+) or west (-), percent: -100..=100.
    pub x: i8,
    /// North (+) or south (-), percent: -100..=100.
    pub y: i8,
    /// A burst of speed where the stick points, once.
    pub dash: bool,
}

impl Command for ArenaCommand {
    /// The stick is held; a dash is a press.
    fn held(&self) -> Self {
        Self { dash: false, ..*self }
    }

    fn merge_presses(&mut self, other: &Self) {
        self.dash |= other.dash;
    }
}

/// `X Y [dash]`, percent east and north.
impl TextCommand for ArenaCommand {
    const FIELDS: &'static str = "X Y [dash]";
    const MIN_FIELDS: usize = 2;

    fn from_words(words: &[&str]) -> Result<Self, String> {
        let percent = |word: &str, what: &str| -> Result<i8, String> {
            word.parse::<i8>()
                .ok()
                .filter(|v| i32::from(*v).abs() <= FULL_PERCENT)
                .ok_or_else(|| format!("{what} `{word}` is not a percent from -100 to 100"))
        };
        match words {
            [x, y] => Ok(Self { x: percent(x, "x")?, y: percent(y, "y")?, dash: false }),
            [x, y, "dash"] => Ok(Self { x: percent(x, "x")?, y: percent(y, "y")?, dash: true }),
            [_, _, flag] => Err(format!("unknown flag `{flag}` (expected dash)")),
            _ => Err(format!("expected {}", Self::FIELDS)),
        }
    }
}

/// A player's disc.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Pusher {
    /// Centre, metres.
    pub pos: Vec2,
    /// Metres per tick.
    pub vel: Vec2,
    /// Where it faces: where its stick last pointed.
    pub facing: Angle,
    /// Ticks until it may dash again.
    pub dash_cooldown: u16,
    /// The tick before which its player took the seat: a newcomer in a seat just freed is a
    /// new pusher, drawn afresh rather than blended from the one who left.
    pub seated_at: Tick,
}

/// A puck.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct Puck {
    /// Centre, metres.
    pub pos: Vec2,
    /// Metres per tick.
    pub vel: Vec2,
    /// Counts the times it came back to its spot after a goal.
    pub jumps: u32,
}

/// Everything that changes in a game of the arena.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct ArenaState {
    /// The next tick to run (ticks run so far).
    pub next: Tick,
    /// Each seat's pusher, by player number (`None`: its player left, and the seat is free);
    /// even players are team 0 (blue), odd team 1.
    pub pushers: Vec<Option<Pusher>>,
    /// The pucks, by the layout's spots.
    pub pucks: Vec<Puck>,
    /// Goals scored by team 0 and team 1.
    pub score: [u32; 2],
    /// Where a puck lands back after a goal, a little off its spot.
    pub rng: SimRng,
}

impl Clone for ArenaState {
    fn clone(&self) -> Self {
        let Self { next, pushers, pucks, score, rng } = self;
        Self {
            next: *next,
            pushers: pushers.clone(),
            pucks: pucks.clone(),
            score: *score,
            rng: rng.clone(),
        }
    }

    /// Field by field into the lists' own room: a published snapshot is refilled, never
    /// reallocated.
    fn clone_from(&mut self, source: &Self) {
        let Self { next, pushers, pucks, score, rng } = source;
        self.next = *next;
        self.pushers.clone_from(pushers);
        self.pucks.clone_from(pucks);
        self.score = *score;
        self.rng.clone_from(rng);
    }
}

/// The team of player `player`.
#[must_use]
pub const fn team_of(player: Player) -> usize {
    player.index() % 2
}

/// The arena's simulation.
#[derive(Debug)]
pub struct ArenaSim {
    layout: Arc<Layout>,
    state: ArenaState,
    snapshot: Arc<ArenaState>,
}

impl ArenaSim {
    /// A game of `layout` with `players` players, seeded by `seed`.
    #[must_use]
    pub fn new(layout: Arc<Layout>, seed: u64, players: usize) -> Self {
        let pucks = layout.pucks.iter().map(|&pos| Puck { pos, ..Puck::default() }).collect();
        let mut state = ArenaState {
            next: Tick::ZERO,
            pushers: Vec::new(),
            pucks,
            score: [0; 2],
            rng: SimRng::new(seed, RNG_STREAM),
        };
        for player in Player::all(players.min(MAX_PLAYERS)) {
            state.pushers.push(Some(spawn(&layout, player, Tick::ZERO)));
        }
        let snapshot = Arc::new(state.clone());
        Self { layout, state, snapshot }
    }

    /// The arena played.
    #[must_use]
    pub const fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }
}

/// Player `player`'s pusher at its start, seated before tick `seated_at`.
fn spawn(layout: &Layout, player: Player, seated_at: Tick) -> Pusher {
    let spawns = &layout.spawns[team_of(player)];
    let pos = spawns[(player.index() / 2) % spawns.len()];
    let facing = if team_of(player) == 0 { Angle::ZERO } else { Angle::HALF };
    Pusher { pos, facing, seated_at, ..Pusher::default() }
}

/// Keeps a disc of `radius` at `pos` inside the walls, bouncing its velocity off them; a puck
/// (`goal` set) may pass the short walls through the goal mouths. Returns the team that
/// scored, if the disc went into a goal.
fn walls(layout: &Layout, pos: &mut Vec2, vel: &mut Vec2, radius: Fx, goal: bool) -> Option<usize> {
    let (hx, hy) = (layout.half_length - radius, layout.half_width - radius);
    if goal && pos.y.abs() < layout.goal_half_width && pos.x.abs() > layout.half_length {
        // Past the goal line: team 0 attacks the east goal, team 1 the west.
        return Some(usize::from(pos.x < Fx::ZERO));
    }
    let in_mouth = goal && pos.y.abs() + radius < layout.goal_half_width;
    if pos.x.abs() > hx && !in_mouth {
        pos.x = pos.x.clamp(-hx, hx);
        vel.x = -vel.x * RESTITUTION;
    }
    if pos.y.abs() > hy {
        pos.y = pos.y.clamp(-hy, hy);
        vel.y = -vel.y * RESTITUTION;
    }
    None
}

/// Something round that moves: a pusher or a puck.
trait Disc {
    /// Its centre and its velocity, to move both.
    fn motion(&mut self) -> (&mut Vec2, &mut Vec2);
}

impl Disc for Pusher {
    fn motion(&mut self) -> (&mut Vec2, &mut Vec2) {
        (&mut self.pos, &mut self.vel)
    }
}

impl Disc for Puck {
    fn motion(&mut self) -> (&mut Vec2, &mut Vec2) {
        (&mut self.pos, &mut self.vel)
    }
}

/// Separates two overlapping discs and bounces their velocities along the line between them:
/// `share_a` of the push goes to `a` (a heavier disc takes less), the rest to `b`.
fn collide(a: &mut impl Disc, b: &mut impl Disc, reach: Fx, share_a: Fx) {
    let ((a_pos, a_vel), (b_pos, b_vel)) = (a.motion(), b.motion());
    let between = *b_pos - *a_pos;
    let distance = between.length();
    if distance >= reach {
        return;
    }
    // Discs on the very same spot part east-west, the same way on every machine.
    let normal =
        if distance == Fx::ZERO { Vec2::new(Fx::ONE, Fx::ZERO) } else { between / distance };
    let overlap = reach - distance;
    *a_pos -= normal * (overlap * share_a);
    *b_pos += normal * (overlap * (Fx::ONE - share_a));
    let closing = (*a_vel - *b_vel).dot(normal);
    if closing > Fx::ZERO {
        let impulse = closing * (Fx::ONE + RESTITUTION);
        *a_vel -= normal * (impulse * share_a);
        *b_vel += normal * (impulse * (Fx::ONE - share_a));
    }
}

/// Runs `each` on every unordered pair of `items` once, in index order. Every pair: the lists
/// it is given are short by rule (the pushers at most [`MAX_PLAYERS`], the pucks at most
/// [`MAX_PUCKS`](crate::layout::MAX_PUCKS) a rink), so that is at most a few hundred pairs a
/// tick.
fn each_pair<T>(items: &mut [T], mut each: impl FnMut(&mut T, &mut T)) {
    for j in 1..items.len() {
        let (left, right) = items.split_at_mut(j);
        for a in left {
            each(a, &mut right[0]);
        }
    }
}

impl ArenaSim {
    /// Copies the state into the snapshot: into the last one's room when nobody holds it any
    /// more (the presentation lets go of it within a tick or two), so a tick allocates nothing.
    fn publish(&mut self) {
        match Arc::get_mut(&mut self.snapshot) {
            Some(snapshot) => snapshot.clone_from(&self.state),
            None => self.snapshot = Arc::new(self.state.clone()),
        }
    }
}

/// One tick of player input for a pusher on its own: it steers and dashes as `command` says,
/// moves, and bounces off the walls. The tick does this first for every pusher, then the
/// collisions between pushers and pucks; a player's own pusher is predicted with it alone,
/// ahead of the ticks (the rest of the tick it cannot know before the others' commands).
pub fn drive(layout: &Layout, pusher: &mut Pusher, command: &ArenaCommand) {
    steer(pusher, command);
    pusher.pos += pusher.vel;
    walls(layout, &mut pusher.pos, &mut pusher.vel, PUSHER_RADIUS, false);
}

/// Turns `command`'s stick and dash into the pusher's velocity and facing.
fn steer(pusher: &mut Pusher, command: &ArenaCommand) {
    let stick = Vec2::new(
        fx(i32::from(command.x).clamp(-FULL_PERCENT, FULL_PERCENT)),
        fx(i32::from(command.y).clamp(-FULL_PERCENT, FULL_PERCENT)),
    ) / fx(FULL_PERCENT);
    let stick = stick.clamp_length(Fx::ONE);
    pusher.vel = pusher.vel * PUSHER_DRAG + stick * PUSHER_ACCEL;
    if stick != Vec2::ZERO {
        pusher.facing = stick.angle();
    }
    if command.dash && pusher.dash_cooldown == 0 && stick != Vec2::ZERO {
        pusher.vel += stick.normalize_or_zero() * DASH_SPEED;
        pusher.dash_cooldown = DASH_COOLDOWN_TICKS;
    }
    pusher.dash_cooldown = pusher.dash_cooldown.saturating_sub(1);
    pusher.vel = pusher.vel.clamp_length(PUSHER_MAX_SPEED);
}

impl Simulation for ArenaSim {
    type Command = ArenaCommand;
    type State = ArenaState;
    type Snapshot = ArenaState;

    const NAME: &'static str = "ArenaSim";

    /// 3: players leave (a seat's pusher gone) and newcomers take free seats, each pusher
    /// knowing the tick it was seated. 2: pucks capped before they move; pushers lost their
    /// jump counter, which nothing changed.
    const VERSION: u32 = 3;

    fn next_tick(&self) -> Tick {
        self.state.next
    }

    fn players(&self) -> usize {
        self.state.pushers.len()
    }

    fn seat_player(&mut self, seat: Player) -> Result<(), Error> {
        let seats = self.state.pushers.len();
        let pusher = Some(spawn(&self.layout, seat, self.state.next));
        match self.state.pushers.get_mut(seat.index()) {
            Some(free @ None) => *free = pusher,
            None if seat.index() == seats && seats >= MAX_PLAYERS => {
                return Err(Error::PlayerLimit { max: MAX_PLAYERS });
            }
            None if seat.index() == seats => self.state.pushers.push(pusher),
            _ => return Err(Error::SeatTaken { seat, seats }),
        }
        self.publish();
        Ok(())
    }

    fn free_seat(&mut self, seat: Player) -> Result<(), Error> {
        let seats = self.state.pushers.len();
        match self.state.pushers.get_mut(seat.index()) {
            Some(taken @ Some(_)) => *taken = None,
            _ => return Err(Error::SeatFree { seat, seats }),
        }
        self.publish();
        Ok(())
    }

    fn content_digest(&self) -> ContentDigest {
        ContentDigest::of(&*self.layout)
    }

    fn advance(&mut self, commands: &[ArenaCommand]) {
        let layout = &*self.layout;
        let s = &mut self.state;
        for (pusher, command) in s.pushers.iter_mut().zip(commands) {
            // A free seat's command moves nothing.
            let Some(pusher) = pusher else { continue };
            drive(layout, pusher, command);
        }
        for puck in &mut s.pucks {
            // Capped before it moves: a puck struck last tick never outruns the cap.
            puck.vel = (puck.vel * PUCK_DRAG).clamp_length(PUCK_MAX_SPEED);
            puck.pos += puck.vel;
        }
        // Pushers part evenly; a pusher drives a puck, which barely slows it (a tenth).
        let half = fx_ratio(1, 2);
        each_pair(&mut s.pushers, |a, b| {
            if let (Some(a), Some(b)) = (a, b) {
                collide(a, b, PUSHER_RADIUS * 2, half);
            }
        });
        for pusher in s.pushers.iter_mut().flatten() {
            for puck in &mut s.pucks {
                collide(pusher, puck, PUSHER_RADIUS + PUCK_RADIUS, PUSHER_PUCK_SHARE);
            }
        }
        each_pair(&mut s.pucks, |a, b| collide(a, b, PUCK_RADIUS * 2, half));
        for (spot, puck) in layout.pucks.iter().zip(&mut s.pucks) {
            if let Some(team) = walls(layout, &mut puck.pos, &mut puck.vel, PUCK_RADIUS, true) {
                s.score[team] += 1;
                // Back to its spot, a hand's breadth off it either way.
                let off = s.rng.range_fx(-fx_ratio(1, 4), fx_ratio(1, 4));
                *puck = Puck {
                    pos: *spot + Vec2::new(Fx::ZERO, off),
                    vel: Vec2::ZERO,
                    jumps: puck.jumps + 1,
                };
            }
        }
        for pusher in s.pushers.iter_mut().flatten() {
            walls(layout, &mut pusher.pos, &mut pusher.vel, PUSHER_RADIUS, false);
        }
        s.next = s.next.next();
        self.publish();
    }

    fn snapshot(&self) -> &Arc<ArenaState> {
        &self.snapshot
    }

    fn state(&self) -> &ArenaState {
        &self.state
    }

    /// At most [`MAX_PLAYERS`] seats and one puck per spot of the rink (every pair of either
    /// collides each tick); every disc on the rink and slower than 1 km a tick; dash
    /// cooldowns and seating ticks the rules could have set; no more goals than the ticks could
    /// have scored, nor puck returns than goals (either count would overflow first).
    fn check_state(&self, state: &ArenaState) -> Result<(), StateError> {
        let layout = &*self.layout;
        if state.next.0 > MAX_STATE_TICK {
            return Err(StateError::new(
                "next",
                format!(
                    "{} is past the latest tick a state may be at, {MAX_STATE_TICK}",
                    state.next
                ),
            ));
        }
        if state.pushers.len() > MAX_PLAYERS {
            return Err(StateError::new(
                "pushers",
                format!("{} seats, more than an arena's {MAX_PLAYERS}", state.pushers.len()),
            ));
        }
        if state.pucks.len() != layout.pucks.len() {
            return Err(StateError::new(
                "pucks",
                format!("{} pucks, where the rink has {}", state.pucks.len(), layout.pucks.len()),
            ));
        }
        let (x, y) =
            (layout.half_length + STATE_WALL_MARGIN, layout.half_width + STATE_WALL_MARGIN);
        // Ranges, not absolute values: the most negative number's overflows.
        let speeds = -MAX_STATE_SPEED..=MAX_STATE_SPEED;
        let disc = |field: String, pos: Vec2, vel: Vec2| {
            if !(-x..=x).contains(&pos.x) || !(-y..=y).contains(&pos.y) {
                return Err(StateError::new(format!("{field}.pos"), "is off the rink"));
            }
            if !speeds.contains(&vel.x) || !speeds.contains(&vel.y) {
                return Err(StateError::new(
                    format!("{field}.vel"),
                    format!("is faster than {MAX_STATE_SPEED} m a tick"),
                ));
            }
            Ok(())
        };
        for (seat, pusher) in state.pushers.iter().enumerate() {
            let Some(pusher) = pusher else { continue };
            disc(format!("pushers[{seat}]"), pusher.pos, pusher.vel)?;
            if pusher.dash_cooldown > DASH_COOLDOWN_TICKS {
                return Err(StateError::new(
                    format!("pushers[{seat}].dash_cooldown"),
                    format!(
                        "{} ticks, longer than a dash's {DASH_COOLDOWN_TICKS}",
                        pusher.dash_cooldown
                    ),
                ));
            }
            if pusher.seated_at > state.next {
                return Err(StateError::new(
                    format!("pushers[{seat}].seated_at"),
                    format!("tick {}, after the next tick {}", pusher.seated_at, state.next),
                ));
            }
        }
        // Each puck scores at most once a tick.
        let goals = u64::from(state.score[0]) + u64::from(state.score[1]);
        let most = u64::from(state.next.0) * state.pucks.len() as u64;
        if goals > most {
            return Err(StateError::new(
                "score",
                format!("{goals} goals, more than {most} in {} ticks", state.next),
            ));
        }
        for (i, puck) in state.pucks.iter().enumerate() {
            disc(format!("pucks[{i}]"), puck.pos, puck.vel)?;
            if u64::from(puck.jumps) > goals {
                return Err(StateError::new(
                    format!("pucks[{i}].jumps"),
                    format!("{} returns after {goals} goals", puck.jumps),
                ));
            }
        }
        Ok(())
    }

    fn restore(&mut self, state: &ArenaState) {
        self.state.clone_from(state);
        self.publish();
    }

    fn hash_state(&self, hasher: &mut StateHasher) {
        hasher
            .part("tick", &self.state.next)
            .part("pushers", &self.state.pushers)
            .part("pucks", &self.state.pucks)
            .part("score", &self.state.score)
            .part("rng", &self.state.rng);
    }
}
