//! The town's soundscape: each drawn frame turned into sound, heard from the camera.
//!
//! What the frame draws decides what is heard and when: a step on the frame whose drawn
//! animation passes a contact frame ([`steps`]), a door's or the lift's sound on the frame
//! its drawn motion starts or ends ([`motion`]), a blip on the frame that shows new letters
//! of a dialogue line ([`typewriter`]), birds or crickets by the drawn time of day
//! ([`daylight`]). The mixer's tracks are in [`mixer`].

pub mod daylight;
pub mod mixer;
pub mod motion;
pub mod steps;
pub mod typewriter;

use std::sync::Arc;

use crate::DrawFrame;
use crate::record::object_position;
use fixstep_present::convert::ground;
use fixstep_town::AnimState;
use fixstep_town::level::{Level, ObjectDefKind};
use kira::backend::Backend;
use kira::{Decibels, PlaybackRate};

use self::mixer::{Emitter, Mixer, amplitude_db, now};
use self::motion::{Motion, ObjectMotion};
use self::steps::FootContacts;
use self::typewriter::Typewriter;
use crate::sound::config::Sounds;
use crate::sound::synth::Bank;
use fixstep_audio::{DeviceBackend, DeviceSettings, SoundError, report_off_once};

/// How far beyond a sound's far distance (where it falls silent) its emitter is kept, metres:
/// an emitter is made as its source comes within this of hearing and let go beyond it, so the
/// mixer works only for what can be heard, and a source walking along the edge does not make
/// and drop its emitter every frame.
const EARSHOT_MARGIN_M: f32 = 5.0;

/// Whether a source at `at` is close enough to `eye` to keep an emitter for a sound silent
/// beyond `far` metres.
fn in_earshot(eye: glam::Vec3, at: glam::Vec3, far: f32) -> bool {
    (at - eye).length() <= far + EARSHOT_MARGIN_M
}

/// The town heard from its camera. Make one per game, call [`update`](Self::update) with each
/// frame right after it is drawn.
pub struct TownSoundscape<B: Backend<Error = SoundError> = DeviceBackend> {
    /// `None` when silent.
    inner: Option<Inner<B>>,
    /// Why it is silent.
    off: Option<SoundError>,
}

impl<B: Backend<Error = SoundError>> std::fmt::Debug for TownSoundscape<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TownSoundscape").field("off", &self.off).finish_non_exhaustive()
    }
}

/// A sounding soundscape: the mixer, and what it remembers of the frames before.
struct Inner<B: Backend> {
    mixer: Mixer<B>,
    bank: Bank,
    sounds: Sounds,
    level: Arc<Level>,
    contacts: FootContacts,
    motion: ObjectMotion,
    typewriter: Typewriter,
    /// Each character's emitter and its last drawing, by id index.
    characters: Vec<Option<mixer::CharacterVoice>>,
    /// Each taxi's emitter and engine, by level index.
    taxis: Vec<Option<mixer::TaxiVoice>>,
    /// Each door's and the lift's emitter, by level index.
    objects: Vec<Option<Emitter>>,
    /// Frames updated so far: a voice not drawn on the latest is gone.
    frames: u64,
    /// Steps played so far: picks each step's variant.
    steps: u64,
    /// The volumes asked for (master, effects, ambience): set on the first frame or click,
    /// and on every change after it.
    volumes: (f32, f32, f32),
    /// Whether the volumes have been given to the mixer (it starts silent).
    applied: bool,
    /// No game is drawn (before the first frame, or after [`TownSoundscape::hush`]): the
    /// town's loops are silent, while menu clicks are heard.
    hushed: bool,
}

impl TownSoundscape<DeviceBackend> {
    /// The town heard on the sound card `device` names. Never fails: without a sound library
    /// or device the soundscape is silent, and says why on stderr in one line, once a
    /// process ("sound: off: no audio device (ALSA: …)").
    #[must_use]
    pub fn open(level: &Arc<Level>, sounds: &Sounds, device: &DeviceSettings) -> Self {
        match Self::new(level, sounds, device.clone()) {
            Ok(soundscape) => soundscape,
            Err(why) => {
                report_off_once(&why);
                Self { inner: None, off: Some(why) }
            }
        }
    }

    /// How busy the audio thread has been, while sounding.
    #[must_use]
    pub fn load(&mut self) -> Option<fixstep_audio::AudioLoad> {
        self.inner.as_mut().map(|i| i.mixer.manager.backend_mut().load())
    }
}

