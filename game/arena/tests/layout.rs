//! Rink files' text that fuzzing found (`tests/fuzz`, target `rink`), read through
//! `layout_from_str`, what `load_layout` runs on a file's text: refused with its line, never a
//! panic.

use std::path::Path;

use fixstep_arena::layout_from_str;

const GOOD: &str = "(\n    name: \"small\",\n    length_mm: 20000,\n    width_mm: 10000,\n    goal_width_mm: 4000,\n    pucks: [(0, 0)],\n    spawns: ([(-5000, 0)], [(5000, 0)]),\n)\n";

fn read(text: &str) -> Result<String, String> {
    let assets = Path::new("assets");
    layout_from_str(text, assets, &assets.join("arena").join("rink.ron"))
        .map(|layout| layout.name)
        .map_err(|e| e.to_string())
}

/// The most negative millimetre, east or north, had no positive to compare with the rink's
/// half length: taking its size overflowed (a panic in every build). It is outside the rink.
#[test]
fn the_most_negative_millimetre_is_outside_the_rink() {
    assert_eq!(read(GOOD), Ok("small".to_owned()));
    for (field, from, to) in [
        ("pucks", "pucks: [(0, 0)]", "pucks: [(-2147483648, 0)]"),
        ("pucks", "pucks: [(0, 0)]", "pucks: [(0, -2147483648)]"),
        ("spawns", "[(5000, 0)]", "[(-2147483648, -2147483648)]"),
    ] {
        let error = read(&GOOD.replace(from, to)).expect_err("outside the rink");
        assert!(
            error.contains(&format!("{field}: (")) && error.contains("is outside the rink"),
            "{error}"
        );
    }
}
