//! A spectator labels the characters it watches as a player does: players by the names they
//! joined under, townspeople by their names in the level, never as unknown once the host has
//! said who they are.

use std::net::UdpSocket;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fixstep_game::PlayerCommand;
use fixstep_game::state::Role;
use fixstep_render::app::session::{HostPlay, PlaySession, SpectatePlay};
use fixstep_render::assets::{default_assets_root, load};
use fixstep_render::net_game::HostOptions;

/// A 60 Hz frame, microseconds.
const FRAME_MICROS: u64 = 16_667;

#[test]
fn a_spectator_knows_every_character_it_draws_by_name() {
    let assets = default_assets_root();
    let level = Arc::new(load(&assets, &assets.join("levels").join("town.ron")).expect("loads"));
    let addr = UdpSocket::bind("127.0.0.1:0").and_then(|s| s.local_addr()).expect("binds");
    let reports = std::env::temp_dir().join(format!("fixstep-labels-{}", std::process::id()));
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
    let mut spectator = SpectatePlay::new(Arc::clone(&level), addr, "eve").expect("binds");
    let held = PlayerCommand::default();
    let start = Instant::now();
    // Until the spectator draws the host's character, and a while after, for the view's delay.
    let mut drawn_player_at = None;
    while start.elapsed() < Duration::from_secs(10)
        && drawn_player_at.is_none_or(|at: Instant| at.elapsed() < Duration::from_millis(500))
    {
        std::thread::sleep(Duration::from_micros(FRAME_MICROS));
        host.frame(FRAME_MICROS, &held, 0).expect("the host plays");
        let frame = spectator.frame(FRAME_MICROS, &held, 0).expect("the spectator watches");
        if drawn_player_at.is_none() && frame.characters.iter().any(|c| c.role == Role::Player(0)) {
            drawn_player_at = Some(Instant::now());
        }
    }
    let frame = spectator.drawn();
    assert!(drawn_player_at.is_some(), "the host's character is drawn as player 0");
    assert_eq!(frame.player_names.iter().map(|n| &**n).collect::<Vec<_>>(), ["ada"]);
    assert!(!frame.characters.is_empty());
    for c in &frame.characters {
        match c.role {
            Role::Player(p) => {
                assert_eq!(p, 0, "only the host plays");
                // Standing by the fountain, away from the roads: told whole, drawn whole.
                assert_eq!(c.sample.health, fixstep_game::tuning::MAX_HEALTH as f32);
            }
            Role::Pedestrian(i) => assert!((i as usize) < level.pedestrians.len(), "{i}"),
            Role::Talker(i) => assert!((i as usize) < level.talkers.len(), "talker {i}"),
        }
    }
    host.close();
    spectator.close();
    let _ = std::fs::remove_dir_all(reports);
}
