//! `fixstep about`: what this build holds.

/// What `fixstep about` prints.
#[must_use]
pub fn about() -> String {
    let window = if cfg!(feature = "window") {
        "- fixstep-window, fixstep-gpu: the desktop window and the wgpu renderers\n"
    } else {
        "- no window or renderer: this is a headless build (`--no-default-features`)\n"
    };
    format!(
        "fixstep {version}: a deterministic lockstep game runtime, 100 ms ticks in fixed point.\n\
         \n\
         This build holds:\n\
         - fixstep-runtime: fixed-point math, ticks and the frame scheduler, entity storage,\n\
         \x20 state hashes, replays, the determinism self-test and the lockstep sessions\n\
         - fixstep-net: the UDP transport, the wall clock and the link conditioner\n\
         - fixstep-present: drawing between ticks, own-character prediction, remote entities\n\
         - fixstep-netplay: host, join and spectate for any game, desync reports\n\
         - fixstep-tools: trace, judder and the trace generator\n\
         {window}\
         - the town (fixstep-town, fixstep-town-view): {game}\n\
         - the arena (fixstep-arena, fixstep-arena-view, `--game arena`): {arena}\n\
         \n\
         `fixstep` alone (or `fixstep play`) opens the town in a window; run `fixstep --help`\n\
         for the other commands.\n",
        version = env!("CARGO_PKG_VERSION"),
        game = fixstep_town::SUMMARY,
        arena = fixstep_arena::SUMMARY,
    )
}
