//! Watching a recorded match: [`ReplayPlay`] runs a replay's ticks on the frames' clock at a
//! chosen speed, through the game's own presentation, so a replay is drawn between its ticks
//! exactly as the live match was. Space pauses, `-`/`+` (or `[`/`]`) halve and double the
//! speed, the arrows seek 10 s back and forward, `,`/`.` step a tick, Home/End go to the start
//! and the end, Tab follows the next player and 1 to 9 the player in that seat, C lets the
//! camera go free (the movement keys move it); a [`Timeline`] at the bottom of the window
//! shows where the viewer is and seeks where it is clicked or dragged, and a roster above its
//! right end picks whom the camera follows.
//!
//! A seek is a discontinuity: the presentation is made afresh and sees the new moment as a
//! first sighting, so nothing is drawn between where it was and where it went.

use std::path::PathBuf;
use std::sync::Arc;

use fixstep_gpu::{Hud, NetworkLine, ReplayLine};
use fixstep_present::camera::{CameraRig, FreeLook};
use fixstep_present::convert::seconds_of_micros;
use fixstep_present::format::DrawnFrame;
use fixstep_present::{CommandOf, Controls, FrameOf, Game, Presentation};
use fixstep_runtime::replay::{
    LoadedReplay, ReplayCursor, ReplayFile, ReplayStep, RosterChange, RosterEvent,
};
use fixstep_runtime::tick::TICK_MICROS;
use fixstep_runtime::{Player, Simulation, Tick};
use winit::keyboard::KeyCode;

use crate::PlayError;
use crate::session::{PlaySession, steer};

mod timeline;

pub use timeline::{
    CameraPick, Timeline, draw_roster, draw_timeline, roster_hit, timeline_bar, timeline_hit,
};

/// The slowest speed, as a power of two: a quarter of real time, slow enough to see a single
/// tick's movement without stepping.
pub const SLOWEST_SPEED_SHIFT: i8 = -2;

/// The fastest speed, as a power of two: sixteen times real time, a five-minute match in
/// under twenty seconds, still 1.6 ticks a frame at 60 frames a second.
pub const FASTEST_SPEED_SHIFT: i8 = 4;

/// How far the arrow keys seek, ticks: 10 s, as video players jump.
pub const SEEK_STEP_TICKS: u32 = 100;

/// The most ticks one frame runs, whatever the speed: a frame a quarter of a second long (the
/// window's longest) at sixteen times real time owes 40 ticks; time owed beyond it is dropped
/// rather than making the next frame slower still.
pub const MAX_REPLAY_TICKS_PER_FRAME: u64 = 40;

/// A tick's share drawn after stepping forward while paused, millionths of a tick: all but a
/// microsecond of it, so the frame shows the new tick whole.
const STEPPED_OWED_MICROS: u64 = TICK_MICROS - 1;

/// A replay of game `G`, read and checked.
pub type ReplayOf<G> = ReplayFile<CommandOf<G>>;

/// What a replay viewer plays at: real time times a power of two.
fn scaled_micros(micros: u64, speed_shift: i8) -> u64 {
    if speed_shift >= 0 {
        micros.saturating_mul(1 << speed_shift.unsigned_abs())
    } else {
        micros >> speed_shift.unsigned_abs()
    }
}

/// The player a digit key picks: 1 the first seat, up to 9.
fn seat_key(code: KeyCode) -> Option<Player> {
    let seat = match code {
        KeyCode::Digit1 => 0,
        KeyCode::Digit2 => 1,
        KeyCode::Digit3 => 2,
        KeyCode::Digit4 => 3,
        KeyCode::Digit5 => 4,
        KeyCode::Digit6 => 5,
        KeyCode::Digit7 => 6,
        KeyCode::Digit8 => 7,
        KeyCode::Digit9 => 8,
        _ => return None,
    };
    Some(Player(seat))
}

/// A recorded match watched in the window; see the [module documentation](self).
pub struct ReplayPlay<G: Game> {
    replay: ReplayFile<CommandOf<G>>,
    content: Arc<G::Content>,
    sim: G::Sim,
    cursor: ReplayCursor<CommandOf<G>>,
    presentation: G::Presentation,
    /// Who came and went, read once.
    roster: Vec<RosterEvent>,
    /// Match time owed but not yet run, microseconds (real time times the speed).
    owed_micros: u64,
    /// The speed as a power of two, from [`SLOWEST_SPEED_SHIFT`] to [`FASTEST_SPEED_SHIFT`].
    speed_shift: i8,
    paused: bool,
    /// The player the camera follows, and whose dialogue and cutscenes are shown.
    followed: Player,
    /// The free camera, while the viewer moves it instead of following `followed`.
    free: Option<FreeLook>,
    /// The replay, as its errors name it.
    path: PathBuf,
}

