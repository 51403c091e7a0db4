//! Token buckets per sender: how a host bounds what one address can make it do.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::Duration;

/// The most senders a [`RateLimiter`] remembers: far more than a host has peers, few enough
/// that a flood from forged addresses cannot grow it past a few hundred kilobytes.
const MAX_SENDERS: usize = 4_096;

/// How long a sender may be quiet before it is forgotten (its bucket full again anyway).
const FORGET_AFTER: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// Tokens, in thousandths, so a refill of less than one a millisecond is not lost.
    milli_tokens: u64,
    last: Duration,
}

/// A bucket of `burst` tokens per sender, refilled at `per_second`: each thing a sender does
/// takes one, and what finds its bucket empty is refused.
#[derive(Debug)]
pub struct RateLimiter<K> {
    buckets: HashMap<K, Bucket>,
    per_second: u64,
    burst: u64,
}

impl<K: Hash + Eq + Copy> RateLimiter<K> {
    /// A limiter of `per_second` with bursts of up to `burst`.
    #[must_use]
    pub fn new(per_second: u64, burst: u64) -> Self {
        Self { buckets: HashMap::new(), per_second, burst }
    }

    /// Whether `sender` may do one more thing at `now` (any monotonic time).
    pub fn allow(&mut self, sender: K, now: Duration) -> bool {
        if self.buckets.len() >= MAX_SENDERS && !self.buckets.contains_key(&sender) {
            self.buckets.retain(|_, b| now.saturating_sub(b.last) < FORGET_AFTER);
            if self.buckets.len() >= MAX_SENDERS {
                // Too many senders at once to tell apart: none new gets in until some go
                // quiet, and those already known go on as before.
                return false;
            }
        }
        let full = self.burst * 1_000;
        let bucket = self.buckets.entry(sender).or_insert(Bucket { milli_tokens: full, last: now });
        let elapsed_ms =
            u64::try_from(now.saturating_sub(bucket.last).as_millis()).unwrap_or(u64::MAX);
        bucket.milli_tokens = bucket
            .milli_tokens
            .saturating_add(elapsed_ms.saturating_mul(self.per_second))
            .min(full);
        bucket.last = now;
        if bucket.milli_tokens >= 1_000 {
            bucket.milli_tokens -= 1_000;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate_and_each_sender_on_its_own() {
        let mut limiter = RateLimiter::new(10, 5);
        let t = Duration::from_secs(100);
        let allowed = (0..20).filter(|_| limiter.allow(1, t)).count();
        assert_eq!(allowed, 5, "the burst");
        assert!(limiter.allow(2, t), "another sender has its own bucket");
        assert!(!limiter.allow(1, t + Duration::from_millis(50)), "half a token");
        assert!(limiter.allow(1, t + Duration::from_millis(100)), "a token a tenth of a second");
        let later = t + Duration::from_secs(60);
        assert_eq!((0..20).filter(|_| limiter.allow(1, later)).count(), 5, "never above the burst");
    }
}
