//! MT006 reads summed: the reads of several patterns that can land in one partition (a constant
//! or low-cardinality key, table or index, synthetic or native), each under the limit alone.

use std::ops::Range;

use monotable_model::{Index, KeyTemplate, KeyTest, Model, Pattern};

use super::shards::suggest_for_reader;
use super::sizing::MAX_SHARDS;
use super::summed::groups;
use super::{PARTITION_RCU, ReadLoad, Spread, partition_names, partition_reads, spread};
use super::{spread_of, where_};
use crate::diagnostic::{Diagnostic, Rule};
use crate::rules::{listing, native::native_index, pattern_attr, pattern_shape};
use crate::shape::Shape;

/// One read pattern's key, when it is constant or of low cardinality.
pub(super) struct Reader<'m> {
    pub(super) pattern: &'m Pattern,
    /// The index read, `None` for the table.
    pub(super) index: Option<&'m str>,
    /// The key as messages name it: `` `GSI1PK` `` or `` (`status`, `shard`) ``.
    pub(super) key: String,
    pub(super) place: ReadPlace<'m>,
    pub(super) spread: Spread,
    /// Its stated reads as one partition takes them; `None` without `reads_per_second`.
    pub(super) load: Option<ReadLoad>,
    span: Range<usize>,
}

/// What the pattern reads the partition key as.
pub(super) enum ReadPlace<'m> {
    /// A template and the strings it renders.
    Template(&'m KeyTemplate, Shape),
    /// A native index's partition attributes, each value's template and its renders.
    Native(&'m Index, Vec<(&'m KeyTemplate, Shape)>),
}

impl Reader<'_> {
    /// Whether the two can read the same partition: the same key, with renders in common.
    pub(super) fn shares(&self, other: &Reader<'_>) -> bool {
        if self.index != other.index || self.key != other.key {
            return false;
        }
        match (&self.place, &other.place) {
            (ReadPlace::Template(_, a), ReadPlace::Template(_, b)) => a.overlaps(b),
            (ReadPlace::Native(_, a), ReadPlace::Native(_, b)) => {
                a.iter().zip(b).all(|((_, x), (_, y))| x.overlaps(y))
            }
            _ => false,
        }
    }

    /// How the pattern reads the key, for the note: `` `CONFIG` `` or its attributes' values.
    fn read_as(&self) -> String {
        match &self.place {
            ReadPlace::Template(t, _) => format!("`{t}`"),
            ReadPlace::Native(_, values) => {
                let values: Vec<String> = values.iter().map(|(t, _)| format!("`{t}`")).collect();
                values.join(", ")
            }
        }
    }
}

/// Every read pattern whose partition key is constant or of low cardinality.
pub(super) fn readers(model: &Model) -> Vec<Reader<'_>> {
    model
        .patterns
        .iter()
        .filter(|p| p.is_read() && model.key_schema(p.index_name()).is_some())
        .filter_map(|p| match native_index(model, p.index_name()) {
            Some(index) => native_reader(model, p, index),
            None => template_reader(model, p),
        })
        .collect()
}

fn template_reader<'m>(model: &'m Model, p: &'m Pattern) -> Option<Reader<'m>> {
    let pk = p.pk.as_ref()?;
    let KeyTest::Eq(t) = &pk.condition else {
        return None;
    };
    let spread = spread(t, &|v| pattern_attr(model, p, v))?;
    Some(Reader {
        pattern: p,
        index: p.index_name(),
        key: format!("`{}`", pk.attribute),
        place: ReadPlace::Template(t, pattern_shape(model, p, t)),
        load: partition_reads(model, p, spread.partitions),
        spread,
        span: pk.span.clone(),
    })
}

/// A pattern over a native index: its partition is every partition attribute's equality.
fn native_reader<'m>(model: &'m Model, p: &'m Pattern, index: &'m Index) -> Option<Reader<'m>> {
    let values: Vec<(&KeyTemplate, Shape)> = index
        .partition_keys
        .iter()
        .map(|k| {
            let clause = p.key.iter().find(|c| c.attribute == k.name)?;
            match &clause.condition {
                KeyTest::Eq(t) => Some((t, pattern_shape(model, p, t))),
                _ => None,
            }
        })
        .collect::<Option<_>>()?;
    let vars = values.iter().flat_map(|(t, _)| t.variables());
    let constant = values.iter().all(|(t, _)| t.is_constant());
    let spread = spread_of(vars, constant, &|v| pattern_attr(model, p, v))?;
    Some(Reader {
        pattern: p,
        index: Some(index.name.as_str()),
        key: partition_names(index),
        place: ReadPlace::Native(index, values),
        load: partition_reads(model, p, spread.partitions),
        spread,
        span: p.key_span(),
    })
}

