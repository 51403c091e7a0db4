//! The town's presentation: every entity's previous and current samples, drawn at the
//! frame's alpha, the own character from its prediction, the dialogue and cutscenes on real
//! time.

use std::sync::Arc;

use fixstep_present::camera::{CameraDraw, CameraRig};
use fixstep_present::convert::day_fraction;
use fixstep_present::format::DrawnFrame;
use fixstep_present::interp::{drawn_speed, lerp};
use fixstep_present::own::OwnPrediction;
use fixstep_present::track::{Sample, Track};
use fixstep_present::{Presentation, SnapshotOf};
use fixstep_runtime::{EntityId, Player, Tick};
use fixstep_town::level::Level;
use fixstep_town::predict::{OwnBody, PartialInput};
use fixstep_town::state::Role;
use fixstep_town::{GameSnapshot, PlayerCommand};

use super::effects::Effects;
use super::frame::{CharacterDraw, CutsceneDraw, DrawFrame, ObjectDraw, TaxiDraw};
use super::own::TownRules;
use super::samples::{CharacterSample, ClipLengths, ObjectSample, TaxiSample};
use crate::Town;
use crate::record::ObjectMotion;

/// A character's track, in the slot of its id's index, with who it is: what does not change
/// from tick to tick stays here, not in every sample.
#[derive(Clone, Debug)]
struct CharacterSlot {
    generation: u32,
    role: Role,
    track: Track<CharacterSample>,
}

/// Keeps the samples of every entity of the town and draws them between ticks.
#[derive(Debug)]
pub struct TownPresentation {
    level: Arc<Level>,
    clips: ClipLengths,
    local_player: Player,
    latest: Option<Arc<GameSnapshot>>,
    /// The snapshot before the latest: what the drawn time shows of the discrete state
    /// (dialogue lines, cutscenes) until it reaches the latest tick.
    previous: Option<Arc<GameSnapshot>>,
    first_tick: Tick,
    characters: Vec<Option<CharacterSlot>>,
    taxis: Vec<Track<TaxiSample>>,
    objects: Vec<Track<ObjectSample>>,
    time_of_day: (f32, f32),
    /// The player's zoom.
    pub camera: CameraRig,
    effects: Effects,
    frame: DrawFrame,
    /// The own character's prediction, when the local player's input is held keys.
    own: Option<OwnPrediction<TownRules>>,
    /// What has been held of the tick under way, for the prediction.
    own_partial: PartialInput,
    /// Whether the local player's character is marked as such in the frame (it always is
    /// when predicted).
    mark_local: bool,
    /// How each object moved as drawn, for the drawn log's speeds.
    object_motion: ObjectMotion,
    /// Real seconds since the first frame, for the objects' drawn speeds.
    drawn_seconds: f64,
}

impl TownPresentation {
    /// A presentation of `level` seen by player `local_player`.
    #[must_use]
    pub fn new(level: Arc<Level>, local_player: Player) -> Self {
        let effects = Effects::new(&level);
        Self {
            clips: ClipLengths::of(&level),
            level,
            local_player,
            latest: None,
            previous: None,
            first_tick: Tick::ZERO,
            characters: Vec::new(),
            taxis: Vec::new(),
            objects: Vec::new(),
            time_of_day: (0.0, 0.0),
            camera: CameraRig::default(),
            effects,
            frame: DrawFrame::default(),
            own: None,
            own_partial: PartialInput::NONE,
            mark_local: false,
            object_motion: ObjectMotion::new(),
            drawn_seconds: 0.0,
        }
    }

    /// The own prediction, if the own character is predicted.
    #[must_use]
    pub const fn own(&self) -> Option<&OwnPrediction<TownRules>> {
        self.own.as_ref()
    }

    /// The authoritative copy of the own character at the latest snapshot's tick.
    fn observe_own(&mut self, body: Option<OwnBody>) {
        let (Some(own), Some(body), Some(latest)) = (self.own.as_mut(), body, self.latest.as_ref())
        else {
            return;
        };
        own.observe(latest.tick, body, &self.own_partial);
    }

    /// The level drawn.
    #[must_use]
    pub fn level(&self) -> &Arc<Level> {
        &self.level
    }

    /// The latest snapshot observed.
    #[must_use]
    pub fn latest(&self) -> Option<&Arc<GameSnapshot>> {
        self.latest.as_ref()
    }

