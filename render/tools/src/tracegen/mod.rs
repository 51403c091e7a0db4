//! # Generated network traces, with their truth
//!
//! A deterministic generator of the traces a network client of Fixstep meets (the formats
//! are those of `fixstep_present::format`): a town of vehicles and walkers moving in host time
//! ([`World`]), a host that snapshots it every 100 ms tick and sends each entity
//! by its tier and at once when it starts, stops, jumps or changes tier ([`Snapshot`]), a
//! link that delays, loses and stalls the snapshots ([`LinkSpec`]), and the client's frames
//! ([`FrameSpec`]). A [`Scenario`] names one of each; [`generate`] runs it, and the result
//! writes `trace.jsonl` (what the client sees) and `truth.jsonl` (where everything was, every
//! 5 ms of host time). The same scenario gives the same bytes on every run: everything random
//! comes from the scenario's seed through a [SplitMix64](Rng) generator.
//!
//! ```
//! use fixstep_tools::tracegen::{generate, scenario};
//!
//! let steady = scenario("steady-60").expect("a scenario of the list");
//! let generated = generate(&steady);
//! let mut trace = Vec::new();
//! generated.write_trace(&mut trace).expect("writing to memory works");
//! assert!(trace.starts_with(br#"{"header":{"format":1,"tick_ms":100}}"#));
//! ```
//!
//! `cargo run -p fixstep-tools --example tracegen -- OUT_DIR [SCENARIO...]` writes them to
//! disk, for `fixstep trace` and `fixstep judder --trace`.

mod frames;
mod host;
mod link;
mod rng;
mod town;
mod world;
mod write;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

pub use frames::{FrameSpec, frame_times};
pub use host::{Measured, Snapshot, snapshots};
pub use link::{Arrival, LinkSpec, Loss, Stall, arrivals};
pub use rng::Rng;
pub use town::{APPEARS_AT_TICK, AWAY_TICKS, GOES_AT_TICK, Happenings, town};
pub use world::{
    Entity, Happening, Kind, Life, Script, State, TICK_MS, TRUTH_STEP_MS, World, wrap_angle,
};

/// How long every scenario's host runs, in ticks: 40 s, long enough for several starts,
/// stops, turns and tier changes of every entity, and for the network clock's 4 s window to
/// turn over ten times.
pub const SCENARIO_TICKS: u32 = 400;

/// The stream of a scenario's seed that its link draws from.
const LINK_STREAM: u64 = 2;

/// The stream of a scenario's seed that its frames draw from.
const FRAME_STREAM: u64 = 3;

/// A network client's situation: a town, a link and a way of pacing frames.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Its name, in kebab-case: the directory it is written to.
    pub name: &'static str,
    /// What it is, in a sentence.
    pub about: &'static str,
    /// Where everything random in it comes from.
    pub seed: u64,
    /// What happens in its town besides ordinary traffic.
    pub happenings: Happenings,
    /// The path from the host.
    pub link: LinkSpec,
    /// The client's frames.
    pub frames: FrameSpec,
}

/// The common link of the scenarios that test something else: 40 to 50 ms, a good
/// connection's few milliseconds of jitter.
const ORDINARY_LINK_MS: (f64, f64) = (40.0, 50.0);

/// The common frame rate of the scenarios that test something else, Hz: 60.
const ORDINARY_HZ: f64 = 60.0;

/// A scenario on the ordinary link at 60 Hz.
fn ordinary(
    name: &'static str,
    about: &'static str,
    seed: u64,
    happenings: Happenings,
) -> Scenario {
    Scenario {
        name,
        about,
        seed,
        happenings,
        link: LinkSpec::latency(ORDINARY_LINK_MS.0, ORDINARY_LINK_MS.1),
        frames: FrameSpec::Fixed { hz: ORDINARY_HZ },
    }
}