/// The fix for the reads of `patterns` over one partition of a key: as many shards as carry
/// the key's traffic with the model's `shard_headroom` ([`suggest_for_reader`]), else with
/// none, else, when each Query's least charge alone is too much, that no shard count does.
/// `cache` is the first remedy named for an unsharded key.
pub(super) fn read_help(
    model: &Model,
    patterns: &[&Pattern],
    spread: &Spread,
    cache: &str,
) -> String {
    let least: f64 = patterns
        .iter()
        .filter_map(|p| partition_reads(model, p, MAX_SHARDS))
        .fold(0.0, |sum, l| sum + l.rate);
    let floor = format!(
        "every read queries every shard and each Query is charged at least one read unit (half of one when eventually consistent), so each shard takes ~{least:.0} RCU/s however many there are"
    );
    let Some(sized) = suggest_for_reader(model, patterns[0], 0.0) else {
        return format!("more shards cannot take it: {floor}; {cache}, or read it less often");
    };
    let (n, how) = (sized.shards, sized.how());
    let shard = if spread.shards.is_empty() {
        format!(
            "shard the key over {n} partitions (a `shard` variable with `cardinality = {n}`, queried in parallel), so each Query reads fewer items, which carries the declared traffic {how}"
        )
    } else {
        spread.wider(&spread.shards, n, &how)
    };
    match (sized.without_headroom, spread.shards.is_empty()) {
        (true, _) => format!("{shard}; or {cache}: {floor}"),
        (false, true) => format!("{cache}, or {shard}"),
        (false, false) => shard,
    }
}

