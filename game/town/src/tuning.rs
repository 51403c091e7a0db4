//! The rules' constants, each with its unit and the reason for its value. Speeds and
//! distances per tick are what the rules use; a tick is 100 ms.

use fixstep_runtime::math::{Angle, Fx, fx_ratio};

/// A character's radius for collisions, metres: shoulders of an adult seen from above.
pub const CHARACTER_RADIUS: Fx = fx_ratio(35, 100);

/// Walking speed, metres per tick (1.4 m/s, an average adult's walking pace).
pub const WALK_SPEED: Fx = fx_ratio(14, 100);

/// Running speed, metres per tick (4 m/s, a jog that reads clearly as running on screen).
pub const RUN_SPEED: Fx = fx_ratio(40, 100);

/// The largest `forward` or `strafe` value of a command: percent of full speed.
pub const MAX_MOVE_PERCENT: i8 = 100;

/// The largest turn one command may ask for, in 2^-16 of a turn (a quarter turn): a mouse
/// flicked across the screen in one tick turns a quarter at most, and anything larger is a
/// malformed command rather than a fast player.
pub const MAX_TURN_PER_TICK: i16 = 16_384;

/// How far a character reaches to open a door, metres from the middle of the door leaf.
pub const DOOR_REACH: Fx = fx_ratio(2, 1);

/// How close a character must stand to a talker to start a dialogue, metres.
pub const TALK_RANGE: Fx = fx_ratio(5, 2);

/// How far a player may walk from the talker before the dialogue ends, metres: twice the range
/// to start it, so a step back while talking does not cut the line off.
pub const TALK_LEAVE_RANGE: Fx = fx_ratio(5, 1);

/// Ticks after a teleport before the same character can teleport again (2 s): long enough to
/// walk off the exit, short enough to go back through on purpose.
pub const TELEPORT_COOLDOWN_TICKS: u32 = 20;

/// Full health.
pub const MAX_HEALTH: i32 = 100;

/// Health lost to a taxi strike at walking pace; faster strikes add [`STRIKE_DAMAGE_PER_SPEED`].
pub const STRIKE_BASE_DAMAGE: i32 = 10;

/// Extra health lost per metre-per-tick of the taxi's speed at a strike (a taxi at 50 km/h,
/// 1.39 m/tick, takes another 55).
pub const STRIKE_DAMAGE_PER_SPEED: i32 = 40;

/// Ticks a struck character staggers, ignoring its input and playing the hit clip (0.8 s).
pub const HIT_STAGGER_TICKS: u32 = 8;

/// Knockback speed given by a strike, as a share of the taxi's speed plus a fixed shove:
/// knocked back at half the taxi's speed, and at least a small shove.
pub const KNOCKBACK_SHARE: Fx = fx_ratio(1, 2);

/// The least knockback of a strike, metres per tick (the taxi barely moving still shoves).
pub const KNOCKBACK_MIN: Fx = fx_ratio(15, 100);

/// Share of knockback speed kept from one tick to the next: it halves every tick, so a shove
/// carries the character about twice its first step.
pub const KNOCKBACK_DECAY: Fx = fx_ratio(1, 2);

/// Ticks between points of health regained (every 0.5 s).
pub const REGEN_INTERVAL_TICKS: u32 = 5;

/// Ticks after a strike before health starts to come back (3 s).
pub const REGEN_DELAY_TICKS: u32 = 30;

/// Ticks a character with no health stays down (disabled) before it respawns (2 s).
pub const RESPAWN_DELAY_TICKS: u32 = 20;

/// Taxi length, metres (a saloon car).
pub const TAXI_LENGTH: Fx = fx_ratio(44, 10);

/// Taxi width, metres.
pub const TAXI_WIDTH: Fx = fx_ratio(18, 10);

/// Distance between the taxi's axles, metres: the bicycle model's wheelbase.
pub const TAXI_WHEELBASE: Fx = fx_ratio(26, 10);

/// Radius of a taxi wheel, metres: wheel rotation is distance over this.
pub const TAXI_WHEEL_RADIUS: Fx = fx_ratio(32, 100);

/// Largest steering angle of the front wheels (35°: a car's usual lock).
pub const TAXI_MAX_STEER: Angle = Angle::from_degrees(35);

/// Steering change per tick (150°/s: a driver's hands at a brisk turn).
pub const TAXI_STEER_RATE: Angle = Angle::from_degrees(15);

/// Acceleration, metres per tick per tick (2.5 m/s², a calm pull-away).
pub const TAXI_ACCELERATION: Fx = fx_ratio(25, 1000);

/// Braking deceleration, metres per tick per tick (5 m/s², firm but not an emergency stop).
pub const TAXI_BRAKING: Fx = fx_ratio(5, 100);

