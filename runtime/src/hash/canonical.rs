//! The canonical byte encoding that state hashes are computed over.
//!
//! Every value becomes fixed-width little-endian bytes in a fixed order: integers at their own
//! width, `bool` as one byte, strings, byte strings and sequences as a `u64` length then their
//! items, `Option` as a tag byte then the value, derived structs as their fields in declaration
//! order, derived enums as the variant's `u32` index then its fields, ordered maps as a length
//! then their entries in key order. [`Fx`] is its raw `i64` bits.
//!
//! There is deliberately no implementation for floats or for hash maps: a float or a
//! hash-ordered collection in simulation state does not compile, where a runtime check would
//! only fail when a test happens to hash it.
//!
//! ## Hashing in place
//!
//! Writing a large state field by field costs several times hashing the same bytes. Where a
//! type is plain old data ([`CanonicalPod`]: `#[repr(C)]`, fixed-size fields, no padding, every
//! field itself plain old data), its canonical bytes are exactly its memory on a little-endian
//! machine, so a slice of it is hashed in place, without being written at all. The field-by-field
//! encoding stays the definition: it is what big-endian machines, and a
//! [`CanonicalBytes::field_by_field`] buffer, write, and tests check that both give the same
//! bytes.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use bytemuck::NoUninit;
use xxhash_rust::xxh3::Xxh3;

use crate::math::Fx;

/// A type whose value has one canonical byte encoding. Derive it with
/// `#[derive(Canonical)]` (re-exported as [`crate::Canonical`]).
pub trait Canonical {
    /// Appends this value's canonical encoding to `out`.
    fn write_canonical(&self, out: &mut CanonicalBytes);

    /// The canonical bytes of the items of `items`, one after the other, if they are the
    /// slice's memory: `Some` only for [`CanonicalPod`] types on little-endian machines.
    /// Sequences hash these bytes in place instead of writing each item.
    #[inline]
    #[must_use]
    fn memory_of(items: &[Self]) -> Option<&[u8]>
    where
        Self: Sized,
    {
        let _ = items;
        None
    }
}

/// A type whose canonical bytes are its memory on a little-endian machine: an integer, a
/// `bool`, [`Fx`], an array of such, or a struct or fieldless enum derived with
/// `#[derive(Canonical, NoUninit)]` and `#[canonical(pod)]`. For a struct, bytemuck's
/// `NoUninit` derive checks at compile time that it is `#[repr(C)]` without padding, and the
/// `Canonical` derive that every field is `CanonicalPod`, so its fields in declaration order
/// are its memory; a fieldless enum with `#[repr(u8)]` (or another integer) is its
/// discriminant at that width.
///
/// Implement [`Canonical::memory_of`] with [`pod_memory`] for such a type.
pub trait CanonicalPod: Canonical + NoUninit {}

/// The memory of `items` as their canonical bytes: `Some` on little-endian machines, where
/// the canonical (little-endian) bytes of plain old data are its memory; `None` on big-endian
/// ones, which write field by field.
#[inline]
#[must_use]
pub fn pod_memory<T: CanonicalPod>(items: &[T]) -> Option<&[u8]> {
    cfg!(target_endian = "little").then(|| bytemuck::cast_slice(items))
}

/// Bytes a hashing [`CanonicalBytes`] gathers before feeding them to the hash: small enough
/// to stay in the first-level cache, large enough that the hash runs on long blocks. Hashing
/// the whole state as one buffer would write and read megabytes through main memory instead.
const HASH_CHUNK_BYTES: usize = 16 * 1024;

/// Canonical bytes as they are written: gathered in a buffer, or, while
/// [`hash_of`](Self::hash_of) runs, fed to an xxh3 hash a chunk at a time. Keep one and reuse
/// it, so that hashing every tick allocates nothing once the buffer has grown.
#[derive(Clone)]
pub struct CanonicalBytes {
    bytes: Vec<u8>,
    /// The length at which the buffer is fed to `hasher`: never, unless hashing.
    flush_at: usize,
    hasher: Option<Box<Xxh3>>,
    /// Whether plain old data is taken from memory ([`Canonical::memory_of`]) rather than
    /// written field by field.
    in_place: bool,
}

impl Default for CanonicalBytes {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for CanonicalBytes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CanonicalBytes").field("len", &self.bytes.len()).finish_non_exhaustive()
    }
}

