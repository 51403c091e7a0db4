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

pub use canonical::{Canonical, CanonicalBytes, CanonicalPod, pod_memory};
use xxhash_rust::xxh3::xxh3_64;

/// The xxh3-64 hash of `value`'s canonical bytes.
#[must_use]
pub fn canonical_hash<T: Canonical + ?Sized>(value: &T) -> u64 {
    CanonicalBytes::new().hash_of(value)
}

/// The most subsystems a [`StateHash`] holds: twice the eight the town hashes. The partial
/// hashes live inside the `StateHash` rather than in a vector, so that hashing every tick
/// allocates nothing.
pub const MAX_PARTS: usize = 16;

/// The hash of one subsystem's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// The first `len` are the parts; the rest stay at their default, so that equality and
    /// copies need no special case.
    parts: [PartialHash; MAX_PARTS],
    len: u8,
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
        &self.parts[..usize::from(self.len)]
    }

    /// The partial hash named `name`.
    #[must_use]
    pub fn part(&self, name: &str) -> Option<u64> {
        self.parts().iter().find(|p| p.name == name).map(|p| p.hash)
    }

    /// The names of the subsystems whose partial hashes differ from `other`'s (a subsystem that
    /// only one of the two has counts as differing), in this hash's order. Empty when the two
    /// agree.
    #[must_use]
    pub fn differing_parts(&self, other: &Self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .parts()
            .iter()
            .filter(|p| other.part(p.name) != Some(p.hash))
            .map(|p| p.name)
            .collect();
        names.extend(other.parts().iter().filter(|p| self.part(p.name).is_none()).map(|p| p.name));
        names
    }
}

/// A state hash as it is sent and stored: the total and the partial hashes' values in the
/// order the simulation names its subsystems, without the names (both ends run the same
/// simulation version, or a replay's header names them). Peers report it every tick; replays
/// record it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HashRecord {
    /// The total.
    pub total: u64,
    /// The partial hashes, in order; empty if only the total was recorded.
    pub parts: Vec<u64>,
}

impl HashRecord {
    /// The record of `hash`.
    #[must_use]
    pub fn of(hash: &StateHash) -> Self {
        Self { total: hash.total(), parts: hash.parts().iter().map(|p| p.hash).collect() }
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
    parts: [PartialHash; MAX_PARTS],
    len: u8,
}

impl StateHasher {
    /// A hasher with no parts yet.
    #[must_use]
    pub const fn new() -> Self {
        Self::with_bytes(CanonicalBytes::new())
    }

    /// A hasher that encodes every value field by field, never hashing plain old data in
    /// place: what a big-endian machine does. Its hashes are the same as [`new`](Self::new)'s;
    /// tests use it to check that.
    #[must_use]
    pub const fn field_by_field() -> Self {
        Self::with_bytes(CanonicalBytes::field_by_field())
    }

    const fn with_bytes(bytes: CanonicalBytes) -> Self {
        Self { bytes, parts: [PartialHash { name: "", hash: 0 }; MAX_PARTS], len: 0 }
    }

    /// Hashes one subsystem's state under `name`.
    ///
    /// # Panics
    ///
    /// When this is the hash's [`MAX_PARTS`] + 1st part: a simulation's subsystems are a
    /// fixed list, so this is a mistake in its `hash_state`, caught by its first test.
    pub fn part<T: Canonical + ?Sized>(&mut self, name: &'static str, state: &T) -> &mut Self {
        let hash = self.bytes.hash_of(state);
        let slot = self.parts.get_mut(usize::from(self.len));
        let slot = slot.unwrap_or_else(|| panic!("a state hash holds at most {MAX_PARTS} parts"));
        *slot = PartialHash { name, hash };
        self.len += 1;
        self
    }

    /// The hash of every part so far; the hasher is left empty, its buffer kept for reuse.
    pub fn finish_reuse(&mut self) -> StateHash {
        // The total covers each part's name and hash, in order, so reordering or renaming
        // subsystems changes it as surely as changing their state.
        self.bytes.clear();
        let len = core::mem::take(&mut self.len);
        for part in &self.parts[..usize::from(len)] {
            part.name.write_canonical(&mut self.bytes);
            self.bytes.write_u64(part.hash);
        }
        let total = xxh3_64(self.bytes.as_slice());
        let parts = core::mem::take(&mut self.parts);
        StateHash { total, parts, len }
    }

    /// The hash of every part.
    #[must_use]
    pub fn finish(mut self) -> StateHash {
        self.finish_reuse()
    }
}

/// The digest of content a simulation is built from (a level): xxh3-128 over its canonical
/// bytes, so it names the content, not the layout of the file it was read from. Peers and
/// replays compare it to be sure they run on the same content; 128 bits make an accidental
/// match of two different contents out of the question.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct ContentDigest(pub u128);

impl ContentDigest {
    /// The digest of `value`'s canonical bytes.
    #[must_use]
    pub fn of<T: Canonical + ?Sized>(value: &T) -> Self {
        Self(xxhash_rust::xxh3::xxh3_128(CanonicalBytes::of(value).as_slice()))
    }
}

/// Formats the digest as 32 lowercase hexadecimal digits.
impl core::fmt::Display for ContentDigest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}
