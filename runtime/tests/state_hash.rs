//! State hashing: the canonical encoding and partial hashes.

use bytemuck::NoUninit;
use fixstep_runtime::hash::{CanonicalBytes, canonical_hash};
use fixstep_runtime::math::{Angle, Fx, Vec2};
use fixstep_runtime::{Canonical, EntityId, EntityStore, StateHasher, Tick};

#[derive(Canonical)]
struct Sample {
    tick: Tick,
    pos: Vec2,
    facing: Angle,
    name: String,
    tags: Vec<u16>,
    target: Option<u8>,
}

#[derive(Canonical)]
enum Mode {
    Idle,
    Walk(u8),
    Run { speed: i16 },
}

/// The encoding is part of every state hash ever pinned: its exact bytes are fixed here.
#[test]
fn canonical_bytes_are_fixed_width_little_endian_in_declaration_order() {
    let sample = Sample {
        tick: Tick(0x0102_0304),
        pos: Vec2::new(Fx::from_bits(5), Fx::from_bits(-1)),
        facing: Angle(0xaabb_ccdd),
        name: "ab".to_owned(),
        tags: vec![7, 0x0100],
        target: Some(9),
    };
    let mut expected = Vec::new();
    expected.extend_from_slice(&[4, 3, 2, 1]);
    expected.extend_from_slice(&5i64.to_le_bytes());
    expected.extend_from_slice(&(-1i64).to_le_bytes());
    expected.extend_from_slice(&[0xdd, 0xcc, 0xbb, 0xaa]);
    expected.extend_from_slice(&2u64.to_le_bytes());
    expected.extend_from_slice(b"ab");
    expected.extend_from_slice(&2u64.to_le_bytes());
    expected.extend_from_slice(&[7, 0, 0, 1]);
    expected.extend_from_slice(&[1, 9]);
    assert_eq!(CanonicalBytes::of(&sample).as_slice(), expected.as_slice());
}

#[test]
fn enum_variants_are_their_index_then_their_fields() {
    assert_eq!(CanonicalBytes::of(&Mode::Idle).as_slice(), &[0, 0, 0, 0]);
    assert_eq!(CanonicalBytes::of(&Mode::Walk(3)).as_slice(), &[1, 0, 0, 0, 3]);
    assert_eq!(CanonicalBytes::of(&Mode::Run { speed: -2 }).as_slice(), &[2, 0, 0, 0, 0xfe, 0xff]);
}

/// A sequence's length is encoded, so moving an element from one list to the next changes
/// the hash although the concatenated elements are the same.
#[test]
fn lengths_keep_neighbouring_lists_apart() {
    let a = (vec![1u8, 2], vec![3u8]);
    let b = (vec![1u8], vec![2u8, 3]);
    assert_ne!(canonical_hash(&a), canonical_hash(&b));
}

#[test]
fn a_change_in_one_subsystem_names_that_subsystem() {
    let hash = |rng: u64, positions: &[i64]| {
        let mut hasher = StateHasher::new();
        hasher.part("positions", positions).part("rng", &rng);
        hasher.finish()
    };
    let base = hash(1, &[1, 2, 3]);
    assert_eq!(base, hash(1, &[1, 2, 3]));
    let moved = hash(1, &[1, 2, 4]);
    assert_ne!(base.total(), moved.total());
    assert_eq!(base.differing_parts(&moved), ["positions"]);
    assert_eq!(base.differing_parts(&hash(2, &[1, 2, 3])), ["rng"]);
    assert!(base.differing_parts(&base).is_empty());
}

#[test]
fn renaming_or_reordering_subsystems_changes_the_total() {
    let mut a = StateHasher::new();
    a.part("x", &1u8).part("y", &2u8);
    let mut b = StateHasher::new();
    b.part("y", &2u8).part("x", &1u8);
    let mut c = StateHasher::new();
    c.part("x", &1u8).part("z", &2u8);
    let (a, b, c) = (a.finish(), b.finish(), c.finish());
    assert_ne!(a.total(), b.total());
    assert_ne!(a.total(), c.total());
}

#[test]
fn the_hash_prints_as_sixteen_lowercase_hex_digits() {
    let mut hasher = StateHasher::new();
    hasher.part("tick", &Tick(3));
    let text = hasher.finish_reuse().to_string();
    assert_eq!(text.len(), 16);
    assert!(text.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)));
    // The reused hasher starts empty.
    assert!(hasher.finish_reuse().parts().is_empty());
}