impl CanonicalBytes {
    /// An empty buffer.
    #[must_use]
    pub const fn new() -> Self {
        Self { bytes: Vec::new(), flush_at: usize::MAX, hasher: None, in_place: true }
    }

    /// An empty buffer that writes every value field by field, never from memory: what a
    /// big-endian machine does. Its bytes and hashes are the same as [`new`](Self::new)'s;
    /// tests use it to check that.
    #[must_use]
    pub const fn field_by_field() -> Self {
        Self { bytes: Vec::new(), flush_at: usize::MAX, hasher: None, in_place: false }
    }

    /// Whether this buffer takes plain old data from memory: a derived
    /// [`Canonical::write_canonical`] of a [`CanonicalPod`] struct asks, and writes its memory
    /// in one piece if so.
    #[inline]
    #[must_use]
    pub const fn in_place(&self) -> bool {
        self.in_place
    }

    /// Writes the items of `items` (not their count): from memory when they are plain old data
    /// and this buffer takes it, else one by one. A hashing buffer feeds long runs of memory
    /// straight to the hash, without copying them.
    #[inline]
    pub fn write_items<T: Canonical>(&mut self, items: &[T]) {
        if self.in_place
            && let Some(memory) = T::memory_of(items)
        {
            self.write_memory(memory);
            return;
        }
        for item in items {
            item.write_canonical(self);
            self.element_done();
        }
    }

    /// Appends bytes taken from memory: fed to the hash at once when hashing (after what is
    /// gathered, so the order is kept), gathered otherwise.
    fn write_memory(&mut self, memory: &[u8]) {
        match self.hasher.as_mut() {
            Some(hasher) if self.flush_at != usize::MAX && memory.len() >= HASH_CHUNK_BYTES => {
                hasher.update(&self.bytes);
                self.bytes.clear();
                hasher.update(memory);
            }
            _ => {
                self.write_raw(memory);
                self.element_done();
            }
        }
    }

    /// The xxh3-64 hash of `value`'s canonical bytes, streamed through this buffer a chunk at
    /// a time (the same hash as of the whole encoding at once).
    pub fn hash_of<T: Canonical + ?Sized>(&mut self, value: &T) -> u64 {
        let mut hasher = self.hasher.take().unwrap_or_default();
        hasher.reset();
        self.bytes.clear();
        self.bytes.reserve(HASH_CHUNK_BYTES * 2);
        self.hasher = Some(hasher);
        self.flush_at = HASH_CHUNK_BYTES;
        value.write_canonical(self);
        self.flush_at = usize::MAX;
        let hasher = self.hasher.as_mut().expect("set above");
        hasher.update(&self.bytes);
        self.bytes.clear();
        hasher.digest()
    }

    /// Feeds the gathered bytes to the hash.
    #[cold]
    fn flush(&mut self) {
        if let Some(hasher) = self.hasher.as_mut() {
            hasher.update(&self.bytes);
            self.bytes.clear();
        }
    }

    /// The canonical encoding of `value`, in a new buffer.
    #[must_use]
    pub fn of<T: Canonical + ?Sized>(value: &T) -> Self {
        let mut out = Self::new();
        value.write_canonical(&mut out);
        out
    }

    /// The bytes written so far.
    #[must_use]
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes
    }

    /// Forgets the bytes, keeping the allocation.
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Appends raw bytes as they are (no length).
    #[inline]
    pub fn write_raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Marks the end of an element of a sequence: where a hashing buffer that has gathered a
    /// chunk feeds it to the hash. Checking here rather than at every write keeps the check
    /// off the per-field path, and a chunk overshoots by at most one element.
    #[inline]
    pub fn element_done(&mut self) {
        if self.bytes.len() >= self.flush_at {
            self.flush();
        }
    }

    /// Appends a length, as a `u64`.
    #[inline]
    pub fn write_len(&mut self, len: usize) {
        self.write_u64(len as u64);
    }

    /// Appends one byte.
    #[inline]
    pub fn write_u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    /// Appends a `u32`, little-endian: the width of tags and enum variant indices.
    #[inline]
    pub fn write_u32(&mut self, v: u32) {
        self.write_raw(&v.to_le_bytes());
    }

    /// Appends a `u64`, little-endian.
    #[inline]
    pub fn write_u64(&mut self, v: u64) {
        self.write_raw(&v.to_le_bytes());
    }
}

