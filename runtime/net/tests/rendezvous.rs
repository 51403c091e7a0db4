//! Join codes and the rendezvous, sans-IO: a host listed, a joiner dialling its code, the
//! probes that open the way, and what a hostile datagram cannot make a rendezvous do.

use std::net::SocketAddr;
use std::time::Duration;

use fixstep_net::join_code::{JoinCode, JoinCodeError, looks_like_code};
use fixstep_net::rendezvous::{
    Answer, Candidate, Dial, DialError, LISTING_TIMEOUT, Listing, ListingEvent,
    MAX_LISTINGS_PER_IP, PathKind, Probe, RELAY_GRACE, REQUEST_BYTES, RendezvousServer, Request,
};

const RENDEZVOUS: &str = "203.0.113.1:7480";
/// The host's public address as its router maps it.
const HOST_PUBLIC: &str = "203.0.113.10:40000";
const HOST_LAN: &str = "192.168.1.20:7465";
const JOINER_PUBLIC: &str = "203.0.113.20:50000";
const JOINER_LAN: &str = "192.168.7.5:41000";

fn at(text: &str) -> SocketAddr {
    text.parse().expect("an address")
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

/// A rendezvous whose codes come from a fixed sequence.
fn rendezvous() -> RendezvousServer {
    let mut next = 0u16;
    RendezvousServer::new(move || {
        next = next.wrapping_add(1);
        let [low, high] = next.to_le_bytes();
        JoinCode::from_random([low % 31, high, low / 31, 4, 5, 6])
    })
}

/// Lists a host at `rendezvous`, and returns its listing, listed.
fn listed_host(server: &mut RendezvousServer, now: Duration) -> Listing {
    let local = Candidate { kind: PathKind::Local, address: at(HOST_LAN) };
    let mut listing = Listing::new(at(RENDEZVOUS), vec![local], [7; 16]);
    let sent = listing.poll(now);
    assert_eq!(sent.len(), 1, "one listing request");
    let answers = server.receive(at(HOST_PUBLIC), &sent[0].1, now);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].0, at(HOST_PUBLIC), "answered where it came from");
    let event = listing.receive(at(RENDEZVOUS), &answers[0].1, now);
    assert!(
        matches!(event, Some(ListingEvent::Listed { observed, .. }) if observed == at(HOST_PUBLIC)),
        "{event:?}"
    );
    listing
}

#[test]
fn a_code_reads_back_in_any_case_and_says_what_is_wrong() {
    let code = JoinCode::from_random([0, 40, 9, 255, 30, 17]);
    let text = code.to_string();
    assert_eq!(text.len(), 7, "{text}");
    assert_eq!(text.as_bytes()[3], b'-');
    assert_eq!(text.parse::<JoinCode>(), Ok(code));
    assert_eq!(text.to_lowercase().replace('-', " ").parse::<JoinCode>(), Ok(code));
    assert_eq!("kq7-4px".parse::<JoinCode>().map(|c| c.to_string()), Ok("KQ7-4PX".to_owned()));
    let error = "KQ0-4PX".parse::<JoinCode>().expect_err("0 is no symbol");
    assert!(error.to_string().contains("neither 0 nor O"), "{error}");
    assert!(matches!("KQ7-4P".parse::<JoinCode>(), Err(JoinCodeError::Length { symbols: 5, .. })));
    assert!(looks_like_code("KQ7-4PX") && !looks_like_code("127.0.0.1:7465"));
    assert!(looks_like_code("kq0-4px"), "a misread code is still a code, to be told so");
    assert!(!looks_like_code("my-server") && !looks_like_code("game.lan"));
    for _ in 0..100 {
        let drawn = JoinCode::random();
        assert!(drawn.is_valid());
        assert!(drawn.to_string().chars().all(|c| !"01ILO".contains(c)), "{drawn}");
    }
}

