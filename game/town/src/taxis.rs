//! NPC taxis (`NpcCar`): waypoint following on the street graph with a bicycle model,
//! bounded acceleration, braking and steering, stands, and braking for people in the way.

use fixstep_runtime::EntityStore;
use fixstep_runtime::math::{Angle, Fx, Vec2, fx_ratio, sqrt};

use crate::characters::strike;
use crate::geom::Rect;
use crate::grid::{Grid, Visited};
use crate::level::{Level, TaxiDef};
use crate::state::{Character, TaxiState};
use crate::tuning::{
    CHARACTER_RADIUS, KNOCKBACK_MIN, KNOCKBACK_SHARE, STRIKE_BASE_DAMAGE, STRIKE_DAMAGE_PER_SPEED,
    TAXI_ACCELERATION, TAXI_ARRIVE_RADIUS, TAXI_BRAKING, TAXI_CORNER_SPEED,
    TAXI_CORRIDOR_HALF_WIDTH, TAXI_FOLLOW_GAP, TAXI_LANE_OFFSET, TAXI_LENGTH, TAXI_LOOKAHEAD,
    TAXI_MAX_LOOKS, TAXI_MAX_STEER, TAXI_MAX_STRIKE_CHECKS, TAXI_PATIENCE_TICKS, TAXI_SAME_WAY,
    TAXI_STAND_RADIUS, TAXI_STEER_RATE, TAXI_STOP_GAP, TAXI_WHEEL_RADIUS, TAXI_WHEELBASE,
    TAXI_WIDTH,
};

/// 1 / [`TAXI_WHEELBASE`], per metre: the bicycle model divides by the wheelbase every tick
/// of every taxi, and a multiplication is many times cheaper than a fixed-point division.
const INV_WHEELBASE: Fx = Fx::ONE.strict_div(TAXI_WHEELBASE);

/// 1 / [`TAXI_WHEEL_RADIUS`], per metre, for the same reason.
const INV_WHEEL_RADIUS: Fx = Fx::ONE.strict_div(TAXI_WHEEL_RADIUS);

// The box around the taxis' corridor holds the characters' corridor too.
const _: () = assert!(TAXI_WIDTH.to_bits() >= TAXI_CORRIDOR_HALF_WIDTH.to_bits());

/// Margin around the box that bounds a look ahead, metres (1 cm): far more than the rounding of
/// the dot products that decide what is ahead (a few 2^-32), so the box holds everything they
/// accept, while staying far below a grid cell.
const LOOK_AHEAD_BOX_MARGIN: Fx = fx_ratio(1, 100);

/// Where a taxi aims for route entry `index`: the waypoint, moved [`TAXI_LANE_OFFSET`] to the
/// right of the street that leads to it, so taxis keep to the right-hand lane.
#[must_use]
pub fn lane_point(def: &TaxiDef, level: &Level, index: u32) -> Vec2 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a route of a level, far shorter than 2^32 points"
    )]
    let len = def.route.len() as u32;
    let at = |i: u32| level.waypoints[def.route[(i % len) as usize] as usize];
    let to = at(index);
    let along = (to - at(index + len - 1)).normalize_or_zero();
    to + Vec2::new(along.y, -along.x) * TAXI_LANE_OFFSET
}

/// Every lane point of a taxi's route, in route order: computed once per level, since the
/// streets never move.
#[must_use]
pub fn lane_points(def: &TaxiDef, level: &Level) -> Vec<LanePoint> {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a route of a level, far shorter than 2^32 points"
    )]
    let len = def.route.len() as u32;
    (0..len)
        .map(|i| {
            let at = lane_point(def, level, i);
            let from = lane_point(def, level, (i + len - 1) % len);
            let next = lane_point(def, level, (i + 1) % len);
            LanePoint {
                at,
                along: (at - from).normalize_or_zero(),
                out: (next - at).angle(),
                stand: def.stands.get(i as usize).copied().unwrap_or(false),
            }
        })
        .collect()
}

