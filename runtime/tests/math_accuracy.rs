//! Accuracy of the fixed-point math, measured against f64.
#![expect(
    clippy::disallowed_types,
    reason = "f64 is the reference the fixed-point functions are measured against"
)]

use fixstep_runtime::math::{Angle, Fx, Vec2, Vec3, atan2, sqrt};

/// The required accuracy of sin, cos and atan2, in their own units (1 and radians).
const TRIG_TOLERANCE: f64 = 1e-6;

fn to_f64(x: Fx) -> f64 {
    x.to_num::<f64>()
}

fn angle_radians(a: Angle) -> f64 {
    f64::from(a.0) / 4_294_967_296.0 * std::f64::consts::TAU
}

/// A deterministic spread of 64-bit values (SplitMix64), so the sweep is the same every run.
fn spread(count: usize) -> impl Iterator<Item = u64> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    (0..count).map(move |_| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

#[test]
fn sin_and_cos_are_within_a_millionth_over_every_angle() {
    let mut worst: f64 = 0.0;
    // Every 4096th angle, plus the quadrant and octant boundaries and their neighbours.
    let sweep = (0..=u32::MAX / 4096).map(|i| i * 4096);
    let edges = (0..8u32).flat_map(|o| {
        let b = o << 29;
        [b, b.wrapping_add(1), b.wrapping_sub(1)]
    });
    for units in sweep.chain(edges) {
        let angle = Angle(units);
        let (sin, cos) = angle.sin_cos();
        let r = angle_radians(angle);
        worst = worst.max((to_f64(sin) - r.sin()).abs()).max((to_f64(cos) - r.cos()).abs());
    }
    println!("sin/cos worst error {worst:e}");
    assert!(worst < TRIG_TOLERANCE, "worst sin/cos error {worst:e}");
}

#[test]
fn atan2_is_within_a_millionth_of_a_radian_in_every_octant() {
    let mut worst: f64 = 0.0;
    for bits in spread(200_000) {
        // Components of every magnitude from 2^-32 to 2^31, of either sign.
        let shift = (bits >> 58) as u32 % 62;
        let y = Fx::from_bits(((bits as i64) >> 1) >> shift);
        let x = Fx::from_bits((bits.rotate_left(29) as i64) >> shift);
        if x == Fx::ZERO && y == Fx::ZERO {
            continue;
        }
        let exact = to_f64(y).atan2(to_f64(x));
        let got = angle_radians(atan2(y, x));
        let mut error = (got - exact).abs();
        error = error.min((error - std::f64::consts::TAU).abs());
        worst = worst.max(error);
    }
    println!("atan2 worst error {worst:e} rad");
    assert!(worst < TRIG_TOLERANCE, "worst atan2 error {worst:e}");
}

#[test]
fn atan2_of_the_axes_and_diagonals_is_exact() {
    let one = Fx::ONE;
    assert_eq!(atan2(Fx::ZERO, one), Angle::ZERO);
    assert_eq!(atan2(one, Fx::ZERO), Angle::QUARTER);
    assert_eq!(atan2(Fx::ZERO, -one), Angle::HALF);
    assert_eq!(atan2(-one, Fx::ZERO), Angle::THREE_QUARTERS);
    assert_eq!(atan2(one, one), Angle::from_turns(1, 8));
    assert_eq!(atan2(-one, -one), Angle::from_turns(5, 8));
    assert_eq!(atan2(Fx::ZERO, Fx::ZERO), Angle::ZERO);
}

#[test]
fn sqrt_is_within_two_units_in_the_last_place() {
    let ulp = 2f64.powi(-32);
    for bits in spread(100_000).chain([0, 1, 2, 3, 4, u64::MAX >> 1]) {
        let x = Fx::from_bits((bits >> 1) as i64 >> (bits % 60));
        let exact = to_f64(x).sqrt();
        let got = to_f64(sqrt(x));
        // f64 itself carries 53 bits: compare in units of the larger of an Fx ulp and f64's.
        let tolerance = 2.0 * ulp.max(exact * f64::EPSILON);
        assert!((got - exact).abs() <= tolerance, "sqrt({x}) = {got}, exact {exact}");
    }
}

#[test]
fn sqrt_is_exact_on_squares_and_zero_for_negatives() {
    for n in [0i32, 1, 2, 3, 100, 46_340] {
        let square = Fx::from_num(i64::from(n) * i64::from(n));
        assert_eq!(sqrt(square), Fx::from_num(n));
    }
    assert_eq!(sqrt(Fx::from_num(-4)), Fx::ZERO);
    assert_eq!(sqrt(Fx::from_bits(1)), Fx::from_bits(65_536)); // sqrt(2^-32) = 2^-16
}

#[test]
fn vector_lengths_hold_for_large_and_small_vectors() {
    let v = Vec2::new(Fx::from_num(3), Fx::from_num(4));
    assert_eq!(v.length(), Fx::from_num(5));
    let huge = Vec2::new(Fx::from_num(1_000_000), Fx::from_num(1_000_000));
    let exact = 1_000_000.0 * 2f64.sqrt();
    assert!((to_f64(huge.length()) - exact).abs() < 1e-6);
    let v3 = Vec3::new(Fx::from_num(2), Fx::from_num(3), Fx::from_num(6));
    assert_eq!(v3.length(), Fx::from_num(7));
    let n = Vec2::new(Fx::from_num(-7), Fx::from_num(24)).normalize_or_zero();
    assert!((to_f64(n.x) + 0.28).abs() < 1e-9 && (to_f64(n.y) - 0.96).abs() < 1e-9);
    assert_eq!(Vec2::ZERO.normalize_or_zero(), Vec2::ZERO);
}

#[test]
fn angles_convert_to_and_from_radians() {
    for units in spread(10_000).map(|b| b as u32) {
        let angle = Angle(units);
        let radians = angle.to_radians();
        let expected = f64::from(angle.signed_units()) / 2f64.powi(31) * std::f64::consts::PI;
        assert!((to_f64(radians) - expected).abs() < 1e-9, "{units}");
        let back = Angle::from_radians(radians);
        assert!(angle.shortest_delta(back).abs() <= 1, "{units} came back as {}", back.0);
    }
}
