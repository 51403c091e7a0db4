//! The differences of two state dumps, as desync reports and `fixstep desync-diff` list them:
//! a fixed-point number (written by `fixed` as its bits) is said as the number it is, exactly,
//! with its bits; anything else as written.

use fixstep_netplay::desync::differences;

fn first(a: &str, b: &str) -> (String, String, String) {
    let found = differences(a, b, 1).expect("both are RON");
    let d = found.first().expect("they differ");
    (d.path.clone(), d.a.clone(), d.b.clone())
}

#[test]
fn fixed_point_numbers_are_said_as_numbers_with_their_bits() {
    // -1 and 0.5 as 32.32 fixed point.
    let (path, a, b) = first("(pos: (x: (bits: -4294967296)))", "(pos: (x: (bits: 2147483648)))");
    assert_eq!(path, "pos.x");
    assert_eq!(a, "-1 (bits -4294967296)");
    assert_eq!(b, "0.5 (bits 2147483648)");
}

#[test]
fn what_is_not_a_fixed_point_number_on_both_sides_is_said_as_written() {
    let (path, a, b) = first("(x: (bits: 5))", r#"(x: (bits: "five"))"#);
    assert_eq!((path.as_str(), a.as_str(), b.as_str()), ("x.bits", "5", "\"five\""));
    // Bits beyond an i64 are no fixed-point number of the runtime's.
    let (path, a, _) = first("(x: (bits: 18446744073709551615))", "(x: (bits: 1))");
    assert_eq!((path.as_str(), a.as_str()), ("x.bits", "18446744073709551615"));
    let (path, a, b) = first("(health: 3)", "(health: 2)");
    assert_eq!((path.as_str(), a.as_str(), b.as_str()), ("health", "3", "2"));
}
