//! Golden hash streams: the state hashes of every tick of a fixed run, pinned in a checked-in
//! file together with the version of the rules they belong to.
//!
//! A golden test runs a simulation on fixed input, records every tick's [`StateHash`] with a
//! [`StreamRecorder`], and [`check`](GoldenStream::check)s the stream against its file. The
//! file pins the whole stream compactly: a digest over every tick's total and partial hashes
//! (so one changed bit on any tick fails), and every `sample_every`th tick's hashes written
//! out, so that a failure says within how many ticks the stream first differs, and in which
//! subsystems.
//!
//! The file also records [`Simulation::VERSION`]. Hashes that change while the version stays
//! fail with a message to bump it: a replay recorded under the old rules must be refused, not
//! fail its hashes. After the bump, `FIXSTEP_BLESS=1` rewrites the file with the new stream and
//! version, to be committed with the change.
//!
//! ```text
//! # what the stream protects (comment lines start with #)
//! sim MySim
//! version 2
//! ticks 6000
//! sample_every 100
//! digest 0f3c9b0e5c1d2a77
//! tick 99 9a1b... tick=27755c0eae8ff577 characters=72d12f7662b0e557 ...
//! ```

use std::path::Path;

use xxhash_rust::xxh3::Xxh3;

use crate::hash::StateHash;
use crate::sim::Simulation;
use crate::tick::Tick;

/// The environment variable that makes [`GoldenStream::check`] write the stream as the new
/// golden file instead of comparing: set it to `1` after an intended change, and look at the
/// diff before committing.
pub const BLESS_VAR: &str = "FIXSTEP_BLESS";

/// A golden file: the town's, 6,000 ticks with every 100th written out by subsystem, is
/// 14 kB; a stream five hundred times longer still fits.
pub const GOLDEN_FILE: crate::file::FileKind = crate::file::FileKind::new("golden file", 8_000_000);

/// One tick's hashes, written out in a golden file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The tick.
    pub tick: Tick,
    /// The total hash after it.
    pub total: u64,
    /// The partial hashes, by subsystem, in hashing order.
    pub parts: Vec<(String, u64)>,
}

/// The hashes of a run: what a golden file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldenStream {
    /// The simulation's short type name, for messages.
    pub sim: String,
    /// [`Simulation::VERSION`] of the rules that made it.
    pub version: u32,
    /// Ticks recorded.
    pub ticks: u32,
    /// Every this many ticks a sample is written out (and the last tick always).
    pub sample_every: u32,
    /// xxh3-64 over every tick's number, total and partial hashes with their names, in order.
    pub digest: u64,
    /// The ticks written out.
    pub samples: Vec<Sample>,
}

/// Records a run's hashes tick by tick into a [`GoldenStream`].
#[derive(Clone)]
pub struct StreamRecorder {
    stream: GoldenStream,
    digest: Box<Xxh3>,
    last: Option<Sample>,
}

impl core::fmt::Debug for StreamRecorder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamRecorder").field("ticks", &self.stream.ticks).finish_non_exhaustive()
    }
}

impl StreamRecorder {
    /// A recorder for a run of simulation `S`, writing out every `sample_every`th tick (at
    /// least every tick).
    #[must_use]
    pub fn new<S: Simulation>(sample_every: u32) -> Self {
        let sim = S::NAME.to_owned();
        Self {
            stream: GoldenStream {
                sim,
                version: S::VERSION,
                ticks: 0,
                sample_every: sample_every.max(1),
                digest: 0,
                samples: Vec::new(),
            },
            digest: Box::default(),
            last: None,
        }
    }

    /// Records the hashes after `tick`.
    pub fn record(&mut self, tick: Tick, hash: &StateHash) {
        self.digest.update(&tick.0.to_le_bytes());
        self.digest.update(&hash.total().to_le_bytes());
        for part in hash.parts() {
            self.digest.update(&(part.name.len() as u64).to_le_bytes());
            self.digest.update(part.name.as_bytes());
            self.digest.update(&part.hash.to_le_bytes());
        }
        self.stream.ticks += 1;
        let sample = Sample {
            tick,
            total: hash.total(),
            parts: hash.parts().iter().map(|p| (p.name.to_owned(), p.hash)).collect(),
        };
        if self.stream.ticks.is_multiple_of(self.stream.sample_every) {
            self.stream.samples.push(sample);
            self.last = None;
        } else {
            self.last = Some(sample);
        }
    }

    /// The recorded stream.
    #[must_use]
    pub fn finish(mut self) -> GoldenStream {
        self.stream.samples.extend(self.last.take());
        self.stream.digest = self.digest.digest();
        self.stream
    }
}