/// Plain old data: a `#[repr(C)]` struct without padding, whose canonical bytes are its memory.
#[derive(Clone, Copy, Default, Canonical, NoUninit)]
#[canonical(pod)]
#[repr(C)]
struct Body {
    pos: Vec2,
    speed: Fx,
    facing: Angle,
    at: Tick,
    id: EntityId,
    mode: Gait,
    enabled: bool,
    spare: [u8; 6],
}

/// A fieldless enum as plain old data: its discriminant at its `repr` width.
#[derive(Clone, Copy, Default, Canonical, NoUninit)]
#[canonical(pod)]
#[repr(u8)]
enum Gait {
    #[default]
    Stand,
    Walk,
    Run = 7,
}

fn bodies(n: u32) -> Vec<Body> {
    (0..n)
        .map(|i| Body {
            pos: Vec2::new(Fx::from_bits(i64::from(i) * 77 - 5), Fx::from_bits(-i64::from(i))),
            speed: Fx::from_bits(i64::from(i) << 20),
            facing: Angle(i.wrapping_mul(0x9e37_79b9)),
            at: Tick(i),
            id: EntityId { index: i, generation: i / 3 },
            mode: [Gait::Stand, Gait::Walk, Gait::Run][i as usize % 3],
            enabled: i % 2 == 0,
            spare: [i as u8; 6],
        })
        .collect()
}

/// The bytes of a plain-old-data struct written field by field (what a big-endian machine
/// writes) are its memory (what a little-endian one hashes in place): the two paths agree.
#[test]
fn plain_old_data_in_place_is_its_field_by_field_encoding() {
    let one = bodies(5)[4];
    let mut by_field = CanonicalBytes::field_by_field();
    one.write_canonical(&mut by_field);
    assert_eq!(CanonicalBytes::of(&one).as_slice(), by_field.as_slice());
    assert_eq!(by_field.as_slice().len(), size_of::<Body>());
    // The enum is one byte, its discriminant: Run is 7.
    assert_eq!(CanonicalBytes::of(&Gait::Run).as_slice(), &[7]);
}

/// Sequences of plain old data, in memory and field by field, give the same hash: long ones
/// (fed to the hash without a copy), short ones, arrays, entity stores with vacant slots, and
/// plain old data inside other types.
#[test]
fn in_place_and_field_by_field_hashes_agree() {
    let long = bodies(20_000);
    let mut store = EntityStore::new();
    let ids: Vec<EntityId> = long.iter().take(3_000).map(|b| store.insert(*b)).collect();
    for id in ids.iter().step_by(7) {
        store.remove(*id);
    }
    let mixed: Vec<(u8, Body, Option<Tick>)> =
        bodies(300).into_iter().map(|b| (1, b, Some(b.at))).collect();
    let arrays: Vec<[Vec2; 3]> = long.iter().map(|b| [b.pos; 3]).collect();
    let hash = |hasher: &mut StateHasher| {
        hasher
            .part("long", &long)
            .part("short", &long[..3])
            .part("store", &store)
            .part("mixed", &mixed)
            .part("arrays", &arrays)
            .part("ints", &(0..5_000u32).collect::<Vec<_>>());
        hasher.finish_reuse()
    };
    let in_place = hash(&mut StateHasher::new());
    let by_field = hash(&mut StateHasher::field_by_field());
    assert_eq!(in_place, by_field);
    // And both are the hash of the bytes written field by field.
    let mut bytes = CanonicalBytes::field_by_field();
    long.write_canonical(&mut bytes);
    assert_eq!(in_place.part("long"), Some(xxhash_rust::xxh3::xxh3_64(bytes.as_slice())));
}

/// Hashing every tick allocates nothing: the partial hashes live inside the `StateHash`.
#[test]
fn a_state_hash_holds_its_parts_without_a_vector() {
    let mut hasher = StateHasher::new();
    for name in ["a", "b", "c"] {
        hasher.part(name, &1u8);
    }
    let hash = hasher.finish_reuse();
    let copy = hash.clone();
    assert_eq!(copy.parts().len(), 3);
    assert_eq!(copy, hash);
    assert_eq!(copy.part("b"), Some(canonical_hash(&1u8)));
}
