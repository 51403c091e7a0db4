//! A game being played in the window: the session, what the player holds, the frame times
//! and the HUD, the drawn log, and the pause menu when it is open.

use std::collections::VecDeque;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use fixstep_gpu::Hud;
use fixstep_gpu::overlay::GRAPH_SAMPLES;
use fixstep_present::record::{DrawnLog, HeldMark};
use fixstep_present::{CommandOf, Controls, Game};
use fixstep_runtime::{Command as _, Player};

use crate::PlayError;
use crate::input::Input;
use crate::pause::PauseMenu;
use crate::session::PlaySession;
use crate::settings::Settings;

/// Longest real time one frame hands the scheduler, seconds: after a stall (a dragged window,
/// a debugger) the game resumes instead of racing to catch up.
const MAX_FRAME_SECONDS: f64 = 0.25;

/// How long the window system may send no frame before a network game steps without drawing,
/// seconds: 50 ms, half a tick. Some systems send a hidden or minimised window no frames; a
/// network game must go on meanwhile (its inputs, hash reports and connection: a peer silent
/// for 5 s is dropped), so it steps this often unseen.
const UNSEEN_STEP_SECONDS: f64 = 0.05;

/// Frames the frame rate is averaged over: steady to read, yet quick to show a change.
const FPS_FRAMES: usize = 30;

/// A game in the window; see the [module documentation](self).
pub(crate) struct Playing<G: Game> {
    /// What is played: a local game, or a side of a network game.
    pub game: Box<dyn PlaySession<G>>,
    pub input: Input,
    pub hud: Hud,
    /// The pause menu, when open.
    pub menu: Option<PauseMenu>,
    /// Whether the front screen started it: an error goes back there, in words.
    pub from_front: bool,
    /// The own player the renderer was last told of.
    pub told_player: Option<Option<Player>>,
    /// When the game last stepped (drawn or unseen).
    last: Instant,
    /// When a frame was last drawn, for the frame times shown.
    last_drawn: Instant,
    /// When the last frame ended or the game last stepped unseen: the window system has sent
    /// no frame since.
    pub quiet_since: Instant,
    frame_times: VecDeque<f32>,
    pub frames_drawn: u64,
    /// What each frame drew, if asked for.
    drawn_log: Option<DrawnRecord<G>>,
    /// Where the pointer is over the window, pixels, for a replay's timeline.
    pub pointer: Option<(f32, f32)>,
    /// Whether the timeline is being dragged (pressed on it and not let go).
    pub scrubbing: bool,
}

/// The window's drawn log: what each frame drew, at real times from the start.
struct DrawnRecord<G: Game> {
    log: DrawnLog<BufWriter<File>>,
    path: PathBuf,
    started: Instant,
    held: CommandOf<G>,
    held_since_ms: f64,
}

impl<G: Game> Playing<G> {
    /// Plays `game` with the keys, mouse and HUD of `settings`, writing what each frame drew
    /// to `drawn_log` if given; `note` is the HUD's line of help.
    pub fn new(
        game: Box<dyn PlaySession<G>>,
        settings: &Settings,
        drawn_log: Option<&Path>,
        note: String,
        from_front: bool,
    ) -> Result<Self, PlayError> {
        let drawn_log = match drawn_log {
            Some(path) => Some(DrawnRecord {
                log: DrawnLog::new(BufWriter::new(File::create(path).map_err(|e| {
                    PlayError::Write {
                        what: "drawn log",
                        path: path.to_path_buf(),
                        source: Box::new(e),
                    }
                })?)),
                path: path.to_path_buf(),
                started: Instant::now(),
                held: CommandOf::<G>::default(),
                held_since_ms: 0.0,
            }),
            None => None,
        };
        Ok(Self {
            game,
            input: Input::new(settings.keys.clone(), &settings.view),
            hud: Hud { visible: settings.hud, note: Some(note), ..Hud::default() },
            menu: None,
            from_front,
            told_player: None,
            last: Instant::now(),
            last_drawn: Instant::now(),
            quiet_since: Instant::now(),
            frame_times: VecDeque::with_capacity(GRAPH_SAMPLES),
            frames_drawn: 0,
            drawn_log,
            pointer: None,
            scrubbing: false,
        })
    }

