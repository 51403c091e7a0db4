//! Replay files as `fixstep replay FILE --verify` reads them, for both games: the header
//! alone (`ReplayHeader::from_bytes`), the whole replay as the game's (`Replay::read_for`),
//! and, for a replay that reads, the game built as its header says and re-simulated through
//! `verify`, as the command does, on the game's own content from `assets/`.
//!
//! Every record carries a checksum of its payload, which a mutation almost always breaks, so
//! the first byte's bit 1 asks the target to write every record's checksum anew first: the
//! decoders behind the checksum are fuzzed too. Its bit 0 picks the game (the town, the
//! arena).

#![no_main]

use std::sync::{Arc, OnceLock};

use fixstep_arena_view::Arena;
use fixstep_fuzz::{Reader, assets};
use fixstep_present::{CommandOf, Game};
use fixstep_runtime::Rules;
use fixstep_runtime::replay::{Replay, ReplayHeader, verify};
use fixstep_town_view::Town;
use libfuzzer_sys::fuzz_target;
use xxhash_rust::xxh3::xxh3_64;

/// A replay's signature and format version, bytes, before its first record.
const PREAMBLE_BYTES: usize = 8 + 2;

/// A record's length and checksum, bytes, before its payload.
const FRAME_BYTES: usize = 4 + 8;

/// Writes the checksum of every whole record anew.
fn fix_checksums(bytes: &mut [u8]) {
    let mut at = PREAMBLE_BYTES;
    while let Some(frame) = bytes.get(at..at + FRAME_BYTES) {
        let length = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        let start = at + FRAME_BYTES;
        let Some(payload) = start.checked_add(length).and_then(|end| bytes.get(start..end)) else {
            return;
        };
        let checksum = xxh3_64(payload).to_le_bytes();
        bytes[at + 4..start].copy_from_slice(&checksum);
        at = start + length;
    }
}

/// The content each game's replays are verified on, loaded once.
fn content<G: Game>(cell: &'static OnceLock<Arc<G::Content>>) -> &'static Arc<G::Content> {
    cell.get_or_init(|| {
        let assets = assets();
        let file = G::default_content(&assets);
        match G::load_content(&assets, &file) {
            Ok(content) => Arc::new(content),
            Err(e) => panic!("the {} content {} does not load: {e}", G::NAME, file.display()),
        }
    })
}

/// What `fixstep replay --verify` does with a replay's bytes, for game `G`.
fn replay<G: Game>(bytes: &[u8], cell: &'static OnceLock<Arc<G::Content>>) {
    let _ = ReplayHeader::from_bytes(bytes);
    let Ok(replay) = Replay::<CommandOf<G>>::read_for::<G::Sim>(bytes) else { return };
    let h = &replay.header;
    let mut sim = G::new_sim(content::<G>(cell), h.seed, usize::from(h.players));
    let _ = verify(&mut sim, &replay);
}

static TOWN: OnceLock<Arc<<Town as Rules>::Content>> = OnceLock::new();
static ARENA: OnceLock<Arc<<Arena as Rules>::Content>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let Some(choice) = input.byte() else { return };
    let mut bytes = input.rest().to_vec();
    if choice & 2 != 0 {
        fix_checksums(&mut bytes);
    }
    if choice & 1 == 0 {
        replay::<Town>(&bytes, &TOWN);
    } else {
        replay::<Arena>(&bytes, &ARENA);
    }
});