impl<G: Game> ReplayPlay<G> {
    /// Watches `loaded` (a replay and the content it carries) from its first tick, playing.
    ///
    /// # Errors
    ///
    /// More seats than the game holds, or a first keyframe that does not restore.
    pub fn new(loaded: LoadedReplay<G>) -> Result<Self, PlayError> {
        let path = loaded.path().to_path_buf();
        let fail = |source| PlayError::Replay { path: path.clone(), source };
        let mut sim = loaded.start_sim()?;
        let LoadedReplay { replay, content, .. } = loaded;
        let content = &content;
        let cursor = replay.seek(&mut sim, replay.first_tick()).map_err(fail)?;
        let roster = replay.roster().map_err(fail)?;
        let presentation = G::presentation(content, Player::FIRST);
        let mut play = Self {
            replay,
            content: Arc::clone(content),
            sim,
            cursor,
            presentation,
            roster,
            owed_micros: 0,
            speed_shift: 0,
            paused: false,
            followed: Player::FIRST,
            free: None,
            path,
        };
        play.fresh_presentation();
        Ok(play)
    }

    /// The tick the state shown is at: ticks run since the match began.
    #[must_use]
    pub fn tick(&self) -> Tick {
        self.sim.next_tick()
    }

    /// The state's hash now.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.sim.state_hash().total()
    }

    /// The simulation as the replay has it now.
    #[must_use]
    pub const fn sim(&self) -> &G::Sim {
        &self.sim
    }

    /// Whether playback is paused.
    #[must_use]
    pub const fn paused(&self) -> bool {
        self.paused
    }

    /// Pauses or plays.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// The speed, as a power of two of real time.
    #[must_use]
    pub const fn speed_shift(&self) -> i8 {
        self.speed_shift
    }

    /// Sets the speed, as a power of two of real time, within the speeds offered.
    pub fn set_speed_shift(&mut self, shift: i8) {
        self.speed_shift = shift.clamp(SLOWEST_SPEED_SHIFT, FASTEST_SPEED_SHIFT);
    }

    /// The player the camera follows, `None` while it is free.
    #[must_use]
    pub fn following(&self) -> Option<Player> {
        self.free.is_none().then_some(self.followed)
    }

    /// Follows what `pick` picks: a player's character (if it has a seat), or the free camera,
    /// which takes over looking where the camera looked.
    pub fn pick_camera(&mut self, pick: CameraPick) {
        match pick {
            CameraPick::Follow(player) if player.index() < self.seats() => {
                self.free = None;
                if player != self.followed {
                    self.followed = player;
                    self.fresh_presentation();
                }
            }
            CameraPick::Follow(_) => {}
            CameraPick::Free => {
                if self.free.is_none() {
                    self.free = Some(FreeLook::from_drawn(&self.presentation.drawn_camera()));
                }
            }
        }
    }

    /// The presentation that draws it.
    #[must_use]
    pub const fn presentation(&self) -> &G::Presentation {
        &self.presentation
    }

    /// Where the viewer is, for the timeline.
    #[must_use]
    pub fn timeline_now(&self) -> Timeline {
        Timeline {
            first: self.replay.first_tick(),
            end: self.replay.end_tick(),
            at: self.tick(),
            keyframes: self.replay.keyframe_ticks().collect(),
            names: self.names_now(),
            following: self.following(),
        }
    }

    /// Goes to `tick` (clamped to the replay), the state after the tick before it: a
    /// discontinuity, drawn afresh.
    ///
    /// # Errors
    ///
    /// A keyframe or tick of the replay that does not run.
    pub fn seek(&mut self, tick: Tick) -> Result<(), PlayError> {
        let tick = tick.clamp(self.replay.first_tick(), self.replay.end_tick());
        self.cursor = self
            .replay
            .seek(&mut self.sim, tick)
            .map_err(|source| PlayError::Replay { path: self.path.clone(), source })?;
        self.owed_micros = 0;
        self.fresh_presentation();
        Ok(())
    }

    /// Runs the next tick, if there is one, and shows it to the presentation; returns whether
    /// one ran.
    ///
    /// # Errors
    ///
    /// A record of the replay that does not run.
    pub fn step_tick(&mut self) -> Result<bool, PlayError> {
        loop {
            let step = self
                .replay
                .step(&mut self.cursor, &mut self.sim)
                .map_err(|source| PlayError::Replay { path: self.path.clone(), source })?;
            match step {
                None => return Ok(false),
                Some(ReplayStep::Tick(_)) => {
                    let own = G::own(&self.sim, self.followed);
                    self.presentation.observe(self.sim.snapshot(), own);
                    return Ok(true);
                }
                // A state the host sent after a desync: the match jumped.
                Some(ReplayStep::Replaced(_)) => {
                    self.fresh_presentation();
                    return Ok(true);
                }
                Some(ReplayStep::Roster(_)) => self.name_players(),
                Some(ReplayStep::Keyframe { .. }) => {}
            }
        }
    }

    /// Follows the next player's character, by seat; after the last, the first again. From
    /// the free camera, the player followed before.
    pub fn follow_next(&mut self) {
        if self.free.is_some() {
            self.pick_camera(CameraPick::Follow(self.followed));
            return;
        }
        let seats = self.seats().max(1);
        let next = (self.followed.index() + 1) % seats;
        self.pick_camera(CameraPick::Follow(Player(u16::try_from(next).unwrap_or(0))));
    }

    /// Seats in the match now.
    fn seats(&self) -> usize {
        self.cursor.commands().len()
    }

    /// Every seat's player's name at the tick shown: the name it joined under, else
    /// `Player N`.
    fn names_now(&self) -> Vec<String> {
        let at = self.tick();
        let mut names: Vec<Option<String>> = vec![None; self.seats()];
        for event in self.roster.iter().filter(|e| e.tick <= at) {
            let seat = event.player.index();
            if names.len() <= seat {
                names.resize(seat + 1, None);
            }
            match &event.change {
                RosterChange::Joined { name } => names[seat] = Some(name.clone()),
                RosterChange::Freed => names[seat] = None,
                RosterChange::Left
                | RosterChange::Rejoined
                | RosterChange::Resynced
                | RosterChange::Hosts { .. } => {}
            }
        }
        names
            .into_iter()
            .enumerate()
            .map(|(seat, name)| name.unwrap_or_else(|| format!("Player {}", seat + 1)))
            .collect()
    }

    fn name_players(&mut self) {
        let names = self.names_now();
        self.presentation.set_player_names(&names);
    }

    /// A presentation made afresh, seen by the followed player, that has seen only the state
    /// now: nothing is blended across what came before. The camera's zoom is kept.
    fn fresh_presentation(&mut self) {
        let rig = *self.presentation.camera();
        self.presentation = G::presentation(&self.content, self.followed);
        *self.presentation.camera() = rig;
        let own = G::own(&self.sim, self.followed);
        self.presentation.observe(self.sim.snapshot(), own);
        self.name_players();
    }

    /// Steps a tick back (the state after the tick before the one shown), paused.
    fn step_back(&mut self) -> Result<(), PlayError> {
        self.paused = true;
        let back = Tick(self.tick().0.saturating_sub(1));
        self.seek(back)
    }

    /// Steps a tick forward, paused, drawn whole.
    fn step_forward(&mut self) -> Result<(), PlayError> {
        self.paused = true;
        if self.step_tick()? {
            self.owed_micros = STEPPED_OWED_MICROS;
        }
        Ok(())
    }

    /// Acts on a key pressed: returns whether it was a viewer's key.
    ///
    /// # Errors
    ///
    /// A seek that does not run.
    pub fn press(&mut self, code: KeyCode) -> Result<bool, PlayError> {
        let seek_by = |at: Tick, ticks: i64| {
            let to = i64::from(at.0).saturating_add(ticks).clamp(0, i64::from(u32::MAX));
            Tick(u32::try_from(to).unwrap_or(0))
        };
        let step = i64::from(SEEK_STEP_TICKS);
        match code {
            KeyCode::Space => {
                if self.paused && self.tick() >= self.replay.end_tick() {
                    self.seek(self.replay.first_tick())?;
                }
                self.paused = !self.paused;
            }
            KeyCode::Minus | KeyCode::NumpadSubtract | KeyCode::BracketLeft => {
                self.set_speed_shift(self.speed_shift.saturating_sub(1));
            }
            KeyCode::Equal | KeyCode::NumpadAdd | KeyCode::BracketRight => {
                self.set_speed_shift(self.speed_shift.saturating_add(1));
            }
            KeyCode::ArrowLeft => self.seek(seek_by(self.tick(), -step))?,
            KeyCode::ArrowRight => self.seek(seek_by(self.tick(), step))?,
            KeyCode::Comma => self.step_back()?,
            KeyCode::Period => self.step_forward()?,
            KeyCode::Home => self.seek(self.replay.first_tick())?,
            KeyCode::End => self.seek(self.replay.end_tick())?,
            KeyCode::Tab => self.follow_next(),
            KeyCode::KeyC if self.free.is_some() => {
                self.pick_camera(CameraPick::Follow(self.followed));
            }
            KeyCode::KeyC => self.pick_camera(CameraPick::Free),
            _ => match seat_key(code) {
                Some(player) => self.pick_camera(CameraPick::Follow(player)),
                None => return Ok(false),
            },
        }
        Ok(true)
    }

    /// Runs what `elapsed_micros` of real time owes at the speed, and draws the frame.
    ///
    /// # Errors
    ///
    /// A record of the replay that does not run.
    pub fn advance(&mut self, elapsed_micros: u64) -> Result<(), PlayError> {
        if !self.paused {
            self.owed_micros =
                self.owed_micros.saturating_add(scaled_micros(elapsed_micros, self.speed_shift));
            let due = self.owed_micros / TICK_MICROS;
            let run = due.min(MAX_REPLAY_TICKS_PER_FRAME);
            for _ in 0..run {
                if !self.step_tick()? {
                    // The end: the last tick stays, whole.
                    self.paused = true;
                    self.owed_micros = STEPPED_OWED_MICROS;
                    break;
                }
                self.owed_micros -= TICK_MICROS;
            }
            if !self.paused && due > run {
                self.owed_micros %= TICK_MICROS;
            }
        }
        let alpha = self.owed_micros.min(TICK_MICROS) as f32 / TICK_MICROS as f32;
        self.presentation.camera().free = self.free;
        self.presentation.draw(alpha, seconds_of_micros(elapsed_micros));
        Ok(())
    }

    /// The HUD's line for it.
    #[must_use]
    pub fn line(&self) -> ReplayLine {
        let names = self.names_now();
        ReplayLine {
            tick: self.tick().0,
            first_tick: self.replay.first_tick().0,
            end_tick: self.replay.end_tick().0,
            speed_shift: self.speed_shift,
            paused: self.paused,
            following: self.following().and_then(|player| names.get(player.index()).cloned()),
        }
    }
}

