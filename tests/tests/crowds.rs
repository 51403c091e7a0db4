//! Crowds end to end: `fixstep sim` runs the most players a town holds, some sixteen thousand
//! on each of its four spawns, to the end of its ticks; and refuses a count of bots over the cap
//! in one line that names the cap, however large the count.

use fixstep_tests::processes::shared_machine;
use fixstep_tests::{Scratch, arg, one_line_error, run_fixstep, stderr, stdout};

/// The level the runs here use, relative to the workspace root.
const TOWN: &str = "assets/levels/town.ron";

/// Protects a tick bounded for crowds: the most bots a town holds, all standing on its spawns
/// at the start, run their ten ticks and the final hash is printed (it once grew without bound
/// in the pair search and never finished).
#[test]
fn sim_runs_the_most_bots_a_town_holds_to_the_end() {
    // Seconds of computing: held so that no test judging timing runs beside it.
    let _machine = shared_machine();
    let out = run_fixstep(&["sim", "--level", TOWN, "--ticks", "10", "--bots", "65535"]);
    assert!(out.status.success(), "fixstep failed: {:?}\n{}", out.status, stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("tick 10 hash "), "the final tick and hash expected: {text}");
}

/// Protects the cap on bots: one more than a town holds is refused naming the cap, and so is a
/// count no machine word holds with the input script's player besides.
#[test]
fn sim_refuses_more_bots_than_a_town_holds_naming_the_cap() {
    let line =
        one_line_error(&run_fixstep(&["sim", "--level", TOWN, "--ticks", "1", "--bots", "65536"]));
    assert!(line.contains("--bots 65536: the town holds at most 65535 players"), "{line}");
    let dir = Scratch::new("crowds", "huge");
    let script = dir.write("held.txt", "0 0 100 0 0\n");
    let most = usize::MAX.to_string();
    let args = ["sim", "--level", TOWN, "--ticks", "1", "--bots", &most, "--input-script"];
    let line = one_line_error(&run_fixstep(&[&args[..], &[arg(&script)]].concat()));
    let cap = format!("--bots {most}: the town holds at most 65535 players, the input script's");
    assert!(line.contains(&cap), "{line}");
}
