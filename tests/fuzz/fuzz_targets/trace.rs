//! Traces as `fixstep trace --in FILE` runs them (`fixstep_tools::trace::run_trace`): read
//! line by line and played through the network clock and the remote buffers, what each frame
//! drew written to nowhere.

#![no_main]

use fixstep_tools::trace::run_trace;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = run_trace(data, std::io::sink());
});
