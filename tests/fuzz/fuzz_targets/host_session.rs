//! A host session fed a fuzz input's messages from its peers, between fixed ticks, waits,
//! connections and disconnections: no message, in any order, may panic it (the first byte
//! picks the game: even the town, odd the arena).

#![no_main]

use fixstep_arena_view::Arena;
use fixstep_fuzz::Reader;
use fixstep_fuzz::sessions::run_host;
use fixstep_town_view::Town;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    match input.byte() {
        Some(game) if game % 2 == 0 => run_host::<Town>(input),
        Some(_) => run_host::<Arena>(input),
        None => {}
    }
});