/// A taxi's route as it drives it: every lane point, and the one it drives to now kept apart.
///
/// Not simulation state: the kept point is a copy of `lanes[target]`, checked against the
/// taxi's target on every use. Kept a taxi's after another's, it is read in order every tick,
/// where the route's points, a few hundred bytes a taxi, are read one a taxi at scattered
/// places and on a large town come from memory every time.
#[derive(Debug)]
pub struct Route<'a> {
    /// Every lane point of the route, in route order.
    pub lanes: &'a [LanePoint],
    /// The route entry last driven to, and its lane point.
    pub current: &'a mut (u32, LanePoint),
}

impl Route<'_> {
    /// The lane point of route entry `target`.
    #[inline]
    fn point(&mut self, target: u32) -> LanePoint {
        if self.current.0 != target {
            *self.current = (target, self.lanes[target as usize]);
        }
        self.current.1
    }
}

/// A point of a taxi's lane, the way the lane runs into it, and the way it runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LanePoint {
    /// Where the taxi aims.
    pub at: Vec2,
    /// Unit direction of the lane from the previous point to this one.
    pub along: Vec2,
    /// Heading of the lane from this point to the next: a taxi slows for the corner here
    /// before reaching it.
    pub out: Angle,
    /// Whether the taxi stops here, at its stand.
    pub stand: bool,
}

/// The box that holds every point `p` with `(p - from)·forward` in `0..=length` and
/// `|(p - from) × forward|` at most `half_width`: the corridor a taxi looks along, bounded on
/// the ground's axes so that a grid query need not visit the cells beside it.
fn corridor_box(from: Vec2, forward: Vec2, length: Fx, half_width: Fx) -> Rect {
    let side = Vec2::new(-forward.y, forward.x) * half_width;
    let to = from + forward * length;
    let corners = [from + side, from - side, to + side, to - side];
    let mut bounds = Rect { min: corners[0], max: corners[0] };
    for corner in &corners[1..] {
        bounds.min = Vec2::new(bounds.min.x.min(corner.x), bounds.min.y.min(corner.y));
        bounds.max = Vec2::new(bounds.max.x.max(corner.x), bounds.max.y.max(corner.y));
    }
    bounds.grown(LOOK_AHEAD_BOX_MARGIN)
}

/// `wanted` capped at the speed from which a taxi braking at [`TAXI_BRAKING`] stops within
/// `distance` (v = sqrt(2·a·d), metres per tick; zero for no distance), without the square
/// root when it could not lower `wanted`: the root of `x` is at least `w` exactly when `x` is at
/// least `w²`, compared here in whole bits.
fn capped_to_stop(wanted: Fx, distance: Fx) -> Fx {
    if distance <= Fx::ZERO {
        return Fx::ZERO.min(wanted);
    }
    let square = TAXI_BRAKING * 2 * distance;
    // `sqrt` rounds the root of square·2^32 (raw bits) down: it reaches wanted's bits w exactly
    // when square's bits · 2^32 >= w².
    let wanted_bits = i128::from(wanted.to_bits());
    if wanted_bits <= 0 || i128::from(square.to_bits()) << 32 >= wanted_bits * wanted_bits {
        return wanted;
    }
    wanted.min(sqrt(square))
}

/// A taxi at the first waypoint of its route, facing the second, at rest.
#[must_use]
pub fn new_taxi(def: &TaxiDef, level: &Level) -> TaxiState {
    let start = lane_point(def, level, 0);
    let next = lane_point(def, level, 1);
    let yaw = (next - start).angle();
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a route of a level, far shorter than 2^32 points"
    )]
    TaxiState {
        pos: start,
        forward: Vec2::from_angle(yaw),
        yaw,
        speed: Fx::ZERO,
        steer: Angle::ZERO,
        wheel_rotation: Angle::ZERO,
        target: 1 % def.route.len() as u32,
        standing: 0,
        held: 0,
        jumps: 0,
        reserved: 0,
    }
}

