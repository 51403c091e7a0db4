//! `fixstep sim --timing`: what each tick and each state hash took on this machine, the size
//! of the state a late joiner is sent, and the process's resident memory, so that the
//! benchmarks' figures (`cargo bench -p fixstep-town --bench stress_tick`) can be reproduced
//! from the command line on any content, the stress level at any scale among them.

use std::fmt::Write as _;
use std::time::Duration;

/// How long each tick and each state hash of a run took, in the order they ran.
#[derive(Debug, Default)]
pub(super) struct TickTimes {
    ticks: Vec<Duration>,
    hashes: Vec<Duration>,
}

impl TickTimes {
    /// Room for `ticks` ticks.
    pub(super) fn with_capacity(ticks: usize) -> Self {
        Self { ticks: Vec::with_capacity(ticks), hashes: Vec::with_capacity(ticks) }
    }

    /// One tick that took `tick` to run and `hash` to hash.
    pub(super) fn record(&mut self, tick: Duration, hash: Duration) {
        self.ticks.push(tick);
        self.hashes.push(hash);
    }

    /// The line `--timing` prints: the tick's median, 99th percentile and longest, the
    /// hash's median and its share of the median tick, the late joiner's state in
    /// `state_bytes`, and the resident memory where this system says it.
    pub(super) fn report(&self, state_bytes: usize) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let tick = ms(percentile(&self.ticks, 50));
        let hash = ms(percentile(&self.hashes, 50));
        let mut line = format!(
            "timing: {} ticks; tick median {tick:.3} ms, p99 {:.3} ms, max {:.3} ms; state hash \
             median {hash:.3} ms ({:.1} % of the tick); state {:.2} MB",
            self.ticks.len(),
            ms(percentile(&self.ticks, 99)),
            ms(percentile(&self.ticks, 100)),
            if tick > 0.0 { hash / tick * 100.0 } else { 0.0 },
            state_bytes as f64 / 1e6,
        );
        if let Some(kb) = resident_kb() {
            let _ = write!(line, "; resident {:.1} MB", kb as f64 / 1e3);
        }
        line.push('\n');
        line
    }
}

/// The `percent`th percentile of `times` (nearest rank); zero for none.
fn percentile(times: &[Duration], percent: usize) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let rank = (sorted.len() * percent).div_ceil(100).max(1);
    sorted.get(rank - 1).copied().unwrap_or_default()
}

/// This process's resident memory, kB (`VmRSS` of `/proc/self/status`); `None` where the
/// system has no such file.
fn resident_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    line.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{TickTimes, percentile};

    #[test]
    fn percentiles_are_of_the_nearest_rank() {
        let times: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        assert_eq!(percentile(&times, 50), Duration::from_millis(50));
        assert_eq!(percentile(&times, 99), Duration::from_millis(99));
        assert_eq!(percentile(&times, 100), Duration::from_millis(100));
        assert_eq!(percentile(&[], 50), Duration::ZERO);
    }

    #[test]
    fn the_report_gives_the_hash_as_a_share_of_the_tick() {
        let mut times = TickTimes::with_capacity(3);
        for ms in [10, 12, 30] {
            times.record(Duration::from_millis(ms), Duration::from_millis(1));
        }
        let line = times.report(2_500_000);
        assert!(
            line.starts_with("timing: 3 ticks; tick median 12.000 ms, p99 30.000 ms"),
            "{line}"
        );
        assert!(line.contains("state hash median 1.000 ms (8.3 % of the tick)"), "{line}");
        assert!(line.contains("state 2.50 MB"), "{line}");
    }
}
