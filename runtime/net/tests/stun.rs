//! Learning a public address from STUN servers, sans-IO: each server asked in turn until one
//! answers, and only the answer to the request in flight taken.

use std::net::SocketAddr;
use std::time::Duration;

use fixstep_net::stun::{StunQuery, is_stun, mapped_address};
use stun_types::attribute::XorMappedAddress;
use stun_types::message::{BINDING, Message, MessageWrite, MessageWriteExt, MessageWriteVec};

/// A STUN server's success response to `request`, saying it saw `seen`.
fn answer(request: &[u8], seen: SocketAddr) -> Vec<u8> {
    let request = Message::from_bytes(request).expect("a STUN request");
    let mut response = Message::builder_success(&request, MessageWriteVec::new());
    let mapped = XorMappedAddress::new(seen, request.transaction_id());
    response.add_attribute(&mapped).expect("an attribute fits");
    response.finish()
}

fn at(text: &str) -> SocketAddr {
    text.parse().expect("an address")
}

#[test]
fn a_silent_server_is_left_for_the_next_and_only_the_awaited_answer_counts() {
    let (silent, answering) = (at("203.0.113.1:3478"), at("203.0.113.2:3478"));
    let seen = at("198.51.100.7:40000");
    let mut query = StunQuery::new(vec![silent, answering]);
    let mut now = Duration::ZERO;
    let mut asked = Vec::new();
    while !query.is_over() && now < Duration::from_secs(10) {
        if let Some((to, request)) = query.poll(now) {
            assert!(is_stun(&request));
            if to == answering {
                // An answer to another transaction, and one from the wrong server: neither.
                let stale = answer(
                    &Message::builder_request(BINDING, MessageWriteVec::new()).finish(),
                    seen,
                );
                assert!(!query.receive(answering, &stale));
                assert!(!query.receive(silent, &answer(&request, seen)));
                assert!(query.receive(answering, &answer(&request, seen)));
            }
            asked.push(to);
        }
        now += Duration::from_millis(100);
    }
    assert_eq!(query.learned(), Some((seen, answering)));
    assert_eq!(asked.iter().filter(|&&a| a == silent).count(), 6, "six tries: {asked:?}");
    assert_eq!(asked.last(), Some(&answering));
    assert!(now <= Duration::from_secs(4), "three seconds on the silent one: {now:?}");
}

#[test]
fn what_is_no_stun_answer_is_told_apart() {
    let (transaction, request) = fixstep_net::stun::binding_request();
    assert!(is_stun(&request));
    assert_eq!(mapped_address(&request, transaction), None, "a request is no answer");
    assert!(!is_stun(&[0x0c, b'F', b'X', b'R', b'V']), "a rendezvous's datagram");
    assert!(!is_stun(&[0u8; 19]), "shorter than a header");
    let mut netcode_like = request.clone();
    netcode_like[0] = 0x41;
    assert!(!is_stun(&netcode_like), "a first byte with its top bits set");
}
