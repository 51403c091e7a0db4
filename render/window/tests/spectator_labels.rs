//! A spectator labels the characters it watches as a player does: players by the names they
//! joined under, townspeople by their names in the level, never as unknown once the host has
//! said who they are.

mod loopback;

use fixstep_net::Admission;
use fixstep_runtime::Player;
use fixstep_town::state::Role;
use fixstep_town_view::Town;
use fixstep_window::session::{PlaySession, SpectatePlay};
use loopback::{Loopback, frames};

/// The host tick the spectator is to have drawn up to: a second and a half of the game, long
/// past the first poses and the roster.
const WATCHED_TICK: u32 = 15;

/// Protects the spectator's labels: once it has drawn a second and a half of the game (which
/// it must reach), the host's player is drawn under its name and every townsperson as one of
/// the level's.
#[test]
fn a_spectator_knows_every_character_it_draws_by_name() {
    let mut game = Loopback::new("labels");
    let mut host = game.host();
    let level = &game.level;
    let mut spectator =
        SpectatePlay::<Town>::new(&game.level, game.addr(), "eve", &Admission::Open, None)
            .expect("binds");
    let huds = frames(&mut [&mut host, &mut spectator], |huds| huds[1].tick >= WATCHED_TICK);
    assert!(
        huds[1].tick >= WATCHED_TICK,
        "the spectator drew up to tick {}, not {WATCHED_TICK}",
        huds[1].tick
    );
    let frame = spectator.drawn();
    assert!(
        frame.characters.iter().any(|c| c.role == Role::Player(Player(0))),
        "the host's character is drawn as player 0"
    );
    assert_eq!(frame.player_names.iter().map(|n| &**n).collect::<Vec<_>>(), ["ada"]);
    for c in &frame.characters {
        match c.role {
            Role::Player(p) => {
                assert_eq!(p, Player(0), "only the host plays");
                // Standing by the fountain, away from the roads: told whole, drawn whole.
                assert_eq!(c.sample.health, fixstep_town::tuning::MAX_HEALTH as f32);
            }
            Role::Pedestrian(i) => assert!((i as usize) < level.pedestrians.len(), "{i}"),
            Role::Talker(i) => assert!((i as usize) < level.talkers.len(), "talker {i}"),
        }
    }
    host.close();
    spectator.close();
}
