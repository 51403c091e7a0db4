//! A host playing in a window keeps its game on the 100 ms schedule whatever its frames do: the
//! window runs the ticks while its frames come, the serving thread stands in when they do not
//! (a slow renderer, a hidden window), and every tick runs exactly once.

mod loopback;

use std::time::{Duration, Instant};

use fixstep_gpu::{Agreement, HostingLine, Hud, NetworkLine, PlayingLine};
use fixstep_netplay::{HostSchedule, STAND_IN_MICROS};
use fixstep_present::Controls;
use fixstep_runtime::tick::TICK_MICROS;
use fixstep_town::PlayerCommand;
use fixstep_town::predict::InputAccumulator;
use fixstep_town_view::Town;
use fixstep_window::session::{HostPlay, JoinPlay, PlaySession};
use loopback::{FRAME_MICROS, Loopback};

/// Ticks the window and the thread ran in all, simulated on a timeline of whole milliseconds
/// as a [`HostPlay`] and its thread run them: the window's frames come at the times `frames`
/// gives, and the thread looks every millisecond. Returns, for each millisecond, the ticks run
/// by then, and the ticks the thread ran.
fn timeline(end_ms: u64, frames: impl Fn(u64) -> bool) -> (Vec<u64>, u64) {
    let mut schedule = HostSchedule::starting_at(0);
    let mut input = InputAccumulator::new();
    let mut by_ms = Vec::new();
    for ms in 0..=end_ms {
        let now = ms * 1_000;
        while schedule.thread_due(now) {
            schedule.thread_ran();
        }
        if ms > 0 && frames(ms) {
            let held = PlayerCommand::default();
            schedule.run_due(now, &mut input, &held, |_, _| Ok::<(), ()>(())).expect("runs");
        }
        by_ms.push(schedule.ran());
    }
    (by_ms, schedule.stood_in())
}

/// The longest frame the window hands its game, microseconds, as the app cuts it.
const MAX_FRAME_MICROS: u64 = 250_000;

/// Ticks due by `ms` on the 100 ms schedule.
fn due_by(ms: u64) -> u64 {
    ms * 1_000 / TICK_MICROS
}

/// Checks that at every millisecond the ticks run are those due, none early and none more than
/// `late` behind.
fn assert_on_schedule(by_ms: &[u64], late: u64, what: &str) {
    for (ms, &ran) in by_ms.iter().enumerate() {
        let due = due_by(ms as u64);
        assert!(ran <= due, "{what}: {ran} ticks run by {ms} ms, only {due} due (one ran twice)");
        assert!(ran + late >= due, "{what}: {ran} ticks run by {ms} ms, {due} due");
    }
}

#[test]
fn a_window_drawing_at_sixty_hertz_runs_every_tick_itself() {
    let (by_ms, stood_in) = timeline(10_000, |ms| ms % 17 == 0);
    assert_eq!(stood_in, 0, "the thread stood in for a window on time");
    assert_on_schedule(&by_ms, 1, "60 Hz");
}

#[test]
fn a_window_that_stops_drawing_has_its_ticks_run_for_it_once_each() {
    // Frames at 60 Hz, none from 2 s to 7 s (hidden), then 60 Hz again.
    let hidden = 2_000..7_000;
    let (by_ms, stood_in) = timeline(12_000, |ms| ms % 17 == 0 && !hidden.contains(&ms));
    // No tick is ever later than the stand-in's wait, and none runs twice when the frames
    // come back after five seconds.
    let late_ticks = 1 + STAND_IN_MICROS / TICK_MICROS;
    assert_on_schedule(&by_ms, late_ticks, "hidden from 2 s to 7 s");
    assert!((49..=51).contains(&stood_in), "the thread ran {stood_in} of the 50 hidden ticks");
    // Drawing again, the window is up to date on every frame: each tick due has run by the
    // end of the first frame after its time (the thread alone would leave it up to 50 ms).
    for frame in (hidden.end..=12_000).filter(|ms| ms % 17 == 0) {
        let frame = frame as usize;
        assert_eq!(by_ms[frame], due_by(frame as u64), "every due tick has run at {frame} ms");
    }
}

#[test]
fn a_window_drawing_four_frames_a_second_keeps_the_game_on_schedule() {
    // Each 250 ms frame owes two or three ticks; the one due longest before it the thread has
    // run already, so none is left more than the stand-in's wait behind.
    let (by_ms, stood_in) = timeline(10_000, |ms| ms % 250 == 0);
    assert!(stood_in >= 30, "the thread ran {stood_in} of the 100 ticks, a third is expected");
    assert_on_schedule(&by_ms, 1, "4 fps");
}

