//! Sizes in the units people read: `3.1 GB`, `16 MB`, `512 bytes`.

use core::fmt;

/// Bytes in a kilobyte: decimal units, as disks and file managers count.
const BYTES_PER_KB: u64 = 1_000;

/// The units above bytes, each [`BYTES_PER_KB`] times the one before.
const UNITS: [&str; 6] = ["kB", "MB", "GB", "TB", "PB", "EB"];

/// A number of bytes, shown in human units: whole units from 10 up (`16 MB`), one decimal
/// below (`3.1 GB`), truncated, so a size is never shown larger than it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ByteSize(pub u64);

impl ByteSize {
    /// Every byte, with thousands separated: `16,000,001 bytes`.
    #[must_use]
    pub fn exact(self) -> String {
        let digits = self.0.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 6);
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(digit);
        }
        out.push_str(if self.0 == 1 { " byte" } else { " bytes" });
        out
    }

    /// `self` and `other` in human units, or exactly when the human units would show them
    /// alike (a size one byte over a limit).
    #[must_use]
    pub fn pair(self, other: Self) -> (String, String) {
        let (a, b) = (self.to_string(), other.to_string());
        if a == b && self != other { (self.exact(), other.exact()) } else { (a, b) }
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0;
        if bytes < BYTES_PER_KB {
            return f.write_str(&self.exact());
        }
        let mut unit = 0;
        let mut scale = BYTES_PER_KB;
        while unit + 1 < UNITS.len() && bytes / scale >= BYTES_PER_KB {
            unit += 1;
            scale *= BYTES_PER_KB;
        }
        let whole = bytes / scale;
        let tenths = (bytes % scale) / (scale / 10);
        if whole >= 10 || tenths == 0 {
            write!(f, "{whole} {}", UNITS[unit])
        } else {
            write!(f, "{whole}.{tenths} {}", UNITS[unit])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ByteSize;

    #[test]
    fn sizes_read_as_people_write_them() {
        let shown = |n: u64| ByteSize(n).to_string();
        assert_eq!(shown(0), "0 bytes");
        assert_eq!(shown(1), "1 byte");
        assert_eq!(shown(999), "999 bytes");
        assert_eq!(shown(1_000), "1 kB");
        assert_eq!(shown(1_500), "1.5 kB");
        assert_eq!(shown(16_000_000), "16 MB");
        assert_eq!(shown(3_100_000_000), "3.1 GB");
        assert_eq!(shown(10 << 30), "10 GB");
        assert_eq!(shown(u64::MAX), "18 EB");
    }

    #[test]
    fn a_size_just_over_a_limit_is_shown_exactly() {
        let (size, limit) = ByteSize(16_000_001).pair(ByteSize(16_000_000));
        assert_eq!((size.as_str(), limit.as_str()), ("16,000,001 bytes", "16,000,000 bytes"));
        let (size, limit) = ByteSize(3_100_000_000).pair(ByteSize(16_000_000));
        assert_eq!((size.as_str(), limit.as_str()), ("3.1 GB", "16 MB"));
    }
}
