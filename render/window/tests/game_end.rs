//! When the host ends the match (its game is over, or it was stopped), a player's and a
//! spectator's sessions keep their last picture and say so, with the way out (Esc for the
//! menu): the game is over, not broken. When the host only leaves, a player takes the match
//! over and it goes on, the player's HUD saying who left and who hosts now. These sessions run without a window, so no key is
//! pressed here; Esc and its menu's Leave are pressed in a real window by
//! `render/fixstep/tests/front_screen.rs`.

mod loopback;

use fixstep_gpu::{HostChange, Hud, NetworkLine};
use fixstep_net::Admission;
use fixstep_town_view::Town;
use fixstep_window::session::{JoinPlay, PlaySession, SpectatePlay};
use loopback::{Loopback, frames};

/// Where the HUD points a player whose game has ended: the window's menu, opened with Esc.
const WAY_OUT: &str = "Esc for the menu";

/// Bob joins the game to play, and eve to watch.
fn bob_and_eve(game: &Loopback) -> (JoinPlay<Town>, SpectatePlay<Town>) {
    let peer =
        JoinPlay::<Town>::new(&game.level, &game.peer_options("bob")).expect("the peer binds");
    let spectator =
        SpectatePlay::<Town>::new(&game.level, game.addr(), "eve", &Admission::Open, None)
            .expect("binds");
    (peer, spectator)
}

/// Protects the end of a match as the others see it: a player and a spectator in the game are
/// told in words that the host ended it and how to leave, and their last picture stays, still.
#[test]
fn players_and_spectators_are_told_the_host_ended_the_match_and_keep_its_last_picture() {
    let mut game = Loopback::new("game-end");
    let mut host = game.host();
    let (mut peer, mut spectator) = bob_and_eve(&game);
    let playing = frames(&mut [&mut host, &mut peer, &mut spectator], |huds| {
        huds[1].tick > 5 && huds[2].tick > 5
    });
    assert!(playing[1].tick > 5 && playing[2].tick > 5, "both are in the game first");
    host.end_match();
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

/// The change of host a player's HUD tells of, once the match went on under the new host.
fn host_change(hud: &Hud) -> Option<&HostChange> {
    match &hud.network {
        Some(NetworkLine::Playing(line)) => {
            line.host_change.as_ref().filter(|c| c.pause_ms.is_some())
        }
        _ => None,
    }
}

/// Protects the hand-over of a host that leaves (its pause menu's Leave): its player takes
/// the match over and plays on at once, its HUD saying who left, who hosts now and how long
/// the match paused (no second of silence to wait out: the host said it was going); the
/// spectator watches on.
#[test]
fn a_host_that_leaves_hands_the_match_to_its_player_who_plays_on_and_says_so() {
    let mut game = Loopback::new("hand-over");
    let mut host = game.host();
    let (mut peer, mut spectator) = bob_and_eve(&game);
    // Long enough for bob's offer to host to have reached every peer.
    let playing = frames(&mut [&mut host, &mut peer, &mut spectator], |huds| {
        huds[1].tick > 15 && huds[2].tick > 15
    });
    let left_at = playing[1].tick;
    host.close();
    let after = frames(&mut [&mut peer, &mut spectator], |huds| {
        host_change(&huds[0]).is_some()
            && huds[0].tick > left_at + 20
            && huds[1].tick > left_at + 10
    });
    let change = host_change(&after[0])
        .unwrap_or_else(|| panic!("the HUD tells of the change: {:?}", after[0].network));
    assert_eq!((change.left.as_str(), change.hosts.as_str()), ("ada", "bob"));
    let paused = change.pause_ms.unwrap_or(u64::MAX);
    assert!(paused < 1_000, "a host that says it goes costs no second of silence: {paused} ms");
    assert!(after[0].tick > left_at + 20, "bob plays on: tick {}", after[0].tick);
    assert!(
        matches!(after[1].network, Some(NetworkLine::Watching { .. }))
            && after[1].tick > left_at + 10,
        "eve watches on: {:?} at tick {}",
        after[1].network,
        after[1].tick
    );
}
