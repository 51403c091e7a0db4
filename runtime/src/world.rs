//! Entity ids and id-ordered storage.
//!
//! Iteration order is state (docs/ARCHITECTURE.md, rule 3): two peers that visit entities in different
//! orders resolve collisions differently. [`EntityStore`] keeps entities in a vector indexed by
//! id, so iteration is always in id order, and reuses freed ids in a fixed (last freed, first
//! reused) order that is itself part of the serialized state. A hash map may *find* entities by
//! some key ([`KeyIndex`]) but offers no iteration at all, so it cannot leak its order.

use core::hash::Hash;

use bytemuck::NoUninit;
use serde::{Deserialize, Serialize};

use crate::Canonical;
use xxhash_rust::xxh3::Xxh3DefaultBuilder;

/// A generational entity id: the slot index, and how many times that slot has been freed. An
/// id kept after its entity was removed never finds the slot's next occupant. Plain old data,
/// hashed in place.
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
    Serialize,
    Deserialize,
    Canonical,
    NoUninit,
)]
#[canonical(pod)]
#[repr(C)]
pub struct EntityId {
    /// Slot index: the iteration order.
    pub index: u32,
    /// Incremented each time the slot is freed.
    pub generation: u32,
}

impl core::fmt::Display for EntityId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

/// Entities of one kind in id order.
///
/// The slots are kept as three parallel sequences (generations, occupancy, values) rather
/// than one sequence of tagged slots, so that the values lie back to back: a store of plain
/// old data (a [`crate::hash::CanonicalPod`] entity) is hashed in place, in one run of memory.
/// A vacant slot holds `T::default()`, so its bytes are fixed too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
#[serde(try_from = "StoreParts<T>", bound(deserialize = "T: Deserialize<'de>"))]
pub struct EntityStore<T> {
    /// Per slot, how many times it was freed.
    generations: Vec<u32>,
    /// Per slot, whether an entity lives in it.
    occupied: Vec<bool>,
    /// Per slot, its entity, or `T::default()` when vacant.
    values: Vec<T>,
    /// Freed slot indices; the last one freed is reused first.
    free: Vec<u32>,
    len: u32,
}

/// An [`EntityStore`] as it arrives from serialized bytes, before its consistency is checked:
/// bytes from a peer or a file must not be able to make a later access panic.
#[derive(Deserialize)]
struct StoreParts<T> {
    generations: Vec<u32>,
    occupied: Vec<bool>,
    values: Vec<T>,
    free: Vec<u32>,
    len: u32,
}

impl<T> TryFrom<StoreParts<T>> for EntityStore<T> {
    type Error = String;

    fn try_from(parts: StoreParts<T>) -> Result<Self, String> {
        let slots = parts.generations.len();
        if parts.occupied.len() != slots || parts.values.len() != slots {
            return Err(format!(
                "an entity store has {slots} generations, {} occupancy flags and {} values",
                parts.occupied.len(),
                parts.values.len()
            ));
        }
        if u32::try_from(slots).is_err() {
            return Err(format!("an entity store has {slots} slots, more than 2^32"));
        }
        let live = parts.occupied.iter().filter(|&&o| o).count();
        if live != parts.len as usize {
            return Err(format!("an entity store counts {} entities in {live} slots", parts.len));
        }
        let mut listed = vec![false; slots];
        for &index in &parts.free {
            let at = index as usize;
            if at >= slots || parts.occupied[at] || listed[at] {
                return Err(format!(
                    "slot {index} of an entity store is listed as free but is not a free slot"
                ));
            }
            listed[at] = true;
        }
        if parts.free.len() != slots - live {
            return Err(format!(
                "an entity store lists {} free slots of {}",
                parts.free.len(),
                slots - live
            ));
        }
        Ok(Self {
            generations: parts.generations,
            occupied: parts.occupied,
            values: parts.values,
            free: parts.free,
            len: parts.len,
        })
    }
}

