//! When the host ends the match (its game is over, or it was stopped), a player's and a
//! spectator's sessions keep their last picture and say so, with the way out (Esc for the
//! menu): the game is over, not broken. These sessions run without a window, so no key is
//! pressed here; Esc and its menu's Leave are pressed in a real window by
//! `render/fixstep/tests/front_screen.rs`.

mod loopback;

use fixstep_gpu::{Hud, NetworkLine};
use fixstep_net::Admission;
use fixstep_town_view::Town;
use fixstep_window::session::{JoinPlay, PlaySession, SpectatePlay};
use loopback::{Loopback, frames};

/// Where the HUD points a player whose game has ended: the window's menu, opened with Esc.
const WAY_OUT: &str = "Esc for the menu";

/// Protects the end of a match as the others see it: a player and a spectator in the game are
/// told in words that the host ended it and how to leave, and their last picture stays, still.
#[test]
fn players_and_spectators_are_told_the_host_ended_the_match_and_keep_its_last_picture() {
    let mut game = Loopback::new("game-end");
    let mut host = game.host();
    let mut peer =
        JoinPlay::<Town>::new(&game.level, &game.peer_options("bob")).expect("the peer binds");
    let mut spectator =
        SpectatePlay::<Town>::new(&game.level, game.addr(), "eve", &Admission::Open, None)
            .expect("binds");
    let playing = frames(&mut [&mut host, &mut peer, &mut spectator], |huds| {
        huds[1].tick > 5 && huds[2].tick > 5
    });
    assert!(playing[1].tick > 5 && playing[2].tick > 5, "both are in the game first");
    host.close();
    let said = |hud: &Hud| matches!(&hud.network, Some(NetworkLine::Ended(words)) if words.contains("ended the match"));
    let ended = frames(&mut [&mut peer, &mut spectator], |huds| huds.iter().all(said));
    assert!(said(&ended[0]), "the player is told: {:?}", ended[0].network);
    assert!(said(&ended[1]), "the spectator is told: {:?}", ended[1].network);
    for (who, hud) in ["the player", "the spectator"].into_iter().zip(&ended) {
        let network = hud.network.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(network.contains(WAY_OUT), "{who} is told how to leave: {network:?}");
    }
    let last = (peer.drawn().render_tick, peer.drawn().characters.len());
    assert!(last.1 > 0, "a picture of the town, not an empty one");
    let mut more = 0;
    frames(&mut [&mut peer, &mut spectator], |_| {
        more += 1;
        more == 10
    });
    let now = (peer.drawn().render_tick, peer.drawn().characters.len());
    assert_eq!(now, last, "the last picture stays, still");
}
