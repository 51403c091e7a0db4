//! A drawn log, a truth file and a trace as `fixstep judder` reads them
//! (`fixstep_tools::judder`'s `*_from_bytes`, what its `read_*` run on a file's bytes), and, when
//! the drawn log and the truth read, measured and reported as the command does. The input is
//! three chunks: the drawn log, the truth and the trace.

#![no_main]

use std::path::PathBuf;

use fixstep_fuzz::Reader;
use fixstep_tools::judder::{
    DEFAULT_WORST, JudderReport, TraceEntities, Truth, drawn_log_from_bytes, measure,
    measure_local, trace_entities_from_bytes, truth_from_bytes,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let (Some(drawn), Some(truth)) = (input.chunk(), input.chunk()) else { return };
    let trace = input.chunk().unwrap_or_default();
    let (drawn_path, truth_path) = (PathBuf::from("drawn.jsonl"), PathBuf::from("truth.jsonl"));
    let trace = trace_entities_from_bytes(trace, &PathBuf::from("trace.jsonl"));
    let frames = drawn_log_from_bytes(drawn, &drawn_path);
    let truth = truth_from_bytes(truth, &truth_path);
    let (Ok(frames), Ok(truth)) = (frames, truth) else { return };
    let trace = trace.unwrap_or_else(|_| TraceEntities::default());
    let stats = measure(&frames, &Truth::new(&truth), &trace);
    let mut report = JudderReport::new(drawn_path, truth_path, frames.len(), stats, DEFAULT_WORST);
    report.local = measure_local(&frames);
    let _ = report.to_string();
});