/// Speed through a turn of a quarter turn or more, metres per tick (3 m/s): slow enough that
/// the 35° lock turns the corner within the lane.
pub const TAXI_CORNER_SPEED: Fx = fx_ratio(3, 10);

/// Distance from a waypoint at which a taxi counts it reached and steers for the next, metres.
pub const TAXI_ARRIVE_RADIUS: Fx = fx_ratio(2, 1);

/// Distance from a stand at which a taxi counts itself stopped at it, metres.
pub const TAXI_STAND_RADIUS: Fx = fx_ratio(1, 1);

/// How far ahead a taxi looks for characters and taxis to brake for, metres: beyond the
/// stopping distance from 50 km/h at [`TAXI_BRAKING`] (v²/2a = 1.39²/0.1 ≈ 19 m), so a taxi
/// can always stop for what it sees.
pub const TAXI_LOOKAHEAD: Fx = fx_ratio(22, 1);

/// Half the width of the corridor ahead in which a character makes a taxi brake, metres: half
/// the car's width and a margin.
pub const TAXI_CORRIDOR_HALF_WIDTH: Fx = fx_ratio(16, 10);

/// Gap a braking taxi leaves in front of a character, metres.
pub const TAXI_STOP_GAP: Fx = fx_ratio(15, 10);

/// How far right of a street's centre line taxis drive, metres: half a 4 m lane, so taxis
/// going opposite ways on one street pass each other instead of meeting head on.
pub const TAXI_LANE_OFFSET: Fx = fx_ratio(2, 1);

/// Gap a taxi keeps behind another taxi going its way, metres (about a car's length).
pub const TAXI_FOLLOW_GAP: Fx = fx_ratio(5, 1);

/// Ticks a taxi waits behind another before it stops yielding to taxis (8 s): long enough
/// for any stand or queue to clear, short enough that a gridlock of taxis waiting on each
/// other round a block dissolves.
pub const TAXI_PATIENCE_TICKS: u32 = 80;

/// Largest difference of heading at which a taxi ahead counts as going the same way (60°);
/// one crossing or coming the other way is in another lane.
pub const TAXI_SAME_WAY: Angle = Angle::from_degrees(60);

/// Distance from a pedestrian's route point at which it counts it reached, metres.
pub const PEDESTRIAN_ARRIVE_RADIUS: Fx = fx_ratio(1, 10);

/// The most neighbours a character measures its distance to in a tick: those within a
/// diameter of it along both axes, which may overlap it. No more than six characters of its
/// size can touch one without overlapping it (the most circles that fit round a circle), and
/// fewer come after it in id order, so every pair that overlaps in a crowd that has room is
/// measured; a crowd packed tighter (everyone on one spawn) costs no more than this many
/// measures a character, each a square root and two divisions, and is pushed apart by them.
/// The town and the stress level need at most 4.
pub const MAX_PAIR_CHECKS: u32 = 6;

/// The golden angle (about 137.5°, 2^32 less 2^32 over the golden ratio, in 2^-32 of a turn):
/// the directions that successive multiples of it point in never line up and fill the circle
/// evenly, so characters on the very same spot part every way.
pub const GOLDEN_ANGLE: Angle = Angle(0x61c8_8647);

/// The most neighbours a character looks at in a tick for overlaps (a comparison or two each,
/// most of them too far along an axis to measure). A 4 m cell holds at most 38 characters
/// that do not overlap, packed as tight as circles go, so the neighbours after a character in
/// its cells, and the part of the next cell its reach overlaps, are all looked at in any crowd
/// that is not piled up.
pub const MAX_PAIR_CANDIDATES: u32 = 64;

/// The most characters a taxi looks at ahead in a tick, and the most taxis. The cells its
/// corridor overlaps hold at most a dozen on the stress level's busiest streets, and a taxi
/// that finds more than this stops as for someone at its bumper: a crowd on the road that
/// thick is not driven into, and not looked through.
pub const TAXI_MAX_LOOKS: u32 = 64;

/// The most characters a moving taxi checks for strikes in a tick. The cells round its body
/// hold at most six on the stress level's streets, and the body (4.4 by 1.8 metres) overlaps
/// no more than some thirty characters that do not overlap each other; in a thicker crowd
/// those first in the grid's order are struck, and the rest are left for its next tick.
pub const TAXI_MAX_STRIKE_CHECKS: u32 = 64;

/// Size of a collision grid cell, metres: at least a character's diameter and a taxi's
/// half-length, so neighbours are always in the 3×3 cells around.
pub const GRID_CELL: Fx = fx_ratio(4, 1);

/// Size of a cell of the grid the taxis find each other in, metres: taxis are few and far
/// apart, so coarse cells keep the grid's tables small enough for the cache and a look ahead
/// to two or three cells. A taxi looks at every cell its corridor overlaps, so the size
/// changes no result.
pub const TAXI_GRID_CELL: Fx = fx_ratio(16, 1);
