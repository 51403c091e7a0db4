//! # fixstep-arena-view
//!
//! The arena (`fixstep-arena`) as a game of the layers above its rules: [`Arena`], the one
//! type the frame loops, network play, the window and the tools run it through. The arena is
//! drawn as shapes (`fixstep_present::shapes`): here are its shapes' looks, its scenery and
//! camera, what its spectators are sent, how held keys become its commands, and how a desync
//! report names its pushers and pucks. Like its rules, it holds no float: the presentation
//! turns its fixed-point poses into floats.
//!
//! ```
//! use std::sync::Arc;
//! use fixstep_arena::ArenaCommand;
//! use fixstep_arena_view::Arena;
//! use fixstep_present::LocalGame;
//! use fixstep_runtime::{Player, Rules};
//!
//! let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
//! let rink = Arena::load_content(assets, &Arena::default_content(assets)).expect("the rink loads");
//! let mut game = LocalGame::<Arena>::new(&Arc::new(rink), 1, 2, Player::FIRST);
//! let east = ArenaCommand { x: 100, y: 0, dash: false };
//! for _ in 0..10 {
//!     game.step(&[east, ArenaCommand::default()]).expect("a tick runs");
//! }
//! assert_eq!(game.tick().0, 10);
//! ```

mod own;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fixstep_netplay::NetRules;
use fixstep_netplay::desync::index_after;
use fixstep_netplay_view::NetGame;
use fixstep_netplay_view::ground::GroundPoint;
use fixstep_netplay_view::shapes::{
    ShapeFeed, ShapeSource, ShapeSpectator, ShapeUpdate, spectator_source,
};
use fixstep_present::format::TruthEntity;
use fixstep_present::remote::Motion;
use fixstep_present::shapes::{
    Look, Scenery, Shape, ShapeCamera, ShapeGame, ShapeKind, ShapePose, ShapePresentation,
    shape_truth,
};
use fixstep_present::{ControlNames, Controls, Game};
use fixstep_runtime::file::{ContentFiles, ContentReader};
use fixstep_runtime::input::SampledInput;
use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3, fx_ratio};
use fixstep_runtime::net::GameData;
use fixstep_runtime::{ContentDigest, Player, Rules, Simulation, Tick};

use fixstep_arena::rules::team_of;
use fixstep_arena::{
    ArenaBot, ArenaCommand, ArenaSim, ArenaState, Layout, LayoutError, MAX_PLAYERS, MM_PER_M,
    PUCK_RADIUS_MM, PUSHER_RADIUS_MM, Pusher, read_layout,
};

pub use own::PusherRules;

/// The arena; see the [crate documentation](crate).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arena;

/// The first id of pucks among the shapes: above any player's pusher.
const PUCK_ID_BASE: u64 = 1_000;

/// Seconds in a minute, for the clock of the status line.
const SECONDS_PER_MINUTE: u32 = 60;

/// A puck's kind: its index in [`KINDS`] (a pusher's is its team).
const KIND_PUCK: u16 = 2;

/// A pusher's height, millimetres: a low disc that a camera high over the rink sees whole.
const PUSHER_HEIGHT_MM: u32 = 600;

/// A puck's height, millimetres: flatter than a pusher, so the two never look alike.
const PUCK_HEIGHT_MM: u32 = 150;

/// The boards' height, millimetres: under a pusher's, so no wall hides a player from the
/// slanted camera.
const WALL_HEIGHT_MM: u32 = 500;

/// The boards' thickness, millimetres: enough to read as a wall from the camera's height.
const WALL_MM: u32 = 400;

/// The ice's thickness, millimetres: a slab just above the ground plane, so nothing flickers
/// against it.
const FLOOR_MM: u32 = 20;

/// Team 0's colour (sRGB): blue, its pushers and the goal it defends.
const BLUE: [u8; 3] = [40, 110, 230];

/// Team 1's colour (sRGB): orange, far from blue for any eye.
const ORANGE: [u8; 3] = [235, 120, 30];

/// A puck's colour (sRGB): near black, the strongest contrast on ice.
const PUCK_COLOUR: [u8; 3] = [30, 30, 36];

/// The ice's colour (sRGB): pale blue-grey, under everything else.
const ICE: [u8; 3] = [120, 160, 190];

/// The boards' colour (sRGB): light grey, apart from the ice and both teams.
const BOARDS: [u8; 3] = [200, 200, 210];

/// The camera's height over the rink, as a share of the rink's half length: with
/// [`CAMERA_SOUTH`], the whole rink, boards and goals in a 16:9 picture, seen at a slant of about 55°.
const CAMERA_HEIGHT: Fx = fx_ratio(7, 5);

/// The camera's distance south of the rink's centre, as a share of its half length.
const CAMERA_SOUTH: Fx = fx_ratio(1, 1);

