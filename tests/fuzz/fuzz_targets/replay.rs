//! Replay files as `fixstep replay FILE` reads them, for both games: the header alone
//! (`ReplayHeader::from_bytes`), the whole replay as the game's (`ReplayFile::open`), and, for
//! a replay that opens, what it holds (`roster`, `content_files`, `start_hash`), seeks to a few
//! ticks (`seek`, then a `step` on), and re-simulation through `verify`, each on a fresh
//! simulation of the game's own content from `assets/`. Each may refuse the replay with an
//! error; none may panic.
//!
//! Every record carries a checksum of its payload, which a mutation almost always breaks, so
//! the first byte's bit 1 asks the target to write every record's checksum anew first: the
//! decoders behind the checksum are fuzzed too. Its bit 0 picks the game (the town, the
//! arena).
//!
//! A keyframe's state is deflated, which a mutation almost never leaves whole, so the first
//! byte's bit 2 takes the rest as a keyframe's state itself, inflated (postcard bytes): one
//! that decodes and passes the rules' `check_state` is restored and run a few ticks, which
//! must not panic either: a state that does shows an invariant the check misses.

#![no_main]

use std::sync::{Arc, OnceLock};

use fixstep_arena_view::Arena;
use fixstep_fuzz::{Reader, assets};
use fixstep_present::{CommandOf, Game, StateOf};
use fixstep_runtime::replay::{ReplayFile, ReplayHeader, verify};
use fixstep_runtime::{Rules, Simulation, Tick};
use fixstep_town_view::Town;
use libfuzzer_sys::fuzz_target;
use xxhash_rust::xxh3::xxh3_64;

/// A replay's signature and format version, bytes, before its first record.
const PREAMBLE_BYTES: usize = 8 + 2;

/// The most bytes a record's length takes: a LEB128 `u32`.
const MAX_LENGTH_BYTES: usize = 5;

/// A record's checksum, bytes, between its length and its payload: the low 32 bits of the
/// payload's xxh3-64.
const CHECKSUM_BYTES: usize = 4;

/// Writes the checksum of every whole record anew.
fn fix_checksums(bytes: &mut [u8]) {
    let mut at = PREAMBLE_BYTES;
    loop {
        let mut length = 0_usize;
        let mut length_bytes = 0;
        loop {
            let Some(&byte) = bytes.get(at + length_bytes) else { return };
            length |= usize::from(byte & 0x7f) << (7 * length_bytes);
            length_bytes += 1;
            if byte & 0x80 == 0 {
                break;
            }
            if length_bytes == MAX_LENGTH_BYTES {
                return;
            }
        }
        let sum = at + length_bytes;
        let start = sum + CHECKSUM_BYTES;
        let Some(payload) = start.checked_add(length).and_then(|end| bytes.get(start..end)) else {
            return;
        };
        let checksum = (xxh3_64(payload) as u32).to_le_bytes();
        bytes[sum..start].copy_from_slice(&checksum);
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

/// What `fixstep replay` does with a replay's bytes, for game `G`.
fn replay<G: Game>(bytes: &[u8], cell: &'static OnceLock<Arc<G::Content>>) {
    let _ = ReplayHeader::from_bytes(bytes);
    let Ok(replay) = ReplayFile::<CommandOf<G>>::open(bytes.to_vec()) else { return };
    let _ = replay.roster();
    let _ = replay.content_files();
    let _ = replay.start_hash();
    // A fresh game as the replay starts, from its seed and seats; a simulation holds at most
    // `MAX_PLAYERS`, and `verify` refuses a start with more seats than the game it is given.
    let header = replay.header();
    let seats = replay.start_seats().min(G::MAX_PLAYERS);
    let fresh = || G::new_sim(content::<G>(cell), header.seed.unwrap_or(0), seats);

    // A seek is given a simulation of the replay's content, as the command's is: a replay of
    // other rules or other content is refused before it seeks.
    let mut sim = fresh();
    if header.check_sim::<G::Sim>().is_ok() && header.content_digest == sim.content_digest() {
        let (first, end) = (replay.first_tick(), replay.end_tick());
        let after_keyframe = replay.keyframe_ticks().nth(1).map(Tick::next);
        let ticks = [
            Some(end),
            Some(first),
            Some(Tick(first.0 / 2 + end.0 / 2)),
            after_keyframe,
            Some(Tick(end.0.saturating_add(1))),
        ];
        for tick in ticks.into_iter().flatten() {
            if let Ok(mut cursor) = replay.seek(&mut sim, tick) {
                let _ = replay.step(&mut cursor, &mut sim);
            }
        }
    }
    let _ = verify(&mut fresh(), &replay);
}

/// Ticks a state that passed the check is run: enough for what a tick sets (a phase, a
/// leg, a strike) to be read back by the next ones.
const STATE_TICKS: u32 = 8;

/// What a seek does with a keyframe's state once inflated, for game `G`: decoded, checked,
/// and if it passes, restored and run with every seat sending nothing.
fn state<G: Game>(bytes: &[u8], cell: &'static OnceLock<Arc<G::Content>>) {
    let Ok(state) = postcard::from_bytes::<StateOf<G>>(bytes) else { return };
    let mut sim = G::new_sim(content::<G>(cell), 0, 0);
    if sim.check_state(&state).is_err() {
        return;
    }
    sim.restore(&state);
    let commands = vec![CommandOf::<G>::default(); sim.players()];
    for _ in 0..STATE_TICKS {
        let tick = sim.next_tick();
        if sim.step(tick, &commands).is_err() {
            return;
        }
    }
}

static TOWN: OnceLock<Arc<<Town as Rules>::Content>> = OnceLock::new();
static ARENA: OnceLock<Arc<<Arena as Rules>::Content>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let Some(choice) = input.byte() else { return };
    let mut bytes = input.rest().to_vec();
    if choice & 4 != 0 {
        if choice & 1 == 0 {
            state::<Town>(&bytes, &TOWN);
        } else {
            state::<Arena>(&bytes, &ARENA);
        }
        return;
    }
    if choice & 2 != 0 {
        fix_checksums(&mut bytes);
    }
    if choice & 1 == 0 {
        replay::<Town>(&bytes, &TOWN);
    } else {
        replay::<Arena>(&bytes, &ARENA);
    }
});
