//! Command and input scripts as `fixstep sim --commands` and `--input-script` read them
//! (`CommandScript::parse`, `InputScript::parse`), in both games' commands, and queried as a
//! run queries them: each line's tick and its neighbours, and the ends of time. The first
//! byte picks the kind (bit 0: commands or input) and the game (bit 1: the town or the
//! arena).

#![no_main]

use fixstep_arena::ArenaCommand;
use fixstep_fuzz::Reader;
use fixstep_runtime::script::{CommandScript, InputScript, TextCommand};
use fixstep_runtime::{Player, Tick};
use fixstep_town::PlayerCommand;
use libfuzzer_sys::fuzz_target;

/// The first numbers of the script's lines, the ticks or milliseconds its queries go to.
fn times(text: &str) -> Vec<u32> {
    let mut times = vec![0, 1, u32::MAX - 1, u32::MAX];
    for line in text.lines() {
        if let Some(Ok(at)) = line.split_whitespace().next().map(str::parse::<u32>) {
            times.extend([at.saturating_sub(1), at, at.saturating_add(1)]);
        }
    }
    times
}

fn commands<C: TextCommand>(text: &str) {
    let Ok(script) = CommandScript::<C>::parse(text) else { return };
    for player in Player::all(script.players() + 1) {
        let _ = script.drives(player);
        for &tick in &times(text) {
            let _ = script.command(player, Tick(tick));
        }
    }
}

fn input<C: TextCommand>(text: &str) {
    let Ok(script) = InputScript::<C>::parse(text) else { return };
    let times = times(text);
    for &ms in &times {
        let ms = u64::from(ms);
        let _ = script.held(ms);
        let _ = script.changed_at(ms);
        for &before in &times {
            let _ = script.frame(u64::from(before), ms);
        }
        let _ = script.frame(ms, u64::MAX);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input_bytes = Reader::new(data);
    let Some(choice) = input_bytes.byte() else { return };
    // Scripts are read with `read_to_string`: text that is not UTF-8 goes no further.
    let Ok(text) = std::str::from_utf8(input_bytes.rest()) else { return };
    match choice % 4 {
        0 => commands::<PlayerCommand>(text),
        1 => input::<PlayerCommand>(text),
        2 => commands::<ArenaCommand>(text),
        _ => input::<ArenaCommand>(text),
    }
});
