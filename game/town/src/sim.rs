//! `TownSim`: the town's rules as a [`Simulation`].

use std::sync::Arc;

use fixstep_runtime::math::{Angle, Fx, Vec2};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::{
    ContentDigest, EntityId, EntityStore, Error, Player, Simulation, StateError, StateHasher, Tick,
};

use crate::characters::{
    animate, apply_knockback, drive_pedestrian, drive_player, new_character, respawn_point,
    update_health,
};
use crate::collision::{PairWork, RectIndex, level_solids, resolve_pairs, resolve_static};
use crate::command::PlayerCommand;
use crate::dialogue::{Doors, Reachable, face_partners, interact, run_dialogues};
use crate::geom::Rect;
use crate::grid::Grid;
use crate::level::Level;
use crate::objects::{new_object, run_cycle, run_tasks};
use crate::snapshot::{CharacterView, GameSnapshot, ObjectView, TaxiView};
use crate::state::{Character, GameState, Leg, Role, RoleKind, ZoneState};
use crate::taxis::{
    LanePoint, Route, TaxiWork, Traffic, drive, lane_points, new_taxi, strike_characters,
};
use crate::tuning::{GRID_CELL, TAXI_GRID_CELL};
use crate::zones::{TeleportSquares, end_cutscenes, teleport, trigger_cutscenes};

/// The random-number stream of the rules (any fixed number: streams only need to differ
/// from other generators seeded with the same seed).
const RULES_RNG_STREAM: u64 = 0x70_776e;

/// Snapshots kept for reuse besides the published one: the one the presentation holds while
/// the next tick runs, and one more for a presentation that holds two (the previous and the
/// latest). Beyond that a held snapshot is left to its holders.
const MAX_SPARE_SNAPSHOTS: usize = 2;

/// Buffers the rules reuse every tick; derived from the state, never part of it.
#[derive(Clone, Debug)]
struct Scratch {
    grid: Grid,
    taxi_grid: Grid,
    taxi_yaws: Vec<Angle>,
    /// Every taxi's lane points, one taxi's after another's, so that the taxis' tick reads them
    /// in order from one block of memory.
    lanes: Vec<LanePoint>,
    /// Where each taxi's lane points are in `lanes`.
    lane_ranges: Vec<core::ops::Range<usize>>,
    /// Each taxi's route entry last driven to, and its lane point (see [`Route`]).
    current_lanes: Vec<(u32, LanePoint)>,
    solids: Vec<Rect>,
    solid_index: RectIndex,
    /// Where the collisions between characters move them, by slot.
    positions: Vec<Vec2>,
    /// This tick's commands, malformed ones replaced by no input.
    commands: Vec<PlayerCommand>,
    hits: Vec<EntityId>,
    before: Vec<Vec2>,
    /// Whether each player watches a cutscene, by player.
    watching: Vec<bool>,
    /// The characters in a dialogue, in id order.
    talking: Vec<EntityId>,
    /// The talkers' ids, in id order: whom an interaction may start a dialogue with.
    talkers: Vec<EntityId>,
    /// Where the doors are, for interactions.
    doors: Doors,
    /// The players' ids in id order, for the cutscene triggers.
    player_ids: Vec<EntityId>,
    /// The trigger zones the players stood in, as the triggers gather it.
    inside_triggers: Vec<(EntityId, u32)>,
    /// Each pedestrian's speed, by pedestrian (see [`drive_pedestrian`]).
    walking_speeds: Vec<Fx>,
    /// The level's teleport zones' bounding squares.
    teleport_squares: TeleportSquares,
    /// The characters that might stand in a teleport zone this tick, in id order.
    may_teleport: Vec<EntityId>,
}

/// The town's rules, stepped one 100 ms tick at a time.
#[derive(Clone, Debug)]
pub struct TownSim {
    level: Arc<Level>,
    seed: u64,
    state: GameState,
    snapshot: Arc<GameSnapshot>,
    /// Earlier snapshots, reused by `publish` once nobody else holds them.
    spares: Vec<Arc<GameSnapshot>>,
    scratch: Scratch,
    rejected: Vec<u64>,
    /// What the latest tick's collisions between characters cost.
    pair_work: PairWork,
    /// What the latest tick's taxis cost in looking about them.
    taxi_work: TaxiWork,
}

