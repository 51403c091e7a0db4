//! What a game provides to the layers above the core, written down once: its rules, what it
//! is built from, how held input becomes its commands, a scripted player, and how it is drawn
//! between its ticks. The frame loops, network play, the window and the tools are written
//! against these traits; a game implements them on a type of its own that describes it (a
//! unit struct, in the manner of ggrs's `Config`), so its rules crate needs to know none of
//! them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_runtime::input::{Bot, HeldInput};
use fixstep_runtime::script::TextCommand;
use fixstep_runtime::{ContentDigest, Simulation, Tick};

use crate::camera::CameraRig;
use crate::format::{DrawnFrame, TruthEntity};

/// A player's command in game `G`.
pub type CommandOf<G> = <<G as Game>::Sim as Simulation>::Command;

/// The snapshot game `G` publishes after each tick.
pub type SnapshotOf<G> = <<G as Game>::Sim as Simulation>::Snapshot;

/// The state of game `G`.
pub type StateOf<G> = <<G as Game>::Sim as Simulation>::State;

/// What has been held of the tick under way, in game `G`.
pub type PartialOf<G> = <<G as Game>::Input as HeldInput>::Partial;

/// What game `G`'s presentation draws a frame as.
pub type FrameOf<G> = <<G as Game>::Presentation as Presentation<G>>::Frame;

/// What a player holds on the keyboard and mouse, as a window reads it, before a game makes
/// it its command: movement and turn axes, in percent of full, and two buttons. A game maps
/// it to its own held command; a scripted player writes the command itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Controls {
    /// Forward (+) or back (-), percent: -100..=100.
    pub forward: i8,
    /// Right (+) or left (-), percent: -100..=100.
    pub strafe: i8,
    /// Turn left (+) or right (-), percent of the game's key turn rate: -100..=100.
    pub turn: i8,
    /// The run (or boost) button is held.
    pub run: bool,
    /// The action button (interact, use) was pressed since the last look: once per press.
    pub interact: bool,
}

/// A game, as everything above the deterministic core sees it.
pub trait Game: Sized + 'static {
    /// Its rules.
    type Sim: Simulation<Command: TextCommand + Send, Snapshot: Send + Sync> + Send + 'static;
    /// What a simulation of it is built from (a level, an arena's layout): loaded once and
    /// shared by the simulation, the presentation and the renderer.
    type Content: Send + Sync + 'static;
    /// Why content does not load: naming the file, and the line where there is one.
    type ContentError: std::error::Error + Send + Sync + 'static;
    /// How what a player holds becomes its command each tick.
    type Input: HeldInput<Command = CommandOf<Self>> + Send;
    /// A scripted player, for headless runs and tests.
    type Bot: Bot<Self::Sim> + Send;
    /// A copy of a player's own character after a tick, which its presentation predicts from
    /// (`()` for a game that does not predict).
    type Own: Clone + Send + 'static;
    /// How it is drawn between its ticks.
    type Presentation: Presentation<Self>;

    /// Its name, as the command line and the window title give it.
    const NAME: &'static str;

    /// The most players one simulation holds.
    const MAX_PLAYERS: usize;

    /// What the keys do for a player, as a window's help line says it (`"WASD move, F
    /// interact"`); see [`held`](Self::held).
    const CONTROLS: &'static str;

    /// Whether the mouse turns the player (the window then offers to capture it).
    const MOUSE_TURNS: bool;

    /// The content played when none is named, under the assets root.
    fn default_content(assets: &Path) -> PathBuf;

    /// Loads the content in `file` (other files it names are under `assets`).
    ///
    /// # Errors
    ///
    /// Every problem of the file, naming it.
    fn load_content(assets: &Path, file: &Path) -> Result<Self::Content, Self::ContentError>;

    /// The content's title, for a window and a log line.
    fn content_title(content: &Self::Content) -> &str;

    /// Where the content was loaded from, relative to the assets root where it was under it:
    /// what a replay records to find it again.
    fn content_source(content: &Self::Content) -> &str;

    /// The digest of the content's canonical bytes: what peers compare before they play
    /// together, and replays record (the simulation's own
    /// [`content_digest`](Simulation::content_digest)).
    fn content_digest(content: &Self::Content) -> ContentDigest;

    /// A simulation of `content` with `players` players, its random numbers seeded by `seed`.
    fn new_sim(content: &Arc<Self::Content>, seed: u64, players: usize) -> Self::Sim;

    /// A scripted player for player `player`.
    fn bot(content: &Arc<Self::Content>, player: usize) -> Self::Bot;

    /// The command a player holding `controls` holds.
    fn held(controls: &Controls) -> CommandOf<Self>;

    /// What a held command is, as four numbers for a drawn log (`fixstep judder` compares
    /// them to find when the input changed).
    fn held_numbers(command: &CommandOf<Self>) -> [i32; 4];

    /// A copy of player `player`'s own character as `sim` has it now, if it has one.
    fn own(sim: &Self::Sim, player: usize) -> Option<Self::Own>;

    /// A presentation of `content` seen by player `player`.
    fn presentation(content: &Arc<Self::Content>, player: usize) -> Self::Presentation;

    /// Where everything authoritatively is at `current` (the snapshot after `previous`, if
    /// there was one): a truth log's line, for `fixstep judder`.
    fn truth(
        content: &Self::Content,
        previous: Option<&SnapshotOf<Self>>,
        current: &SnapshotOf<Self>,
        out: &mut Vec<TruthEntity>,
    );
}