#[test]
fn a_joiner_finds_the_host_and_both_punch_until_a_direct_path_answers() {
    let mut server = rendezvous();
    let mut listing = listed_host(&mut server, ms(0));
    let code = listing.code().expect("a code");
    let joiner_local = Candidate { kind: PathKind::Local, address: at(JOINER_LAN) };
    let mut dial = Dial::new(at(RENDEZVOUS), code, vec![joiner_local]);

    // The lookup: the joiner hears where the host is, the host where the joiner is.
    let sent = dial.poll(ms(100));
    assert_eq!(sent.len(), 1);
    let answers = server.receive(at(JOINER_PUBLIC), &sent[0].1, ms(100));
    let (found, wanted) = (&answers[0], &answers[1]);
    assert_eq!((found.0, wanted.0), (at(JOINER_PUBLIC), at(HOST_PUBLIC)));
    assert!(dial.receive(at(RENDEZVOUS), &found.1, ms(110)).is_none());
    let event = listing.receive(at(RENDEZVOUS), &wanted.1, ms(110));
    let Some(ListingEvent::Wanted { joiner }) = event else { panic!("{event:?}") };
    assert_eq!(joiner[0], Candidate { kind: PathKind::Public, address: at(JOINER_PUBLIC) });
    assert!(joiner.contains(&joiner_local));

    // The host punches towards every address of the joiner, at once.
    let punches = listing.poll(ms(110));
    let punched: Vec<SocketAddr> = punches.iter().map(|(to, _)| *to).collect();
    assert_eq!(punched, [at(JOINER_PUBLIC), at(JOINER_LAN)]);
    // The joiner's next lookup is no news: the punching goes on.
    assert_eq!(listing.receive(at(RENDEZVOUS), &wanted.1, ms(112)), None);
    // The joiner answers the host's punch (its router let it in, having sent out first).
    let answer = dial.receive(at(HOST_PUBLIC), &punches[0].1, ms(115)).expect("answered");
    assert_eq!(answer.0, at(HOST_PUBLIC));

    // The joiner probes both of the host's addresses; only the public one gets through.
    let probes = dial.poll(ms(120));
    let probed: Vec<SocketAddr> = probes.iter().map(|(to, _)| *to).collect();
    assert_eq!(probed, [at(HOST_PUBLIC), at(HOST_LAN)]);
    let reply = listing.answer_probe(&probes[0].1).expect("the host answers its code's probe");
    assert!(dial.receive(at(HOST_PUBLIC), &reply, ms(130)).is_none());
    let dialled = dial.outcome().expect("over").expect("dialled");
    assert_eq!(dialled.host, Candidate { kind: PathKind::Public, address: at(HOST_PUBLIC) });
    assert_eq!(dialled.observed, Some(at(JOINER_PUBLIC)));
    assert_eq!(dialled.took, ms(30));
}

/// A match whose host went is found by the same code at its next host: the successor
/// resumes the listing with its secret from its own address, and a joiner that was told the
/// old host's addresses (asking before the successor renewed) asks again every quarter second
/// until an address answers, so it probes the successor as soon as the rendezvous knows it.
#[test]
fn a_successor_resumes_the_listing_and_a_dialling_player_finds_it_there() {
    const SUCCESSOR_PUBLIC: &str = "198.51.100.30:45000";
    let mut server = rendezvous();
    let listing = listed_host(&mut server, ms(0));
    let code = listing.code().expect("a code");
    let mut dial = Dial::new(at(RENDEZVOUS), code, Vec::new());
    let lookup = dial.poll(ms(1_000));
    let answers = server.receive(at(JOINER_PUBLIC), &lookup[0].1, ms(1_000));
    assert!(dial.receive(at(RENDEZVOUS), &answers[0].1, ms(1_010)).is_none());
    let probed: Vec<SocketAddr> = dial.poll(ms(1_010)).iter().map(|(to, _)| *to).collect();
    assert_eq!(probed, [at(HOST_PUBLIC), at(HOST_LAN)], "the old host's, which is gone");
    // Asked again, still before the successor renewed.
    let again = dial.poll(ms(1_250));
    let lookup = again.iter().find(|(to, _)| *to == at(RENDEZVOUS)).expect("asked again");
    let answers = server.receive(at(JOINER_PUBLIC), &lookup.1, ms(1_250));
    dial.receive(at(RENDEZVOUS), &answers[0].1, ms(1_260));

    let mut successor = Listing::resume(at(RENDEZVOUS), code, listing.secret(), Vec::new());
    let renewal = successor.poll(ms(1_300));
    assert_eq!(renewal.len(), 1, "the renewal goes at once");
    let answer = server.receive(at(SUCCESSOR_PUBLIC), &renewal[0].1, ms(1_300));
    let event = successor.receive(at(RENDEZVOUS), &answer[0].1, ms(1_310));
    assert_eq!(event, Some(ListingEvent::Listed { code, observed: at(SUCCESSOR_PUBLIC) }));

    // Nothing answered yet: the joiner asks again within a quarter second.
    let again = dial.poll(ms(1_500));
    let lookup = again.iter().find(|(to, _)| *to == at(RENDEZVOUS)).expect("asked again");
    let answers = server.receive(at(JOINER_PUBLIC), &lookup.1, ms(1_500));
    assert_eq!(answers[1].0, at(SUCCESSOR_PUBLIC), "the successor is told of the joiner");
    dial.receive(at(RENDEZVOUS), &answers[0].1, ms(1_510));
    let probes = dial.poll(ms(1_610));
    assert_eq!(probes[0].0, at(SUCCESSOR_PUBLIC));
    let reply = successor.answer_probe(&probes[0].1).expect("the successor answers");
    dial.receive(at(SUCCESSOR_PUBLIC), &reply, ms(1_620));
    let dialled = dial.outcome().expect("over").expect("dialled");
    assert_eq!(dialled.host.address, at(SUCCESSOR_PUBLIC));

    // Another secret does not move the listing.
    let mut impostor = Listing::resume(at(RENDEZVOUS), code, [8; 16], Vec::new());
    let renewal = impostor.poll(ms(1_700));
    server.receive(at(JOINER_PUBLIC), &renewal[0].1, ms(1_700));
    let mut check = Dial::new(at(RENDEZVOUS), code, Vec::new());
    let lookup = check.poll(ms(1_800));
    let answers = server.receive(at(JOINER_LAN), &lookup[0].1, ms(1_800));
    assert_eq!(answers[1].0, at(SUCCESSOR_PUBLIC), "still the successor's");
}