impl<B: Backend<Error = SoundError>> TownSoundscape<B> {
    /// The town of `level` with `sounds`, played through backend `B` set up with `settings`.
    ///
    /// # Errors
    ///
    /// The backend does not start, or the mixer has no room for the town's tracks.
    pub fn new(
        level: &Arc<Level>,
        sounds: &Sounds,
        settings: B::Settings,
    ) -> Result<Self, SoundError> {
        let bank = Bank::make(sounds);
        let mut mixer = Mixer::new(settings)?;
        mixer.start_ambience(&bank, sounds, fountain_at(level, sounds))?;
        let inner = Inner {
            mixer,
            bank,
            sounds: sounds.clone(),
            level: Arc::clone(level),
            contacts: FootContacts::new(level, &sounds.footsteps.contacts),
            motion: ObjectMotion::default(),
            typewriter: Typewriter::new(),
            characters: Vec::new(),
            taxis: Vec::new(),
            objects: Vec::new(),
            frames: 0,
            steps: 0,
            volumes: (1.0, 1.0, 1.0),
            applied: false,
            hushed: true,
        };
        Ok(Self { inner: Some(inner), off: None })
    }

    /// A soundscape that plays nothing, because of `why`.
    #[must_use]
    pub const fn silent(why: SoundError) -> Self {
        Self { inner: None, off: Some(why) }
    }

    /// Why it plays nothing, if it does not.
    #[must_use]
    pub const fn off(&self) -> Option<&SoundError> {
        self.off.as_ref()
    }

    /// The backend, while sounding: the offline backend renders through it.
    pub fn backend_mut(&mut self) -> Option<&mut B> {
        self.inner.as_mut().map(|i| i.mixer.manager.backend_mut())
    }

    /// Sets the volumes, each 0 (silent) to 1 (as made), as amplitudes: master over
    /// everything, effects (steps, engines, doors, the lift, blips, clicks) and ambience
    /// (the fountain, birds, crickets) under it.
    pub fn set_volumes(&mut self, master: f32, effects: f32, ambience: f32) {
        if let Some(inner) = self.inner.as_mut() {
            inner.volumes = (master, effects, ambience);
            if inner.applied {
                inner.apply_volumes(true);
            }
        }
    }

    /// A menu click, now (heard on a front screen too, before any game is drawn).
    pub fn click(&mut self) {
        if let Some(inner) = self.inner.as_mut() {
            if !inner.applied {
                inner.apply_volumes(false);
            }
            inner.mixer.play_effect(inner.bank.click.clone());
        }
    }

    /// The game was left: its steps, engines, doors and the town's loops fall silent until
    /// a frame is heard again; menu clicks go on.
    pub fn hush(&mut self) {
        if let Some(inner) = self.inner.as_mut() {
            inner.characters.clear();
            inner.taxis.clear();
            inner.objects.clear();
            inner.hushed = true;
            if inner.applied {
                inner.apply_volumes(true);
            }
        }
    }

    /// Hears `frame`, drawn `dt_seconds` after the frame before. Call it once per frame, right
    /// after the frame is drawn: sounds start as the frame is shown.
    pub fn update(&mut self, frame: &DrawFrame, dt_seconds: f32) {
        if let Some(inner) = self.inner.as_mut() {
            inner.update(frame, dt_seconds);
        }
    }
}

/// Where the fountain's water is heard from: the centre of the level's cutscene trigger the
/// sounds file names, on the ground.
fn fountain_at(level: &Level, sounds: &Sounds) -> Option<glam::Vec3> {
    level
        .cutscene_triggers
        .iter()
        .find(|t| t.id == sounds.fountain.trigger)
        .map(|t| ground(t.zone.centre, 0.0))
}

impl<B: Backend<Error = SoundError>> Inner<B> {
    fn update(&mut self, frame: &DrawFrame, dt: f32) {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        if self.hushed {
            self.hushed = false;
            // The first frame's volumes are there from its first sample; a game drawn again
            // after a hush fades its loops in.
            let soon = self.applied;
            self.apply_volumes(soon);
        }
        self.frames += 1;
        self.mixer.listen_from(&frame.camera);
        self.characters(frame);
        self.taxis(frame);
        self.objects(frame, dt);
        let min_interval_s = self.sounds.blips.min_interval_ms / 1000.0;
        if let Some(letter) = self.typewriter.drawn(frame.dialogue.as_ref(), dt, min_interval_s) {
            let rate = PlaybackRate(f64::from(self.sounds.blips.rate(letter)));
            self.mixer.play_effect(self.bank.blip.playback_rate(rate));
        }
        let (birds, crickets) = daylight::day_and_night(&self.sounds.ambience, frame.time_of_day);
        let ambience = &self.sounds.ambience;
        self.mixer.set_daylight(
            amplitude_db(birds, ambience.birds_volume_db),
            amplitude_db(crickets, ambience.crickets_volume_db),
        );
    }