/// The gap to the nearest taxi ahead in the same lane going the same way, if within the
/// lookahead. Every taxi whose centre is in the corridor ahead (within reach and a car's width)
/// is seen, whatever the size of the grid's cells.
fn taxi_ahead(
    taxi: &TaxiState,
    (forward, reach, ahead): (Vec2, Fx, &Rect),
    me: usize,
    traffic: Traffic<'_>,
    work: &mut TaxiWork,
) -> Option<Fx> {
    let mut nearest: Option<Fx> = None;
    let seen = traffic.grid.query_box(ahead, TAXI_MAX_LOOKS, |id, pos| {
        let other = id.index as usize;
        let heading = traffic.yaws.get(other).map_or(0, |&yaw| taxi.yaw.shortest_delta(yaw));
        if other == me || heading.unsigned_abs() > TAXI_SAME_WAY.0 {
            return;
        }
        let rel = pos - taxi.pos;
        let centres = rel.dot(forward);
        // Two taxis side by side or overlapping (a merge) would each wait for the other for
        // ever: the one with the lower index goes first.
        if centres < TAXI_LENGTH && other > me && centres > -TAXI_LENGTH {
            return;
        }
        let along = centres - TAXI_LENGTH;
        let across = rel.perp_dot(forward).abs();
        if centres > Fx::ZERO && along <= reach && across <= TAXI_WIDTH {
            let gap = along.max(Fx::ZERO);
            nearest = Some(nearest.map_or(gap, |n| n.min(gap)));
        }
    });
    work.add(seen);
    // More taxis about than it looks at: a jam, as if one stood at its bumper.
    if seen.cut_off { Some(Fx::ZERO) } else { nearest }
}

/// What a tick's taxis cost in looking about them. Not simulation state: a count of work, for
/// tests and measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaxiWork {
    /// Characters and taxis looked at, ahead and for strikes (each search at most
    /// [`TAXI_MAX_LOOKS`] or [`TAXI_MAX_STRIKE_CHECKS`]).
    pub looks: u64,
    /// Searches that stopped at their limit with some left.
    pub cut_off: u32,
}

impl TaxiWork {
    fn add(&mut self, seen: Visited) {
        self.looks += u64::from(seen.count);
        self.cut_off += u32::from(seen.cut_off);
    }
}

/// What a taxi sees of the others: where they were at the start of the tick.
#[derive(Clone, Copy, Debug)]
pub struct Traffic<'a> {
    /// The taxis' positions, each under an id whose slot is the taxi's index.
    pub grid: &'a Grid,
    /// Their yaws, by index.
    pub yaws: &'a [Angle],
}

/// Distance to the nearest character in the corridor ahead of the taxi, if any. `grid` holds
/// the enabled characters only (and nobody is disabled between its building and the taxis'
/// turn), so every entry is one to brake for.
fn obstacle_ahead(
    taxi: &TaxiState,
    (forward, reach, ahead): (Vec2, Fx, &Rect),
    lane: LanePoint,
    grid: &Grid,
    work: &mut TaxiWork,
) -> Option<Fx> {
    let nose = TAXI_LENGTH / 2;
    let centre = taxi.pos + forward * (nose + reach / 2);
    let mut nearest: Option<Fx> = None;
    let half = reach / 2 + TAXI_CORRIDOR_HALF_WIDTH;
    let seen = grid.query_within(centre, half, ahead, TAXI_MAX_LOOKS, |_, pos| {
        // Beside the corridor first: most of what the cells hold is on the sidewalks.
        let rel = pos - taxi.pos;
        if rel.perp_dot(forward).abs() > TAXI_CORRIDOR_HALF_WIDTH {
            return;
        }
        let along = rel.dot(forward) - nose;
        // On the road the taxi is taking: mid-turn, straight ahead is the sidewalk's corner,
        // whose walkers do not stand in the new lane.
        if along >= -nose
            && along <= reach
            && (pos - lane.at).perp_dot(lane.along).abs() <= TAXI_CORRIDOR_HALF_WIDTH
        {
            let gap = along.max(Fx::ZERO);
            nearest = Some(nearest.map_or(gap, |n| n.min(gap)));
        }
    });
    work.add(seen);
    // A crowd thicker than a taxi looks through: it stops before it, as if someone stood at
    // its bumper.
    if seen.cut_off { Some(Fx::ZERO) } else { nearest }
}

