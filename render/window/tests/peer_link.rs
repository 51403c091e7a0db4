//! A player's window that draws slowly still answers the host at once: its socket is served
//! from a thread, not between frames.

mod loopback;

use std::time::{Duration, Instant};

use fixstep_gpu::Hud;
use fixstep_present::Controls;
use fixstep_town::Town;
use fixstep_window::session::{HostPlay, JoinPlay, PlaySession};
use loopback::{FRAME_MICROS, Loopback};

/// The peer's frames in the test, microseconds apart: four a second, as a software renderer
/// draws a big window.
const SLOW_FRAME_MICROS: u64 = 250_000;

/// The round trip the peer may report on loopback, milliseconds: a few serving looks (2 ms
/// each way) with room for a loaded machine, far under the slow frame it would be were the
/// socket served only on frames.
const LOOPBACK_RTT_MS: u64 = 60;

/// The round trip the peer's HUD says, milliseconds.
fn rtt_ms(hud: &Hud) -> Option<u64> {
    let network = hud.network.as_deref()?;
    let after = network.split("rtt ").nth(1)?;
    after.split(' ').next()?.parse().ok()
}

/// A peer drawing four frames a second against a host drawing at 60 Hz: once it is playing,
/// the round trip it measures is loopback's, not its frames', and its game agrees with the
/// host's. Served only between frames, the round trip was a frame long (about 250 ms here).
#[test]
fn a_peer_drawing_four_frames_a_second_measures_the_links_round_trip_not_its_frames() {
    let game = Loopback::new("peer-link");
    let mut host =
        HostPlay::<Town>::new(&game.level, &game.host_options()).expect("the host binds");
    let mut peer =
        JoinPlay::<Town>::new(&game.level, &game.peer_options("bob")).expect("the peer binds");
    let held = Controls::default();
    let start = Instant::now();
    let mut last_peer_frame = Instant::now();
    let mut hud = Hud::default();
    // Welcome, then four seconds of slow frames for renet's round-trip average to settle.
    while start.elapsed() < Duration::from_secs(6) {
        std::thread::sleep(Duration::from_micros(FRAME_MICROS));
        host.frame(FRAME_MICROS, &held, 0).expect("the host plays on");
        if last_peer_frame.elapsed() >= Duration::from_micros(SLOW_FRAME_MICROS) {
            let elapsed = last_peer_frame.elapsed().as_micros() as u64;
            last_peer_frame = Instant::now();
            peer.frame(elapsed, &held, 0).expect("the peer plays on");
            hud = Hud::default();
            peer.hud(&mut hud);
        }
    }
    let network = hud.network.clone().unwrap_or_default();
    assert!(hud.tick > 20, "the peer is playing: {network}");
    let rtt = rtt_ms(&hud).unwrap_or_else(|| panic!("the HUD says a round trip: {network}"));
    assert!(rtt <= LOOPBACK_RTT_MS, "a round trip of {rtt} ms on loopback: {network}");
    assert!(network.contains("(agrees)"), "the peer agrees with the host: {network}");
    host.close();
    peer.close();
}