#[test]
fn a_probe_of_another_code_is_not_answered() {
    let mut server = rendezvous();
    let listing = listed_host(&mut server, ms(0));
    let code = listing.code().expect("a code");
    let other = JoinCode::from_random([9, 9, 9, 9, 9, 9]);
    assert_ne!(code, other);
    let probe = Probe { answer: false, code: other, nonce: 1 }.datagram();
    assert!(listing.answer_probe(&probe).is_none(), "another game's host on the same network");
    let own = Probe { answer: false, code, nonce: 1 };
    assert_eq!(listing.answer_probe(&own.datagram()), Some(own.answered().datagram()));
    assert!(listing.answer_probe(&own.answered().datagram()).is_none(), "answers are not answered");
}

#[test]
fn a_relay_is_taken_only_when_nothing_direct_answers_within_the_grace() {
    let mut server = rendezvous();
    let relay = Candidate { kind: PathKind::Relayed, address: at("203.0.113.1:49200") };
    let mut listing = Listing::new(at(RENDEZVOUS), vec![relay], [1; 16]);
    let sent = listing.poll(ms(0));
    let answers = server.receive(at(HOST_PUBLIC), &sent[0].1, ms(0));
    listing.receive(at(RENDEZVOUS), &answers[0].1, ms(0));
    let code = listing.code().expect("listed");
    let mut dial = Dial::new(at(RENDEZVOUS), code, Vec::new());
    let lookup = dial.poll(ms(0));
    let answers = server.receive(at(JOINER_PUBLIC), &lookup[0].1, ms(0));
    dial.receive(at(RENDEZVOUS), &answers[0].1, ms(10));
    let probes = dial.poll(ms(10));
    let to_relay = probes.iter().find(|(to, _)| *to == relay.address).expect("the relay probed");
    let reply = listing.answer_probe(&to_relay.1).expect("answered through the relay");
    dial.receive(relay.address, &reply, ms(40));
    assert!(!dial.is_over(), "a direct path may still open");
    let mut now = ms(40);
    while !dial.is_over() && now < ms(5_000) {
        now += ms(10);
        dial.poll(now);
    }
    let dialled = dial.outcome().expect("over").expect("dialled");
    assert_eq!(dialled.host, relay);
    assert!(
        dialled.took >= RELAY_GRACE && dialled.took <= RELAY_GRACE + ms(20),
        "{:?}",
        dialled.took
    );
}

