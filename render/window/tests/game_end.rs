//! When the host ends the match (its game is over, or it was stopped), a player's and a
//! spectator's windows stay open on their last picture and say so; the game is over, not
//! broken, and the player leaves with Esc.

mod loopback;

use fixstep_gpu::Hud;
use fixstep_net::Admission;
use fixstep_town::Town;
use fixstep_window::session::{HostPlay, JoinPlay, PlaySession, SpectatePlay};
use loopback::{Loopback, frames};

#[test]
fn players_and_spectators_are_told_the_host_ended_the_match() {
    let game = Loopback::new("game-end");
    let mut host =
        HostPlay::<Town>::new(&game.level, &game.host_options()).expect("the host binds");
    let mut peer =
        JoinPlay::<Town>::new(&game.level, &game.peer_options("bob")).expect("the peer binds");
    let mut spectator =
        SpectatePlay::<Town>::new(&game.level, game.addr, "eve", &Admission::Open).expect("binds");
    let playing = frames(&mut [&mut host, &mut peer, &mut spectator], |huds| {
        huds[1].tick > 5 && huds[2].tick > 5
    });
    assert!(playing[1].tick > 5 && playing[2].tick > 5, "both are in the game first");
    host.close();
    let said = |hud: &Hud| hud.network.as_deref().is_some_and(|n| n.contains("ended the match"));
    let ended = frames(&mut [&mut peer, &mut spectator], |huds| huds.iter().all(said));
    assert!(said(&ended[0]), "the player is told: {:?}", ended[0].network);
    assert!(said(&ended[1]), "the spectator is told: {:?}", ended[1].network);
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