impl<T> Default for EntityStore<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> EntityStore<T> {
    /// An empty store.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            generations: Vec::new(),
            occupied: Vec::new(),
            values: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }

    /// An empty store with room for `capacity` entities before it reallocates.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            generations: Vec::with_capacity(capacity),
            occupied: Vec::with_capacity(capacity),
            values: Vec::with_capacity(capacity),
            free: Vec::new(),
            len: 0,
        }
    }

    /// Number of live entities.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Number of slots, live or vacant: every id's index is below it, so a table indexed by
    /// slot of this length has room for every entity.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no live entities.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds an entity and returns its id.
    ///
    /// # Panics
    ///
    /// When the store already holds `u32::MAX` slots.
    pub fn insert(&mut self, value: T) -> EntityId {
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let at = index as usize;
            self.occupied[at] = true;
            self.values[at] = value;
            EntityId { index, generation: self.generations[at] }
        } else {
            let index = u32::try_from(self.values.len()).expect("fewer than 2^32 entity slots");
            self.generations.push(0);
            self.occupied.push(true);
            self.values.push(value);
            EntityId { index, generation: 0 }
        }
    }

    /// Whether `id` names a live entity.
    #[must_use]
    pub fn contains(&self, id: EntityId) -> bool {
        self.get(id).is_some()
    }

    /// Whether the slot of `id` is occupied by that very entity.
    fn live(&self, id: EntityId) -> bool {
        let at = id.index as usize;
        self.occupied.get(at) == Some(&true) && self.generations.get(at) == Some(&id.generation)
    }

    /// The entity with `id`, if alive.
    #[must_use]
    pub fn get(&self, id: EntityId) -> Option<&T> {
        if self.live(id) { self.values.get(id.index as usize) } else { None }
    }

    /// The entity with `id`, if alive, to change.
    pub fn get_mut(&mut self, id: EntityId) -> Option<&mut T> {
        if self.live(id) { self.values.get_mut(id.index as usize) } else { None }
    }

    /// Live entities with their ids, in id order. (Slot indices fit a `u32`: `insert` never
    /// makes more slots.)
    pub fn iter(&self) -> impl Iterator<Item = (EntityId, &T)> + '_ {
        self.slot_ids().zip(&self.values).filter_map(|(id, value)| id.map(|id| (id, value)))
    }

    /// Live entities with their ids, in id order, to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (EntityId, &mut T)> + '_ {
        let slots = self.generations.iter().zip(&self.occupied).enumerate();
        slots.zip(&mut self.values).filter_map(|((index, (&generation, &occupied)), value)| {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a slot index, under 2^32: insert never makes more slots"
            )]
            occupied.then_some((EntityId { index: index as u32, generation }, value))
        })
    }

    /// Each slot's id if it is occupied, in slot order.
    fn slot_ids(&self) -> impl Iterator<Item = Option<EntityId>> + '_ {
        self.generations.iter().zip(&self.occupied).enumerate().map(
            |(index, (&generation, &occupied))| {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "a slot index, under 2^32: insert never makes more slots"
                )]
                occupied.then_some(EntityId { index: index as u32, generation })
            },
        )
    }

    /// Ids of the live entities, in id order.
    pub fn ids(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.slot_ids().flatten()
    }

    /// Live entities, in id order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.iter().map(|(_, value)| value)
    }
}

impl<T: Default> EntityStore<T> {
    /// Removes the entity with `id` and returns it, or `None` if it is not alive. Its slot
    /// holds `T::default()` until it is reused.
    pub fn remove(&mut self, id: EntityId) -> Option<T> {
        if !self.live(id) {
            return None;
        }
        let at = id.index as usize;
        self.occupied[at] = false;
        self.generations[at] = self.generations[at].wrapping_add(1);
        self.free.push(id.index);
        self.len -= 1;
        Some(core::mem::take(&mut self.values[at]))
    }
}

/// Finds entities by a key (a name, a grid cell) through a hash map with a fixed hasher, and
/// deliberately offers no iteration: the simulation visits entities through an
/// [`EntityStore`], in id order, never in the order of a hash table.
#[derive(Clone, Debug, Default)]
pub struct KeyIndex<K> {
    map: hashbrown::HashMap<K, EntityId, Xxh3DefaultBuilder>,
}

impl<K: Hash + Eq> KeyIndex<K> {
    /// An empty index.
    #[must_use]
    pub fn new() -> Self {
        Self { map: hashbrown::HashMap::with_hasher(Xxh3DefaultBuilder::new()) }
    }

    /// Points `key` at `id`, returning the id it pointed at before.
    pub fn insert(&mut self, key: K, id: EntityId) -> Option<EntityId> {
        self.map.insert(key, id)
    }

    /// The id `key` points at.
    #[must_use]
    pub fn get<Q>(&self, key: &Q) -> Option<EntityId>
    where
        Q: Hash + hashbrown::Equivalent<K> + ?Sized,
    {
        self.map.get(key).copied()
    }

    /// Forgets `key`, returning the id it pointed at.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<EntityId>
    where
        Q: Hash + hashbrown::Equivalent<K> + ?Sized,
    {
        self.map.remove(key)
    }

    /// Number of keys.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the index is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Forgets every key.
    pub fn clear(&mut self) {
        self.map.clear();
    }
}
