//! State hashing: the canonical encoding and partial hashes.

use fixstep_runtime::hash::{CanonicalBytes, canonical_hash};
use fixstep_runtime::math::{Angle, Fx, Vec2};
use fixstep_runtime::{Canonical, StateHasher, Tick};

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