/// The most players a town holds: a player's index is a `u16` (in commands' owners, replays
/// and the state), and one more would not fit.
pub const MAX_PLAYERS: usize = u16::MAX as usize;

impl TownSim {
    /// The town of `level` at tick 0, with `players` player characters at their spawn points,
    /// its random numbers seeded with `seed`.
    ///
    /// # Panics
    ///
    /// With more than [`MAX_PLAYERS`] players.
    #[must_use]
    pub fn new(level: Arc<Level>, seed: u64, players: usize) -> Self {
        assert!(players <= MAX_PLAYERS, "a town holds at most {MAX_PLAYERS} players");
        let mut characters =
            EntityStore::with_capacity(level.pedestrians.len() + level.talkers.len() + players);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "at most MAX_PEDESTRIANS (65,535) pedestrians, each route far shorter than 2^32 points"
        )]
        for (i, def) in level.pedestrians.iter().enumerate() {
            let start = def.route[0];
            let facing = (def.route[1 % def.route.len()] - start).angle();
            let leg = Leg { at: start, target: 1 % def.route.len() as u32, ..Leg::default() };
            characters.insert(new_character(Role::Pedestrian(i as u32), start, facing, leg));
        }
        #[expect(clippy::cast_possible_truncation, reason = "at most MAX_TALKERS (256) talkers")]
        for (i, def) in level.talkers.iter().enumerate() {
            let role = Role::Talker(i as u32);
            characters.insert(new_character(role, def.at, def.facing, Leg::default()));
        }
        let state = GameState {
            next_tick: Tick::ZERO,
            time_of_day: level.start_time_of_day,
            characters,
            players: Vec::with_capacity(players),
            taxis: level.taxis.iter().map(|def| new_taxi(def, &level)).collect(),
            objects: level.objects.iter().map(new_object).collect(),
            zones: ZoneState::default(),
            dialogues: Vec::new(),
            cutscenes: Vec::new(),
            rng: SimRng::new(seed, RULES_RNG_STREAM),
        };
        let solids = level_solids(&level);
        let area = level.ground;
        let scratch = Scratch {
            grid: Grid::new(area, GRID_CELL),
            taxi_grid: Grid::new(area, TAXI_GRID_CELL),
            taxi_yaws: Vec::new(),
            lanes: level.taxis.iter().flat_map(|def| lane_points(def, &level)).collect(),
            lane_ranges: level
                .taxis
                .iter()
                .scan(0, |start, def| {
                    let range = *start..*start + def.route.len();
                    *start = range.end;
                    Some(range)
                })
                .collect(),
            // No route entry is `u32::MAX`: every taxi reads its first lane point afresh.
            current_lanes: vec![(u32::MAX, LanePoint::default()); level.taxis.len()],
            solid_index: RectIndex::new(&solids, &area, GRID_CELL),
            solids,
            positions: Vec::new(),
            commands: Vec::new(),
            hits: Vec::new(),
            before: Vec::new(),
            watching: Vec::new(),
            talking: Vec::new(),
            talkers: Vec::new(),
            doors: Doors::new(&level),
            player_ids: Vec::new(),
            inside_triggers: Vec::new(),
            walking_speeds: level.pedestrians.iter().map(|def| def.speed).collect(),
            teleport_squares: TeleportSquares::new(&level),
            may_teleport: Vec::new(),
        };
        let mut sim = Self {
            level,
            seed,
            state,
            snapshot: Arc::default(),
            spares: Vec::new(),
            scratch,
            rejected: Vec::with_capacity(players),
            pair_work: PairWork::default(),
            taxi_work: TaxiWork::default(),
        };
        for seat in Player::all(players) {
            sim.join(seat);
        }
        sim.find_talkers();
        sim.publish();
        sim
    }

    /// Lists the talkers of the state in id order.
    fn find_talkers(&mut self) {
        let talkers = &mut self.scratch.talkers;
        talkers.clear();
        talkers.extend(
            self.state
                .characters
                .iter()
                .filter(|(_, c)| c.kind == RoleKind::Talker)
                .map(|(id, _)| id),
        );
    }

    /// Puts seat `seat`'s new character at its spawn point (seat `p` takes spawn
    /// `p % spawns`): in a free seat, or in a new one after the last. The caller checks that
    /// the seat is one of those, and [`MAX_PLAYERS`].
    fn join(&mut self, seat: Player) {
        let spawn = self.level.spawns[seat.index() % self.level.spawns.len()];
        let character = new_character(Role::Player(seat), spawn.at, spawn.facing, Leg::default());
        let id = self.state.characters.insert(character);
        match self.state.players.get_mut(seat.index()) {
            Some(free) => *free = id,
            None => self.state.players.push(id),
        }
        self.rejected.resize(self.state.players.len(), 0);
        self.rejected[seat.index()] = 0;
    }

    /// The character of seat `seat`'s player, if the seat is taken.
    #[must_use]
    pub fn seated(&self, seat: Player) -> Option<EntityId> {
        let &id = self.state.players.get(seat.index())?;
        self.state.characters.contains(id).then_some(id)
    }

    /// The level this town was built from.
    #[must_use]
    pub fn level(&self) -> &Arc<Level> {
        &self.level
    }

    /// The seed of its random numbers.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How many commands of each player were rejected as malformed. Not simulation state: a
    /// rejected command changes nothing, not even a hash.
    #[must_use]
    pub fn rejected_commands(&self) -> &[u64] {
        &self.rejected
    }

    /// What the latest tick's collisions between characters cost: the neighbours looked at, the
    /// distances measured, and how many characters stopped at a limit with neighbours left.
    /// Not simulation state: a count of work, for tests and measurements.
    #[must_use]
    pub const fn pair_work(&self) -> PairWork {
        self.pair_work
    }

    /// What the latest tick's taxis cost in looking about them: the characters and taxis they
    /// looked at, and how many of their searches stopped at a limit with some left. Not
    /// simulation state: a count of work, for tests and measurements.
    #[must_use]
    pub const fn taxi_work(&self) -> TaxiWork {
        self.taxi_work
    }

    /// Publishes the snapshot of the current state into a buffer nobody else holds: the
    /// presentation keeps the snapshot before while the next tick runs, so the snapshots take
    /// turns (double buffering), and a buffer is reused, never cloned, once its holders let
    /// go. Only when every spare is held is a new one allocated.
    fn publish(&mut self) {
        let mut next = take_spare(&mut self.spares);
        let views = &mut snapshot_of(&mut next).characters;
        views.clear();
        views
            .extend(self.state.characters.iter().map(|(id, c)| character_view(id, c, &self.level)));
        self.publish_with(next);
    }

    /// Publishes `next`, whose characters are already the state's, with the rest of the state.
    fn publish_with(&mut self, mut next: Arc<GameSnapshot>) {
        let snapshot = snapshot_of(&mut next);
        let s = &self.state;
        snapshot.tick = s.next_tick;
        snapshot.time_of_day = s.time_of_day;
        snapshot.taxis.clear();
        snapshot.taxis.extend(s.taxis.iter().map(|t| TaxiView {
            pos: t.pos,
            yaw: t.yaw,
            steer: t.steer,
            wheel_rotation: t.wheel_rotation,
            speed: t.speed,
            at_rest: t.at_rest(),
            jumps: t.jumps,
        }));
        snapshot.objects.clear();
        snapshot.objects.extend(s.objects.iter().map(|o| ObjectView {
            offset: o.offset,
            rotation: o.rotation,
            scale: o.scale,
            opacity: o.opacity,
            jumps: o.jumps,
        }));
        snapshot.dialogues.clone_from(&s.dialogues);
        snapshot.cutscenes.clone_from(&s.cutscenes);
        snapshot.players.clone_from(&s.players);
        let previous = core::mem::replace(&mut self.snapshot, next);
        self.spares.push(previous);
        if self.spares.len() > MAX_SPARE_SNAPSHOTS {
            // Held by someone for long: let them keep it, and forget it here.
            self.spares.remove(0);
        }
    }
}

