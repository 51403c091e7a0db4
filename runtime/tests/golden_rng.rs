//! Golden output of the simulation's random number generator.

use fixstep_runtime::math::Fx;
use fixstep_runtime::rng::SimRng;
use xxhash_rust::xxh3::xxh3_64;

/// Protects every random draw of every game: the first outputs of seed 42 on stream 54 are
/// the PCG32 reference values published with the algorithm (pcg32-demo), so this also proves
/// the generator is PCG32 and not a look-alike; the hash pins 10,000 draws of each method.
#[test]
fn pcg32_reference_sequence() {
    let mut rng = SimRng::new(42, 54);
    let first: Vec<u32> = (0..6).map(|_| rng.next_u32()).collect();
    assert_eq!(
        first,
        [0xa15c_02b7, 0x7b47_f409, 0xba1d_3330, 0x83d2_f293, 0xbfa4_784b, 0xcbed_606e]
    );
}

#[test]
fn ten_thousand_draws_of_every_method_are_pinned() {
    let mut rng = SimRng::new(0xfeed_f00d, 3);
    let mut bytes = Vec::new();
    for i in 0..10_000u32 {
        bytes.extend_from_slice(&rng.next_u32().to_le_bytes());
        bytes.extend_from_slice(&rng.next_u64().to_le_bytes());
        bytes.extend_from_slice(&rng.below(i % 97 + 1).to_le_bytes());
        bytes.extend_from_slice(&rng.range_inclusive(-50, 50).to_le_bytes());
        bytes.extend_from_slice(&rng.unit().to_bits().to_le_bytes());
        bytes.extend_from_slice(
            &rng.range_fx(Fx::from_num(-3), Fx::from_num(8)).to_bits().to_le_bytes(),
        );
        bytes.push(u8::from(rng.chance(1, 3)));
    }
    assert_eq!(format!("{:016x}", xxh3_64(&bytes)), "407901c8358bbfcb");
}

#[test]
fn draws_stay_in_range_and_streams_differ() {
    let mut rng = SimRng::new(1, 1);
    for bound in 1..1_000 {
        assert!(rng.below(bound) < bound);
        let r = rng.range_inclusive(-3, 3);
        assert!((-3..=3).contains(&r));
        let u = rng.unit();
        assert!(u >= Fx::ZERO && u < Fx::ONE);
    }
    assert_eq!(rng.below(0), 0);
    assert!(!rng.chance(5, 0));
    let (mut a, mut b) = (SimRng::new(9, 1), SimRng::new(9, 2));
    assert_ne!((a.next_u64(), a.next_u64()), (b.next_u64(), b.next_u64()));
    let (mut c, mut d) = (SimRng::new(9, 1), SimRng::new(9, 1));
    assert_eq!((c.next_u64(), c.next_u64()), (d.next_u64(), d.next_u64()));
}
