//! The one shard count the advisor suggests: the fewest shards that carry a key's writes and
//! reads with the model's `shard_headroom`. MT006 (shard it, or wider), MT017 (narrower) and
//! MT021 (a sharded counter) all take their number from [`shards_needed`].

use super::{PARTITION_RCU, PARTITION_WCU};
use crate::num;

/// The most shards the advisor suggests: past this a key is not sized by shards.
pub(crate) const MAX_SHARDS: u64 = 1 << 32;

/// Whether `shards` carry `writes` (WCU/s into one value of the key unsharded) and the reads
/// (`reads(k)`: RCU/s one partition takes with the key over `k` shards) times `headroom`,
/// within one partition's 1,000 WCU/s and 3,000 RCU/s.
pub(crate) fn fits(writes: f64, reads: &dyn Fn(u64) -> f64, headroom: f64, shards: u64) -> bool {
    let shards = shards.max(1);
    writes * headroom / num::to_f64(shards) <= PARTITION_WCU
        && reads(shards) * headroom <= PARTITION_RCU
}

/// The fewest shards, at least 1, that [`fits`] the load; `None` when none up to
/// [`MAX_SHARDS`] does (every read queries every shard, and each Query is charged at least
/// one read unit, so reads alone can keep every shard too busy however many there are).
/// Both parts of the load only fall as shards are added, so the count is found by bisection.
pub(crate) fn shards_needed(writes: f64, reads: &dyn Fn(u64) -> f64, headroom: f64) -> Option<u64> {
    let fit = |k: u64| fits(writes, reads, headroom, k);
    if !fit(MAX_SHARDS) {
        return None;
    }
    let (mut lo, mut hi) = (1u64, MAX_SHARDS);
    // `fit(hi)` holds; find the least such.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fit(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// A suggested shard count, and the headroom it carries the traffic with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Suggestion {
    pub(crate) shards: u64,
    pub(crate) headroom: f64,
    /// No count carries the traffic with the model's `shard_headroom`: this one carries it with
    /// none (the reads' least charge per Query keeps every shard too busy for more).
    pub(crate) without_headroom: bool,
}

impl Suggestion {
    /// How the count carries the traffic, for a help: `with 2× headroom (`shard_headroom`)`.
    pub(crate) fn how(&self) -> String {
        if self.without_headroom {
            "with no headroom".to_string()
        } else {
            format!("with {}× headroom (`shard_headroom`)", self.headroom)
        }
    }
}

/// The count to suggest: [`shards_needed`] with `headroom`, else with none; `None` when no
/// count carries the traffic at all.
pub(crate) fn suggest(
    writes: f64,
    reads: &dyn Fn(u64) -> f64,
    headroom: f64,
) -> Option<Suggestion> {
    match shards_needed(writes, reads, headroom) {
        Some(shards) => Some(Suggestion {
            shards,
            headroom,
            without_headroom: false,
        }),
        None => shards_needed(writes, reads, 1.0).map(|shards| Suggestion {
            shards,
            headroom: 1.0,
            without_headroom: true,
        }),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{fits, shards_needed};
    use crate::cost::{ReadConsistency, query_units, shard_queries};

    /// RCU/s one partition takes from `rps` reads/s of `items` items of `size` bytes over `k`
    /// shards, as `check` counts it.
    fn reads(rps: f64, items: u64, size: u64, consistency: ReadConsistency) -> impl Fn(u64) -> f64 {
        move |k| {
            let (_, each) = shard_queries(items, k);
            rps * query_units(each.saturating_mul(size), consistency)
        }
    }

    #[test]
    fn the_count_is_the_least_that_fits() {
        let none = |_: u64| 0.0;
        // 3,000 WCU/s with 2× headroom: 6 shards, not 8.
        assert_eq!(shards_needed(3000.0, &none, 2.0), Some(6));
        assert_eq!(shards_needed(400.0, &none, 2.0), Some(1));
        assert_eq!(shards_needed(0.0, &none, 2.0), Some(1));
        // 7,000 strong reads/s: each Query at least one unit, 7,000 RCU/s a shard however many.
        let hot = reads(7000.0, 20, 1024, ReadConsistency::Strong);
        assert_eq!(shards_needed(0.0, &hot, 1.0), None);
    }

    proptest! {
        #[test]
        fn the_suggested_count_fits_and_one_fewer_does_not(
            writes in 0.0f64..1.0e7,
            rps in 0.0f64..1.0e5,
            items in 1u64..2000,
            size in 1u64..400_000,
            strong in any::<bool>(),
            headroom in 1.0f64..100.0,
        ) {
            let consistency = if strong { ReadConsistency::Strong } else { ReadConsistency::Eventual };
            let r = reads(rps, items, size, consistency);
            match shards_needed(writes, &r, headroom) {
                Some(n) => {
                    prop_assert!(fits(writes, &r, headroom, n));
                    if n > 1 {
                        prop_assert!(!fits(writes, &r, headroom, n - 1));
                    }
                }
                None => prop_assert!(!fits(writes, &r, headroom, super::MAX_SHARDS)),
            }
        }
    }
}