/// A snapshot buffer nobody else holds: a spare whose holders let go, or a new one.
fn take_spare(spares: &mut Vec<Arc<GameSnapshot>>) -> Arc<GameSnapshot> {
    let free = spares.iter_mut().position(|spare| Arc::get_mut(spare).is_some());
    free.map_or_else(Arc::default, |at| spares.swap_remove(at))
}

/// The snapshot in a buffer from [`take_spare`]: never a clone, as nobody else holds it.
fn snapshot_of(buffer: &mut Arc<GameSnapshot>) -> &mut GameSnapshot {
    Arc::make_mut(buffer)
}

/// What the presentation sees of character `id`.
fn character_view(id: EntityId, c: &Character, level: &Level) -> CharacterView {
    CharacterView {
        id,
        role: c.role(),
        player: c.player(),
        pos: c.pos,
        facing: c.facing,
        velocity: c.velocity,
        mode: c.mode,
        anim: c.anim,
        clip: level.clips.by_state[c.anim.index()],
        frame: c.frame,
        enabled: c.enabled,
        jumps: c.jumps,
        health: c.health,
    }
}

impl Simulation for TownSim {
    type Command = PlayerCommand;
    type State = GameState;
    type Snapshot = GameSnapshot;
    /// 3: a crowd's collisions are bounded (a character checks a few neighbours, a pile is
    /// searched in parts, characters on one spot part along the golden angle), taxis look at a
    /// bounded number of people, and seats are freed and taken again. A town that is never
    /// crowded and that nobody leaves runs and hashes as under 2, whose golden stream it keeps;
    /// a crowded one does not, so builds of the two may not play together. 2: characters and
    /// taxis hashed as plain old data, names in the level, taxis keep their forward vector.
    const NAME: &'static str = "TownSim";
    const VERSION: u32 = 3;