macro_rules! little_endian {
    ($($ty:ty),+) => {
        $(
            impl Canonical for $ty {
                #[inline]
                fn write_canonical(&self, out: &mut CanonicalBytes) {
                    out.write_raw(&self.to_le_bytes());
                }

                #[inline]
                fn memory_of(items: &[Self]) -> Option<&[u8]> {
                    pod_memory(items)
                }
            }

            impl CanonicalPod for $ty {}
        )+
    };
}

little_endian!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

impl Canonical for bool {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_u8(u8::from(*self));
    }

    #[inline]
    fn memory_of(items: &[Self]) -> Option<&[u8]> {
        // A bool is one byte, 0 or 1: its canonical byte.
        pod_memory(items)
    }
}

impl CanonicalPod for bool {}

impl<T: CanonicalPod, const N: usize> CanonicalPod for [T; N] where [T; N]: NoUninit {}

impl Canonical for char {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_u32(u32::from(*self));
    }
}

impl Canonical for () {
    #[inline]
    fn write_canonical(&self, _: &mut CanonicalBytes) {}
}

impl Canonical for Fx {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_raw(&self.to_bits().to_le_bytes());
    }

    #[inline]
    fn memory_of(items: &[Self]) -> Option<&[u8]> {
        // An Fx is its raw i64 bits, in memory and canonically.
        pod_memory(items)
    }
}

impl CanonicalPod for Fx {}

impl Canonical for str {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_len(self.len());
        out.write_raw(self.as_bytes());
    }
}

impl Canonical for String {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        self.as_str().write_canonical(out);
    }
}

impl<T: Canonical> Canonical for [T] {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_len(self.len());
        out.write_items(self);
    }
}

impl<T: Canonical, const N: usize> Canonical for [T; N] {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        // The length is part of the type: nothing to write for it.
        if out.in_place()
            && let Some(memory) = T::memory_of(self)
        {
            out.write_raw(memory);
            return;
        }
        for item in self {
            item.write_canonical(out);
        }
    }

    #[inline]
    fn memory_of(items: &[Self]) -> Option<&[u8]> {
        // An array of plain old data is plain old data: its items back to back.
        T::memory_of(items.as_flattened())
    }
}

impl<T: Canonical> Canonical for Vec<T> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        self.as_slice().write_canonical(out);
    }
}

impl<T: Canonical> Canonical for VecDeque<T> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_len(self.len());
        let (front, back) = self.as_slices();
        out.write_items(front);
        out.write_items(back);
    }
}

impl<T: Canonical> Canonical for Option<T> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        match self {
            None => out.write_u8(0),
            Some(value) => {
                out.write_u8(1);
                value.write_canonical(out);
            }
        }
    }
}

impl<T: Canonical + ?Sized> Canonical for &T {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        (**self).write_canonical(out);
    }
}

impl<T: Canonical + ?Sized> Canonical for Box<T> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        (**self).write_canonical(out);
    }
}

impl<T: Canonical + ?Sized> Canonical for Arc<T> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        (**self).write_canonical(out);
    }
}

impl<K: Canonical, V: Canonical> Canonical for BTreeMap<K, V> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_len(self.len());
        for (key, value) in self {
            key.write_canonical(out);
            value.write_canonical(out);
            out.element_done();
        }
    }
}

impl<T: Canonical> Canonical for BTreeSet<T> {
    #[inline]
    fn write_canonical(&self, out: &mut CanonicalBytes) {
        out.write_len(self.len());
        for item in self {
            item.write_canonical(out);
        }
    }
}

macro_rules! tuples {
    ($(($($name:ident),+)),+) => {
        $(
            impl<$($name: Canonical),+> Canonical for ($($name,)+) {
                #[expect(non_snake_case, reason = "the bindings are named after their types")]
                #[inline]
                fn write_canonical(&self, out: &mut CanonicalBytes) {
                    let ($($name,)+) = self;
                    $($name.write_canonical(out);)+
                }
            }
        )+
    };
}

tuples!((A), (A, B), (A, B, C), (A, B, C, D), (A, B, C, D, E), (A, B, C, D, E, F));