/// Runs one tick of taxi `me` (its index), whose route is `route` (one lane point per route
/// entry). `grid` holds the enabled characters; what the taxi looks at is counted in `work`.
pub fn drive(
    me: usize,
    taxi: &mut TaxiState,
    (def, mut route): (&TaxiDef, Route<'_>),
    (grid, traffic): (&Grid, Traffic<'_>),
    work: &mut TaxiWork,
) {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a lane point per point of a route of a level, far fewer than 2^32"
    )]
    let route_len = route.lanes.len() as u32;
    if taxi.standing > 0 {
        taxi.standing -= 1;
        taxi.speed = Fx::ZERO;
        if taxi.standing == 0 {
            taxi.target = (taxi.target + 1) % route_len;
        }
        return;
    }
    let aim = route.point(taxi.target);
    let (target_at, is_stand) = (aim.at, aim.stand);
    let to_target = target_at - taxi.pos;
    let mut distance = to_target.length();

    // Arrival: a stand is reached when close and slow enough to stop within one tick's
    // braking; any other waypoint when close.
    if is_stand && distance <= TAXI_STAND_RADIUS && taxi.speed <= TAXI_BRAKING {
        taxi.speed = Fx::ZERO;
        taxi.standing = def.stand_ticks;
        return;
    }
    let mut to_target = to_target;
    if !is_stand && distance <= TAXI_ARRIVE_RADIUS {
        taxi.target = (taxi.target + 1) % route_len;
        to_target = route.point(taxi.target).at - taxi.pos;
        distance = to_target.length();
    }
    let target = route.point(taxi.target);

    // Steering: toward the target, within the lock, at a bounded rate.
    let target_heading = to_target.angle();
    let heading_error = taxi.yaw.shortest_delta(target_heading);
    let lock = TAXI_MAX_STEER.0 as i32;
    #[expect(
        clippy::cast_sign_loss,
        reason = "the bits of the signed steer, reinterpreted as an angle: wrapping is the meaning"
    )]
    let wanted_steer = Angle(heading_error.clamp(-lock, lock) as u32);
    taxi.steer = taxi.steer.turned_toward(wanted_steer, TAXI_STEER_RATE.0);

    // Speed: the top speed, less for a sharp turn, less to stop at a stand or for a person.
    let mut wanted = def.max_speed;
    if heading_error.unsigned_abs() >= Angle::from_degrees(45).0 {
        wanted = wanted.min(TAXI_CORNER_SPEED);
    }
    if target.stand {
        wanted = capped_to_stop(wanted, distance - TAXI_STAND_RADIUS / 2);
    } else {
        // Slow for the corner after the next waypoint before reaching it: to the corner speed
        // plus what braking takes off before the waypoint.
        let turn = target_heading.shortest_delta(target.out);
        if turn.unsigned_abs() >= Angle::from_degrees(45).0 && wanted > TAXI_CORNER_SPEED {
            let above = capped_to_stop(wanted - TAXI_CORNER_SPEED, distance - TAXI_ARRIVE_RADIUS);
            wanted = TAXI_CORNER_SPEED + above;
        }
    }
    // Look ahead along the lane only as far as the next waypoint and a car's length beyond:
    // straight on past a corner lies the sidewalk, not the road the taxi will take.
    let forward = taxi.forward;
    let reach = TAXI_LOOKAHEAD.min(distance + TAXI_LENGTH);
    // One box around both corridors a taxi looks along: the taxis' is as long and wider.
    let ahead = corridor_box(taxi.pos, forward, reach + TAXI_LENGTH, TAXI_WIDTH);
    let look = (forward, reach, &ahead);
    if let Some(gap) = obstacle_ahead(taxi, look, target, grid, work) {
        wanted = capped_to_stop(wanted, gap - TAXI_STOP_GAP);
    }
    // Waiting behind another taxi; a taxi held up long enough stops yielding (a jam of taxis
    // each waiting for the next round a block would otherwise never clear).
    match taxi_ahead(taxi, look, me, traffic, work) {
        Some(gap) if taxi.held < TAXI_PATIENCE_TICKS => {
            wanted = capped_to_stop(wanted, gap - TAXI_FOLLOW_GAP);
            if taxi.speed == Fx::ZERO && wanted == Fx::ZERO {
                taxi.held += 1;
            }
        }
        Some(_) => {}
        None => taxi.held = 0,
    }
    taxi.speed = if wanted > taxi.speed {
        (taxi.speed + TAXI_ACCELERATION).min(wanted)
    } else {
        (taxi.speed - TAXI_BRAKING).max(wanted).max(Fx::ZERO)
    };

    // Bicycle model: yaw rate = v · tan(steer) / wheelbase, in radians per tick. Straight on
    // (no steer, or no speed) the yaw and its forward vector stay as they are.
    if taxi.steer != Angle::ZERO && taxi.speed != Fx::ZERO {
        let (sin, cos) = taxi.steer.sin_cos();
        let yaw_rate = taxi.speed * (sin / cos) * INV_WHEELBASE;
        let turn = Angle::from_radians(yaw_rate);
        if turn != Angle::ZERO {
            taxi.yaw = taxi.yaw + turn;
            taxi.forward = Vec2::from_angle(taxi.yaw);
        }
    }
    taxi.pos += taxi.forward * taxi.speed;
    taxi.wheel_rotation = taxi.wheel_rotation + Angle::from_radians(taxi.speed * INV_WHEEL_RADIUS);
}

