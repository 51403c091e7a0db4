//! Joining by code on loopback: `fixstep rendezvous`, a host listed there with `--code`, and a
//! player who types the code (`fixstep join CODE --rendezvous ...`), and the code gone with
//! its match. The paths through real routers are tested in `nat_traversal.rs`; this proves
//! the binary's plumbing, and what a player is told when a code or a rendezvous is wrong.

use std::time::Duration;

use fixstep_tests::processes::{Hosting, Running, assert_agrees, hash_log, shared_machine, strs};
use fixstep_tests::{Scratch, arg, run_fixstep};

/// The code a host's log announces (`join code KQ7-4PX: ...`).
fn announced_code(host: &Running) -> String {
    host.wait_for("join code ", Duration::from_secs(30));
    let said = host.stderr();
    let after = said.split("join code ").nth(1).expect("announced");
    after.chars().take(7).collect()
}

/// Starts `fixstep rendezvous` on a free loopback port: the process, and its address.
fn rendezvous(dir: &Scratch) -> (Running, String) {
    let port = fixstep_tests::processes::free_port().to_string();
    let running =
        Running::start(dir, "rendezvous", &["rendezvous", "--bind", "127.0.0.1", "--port", &port]);
    running.wait_for("rendezvous listening", Duration::from_secs(30));
    (running, format!("127.0.0.1:{port}"))
}

/// A host listed at a rendezvous is joined by its code; the player reaches it on the path the
/// probes opened (its own network here) and computes every tick to the host's bit.
#[test]
fn a_player_joins_by_the_code_the_host_announces() {
    let _machine = shared_machine();
    let dir = Scratch::new("join-code", "loopback");
    let (rendezvous, rendezvous_at) = rendezvous(&dir);
    let game = Hosting::direct();
    let host_log = dir.path("host.hashes");
    let mut host_args = game.host_args();
    host_args.extend(
        ["--code", "--rendezvous", &rendezvous_at, "--bot", "--ticks", "150", "--hash-log"]
            .map(str::to_owned),
    );
    host_args.push(arg(&host_log).to_owned());
    let host = Running::start(&dir, "host", &strs(&host_args));
    let code = announced_code(&host);
    assert_eq!(code.len(), 7, "{code}");
    let peer_log = dir.path("peer.hashes");
    let peer = Running::start(
        &dir,
        "peer",
        &[
            "join",
            &code.to_lowercase(),
            "--rendezvous",
            &rendezvous_at,
            "--headless",
            "--bot",
            "--ticks",
            "150",
            "--hash-log",
            arg(&peer_log),
        ],
    );
    let joined = peer.finish();
    assert!(
        joined.stderr.contains(&format!("the host of {code} answered at")),
        "{}",
        joined.stderr
    );
    host.finish();
    let hashes = hash_log(&peer_log);
    assert!(hashes.len() >= 100, "the player played: {} ticks", hashes.len());
    assert_agrees("the player", &hashes, &hash_log(&host_log));
    // The match ended, and its code with it: the host said so to the rendezvous.
    let after =
        run_fixstep(&["join", &code, "--rendezvous", &rendezvous_at, "--headless", "--ticks", "1"]);
    let said = String::from_utf8_lossy(&after.stderr);
    assert!(said.contains(&format!("no match holds the code {code}")), "{said}");
    rendezvous.terminate();
    let stopped = rendezvous.finish();
    assert!(stopped.stdout.contains("rendezvous stopped"), "{}", stopped.stdout);
}

/// A code nobody holds, a misread one, and a code without a rendezvous named are each one
/// line that says what is wrong. (A rendezvous that never answers is the dial's own test, in
/// `runtime/net/tests/rendezvous.rs`: it takes the dial's ten seconds.)
#[test]
fn a_wrong_code_or_no_rendezvous_is_said_in_a_line() {
    let _machine = shared_machine();
    let dir = Scratch::new("join-code", "wrong");
    let (rendezvous, rendezvous_at) = rendezvous(&dir);
    let join = |code: &str, at: &str| {
        run_fixstep(&["join", code, "--rendezvous", at, "--headless", "--bot", "--ticks", "10"])
    };
    let unknown = join("KQ7-4PX", &rendezvous_at);
    let said = String::from_utf8_lossy(&unknown.stderr);
    assert!(!unknown.status.success());
    assert!(said.contains("no match holds the code KQ7-4PX"), "{said}");

    let misread = join("KQ0-4PX", &rendezvous_at);
    let said = String::from_utf8_lossy(&misread.stderr);
    assert_eq!(misread.status.code(), Some(2), "a usage error: {said}");
    assert!(said.contains("neither 0 nor O"), "{said}");

    let no_rendezvous = run_fixstep(&["join", "KQ7-4PX", "--headless"]);
    let said = String::from_utf8_lossy(&no_rendezvous.stderr);
    assert!(said.contains("give --rendezvous"), "{said}");
    rendezvous.kill();
}
