//! What a game's rules are, as every layer above the core runs them: its simulation, what a
//! simulation of it is built from (its content), how held keys become its commands, and a
//! scripted player. A game implements [`Rules`] on a type of its own that describes it (a unit
//! struct, in the manner of ggrs's `Config`); what drawing adds (a presentation, the own
//! character's prediction, the truth of where things are, the keys' help line) is the
//! presentation layer's `Game`, which builds on this. Network play's host side, replays, the
//! sync test and headless runs need nothing more than this.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::file::{ContentFiles, ContentReader};
use crate::input::{Bot, HeldInput};
use crate::script::TextCommand;
use crate::{ContentDigest, Player, Simulation};

/// A player's command in game `R`.
pub type CommandOf<R> = <<R as Rules>::Sim as Simulation>::Command;

/// The snapshot game `R` publishes after each tick.
pub type SnapshotOf<R> = <<R as Rules>::Sim as Simulation>::Snapshot;

/// The state of game `R`.
pub type StateOf<R> = <<R as Rules>::Sim as Simulation>::State;

/// What has been held of the tick under way, in game `R`.
pub type PartialOf<R> = <<R as Rules>::Input as HeldInput>::Partial;

/// A game's rules and what they are built from.
pub trait Rules: Sized + 'static {
    /// Its simulation.
    type Sim: Simulation<Command: TextCommand + Send, Snapshot: Send + Sync> + Send + 'static;
    /// What a simulation of it is built from (a level, an arena's layout): loaded once and
    /// shared by the simulation and everything that draws it.
    type Content: Send + Sync + 'static;
    /// Why content does not load: naming the file, and the line where there is one.
    type ContentError: std::error::Error + Send + Sync + 'static;
    /// How what a player holds over a tick becomes its command.
    type Input: HeldInput<Command = CommandOf<Self>> + Send;
    /// A scripted player, for headless runs and tests.
    type Bot: Bot<Self::Sim> + Send;

    /// Its name, as the command line and the window title give it.
    const NAME: &'static str;

    /// The most players one simulation holds.
    const MAX_PLAYERS: usize;

    /// The content played when none is named, under the assets root.
    fn default_content(assets: &Path) -> PathBuf;

    /// Loads the content in `file` (other files it names are under `assets`).
    ///
    /// # Errors
    ///
    /// Every problem of the file, naming it.
    fn load_content(assets: &Path, file: &Path) -> Result<Self::Content, Self::ContentError> {
        Self::read_content(&ContentReader::folder(assets), file)
    }

    /// Loads content through `reader`: from a folder, the file `file` and the files it names
    /// under the folder; from files a replay carries, the one they call their own (`file` is
    /// then unused). Every file is read through `reader`, which keeps what
    /// [`content_files`](Self::content_files) returns, and checked as a file from disk is.
    ///
    /// # Errors
    ///
    /// Every problem of the files, naming each.
    fn read_content(
        reader: &ContentReader,
        file: &Path,
    ) -> Result<Self::Content, Self::ContentError>;

    /// The files the content was read from (empty for content made in code): what a replay
    /// carries so that it plays where the assets differ or are missing.
    fn content_files(content: &Self::Content) -> &ContentFiles;

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
    fn bot(content: &Arc<Self::Content>, player: Player) -> Self::Bot;
}
