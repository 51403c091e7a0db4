//! Entity storage: id order, generations and deterministic id reuse.

use fixstep_runtime::hash::canonical_hash;
use fixstep_runtime::world::KeyIndex;
use fixstep_runtime::{EntityId, EntityStore};

#[test]
fn iteration_is_in_id_order_whatever_the_insertion_history() {
    let mut store = EntityStore::new();
    let ids: Vec<EntityId> = (0..6).map(|v| store.insert(v)).collect();
    store.remove(ids[1]);
    store.remove(ids[4]);
    let reused = store.insert(40);
    // The last freed slot is reused first, so the newcomer sits at index 4, between 3 and 5.
    assert_eq!(reused.index, 4);
    let order: Vec<i32> = store.values().copied().collect();
    assert_eq!(order, [0, 2, 3, 40, 5]);
    assert_eq!(store.len(), 5);
}

#[test]
fn a_stale_id_never_finds_the_slots_next_occupant() {
    let mut store = EntityStore::new();
    let old = store.insert("first");
    assert_eq!(store.remove(old), Some("first"));
    let new = store.insert("second");
    assert_eq!(new.index, old.index);
    assert_ne!(new.generation, old.generation);
    assert_eq!(store.get(old), None);
    assert_eq!(store.remove(old), None);
    assert_eq!(store.get(new), Some(&"second"));
    assert!(store.get(EntityId { index: 99, generation: 0 }).is_none());
}

#[test]
fn two_stores_with_the_same_history_hash_the_same_and_another_history_does_not() {
    let build = |remove_first: bool| {
        let mut store = EntityStore::new();
        let a = store.insert(1u32);
        let b = store.insert(2u32);
        if remove_first {
            store.remove(a);
            store.remove(b);
        } else {
            store.remove(b);
            store.remove(a);
        }
        store.insert(3u32);
        store
    };
    assert_eq!(canonical_hash(&build(true)), canonical_hash(&build(true)));
    // The free list's order is state: it decides which slot the next entity takes.
    assert_ne!(canonical_hash(&build(true)), canonical_hash(&build(false)));
}

#[test]
fn serde_round_trip_keeps_ids_and_free_list() {
    let mut store = EntityStore::new();
    let ids: Vec<EntityId> = (0..4u8).map(|v| store.insert(v)).collect();
    store.remove(ids[2]);
    let bytes = postcard::to_stdvec(&store).expect("encodes");
    let mut copy: EntityStore<u8> = postcard::from_bytes(&bytes).expect("decodes");
    assert_eq!(copy, store);
    assert_eq!(copy.insert(9), store.insert(9));
}

#[test]
fn key_index_finds_ids_by_key() {
    let mut index = KeyIndex::new();
    let id = EntityId { index: 3, generation: 1 };
    assert_eq!(index.insert("door-7".to_owned(), id), None);
    assert_eq!(index.get("door-7"), Some(id));
    assert_eq!(index.remove("door-7"), Some(id));
    assert!(index.is_empty());
}
