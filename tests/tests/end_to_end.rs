//! The program's behaviour tests, one topic a module: `fixstep` run as players, hosts and
//! operators run it, its files, its refusals and its network play end to end.
//!
//! They are one test binary, not a binary a file: each binary links the workspace's whole
//! tree, and the test harness runs the tests of one binary beside each other while it runs
//! binaries one after another. Most of these tests wait on the network clock far more than
//! they compute, so two of them share the machine: a test whose game may run beside another's
//! holds [`shared_machine`](fixstep_tests::processes::shared_machine), and one that judges
//! timing, or loads the machine itself, holds
//! [`whole_machine`](fixstep_tests::processes::whole_machine). Run one topic with
//! `cargo test -p fixstep-tests -- network::`.

mod agones;
mod arena_network;
mod cli;
mod cli_arena;
mod cli_host;
mod cli_sim;
mod cli_trace;
mod content_paths;
mod cross_architecture;
mod crowds;
mod deploy;
mod desync_diff;
mod example_traces;
mod float_ban;
mod float_literals;
mod host_gone;
mod host_migration;
mod hostile;
mod join_code;
mod judder_local;
mod lan;
mod late_join;
mod layers;
mod loadtest;
mod log_format;
mod metrics;
mod nat_traversal;
mod netem;
mod netlab;
mod network;
mod option_limits;
mod own_character;
mod own_pusher;
mod refusals;
mod remote_traces;
mod replays;
mod seats;
mod soak;
mod spectators;
mod untrusted_files;
mod wire;
