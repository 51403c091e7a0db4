//! State hashes: xxh3-64 over canonical bytes, one partial hash per subsystem and a total.
//!
//! Two peers agree on a tick when their totals agree. When they do not, the partial hashes say
//! which subsystem went first (characters, taxis, rng, ...), which is where a desync report
//! starts. Hashes are never computed with `std::hash::Hash`, whose output may change between
//! Rust releases and platforms; they are computed over the [`Canonical`] encoding.
//!
//! ```
//! use fixstep_runtime::hash::StateHasher;
//!
//! let mut hasher = StateHasher::new();
//! hasher.part("positions", &vec![1i64, 2, 3]);
//! hasher.part("rng", &42u64);
//! let hash = hasher.finish();
//! assert_eq!(hash.parts().len(), 2);
//! assert_eq!(hash.to_string().len(), 16);
//! ```

mod canonical;

pub use canonical::{Canonical, CanonicalBytes};
use xxhash_rust::xxh3::xxh3_64;

/// The xxh3-64 hash of `value`'s canonical bytes.
#[must_use]
pub fn canonical_hash<T: Canonical + ?Sized>(value: &T) -> u64 {
    CanonicalBytes::new().hash_of(value)
}

/// The hash of one subsystem's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialHash {
    /// The subsystem: "characters", "taxis", "rng", ...
    pub name: &'static str,
    /// xxh3-64 of its canonical bytes.
    pub hash: u64,
}

/// The hash of a whole simulation state at one tick: the partial hashes of its subsystems in
/// a fixed order, and a total over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateHash {
    total: u64,
    parts: Vec<PartialHash>,
}

impl StateHash {
    /// The hash of everything: what peers compare every tick and logs record.
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.total
    }

    /// The partial hashes, in the order the simulation hashed its subsystems.
    #[must_use]
    pub fn parts(&self) -> &[PartialHash] {
        &self.parts
    }

    /// The partial hash named `name`.
    #[must_use]
    pub fn part(&self, name: &str) -> Option<u64> {
        self.parts.iter().find(|p| p.name == name).map(|p| p.hash)
    }

    /// The names of the subsystems whose partial hashes differ from `other`'s (a subsystem that
    /// only one of the two has counts as differing), in this hash's order. Empty when the two
    /// agree.
    #[must_use]
    pub fn differing_parts(&self, other: &Self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .parts
            .iter()
            .filter(|p| other.part(p.name) != Some(p.hash))
            .map(|p| p.name)
            .collect();
        names.extend(other.parts.iter().filter(|p| self.part(p.name).is_none()).map(|p| p.name));
        names
    }
}

/// Formats the total as 16 lowercase hexadecimal digits, as hash logs write it.
impl core::fmt::Display for StateHash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:016x}", self.total)
    }
}

/// Builds a [`StateHash`] one subsystem at a time. Keep one in the simulation and reuse it to
/// hash every tick without allocating: [`finish_reuse`](Self::finish_reuse) keeps its buffer.
#[derive(Clone, Debug, Default)]
pub struct StateHasher {
    bytes: CanonicalBytes,
    parts: Vec<PartialHash>,
}

impl StateHasher {
    /// A hasher with no parts yet.
    #[must_use]
    pub const fn new() -> Self {
        Self { bytes: CanonicalBytes::new(), parts: Vec::new() }
    }

    /// Hashes one subsystem's state under `name`.
    pub fn part<T: Canonical + ?Sized>(&mut self, name: &'static str, state: &T) -> &mut Self {
        let hash = self.bytes.hash_of(state);
        self.parts.push(PartialHash { name, hash });
        self
    }

    /// The hash of every part so far; the hasher is left empty, its buffer kept for reuse.
    pub fn finish_reuse(&mut self) -> StateHash {
        // The total covers each part's name and hash, in order, so reordering or renaming
        // subsystems changes it as surely as changing their state.
        self.bytes.clear();
        for part in &self.parts {
            part.name.write_canonical(&mut self.bytes);
            self.bytes.write_u64(part.hash);
        }
        let total = xxh3_64(self.bytes.as_slice());
        StateHash { total, parts: core::mem::take(&mut self.parts) }
    }

    /// The hash of every part.
    #[must_use]
    pub fn finish(mut self) -> StateHash {
        self.finish_reuse()
    }
}
