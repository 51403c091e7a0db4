//! Overflow of fixed-point arithmetic fails the same way in every build (determinism rule 4).
//!
//! The `fixed` crate checks `Fx` multiplication, division and conversions with
//! `debug_assert!`, so without the workspace's `debug-assertions = true` for that crate an
//! overflow panics in debug and silently wraps in release: two peers on two builds would go on
//! with different bits. These tests are named so that CI runs them in release as well as in
//! debug; in a release build without the setting, every one of them fails.
//!
//! On wasm32 a panic aborts the program (the target cannot unwind), so the tests that catch one
//! are ignored there; the same arithmetic in range still runs.

use std::hint::black_box;
use std::panic::{UnwindSafe, catch_unwind};
use std::sync::Once;

use fixstep_runtime::math::{Fx, Vec2, fx};

/// The message a panic of `f` carried, or `None` if `f` returned.
fn panic_message<T>(f: impl FnOnce() -> T + UnwindSafe) -> Option<String> {
    // Every panic in this file is expected: without a quiet hook each prints a message.
    static QUIET: Once = Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    match catch_unwind(f) {
        Ok(_) => None,
        Err(payload) => Some(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default(),
        ),
    }
}

/// Asserts that `f` panics with a message about overflow.
fn assert_overflow_panics<T>(what: &str, f: impl FnOnce() -> T + UnwindSafe) {
    match panic_message(f) {
        Some(message) => assert!(message.contains("overflow"), "{what}: panicked with {message:?}"),
        None => panic!(
            "{what} overflowed without a panic: this build wraps where another panics \
             (is `debug-assertions = true` set for the fixed crate in this profile?)"
        ),
    }
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "a panic aborts a wasm program: no test catches it")]
fn an_overflowing_multiply_panics() {
    assert_overflow_panics("Fx::MAX * 2", || black_box(Fx::MAX) * black_box(fx(2)));
    // The squared length the vectors warn about: 50,000 m squared is beyond Fx's 2^31.
    let far = Vec2::new(fx(50_000), Fx::ZERO);
    assert_overflow_panics("length_squared of 50 km", move || black_box(far).length_squared());
    let mut product = fx(70_000);
    assert_overflow_panics("70,000 *= 70,000", move || {
        product *= black_box(fx(70_000));
        product
    });
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "a panic aborts a wasm program: no test catches it")]
fn an_overflowing_divide_panics() {
    assert_overflow_panics("Fx::MAX / 0.5", || black_box(Fx::MAX) / black_box(Fx::ONE / 2));
    assert_overflow_panics("1e9 / 2^-32", || black_box(fx(1_000_000_000)) / black_box(Fx::DELTA));
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "a panic aborts a wasm program: no test catches it")]
fn an_overflowing_conversion_panics() {
    assert_overflow_panics("from_num(i64::MAX)", || Fx::from_num(black_box(i64::MAX)));
    assert_overflow_panics("from_num(u32::MAX)", || Fx::from_num(black_box(u32::MAX)));
    assert_overflow_panics("from_num(-2^31 - 1)", || {
        Fx::from_num(black_box(i64::from(i32::MIN) - 1))
    });
    assert_overflow_panics("to_num::<i16>(40,000)", || black_box(fx(40_000)).to_num::<i16>());
}

/// Multiplying by an integer and adding are plain integer arithmetic inside the crate, checked
/// by `overflow-checks`, which the workspace also turns on everywhere.
#[test]
#[cfg_attr(target_family = "wasm", ignore = "a panic aborts a wasm program: no test catches it")]
fn integer_products_and_sums_overflowing_panic_too() {
    assert_overflow_panics("Fx::MAX * 2i64", || black_box(Fx::MAX) * black_box(2i64));
    assert_overflow_panics("Fx::MAX + 1", || black_box(Fx::MAX) + black_box(Fx::ONE));
}

/// The same operations in range do not panic: the checks fire on overflow only.
#[test]
fn in_range_arithmetic_does_not_panic() {
    assert_eq!(panic_message(|| black_box(fx(40_000)) * black_box(fx(50_000))), None);
    assert_eq!(panic_message(|| Fx::from_num(black_box(i32::MAX))), None);
    assert_eq!(panic_message(|| black_box(Fx::MAX) / black_box(fx(2))), None);
}
