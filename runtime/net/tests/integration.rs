//! The transport's behaviour tests, one module per topic.

mod common;

mod datagram_reasons;
mod malformed_datagrams;
mod netem;
mod rendezvous;
mod renet_payloads;
mod stun;