    /// Whether the game takes the keys: not while a menu or the connecting screen shows.
    pub fn takes_keys(&self) -> bool {
        self.menu.is_none() && !self.game.connecting()
    }

    /// Runs what the real time since the last step owes, drawing nothing: the game part of a
    /// frame. Behind a menu the own character holds still, and a game played alone waits.
    /// Returns what was held, as the game's command.
    fn step(&mut self) -> Result<CommandOf<G>, PlayError> {
        let now = Instant::now();
        let seconds = now.duration_since(self.last).as_secs_f64().min(MAX_FRAME_SECONDS);
        self.last = now;
        let (controls, mouse) = if self.takes_keys() {
            (self.input.controls(), self.input.take_mouse_turn())
        } else {
            (Controls::default(), 0)
        };
        let paused_alone = self.menu.is_some() && !self.game.plays_on_unseen();
        let micros = if paused_alone { 0 } else { (seconds * 1_000_000.0) as u64 };
        self.game.frame(micros, &controls, mouse)?;
        Ok(G::held(&controls))
    }

    /// Steps the game unseen if the window system has sent no frame for so long that a
    /// network game must go on without ([`UNSEEN_STEP_SECONDS`]).
    pub fn step_if_unseen(&mut self) -> Result<(), PlayError> {
        if self.game.plays_on_unseen()
            && self.quiet_since.elapsed().as_secs_f64() > UNSEEN_STEP_SECONDS
        {
            self.step()?;
            self.quiet_since = Instant::now();
        }
        Ok(())
    }

    /// Runs the ticks this frame owes, fills in the HUD and writes the drawn log: all of a
    /// frame but the drawing. Returns the frame's real time, seconds.
    pub fn frame(&mut self) -> Result<f32, PlayError> {
        let held = self.step()?;
        // The frame's time is since the last frame drawn, whatever stepped unseen between.
        let seconds = self.last_drawn.elapsed().as_secs_f64().min(MAX_FRAME_SECONDS);
        let ms = (seconds * 1000.0) as f32;
        self.last_drawn = Instant::now();
        if self.frame_times.len() == GRAPH_SAMPLES {
            self.frame_times.pop_front();
        }
        self.frame_times.push_back(ms);
        // Frames per second over the recent frames, not the newest alone.
        let recent: f32 = self.frame_times.iter().rev().take(FPS_FRAMES).sum();
        let counted = self.frame_times.len().min(FPS_FRAMES) as f32;
        self.hud.fps = if recent > 0.0 { counted * 1000.0 / recent } else { 0.0 };
        self.hud.frame_ms = ms;
        if self.hud.show_graph {
            self.hud.frame_times.clear();
            self.hud.frame_times.extend(self.frame_times.iter().copied());
        }
        self.game.hud(&mut self.hud);
        if let Some(record) = self.drawn_log.as_mut() {
            let at_ms = record.started.elapsed().as_secs_f64() * 1000.0;
            let keys = held.held();
            if keys != record.held {
                record.held = keys;
                record.held_since_ms = at_ms;
            }
            let mark =
                HeldMark { since_ms: record.held_since_ms, held: G::held_numbers(&record.held) };
            let game = &self.game;
            record.log.write(at_ms, Some(&mark), |line| game.record(line)).map_err(|e| {
                PlayError::Write {
                    what: "drawn log",
                    path: record.path.clone(),
                    source: Box::new(e),
                }
            })?;
        }
        Ok(seconds as f32)
    }

    /// Ends the game: says goodbye to the host (a host hands the match over), and finishes
    /// the drawn log.
    pub fn close(mut self) -> Result<(), PlayError> {
        self.game.close();
        self.finish_drawn_log()
    }

    /// Ends the match for everyone (a host's choice), and finishes the drawn log.
    pub fn end_match(mut self) -> Result<(), PlayError> {
        self.game.end_match();
        self.finish_drawn_log()
    }

    fn finish_drawn_log(&mut self) -> Result<(), PlayError> {
        match self.drawn_log.take() {
            Some(record) => record.log.finish().map(drop).map_err(|e| PlayError::Write {
                what: "drawn log",
                path: record.path,
                source: Box::new(e),
            }),
            None => Ok(()),
        }
    }
}