    /// Takes the snapshot of a newly completed tick (or the first snapshot of the game). A
    /// tick at or before the latest (a restored state, a replay seek, a reconnect) starts the
    /// drawing afresh: every track is reset, never blended backwards.
    pub fn observe(&mut self, snapshot: &Arc<GameSnapshot>) {
        let tick = snapshot.tick;
        if self.latest.as_ref().is_some_and(|latest| tick <= latest.tick) {
            self.characters.clear();
            self.taxis.clear();
            self.objects.clear();
            self.latest = None;
            self.previous = None;
        }
        for view in &snapshot.characters {
            let index = view.id.index as usize;
            if self.characters.len() <= index {
                self.characters.resize(index + 1, None);
            }
            let sample = CharacterSample::of(view);
            match &mut self.characters[index] {
                Some(slot) if slot.generation == view.id.generation => {
                    slot.track.observe(tick, sample);
                }
                other => {
                    *other = Some(CharacterSlot {
                        generation: view.id.generation,
                        role: view.role,
                        track: Track::new(tick, sample),
                    });
                }
            }
        }
        // Characters that are gone from the snapshot are forgotten: if their id comes back, it
        // is a new entity, drawn from its first tick on.
        for slot in &mut self.characters {
            if slot.as_ref().is_some_and(|s| s.track.current_tick() != tick) {
                *slot = None;
            }
        }
        observe_all(&mut self.taxis, snapshot.taxis.iter().map(TaxiSample::of), tick);
        observe_all(&mut self.objects, snapshot.objects.iter().map(ObjectSample::of), tick);
        if self.latest.is_none() {
            self.first_tick = tick;
        }
        let day = day_fraction(snapshot.time_of_day);
        self.time_of_day =
            if self.latest.is_none() { (day, day) } else { (self.time_of_day.1, day) };
        self.previous = self.latest.replace(Arc::clone(snapshot));
    }

    /// Draws the frame at `alpha` of the interval from the tick before the latest to the
    /// latest (0 draws the previous samples, 1 the latest), after `dt` seconds of real time
    /// since the previous frame. Allocates nothing once its buffers have grown.
    pub fn draw(&mut self, alpha: f32, dt: f32) -> &DrawFrame {
        let alpha = alpha.clamp(0.0, 1.0);
        self.effects.advance(dt);
        self.drawn_seconds += f64::from(dt.max(0.0));
        let Some(latest) = self.latest.as_ref() else { return &self.frame };
        let level = &*self.level;
        let clips = &self.clips;
        let frame = &mut self.frame;
        let latest_tick = latest.tick;
        // Before the first tick has run there is nothing to draw between: the first state is
        // drawn as it is.
        let render_tick =
            (f64::from(latest_tick.0) - 1.0 + f64::from(alpha)).max(f64::from(self.first_tick.0));
        frame.render_tick = render_tick;
        frame.latest_tick = latest_tick.0;
        frame.time_of_day = lerp_day(self.time_of_day.0, self.time_of_day.1, alpha);
        // A thing new on the newest tick is not drawn until the clock reaches that tick.
        let reached = |first: Tick| render_tick >= f64::from(first.0);

        let own_id = latest.players.get(self.local_player.index()).copied();
        let own_draw = match self.own.as_mut() {
            Some(own) => own.draw(&self.own_partial, dt),
            None => None,
        };
        // Where the local player is, drawn or not, for the camera.
        let mut own_place = None;
        frame.characters.clear();
        for (index, slot) in self.characters.iter().enumerate() {
            let Some(slot) = slot else { continue };
            let track = &slot.track;
            if !reached(track.first_tick()) {
                continue;
            }
            let id = EntityId { index: index as u32, generation: slot.generation };
            let mut drawn = CharacterDraw {
                id,
                role: slot.role,
                sample: *track.current(),
                speed: drawn_speed(track.previous().pos, track.current().pos, track.was_reset()),
                tick: render_tick,
                local: false,
            };
            let own = own_id == Some(id);
            match own_draw {
                Some(o) if own => {
                    drawn.sample = CharacterSample {
                        pos: o.pos,
                        facing: o.facing,
                        anim: o.anim,
                        clip: level.clips.by_state[o.anim.index()],
                        frame: o.frame,
                        enabled: o.enabled,
                        jumps: o.jumps,
                        health: drawn.sample.health,
                    };
                    drawn.speed = o.speed;
                    drawn.tick = o.tick;
                    drawn.local = true;
                }
                _ => {
                    track.sample_into(alpha, clips, &mut drawn.sample);
                    drawn.local = own && self.mark_local;
                }
            }
            if own {
                own_place = Some((drawn.sample.pos, drawn.sample.facing));
            }
            if drawn.sample.enabled {
                frame.characters.push(drawn);
            }
        }
        frame.taxis.clear();
        for (index, track) in self.taxis.iter().enumerate() {
            if !reached(track.first_tick()) {
                continue;
            }
            let mut sample = *track.current();
            track.sample_into(alpha, &(), &mut sample);
            frame.taxis.push(TaxiDraw { index, sample });
        }
        frame.objects.clear();
        for (index, track) in self.objects.iter().enumerate() {
            if !reached(track.first_tick()) {
                continue;
            }
            let mut s = *track.current();
            track.sample_into(alpha, &(), &mut s);
            frame.objects.push(ObjectDraw::of(index, &s));
        }
        self.object_motion.drawn(self.drawn_seconds, level, &frame.objects);

        // The camera and the shadow centre follow the player as drawn; while the player is
        // not drawn (down, switched off), its authoritative place between the ticks.
        // A free camera looks where it was moved.
        if let Some(free) = self.camera.free_draw() {
            frame.camera = free;
        } else if let Some((pos, facing)) = own_place {
            frame.camera = self.camera.behind(pos, facing);
        }
        self.effects.stars(level, &mut frame.stars);
        // Dialogue lines and cutscenes are drawn at the drawn time too: what the tick before
        // the latest had, until the clock reaches the latest tick.
        let shown = match &self.previous {
            Some(previous) if alpha < 1.0 => previous,
            _ => latest,
        };
        frame.dialogue =
            shown.dialogues.iter().find(|d| d.player == self.local_player).and_then(|d| {
                self.effects.dialogue(d.dialogue, d.line, d.line_started.0, render_tick)
            });
        match shown.cutscenes.iter().find(|c| c.player == self.local_player) {
            Some(c) => {
                let out = frame.cutscene.get_or_insert_with(CutsceneDraw::default);
                if let Some((eye, target)) =
                    self.effects.cutscene(level, c.cutscene, c.started.0, render_tick, out)
                    && self.camera.free.is_none()
                {
                    frame.camera.eye = eye;
                    frame.camera.target = target;
                }
            }
            None => frame.cutscene = None,
        }
        &self.frame
    }

