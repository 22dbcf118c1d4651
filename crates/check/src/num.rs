//! Conversions between counts and rates, and sums of sizes, without silent truncation or
//! wrapping.

/// The largest integer below which every integer is exactly an `f64` (2^53).
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// A count as a rate factor: exact below 2^53, the nearest `f64` above.
pub(crate) fn to_f64(n: u64) -> f64 {
    let high = u32::try_from(n >> 32).unwrap_or(u32::MAX);
    let low = u32::try_from(n & 0xFFFF_FFFF).unwrap_or(u32::MAX);
    f64::from(high) * 4_294_967_296.0 + f64::from(low)
}

/// A length or count (`usize`) as `u64`, saturating on a platform where it could not fit.
pub(crate) fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// `x` rounded up to a whole number, when it is finite, non-negative and below 2^53.
pub(crate) fn ceil_count(x: f64) -> Option<u64> {
    let up = x.ceil();
    if up.is_finite() && (0.0..MAX_EXACT).contains(&up) {
        // In range and integral, so the cast is exact.
        Some(up as u64)
    } else {
        None
    }
}

/// The sum of `sizes`, saturating at `u64::MAX` instead of wrapping or panicking.
pub(crate) fn total(sizes: impl IntoIterator<Item = u64>) -> u64 {
    sizes.into_iter().fold(0, u64::saturating_add)
}

/// The sum of `sizes`, `None` when one is `None`; saturating like [`total`].
pub(crate) fn total_of(sizes: impl IntoIterator<Item = Option<u64>>) -> Option<u64> {
    sizes
        .into_iter()
        .try_fold(0u64, |sum, size| size.map(|s| sum.saturating_add(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact_or_refused() {
        assert_eq!(to_f64(0), 0.0);
        assert_eq!(to_f64(1 << 40), 1_099_511_627_776.0);
        assert_eq!(to_f64(u64::MAX), 18_446_744_073_709_551_615.0);
        assert_eq!(count(7), 7);
        assert_eq!(ceil_count(2.1), Some(3));
        assert_eq!(ceil_count(0.0), Some(0));
        assert_eq!(ceil_count(-0.5), Some(0));
        assert_eq!(ceil_count(-1.5), None);
        assert_eq!(ceil_count(f64::NAN), None);
        assert_eq!(ceil_count(f64::INFINITY), None);
        assert_eq!(ceil_count(1e300), None);
        assert_eq!(total([u64::MAX, 1]), u64::MAX);
        assert_eq!(total_of([Some(u64::MAX), Some(2)]), Some(u64::MAX));
        assert_eq!(total_of([Some(1), None]), None);
    }
}
