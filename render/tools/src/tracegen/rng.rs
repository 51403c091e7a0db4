//! A tiny seeded generator (SplitMix64), so the traces need no dependency and come out the
//! same from the same seed on every machine and every run.

/// SplitMix64's increment: the golden ratio in 64 bits, as in the published generator.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// The stream `stream` of `seed`: the world, the link and the frames each draw from their
    /// own, so changing how one of them is made leaves the others as they were.
    #[must_use]
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut mix = Self { state: seed ^ stream.wrapping_mul(GOLDEN_GAMMA) };
        // One draw scatters seeds that differ in a bit or two.
        let state = mix.next_u64();
        Self { state }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`, from the top 53 bits (all an `f64` holds).
    pub fn unit(&mut self) -> f64 {
        /// 2^-53: one step of a 53-bit fraction.
        const STEP: f64 = 1.0 / (1_u64 << 53) as f64;
        (self.next_u64() >> 11) as f64 * STEP
    }

    /// A number in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// A whole number in `[lo, hi]`.
    pub fn range_u32(&mut self, lo: u32, hi: u32) -> u32 {
        let span = u64::from(hi - lo) + 1;
        // The remainder is below `span`, which fits a u32.
        lo + (self.next_u64() % span) as u32
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// 1 or −1, evenly.
    pub fn sign(&mut self) -> f64 {
        if self.next_u64() & 1 == 0 { 1.0 } else { -1.0 }
    }
}