#[test]
fn an_unknown_code_and_a_silent_rendezvous_are_said() {
    let mut server = rendezvous();
    let code = JoinCode::from_random([5; 6]);
    let mut dial = Dial::new(at(RENDEZVOUS), code, Vec::new());
    let lookup = dial.poll(ms(0));
    let answers = server.receive(at(JOINER_PUBLIC), &lookup[0].1, ms(0));
    assert_eq!(answers.len(), 1, "no host to tell");
    dial.receive(at(RENDEZVOUS), &answers[0].1, ms(5));
    dial.poll(ms(10));
    let error = dial.outcome().expect("over").expect_err("unknown");
    assert!(matches!(error, DialError::Unknown { .. }), "{error}");
    assert!(error.to_string().contains(&code.to_string()), "{error}");

    let mut silent = Dial::new(at(RENDEZVOUS), code, Vec::new());
    let mut now = ms(0);
    let mut lookups = 0;
    while !silent.is_over() && now < ms(60_000) {
        lookups += silent.poll(now).len();
        now += ms(10);
    }
    let error = silent.outcome().expect("over").expect_err("no answer");
    assert!(matches!(error, DialError::NoRendezvous { .. }), "{error}");
    assert!((30..=50).contains(&lookups), "four a second for ten seconds: {lookups}");
}

#[test]
fn a_listing_lapses_unless_renewed_and_its_secret_keeps_it_across_a_new_port() {
    let mut server = rendezvous();
    let mut listing = listed_host(&mut server, ms(0));
    let code = listing.code().expect("listed");
    // The router forgot its mapping: the renewal comes from a new public port, same secret.
    let moved = at("203.0.113.10:40999");
    let renewal = listing.poll(ms(6_000));
    let answers = server.receive(moved, &renewal[0].1, ms(6_000));
    assert_eq!(Answer::read(&answers[0].1), Some(Answer::Listed { code, observed: moved }));
    // Somebody else asking for the same code with another secret gets a code of its own.
    let thief = Request::List { code: Some(code), secret: [0; 16], candidates: Vec::new() };
    let answers = server.receive(at("198.51.100.9:1"), &thief.datagram(), ms(6_000));
    assert!(
        matches!(Answer::read(&answers[0].1), Some(Answer::Listed { code: c, .. }) if c != code)
    );
    assert_eq!(server.listed(), 2);
    server.expire(ms(6_000) + LISTING_TIMEOUT - ms(1));
    assert_eq!(server.listed(), 2);
    server.expire(ms(6_000) + LISTING_TIMEOUT);
    assert_eq!(server.listed(), 0, "both lapsed");
    // Ended on purpose: the code is free at once.
    let mut listing = listed_host(&mut server, ms(100_000));
    let (to, unlist) = listing.unlist().expect("listed");
    assert_eq!(to, at(RENDEZVOUS));
    server.receive(at(HOST_PUBLIC), &unlist, ms(100_001));
    assert_eq!(server.listed(), 0);
    let _ = listing.poll(ms(100_002));
}

#[test]
fn a_rendezvous_bounds_what_one_address_lists_and_reads_nothing_malformed() {
    let mut server = rendezvous();
    let mut now = ms(0);
    let mut listed = 0;
    for n in 0..200u16 {
        let request = Request::List { code: None, secret: [0; 16], candidates: Vec::new() };
        let from = SocketAddr::new(at(HOST_PUBLIC).ip(), 1000 + n);
        // Slow enough for the rate limit: this is about the listings.
        now += ms(100);
        let answers = server.receive(from, &request.datagram(), now);
        if matches!(Answer::read(&answers[0].1), Some(Answer::Listed { .. })) {
            listed += 1;
        }
    }
    assert_eq!(listed, MAX_LISTINGS_PER_IP);
    // Malformed requests of every length: nothing answered, nothing listed.
    let mut junk =
        Request::Lookup { code: JoinCode::from_random([1; 6]), candidates: Vec::new() }.datagram();
    for at_byte in 0..REQUEST_BYTES {
        junk[at_byte] ^= 0xA5;
        let answers = server.receive(
            at("198.51.100.2:9"),
            &junk,
            now + ms(u64::try_from(at_byte).unwrap_or(0) * 100),
        );
        for (_, datagram) in answers {
            assert!(datagram.len() <= REQUEST_BYTES);
        }
    }
    assert!(server.receive(at("198.51.100.2:9"), &[0x0c; 4000], now + ms(60_000)).is_empty());
    // A flood from one address is cut to the rate.
    let request =
        Request::Lookup { code: JoinCode::from_random([1; 6]), candidates: Vec::new() }.datagram();
    let answered = (0..1_000)
        .filter(|_| !server.receive(at("198.51.100.3:9"), &request, ms(500_000)).is_empty())
        .count();
    assert_eq!(answered, 40, "the burst");
}
