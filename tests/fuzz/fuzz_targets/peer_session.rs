//! A peer session fed a fuzz input's messages from its host, between inputs, frames and
//! waits: no message, in any order, may panic it. The first byte picks the game (bit 0: the
//! town or the arena) and the role (bit 1: a player or a spectator).

#![no_main]

use fixstep_arena_view::Arena;
use fixstep_fuzz::Reader;
use fixstep_fuzz::sessions::run_peer;
use fixstep_runtime::net::Role;
use fixstep_town_view::Town;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let Some(choice) = input.byte() else { return };
    let role = if choice & 2 == 0 { Role::Player } else { Role::Spectator };
    if choice & 1 == 0 {
        run_peer::<Town>(role, input);
    } else {
        run_peer::<Arena>(role, input);
    }
});
