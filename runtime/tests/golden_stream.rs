//! Golden hash streams: a changed stream is caught, and the version pinned with it says
//! whether to bump the rules' version or to re-pin.

mod common;

use common::{Drift, scripted_commands};
use fixstep_runtime::golden::{GoldenStream, StreamRecorder};
use fixstep_runtime::{Simulation, Tick};

/// The stream of 60 ticks of the test simulation with `seed`, sampled every 20 ticks.
fn stream(seed: u64) -> GoldenStream {
    let mut sim = Drift::new(seed, 2);
    let mut recorder = StreamRecorder::new::<Drift>(20);
    for t in 0..60 {
        let tick = Tick(t);
        sim.step(tick, &scripted_commands(tick, 2)).expect("in order");
        recorder.record(tick, &sim.state_hash());
    }
    recorder.finish()
}

#[test]
fn a_stream_survives_its_text_and_matches_itself() {
    let pinned = stream(1);
    let text = pinned.to_text("what it protects\nsecond line");
    assert!(
        text.starts_with("# what it protects\n# second line\nsim Drift\nversion 8\n"),
        "{text}"
    );
    let parsed = GoldenStream::parse(&text).expect("parses");
    assert_eq!(parsed, pinned);
    assert_eq!(parsed.samples.iter().map(|s| s.tick.0).collect::<Vec<_>>(), [19, 39, 59]);
    assert_eq!(stream(1).compare(&parsed, "drift.hashes"), Ok(()));
}

/// The failures a golden test exists for: the rules changed the hashes and nobody bumped the
/// version, so old replays would fail instead of being refused; or one architecture computes
/// other bits than the rest.
#[test]
fn changed_hashes_under_the_same_version_ask_for_a_bump() {
    let pinned = stream(1);
    let message = stream(2).compare(&pinned, "drift.hashes").expect_err("other hashes");
    assert!(message.contains("but Drift::VERSION is still 8."), "{message}");
    assert!(message.contains("bump Drift::VERSION"), "{message}");
    // And on which architecture, for a stream that holds on the others.
    let arch = std::env::consts::ARCH;
    assert!(message.contains(&format!("changed on {arch} (")), "{message}");
    assert!(message.contains(&format!("{arch} computes other bits")), "{message}");
    assert!(message.contains("re-pin with FIXSTEP_BLESS=1"), "{message}");
    // It says where: the seed changes the movers from the first tick on.
    assert!(message.contains("first at or before tick 19 (from the first tick)"), "{message}");
    assert!(message.contains("movers"), "{message}");
}

#[test]
fn changed_hashes_under_a_bumped_version_ask_for_a_re_pin() {
    let mut pinned = stream(1);
    pinned.version = 7;
    let message = stream(2).compare(&pinned, "drift.hashes").expect_err("other hashes");
    assert!(message.contains("Drift::VERSION went from 7 to 8: re-pin"), "{message}");
}

#[test]
fn a_bump_without_changed_hashes_asks_for_a_re_pin_naming_the_version() {
    let mut pinned = stream(1);
    pinned.version = 7;
    let message = stream(1).compare(&pinned, "drift.hashes").expect_err("other version");
    assert!(message.contains("for Drift version 7, and the rules are version 8"), "{message}");
}

/// One changed bit on a tick that is not written out still fails, through the digest.
#[test]
fn a_change_between_samples_is_caught_by_the_digest() {
    let mut pinned = stream(1);
    pinned.digest ^= 1;
    let message = stream(1).compare(&pinned, "drift.hashes").expect_err("other digest");
    assert!(message.contains("every sample agrees, the digest of all ticks does not"), "{message}");
}

#[test]
fn a_damaged_file_is_an_error_naming_the_line() {
    let text = stream(1).to_text("c").replace("version 8", "version eight");
    let error = GoldenStream::parse(&text).expect_err("not a number");
    assert_eq!(error, "line 3: not a whole number: `version eight`");
}