impl<G: Game> PlaySession<G> for ReplayPlay<G> {
    fn frame(
        &mut self,
        elapsed_micros: u64,
        controls: &Controls,
        mouse_turn: i32,
    ) -> Result<(), PlayError> {
        if let Some(look) = self.free.as_mut() {
            steer(look, controls, mouse_turn, seconds_of_micros(elapsed_micros));
        }
        self.advance(elapsed_micros)
    }

    fn drawn(&self) -> &FrameOf<G> {
        self.presentation.frame()
    }

    fn record(&self, line: &mut DrawnFrame) {
        self.presentation.record(line);
    }

    fn camera(&mut self) -> &mut CameraRig {
        self.presentation.camera()
    }

    fn hud(&self, hud: &mut Hud) {
        hud.tick = self.tick().0;
        hud.hash = Some(self.hash());
        hud.network = Some(NetworkLine::Replay(self.line()));
    }

    fn local_player(&self) -> Option<Player> {
        Some(self.followed)
    }

    fn follow(&mut self, player: Option<Player>) {
        self.pick_camera(player.map_or(CameraPick::Free, CameraPick::Follow));
    }

    fn describe(&self) -> String {
        let name = self.path.file_name().unwrap_or(self.path.as_os_str());
        format!("Watching the replay {}", name.to_string_lossy())
    }

    fn plays_on_unseen(&self) -> bool {
        false
    }

    fn key(&mut self, code: KeyCode) -> Result<bool, PlayError> {
        self.press(code)
    }

    fn timeline(&self) -> Option<Timeline> {
        Some(self.timeline_now())
    }

    fn seek_to(&mut self, tick: Tick) -> Result<(), PlayError> {
        self.seek(tick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_scale_real_time_by_powers_of_two() {
        assert_eq!(scaled_micros(100_000, 4), 1_600_000);
        assert_eq!(scaled_micros(100_000, -2), 25_000);
        assert_eq!(scaled_micros(100_000, 0), 100_000);
    }
}
