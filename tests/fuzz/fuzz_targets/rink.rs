//! Rink files' text as the arena loads them (`fixstep_arena::layout_from_str`, what
//! `load_layout` runs on a file's text).

#![no_main]

use fixstep_arena::layout_from_str;
use fixstep_fuzz::assets;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The program reads a rink with `read_to_string`: text that is not UTF-8 goes no further.
    let Ok(text) = std::str::from_utf8(data) else { return };
    let assets = assets();
    let _ = layout_from_str(text, &assets, &assets.join("arena").join("fuzzed.ron"));
});
