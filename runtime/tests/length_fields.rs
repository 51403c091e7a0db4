//! Lengths read from a file or a datagram never size an allocation beyond what the rest of the
//! input can hold: a network message or a replay record that claims billions of elements in a
//! few bytes is refused having allocated next to nothing.

use fixstep_runtime::ReplayError;
use fixstep_runtime::file::ContentFiles;
use fixstep_runtime::net::wire::{Delivery, ToHost, ToPeer, decode};
use fixstep_runtime::replay::{
    MAX_HEADER_BYTES, RecordedBy, ReplayFile, ReplayHeader, ReplayRecorder,
};

/// The most bytes decoding a few bytes of input may allocate at once: room for the message's
/// own small parts, nowhere near what its lengths claim.
const MAX_ALLOCATED_BYTES: u64 = 4_096;

/// A postcard varint: `value` in 7-bit groups, low first.
fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// Decodes `bytes` as what a host sends and returns the most bytes held at once meanwhile.
fn peak_decoding_host_message(bytes: &[u8]) -> u64 {
    allocation_counter::measure(|| {
        let decoded = decode::<ToPeer<u8, u8>>(bytes, Delivery::Reliable);
        assert!(decoded.is_err(), "{} bytes claiming more than they hold", bytes.len());
    })
    .bytes_max
}

#[test]
fn a_roster_claiming_four_billion_names_allocates_nothing_of_them() {
    // ToPeer::Roster is variant 7: then the number of names, then (none of) the names.
    let roster = [varint(7), varint(u64::from(u32::MAX))].concat();
    let peak = peak_decoding_host_message(&roster);
    assert!(
        peak <= MAX_ALLOCATED_BYTES,
        "{peak} bytes allocated for a {}-byte roster",
        roster.len()
    );
    // The same with a name that claims to be long.
    let name = [varint(7), varint(1), varint(u64::from(u32::MAX))].concat();
    let peak = peak_decoding_host_message(&name);
    assert!(peak <= MAX_ALLOCATED_BYTES, "{peak} bytes allocated for a {}-byte name", name.len());
}

#[test]
fn a_desync_state_claiming_gigabytes_allocates_nothing_of_them() {
    // ToHost::DesyncState is variant 2: a tick, a hash record (its total, its parts), then the
    // state's bytes. First the parts claim a trillion, then the state does.
    let parts = [varint(2), varint(5), varint(0), varint(1 << 40)].concat();
    let state = [varint(2), varint(5), varint(0), varint(0), varint(1 << 40)].concat();
    for message in [parts, state] {
        let peak = allocation_counter::measure(|| {
            let decoded = decode::<ToHost<u8, u8>>(&message, Delivery::Reliable);
            assert!(decoded.is_err());
        })
        .bytes_max;
        assert!(peak <= MAX_ALLOCATED_BYTES, "{peak} bytes allocated for {} bytes", message.len());
    }
}

#[test]
fn a_replay_header_over_its_limit_is_refused_before_it_is_decoded() {
    use crate::common::{Drift, DriftCommand};
    use fixstep_runtime::Simulation;
    let sim = Drift::new(1, 0);
    // A header of empty partial-hash names: one byte each in the file, a String each decoded.
    let header = ReplayHeader {
        hash_parts: vec![String::new(); MAX_HEADER_BYTES as usize],
        ..ReplayHeader::of(&sim, "x", Some(1), RecordedBy::Local, 0)
    };
    let files = ContentFiles::default();
    let write = |header: &ReplayHeader| {
        ReplayRecorder::start(Vec::new(), header, &files, &sim, 1)
            .expect("written")
            .finish()
            .expect("written")
    };
    let bytes = write(&header);
    let peak = allocation_counter::measure(|| {
        let read = ReplayFile::<DriftCommand>::open(bytes.clone());
        let shown = read.as_ref().map(|r| r.header().hash_parts.len()).map_err(ToString::to_string);
        assert!(
            matches!(read, Err(ReplayError::ReplayCorrupted { record: 0, offset: 10 })),
            "{shown:?}"
        );
    })
    .bytes_max;
    assert!(
        peak <= MAX_ALLOCATED_BYTES + bytes.len() as u64,
        "{peak} bytes allocated for a refused header"
    );
    // A header within the limit reads.
    let small =
        ReplayHeader { hash_parts: vec!["a".to_owned(); sim.state_hash().parts().len()], ..header };
    let read = ReplayFile::<DriftCommand>::open(write(&small)).expect("reads");
    assert_eq!(read.header(), &small);
}