    /// Gives the mixer the volumes asked for, the ambience silent while hushed: at once, or
    /// `soon` (gliding, so a change does not click).
    fn apply_volumes(&mut self, soon: bool) {
        let (master, effects, ambience) = self.volumes;
        let ambience = if self.hushed { 0.0 } else { ambience };
        self.mixer.set_volumes(master, effects, ambience, soon);
        self.applied = true;
    }

    fn characters(&mut self, frame: &DrawFrame) {
        let footsteps = &self.sounds.footsteps;
        for c in &frame.characters {
            let index = c.id.index as usize;
            if self.characters.len() <= index {
                self.characters.resize_with(index + 1, || None);
            }
            let slot = &mut self.characters[index];
            if slot.as_ref().is_some_and(|v| v.generation != c.id.generation) {
                *slot = None;
            }
            if !in_earshot(frame.camera.eye, c.sample.pos, footsteps.distances_m.1) {
                // Out of hearing: forgotten, and its first step back in earshot is heard
                // from the drawing after it returns.
                *slot = None;
                continue;
            }
            let voice = match slot {
                Some(voice) => voice,
                None => match self.mixer.character(c.id.generation, c.sample, footsteps) {
                    Ok(voice) => slot.insert(voice),
                    Err(_) => continue,
                },
            };
            voice.emitter.place(c.sample.pos);
            let steps = self.contacts.steps(&voice.last, &c.sample);
            voice.last = c.sample;
            voice.seen = self.frames;
            if steps > 0 {
                let variant =
                    (self.steps + u64::from(c.id.index)) % self.bank.footsteps.len() as u64;
                self.steps += 1;
                let db = if c.sample.anim == AnimState::Run {
                    footsteps.run_volume_db
                } else {
                    footsteps.volume_db
                };
                let step = self.bank.footsteps[variant as usize].volume(Decibels(db));
                voice.emitter.play(step);
            }
        }
        let frames = self.frames;
        for slot in &mut self.characters {
            if slot.as_ref().is_some_and(|v| v.seen != frames) {
                *slot = None;
            }
        }
    }

    fn taxis(&mut self, frame: &DrawFrame) {
        let engine = &self.sounds.engine;
        for t in &frame.taxis {
            if self.taxis.len() <= t.index {
                self.taxis.resize_with(t.index + 1, || None);
            }
            let slot = &mut self.taxis[t.index];
            if !in_earshot(frame.camera.eye, t.sample.pos, engine.distances_m.1) {
                *slot = None;
                continue;
            }
            let voice = match slot {
                Some(voice) => voice,
                None => match self.mixer.taxi(t.index, t.sample.pos, &self.bank, engine) {
                    Ok(voice) => slot.insert(voice),
                    Err(_) => continue,
                },
            };
            voice.emitter.place(t.sample.pos);
            voice.engine.set_playback_rate(f64::from(engine.rate(t.sample.speed)), now());
            voice.seen = self.frames;
        }
        let frames = self.frames;
        for slot in &mut self.taxis {
            if slot.as_ref().is_some_and(|v| v.seen != frames) {
                *slot = None;
            }
        }
    }

    fn objects(&mut self, frame: &DrawFrame, dt: f32) {
        for o in &frame.objects {
            let (start, end, distances) = match self.level.objects.get(o.index).map(|d| &d.kind) {
                Some(ObjectDefKind::Door(_)) => {
                    (&self.bank.door_start, &self.bank.door_end, self.sounds.doors.distances_m)
                }
                Some(ObjectDefKind::Lift(_)) => {
                    (&self.bank.lift_start, &self.bank.lift_end, self.sounds.lift.distances_m)
                }
                Some(ObjectDefKind::Sign(_)) | None => continue,
            };
            // Motion is followed out of hearing too: a door heard from the middle of its swing
            // is not starting.
            let motion = self.motion.drawn(o.index, o.offset, o.rotation, dt);
            let at = object_position(&self.level, o.index, o.offset, o.rotation);
            if self.objects.len() <= o.index {
                self.objects.resize_with(o.index + 1, || None);
            }
            let slot = &mut self.objects[o.index];
            if !in_earshot(frame.camera.eye, at, distances.1) {
                *slot = None;
                continue;
            }
            let emitter = match slot {
                Some(emitter) => emitter,
                None => match self.mixer.emitter(at, distances, true) {
                    Ok(emitter) => slot.insert(emitter),
                    Err(_) => continue,
                },
            };
            emitter.place(at);
            match motion {
                Some(Motion::Started) => emitter.play(start.clone()),
                Some(Motion::Stopped) => emitter.play(end.clone()),
                None => {}
            }
        }
    }
}
