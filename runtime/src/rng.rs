//! The simulation's random numbers.

use serde::{Deserialize, Serialize};

use crate::Canonical;

use crate::math::Fx;

/// PCG's 64-bit LCG multiplier (O'Neill, "PCG: A Family of Simple Fast Space-Efficient
/// Statistically Good Algorithms for Random Number Generation", 2014).
const PCG_MULTIPLIER: u64 = 6_364_136_223_846_793_005;

/// A seeded random number generator (PCG-XSH-RR 64/32) whose whole state is two integers that
/// are serialized and hashed with the rest of the simulation (docs/ARCHITECTURE.md, rule 3). Written here
/// rather than taken from a crate so that its output can never change under an upgrade; the
/// golden test in `runtime/tests/golden_rng.rs` pins it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Canonical)]
pub struct SimRng {
    state: u64,
    /// The stream: always odd.
    increment: u64,
}

impl SimRng {
    /// A generator for `seed` on stream `stream`: different streams from one seed are
    /// independent sequences (one per subsystem, say), and the same pair always gives the same
    /// sequence.
    #[must_use]
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut rng = Self { state: 0, increment: (stream << 1) | 1 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(PCG_MULTIPLIER).wrapping_add(self.increment);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "PCG's output is the low 32 bits of the xorshift: dropping the rest is the meaning"
        )]
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rotation = (old >> 59) as u32;
        xorshifted.rotate_right(rotation)
    }

    /// The next 64 random bits (two draws, high half first).
    pub fn next_u64(&mut self) -> u64 {
        let high = u64::from(self.next_u32());
        (high << 32) | u64::from(self.next_u32())
    }

    /// A uniform integer in `0..bound`, without the bias of a plain remainder (Lemire's
    /// multiply-and-reject). A `bound` of zero gives zero.
    pub fn below(&mut self, bound: u32) -> u32 {
        if bound == 0 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u64::from(self.next_u32()) * u64::from(bound);
            #[expect(
                clippy::cast_possible_truncation,
                reason = "the low half of the product, on purpose: Lemire's method compares it with the threshold"
            )]
            if (product as u32) >= threshold {
                return (product >> 32) as u32;
            }
        }
    }

    /// A uniform integer in `low..=high` (either order).
    pub fn range_inclusive(&mut self, low: i32, high: i32) -> i32 {
        let (low, high) = if low <= high { (low, high) } else { (high, low) };
        let span = high.abs_diff(low);
        if span == u32::MAX {
            return self.next_u32() as i32;
        }
        low.wrapping_add(self.below(span + 1) as i32)
    }

    /// A uniform fixed-point number in [0, 1): 32 random fraction bits.
    pub fn unit(&mut self) -> Fx {
        Fx::from_bits(i64::from(self.next_u32()))
    }

    /// A uniform fixed-point number in [`low`, `high`).
    pub fn range_fx(&mut self, low: Fx, high: Fx) -> Fx {
        low + (high - low) * self.unit()
    }

    /// True with probability `numerator / denominator` (never for a zero denominator).
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        denominator != 0 && self.below(denominator) < numerator
    }
}