    /// The frame drawn last.
    #[must_use]
    pub const fn frame(&self) -> &DrawFrame {
        &self.frame
    }
}

impl Presentation<Town> for TownPresentation {
    type Frame = DrawFrame;

    fn observe(&mut self, snapshot: &Arc<SnapshotOf<Town>>, own: Option<OwnBody>) {
        Self::observe(self, snapshot);
        self.observe_own(own);
    }

    /// Draws the own character from a prediction of its held input (see [`OwnPrediction`])
    /// instead of between ticks.
    fn predict_own(&mut self) {
        self.own = Some(OwnPrediction::new(TownRules::new(&self.level)));
        self.mark_local = true;
    }

    /// Marks the local player's character in each frame ([`CharacterDraw::local`]) without
    /// predicting it: drawn between ticks like everyone else, for comparison.
    fn mark_local(&mut self) {
        self.mark_local = true;
    }

    fn own_command(&mut self, tick: Tick, command: &PlayerCommand, partial: &PartialInput) {
        if let Some(own) = self.own.as_mut() {
            own.command(tick, *command, partial);
        }
        self.own_partial = PartialInput { held: partial.held, ..PartialInput::NONE };
    }

    fn own_input(&mut self, partial: &PartialInput) {
        self.own_partial = *partial;
    }

    fn latest_tick(&self) -> Option<Tick> {
        self.latest.as_ref().map(|s| s.tick)
    }

    fn draw(&mut self, alpha: f32, dt_seconds: f32) -> &DrawFrame {
        Self::draw(self, alpha, dt_seconds)
    }

    fn frame(&self) -> &DrawFrame {
        &self.frame
    }

    fn set_player_names(&mut self, names: &[String]) {
        self.frame.set_player_names(names.iter().map(String::as_str));
    }

    fn camera(&mut self) -> &mut CameraRig {
        &mut self.camera
    }

    fn drawn_camera(&self) -> CameraDraw {
        self.frame.camera
    }

    fn record(&self, line: &mut DrawnFrame) {
        crate::record::record_frame(&self.frame, &self.level, &self.object_motion, line);
    }
}

/// Feeds each entity of a fixed list its sample of `tick`.
fn observe_all<S: Sample>(
    tracks: &mut Vec<Track<S>>,
    samples: impl Iterator<Item = S>,
    tick: Tick,
) {
    for (i, sample) in samples.enumerate() {
        if let Some(track) = tracks.get_mut(i) {
            track.observe(tick, sample);
        } else {
            tracks.push(Track::new(tick, sample));
        }
    }
}

/// Time of day between two fractions of a day, forward across midnight.
fn lerp_day(a: f32, b: f32, t: f32) -> f32 {
    let b = if b < a { b + 1.0 } else { b };
    lerp(a, b, t).rem_euclid(1.0)
}