/// Strikes every enabled, not already staggering character that the moving taxi's body
/// overlaps, of the first [`TAXI_MAX_STRIKE_CHECKS`] near it in the grid's order: it loses
/// health by the taxi's speed and is knocked away from the taxi. What it looks at is counted
/// in `work`.
///
/// `standing` holds, by slot, where each character in `grid` stands now (what
/// [`resolve_static`](crate::collision::resolve_static) left; nothing moves a character between
/// there and the taxis' strikes): the body is tested there, and only a character it overlaps is
/// read, so a taxi's look at the crowd around it reads that small table and not the
/// characters, which a large town's cache does not hold.
pub fn strike_characters(
    taxi: &TaxiState,
    (grid, standing): (&Grid, &[Vec2]),
    characters: &mut EntityStore<Character>,
    (hits, work): (&mut Vec<fixstep_runtime::EntityId>, &mut TaxiWork),
) {
    if taxi.speed == Fx::ZERO {
        return;
    }
    let forward = taxi.forward;
    let half_length = TAXI_LENGTH / 2 + CHARACTER_RADIUS;
    let half_width = TAXI_WIDTH / 2 + CHARACTER_RADIUS;
    hits.clear();
    work.add(grid.query(taxi.pos, half_length, TAXI_MAX_STRIKE_CHECKS, |id, _| {
        let rel = standing[id.index as usize] - taxi.pos;
        if rel.dot(forward).abs() <= half_length && rel.perp_dot(forward).abs() <= half_width {
            hits.push(id);
        }
    }));
    for &id in hits.iter() {
        let Some(character) = characters.get_mut(id) else { continue };
        if !character.enabled || character.stagger > 0 {
            continue;
        }
        debug_assert_eq!(character.pos, standing[id.index as usize], "a stale standing place");
        let rel = character.pos - taxi.pos;
        let damage =
            STRIKE_BASE_DAMAGE + (taxi.speed * i64::from(STRIKE_DAMAGE_PER_SPEED)).to_num::<i32>();
        let away = rel.normalize_or_zero();
        let away = if away == Vec2::ZERO { forward } else { away };
        let shove = (taxi.speed * KNOCKBACK_SHARE).max(KNOCKBACK_MIN);
        strike(character, damage, away * shove);
    }
}
