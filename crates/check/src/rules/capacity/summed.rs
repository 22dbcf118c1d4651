//! MT006 summed: the writes of several entities that can land in one partition (a constant or
//! low-cardinality key, table or index, synthetic or native), each under the limit alone.

use std::ops::Range;

use monotable_model::{Attribute, EntityDecl, Index, KeyTemplate, Model};

use super::shards::suggest_for_writer;
use super::{KeyForm, PARTITION_WCU, Spread, partition_names, spread, spread_of, wcu};
use crate::cost::consumer_items;
use crate::diagnostic::{Diagnostic, Rule};
use crate::num;
use crate::rules::{entity_attr, entity_shape, listing, where_};
use crate::shape::Shape;

/// One entity's writes into one partition of a low-cardinality key.
pub(super) struct Writer<'m> {
    pub(super) entity: &'m EntityDecl,
    /// The index written, `None` for the table.
    pub(super) index: Option<&'m str>,
    /// The key as messages name it: `` `GSI1PK` `` or `` (`status`, `shard`) ``.
    pub(super) key: String,
    pub(super) place: Place<'m>,
    pub(super) spread: Spread,
    /// WCU/s of all its writes: `writes_per_second` × WCU per item.
    pub(super) all: f64,
    /// WCU/s into one of its partitions.
    pub(super) rate: f64,
    /// Its `writes_per_second` is stated (for it, or as the default).
    pub(super) stated: bool,
    pub(super) span: Range<usize>,
}

/// What the writer writes the partition key as.
pub(super) enum Place<'m> {
    /// A template and the strings it renders.
    Template(&'m KeyTemplate, Shape),
    /// A native index's partition attributes, as the entity declares them.
    Native(&'m Index, Vec<&'m Attribute>),
}

impl Writer<'_> {
    /// Whether the two can write the same partition: the same key, with renders or values in
    /// common.
    pub(super) fn shares(&self, other: &Writer<'_>) -> bool {
        if self.index != other.index || self.key != other.key {
            return false;
        }
        match (&self.place, &other.place) {
            (Place::Template(_, a), Place::Template(_, b)) => a.overlaps(b),
            (Place::Native(_, a), Place::Native(_, b)) => {
                a.iter().zip(b).all(|(x, y)| values_meet(x, y))
            }
            _ => false,
        }
    }

    /// How the writer writes the key, for the note: `` `ORDERS` `` or its attributes.
    pub(super) fn written_as(&self) -> String {
        match &self.place {
            Place::Template(t, _) => format!("`{t}`"),
            Place::Native(index, _) => partition_names(index),
        }
    }
}

/// Whether two entities' attributes of one native key can take the same value: enums with a
/// value in common, anything else always.
fn values_meet(a: &Attribute, b: &Attribute) -> bool {
    let enums =
        |x: &Attribute| x.ty == monotable_model::AttributeType::Enum && !x.values.is_empty();
    !(enums(a) && enums(b)) || a.values.iter().any(|v| b.values.contains(v))
}

/// Every entity's writes into a low-cardinality partition key: each key template it writes,
/// and each native index it is in.
pub(super) fn writers(model: &Model) -> Vec<Writer<'_>> {
    let mut out = Vec::new();
    for e in &model.entities {
        let (writes, stated) = model.traffic.writes_per_second(&e.name);
        let per_item = writes * wcu(model, &e.name);
        // Its table key also takes what stream consumers write of it (once per record they
        // handle, as `cost` prices it), when more.
        let (by_table, table_stated) = match consumer_items(model, &e.name) {
            Some((calls, known)) if calls * wcu(model, &e.name) > per_item => {
                (calls * wcu(model, &e.name), known)
            }
            _ => (per_item, stated),
        };
        let attr = |v: &str| entity_attr(e, v);
        for keys in &e.index_keys {
            let Some(spread) = spread(&keys.pk.template, &attr) else {
                continue;
            };
            out.push(Writer {
                entity: e,
                index: keys.index.as_deref(),
                key: format!("`{}`", keys.pk.attribute),
                place: Place::Template(&keys.pk.template, entity_shape(e, &keys.pk.template)),
                all: if keys.index.is_none() {
                    by_table
                } else {
                    per_item
                },
                rate: if keys.index.is_none() {
                    by_table
                } else {
                    per_item
                } / num::to_f64(spread.partitions),
                stated: if keys.index.is_none() {
                    table_stated
                } else {
                    stated
                },
                spread,
                span: keys.pk.span.clone(),
            });
        }
        for index in model.indexes.iter().filter(|i| i.native_member(e)) {
            let names = index.partition_keys.iter().map(|k| k.name.as_str());
            let Some(spread) = spread_of(names, false, &attr) else {
                continue;
            };
            let attrs: Vec<&Attribute> = index
                .partition_keys
                .iter()
                .filter_map(|k| e.attribute(&k.name))
                .collect();
            out.push(Writer {
                entity: e,
                index: Some(index.name.as_str()),
                key: partition_names(index),
                place: Place::Native(index, attrs),
                all: per_item,
                rate: per_item / num::to_f64(spread.partitions),
                stated,
                spread,
                span: index.span.clone(),
            });
        }
    }
    out
}

