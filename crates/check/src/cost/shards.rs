//! A read of a sharded key, the one rule `check` (MT006, MT017) and `cost` both count it by:
//! one Query per shard, each for its share of the items and charged on its own, at least one
//! read unit (half of one when eventually consistent).

use monotable_model::{Attribute, AttributeType, KeyTest, Model, Pattern, TimestampFormat};

use super::size::{MAX_PAGE_BYTES, ReadConsistency, read_units};

/// How many partitions a burst over a key made of `vars` spreads over: the product of the
/// `cardinality` of each variable that declares one (each variable once); an enum, a boolean
/// or a day counts 1 (every new item can take one value). `None` when a variable is of high
/// cardinality (an id): the key then spreads by itself, and a shard beside an id is found from
/// the id, so a read queries one partition.
pub fn key_shards<'a>(
    vars: impl Iterator<Item = &'a str>,
    attr: &dyn Fn(&str) -> Option<&'a Attribute>,
) -> Option<u64> {
    let mut seen: Vec<&str> = Vec::new();
    let mut shards = 1u64;
    for var in vars {
        let a = attr(var)?;
        let n = match (a.cardinality, a.ty) {
            (Some(c), _) => c.max(1),
            (None, AttributeType::Enum | AttributeType::Boolean) => 1,
            (None, AttributeType::Timestamp) if a.format == Some(TimestampFormat::Date) => 1,
            _ => return None,
        };
        if !seen.contains(&var) {
            seen.push(var);
            shards = shards.saturating_mul(n);
        }
    }
    Some(shards)
}

/// How many shards one read of `pattern` queries: [`key_shards`] of the variables of its
/// partition key (its partition-key clause, or on a native index every partition attribute's
/// equality), or 1.
pub fn read_shards(model: &Model, pattern: &Pattern) -> u64 {
    let native = pattern
        .index_name()
        .and_then(|n| model.index(n))
        .filter(|i| i.native);
    let clauses: Vec<_> = match native {
        Some(index) => pattern
            .key
            .iter()
            .filter(|k| !index.is_sort_attribute(&k.attribute))
            .collect(),
        None => pattern.pk.iter().collect(),
    };
    let vars = clauses.iter().flat_map(|c| match &c.condition {
        KeyTest::Eq(t) => t.variables().collect::<Vec<_>>(),
        _ => Vec::new(),
    });
    key_shards(vars, &|v| pattern.variable(model, v)).unwrap_or(1)
}

/// One read of `items` items over `shards` shards: how many Queries, and how many items each
/// reads (its share, rounded up; at least one).
pub fn shard_queries(items: u64, shards: u64) -> (u64, u64) {
    let shards = shards.max(1);
    (shards, items.max(1).div_ceil(shards))
}

/// Read units of one Query reading `bytes`: at most one 1 MB page, at least one 4 KB unit,
/// halved when eventually consistent.
pub fn query_units(bytes: u64, consistency: ReadConsistency) -> f64 {
    read_units(bytes.min(MAX_PAGE_BYTES), consistency)
}

#[cfg(test)]
mod tests {
    use super::shard_queries;

    #[test]
    fn each_shard_reads_its_share_rounded_up() {
        assert_eq!(shard_queries(20, 1), (1, 20));
        assert_eq!(shard_queries(20, 8), (8, 3));
        assert_eq!(shard_queries(1, 8), (8, 1));
        assert_eq!(shard_queries(0, 0), (1, 1));
    }
}
