//! Level files' text as the town loads them (`fixstep_town::level::load_level_str`, what
//! `load_level` runs on a file's text), the files a level names read from `assets/` as the
//! program reads them.

#![no_main]

use fixstep_fuzz::assets;
use fixstep_town::level::load_level_str;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The program reads a level with `read_to_string`: text that is not UTF-8 goes no further.
    let Ok(text) = std::str::from_utf8(data) else { return };
    let assets = assets();
    let _ = load_level_str(text, &assets.join("levels").join("fuzzed.ron"), &assets);
});