/// A pusher's look, in its team's colour.
const fn pusher_look(colour: [u8; 3]) -> Look {
    let radius_mm = PUSHER_RADIUS_MM.unsigned_abs();
    Look { shape: Shape::Cylinder { radius_mm, height_mm: PUSHER_HEIGHT_MM }, colour }
}

/// What the pushers and pucks look like, by kind: a blue pusher, an orange pusher, a puck.
/// All are drawn along straight segments between measurements: a puck's velocity turns at
/// once when it bounces, where a curve through the measured velocities overshoots (measured
/// on a spectator over a bad link: 9 % of puck frames off pace and 17 reversals drawn as
/// curves, 0.2 % and none as segments).
static KINDS: [ShapeKind; 3] = [
    ShapeKind { name: "pusher", look: pusher_look(BLUE), motion: Motion::Walker },
    ShapeKind { name: "pusher", look: pusher_look(ORANGE), motion: Motion::Walker },
    ShapeKind {
        name: "puck",
        look: Look {
            shape: Shape::Cylinder {
                radius_mm: PUCK_RADIUS_MM.unsigned_abs(),
                height_mm: PUCK_HEIGHT_MM,
            },
            colour: PUCK_COLOUR,
        },
        motion: Motion::Walker,
    },
];

/// A length in metres as whole millimetres (a rink's sizes are whole millimetres).
fn mm_of(metres: Fx) -> u32 {
    fixstep_netplay_view::ground::mm(metres).unsigned_abs()
}

/// A length in whole millimetres as metres.
fn metres_of(mm: u32) -> Fx {
    fx_ratio(i32::try_from(mm).unwrap_or(i32::MAX), MM_PER_M)
}

impl Rules for Arena {
    type Sim = ArenaSim;
    type Content = Layout;
    type ContentError = LayoutError;
    type Input = SampledInput<ArenaCommand>;
    type Bot = ArenaBot;
    const NAME: &'static str = "arena";
    const MAX_PLAYERS: usize = MAX_PLAYERS;

    fn default_content(assets: &Path) -> PathBuf {
        assets.join("arena").join("arena.ron")
    }

    fn read_content(reader: &ContentReader, file: &Path) -> Result<Layout, LayoutError> {
        read_layout(reader, file)
    }

    fn content_files(layout: &Layout) -> &ContentFiles {
        &layout.files
    }

    fn content_title(layout: &Layout) -> &str {
        &layout.name
    }

    fn content_source(layout: &Layout) -> &str {
        &layout.source
    }

    fn content_digest(layout: &Layout) -> ContentDigest {
        ContentDigest::of(layout)
    }

    fn new_sim(layout: &Arc<Layout>, seed: u64, players: usize) -> ArenaSim {
        ArenaSim::new(Arc::clone(layout), seed, players)
    }

    fn bot(layout: &Arc<Layout>, player: Player) -> ArenaBot {
        ArenaBot::new(player, layout)
    }
}

impl Game for Arena {
    type Own = Pusher;
    type Presentation = ShapePresentation<Self>;
    /// The stick points on the rink (forward is north); no turning, no running.
    const CONTROL_NAMES: ControlNames = ControlNames {
        moving: "skate",
        directions: ["North", "South", "West", "East"],
        turning: None,
        run: None,
        action: Some("Dash"),
    };
    const MOUSE_TURNS: bool = false;

    /// The movement keys point the stick (forward north, strafe east); the action key dashes.
    fn held(controls: &Controls) -> ArenaCommand {
        ArenaCommand { x: controls.strafe, y: controls.forward, dash: controls.interact }
    }

    fn held_numbers(command: &ArenaCommand) -> [i32; 4] {
        [command.y.into(), command.x.into(), 0, 0]
    }

    fn own(sim: &ArenaSim, player: Player) -> Option<Pusher> {
        sim.state().pushers.get(player.index()).copied().flatten()
    }

    fn presentation(layout: &Arc<Layout>, player: Player) -> ShapePresentation<Self> {
        ShapePresentation::new(layout, Some(player))
    }

    fn truth(
        _layout: &Layout,
        _previous: Option<&ArenaState>,
        current: &ArenaState,
        out: &mut Vec<TruthEntity>,
    ) {
        shape_truth::<Self>(current, out);
    }
}

impl ShapeGame for Arena {
    type OwnRules = PusherRules;

    fn own_rules(layout: &Arc<Layout>) -> PusherRules {
        PusherRules::new(layout)
    }

