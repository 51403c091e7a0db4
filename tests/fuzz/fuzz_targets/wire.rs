//! Session messages both ways, in both games' types, decoded as a session decodes what
//! arrives (`fixstep_runtime::net::wire::decode`), and their frames' ticks and inputs expanded
//! into commands as a session expands them. A message that decodes must encode and decode
//! again to the same bytes. The first byte picks the delivery (bit 0), the direction (bit 1)
//! and the game (bit 2).

#![no_main]

use fixstep_arena_view::Arena;
use fixstep_fuzz::{Reader, delivery_of};
use fixstep_runtime::Tick;
use fixstep_runtime::net::wire::{decode, encode};
use fixstep_runtime::net::{Delivery, GameData, ToHost, ToPeer};
use fixstep_town_view::Town;
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let Some(choice) = input.byte() else { return };
    let (delivery, bytes) = (delivery_of(choice), input.rest());
    match (choice >> 1) % 4 {
        0 => to_host::<Town>(bytes, delivery),
        1 => to_peer::<Town>(bytes, delivery),
        2 => to_host::<Arena>(bytes, delivery),
        _ => to_peer::<Arena>(bytes, delivery),
    }
});

/// A message the host received.
fn to_host<D: GameData>(bytes: &[u8], delivery: Delivery) {
    let Ok(message) = decode::<ToHost<D::Command, D::SpectatorView>>(bytes, delivery) else {
        return;
    };
    same_again(&message);
    if let ToHost::Frame(frame) = message {
        if let Some(runs) = frame.inputs {
            let _ = runs.first.tick(frame.received);
            let _ = runs.commands();
        }
        if let Some(hashes) = frame.hashes {
            let _ = hashes.first.tick(frame.received);
        }
    }
}

/// A message a peer received: a frame's ticks are decoded one after another, each from the
/// one before (the first whole, or from no players).
fn to_peer<D: GameData>(bytes: &[u8], delivery: Delivery) {
    let Ok(message) = decode::<ToPeer<D::Command, D::SpectatorUpdate>>(bytes, delivery) else {
        return;
    };
    same_again(&message);
    if let ToPeer::Frame(frame) = message
        && let Some(run) = frame.ticks
    {
        for start in [None, Some(Vec::new())] {
            let mut before: Option<Vec<D::Command>> = start;
            for (offset, piece) in run.pieces.iter().enumerate() {
                let _ =
                    u32::try_from(offset).ok().and_then(|o| run.first.0.checked_add(o)).map(Tick);
                match piece.commands(before.as_deref()) {
                    Ok(Some((_, commands))) => before = Some(commands),
                    Ok(None) => before = None,
                    Err(_) => break,
                }
            }
        }
    }
}

/// A decoded message encodes to bytes that decode to a message of the same bytes.
fn same_again<T: Serialize + DeserializeOwned>(message: &T) {
    let bytes = encode(message);
    let again: T = match decode(&bytes, Delivery::Reliable) {
        Ok(again) => again,
        Err(refusal) => panic!("a decoded message, encoded, does not decode: {refusal}"),
    };
    assert_eq!(encode(&again), bytes, "a decoded message encodes differently the second time");
}