/// How a game is drawn between its ticks: it takes every completed tick's snapshot, and each
/// render frame draws at a fraction `alpha` of the interval between the two latest (see the
/// [crate documentation](crate)). The frame loops drive it; nothing here changes the
/// simulation.
pub trait Presentation<G: Game> {
    /// What a frame draws: the renderer's input (the empty frame draws nothing).
    type Frame: Clone + Default + 'static;

    /// Takes the snapshot of a completed tick (or the first state of the game), with the
    /// player's own character as the simulation has it after it. A tick at or before the
    /// latest (a restored state, a seek) starts the drawing afresh.
    fn observe(&mut self, snapshot: &Arc<SnapshotOf<G>>, own: Option<G::Own>);

    /// From now on, draws the player's own character from a prediction of its held input
    /// (own commands not yet run, and what is held of the tick under way), so a key shows on
    /// the next frame. A game that does not predict ignores it.
    fn predict_own(&mut self) {}

    /// Marks the player's own character in the frames without predicting it (drawn between
    /// ticks like everyone else), to compare the two.
    fn mark_local(&mut self) {}

    /// The own command for `tick` is fixed (about to run, or sent to the host); `partial` is
    /// what was held of that tick.
    fn own_command(&mut self, tick: Tick, command: &CommandOf<G>, partial: &PartialOf<G>) {
        let _ = (tick, command, partial);
    }

    /// What has been held of the tick under way, for the next frame.
    fn own_input(&mut self, partial: &PartialOf<G>) {
        let _ = partial;
    }

    /// The tick of the latest snapshot observed.
    fn latest_tick(&self) -> Option<Tick>;

    /// Draws a frame at `alpha` (0 to 1) of the interval from the tick before the latest to
    /// the latest, `dt_seconds` of real time after the previous frame.
    fn draw(&mut self, alpha: f32, dt_seconds: f32) -> &Self::Frame;

    /// The frame drawn last.
    fn frame(&self) -> &Self::Frame;

    /// Names the players by player number, as a network game knows them.
    fn set_player_names(&mut self, names: &[String]);

    /// The camera, for the player's zoom.
    fn camera(&mut self) -> &mut CameraRig;

    /// Writes what the frame drawn last shows into a drawn-log line: its render tick, its
    /// camera and every entity drawn, with ids as the game's truth log gives them.
    fn record(&self, line: &mut DrawnFrame);
}