/// Groups of `items` that can all meet in one partition: from each, every other one that
/// `shares` a partition with all taken so far. Each set once, members in listed order.
pub(super) fn groups<T>(items: &[T], shares: impl Fn(&T, &T) -> bool) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for start in 0..items.len() {
        let mut group = vec![start];
        for (j, w) in items.iter().enumerate() {
            if j != start && group.iter().all(|&g| shares(&items[g], w)) {
                group.push(j);
            }
        }
        group.sort_unstable();
        if group.len() > 1 && !out.contains(&group) {
            out.push(group);
        }
    }
    out
}

/// MT006 for writers that are each under one partition's limit and together over it.
pub(super) fn summed_writes(model: &Model, out: &mut Vec<Diagnostic>) {
    // The default figure is a guess per entity; summed over many it would only add guesses.
    // An entity with no figure is judged alone.
    let writers: Vec<Writer<'_>> = writers(model).into_iter().filter(|w| w.stated).collect();
    for group in groups(&writers, |a, b| a.shares(b)) {
        let members: Vec<&Writer<'_>> = group.iter().map(|&i| &writers[i]).collect();
        let total: f64 = members.iter().map(|w| w.rate).sum();
        if total <= PARTITION_WCU || members.iter().any(|w| w.rate > PARTITION_WCU) {
            // Under the limit, or a writer over it alone, which is reported on its own.
            continue;
        }
        out.push(finding(model, &members, total));
    }
}

fn finding(model: &Model, members: &[&Writer<'_>], total: f64) -> Diagnostic {
    let first = members[0];
    let names: Vec<&str> = members.iter().map(|w| w.entity.name.as_str()).collect();
    let msg = format!(
        "hot partition: {} together write ~{total:.0} WCU/s into one {} partition of {}",
        listing(&names),
        first.key,
        where_(first.index)
    );
    // Every writer's figure is stated, so this is an error, as for one writer.
    let d = Diagnostic::error(Rule::HotPartition, msg, first.span.clone());
    let shares: Vec<String> = members
        .iter()
        .map(|w| {
            format!(
                "`{}` ~{:.0} WCU/s as {} ({:.0}%)",
                w.entity.name,
                w.rate,
                w.written_as(),
                w.rate * 100.0 / total
            )
        })
        .collect();
    let form = match &first.place {
        Place::Template(t, _) => KeyForm::Template(t),
        Place::Native(index, _) => KeyForm::Native(index),
    };
    let own = match form {
        KeyForm::Template(_) => "a prefix of its own in the key",
        KeyForm::Native(_) => "values of its own in the key attributes",
    };
    d.label(format!(
        "`{}` writes here, and so {} {}",
        first.entity.name,
        if names.len() > 2 { "do" } else { "does" },
        listing(&names[1..])
    ))
    .note(format!(
        "each writer is under 1,000 WCU/s alone, but their keys can take the same value, so their writes add up: {}",
        shares.join(", ")
    ))
    .note(first.spread.note(total, "WCU/s", "one partition takes at most 1,000 WCU/s"))
    .help(format!(
        "give each entity a partition of its own ({own}), or {}",
        first.spread.help(
            form,
            suggest_for_writer(model, &first.entity.name, &first.span, 0.0)
        )
    ))
}

#[cfg(test)]
mod tests {
    use super::summed_writes;

    /// Two writers of the constant `RECENT`, at `a` and `b` writes/s of 1 KB items.
    fn model(a: u32, b: u32) -> monotable_model::Model {
        let text = format!(
            r#"
[table]
name = "Summed"
partition_key = {{ name = "PK", type = "S" }}
sort_key = {{ name = "SK", type = "S" }}

[entities.A]
attributes.id = {{ type = "string", required = true }}
keys.PK = "RECENT"
keys.SK = "A#{{id}}"

[entities.B]
attributes.id = {{ type = "string", required = true }}
keys.PK = "RECENT"
keys.SK = "B#{{id}}"

[traffic.entities.A]
writes_per_second = {a}
item_size_bytes = 1000

[traffic.entities.B]
writes_per_second = {b}
item_size_bytes = 1000
"#
        );
        monotable_model::parse(&text).expect("model")
    }

    fn summed(a: u32, b: u32) -> Vec<String> {
        let mut out = Vec::new();
        summed_writes(&model(a, b), &mut out);
        out.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn writers_are_summed_only_when_each_is_under_and_both_are_over() {
        assert_eq!(
            summed(600, 550),
            [
                "hot partition: `A` and `B` together write ~1150 WCU/s into one `PK` partition of the table"
            ]
        );
        // Exactly at the limit together: fine.
        assert!(summed(500, 500).is_empty());
        // One over alone is reported alone (by the single-writer rule), not summed.
        assert!(summed(1200, 100).is_empty());
    }
}