    fn next_tick(&self) -> Tick {
        self.state.next_tick
    }

    fn players(&self) -> usize {
        self.state.players.len()
    }

    fn seat_player(&mut self, seat: Player) -> Result<(), Error> {
        let seats = self.state.players.len();
        if seat.index() > seats || self.seated(seat).is_some() {
            return Err(Error::SeatTaken { seat, seats });
        }
        if seat.index() == seats && seats >= MAX_PLAYERS {
            return Err(Error::PlayerLimit { max: MAX_PLAYERS });
        }
        self.join(seat);
        self.publish();
        Ok(())
    }

    /// The character leaves the world; its dialogue and cutscene end, and the zones forget it
    /// (a teleport's cooldown, the cutscenes it played), so that a town whose players come and
    /// go for weeks remembers nothing of those who left.
    fn free_seat(&mut self, seat: Player) -> Result<(), Error> {
        let seats = self.state.players.len();
        let Some(id) = self.seated(seat) else { return Err(Error::SeatFree { seat, seats }) };
        let s = &mut self.state;
        s.characters.remove(id);
        s.dialogues.retain(|d| d.player != seat);
        s.cutscenes.retain(|c| c.player != seat);
        s.zones.cooldowns.retain(|&(who, _)| who != id);
        s.zones.inside_triggers.retain(|&(who, _)| who != id);
        s.zones.played.retain(|&(who, _)| who != id);
        self.rejected[seat.index()] = 0;
        self.publish();
        Ok(())
    }

    fn content_digest(&self) -> ContentDigest {
        self.level.digest()
    }

