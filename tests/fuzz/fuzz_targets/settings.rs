//! Settings files' text as the window reads them (`settings::parse`, what `load_or_create`
//! runs on the file's text). Settings that read must save as text that reads back the same,
//! or a player's saved settings would be refused at the next start.

#![no_main]

use fixstep_fuzz::settings::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The window reads its settings with `read_to_string`: text that is not UTF-8 goes no
    // further.
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(settings) = parse(text) else { return };
    let saved = match settings.to_ron() {
        Ok(saved) => saved,
        Err(e) => panic!("settings that read do not save: {e}"),
    };
    match parse(&saved) {
        Ok(again) => assert_eq!(again, settings, "saved settings read back otherwise:\n{saved}"),
        Err(problem) => panic!("saved settings do not read back ({problem}):\n{saved}"),
    }
});
