//! The same bits on other CPUs, end to end: a host on this machine (x86-64) and peers whose
//! `fixstep` was built for 64-bit ARM (run under qemu) and 32-bit x86 play one town match
//! over a bad link, and every tick's state hash agrees; a replay recorded on any of the three
//! verifies on the other two. The golden streams (`golden_*`, `determinism_*` tests, run by
//! CI with `--target` for each architecture) prove the simulation alone; this proves the whole
//! program: the wire's encodings, the replay file, the handshake, on a word size and a byte
//! order of instructions other than the host's.
//!
//! Skipped, saying so, where the foreign toolchains are missing; CI requires them (see
//! [`fixstep_tests::foreign`]).

use fixstep_tests::foreign::{AARCH64, I686};
use fixstep_tests::processes::{BAD_LINK, Hosting, Program, shared_machine};
use fixstep_tests::{Scratch, arg, workspace_root};

/// Ticks of the match: a minute of play.
const TICKS: u32 = 600;

/// How many ticks a peer may miss at the start: its handshake over the bad link, and the
/// emulated peer's slower start.
const JOIN_TICKS: usize = 100;

/// An x86-64 host, an aarch64 peer and an i686 peer, 600 ticks through `fixstep netem` (80 ms,
/// 20 ms of jitter, 5 % loss): every peer computes every tick it plays to the host's bit, and
/// each one's replay verifies with the other two architectures' builds.
#[test]
fn aarch64_and_i686_peers_compute_an_x86_64_hosts_every_tick() {
    // The builds take both cores for a minute: no test judging timing may run beside them.
    let _machine = shared_machine();
    let (Some(arm), Some(x86_32)) = (AARCH64.build_fixstep(), I686.build_fixstep()) else {
        return;
    };
    let here = Program::native();
    let dir = Scratch::new("cross-architecture", "town");
    let (game, netem_port) = Hosting::through_netem();
    let netem = game.netem(&dir, netem_port, &BAD_LINK, 31);
    let played = game.bots_agree_across(&dir, &here, &[arm.clone(), x86_32.clone()], TICKS);
    netem.kill();
    for (name, hashes) in &played.peers {
        assert!(hashes.len() + JOIN_TICKS >= TICKS as usize, "{name} ran {} ticks", hashes.len());
        let (last, hash) = hashes.last_key_value().expect("a tick");
        assert_eq!(*last, TICKS - 1, "{name} plays to the end");
        println!("{name}: {} ticks agree with the host's, the last {last} at {hash}", hashes.len());
    }
    // Each replay verifies on the two architectures that did not record it.
    let builds = [("x86-64", &here), ("aarch64", &arm), ("i686", &x86_32)];
    for (recorded_on, replay) in [(0, "host.fxr"), (1, "peer-1.fxr"), (2, "peer-2.fxr")] {
        let replay = dir.path(replay);
        for (verifier, (arch, program)) in builds.iter().enumerate() {
            if verifier == recorded_on {
                continue;
            }
            let out = program
                .command()
                .args(["replay", arg(&replay), "--verify"])
                .current_dir(workspace_root())
                .output()
                .expect("the verifier starts");
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{} recorded on {} does not verify on {arch}: {said}{}",
                replay.display(),
                builds[recorded_on].0,
                String::from_utf8_lossy(&out.stderr)
            );
            println!(
                "{} recorded on {} verifies on {arch}: {}",
                replay.display(),
                builds[recorded_on].0,
                said.trim()
            );
        }
    }
}