/// How many ticks the host may be behind its schedule when asked: the stand-in's half tick
/// rounded up to one, and two for a serving thread or a window kept waiting by a loaded
/// machine.
const LATE_TICKS: u64 = 3;

fn network_of(hud: &Hud) -> String {
    hud.network.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// Drives both sessions for `for_micros`: the peer draws at 60 Hz, and the host too when
/// `host_draws`. Returns the host's and the peer's HUDs at the end.
fn play(
    host: &mut HostPlay<Town>,
    peer: &mut JoinPlay<Town>,
    for_micros: u64,
    host_draws: bool,
    last_host_frame: &mut Instant,
) -> (Hud, Hud) {
    let start = Instant::now();
    let mut last_peer = Instant::now();
    let held = Controls::default();
    while start.elapsed() < Duration::from_micros(for_micros) {
        std::thread::sleep(Duration::from_micros(FRAME_MICROS));
        let now = Instant::now();
        let elapsed = |since: Instant| (now - since).as_micros().min(u128::from(MAX_FRAME_MICROS));
        peer.frame(elapsed(last_peer) as u64, &held, 0).expect("the peer plays on");
        last_peer = now;
        if host_draws {
            host.frame(elapsed(*last_host_frame) as u64, &held, 0).expect("the host plays on");
            *last_host_frame = now;
        }
    }
    let (mut host_hud, mut peer_hud) = (Hud::default(), Hud::default());
    host.hud(&mut host_hud);
    peer.hud(&mut peer_hud);
    (host_hud, peer_hud)
}

/// The host's window stops drawing for two seconds (hidden, or stalled in a present) while a
/// peer plays: the peer's game goes on at the host's pace and still agrees with it, and when
/// the window draws again the host has not run any tick twice.
#[test]
fn a_host_whose_window_stops_drawing_keeps_its_peers_playing() {
    let mut game = Loopback::new("host-thread");
    // The host's clock, and its schedule's first tick, start as it is built: somewhere between
    // these two instants, which bound the ticks due from both sides whatever the build costs.
    let building = Instant::now();
    let mut host = game.host();
    let built = Instant::now();
    let mut peer =
        JoinPlay::<Town>::new(&game.level, &game.peer_options("bob")).expect("the peer binds");
    let mut last_host_frame = Instant::now();
    let (_, peer_hud) = play(&mut host, &mut peer, 1_500_000, true, &mut last_host_frame);
    let before = peer_hud.tick;
    assert!(before > 0, "the peer is playing: {}", network_of(&peer_hud));

    let (host_hud, peer_hud) = play(&mut host, &mut peer, 2_000_000, false, &mut last_host_frame);
    assert!(
        peer_hud.tick >= before + 12,
        "the peer ran {} ticks in the two seconds the host's window drew nothing",
        peer_hud.tick - before
    );
    assert!(
        matches!(&host_hud.network, Some(NetworkLine::Hosting(HostingLine { stood_in, .. })) if *stood_in > 0),
        "the host says it stood in: {}",
        network_of(&host_hud)
    );

    let (_, peer_hud) = play(&mut host, &mut peer, 1_000_000, true, &mut last_host_frame);
    // The ticks due when the host is asked, bounded as its start is: at least those from the
    // end of the build to the question, at most those from the start of the build to the
    // answer. However long this thread is kept waiting, the bounds hold.
    let asking = Instant::now();
    let mut host_hud = Hud::default();
    host.hud(&mut host_hud);
    let answered = Instant::now();
    let ticks_between = |from: Instant, to: Instant| (to - from).as_micros() as u64 / TICK_MICROS;
    let (due_least, due_most) = (ticks_between(built, asking), ticks_between(building, answered));
    let ran = u64::from(host_hud.tick);
    assert!(
        ran <= due_most + 1,
        "the host ran {ran} ticks in {due_most} ticks' time: some ran twice"
    );
    assert!(ran + LATE_TICKS >= due_least, "the host ran {ran} ticks in {due_least} ticks' time");
    let said = network_of(&peer_hud);
    let agrees = matches!(
        &peer_hud.network,
        Some(NetworkLine::Playing(PlayingLine { agreement: Agreement::Agrees, .. }))
    );
    assert!(agrees, "the peer agrees: {said}");
    host.close();
    peer.close();
}
