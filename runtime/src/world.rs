//! Entity ids and id-ordered storage.
//!
//! Iteration order is state (DESIGN.md, rule 3): two peers that visit entities in different
//! orders resolve collisions differently. [`EntityStore`] keeps entities in a vector indexed by
//! id, so iteration is always in id order, and reuses freed ids in a fixed (last freed, first
//! reused) order that is itself part of the serialized state. A hash map may *find* entities by
//! some key ([`KeyIndex`]) but offers no iteration at all, so it cannot leak its order.

use core::hash::Hash;

use serde::{Deserialize, Serialize};

use crate::Canonical;
use xxhash_rust::xxh3::Xxh3DefaultBuilder;

/// A generational entity id: the slot index, and how many times that slot has been freed. An
/// id kept after its entity was removed never finds the slot's next occupant.
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
)]
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
enum Slot<T> {
    Occupied { generation: u32, value: T },
    Vacant { generation: u32 },
}

/// Entities of one kind in id order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct EntityStore<T> {
    slots: Vec<Slot<T>>,
    /// Freed slot indices; the last one freed is reused first.
    free: Vec<u32>,
    len: u32,
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
        Self { slots: Vec::new(), free: Vec::new(), len: 0 }
    }

    /// An empty store with room for `capacity` entities before it reallocates.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self { slots: Vec::with_capacity(capacity), free: Vec::new(), len: 0 }
    }

    /// Number of live entities.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
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
            let slot = &mut self.slots[index as usize];
            let generation = match slot {
                Slot::Vacant { generation } => *generation,
                Slot::Occupied { .. } => unreachable!("a free-list slot is vacant"),
            };
            *slot = Slot::Occupied { generation, value };
            EntityId { index, generation }
        } else {
            let index = u32::try_from(self.slots.len()).expect("fewer than 2^32 entity slots");
            self.slots.push(Slot::Occupied { generation: 0, value });
            EntityId { index, generation: 0 }
        }
    }

    /// Removes the entity with `id` and returns it, or `None` if it is not alive.
    pub fn remove(&mut self, id: EntityId) -> Option<T> {
        let slot = self.slots.get_mut(id.index as usize)?;
        match slot {
            Slot::Occupied { generation, .. } if *generation == id.generation => {
                let vacant = Slot::Vacant { generation: generation.wrapping_add(1) };
                let Slot::Occupied { value, .. } = core::mem::replace(slot, vacant) else {
                    unreachable!("matched as occupied");
                };
                self.free.push(id.index);
                self.len -= 1;
                Some(value)
            }
            _ => None,
        }
    }

    /// Whether `id` names a live entity.
    #[must_use]
    pub fn contains(&self, id: EntityId) -> bool {
        self.get(id).is_some()
    }

    /// The entity with `id`, if alive.
    #[must_use]
    pub fn get(&self, id: EntityId) -> Option<&T> {
        match self.slots.get(id.index as usize)? {
            Slot::Occupied { generation, value } if *generation == id.generation => Some(value),
            _ => None,
        }
    }

    /// The entity with `id`, if alive, to change.
    pub fn get_mut(&mut self, id: EntityId) -> Option<&mut T> {
        match self.slots.get_mut(id.index as usize)? {
            Slot::Occupied { generation, value } if *generation == id.generation => Some(value),
            _ => None,
        }
    }

    /// Live entities with their ids, in id order. (Slot indices fit a `u32`: `insert` never
    /// makes more slots.)
    pub fn iter(&self) -> impl Iterator<Item = (EntityId, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(index, slot)| match slot {
            Slot::Occupied { generation, value } => {
                Some((EntityId { index: index as u32, generation: *generation }, value))
            }
            Slot::Vacant { .. } => None,
        })
    }

    /// Live entities with their ids, in id order, to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (EntityId, &mut T)> + '_ {
        self.slots.iter_mut().enumerate().filter_map(|(index, slot)| match slot {
            Slot::Occupied { generation, value } => {
                Some((EntityId { index: index as u32, generation: *generation }, value))
            }
            Slot::Vacant { .. } => None,
        })
    }

    /// Ids of the live entities, in id order.
    pub fn ids(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.iter().map(|(id, _)| id)
    }

    /// Live entities, in id order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.iter().map(|(_, value)| value)
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