/// Every scenario, in a fixed order.
#[must_use]
pub fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            link: LinkSpec::latency(40.0, 40.0),
            ..ordinary("steady-60", "a steady 40 ms link, 60 Hz", 0x51EA_D060, Happenings::Nothing)
        },
        Scenario {
            link: LinkSpec::latency(60.0, 100.0),
            frames: FrameSpec::Fixed { hz: 144.0 },
            ..ordinary(
                "jitter-144",
                "60 to 100 ms one way, 144 Hz",
                0x0717_7E44,
                Happenings::Nothing,
            )
        },
        Scenario {
            link: LinkSpec {
                loss: Some(Loss { share: 0.05, burst_min: 1, burst_max: 3, retransmit_ms: 200.0 }),
                ..LinkSpec::latency(ORDINARY_LINK_MS.0, ORDINARY_LINK_MS.1)
            },
            ..ordinary(
                "loss-bursts",
                "5 % of the snapshots lost in bursts of 1 to 3, resent after 200 ms",
                0x1055_B057,
                Happenings::Nothing,
            )
        },
        Scenario {
            link: LinkSpec {
                stalls: vec![
                    Stall { at_ms: 12_020.0, for_ms: 500.0 },
                    Stall { at_ms: 26_030.0, for_ms: 1_500.0 },
                ],
                ..LinkSpec::latency(ORDINARY_LINK_MS.0, ORDINARY_LINK_MS.1)
            },
            ..ordinary(
                "link-stalls",
                "nothing arrives for 500 ms at 12 s and for 1500 ms at 26 s",
                0x57A1_1500,
                Happenings::Nothing,
            )
        },
        Scenario {
            link: LinkSpec {
                host_rate: 1.02,
                ..LinkSpec::latency(ORDINARY_LINK_MS.0, ORDINARY_LINK_MS.1)
            },
            ..ordinary(
                "host-clock-fast",
                "the host's clock runs 2 % fast against the client's",
                0xFA57_0102,
                Happenings::Nothing,
            )
        },
        Scenario {
            link: LinkSpec {
                host_rate: 0.98,
                ..LinkSpec::latency(ORDINARY_LINK_MS.0, ORDINARY_LINK_MS.1)
            },
            ..ordinary(
                "host-clock-slow",
                "the host's clock runs 2 % slow against the client's",
                0x5105_0098,
                Happenings::Nothing,
            )
        },
        ordinary(
            "tier-changes",
            "six entities move between tiers 1, 2 and 4 every 6 to 11 s",
            0x7134_0124,
            Happenings::TierChanges,
        ),
        Scenario {
            frames: FrameSpec::Vsync { hz: 60.0, miss_chance: 0.03, max_missed: 2 },
            ..ordinary(
                "vsync-missed",
                "frames locked to a 60 Hz vsync, 3 % of them missing one or two",
                0x0075_1C60,
                Happenings::Nothing,
            )
        },
        Scenario {
            frames: FrameSpec::Hitching {
                hz: 60.0,
                hitch_chance: 0.01,
                min_ms: 50.0,
                max_ms: 150.0,
            },
            ..ordinary(
                "hitching-frames",
                "60 Hz with a 50 to 150 ms frame about every 1.7 s",
                0x4177_C400,
                Happenings::Nothing,
            )
        },
        Scenario {
            frames: FrameSpec::Uneven { min_ms: 5.0, max_ms: 25.0 },
            ..ordinary(
                "uneven-frames",
                "every frame lasts 5 to 25 ms at random",
                0x0E7E_0525,
                Happenings::Nothing,
            )
        },
        ordinary(
            "teleports-and-placements",
            "teleports of moving vehicles and walkers, and entities placed elsewhere at rest",
            0x7E1E_9027,
            Happenings::Teleports,
        ),
        ordinary(
            "appear-go-return",
            "a vehicle appears, a walker goes, and a vehicle's id comes back elsewhere",
            0xA99E_A260,
            Happenings::ComingsAndGoings,
        ),
    ]
}

/// The scenario called `name`.
#[must_use]
pub fn scenario(name: &str) -> Option<Scenario> {
    scenarios().into_iter().find(|s| s.name == name)
}

/// A scenario, run: the world, what the host sent, when it arrived and when the frames are.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The town, simulated.
    pub world: World,
    /// One snapshot a tick, in tick order.
    pub snapshots: Vec<Snapshot>,
    /// When each snapshot reached the client, in the same order.
    pub arrivals: Vec<Arrival>,
    /// When the client draws each frame, client microseconds, strictly increasing.
    pub frames_us: Vec<i64>,
}

/// Runs `scenario`: simulates its town, takes the host's snapshots, sends them over its link
/// and paces its frames until the last snapshot has arrived.
#[must_use]
pub fn generate(scenario: &Scenario) -> Generated {
    let world = town(scenario.seed, scenario.happenings, SCENARIO_TICKS);
    let snapshots = snapshots(&world);
    let arrivals = arrivals(&scenario.link, world.ticks, &mut Rng::new(scenario.seed, LINK_STREAM));
    let end_us = arrivals.last().map_or(0, |a| a.at_us);
    let frames_us =
        frame_times(scenario.frames, end_us, &mut Rng::new(scenario.seed, FRAME_STREAM));
    Generated { world, snapshots, arrivals, frames_us }
}

impl Generated {
    /// Writes the trace (`trace.jsonl`) to `out`.
    ///
    /// # Errors
    ///
    /// Writing fails.
    pub fn write_trace(&self, out: &mut impl Write) -> io::Result<()> {
        let arrivals: Vec<i64> = self.arrivals.iter().map(|a| a.at_us).collect();
        write::trace(out, &self.snapshots, &arrivals, &self.frames_us)
    }

    /// Writes the truth (`truth.jsonl`) to `out`.
    ///
    /// # Errors
    ///
    /// Writing fails.
    pub fn write_truth(&self, out: &mut impl Write) -> io::Result<()> {
        write::truth(out, &self.world)
    }

    /// Writes `trace.jsonl` and `truth.jsonl` into `dir`, which is made if need be.
    ///
    /// # Errors
    ///
    /// The directory cannot be made or a file cannot be written.
    pub fn write_dir(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let mut trace = BufWriter::new(File::create(dir.join("trace.jsonl"))?);
        self.write_trace(&mut trace)?;
        trace.flush()?;
        let mut truth = BufWriter::new(File::create(dir.join("truth.jsonl"))?);
        self.write_truth(&mut truth)?;
        truth.flush()
    }
}