    fn advance(&mut self, commands: &[PlayerCommand]) {
        let level = Arc::clone(&self.level);
        let level = &*level;
        let tick = self.state.next_tick;
        let s = &mut self.state;
        let scratch = &mut self.scratch;

        // A malformed command is counted and then treated as no input at all.
        let rejected = &mut self.rejected;
        scratch.commands.clear();
        scratch.commands.extend(commands.iter().enumerate().map(|(p, c)| {
            if c.validate().is_ok() {
                *c
            } else {
                rejected[p] += 1;
                PlayerCommand::default()
            }
        }));
        let valid = &scratch.commands;

        // Who watches a cutscene, by player: a look-up each, where a search of the cutscenes
        // per player would cost the players times the cutscenes.
        scratch.watching.clear();
        scratch.watching.resize(s.players.len(), false);
        for cutscene in &s.cutscenes {
            if let Some(watching) = scratch.watching.get_mut(cutscene.player.index()) {
                *watching = true;
            }
        }
        let watching = &scratch.watching;
        let is_watching = |p: Player| watching.get(p.index()).copied().unwrap_or(false);

        // Interactions first, from where everyone stood at the start of the tick.
        for (p, command) in Player::all(valid.len()).zip(valid.iter()) {
            // A free seat's command moves nobody: it has no character.
            let character = s.players[p.index()];
            if command.interact && !is_watching(p) && s.characters.contains(character) {
                interact(
                    p,
                    character,
                    Reachable {
                        characters: &s.characters,
                        talkers: &scratch.talkers,
                        doors: &scratch.doors,
                    },
                    &mut s.objects,
                    &mut s.dialogues,
                    level,
                    tick,
                );
            }
        }

        // Movement. The same pass notes where each character stood before it (interactions move
        // nobody), and fills the collision grid with where the enabled ones end up (talkers
        // turning to their partners, next, move nobody either): one pass over the crowd, not
        // three.
        scratch.before.clear();
        scratch.grid.begin();
        for (id, character) in s.characters.iter_mut() {
            scratch.before.push(character.pos);
            match character.role() {
                Role::Player(p) => {
                    let frozen = is_watching(p);
                    let command = valid.get(p.index()).copied().unwrap_or_default();
                    drive_player(character, &command, frozen);
                }
                Role::Pedestrian(_) => {
                    drive_pedestrian(character, (level, &scratch.walking_speeds), &mut s.rng);
                }
                Role::Talker(_) => {}
            }
            apply_knockback(character);
            if character.enabled {
                scratch.grid.push(id, character.pos);
            }
        }
        scratch.grid.finish();
        face_partners(&s.dialogues, &mut s.characters, &s.players);

        // Collisions, in id order.
        let slots = s.characters.slots();
        self.pair_work = resolve_pairs(&scratch.grid, slots, &mut scratch.positions);
        let (squares, candidates) = (&scratch.teleport_squares, &mut scratch.may_teleport);
        candidates.clear();
        resolve_static(
            &mut s.characters,
            &mut scratch.positions,
            (&scratch.solids, &level.ground, &scratch.solid_index),
            // Nothing moves a character between here and the teleports (taxis' blows knock
            // back over ticks to come, and nobody is disabled before the health pass): who
            // might teleport is known here.
            |id, at| {
                if squares.might_hold(at) {
                    candidates.push(id);
                }
            },
        );

        // Taxis drive, brake for people in the way, and strike those they hit. They find people
        // through the grid built before collisions (at most a push of a few centimetres off,
        // and rebuilding it would cost a tenth of a crowded tick); strikes use where people are.
        scratch.taxi_yaws.clear();
        scratch.taxi_yaws.extend(s.taxis.iter().map(|t| t.yaw));
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a taxi's index: a level holds far fewer than 2^32 taxis"
        )]
        scratch.taxi_grid.rebuild(
            s.taxis
                .iter()
                .enumerate()
                .map(|(i, t)| (EntityId { index: i as u32, generation: 0 }, t.pos)),
        );
        let traffic = Traffic { grid: &scratch.taxi_grid, yaws: &scratch.taxi_yaws };
        let mut taxi_work = TaxiWork::default();
        let driven = s.taxis.iter_mut().zip(&level.taxis).zip(&mut scratch.current_lanes);
        for (me, ((taxi, def), current)) in driven.enumerate() {
            let lanes = &scratch.lanes[scratch.lane_ranges[me].clone()];
            let route = Route { lanes, current };
            drive(me, taxi, (def, route), (&scratch.grid, traffic), &mut taxi_work);
            let hits = (&mut scratch.hits, &mut taxi_work);
            let near = (&scratch.grid, scratch.positions.as_slice());
            strike_characters(taxi, near, &mut s.characters, hits);
        }
        self.taxi_work = taxi_work;

        // Objects.
        for (object, def) in s.objects.iter_mut().zip(&level.objects) {
            run_cycle(object, def, tick);
            run_tasks(object, tick);
        }

        // Zones, dialogues, cutscenes.
        teleport(&mut s.characters, &scratch.may_teleport, &mut s.zones, level, tick);
        trigger_cutscenes(
            &s.characters,
            &s.players,
            &mut s.zones,
            &mut s.cutscenes,
            level,
            tick,
            (&mut scratch.player_ids, &mut scratch.inside_triggers, &mut scratch.watching),
        );
        run_dialogues(&mut s.dialogues, &s.characters, &s.players, level, tick);
        end_cutscenes(&mut s.cutscenes, level, tick);

        // Health, animation, and the velocity each character was moved at. Who talks is a sorted
        // list walked beside the characters (in id order too), where a search of the dialogues
        // per character would cost the crowd times the dialogues.
        // The same pass writes each character's view into the next snapshot: the last change a
        // tick makes to the characters is this pass's, so the view is what publishing after
        // would read, without a pass of its own over the crowd.
        let mut next = take_spare(&mut self.spares);
        let views = &mut snapshot_of(&mut next).characters;
        views.clear();
        let talking = &mut scratch.talking;
        talking.clear();
        for d in &s.dialogues {
            talking.push(d.talker);
            talking.extend(s.players.get(d.player.index()));
        }
        talking.sort_unstable();
        let mut next_talking = 0;
        for ((id, character), &before) in s.characters.iter_mut().zip(&scratch.before) {
            update_health(character, |c| respawn_point(c, level));
            while talking.get(next_talking).is_some_and(|&t| t < id) {
                next_talking += 1;
            }
            animate(character, level, talking.get(next_talking) == Some(&id));
            character.velocity = character.pos - before;
            views.push(character_view(id, character, level));
        }

        s.next_tick = tick.next();
        s.time_of_day = time_of_day(level, s.next_tick);
        self.publish_with(next);
    }

    fn snapshot(&self) -> &Arc<GameSnapshot> {
        &self.snapshot
    }

    fn state(&self) -> &GameState {
        &self.state
    }

    /// Every index into the level, reference between parts of the state, list length and
    /// value the ticks rely on: see `check.rs`.
    fn check_state(&self, state: &GameState) -> Result<(), StateError> {
        crate::check::check_state(state, &self.level)
    }

    fn restore(&mut self, state: &GameState) {
        self.state = state.clone();
        // The state may hold more players (or fewer) than this town was built with.
        self.rejected.resize(self.state.players.len(), 0);
        self.find_talkers();
        self.publish();
    }

    fn hash_state(&self, hasher: &mut StateHasher) {
        let s = &self.state;
        hasher
            .part("tick", &(s.next_tick, s.time_of_day))
            .part("characters", &(&s.characters, &s.players))
            .part("taxis", &s.taxis)
            .part("objects", &s.objects)
            .part("zones", &s.zones)
            .part("dialogue", &s.dialogues)
            .part("cutscenes", &s.cutscenes)
            .part("rng", &s.rng);
    }
}

/// The time of day after `ticks` ticks: the start time plus the elapsed fraction of a day,
/// computed from the tick count (not accumulated), so it never drifts.
#[must_use]
pub fn time_of_day(level: &Level, ticks: Tick) -> u32 {
    let per_day = u64::from(level.ticks_per_day.max(1));
    let into_day = u64::from(ticks.0) % per_day;
    #[expect(
        clippy::cast_possible_truncation,
        reason = "into_day < per_day, so the fraction of a day is below 2^32"
    )]
    let fraction = ((u128::from(into_day) << 32) / u128::from(per_day)) as u32;
    level.start_time_of_day.wrapping_add(fraction)
}
