//! What drawing adds to a game's rules, written down once: how it is drawn between its ticks,
//! its player's own character as it is predicted, where everything truly is (for measuring
//! what was drawn), and what its keys do. A game's rules are the runtime's
//! [`Rules`]; [`Game`] builds on them, and the frame loops, the window
//! and the tools are written against both. A game implements them on a type of its own that
//! describes it (a unit struct, in the manner of ggrs's `Config`), so its rules crate needs to
//! know none of this.

use std::sync::Arc;

use fixstep_runtime::{Player, Rules, Tick};

use crate::camera::{CameraDraw, CameraRig};
use crate::format::{DrawnFrame, TruthEntity};

pub use fixstep_runtime::rules::{CommandOf, PartialOf, SnapshotOf, StateOf};

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

/// What a game calls the controls a window reads ([`Controls`]), for its settings screen and
/// the help line its window shows; `None` for a control the game has no use for, which its
/// settings then do not list. The help line names the keys bound now, so it stays true after
/// the player rebinds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlNames {
    /// The movement keys as the help line says them ("move", "skate").
    pub moving: &'static str,
    /// The four movement keys on the settings screen: forward, back, left, right.
    pub directions: [&'static str; 4],
    /// The two turn keys on the settings screen (left, right), if the game turns by keys.
    pub turning: Option<[&'static str; 2]>,
    /// The held run (or boost) button, if the game has one.
    pub run: Option<&'static str>,
    /// The action button, pressed once ("Interact", "Dash"), if the game has one.
    pub action: Option<&'static str>,
}

/// A game as everything that draws it sees it: its [`Rules`], and how they are drawn.
pub trait Game: Rules {
    /// A copy of a player's own character after a tick, which its presentation predicts from
    /// (`()` for a game that does not predict).
    type Own: Clone + Send + 'static;
    /// How it is drawn between its ticks.
    type Presentation: Presentation<Self>;

    /// What the game calls each control, for the settings screen and the help line; see
    /// [`held`](Self::held).
    const CONTROL_NAMES: ControlNames;

    /// Whether the mouse turns the player (the window then offers to capture it).
    const MOUSE_TURNS: bool;

    /// The command a player holding `controls` holds.
    fn held(controls: &Controls) -> CommandOf<Self>;

    /// What a held command is, as four numbers for a drawn log (`fixstep judder` compares
    /// them to find when the input changed).
    fn held_numbers(command: &CommandOf<Self>) -> [i32; 4];

    /// A copy of player `player`'s own character as `sim` has it now, if it has one.
    fn own(sim: &Self::Sim, player: Player) -> Option<Self::Own>;

    /// A presentation of `content` seen by player `player`.
    fn presentation(content: &Arc<Self::Content>, player: Player) -> Self::Presentation;

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

    /// The camera, for the player's zoom and a free camera.
    fn camera(&mut self) -> &mut CameraRig;

    /// Where the frame drawn last looked from and at.
    fn drawn_camera(&self) -> CameraDraw;

    /// Writes what the frame drawn last shows into a drawn-log line: its render tick, its
    /// camera and every entity drawn, with ids as the game's truth log gives them.
    fn record(&self, line: &mut DrawnFrame);
}
