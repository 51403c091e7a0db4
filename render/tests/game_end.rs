//! When the host ends the game (its match is over, or it was stopped), a player's and a
//! spectator's windows stay open on their last picture and say so; the game is over, not
//! broken, and the player leaves with Esc.

use std::net::UdpSocket;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fixstep_game::PlayerCommand;
use fixstep_render::app::session::{HostPlay, JoinPlay, PlaySession, SpectatePlay};
use fixstep_render::assets::{default_assets_root, load};
use fixstep_render::gpu::Hud;
use fixstep_render::net_game::HostOptions;

/// A 60 Hz frame, microseconds.
const FRAME_MICROS: u64 = 16_667;

/// Runs `sessions` a frame at a time until `done` or ten seconds.
fn frames(sessions: &mut [&mut dyn PlaySession], mut done: impl FnMut(&[Hud]) -> bool) -> Vec<Hud> {
    let start = Instant::now();
    let held = PlayerCommand::default();
    loop {
        std::thread::sleep(Duration::from_micros(FRAME_MICROS));
        let mut huds = Vec::new();
        for session in sessions.iter_mut() {
            session.frame(FRAME_MICROS, &held, 0).expect("the game is over, not broken");
            let mut hud = Hud::default();
            session.hud(&mut hud);
            huds.push(hud);
        }
        if done(&huds) || start.elapsed() > Duration::from_secs(10) {
            return huds;
        }
    }
}

#[test]
fn players_and_spectators_are_told_the_host_ended_the_game() {
    let assets = default_assets_root();
    let level = Arc::new(load(&assets, &assets.join("levels").join("town.ron")).expect("loads"));
    let addr = UdpSocket::bind("127.0.0.1:0").and_then(|s| s.local_addr()).expect("binds");
    let reports = std::env::temp_dir().join(format!("fixstep-game-end-{}", std::process::id()));
    let options = HostOptions {
        bind: addr,
        also_reachable_at: Vec::new(),
        max_players: 4,
        own_player: true,
        seed: 1,
        name: "ada".to_owned(),
        reports: reports.clone(),
    };
    let mut host = HostPlay::new(Arc::clone(&level), &options).expect("the host binds");
    let mut peer = JoinPlay::new(Arc::clone(&level), addr, "bob", reports.clone()).expect("binds");
    let mut spectator = SpectatePlay::new(Arc::clone(&level), addr, "eve").expect("binds");
    let playing = frames(&mut [&mut host, &mut peer, &mut spectator], |huds| {
        huds[1].tick > 5 && huds[2].tick > 5
    });
    assert!(playing[1].tick > 5 && playing[2].tick > 5, "both are in the game first");
    host.close();
    let said = |hud: &Hud| hud.network.as_deref().is_some_and(|n| n.contains("ended the game"));
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
    let _ = std::fs::remove_dir_all(reports);
}
