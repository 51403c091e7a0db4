//! Throughput of the fixed-point sin, cos, atan2 and sqrt beside the same count of f64 calls.
//!
//! Target: within 5x of f64. Run with `cargo bench -p fixstep-runtime --bench math`.
#![expect(
    clippy::disallowed_types,
    reason = "the f64 calls are the baseline the fixed-point functions are measured against"
)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fixstep_runtime::math::{Angle, Fx, atan2, sqrt};
use fixstep_runtime::rng::SimRng;

/// Calls per measured iteration: enough to amortize the loop.
const CALLS: usize = 1_024;

fn bench(c: &mut Criterion) {
    let mut rng = SimRng::new(7, 7);
    let angles: Vec<Angle> = (0..CALLS).map(|_| Angle(rng.next_u32())).collect();
    let pairs: Vec<(Fx, Fx)> = (0..CALLS)
        .map(|_| {
            (
                rng.range_fx(Fx::from_num(-100), Fx::from_num(100)),
                rng.range_fx(Fx::from_num(-100), Fx::from_num(100)),
            )
        })
        .collect();
    let positives: Vec<Fx> =
        (0..CALLS).map(|_| rng.range_fx(Fx::ZERO, Fx::from_num(10_000))).collect();
    let radians: Vec<f64> = angles.iter().map(|a| a.to_radians().to_num::<f64>()).collect();
    let float_pairs: Vec<(f64, f64)> =
        pairs.iter().map(|(y, x)| (y.to_num(), x.to_num())).collect();
    let float_positives: Vec<f64> = positives.iter().map(|x| x.to_num()).collect();

    let mut group = c.benchmark_group("math_1024_calls");
    group.throughput(Throughput::Elements(CALLS as u64));
    group.bench_function("sin_fixed", |b| {
        b.iter(|| angles.iter().map(|a| black_box(*a).sin()).fold(Fx::ZERO, |s, v| s ^ v));
    });
    group.bench_function("sin_f64", |b| {
        b.iter(|| radians.iter().map(|r| black_box(*r).sin()).sum::<f64>());
    });
    group.bench_function("cos_fixed", |b| {
        b.iter(|| angles.iter().map(|a| black_box(*a).cos()).fold(Fx::ZERO, |s, v| s ^ v));
    });
    group.bench_function("cos_f64", |b| {
        b.iter(|| radians.iter().map(|r| black_box(*r).cos()).sum::<f64>());
    });
    group.bench_function("atan2_fixed", |b| {
        b.iter(|| {
            pairs.iter().map(|&(y, x)| atan2(black_box(y), black_box(x)).0).fold(0, |s, v| s ^ v)
        });
    });
    group.bench_function("atan2_f64", |b| {
        b.iter(|| float_pairs.iter().map(|&(y, x)| black_box(y).atan2(black_box(x))).sum::<f64>());
    });
    group.bench_function("sqrt_fixed", |b| {
        b.iter(|| positives.iter().map(|x| sqrt(black_box(*x))).fold(Fx::ZERO, |s, v| s ^ v));
    });
    group.bench_function("sqrt_f64", |b| {
        b.iter(|| float_positives.iter().map(|x| black_box(*x).sqrt()).sum::<f64>());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
