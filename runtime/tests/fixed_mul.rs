//! `math::mul`, the fast fixed-point product, is the fixed crate's `*` bit for bit: the same
//! result for every pair of values, and the same panic where the product overflows.

use std::panic::catch_unwind;

use fixstep_runtime::math::{Fx, mul};
use proptest::prelude::*;

/// The product as the fixed crate computes it, or `None` where it panics.
fn fixed_product(a: Fx, b: Fx) -> Option<Fx> {
    catch_unwind(|| a * b).ok()
}

fn fast_product(a: Fx, b: Fx) -> Option<Fx> {
    catch_unwind(|| mul(a, b)).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// Values of every size, from a few units of the last place to the whole range, both signs.
    #[test]
    fn mul_is_the_fixed_product(a in any::<i64>(), b in any::<i64>(), shift_a in 0u32..63, shift_b in 0u32..63) {
        let a = Fx::from_bits(a >> shift_a);
        let b = Fx::from_bits(b >> shift_b);
        prop_assert_eq!(fast_product(a, b), fixed_product(a, b), "{} * {}", a, b);
    }
}

#[test]
fn the_edges_agree() {
    std::panic::set_hook(Box::new(|_| {}));
    let edges = [
        Fx::MIN,
        Fx::MIN + Fx::DELTA,
        -Fx::ONE,
        -Fx::DELTA,
        Fx::ZERO,
        Fx::DELTA,
        Fx::ONE,
        Fx::from_bits(1 << 47),
        Fx::from_bits(-(1 << 47)),
        Fx::MAX - Fx::DELTA,
        Fx::MAX,
    ];
    for &a in &edges {
        for &b in &edges {
            assert_eq!(fast_product(a, b), fixed_product(a, b), "{a} * {b}");
        }
    }
    // The panic says the same.
    let message = catch_unwind(|| mul(Fx::MAX, Fx::MAX)).expect_err("overflows");
    assert_eq!(message.downcast_ref::<&str>(), Some(&"overflow"));
}