/// MT006 for read patterns that are each under one partition's limit and together over it.
pub(super) fn summed_reads(model: &Model, out: &mut Vec<Diagnostic>) {
    // Only patterns with a stated `reads_per_second` have reads to add up.
    let readers: Vec<Reader<'_>> = readers(model)
        .into_iter()
        .filter(|r| r.load.is_some())
        .collect();
    for group in groups(&readers, |a, b| a.shares(b)) {
        let members: Vec<(&Reader<'_>, f64)> = group
            .iter()
            .filter_map(|&i| Some((&readers[i], readers[i].load?.rate)))
            .collect();
        let total: f64 = members.iter().map(|(_, rate)| rate).sum();
        if total <= PARTITION_RCU || members.iter().any(|(_, rate)| *rate > PARTITION_RCU) {
            // Under the limit, or a pattern over it alone, which is reported on its own.
            continue;
        }
        out.push(finding(model, &members, total));
    }
}

fn finding(model: &Model, members: &[(&Reader<'_>, f64)], total: f64) -> Diagnostic {
    let first = members[0].0;
    let names: Vec<&str> = members
        .iter()
        .map(|(r, _)| r.pattern.name.as_str())
        .collect();
    let msg = format!(
        "hot partition: {} together read ~{total:.0} RCU/s from one {} partition of {}",
        listing(&names),
        first.key,
        where_(first.index)
    );
    let shares: Vec<String> = members
        .iter()
        .map(|(r, rate)| {
            format!(
                "`{}` ~{rate:.0} RCU/s as {} ({:.0}%)",
                r.pattern.name,
                r.read_as(),
                rate * 100.0 / total
            )
        })
        .collect();
    let patterns: Vec<&Pattern> = members.iter().map(|(r, _)| r.pattern).collect();
    let help = read_help(
        model,
        &patterns,
        &first.spread,
        "cache what is read most, read eventually consistent where a strong read is not needed (half the units)",
    );
    // Every pattern's rate is stated, so this is an error, as for one pattern.
    Diagnostic::error(Rule::HotPartition, msg, first.span.clone())
        .label(format!(
            "`{}` reads here, and so {} {}",
            first.pattern.name,
            if names.len() > 2 { "do" } else { "does" },
            listing(&names[1..])
        ))
        .note(format!(
            "each pattern is under 3,000 RCU/s alone, but their keys can take the same value, so their reads add up: {}",
            shares.join(", ")
        ))
        .note(first.spread.read_note(total))
        .help(help)
}

#[cfg(test)]
mod tests {
    use super::{read_help, readers, summed_reads};

    /// A feed sharded `shards` ways, read at `a` and `b` pages/s of 20 posts of 1 KB.
    fn model(shards: u32, a: u32, b: u32) -> monotable_model::Model {
        let text = format!(
            r#"
[table]
name = "Reads"
partition_key = {{ name = "PK", type = "S" }}
sort_key = {{ name = "SK", type = "S" }}

[entities.Post]
attributes.id = {{ type = "string", required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = {shards} }}
keys.PK = "FEED#{{shard}}"
keys.SK = "POST#{{id}}"

[patterns.a]
operation = "Query"
key = {{ PK = "FEED#{{shard}}" }}
returns = ["Post"]
paginate = true
limit = 20

[patterns.b]
operation = "Query"
key = {{ PK = "FEED#{{shard}}", SK = "begins_with(POST#)" }}
returns = ["Post"]
paginate = true
limit = 20

[traffic.entities.Post]
writes_per_second = 1
item_size_bytes = 1024

[traffic.patterns.a]
reads_per_second = {a}

[traffic.patterns.b]
reads_per_second = {b}
"#
        );
        monotable_model::parse(&text).expect("model")
    }

    #[test]
    fn every_shard_takes_every_read_with_its_share_of_the_items() {
        // 20 KB a page: 5 units, 2.5 RCU eventually consistent, on the one partition.
        let m = model(1, 1000, 0);
        let rates: Vec<(u64, f64)> = readers(&m)
            .iter()
            .filter_map(|r| r.load.map(|l| (l.queries, l.rate)))
            .collect();
        assert_eq!(rates, [(1, 2500.0), (1, 0.0)]);
        // Sharded 4 ways: 4 Queries of 5 posts (2 units, 1 RCU), each shard 1,000 reads/s.
        let m = model(4, 1000, 0);
        let loads: Vec<(u64, f64, f64)> = readers(&m)
            .iter()
            .filter_map(|r| r.load.map(|l| (l.queries, l.per_query, l.rate)))
            .collect();
        assert_eq!(loads[0], (4, 1.0, 1000.0));
        // Sharded 32 ways: each Query is charged at least half a unit.
        let m = model(32, 1000, 0);
        assert_eq!(readers(&m)[0].load.map(|l| l.rate), Some(500.0));
    }

    #[test]
    fn readers_are_summed_only_when_each_is_under_and_both_are_over() {
        let summed = |a, b| {
            let mut out = Vec::new();
            summed_reads(&model(1, a, b), &mut out);
            out.into_iter().map(|d| d.message).collect::<Vec<_>>()
        };
        assert_eq!(
            summed(1000, 400),
            [
                "hot partition: `a` and `b` together read ~3500 RCU/s from one `PK` partition of the table"
            ]
        );
        assert!(
            summed(600, 600).is_empty(),
            "3,000 together is within the limit"
        );
        assert!(summed(1300, 100).is_empty(), "over alone is reported alone");
    }

    #[test]
    fn more_shards_help_reads_only_down_to_half_a_unit_a_query() {
        let help = |shards, a| {
            let m = model(shards, a, 0);
            let r = &readers(&m)[0];
            read_help(&m, &[r.pattern], &r.spread, "cache the result")
        };
        // 2,000 reads/s of 20 posts: 5,000 RCU/s on one shard. With 2× headroom a shard may
        // take 1,500: over 5 shards each Query is 4 posts, half a unit, 1,000 RCU/s.
        let wider = help(1, 2000);
        assert!(
            wider.starts_with("shard it wider: spread it over 5 partitions instead of 1 (set `cardinality = 5` on `shard`)"),
            "{wider}"
        );
        assert!(
            wider.ends_with("with 2× headroom (`shard_headroom`)"),
            "{wider}"
        );
        // 5,000 reads/s: at least 2,500 RCU/s a shard, however many: only without headroom.
        let little = help(2, 5000);
        assert!(
            little.contains("over 5 partitions instead of 2"),
            "{little}"
        );
        assert!(
            little.contains("with no headroom; or cache the result"),
            "{little}"
        );
        // 7,000 reads/s: at least 3,500 RCU/s a shard; no count takes it.
        let none = help(2, 7000);
        assert!(none.starts_with("more shards cannot take it"), "{none}");
        assert!(
            none.contains("~3500 RCU/s however many there are"),
            "{none}"
        );
    }
}
