//! The second game, the arena, played over the network end to end by the same `fixstep host`,
//! `join`, `spectate` and `netem` as the town: the proof that network play is written once for
//! any game. Each process is its own on loopback, and the link between them is a bad one.

use std::collections::BTreeSet;

use fixstep_tests::processes::{BAD_LINK, Hosting, Running, shared_machine, strs, whole_machine};
use fixstep_tests::{Scratch, arg, judge};
use fixstep_tools::judder::read_truth;

/// The ticks every arena peer must agree with the host on: a minute of play.
const AGREED_TICKS: usize = 600;

/// How long the host runs, ticks: [`AGREED_TICKS`] and the handshakes over the bad link before
/// them (a few ticks each, with room to spare on a busy machine).
const HOST_TICKS: u32 = 700;

/// Three arena players and a host through the link conditioner (80 ms one way, 20 ms jitter,
/// 5 % loss): every peer runs at least 600 consecutive ticks, each to the host's bit, and
/// nobody reports a desync.
#[test]
fn three_arena_peers_through_a_bad_link_agree_on_every_hash() {
    let _machine = shared_machine();
    let dir = Scratch::new("arena-network", "three-peers");
    let (game, netem_port) = Hosting::through_netem();
    let game = game.playing("arena");
    let _netem = game.netem(&dir, netem_port, &BAD_LINK, 5);
    for (name, hashes) in game.bots_agree(&dir, 3, HOST_TICKS).peers {
        assert!(hashes.len() >= AGREED_TICKS, "{name} agreed on only {} ticks", hashes.len());
        assert_eq!(hashes.keys().next_back(), Some(&(HOST_TICKS - 1)), "{name} plays to the end");
    }
}

/// The most frames of moving discs an arena spectator over the bad link may draw stepping
/// against the truth, per thousand: one. The remote view draws two ticks behind the earliest
/// path and guesses past an update that comes later than that (a lost one comes again a
/// resend later, a tick late, and a busy machine adds its own stalls); a guess made as a disc
/// bounces off a wall or a pusher turns hard carries on the old way for a frame or two, a
/// step of millimetres against the truth that no kernel can foresee. Measured: none in most
/// runs, one in some, and six on a loaded machine (half of this budget, of some 12,000 paced
/// frames); a view that runs backwards by its own fault (a render tick stepping back, a
/// correction the wrong way) does so on every moving disc for many frames.
/// The view's own rules are held to none at all by the trace tests, on links they control.
const MOST_REVERSALS_PER_MILLE: usize = 1;

/// An arena spectator runs no simulation: it draws the pushers and pucks the host sends,
/// through the same remote view as the town's. Over the bad link for 600 ticks it draws every
/// pusher and puck of the host's truth, nothing pops, hardly a frame steps against the truth
/// ([`MOST_REVERSALS_PER_MILLE`]), and at most 2 % of the frames of moving discs are off pace
/// (a bounce is a turn no kernel can foresee).
#[test]
fn an_arena_spectator_draws_every_disc_without_a_pop_over_a_bad_link() {
    let _machine = whole_machine();
    let dir = Scratch::new("arena-network", "spectator");
    let (game, netem_port) = Hosting::through_netem();
    let game = game.playing("arena");
    let _netem = game.netem(&dir, netem_port, &BAD_LINK, 17);
    let (truth, drawn) = (dir.path("truth.jsonl"), dir.path("drawn.jsonl"));
    let ticks = HOST_TICKS.to_string();
    let mut host_args = game.host_args();
    host_args.extend(
        ["--bot", "--ticks", &ticks, "--truth-log", arg(&truth), "--reports", arg(dir.dir())]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    // A bot peer too, so that a second pusher skates and the pucks are knocked about.
    let peer = game.bot_peer(&dir, "peer", &["--ticks", &ticks, "--reports", arg(dir.dir())]);
    let spectator_args = [
        "--game",
        "arena",
        "spectate",
        &game.entry,
        "--headless",
        "--ticks",
        "600",
        "--drawn-log",
        arg(&drawn),
    ];
    let spectator = Running::start(&dir, "spectator", &spectator_args);
    spectator.finish();
    peer.finish();
    host.finish();
    let report = judge(&drawn, &truth);
    println!("{report}");
    let truth_ids: BTreeSet<u64> = read_truth(&truth)
        .expect("the truth log reads")
        .iter()
        .flat_map(|line| line.entities.iter().map(|e| e.id))
        .collect();
    let drawn_ids: BTreeSet<u64> = report.entities.iter().map(|e| e.id).collect();
    let missing: Vec<&u64> = truth_ids.difference(&drawn_ids).collect();
    assert!(missing.is_empty(), "discs never drawn: {missing:?}");
    assert!(truth_ids.len() >= 5, "two pushers and three pucks: {truth_ids:?}");
    assert!(report.all.tally.paced >= 1_000, "{} frames of moving discs", report.all.tally.paced);
    assert_eq!(report.all.tally.pops, 0, "pops\n{report}");
    let most_reversals = report.all.tally.paced * MOST_REVERSALS_PER_MILLE / 1_000;
    assert!(report.all.tally.reversals <= most_reversals, "reversals\n{report}");
    let off = report.all.tally.off_pace_percent().unwrap_or(f64::NAN);
    assert!(off <= 2.0, "{off:.2} % of frames off pace\n{report}");
}

/// An arena peer that differs from the host on purpose (`--perturb-at`: its pusher a metre
/// east after a tick) is caught at that tick, and both sides' desync reports name the pusher
/// and the field, through the arena's own naming of its state.
#[test]
fn a_perturbed_arena_peer_is_reported_naming_its_pusher_and_the_field() {
    const PERTURBED_TICK: u32 = 80;
    /// How many ticks after the perturbation the report's tick may be.
    const REPORT_WITHIN_TICKS: u32 = 2;
    let _machine = shared_machine();
    let dir = Scratch::new("arena-network", "perturbed");
    let game = Hosting::direct().playing("arena");
    let run = game.perturbed_game(&dir, (180, 160), PERTURBED_TICK, REPORT_WITHIN_TICKS);
    let player = run.player;
    for (side, summary) in &run.summaries {
        assert!(
            summary.contains(&format!("in pusher {player} (player {player}), field pos")),
            "the {side}'s summary names the pusher and the field:\n{summary}"
        );
        assert!(summary.contains("pushers    host"), "the arena's partial hashes:\n{summary}");
    }
}