impl GoldenStream {
    /// The golden file's text: `comment` as `#` lines, then the stream.
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut text = String::new();
        for line in comment.lines() {
            text.push_str(format!("# {line}").trim_end());
            text.push('\n');
        }
        text.push_str(&format!(
            "sim {}\nversion {}\nticks {}\nsample_every {}\ndigest {:016x}\n",
            self.sim, self.version, self.ticks, self.sample_every, self.digest
        ));
        for sample in &self.samples {
            text.push_str(&format!("tick {} {:016x}", sample.tick, sample.total));
            for (name, hash) in &sample.parts {
                text.push_str(&format!(" {name}={hash:016x}"));
            }
            text.push('\n');
        }
        text
    }

    /// Reads a golden file's text.
    ///
    /// # Errors
    ///
    /// A line that is not part of the format, with its number.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut stream = Self {
            sim: String::new(),
            version: 0,
            ticks: 0,
            sample_every: 1,
            digest: 0,
            samples: Vec::new(),
        };
        for (index, line) in text.lines().enumerate() {
            let line_no = index + 1;
            let bad = |what: &str| format!("line {line_no}: {what}: `{line}`");
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or_default();
            let mut value = || words.next().ok_or_else(|| bad("a value is missing"));
            let number = |text: &str| text.parse::<u32>().map_err(|_| bad("not a whole number"));
            let hex = |text: &str| u64::from_str_radix(text, 16).map_err(|_| bad("not a hash"));
            match key {
                "sim" => stream.sim = value()?.to_owned(),
                "version" => stream.version = number(value()?)?,
                "ticks" => stream.ticks = number(value()?)?,
                "sample_every" => stream.sample_every = number(value()?)?,
                "digest" => stream.digest = hex(value()?)?,
                "tick" => {
                    let tick = Tick(number(value()?)?);
                    let total = hex(value()?)?;
                    let parts = words
                        .map(|word| {
                            let (name, hash) = word
                                .split_once('=')
                                .ok_or_else(|| bad("a partial hash is not written `name=hash`"))?;
                            Ok((name.to_owned(), hex(hash)?))
                        })
                        .collect::<Result<_, String>>()?;
                    stream.samples.push(Sample { tick, total, parts });
                }
                _ => return Err(bad("not a line of a golden hash stream")),
            }
        }
        Ok(stream)
    }

    /// Whether the two streams have the same hashes, whatever their versions.
    #[must_use]
    pub fn same_hashes(&self, other: &Self) -> bool {
        (self.ticks, self.sample_every, self.digest, &self.samples)
            == (other.ticks, other.sample_every, other.digest, &other.samples)
    }

    /// Where this stream first differs from `pinned`, in words.
    #[must_use]
    pub fn first_difference(&self, pinned: &Self) -> String {
        if self.ticks != pinned.ticks || self.sample_every != pinned.sample_every {
            return format!(
                "the run has {} ticks sampled every {}, the file {} sampled every {}",
                self.ticks, self.sample_every, pinned.ticks, pinned.sample_every
            );
        }
        let mut previous = None;
        for (mine, theirs) in self.samples.iter().zip(&pinned.samples) {
            if mine != theirs {
                let parts: Vec<&str> = mine
                    .parts
                    .iter()
                    .filter(|(name, hash)| !theirs.parts.contains(&(name.clone(), *hash)))
                    .map(|(name, _)| name.as_str())
                    .collect();
                let since = previous.map_or_else(
                    || "from the first tick".to_owned(),
                    |t: Tick| format!("after tick {t}"),
                );
                return format!(
                    "first at or before tick {} ({since}), in {}",
                    mine.tick,
                    if parts.is_empty() { "the total".to_owned() } else { parts.join(", ") }
                );
            }
            previous = Some(mine.tick);
        }
        "between the written-out ticks: every sample agrees, the digest of all ticks does not"
            .to_owned()
    }

    /// Compares this stream with the golden file at `path`, or, with [`BLESS_VAR`] set to `1`,
    /// writes it there (with `comment`, which says what the stream protects).
    ///
    /// # Errors
    ///
    /// A message for the test to fail with: no or unreadable file; hashes that changed under an
    /// unchanged version (bump it); a bumped version (re-pin); and where the stream first
    /// differs.
    pub fn check(&self, path: &Path, comment: &str) -> Result<(), String> {
        let shown = path.display();
        if std::env::var(BLESS_VAR).is_ok_and(|v| v == "1") {
            std::fs::write(path, self.to_text(comment))
                .map_err(|e| format!("cannot write the golden file {shown}: {e}"))?;
            return Ok(());
        }
        let text = crate::file::read_text(path, GOLDEN_FILE)
            .map_err(|e| format!("{}: run with {BLESS_VAR}=1 to write it", e.with_causes()))?;
        let pinned = Self::parse(&text).map_err(|e| format!("{shown}: {e}"))?;
        self.compare(&pinned, &shown.to_string())
    }

    /// Compares this stream with the `pinned` one of golden file `file`.
    ///
    /// # Errors
    ///
    /// As [`check`](Self::check), but for the file itself.
    pub fn compare(&self, pinned: &Self, file: &str) -> Result<(), String> {
        let shown = file;
        let (sim, now, then) = (&self.sim, self.version, pinned.version);
        if self.same_hashes(pinned) {
            if now == then {
                return Ok(());
            }
            return Err(format!(
                "{shown} pins these hashes for {sim} version {then}, and the rules are version \
                 {now}: re-pin with {BLESS_VAR}=1, so that the file names the version"
            ));
        }
        let difference = self.first_difference(pinned);
        // The file is the same for every architecture: a stream that holds on one and not on
        // another is a platform difference to find, not a rule change to pin.
        let arch = std::env::consts::ARCH;
        if now == then {
            Err(format!(
                "the golden hash stream of {shown} changed on {arch} ({difference}), but \
                 {sim}::VERSION is still {now}. If it still holds on another architecture, \
                 {arch} computes other bits: find the operation, and pin nothing. If the rules \
                 changed, bump {sim}::VERSION, so that replays recorded under the old rules \
                 are refused instead of failing their hashes, then re-pin with {BLESS_VAR}=1 \
                 and commit the file"
            ))
        } else {
            Err(format!(
                "the golden hash stream of {shown} changed ({difference}) and {sim}::VERSION \
                 went from {then} to {now}: re-pin with {BLESS_VAR}=1 and commit the file"
            ))
        }
    }
}
