//! The state hash of a synthetic 10,000-entity state, beside a plain copy of the same bytes.
//!
//! Target: hashing costs at most 3x the copy. The entities are plain old data, as the game's
//! characters are, so the hash reads them in place; `hash_field_by_field` is the same hash
//! written field by field (what a big-endian machine does), for comparison. Run with
//! `cargo bench -p fixstep-runtime --bench state_hash`.

use std::hint::black_box;

use bytemuck::NoUninit;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fixstep_runtime::hash::CanonicalBytes;
use fixstep_runtime::math::{Angle, Fx, Vec3};
use fixstep_runtime::rng::SimRng;
use fixstep_runtime::{Canonical, EntityStore, StateHasher};

/// Entities in the synthetic state: the size of the stress level's crowd.
const ENTITIES: usize = 10_000;

/// A character-sized entity: what the game's characters hold, give or take, laid out as
/// plain old data.
#[derive(Clone, Copy, Default, Canonical, NoUninit)]
#[canonical(pod)]
#[repr(C)]
struct Entity {
    position: Vec3,
    velocity: Vec3,
    frame: Fx,
    facing: Angle,
    health: i32,
    jumps: u32,
    animation: u8,
    enabled: bool,
    spare: [u8; 2],
}

fn state() -> EntityStore<Entity> {
    let mut rng = SimRng::new(1, 1);
    let mut store = EntityStore::with_capacity(ENTITIES);
    for _ in 0..ENTITIES {
        let mut v = || rng.range_fx(Fx::from_num(-500), Fx::from_num(500));
        let entity = Entity {
            position: Vec3::new(v(), v(), v()),
            velocity: Vec3::new(v(), v(), v()),
            facing: Angle(rng.next_u32()),
            animation: (rng.next_u32() % 8) as u8,
            frame: rng.unit(),
            health: 100,
            enabled: true,
            jumps: rng.below(4),
            spare: [0; 2],
        };
        store.insert(entity);
    }
    store
}

fn bench(c: &mut Criterion) {
    let store = state();
    let bytes = CanonicalBytes::of(&store);
    let mut group = c.benchmark_group("state_hash_10k_entities");
    group.throughput(Throughput::Bytes(bytes.as_slice().len() as u64));
    let mut hasher = StateHasher::new();
    group.bench_function("hash", |b| {
        b.iter(|| {
            hasher.part("entities", black_box(&store));
            black_box(hasher.finish_reuse().total())
        });
    });
    let mut by_field = StateHasher::field_by_field();
    group.bench_function("hash_field_by_field", |b| {
        b.iter(|| {
            by_field.part("entities", black_box(&store));
            black_box(by_field.finish_reuse().total())
        });
    });
    let mut copy = vec![0u8; bytes.as_slice().len()];
    group.bench_function("copy_same_bytes", |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(bytes.as_slice()));
            black_box(&copy);
        });
    });
    group.bench_function("xxh3_of_bytes_only", |b| {
        b.iter(|| black_box(xxhash_rust::xxh3::xxh3_64(black_box(bytes.as_slice()))));
    });
    let mut streaming = xxhash_rust::xxh3::Xxh3::new();
    group.bench_function("xxh3_streaming_of_bytes", |b| {
        b.iter(|| {
            streaming.reset();
            streaming.update(black_box(bytes.as_slice()));
            black_box(streaming.digest())
        });
    });
    let mut scratch = CanonicalBytes::new();
    group.bench_function("encode_only", |b| {
        b.iter(|| {
            scratch.clear();
            black_box(&store).write_canonical(&mut scratch);
            black_box(scratch.as_slice().len())
        });
    });
    group.bench_function("clone_state", |b| b.iter(|| black_box(black_box(&store).clone())));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