    fn kinds() -> &'static [ShapeKind] {
        &KINDS
    }

    fn scenery(layout: &Layout) -> Vec<Scenery> {
        let (length, width) = (mm_of(layout.half_length) * 2, mm_of(layout.half_width) * 2);
        let goal = mm_of(layout.goal_half_width) * 2;
        let block = |x: Fx, y: Fx, size_mm: [u32; 3], colour: [u8; 3]| Scenery {
            at: Vec2::new(x, y),
            yaw: Angle::ZERO,
            look: Look { shape: Shape::Block { size_mm }, colour },
        };
        let wall = metres_of(WALL_MM / 2);
        let (hx, hy) = (layout.half_length + wall, layout.half_width + wall);
        // The short walls' two pieces, each from a corner to a goal post.
        let side = (width - goal) / 2;
        let side_y = layout.goal_half_width + metres_of(side / 2);
        let mut scenery = vec![
            block(Fx::ZERO, Fx::ZERO, [length, FLOOR_MM, width], ICE),
            block(Fx::ZERO, hy, [length + 2 * WALL_MM, WALL_HEIGHT_MM, WALL_MM], BOARDS),
            block(Fx::ZERO, -hy, [length + 2 * WALL_MM, WALL_HEIGHT_MM, WALL_MM], BOARDS),
        ];
        for x in [hx, -hx] {
            for y in [side_y, -side_y] {
                scenery.push(block(x, y, [WALL_MM, WALL_HEIGHT_MM, side], BOARDS));
            }
        }
        // The goals: a net behind each mouth, in the colour of the team that defends it.
        let net = hx + wall * 2;
        scenery.push(block(-net, Fx::ZERO, [WALL_MM, WALL_HEIGHT_MM, goal], BLUE));
        scenery.push(block(net, Fx::ZERO, [WALL_MM, WALL_HEIGHT_MM, goal], ORANGE));
        scenery
    }

    fn camera(layout: &Layout) -> ShapeCamera {
        let reach = layout.half_length;
        ShapeCamera {
            eye: Vec3::new(Fx::ZERO, reach * CAMERA_HEIGHT, reach * CAMERA_SOUTH),
            target: Vec3::new(Fx::ZERO, Fx::ZERO, Fx::ZERO),
        }
    }

    fn tick_of(state: &ArenaState) -> Tick {
        state.next
    }

    fn shapes(state: &ArenaState, each: &mut dyn FnMut(ShapePose)) {
        for (player, p) in Player::all(state.pushers.len()).zip(&state.pushers) {
            let Some(p) = p else { continue };
            each(ShapePose {
                id: u64::from(player.0),
                kind: team_of(player) as u16,
                pos: p.pos,
                yaw: p.facing,
                velocity: p.vel,
                // The rules never move a pusher somewhere new, but a newcomer in a seat just
                // freed is a new pusher, seated at a later tick: never blended from the one
                // who left.
                jumps: p.seated_at.0,
                player: Some(player),
            });
        }
        for (i, puck) in state.pucks.iter().enumerate() {
            each(ShapePose {
                id: PUCK_ID_BASE + i as u64,
                kind: KIND_PUCK,
                pos: puck.pos,
                yaw: Angle::ZERO,
                velocity: puck.vel,
                jumps: puck.jumps,
                player: None,
            });
        }
    }

    fn status(state: &ArenaState, out: &mut String) {
        let seconds = state.next.0 / fixstep_runtime::tick::TICKS_PER_SECOND;
        let (minutes, seconds) = (seconds / SECONDS_PER_MINUTE, seconds % SECONDS_PER_MINUTE);
        let [blue, orange] = state.score;
        // Writing into a String cannot fail.
        let _ = write!(out, "blue {blue} : {orange} orange    {minutes}:{seconds:02}");
    }
}

impl GameData for Arena {
    type Command = ArenaCommand;
    type SpectatorUpdate = ShapeUpdate;
    type SpectatorView = GroundPoint;
}

impl NetGame for Arena {
    type Spectator = ShapeSpectator<Self>;
}

impl NetRules for Arena {
    type Feed = ShapeFeed;
    type Source = ShapeSource;

    fn spectator_source(sim: &ArenaSim, source: &mut ShapeSource) {
        spectator_source::<Self>(sim, source);
    }

    fn spectator_update(
        source: &ShapeSource,
        feed: &mut ShapeFeed,
        view: &GroundPoint,
    ) -> ShapeUpdate {
        feed.update(source, *view)
    }

    /// `pusher 3 (player 3)`, `puck 1`.
    fn entity_at(_state: &ArenaState, path: &str) -> Option<String> {
        if let Some(player) = index_after(path, "pushers[") {
            return Some(format!("pusher {player} (player {player})"));
        }
        index_after(path, "pucks[").map(|puck| format!("puck {puck}"))
    }

    /// Moves the player's pusher a metre east.
    fn perturb(sim: &mut ArenaSim, player: Player) {
        let mut state = sim.state().clone();
        if let Some(Some(pusher)) = state.pushers.get_mut(player.index()) {
            pusher.pos.x += Fx::ONE;
            sim.restore(&state);
        }
    }
}
