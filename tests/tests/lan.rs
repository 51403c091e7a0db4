//! Finding games on the local network (`fixstep lan`), on loopback: hosts answer the query on
//! their game port with their game, players, seats and whether they want a password.

use std::time::{Duration, Instant};

use fixstep_tests::processes::{Hosting, Running, shared_machine, strs};
use fixstep_tests::{Scratch, run_fixstep, stdout};

/// What `fixstep lan` lists when it asks this machine's port `port`.
fn lan(port: u16) -> String {
    let port = port.to_string();
    let out = run_fixstep(&["lan", "--port", &port, "--to", "127.0.0.1", "--wait-ms", "300"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    stdout(&out)
}

/// Asks until the listing has `text` (a player joins within seconds).
fn lan_until(port: u16, text: &str) -> String {
    let start = Instant::now();
    loop {
        let listing = lan(port);
        if listing.contains(text) || start.elapsed() > Duration::from_secs(30) {
            return listing;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// An open host is listed with its players as they join, and counts a departed player's seat
/// until its grace is over; a sealed one says it wants a password; a port where nothing hosts
/// lists nothing; and the queries cost the host nothing it counts as malformed.
#[test]
fn hosts_answer_the_lan_query_with_their_players_and_whether_they_want_a_password() {
    let _machine = shared_machine();
    let dir = Scratch::new("lan", "list");
    let open = Hosting::direct();
    let mut args = open.host_args();
    let seats = ["--max-players", "3", "--seat-grace", "3", "--end-when-empty", "6"];
    args.extend(seats.map(str::to_owned));
    let host = Running::start(&dir, "open", &strs(&args));
    host.wait_for("hosting", Duration::from_secs(60));
    let listing = lan(open.host_port);
    assert_eq!(
        listing.trim(),
        format!("127.0.0.1:{}  town \"Fixstep Town\"  0/3 players", open.host_port),
        "the open host, empty"
    );
    let peer = open.bot_peer(&dir, "peer", &["--ticks", "100"]);
    let listing = lan_until(open.host_port, "1/3 players");
    assert!(listing.contains("1/3 players"), "a player joined: {listing}");
    peer.finish();
    // Its seat is kept for three seconds, then freed: the host offers all three again.
    let listing = lan(open.host_port);
    assert!(listing.contains("1/3 players"), "the seat is kept: {listing}");
    let listing = lan_until(open.host_port, "0/3 players");
    assert!(listing.contains("0/3 players"), "the seat was freed: {listing}");

    let sealed = Hosting::direct();
    let mut args = sealed.host_args();
    args.extend(["--password", "swordfish", "--ticks", "100"].map(str::to_owned));
    let locked = Running::start(&dir, "sealed", &strs(&args));
    locked.wait_for("hosting", Duration::from_secs(60));
    assert!(lan(sealed.host_port).trim().ends_with("0/8 players, password"));
    locked.finish();

    assert_eq!(lan(fixstep_tests::processes::free_port()), "no game answered\n");
    let summary = host.finish().stdout;
    assert!(summary.contains("malformed datagrams 0"), "{summary}");
}
