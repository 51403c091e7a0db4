//! The town as a game of the layers above the core: [`Town`], the one type through which the
//! frame loops, network play, the window and the tools run it. It names the town's rules
//! (their simulation, held-input integrator and bots) and this crate's presentation,
//! spectators' feed and view, and says how a desync report names the town's entities and how
//! a test makes a peer differ on purpose.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_present::LocalGame;
//! use fixstep_runtime::{Player, Rules};
//! use fixstep_town_view::Town;
//!
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let level = Town::load_content(assets, &Town::default_content(assets)).expect("the town loads");
//! let mut game = LocalGame::<Town>::new(&Arc::new(level), 1, 1, Player::FIRST);
//! game.step(&[Default::default()]).expect("a tick runs");
//! assert_eq!(game.tick().0, 1);
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{TownFeed, TownPresentation, TownSource, TownSpectator, TownUpdate};
use fixstep_netplay::NetRules;
use fixstep_netplay::desync::index_after;
use fixstep_netplay_view::NetGame;
use fixstep_netplay_view::ground::GroundPoint;
use fixstep_present::format::TruthEntity;
use fixstep_present::{ControlNames, Controls, Game};
use fixstep_runtime::file::{ContentFiles, ContentReader};
use fixstep_runtime::net::GameData;
use fixstep_runtime::{ContentDigest, Player, Rules, Simulation};
use fixstep_town::bots::TownBot;
use fixstep_town::level::{Level, LevelError};
use fixstep_town::predict::{InputAccumulator, OwnBody, OwnMovement};
use fixstep_town::state::GameState;
use fixstep_town::{GameSnapshot, PlayerCommand, TownSim};

/// Turn per tick while a turn key is held, 2^-16 of a turn: 1/32 turn per 100 ms, about 112°
/// a second, quick enough to look round and slow enough to aim at a door.
pub const KEY_TURN_PER_TICK: i32 = 2_048;

/// Full deflection of a control, percent.
const FULL_PERCENT: i32 = 100;

/// The town; see the [crate documentation](crate).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Town;

impl Rules for Town {
    type Sim = TownSim;
    type Content = Level;
    type ContentError = LevelError;
    type Input = InputAccumulator;
    type Bot = TownBot;
    const NAME: &'static str = "town";
    const MAX_PLAYERS: usize = fixstep_town::MAX_PLAYERS;

    fn default_content(assets: &Path) -> PathBuf {
        crate::assets::default_level(assets)
    }

    fn read_content(reader: &ContentReader, file: &Path) -> Result<Level, LevelError> {
        fixstep_town::level::read_level(reader, file)
    }

    fn content_files(level: &Level) -> &ContentFiles {
        &level.files
    }

    fn content_title(level: &Level) -> &str {
        &level.name
    }

    fn content_source(level: &Level) -> &str {
        &level.source
    }

    fn content_digest(level: &Level) -> ContentDigest {
        level.digest()
    }

    fn new_sim(level: &Arc<Level>, seed: u64, players: usize) -> TownSim {
        TownSim::new(Arc::clone(level), seed, players)
    }

    fn bot(level: &Arc<Level>, player: Player) -> TownBot {
        TownBot::new(player, level)
    }
}

impl Game for Town {
    type Own = OwnBody;
    type Presentation = TownPresentation;
    const CONTROL_NAMES: ControlNames = ControlNames {
        moving: "move",
        directions: ["Forward", "Back", "Step left", "Step right"],
        turning: Some(["Turn left", "Turn right"]),
        run: Some("Run"),
        action: Some("Interact"),
    };
    const MOUSE_TURNS: bool = true;

    /// W/S walk forward and back, A/D step left and right, the run key runs, the turn keys
    /// turn at [`KEY_TURN_PER_TICK`], the action key interacts.
    fn held(controls: &Controls) -> PlayerCommand {
        let turn = i32::from(controls.turn) * KEY_TURN_PER_TICK / FULL_PERCENT;
        PlayerCommand {
            forward: controls.forward,
            strafe: controls.strafe,
            // At most KEY_TURN_PER_TICK, an i16.
            turn: turn as i16,
            run: controls.run,
            interact: controls.interact,
        }
    }

    /// Forward, strafe, key turn per tick, run.
    fn held_numbers(command: &PlayerCommand) -> [i32; 4] {
        [command.forward.into(), command.strafe.into(), command.turn.into(), i32::from(command.run)]
    }

    fn own(sim: &TownSim, player: Player) -> Option<OwnBody> {
        OwnMovement::body(sim, player)
    }

    fn presentation(level: &Arc<Level>, player: Player) -> TownPresentation {
        TownPresentation::new(Arc::clone(level), player)
    }

    fn truth(
        level: &Level,
        previous: Option<&GameSnapshot>,
        current: &GameSnapshot,
        out: &mut Vec<TruthEntity>,
    ) {
        crate::record::truth(level, previous, current, out);
    }
}

impl GameData for Town {
    type Command = PlayerCommand;
    type SpectatorUpdate = TownUpdate;
    type SpectatorView = GroundPoint;
}

impl NetGame for Town {
    type Spectator = TownSpectator;
}

impl NetRules for Town {
    type Feed = TownFeed;
    type Source = TownSource;

    fn spectator_source(sim: &TownSim, source: &mut TownSource) {
        source.fill(sim.next_tick(), sim.snapshot());
    }

    fn spectator_update(
        source: &TownSource,
        feed: &mut TownFeed,
        view: &GroundPoint,
    ) -> TownUpdate {
        feed.update(source, *view)
    }

    /// `character 12v0 (player 1)`, `taxi 3`, `object 2`; `None` for state outside any entity
    /// (the clock, the random numbers).
    fn entity_at(state: &GameState, path: &str) -> Option<String> {
        if let Some(slot) = index_after(path, "characters.values[") {
            let id = state.characters.ids().find(|id| id.index as usize == slot)?;
            let role = state
                .players
                .iter()
                .position(|p| *p == id)
                .map_or_else(|| "an NPC".to_owned(), |player| format!("player {player}"));
            return Some(format!("character {id} ({role})"));
        }
        if let Some(index) = index_after(path, "taxis[") {
            return Some(format!("taxi {index}"));
        }
        index_after(path, "objects[").map(|index| format!("object {index}"))
    }

    /// Takes a point of health from the player's character.
    fn perturb(sim: &mut TownSim, player: Player) {
        let mut state = sim.state().clone();
        let id = state.players.get(player.index()).copied();
        if let Some(character) = id.and_then(|id| state.characters.get_mut(id)) {
            // A metre east: a divergence that lasts, as a bug in the rules' copy would make
            // (a point of health would heal by the next tick and hide it).
            character.pos.x += fixstep_runtime::math::Fx::ONE;
            sim.restore(&state);
        }
    }
}
