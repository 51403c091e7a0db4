//! The host's schedule as a headless host's loop uses it: each tick runs once, at its time or
//! after it, never before; the loop may sleep until the next is due; and after a stall the
//! host catches up without losing a tick or moving the schedule.

use fixstep_arena::ArenaCommand;
use fixstep_netplay::HostSchedule;
use fixstep_runtime::input::SampledInput;
use fixstep_runtime::tick::{MAX_TICKS_PER_FRAME, TICK_MICROS};

/// A look at the schedule at `now`: the ticks it ran.
fn look(schedule: &mut HostSchedule, input: &mut SampledInput<ArenaCommand>, now: u64) -> u64 {
    let mut ran = 0;
    schedule
        .run_due(now, input, &ArenaCommand::default(), |_, _| {
            ran += 1;
            Ok::<(), ()>(())
        })
        .expect("no error");
    ran
}

#[test]
fn a_headless_loop_runs_each_tick_at_its_time_and_sleeps_until_the_next() {
    let start = 5_000_000;
    let mut schedule = HostSchedule::starting_at(start);
    let mut input = SampledInput::default();
    assert_eq!(schedule.next_due_micros(), start + TICK_MICROS, "the first tick a tick in");
    assert_eq!(look(&mut schedule, &mut input, start + TICK_MICROS - 1), 0, "never early");
    // Sleeping until the tick is due, the loop runs it then, and the next is a tick later.
    let due = schedule.next_due_micros();
    assert_eq!(look(&mut schedule, &mut input, due), 1);
    assert_eq!(schedule.next_due_micros(), start + 2 * TICK_MICROS);
    assert_eq!(look(&mut schedule, &mut input, due + 2_000), 0, "once");
}

#[test]
fn after_a_stall_the_host_catches_up_on_the_same_schedule() {
    let mut schedule = HostSchedule::starting_at(0);
    let mut input = SampledInput::default();
    // Nothing looked at the schedule for a second and a half: fifteen ticks are owed.
    let now = 1_500_000;
    let mut ran = 0;
    while schedule.next_due_micros() <= now {
        let this = look(&mut schedule, &mut input, now);
        assert!((1..=u64::from(MAX_TICKS_PER_FRAME)).contains(&this), "{this} ticks in one look");
        ran += this;
    }
    assert_eq!(ran, 15, "every owed tick, none lost");
    assert_eq!(schedule.next_due_micros(), 1_600_000, "the schedule did not move");
}
